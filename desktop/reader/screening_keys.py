"""The screening keys' commands on the current paper (issue 29): include, exclude with a reason, maybe, clear.

The triage keys (desktop.window.shortcuts.TRIAGE_KEYS) call them; the criteria panel's buttons too. Excluding opens
the reason picker, a menu of the library's exclusion reasons numbered 1–9 (a number key picks one, 0 excludes
without a reason, Esc cancels): the decision and its reason are one edit, undone by one Ctrl+Z. Every edit goes
through the window's one write path (desktop.edits.operations), which marks the paper read as a rating does.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QPoint
from PySide6.QtWidgets import QMenu

from db.library.decisions import EXCLUDE, INCLUDE, MAYBE
from desktop.common.button_text import literal

NUMBERED = 9  # reasons picked by a number key; the rest by arrow keys or the mouse


class ReasonPicker(QMenu):
    """The exclusion reasons of `reasons`, numbered; `chosen(reason or None)` is called with the one picked (None:
    exclude without a reason). Esc or a click elsewhere picks nothing. "Edit the reasons…" calls `edit_reasons`;
    not offered when it is None (a project member: the project's owner edits them)."""

    def __init__(self, reasons: list[str], chosen, edit_reasons, parent=None):
        super().__init__(parent)
        self.setObjectName("reasonPicker")
        self.setAccessibleName(self.tr("Exclusion reasons"))
        self.setTitle(self.tr("Exclude: why?"))
        title = self.addAction(self.tr("Exclude: why?"))
        title.setEnabled(False)
        for number, reason in enumerate(reasons, start=1):
            text = literal(reason)  # a reason's own & is no mnemonic
            action = self.addAction(f"&{number}  {text}" if number <= NUMBERED else f"    {text}")
            action.setData(reason)
            action.triggered.connect(lambda _checked=False, r=reason: chosen(r))
        self.addSeparator()
        none = self.addAction(self.tr("&0  Exclude without a reason"))
        none.triggered.connect(lambda _checked=False: chosen(None))
        if edit_reasons is not None:
            self.addAction(self.tr("Edit the reasons…")).triggered.connect(edit_reasons)


class ScreeningKeys(QObject):
    """Include / exclude / maybe / clear for `window` (a MainWindow)'s current paper. `picker` is the reason
    picker while it is open (for tests)."""

    def __init__(self, window):
        super().__init__(window)
        self.w = window
        self.picker: ReasonPicker | None = None

    def include(self) -> None:
        self.decide(INCLUDE)

    def maybe(self) -> None:
        self.decide(MAYBE)

    def clear(self) -> None:
        self.decide(None)

    def resolve(self) -> None:
        """Resolve… a shared project's conflict on the current paper (the V key; desktop.docks.resolve_dialog): the
        criteria dock's project panel, made when first needed, offers it or says why not."""
        self.w.criteria_dock.project_panel.resolve()

    def exclude(self) -> None:
        """Open the reason picker over the reader; the paper is excluded when a reason (or none) is picked."""
        paper_id = self.w.current_paper_id()
        if paper_id is None:
            return
        if self.picker is not None:
            self.picker.close()
        self.picker = ReasonPicker(self.w.library.exclusion_reasons(),
                                   lambda reason: self.decide(EXCLUDE, reason, paper_id),
                                   None if self.w.library.project_book.screening_owner() else self._edit_reasons,
                                   self.w)
        self.picker.aboutToHide.connect(self._picker_closed)
        reader = self.w.reader
        self.picker.popup(reader.mapToGlobal(QPoint(reader.width() // 3, reader.height() // 4)))

    def _picker_closed(self) -> None:
        picker, self.picker = self.picker, None
        if picker is not None:
            picker.deleteLater()

    def _edit_reasons(self) -> None:
        dock = self.w.docks.criteria
        dock.show()
        dock.raise_()
        dock.new_reason.setFocus()

    def decide(self, decision: str | None, reason: str | None = None, paper_id: str | None = None) -> None:
        """Give `paper_id` (default: the current paper) the decision; with "rate and advance" on, go to the next
        paper after a decision made from the current one."""
        current = self.w.current_paper_id()
        paper_id = paper_id or current
        if paper_id is None:
            return
        try:
            changed = self.w.ops.decide(paper_id, decision, reason, initiator=self)
        except KeyError:  # deleted meanwhile (another process)
            return
        if changed and decision and paper_id == current and self.w.setting("rateAndAdvance", False):
            self.w.move_selection(1)
        if changed:
            self.w.statusBar().showMessage(decision_text(decision, reason), 3000)


def decision_text(decision: str | None, reason: str | None = None) -> str:
    """The decision as the window says it: "Included", "Excluded: wrong population", "Maybe", "No decision"."""
    if decision == INCLUDE:
        return QCoreApplication.translate("ScreeningKeys", "Included")
    if decision == EXCLUDE:
        if reason:
            return QCoreApplication.translate("ScreeningKeys", "Excluded: %1").replace("%1", reason)
        return QCoreApplication.translate("ScreeningKeys", "Excluded")
    if decision == MAYBE:
        return QCoreApplication.translate("ScreeningKeys", "Maybe")
    return QCoreApplication.translate("ScreeningKeys", "No decision")
