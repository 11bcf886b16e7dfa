"""The sidebar: library views, venues with reading progress, ratings and tags with counts.

A click emits `filterRequested(fragment, add)` with a query fragment (`tag:"x"`, `rating:5`, `venue:"ICML 2026"`,
`read:no`): the window replaces the query's filter of that kind with it, or adds it when `add` (Ctrl+click, as in
Zotero's tag selector); "All papers" emits "" (clear the query). Tags have a context menu to rename, merge and
delete them (with confirmation); venues and tags can be marked as papers I like and interests. Those edits go
through the window's write path (`ops`, desktop.edits.operations); the sidebar shows what they changed when the
window hands it the change (`apply_changes`), like any other: it moves the counts a change moved, in place.
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

from db.changes import ADDED, BIBLIOGRAPHIC, DECISION, READ, REMOVED, TAGS, Changes
from db.changes import RATING as RATING_CHANGE
from db.library import facets
from db.library.library import Library
from db.query_kind import quoted
from db.text.render import stars
from desktop.common.i18n import plural
from desktop.common.plain_text import as_plain
from desktop.docks import sidebar_columns
from desktop.docks.saved_searches import SavedSearches
from desktop.docks.sidebar_columns import COMPACT_ROLE, CountDelegate

FRAGMENT_ROLE = Qt.ItemDataRole.UserRole + 1
TAG_ROLE = Qt.ItemDataRole.UserRole + 2
VENUE_ROLE = Qt.ItemDataRole.UserRole + 3  # a venue entry's venue (for its context menu)
SAVED_ROLE = Qt.ItemDataRole.UserRole + 4  # a saved search's name; its query replaces the whole query
ACTIVE_ROLE = Qt.ItemDataRole.UserRole + 5  # True on an entry whose filter the list's query holds


class Sidebar(QTreeWidget):
    filterRequested = Signal(str, bool)  # query fragment; True: add it to the query (Ctrl+click)
    queryRequested = Signal(str)  # a saved search or a tag's suggestions: the whole query to show
    tagRenamed = Signal(str, str)  # (old, new): a tag renamed or merged here; the search box follows

    def __init__(self, library: Library, parent=None, saved: SavedSearches | None = None):
        super().__init__(parent)
        self.library = library
        self.saved = saved
        self.ops = None  # the window's write path (desktop.edits.operations.Operations), set by the window
        # asks for every count anew off the GUI thread (the window's search worker; its answer comes to refresh):
        # None counts here, at once
        self.count_later = None
        self.counts: facets.Facets | None = None  # the counts the tree was last built with
        self._venues: dict[str | None, tuple[QTreeWidgetItem, int, int]] = {}  # venue: (entry, read, total)
        self._ratings: dict[int, QTreeWidgetItem] = {}  # 1..5, 0 = Unrated
        self._query = ""  # the query the entries were last marked for (mark_active)
        self._tags: dict[str, QTreeWidgetItem] = {}
        self.setHeaderHidden(True)
        self.setColumnCount(2)
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)  # sized by sidebar_columns.fit
        self.setItemDelegateForColumn(1, CountDelegate(self))
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # alike names stay apart: "Computer…Learning"
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

    def _entry(self, parent: QTreeWidgetItem | None, text: str, count: str, fragment: str) -> QTreeWidgetItem:
        """An entry under `parent` (None: one to insert in its place)."""
        item = QTreeWidgetItem(parent, [text, count]) if parent is not None else QTreeWidgetItem([text, count])
        item.setData(0, FRAGMENT_ROLE, fragment)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
        item.setToolTip(0, as_plain(text))  # the whole name, however it is cut
        return item

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        sidebar_columns.fit(self)

    def refresh(self, counts: facets.Facets | None = None) -> None:
        """Build the tree anew with `counts`, or count everything first when None (a few GROUP BY queries: for
        what a change moves, `apply_changes` counts less)."""
        counts = self.counts = counts or facets.facets(self.library)
        expanded = {self.topLevelItem(i).text(0): self.topLevelItem(i).isExpanded()
                    for i in range(self.topLevelItemCount())}
        self.clear()
        library = self._section(self.tr("Library"))
        self._entry(library, self.tr("All papers"), f"{counts.total:,}", "")
        self._unread = self._entry(library, self.tr("Unread"), f"{counts.total - counts.read:,}", "read:no")
        recommended = self._entry(library, self.tr("Recommended"), "", "is:recommended")
        recommended.setFirstColumnSpanned(True)  # no count: the name may use the count's room
        recommended.setToolTip(0, recommended.text(0) + "\n"  # the name too: it may be cut
                               + self.tr("Unread papers like the ones you rated 4 or 5 stars"))
        interests = self._entry(library, self.tr("Interests"), "", "is:interests")
        interests.setToolTip(0, interests.text(0) + "\n"
                             + self.tr("One queue across your interests: a accepts, x dismisses"))
        self._conflicts = None
        if self.library.project_book.projects():  # a shared screening project (issue 27)
            self._conflicts = self._entry(library, self.tr("Conflicts"), "", "is:conflict")
            self._conflicts.setToolTip(0, self._conflicts.text(0) + "\n" + self.tr(
                "The project's papers whose decisions conflict (include against exclude), not resolved yet"))
            self._show_conflicts()
        if self.saved is not None and self.saved.all():
            searches = self._section(self.tr("Saved searches"))
            for name, query in self.saved.all():
                entry = self._entry(searches, name, "", None)
                entry.setData(0, SAVED_ROLE, name)
                entry.setData(1, SAVED_ROLE, query)
                entry.setFirstColumnSpanned(True)
                entry.setToolTip(0, as_plain(query))
        venues = self._section(self.tr("Venues"))
        self._venues = {}
        for venue, read, total in counts.venues:
            entry = self._entry(venues, venue or self.tr("(no venue)"), "", f"venue:{quoted(venue)}" if venue else "")
            entry.setData(0, VENUE_ROLE, venue)
            self._show_venue(venue, entry, read, total)
        self._ratings_section = self._section(self.tr("Ratings"))
        self._ratings = {0: self._entry(self._ratings_section, self.tr("Unrated"), "", "rating:none")}
        self._show_ratings({rating: count for rating, count in counts.ratings.items() if rating})
        self._tags_section = self._section(self.tr("Tags"))
        self._tags = {}
        self._show_tags(counts.tags)
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            item.setExpanded(expanded.get(item.text(0), True))
        self.mark_active(self._query)
        sidebar_columns.fit(self)

    def _rebuild(self) -> None:
        """The tree built again with the counts it has (a saved search added or removed: no count moved)."""
        self.refresh(self.counts)

    # ------------------------------------------------------------------ which filters are on
    def mark_active(self, query: str) -> list[str]:
        """Mark every entry whose filter `query` holds — of every kind at once (Recommended, Unread, a venue, a
        rating, tags) — in bold on a tinted row, and return their names in sidebar order: filters that pile up
        are all seen, not only the last one clicked."""
        self._query = query
        folded, active = " ".join(query.split()).casefold(), []
        brush = self.palette().highlight().color()
        brush.setAlpha(50)
        for section in range(self.topLevelItemCount()):
            top = self.topLevelItem(section)
            for row in range(top.childCount()):
                item = top.child(row)
                fragment = item.data(0, FRAGMENT_ROLE)
                on = bool(fragment) and fragment.casefold() in folded
                if bool(item.data(0, ACTIVE_ROLE)) != on:
                    font = item.font(0)
                    font.setBold(on)
                    item.setFont(0, font)
                    for column in (0, 1):
                        item.setBackground(column, brush if on else Qt.GlobalColor.transparent)
                    item.setData(0, ACTIVE_ROLE, on)
                if on:
                    active.append(item.text(0))
        current = self.currentItem()
        if current is not None and current.parent() is not None and not current.data(0, ACTIVE_ROLE):
            self.clearSelection()  # its filter left the query (typed over, or a tag renamed): not shown as chosen
        return active

    # ------------------------------------------------------------------ what a change moved
    def apply_changes(self, changes: Changes) -> None:
        """Move the counts `changes` moved, in place (the items stay): a rating the rating counts, read the
        changed papers' venues' read counts and Unread, tags the tag counts (an item added for a new tag, taken
        away when its last use went). Papers added, removed or with new bibliographic fields: built anew."""
        if changes.touches(ADDED, REMOVED, BIBLIOGRAPHIC):
            if self.count_later is not None:
                self.count_later()  # a GROUP BY over every paper: on the worker; refresh(counts) follows
            else:
                self.refresh()
            return
        if changes.touches(READ):
            read_ids = [paper_id for paper_id in changes.papers if READ in changes.kinds_of(paper_id)]
            for venue in facets.venues_of(self.library, read_ids):
                if venue in self._venues:
                    entry, _read, total = self._venues[venue]
                    self._show_venue(venue, entry, facets.read_in_venue(self.library, venue), total)
        if changes.touches(RATING_CHANGE):
            self._show_ratings(facets.rating_counts(self.library))
        if changes.touches(TAGS):
            self._show_tags(self.library.tags())
            self.mark_active(self._query)  # a renamed tag's item went: its place is no other tag's choosing
        if changes.touches(DECISION) and self._conflicts is not None:
            self._show_conflicts()
        sidebar_columns.fit(self)  # a count may have grown wider

    def _show_conflicts(self) -> None:
        self._conflicts.setText(1, f"{len(self.library.project_book.conflict_ids()):,}")

    def _show_venue(self, venue: str | None, entry: QTreeWidgetItem, read: int, total: int) -> None:
        self._venues[venue] = (entry, read, total)
        entry.setText(1, self.tr("read %1 of %2").replace("%1", f"{read:,}").replace("%2", f"{total:,}"))
        entry.setData(1, COMPACT_ROLE, f"{read:,}/{total:,}")
        tip = as_plain(f"{entry.text(0)}\n{entry.text(1)}")
        entry.setToolTip(0, tip)
        entry.setToolTip(1, tip)
        everything = sum(total for _entry, _read, total in self._venues.values())
        self._unread.setText(1, f"{everything - sum(read for _entry, read, _total in self._venues.values()):,}")

    def _show_ratings(self, counts: dict[int, int]) -> None:
        """`counts`: papers per rating 1..5; Unrated is what is left of all papers."""
        everything = sum(total for _entry, _read, total in self._venues.values())
        for rating in range(5, 0, -1):
            entry = self._ratings.get(rating)
            if counts.get(rating) and entry is None:
                entry = self._entry(None, stars(rating), "", f"rating:{rating}")
                entry.setToolTip(0, stars(rating) + "\n" + self.tr("%n stars", "", rating))
                self._ratings_section.insertChild(sum(1 for shown in self._ratings if shown > rating), entry)
                self._ratings[rating] = entry
            elif not counts.get(rating) and entry is not None:
                self._ratings_section.removeChild(self._ratings.pop(rating))
                continue
            if entry is not None:
                entry.setText(1, f"{counts[rating]:,}")
        self._ratings[0].setText(1, f"{everything - sum(counts.values()):,}")

    def _show_tags(self, tags: list[tuple[str, int]]) -> None:
        """`tags`: (name, papers) in the order shown."""
        names = {name for name, _count in tags}
        for name in [name for name in self._tags if name not in names]:
            self._tags_section.removeChild(self._tags.pop(name))
        for row, (name, count) in enumerate(tags):
            entry = self._tags.get(name)
            if entry is None:
                entry = self._entry(None, name, "", f"tag:{quoted(name)}")
                entry.setData(0, TAG_ROLE, name)
                self._tags_section.insertChild(row, entry)
                self._tags[name] = entry
            entry.setText(1, f"{count:,}")

    # ------------------------------------------------------------------ clicks and menus
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
            liked.toggled.connect(lambda on: self.set_liked_venue(venue, on))
            menu.exec(self.viewport().mapToGlobal(position))
            return
        name = item.data(0, TAG_ROLE) if item else None
        if not name:
            return
        menu = QMenu(self)
        menu.addAction(self.tr("Suggest papers for this tag"), lambda: self.suggest_for_tag(name))
        interest = menu.addAction(self.tr("Use as an interest"))
        interest.setCheckable(True)
        interest.setChecked(name.casefold() in {tag.casefold() for tag in self.library.interests()})
        interest.toggled.connect(lambda on: self.set_interest(name, on))
        menu.addAction(self.tr("Rename or merge tag…"), lambda: self.rename_tag(name))
        menu.addAction(self.tr("Delete tag…"), lambda: self.delete_tag(name))
        menu.exec(self.viewport().mapToGlobal(position))

    def suggest_for_tag(self, name: str) -> None:
        """Show the tag's suggestions (`similar-tag:"NAME"`) as the whole query, as Similar papers does: the words
        and filters in the box would narrow them (to nothing, often), and Back returns to that query."""
        self.queryRequested.emit(f"similar-tag:{quoted(name)}")

    def set_liked_venue(self, venue: str, liked: bool) -> None:
        """A venue's "Papers I like" (its papers are positives for recommendations), through the window's write
        path: saved now, or kept and saved once the library is free."""
        self.ops.set_liked_source("venue", venue, liked, initiator=self)

    def set_interest(self, name: str, on: bool) -> None:
        """A tag's "Use as an interest", through the window's write path (as `set_liked_venue`)."""
        self.ops.set_interest(name, on, initiator=self)

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
        self.saved.save(name, query, self._rebuild)
        return True

    def remove_search(self, name: str) -> None:
        if self.saved is not None:
            self.saved.remove(name, self._rebuild)

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
        try:  # saved now, or kept and saved once the library is free; the window shows it here once
            self.ops.rename_tag(name, new, initiator=self)
        except ValueError as error:
            QMessageBox.warning(self, self.tr("Rename tag"), as_plain(str(error)))
            return False
        self.tagRenamed.emit(name, target or " ".join(new.split()))
        return True

    def delete_tag(self, name: str, confirm: bool = True) -> bool:
        count = len(facets.papers_with_tag(self.library, name))
        if confirm:
            answer = QMessageBox.question(self, self.tr("Delete tag"), as_plain(plural(self.tr(
                "Remove the tag “%1” from %Ln paper(s)?", "", count), count).replace("%1", name)))
            if answer != QMessageBox.StandardButton.Yes:
                return False
        self.ops.delete_tag(name, initiator=self)  # saved now, or kept and saved once the library is free
        return True
