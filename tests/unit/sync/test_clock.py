"""The hybrid logical clock (db.sync.clock): stamps only grow, order as their text does, and a clock that runs
behind still stamps after everything it received."""

from db.sync.clock import Clock, Stamp


def test_stamps_grow_even_when_the_wall_clock_stands_still_or_goes_back():
    times = iter([1000, 1000, 999, 2000])
    clock = Clock("a", now=lambda: next(times))
    stamps = [clock.tick() for _ in range(4)]
    assert stamps == sorted(stamps) and len(set(stamps)) == 4
    assert [(s.wall, s.counter) for s in stamps] == [(1000, 0), (1000, 1), (1000, 2), (2000, 0)]


def test_a_clock_an_hour_behind_stamps_after_what_it_received():
    laptop = Clock("laptop", now=lambda: 10_000_000)
    desktop = Clock("desktop", now=lambda: 10_000_000 - 3_600_000)  # an hour slow
    seen = laptop.tick()
    desktop.receive(seen)
    later = desktop.tick()
    assert later > seen and later.text > seen.text


def test_an_edit_is_stamped_at_its_own_time_not_later_than_now():
    clock = Clock("a", now=lambda: 5000)
    assert clock.tick(at=4000) == Stamp(4000, 0, "a")
    assert clock.tick(at=9000) == Stamp(5000, 0, "a")  # a time in the future is taken as now
    assert clock.tick(at=1) == Stamp(5000, 1, "a")  # never back


def test_the_text_sorts_as_the_stamps_and_reads_back():
    stamps = [Stamp(9, 0, "b"), Stamp(10, 0, "a"), Stamp(10, 2, "a"), Stamp(10, 11, "a"), Stamp(10, 11, "b"),
              Stamp(1_800_000_000_000, 0, "a")]
    assert sorted(stamps, key=lambda s: s.text) == sorted(stamps)
    assert [Stamp.parse(s.text) for s in stamps] == stamps


def test_the_device_breaks_a_tie_so_every_device_orders_two_edits_the_same_way():
    a, b = Stamp(10, 0, "a"), Stamp(10, 0, "b")
    assert a != b and max(a, b) == b and max(a.text, b.text) == b.text
