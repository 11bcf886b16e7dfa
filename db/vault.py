"""A Markdown folder (an Obsidian vault) kept in step with the library (issue 30): `margin export --format
markdown-folder --keep-updated DIR` and the window's File → Keep a Markdown vault updated.

`Vault(library, folder, scope)` writes every paper of its scope once (`write_all`), then `update(changes)` — fed
with each db.changes.Changes the library reports (the window's libraryChanged signal, or the change log that the
command line polls) — rewrites only the files of the papers that changed, writes the files of papers that entered
the scope (a paper annotated for the first time, an imported one with `all`), and removes the file of a paper
deleted from the library. A paper that leaves the scope (its last tag removed) keeps its file: the vault may link
to it. Citation keys (`citekey`) are those of the whole scope, as one export of it would give them; when a change
moves another paper's key (a second `smith2020` arrives), that paper's file is rewritten too.

The files are Margin's: an edit made to one in Obsidian is overwritten when that paper changes in Margin (notes
belong in Margin's note, which the file shows). Other files in the folder are never touched.
"""

from __future__ import annotations

from pathlib import Path

from db.changes import ADDED, REMOVED, Changes
from db.exporters.common import key_stem, keys_of_stems
from db.exporters.markdown import markdown_files, write_folder
from db.library.library import Library

ANNOTATED, ALL = "annotated", "all"


class Vault:
    """A folder of one Markdown file per paper of `scope` (ANNOTATED, ALL, or a fixed list of paper ids), kept
    up to date by `update`. Raises MarginError (from write_folder) when the folder cannot be written."""

    def __init__(self, library: Library, folder: Path, scope: str | list[str] = ANNOTATED,
                 include_abstract: bool = True):
        self.library = library
        self.folder = Path(folder)
        self.scope = scope
        self.include_abstract = include_abstract
        self._members: set[str] = set()
        self._stems: dict[str, str] = {}  # paper id → author-year stem of every paper in the vault
        self._keys: dict[str, str] = {}

    def _scope_ids(self) -> list[str]:
        if self.scope == ALL:
            return self.library.ids()
        if self.scope == ANNOTATED:
            return self.library.annotated_ids()
        present = set(self.library.ids())
        return [paper_id for paper_id in self.scope if paper_id in present]

    def _citation_keys(self, papers) -> dict[str, str]:
        """Keys of the whole scope (db.exporters.common.citation_keys' rule) from the stems of `papers`, which
        replace those known for their ids."""
        for paper in papers:
            self._stems[paper.id] = key_stem(paper)
        return keys_of_stems(self._stems)

    def write_all(self) -> int:
        """Write the file of every paper in the scope. Returns how many were written."""
        papers = self.library.papers(self._scope_ids())
        self._members = {paper.id for paper in papers}
        self._stems = {}
        self._keys = self._citation_keys(papers)
        write_folder(markdown_files(papers, self.include_abstract, self._keys), self.folder)
        return len(papers)

    def update(self, changes: Changes) -> tuple[list[str], list[str]]:
        """Bring the folder up to date after `changes`. Returns (ids whose files were written, ids whose files
        were removed); both empty when the change touched no paper of the vault."""
        if not changes:
            return [], []
        removed = [paper_id for paper_id in changes.papers if REMOVED in changes.kinds_of(paper_id)]
        present = set(self.library.ids()) if removed or changes.touches(ADDED) else None
        gone = [paper_id for paper_id in removed if present is None or paper_id not in present]
        for paper_id in gone:
            self._members.discard(paper_id)
            self._stems.pop(paper_id, None)
            for path in self.folder.glob(f"* ({paper_id}).md"):
                path.unlink(missing_ok=True)
        candidates = [paper_id for paper_id in changes.papers if paper_id not in gone]
        if self.scope == ANNOTATED:
            annotated = set(self.library.annotated_ids())
            candidates = [paper_id for paper_id in candidates if paper_id in self._members or paper_id in annotated]
        elif self.scope != ALL:
            wanted = set(self.scope)
            candidates = [paper_id for paper_id in candidates if paper_id in wanted]
        papers = self.library.papers(candidates) if candidates else []
        self._members.update(paper.id for paper in papers)
        keys = self._citation_keys(papers)
        moved = [paper_id for paper_id, key in keys.items() if self._keys.get(paper_id) not in (None, key)
                 and paper_id not in set(candidates)]
        self._keys = keys
        papers += self.library.papers(moved) if moved else []
        if papers:
            write_folder(markdown_files(papers, self.include_abstract, keys), self.folder)
        return [paper.id for paper in papers], gone
