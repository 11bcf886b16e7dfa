"""The paper list's table model: it keeps paper ids and loads a row's data only when the row is shown."""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from db.changes import DECISION, NOTE, SHARED, TITLE, TRIAGE, Changes
from db.changes import RATING as RATING_CHANGE
from db.changes import READ as READ_CHANGE
from db.changes import TAGS as TAGS_CHANGE
from db.library.library import Library
from db.paper import Paper
from db.text.cleaning import isolate, strip_bidi, tags_text
from db.text.labels import display_label
from db.text.names import family_name
from db.text.render import stars
from desktop.common.plain_text import as_plain
from desktop.list.list_rows import Arranged, one_per_work

COLUMNS = ("label", "rating", "tags", "venue", "year", "read", "authors")  # keys of db.library.facets.SORT_KEYS
LABEL, RATING, TAGS, VENUE, YEAR, READ, AUTHORS = range(len(COLUMNS))
PAPER_ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 3  # the row's second line: authors · venue · year (first column)
ROW_ROLE = Qt.ItemDataRole.UserRole + 4  # what the label cell's delegate paints, in one call (a PaintedRow)
DETAIL_AUTHORS = 3  # authors named in the second line before "et al."
_DISPLAY, _FONT, _TIP, _SPOKEN = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ToolTipRole,
                                  Qt.ItemDataRole.AccessibleTextRole)
# what each kind of change (db.changes) shows in the list: columns and roles (None: every role); kinds not named
# repaint whole rows. The label cell's delegate draws the rating and the tags in its second line (their own columns
# are hidden by default): a rating or tag change repaints it too.
SHOWN_BY_KIND = {
    RATING_CHANGE: {RATING: {_DISPLAY, _SPOKEN, SORT_ROLE}, LABEL: {_DISPLAY}},
    READ_CHANGE: {READ: {_DISPLAY, SORT_ROLE}, LABEL: {_DISPLAY, _FONT}},
    TAGS_CHANGE: {TAGS: {_DISPLAY, _SPOKEN, SORT_ROLE}, LABEL: {_DISPLAY, _SPOKEN}},
    TITLE: {LABEL: {_DISPLAY, _TIP, _SPOKEN, SORT_ROLE}},
    NOTE: {},
    TRIAGE: {},
    DECISION: {LABEL: {_DISPLAY, _SPOKEN}},  # the second line names the screening decision
    SHARED: {},  # others' shared tags and notes: shown in the criteria dock, not in the list
}


@dataclass(frozen=True)
class PaintedRow:
    """What the list's two-line row shows of a paper, as the roles give it: `label` (DisplayRole), `bold` (unread:
    FontRole's bold), `rating` (0 unrated), `tags` (the tags column's text), `detail` (DETAIL_ROLE)."""

    label: str
    bold: bool
    rating: int
    tags: str
    detail: str


_SORT_VALUES = (  # SORT_ROLE of each column
    lambda paper: display_label(paper).casefold(), lambda paper: paper.rating or 0,
    lambda paper: ", ".join(paper.tags).casefold(), lambda paper: paper.venue or "", lambda paper: paper.year or 0,
    lambda paper: int(paper.read),
    lambda paper: family_name(paper.authors[0]).casefold() if paper.authors else "")
_WHOLE_ROW = {column: None for column in range(len(COLUMNS))}
_CACHE_SIZE = 2000
# rows loaded from the library at once around the row asked for: a screenful or two (the rows of a new search are
# loaded on its first paint, on the window's thread: 200 took 4-5 ms at 100k papers, most of them never shown)
_FETCH_CHUNK = 64
_ROOT = QModelIndex()


