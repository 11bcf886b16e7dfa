"""Margin's library: everything that is not Qt.

Paper records, corpus readers, the SQLite store, the whoosh search index, abstract/notes rendering,
exporters and the headless command line. Nothing in this package imports PySide6.
"""
