"""A `~` search embeds the question on a thread of its own while BM25 ranks the words (db.query.overlapped)."""

import threading

import pytest

from db.query import overlapped


def test_the_native_part_runs_on_another_thread_and_both_results_come_back():
    seen = {}

    def native():
        seen["native"] = threading.get_ident()
        return "vector"

    def python():
        seen["python"] = threading.get_ident()
        return "ranking"

    assert overlapped(native, python) == ("ranking", "vector")
    assert seen["python"] == threading.get_ident() and seen["native"] != seen["python"]


def test_the_native_part_starts_before_the_python_part_ends():
    started = threading.Event()

    def python():
        assert started.wait(5), "the question was not being embedded while BM25 ran"
        return 1

    assert overlapped(lambda: started.set() or 2, python) == (1, 2)


def test_an_error_of_either_part_is_raised():
    def fails():
        raise ValueError("no model")

    with pytest.raises(ValueError, match="no model"):
        overlapped(fails, lambda: 1)
    with pytest.raises(ValueError, match="no model"):
        overlapped(lambda: 1, fails)
