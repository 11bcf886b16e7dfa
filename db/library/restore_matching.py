"""Finding the library paper a Margin JSON item (a backup's or an export's) stands for, for a restore
(db.library.backup.restore): read-only, by Margin id, DOI, arXiv id, OpenReview id, title with year, abstract."""

from __future__ import annotations

from db.formats.common import year_of
from db.paper import Paper, normalize_text
from db.text.cleaning import tag_key


class PaperFinder:
    """Finds a library paper for a JSON item: by Margin id, DOI, arXiv id, OpenReview id, the same title
    (case-insensitive, NFC) with the same year, then the same abstract (whitespace-normalized). Read-only, so a
    restore never rewrites a paper's bibliographic fields with the file's."""

    def __init__(self, papers: list[Paper]):
        self.by_key: dict[tuple, str] = {}
        for paper in reversed(papers):  # the earliest paper wins a clash
            for key in self._keys(paper.id, paper.doi, paper.arxiv_id, paper.openreview_id, paper.title, paper.year):
                self.by_key[key] = paper.id
            abstract = self._abstract_key(paper.abstract)
            if abstract:
                self.by_key[abstract] = paper.id

    @staticmethod
    def _keys(paper_id, doi, arxiv_id, openreview_id, title, year) -> list[tuple]:
        keys = [("id", paper_id)]
        keys += [(name, value.lower()) for name, value in (("doi", doi), ("arxiv", arxiv_id),
                                                           ("openreview", openreview_id)) if value]
        if title and title.strip():
            keys.append(("title", tag_key(title), year))
        return keys

    @staticmethod
    def _abstract_key(abstract: str | None) -> tuple | None:
        text = normalize_text(abstract or "")
        return ("abstract", text) if len(text) >= 80 else None  # short texts ("withdrawn") are no identity

    def find(self, item: dict) -> str | None:
        titles = [item.get("title")] + ([item.get("label")] if item.get("title_source") == "derived" else [])
        for title in titles:
            for key in self._keys(item["id"], item.get("doi"), item.get("arxiv_id"), item.get("openreview_id"),
                                  title, year_of(item.get("year"))):
                if key in self.by_key:
                    return self.by_key[key]
        return self.by_key.get(self._abstract_key(item.get("abstract")))