class PaperTableModel(QAbstractTableModel):
    """Rows are paper ids (search order or library order); row data comes from the Library on demand,
    `_FETCH_CHUNK` rows at a time, kept in an LRU cache of `_CACHE_SIZE` papers. A work with several versions
    (db.library.works) is one row: its version that comes first in the order given."""

    def __init__(self, library: Library, parent=None):
        super().__init__(parent)
        self._library = library
        self._given: list[str] = []  # the ids as given (every version)
        self._ids: list[str] = []  # the rows: one per work
        self._works: dict[str, str] = library.works_of()  # paper id → work id, for papers in a group (a few)
        self._sizes = Counter(self._works.values())
        self._cache: OrderedDict[str, Paper] = OrderedDict()
        self._painted: dict[str, tuple[Paper, PaintedRow]] = {}  # made once per Paper loaded (painted_row)
        self.loaded_rows = 0  # how many rows were loaded from the library (for tests and the benchmark)
        self._headers = {
            LABEL: self.tr("Paper"), RATING: self.tr("Rating"), TAGS: self.tr("Tags"), VENUE: self.tr("Venue"),
            YEAR: self.tr("Year"), READ: self.tr("Read"), AUTHORS: self.tr("Authors"),
        }

    # ------------------------------------------------------------ ids
    def set_ids(self, ids: list[str], arranged: Arranged | None = None) -> None:
        """Show these papers, in this order (a model reset; nothing happens when they are the rows shown).
        When `ids` only adds rows after the rows shown (the rest of a search whose first page is shown), the
        rows are inserted instead: the selection and the scroll place stay. `arranged`: the rows of `ids` made
        already (desktop.list.list_rows, on the search worker), taken when made with this model's works.
        The lists are kept as given, never copied nor changed in place (a copy of 100k ids on the window's
        thread for every search): the model replaces its lists, and so do their senders."""
        self._given = ids
        if arranged is not None and arranged.works is self._works:
            ids = arranged.rows
        else:
            ids = one_per_work(ids, self._works)
        if ids is self._ids or ids == self._ids:
            return
        shown = len(self._ids)
        if 0 < shown < len(ids) and ids[:shown] == self._ids:
            self.beginInsertRows(_ROOT, shown, len(ids) - 1)
            self._ids = ids
            self.endInsertRows()
            return
        self.beginResetModel()
        self._ids = ids
        self.endResetModel()

    def ids(self) -> list[str]:
        """The ids of the rows, in list order (one per work: a work's later versions left out)."""
        return list(self._ids)

    def given_ids(self) -> list[str]:
        """The ids the list was given, in list order, every version of a work (what `margin list` and
        `margin export --query` count)."""
        return list(self._given)

    def works(self) -> dict[str, str]:
        """{paper id: work id} of the papers in a group of versions, as the list shows them (replaced, never
        changed in place: desktop.list.list_rows.ListOrder reads it on the search worker)."""
        return self._works

    def set_works(self, works: dict[str, str]) -> None:
        """The library's groups of versions changed (db.changes.VERSIONS): show one row per work again."""
        self._works, self._sizes = works, Counter(works.values())
        self._cache.clear()
        given, self._given = self._given, []
        self.set_ids(given)

    def version_count(self, paper_id: str) -> int:
        """How many versions the paper's work has (1: a work of its own)."""
        work = self._works.get(paper_id)
        return self._sizes[work] if work else 1

    def remove_ids(self, ids) -> None:
        """Take these papers out of the list (rows removed one block at a time; the others keep their places)."""
        gone = set(ids)
        self._given = [paper_id for paper_id in self._given if paper_id not in gone]
        self._ids = list(self._ids)  # a list of its own to take rows from (set_ids keeps the sender's)
        for row in reversed(self.rows_of(ids)):
            self.beginRemoveRows(_ROOT, row, row)
            self._cache.pop(self._ids.pop(row), None)
            self.endRemoveRows()

    def paper_id(self, row: int) -> str | None:
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def row_of(self, paper_id: str) -> int | None:
        # a scan, not a dict of every row: building that dict took 30 ms of the GUI thread per search at 100k
        # papers; one look-up scans in C (about 1 ms at 100k), and it is asked for one paper at a time
        try:
            return self._ids.index(paper_id)
        except ValueError:
            return None

    def rows_of(self, ids) -> list[int]:
        """The rows of these papers (those shown), in row order: one scan of the list for many papers."""
        ids = list(ids)
        if len(ids) <= 8:
            return sorted(row for row in map(self.row_of, ids) if row is not None)
        wanted = set(ids)
        return [row for row, paper_id in enumerate(self._ids) if paper_id in wanted]

    def refresh_papers(self, ids, changes: Changes | None = None) -> None:
        """Reload these papers after they changed and repaint what changed: with `changes`, the columns and
        roles its kinds show (SHOWN_BY_KIND) of each changed row, one dataChanged per run of neighbouring rows
        and column; without, the whole rows. No reset: selection, scroll place and order stay."""
        ids = list(ids)
        for paper_id in ids:
            self._cache.pop(paper_id, None)
        rows = self.rows_of(ids)
        if not rows:
            return
        if changes is None:
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), len(COLUMNS) - 1))
            return
        shown: dict[tuple[int, frozenset | None], list[int]] = {}  # (column, roles) -> rows
        for row in rows:
            cells: dict[int, set | None] = {}
            for kind in changes.kinds_of(self._ids[row]) or changes.kinds:
                for column, roles in SHOWN_BY_KIND.get(kind, _WHOLE_ROW).items():
                    had = cells.get(column, set())
                    cells[column] = None if had is None or roles is None else had | roles
            for column, roles in cells.items():
                shown.setdefault((column, frozenset(roles) if roles is not None else None), []).append(row)
        for (column, roles), changed in shown.items():
            changed = sorted(set(changed))
            start = previous = changed[0]
            for row in [*changed[1:], None]:
                if row is None or row != previous + 1:
                    self.dataChanged.emit(self.index(start, column), self.index(previous, column),
                                          list(roles or ()))
                    start = row
                previous = row

    def cached(self, paper_id: str) -> Paper | None:
        """The paper as the list holds it (None when it is not loaded: then the library has to be asked)."""
        return self._cache.get(paper_id)

    def paper_of(self, paper_id: str | None) -> Paper | None:
        """The paper with this id, through the list's cache when the list shows it (None when there is none)."""
        if paper_id is None:
            return None
        cached = self._cache.get(paper_id)
        if cached is not None:
            return cached
        row = self.row_of(paper_id)
        if row is not None:
            return self.paper(row)
        try:
            return self._library.paper(paper_id)
        except KeyError:
            return None

    def paper(self, row: int) -> Paper | None:
        """The paper in `row`, loading it (and its neighbours) from the library when not cached."""
        paper_id = self.paper_id(row)
        if paper_id is None:
            return None
        paper = self._cache.get(paper_id)
        if paper is not None:
            self._cache.move_to_end(paper_id)
            return paper
        start = max(0, row - _FETCH_CHUNK // 4)
        chunk = [i for i in self._ids[start : start + _FETCH_CHUNK] if i not in self._cache]
        for loaded in self._library.papers(chunk):
            self._cache[loaded.id] = loaded
        self.loaded_rows += len(chunk)
        while len(self._cache) > _CACHE_SIZE:
            self._painted.pop(self._cache.popitem(last=False)[0], None)
        return self._cache.get(paper_id)

    def painted_row(self, row: int) -> PaintedRow | None:
        """ROW_ROLE: the texts of `row` as painted, made once for the Paper the list holds (a changed paper is
        loaded anew, and made anew): a row painted again asks nothing more of the roles (each a call into
        Python, the detail line a few translations and joins)."""
        paper = self.paper(row)
        if paper is None:
            return None
        made = self._painted.get(paper.id)
        if made is not None and made[0] is paper:
            return made[1]
        painted = PaintedRow(strip_bidi(display_label(paper)), not paper.read, paper.rating or 0,
                             self._value(paper, TAGS, _DISPLAY), self.detail(paper))
        self._painted[paper.id] = (paper, painted)
        return painted

    def detail(self, paper: Paper) -> str:
        """The second line of a row: `A. One, B. Two, C. Three et al. · NIPS 2017` (the year only when the venue
        does not name it; `· 2 versions` after the authors for a work with other versions), then the screening
        decision (`excluded: wrong population`) when there is one. Each author, the venue and the reason are
        bidirectional isolates (desktop.common.plain_text.isolate): a right-to-left name never reorders the line."""
        authors = self.authors(paper)
        venue = paper.venue or ""
        year = str(paper.year) if paper.year and str(paper.year) not in venue else ""
        count = self.version_count(paper.id)
        versions = self.tr("%n versions", "", count) if count > 1 else ""
        return " · ".join(x for x in (authors, versions, isolate(venue), year, self.decision(paper)) if x)

    def decision(self, paper: Paper) -> str:
        """`included`, `excluded: wrong population`, `excluded`, `maybe`, or "" (issue 29)."""
        if paper.decision == "exclude":
            return (self.tr("excluded: %1").replace("%1", isolate(paper.reason)) if paper.reason
                    else self.tr("excluded"))
        return {"include": self.tr("included"), "maybe": self.tr("maybe")}.get(paper.decision or "", "")

    def authors(self, paper: Paper) -> str:
        """`A. One, B. Two, C. Three et al.`: the first DETAIL_AUTHORS authors, each an isolate."""
        authors = ", ".join(isolate(author) for author in paper.authors[:DETAIL_AUTHORS])
        if len(paper.authors) > DETAIL_AUTHORS:
            authors += " " + self.tr("et al.")
        return authors

    # ------------------------------------------------------------ Qt model API
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers.get(section)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == PAPER_ID_ROLE or (role == Qt.ItemDataRole.UserRole and index.column() == LABEL):
            return self.paper_id(index.row())  # Qt.UserRole of the first column: the contract of ARCHITECTURE.md
        if role == ROW_ROLE:
            return self.painted_row(index.row())
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole,
                        SORT_ROLE, DETAIL_ROLE, Qt.ItemDataRole.AccessibleTextRole):
            return None
        paper = self.paper(index.row())
        if paper is None:
            return None
        value = self._value(paper, index.column(), role)
        if role == DETAIL_ROLE or (index.column() in (TAGS, AUTHORS) and role == Qt.ItemDataRole.DisplayRole):
            return value  # composed of fields, each an isolate already (its stored controls removed)
        return strip_bidi(value) if isinstance(value, str) else value  # tags, venue, authors of an older library

    def _value(self, paper: Paper, column: int, role: int):
        if role == DETAIL_ROLE:
            return self.detail(paper) if column == LABEL else None
        if role == Qt.ItemDataRole.FontRole:
            if not paper.read and column == LABEL:
                font = QFont()
                font.setBold(True)
                return font
            return None
        if role == SORT_ROLE:  # only the column's own (the delegate asks the rating's for every row it paints)
            return _SORT_VALUES[column](paper)
        if role == Qt.ItemDataRole.ToolTipRole and column != AUTHORS:
            return as_plain(display_label(paper)) if column == LABEL else None
        if column == LABEL:
            if role == Qt.ItemDataRole.AccessibleTextRole:  # a screen reader hears both lines of the row
                return " · ".join(x for x in (display_label(paper), self.detail(paper), tags_text(paper.tags)) if x)
            return display_label(paper)
        if column == RATING:
            return stars(paper.rating) if role == Qt.ItemDataRole.DisplayRole else (
                self.tr("%n stars", "", paper.rating) if paper.rating else self.tr("unrated"))
        if column == TAGS:
            return tags_text(paper.tags, isolate)
        if column == VENUE:
            return paper.venue or ""
        if column == YEAR:
            return str(paper.year) if paper.year else ""
        if column == READ:
            return self.tr("read") if paper.read else ""
        if column == AUTHORS:
            if role == Qt.ItemDataRole.ToolTipRole:
                return as_plain("; ".join(paper.authors)) if paper.authors else None
            return self.authors(paper)
        return None
