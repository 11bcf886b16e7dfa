"""File → Keep a Markdown vault updated (issue 30): the annotated papers written to a folder of Markdown files (an
Obsidian vault, db.vault), then each change the window applies (its own edits and other processes') rewrites only
the files of the papers it touched. The folder is kept in QSettings (VAULT_KEY) and taken up again when the
window opens; unchecking the action stops it (the files stay). The writing runs on the background pool."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from db.vault import Vault
from desktop.common.background import run_in_background
from desktop.common.button_text import literal
from desktop.common.i18n import tr

VAULT_KEY = "export/vault"


class VaultKeeper(QObject):
    """The checkable File menu action and the Vault behind it, on `window` (MainWindow)."""

    def __init__(self, window, menu):
        super().__init__(window)
        self.w = window
        self.vault: Vault | None = None
        self.action = QAction(tr("Keep a Markdown &vault updated…"), window)
        self.action.setCheckable(True)
        self.action.setObjectName("keepVaultAction")
        self.action.triggered.connect(self._toggled)
        menu.addAction(self.action)
        self.pending = 0  # writes started and not finished (for tests)
        folder = str(window.settings.value(VAULT_KEY, "") or "")
        if folder:
            self.start(Path(folder))

    def _toggled(self, checked: bool) -> None:
        if not checked:
            self.stop()
            return
        name = QFileDialog.getExistingDirectory(self.w, tr("Keep a Markdown vault updated in"), str(Path.home()))
        if name:
            self.start(Path(name))
        else:
            self.action.setChecked(False)

    def start(self, folder: Path) -> None:
        """Write the annotated papers into `folder` now and keep it updated from then on."""
        self.stop()
        self.vault = Vault(self.w.library, folder)
        self.w.settings.setValue(VAULT_KEY, str(folder))
        self.action.setChecked(True)
        name = literal(folder.name or str(folder))  # a folder's own & is no mnemonic
        self.action.setText(tr("Keep a Markdown &vault updated (%1)").replace("%1", name))
        self.w.libraryChanged.connect(self._changed)
        self._run(self.vault.write_all)

    def stop(self) -> None:
        """Stop keeping the folder updated (its files stay as they are)."""
        if self.vault is not None:
            self.w.libraryChanged.disconnect(self._changed)
        self.vault = None
        self.w.settings.remove(VAULT_KEY)
        self.action.setChecked(False)
        self.action.setText(tr("Keep a Markdown &vault updated…"))

    def _changed(self, changes) -> None:
        vault = self.vault
        if vault is not None:
            self._run(lambda: vault.update(changes))

    def _run(self, work) -> None:
        self.pending += 1
        run_in_background(self, work, self._done, self._failed)

    def _done(self, _result) -> None:
        self.pending -= 1

    def _failed(self, message: str) -> None:
        self.pending -= 1
        self.w.statusBar().showMessage(tr("The Markdown vault could not be written: %1").replace("%1", message), 8000)
