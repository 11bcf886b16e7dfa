"""One paper-record factory: `paper_record(**fields)` and `papers(n, **fields)` build db.paper.PaperRecord values.

Only what a test names matters; the rest is filled in so that every record is a valid, distinct paper. Records
that are odd on purpose (an empty abstract, hostile text, a file's exact fields) are better written out in full.
"""

from __future__ import annotations

from db.paper import PaperRecord


def paper_record(**fields) -> PaperRecord:
    """A PaperRecord with `fields`; without an abstract it gets one of its own (from the title when there is one)."""
    if "abstract" not in fields:
        fields["abstract"] = f"An abstract about {fields.get('title') or 'a paper'}."
    return PaperRecord(**fields)


def papers(count: int, *, start: int = 0, title: str | None = "Paper {i}",
           abstract: str = "Abstract number {i} about learning.", **fields) -> list[PaperRecord]:
    """`count` records numbered `start`, `start + 1`, …: "{i}" in `title`, `abstract` and any other text field
    is that number (so ids differ); a callable field is called with the number, in order (a seeded generator's
    text stays the same); other fields are the same for every record."""
    def each(value, i):
        if callable(value):
            return value(i)
        return value.format(i=i) if isinstance(value, str) else value

    return [PaperRecord(title=each(title, i), abstract=each(abstract, i), **{k: each(v, i) for k, v in fields.items()})
            for i in range(start, start + count)]
