"""The hybrid logical clock every synced change carries (Kulkarni et al., "Logical Physical Clocks", 2014).

A stamp is (wall time in ms since the epoch, counter, device): later wall times order first, the counter orders
changes within one millisecond and after a stamp from a machine whose clock runs ahead, and the device breaks
the last tie, so two stamps are never equal and every device orders them the same way. A device whose clock is
an hour behind still stamps its edits after every change it has received (`receive` moves its clock past
them), so an edit made after seeing another's wins over it.

Stamps travel and are stored as text that sorts like the stamps themselves (`Stamp.text`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from db.library import store as _store  # the wall clock of every logged change

_WALL_DIGITS, _COUNTER_DIGITS = 15, 6


@dataclass(frozen=True, order=True)
class Stamp:
    """One point of the hybrid logical clock: `wall` ms since the epoch, `counter`, `device` (an id)."""

    wall: int
    counter: int
    device: str

    @property
    def text(self) -> str:
        """`000001733100000000.000003.d3f1…`: sorts as the stamps do."""
        return f"{self.wall:0{_WALL_DIGITS}d}.{self.counter:0{_COUNTER_DIGITS}d}.{self.device}"

    @classmethod
    def parse(cls, text: str) -> Stamp:
        """The stamp `text` gives. Raises ValueError for anything else."""
        wall, counter, device = text.split(".", 2)
        return cls(int(wall), int(counter), device)


class Clock:
    """A device's hybrid logical clock. `now()` gives the wall time in ms (this machine's clock by default);
    `state` is (wall, counter) of the latest stamp given or received, kept by the caller between runs."""

    def __init__(self, device: str, state: tuple[int, int] = (0, 0), now: Callable[[], int] | None = None):
        self.device = device
        self.wall, self.counter = state
        self.now = now or (lambda: _store.wall_ms())

    @property
    def state(self) -> tuple[int, int]:
        return self.wall, self.counter

    def tick(self, at: int | None = None) -> Stamp:
        """The stamp of a change made here at wall time `at` (ms; now when None): later than every stamp given
        or received before."""
        physical = self.now() if at is None else min(at, self.now())
        if physical > self.wall:
            self.wall, self.counter = physical, 0
        else:
            self.counter += 1
        return Stamp(self.wall, self.counter, self.device)

    def receive(self, stamp: Stamp) -> None:
        """Move the clock past a stamp received from another device (so what is stamped here next is later)."""
        if stamp.wall > self.wall:
            self.wall, self.counter = stamp.wall, stamp.counter
        elif stamp.wall == self.wall:
            self.counter = max(self.counter, stamp.counter)
