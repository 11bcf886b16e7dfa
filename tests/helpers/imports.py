"""Shared paths and helpers for the import tests (fixtures here; shared samples skip when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import corpus

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "import"
SHARED = corpus.SHARED / "data"


def shared(*parts: str) -> Path:
    """A file under ../shared/data, or pytest.skip when the shared folder is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared sample {path} is not available")
    return path


def snapshot(library) -> list[tuple]:
    """Everything an import must not change on failure: ids, bibliographic fields and annotations."""
    return [(p.id, p.title, p.abstract, p.doi, p.rating, tuple(p.tags), p.note, p.read, p.user_title)
            for p in library.papers()]
