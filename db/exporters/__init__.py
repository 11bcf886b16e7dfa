"""One module per export format; `db.exporters.registry` is the entry point (`export`, `export_files`, `FORMATS`)."""
