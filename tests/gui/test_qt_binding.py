"""Guards against a Qt-binding bug that crashed the window: PySide6 6.12.0 lowered None's reference count each
time C++ called a Python `data()` override that returned None, until Python aborted (on Python 3.11)."""

import sys

from PySide6.QtCore import QIdentityProxyModel, Qt

from desktop.list.paper_model import PaperTableModel


def test_returning_none_from_data_keeps_none_alive(library):
    model = PaperTableModel(library)
    model.set_ids(library.ids())
    proxy = QIdentityProxyModel()
    proxy.setSourceModel(model)
    index = proxy.index(0, 0)
    before = sys.getrefcount(None)
    for _ in range(2000):
        assert proxy.data(index, Qt.ItemDataRole.DecorationRole) is None  # a role the model does not serve
        assert proxy.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.DisplayRole) is None
    assert sys.getrefcount(None) >= before - 100
