"""One module per export format; `db.export` is the entry point (`export`, `export_files`, `FORMATS`)."""
