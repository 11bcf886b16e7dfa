"""The sidebar: library views, venues with reading progress, ratings and tags with counts.

A click emits `filterRequested(fragment, add)` with a query fragment (`tag:"x"`, `rating:5`, `venue:"ICML 2026"`,
`read:no`): the window replaces the query's filter of that kind with it, or adds it when `add` (Ctrl+click, as in
Zotero's tag selector); "All papers" emits "" (clear the query). Tags have a context menu to rename, merge and
delete them (with confirmation); what that changed is emitted as `libraryChanged(Changes)`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHeaderView,
    QInputDialog,
    QMenu,
    QMessageBox,
    QTreeWidget,
    QTreeWidgetItem,
)

from db.errors import MarginError
from db.library import facets
from db.library.library import Library
from db.text.render import stars
from desktop.common.i18n import plural
from desktop.common.plain_text import as_plain
from desktop.docks.saved_searches import SavedSearches

FRAGMENT_ROLE = Qt.ItemDataRole.UserRole + 1
TAG_ROLE = Qt.ItemDataRole.UserRole + 2
VENUE_ROLE = Qt.ItemDataRole.UserRole + 3  # a venue entry's venue (for its context menu)
SAVED_ROLE = Qt.ItemDataRole.UserRole + 4  # a saved search's name; its query replaces the whole query


def quote(value: str) -> str:
    """A query value in double quotes (inner quotes dropped: a tag with a quote cannot be typed whole)."""
    return '"' + value.replace('"', " ") + '"'


class Sidebar(QTreeWidget):
    filterRequested = Signal(str, bool)  # query fragment; True: add it to the query (Ctrl+click)
    libraryChanged = Signal(object)  # db.changes.Changes of a tag rename, merge or delete
    queryRequested = Signal(str)  # a saved search: the whole query to show

    def __init__(self, library: Library, parent=None, saved: SavedSearches | None = None):
        super().__init__(parent)
        self.library = library
        self.saved = saved
        self.setHeaderHidden(True)
        self.setColumnCount(2)
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.setRootIsDecorated(True)
        self.setIndentation(14)  # room for the names beside "read 12 of 688": star rows and venues read whole
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        self.itemClicked.connect(self._clicked)
        self._click_modifiers = Qt.KeyboardModifier.NoModifier
        self.refresh()

    def _section(self, title: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(self, [title])
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        item.setExpanded(True)
        return item

    def _entry(self, parent: QTreeWidgetItem, text: str, count: str, fragment: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [text, count])
        item.setData(0, FRAGMENT_ROLE, fragment)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
        return item

    def refresh(self) -> None:
        """Recount everything (cheap: a few GROUP BY queries)."""
        counts = facets.facets(self.library)
        expanded = {self.topLevelItem(i).text(0): self.topLevelItem(i).isExpanded()
                    for i in range(self.topLevelItemCount())}
        self.clear()
        library = self._section(self.tr("Library"))
        self._entry(library, self.tr("All papers"), f"{counts.total:,}", "")
        self._entry(library, self.tr("Unread"), f"{counts.total - counts.read:,}", "read:no")
        recommended = self._entry(library, self.tr("Recommended"), "", "is:recommended")
        recommended.setFirstColumnSpanned(True)  # no count: the name may use the count's room
        recommended.setToolTip(0, self.tr("Unread papers like the ones you rated 4 or 5 stars"))
        interests = self._entry(library, self.tr("Interests"), "", "is:interests")
        interests.setToolTip(0, self.tr("One queue across your interests: a accepts, x dismisses"))
        if self.saved is not None and self.saved.all():
            searches = self._section(self.tr("Saved searches"))
            for name, query in self.saved.all():
                entry = self._entry(searches, name, "", None)
                entry.setData(0, SAVED_ROLE, name)
                entry.setData(1, SAVED_ROLE, query)
                entry.setFirstColumnSpanned(True)
                entry.setToolTip(0, as_plain(query))
        venues = self._section(self.tr("Venues"))
        for venue, read, total in counts.venues:
            name = venue or self.tr("(no venue)")
            entry = self._entry(venues, name, self.tr("read %1 of %2").replace("%1", f"{read:,}")
                                .replace("%2", f"{total:,}"), f"venue:{quote(venue)}" if venue else "")
            entry.setToolTip(0, entry.text(1))
            entry.setData(0, VENUE_ROLE, venue)
        ratings = self._section(self.tr("Ratings"))
        for rating in range(5, 0, -1):
            if counts.ratings.get(rating):
                entry = self._entry(ratings, stars(rating), f"{counts.ratings[rating]:,}", f"rating:{rating}")
                entry.setToolTip(0, self.tr("%n stars", "", rating))
        self._entry(ratings, self.tr("Unrated"), f"{counts.ratings.get(0, 0):,}", "rating:none")
        tags = self._section(self.tr("Tags"))
        for name, count in counts.tags:
            entry = self._entry(tags, name, f"{count:,}", f"tag:{quote(name)}")
            entry.setData(0, TAG_ROLE, name)
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            item.setExpanded(expanded.get(item.text(0), True))

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        if item.data(0, SAVED_ROLE) is not None:
            self.queryRequested.emit(item.data(1, SAVED_ROLE))
            return
        fragment = item.data(0, FRAGMENT_ROLE)
        if fragment is not None:
            add = bool(self._click_modifiers & Qt.KeyboardModifier.ControlModifier)
            self.filterRequested.emit(fragment, add)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self._click_modifiers = event.modifiers()  # itemClicked comes from here: remember Ctrl for _clicked
        super().mouseReleaseEvent(event)
        self._click_modifiers = Qt.KeyboardModifier.NoModifier

    def _context_menu(self, position) -> None:
        item = self.itemAt(position)
        saved = item.data(0, SAVED_ROLE) if item else None
        if saved is not None:
            menu = QMenu(self)
            menu.addAction(self.tr("Delete saved search"), lambda: self.remove_search(saved))
            menu.exec(self.viewport().mapToGlobal(position))
            return
        venue = item.data(0, VENUE_ROLE) if item else None
        if venue:
            menu = QMenu(self)
            liked = menu.addAction(self.tr("Papers I like (positives for recommendations)"))
            liked.setCheckable(True)
            liked.setChecked(("venue", venue) in self.library.liked_sources())
            liked.toggled.connect(
                lambda on: self.libraryChanged.emit(self.library.set_liked_source("venue", venue, on)))
            menu.exec(self.viewport().mapToGlobal(position))
            return
        name = item.data(0, TAG_ROLE) if item else None
        if not name:
            return
        menu = QMenu(self)
        menu.addAction(self.tr("Suggest papers for this tag"),
                       lambda: self.filterRequested.emit(f"similar-tag:{quote(name)}", False))
        interest = menu.addAction(self.tr("Use as an interest"))
        interest.setCheckable(True)
        interest.setChecked(name.casefold() in {tag.casefold() for tag in self.library.interests()})
        interest.toggled.connect(lambda on: self.libraryChanged.emit(self.library.set_interest(name, on)))
        menu.addAction(self.tr("Rename or merge tag…"), lambda: self.rename_tag(name))
        menu.addAction(self.tr("Delete tag…"), lambda: self.delete_tag(name))
        menu.exec(self.viewport().mapToGlobal(position))

    def save_search(self, query: str, name: str | None = None) -> bool:
        """Save `query` under a name (asked for when `name` is None) in the Saved searches section."""
        if self.saved is None or not query.strip():
            return False
        if name is None:
            name, ok = QInputDialog.getText(self, self.tr("Save search"), as_plain(
                self.tr("A name for “%1”:").replace("%1", query)), text=query)
            if not ok:
                return False
        if not name.strip():
            return False
        self.saved.save(name, query)
        self.refresh()
        return True

    def remove_search(self, name: str) -> None:
        if self.saved is not None:
            self.saved.remove(name)
            self.refresh()

    def rename_tag(self, name: str, new: str | None = None) -> bool:
        """Rename `name` (asking for the new name when `new` is None); merging into an existing tag asks first."""
        if new is None:
            new, ok = QInputDialog.getText(self, self.tr("Rename tag"),
                                           as_plain(self.tr("New name for “%1”:").replace("%1", name)), text=name)
            if not ok:
                return False
        existing = {tag.casefold(): tag for tag, _count in self.library.tags()}
        target = existing.get(" ".join(new.split()).casefold())
        if target and target.casefold() != name.casefold():
            answer = QMessageBox.question(self, self.tr("Merge tags"), as_plain(self.tr(
                "“%1” exists already. Merge “%2” into it?").replace("%1", target).replace("%2", name)))
            if answer != QMessageBox.StandardButton.Yes:
                return False
        try:
            changes = self.library.rename_tag(name, new)
        except (ValueError, KeyError, MarginError) as error:  # MarginError: the library is busy or full
            QMessageBox.warning(self, self.tr("Rename tag"), as_plain(str(error)))
            return False
        self.refresh()
        self.libraryChanged.emit(changes)
        return True

    def delete_tag(self, name: str, confirm: bool = True) -> bool:
        count = len(facets.papers_with_tag(self.library, name))
        if confirm:
            answer = QMessageBox.question(self, self.tr("Delete tag"), as_plain(plural(self.tr(
                "Remove the tag “%1” from %Ln paper(s)?", "", count), count).replace("%1", name)))
            if answer != QMessageBox.StandardButton.Yes:
                return False
        try:
            changes = self.library.delete_tag(name)
        except MarginError as error:  # the library is busy or full: nothing was removed
            QMessageBox.warning(self, self.tr("Delete tag"), as_plain(str(error)))
            return False
        self.refresh()
        self.libraryChanged.emit(changes)
        return True
