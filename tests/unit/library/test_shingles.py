"""Issue 28: the shingle sets an import makes ahead of matching, many at once (db.library.shingles.
remember_shingles), are the sets `shingles` makes one text at a time — also for short, empty, repeated and
non-ASCII abstracts, and when the word table fills up in the middle of a batch."""

from __future__ import annotations

import random

import pytest

from db.library import shingles as shingling


def _texts() -> list[str | None]:
    rng = random.Random(28)
    words = [f"w{n}" for n in range(3000)] + ["the", "of", "learning", "Über", "naïve", "数据", "x_y", "co-op"]
    texts: list[str | None] = [" ".join(rng.choice(words) for _ in range(rng.randint(5, 120))) for _ in range(300)]
    texts += [None, "", "Withdrawn.", "Part of.", texts[3], texts[3].upper(), "Ünïcode wörds ärë hërë " * 5]
    rng.shuffle(texts)
    return texts


def _one_by_one(texts: list[str | None]) -> list[list[int] | None]:
    made = []
    for text in texts:
        keys = shingling.shingle_array(text or "")
        made.append(None if keys is None else keys.tolist())
    return made


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(shingling, "_recent", {})
    monkeypatch.setattr(shingling, "_sorted", {})
    monkeypatch.setattr(shingling, "_table", shingling._WordTable())


@pytest.mark.parametrize("table_size", [1 << 18, 2500, 600])
def test_sets_made_ahead_are_the_sets_made_one_by_one(fresh, monkeypatch, table_size):
    texts = _texts()
    expected = _one_by_one(texts)
    # a smaller table fills up within a batch (made again: 2,500) or holds fewer words than a batch has (600: one
    # text at a time)
    monkeypatch.setattr(shingling, "_table", shingling._WordTable(size=table_size))
    monkeypatch.setattr(shingling, "_recent", {})
    monkeypatch.setattr(shingling, "_sorted", {})
    for start in range(0, len(texts), 50):
        batch = texts[start : start + 50]
        shingling.remember_shingles(batch)
        for text, wanted in zip(batch, expected[start : start + 50], strict=True):
            assert (text or "") in shingling._recent  # kept: asking again makes nothing
            keys = shingling.shingles(text)
            assert keys == (None if wanted is None else frozenset(wanted))
            if keys is not None:
                assert shingling.ascending(keys) == wanted


def test_a_text_with_more_distinct_words_than_the_table_holds_is_refused(fresh, monkeypatch):
    monkeypatch.setattr(shingling, "_table", shingling._WordTable(size=20))
    with pytest.raises(ValueError):
        shingling.shingle_array(" ".join(f"w{n}" for n in range(40)))


def test_a_text_whose_first_key_is_the_last_key_of_the_text_before_keeps_it(fresh):
    """Made ahead, the texts' keys are sorted side by side: a key that ends one text's and begins the next's is
    still the next one's (shingles of three common words come last in the order)."""
    common = ["the", "of", "in", "to", "for", "and", "on", "with", "by", "from", "as", "is"]
    first = " ".join(f"rare{n}" for n in range(11)) + " the of in"  # its largest key: "the of in"
    wanted = shingling.shingle_key("the", "of", "in")
    rng = random.Random(28)
    while True:  # a text of common words only whose smallest key is "the of in"
        words = ["the", "of", "in"] + [rng.choice(common) for _ in range(10)]
        rng.shuffle(words)
        keys = shingling.shingle_array(" ".join(words))
        if keys is not None and keys[0] == wanted:
            second = " ".join(words)
            break
    assert shingling.shingle_array(first)[-1] == wanted
    expected = [shingling.shingle_array(text).tolist() for text in (first, second)]
    shingling._recent.clear()
    shingling.remember_shingles([first, second])
    assert [shingling.ascending(shingling._recent[text]) for text in (first, second)] == expected
