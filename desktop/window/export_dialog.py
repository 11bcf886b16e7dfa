"""File → Export…: choose a format and which papers, then where; the export runs in the background."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout

from db.exporters.registry import DESCRIPTIONS, EXTENSIONS, FOLDER_FORMATS, FORMATS
from desktop.common.i18n import tr

SCOPES = ("annotated", "all", "search", "selected")



class ExportDialog(QDialog):
    """Asks for a format, the papers to export and whether to include abstracts."""

    def __init__(self, parent=None, has_query: bool = False, selected: int = 0):
        super().__init__(parent)
        self.setWindowTitle(tr("Export"))
        self.format_box = QComboBox(self)
        self.format_box.setAccessibleName(tr("Export format"))
        for fmt in FORMATS:
            self.format_box.addItem(tr(DESCRIPTIONS[fmt]), fmt)
        self.scope_box = QComboBox(self)
        self.scope_box.setAccessibleName(tr("Papers to export"))
        labels = {"annotated": tr("Annotated papers (rated, tagged, noted or titled)"), "all": tr("All papers"),
                  "search": tr("Papers matching the current search"),
                  "selected": tr("Selected papers (%1)").replace("%1", str(selected))}
        for scope in SCOPES:
            self.scope_box.addItem(labels[scope], scope)
        self.scope_box.model().item(SCOPES.index("search")).setEnabled(has_query)
        self.scope_box.model().item(SCOPES.index("selected")).setEnabled(selected > 0)
        self.abstracts = QCheckBox(tr("Include abstracts (Markdown)"), self)
        self.abstracts.setChecked(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(tr("Format"), self.format_box)
        form.addRow(tr("Papers"), self.scope_box)
        form.addRow("", self.abstracts)
        form.addRow(buttons)

    def choice(self) -> tuple[str, str, bool]:
        """(format, scope, include abstracts)."""
        return self.format_box.currentData(), self.scope_box.currentData(), self.abstracts.isChecked()


def ask_output(parent, fmt: str) -> Path | None:
    """Ask for the output file (or folder, for a folder format). None when cancelled."""
    if fmt in FOLDER_FORMATS:
        name = QFileDialog.getExistingDirectory(parent, tr("Export into folder"), str(Path.home()))
    else:
        suffix = EXTENSIONS.get(fmt, "")
        name, _filter = QFileDialog.getSaveFileName(parent, tr("Export"), str(Path.home() / f"margin{suffix}"),
                                                    f"{tr(DESCRIPTIONS[fmt])} (*{suffix});;{tr('All files')} (*)")
    return Path(name) if name else None
