"""Readers for paper-list formats. Each module maps one format onto `db.paper.PaperRecord`.

Every reader has the shape `read(text: str, path: Path) -> tuple[list[PaperRecord], list[Skipped]]` where
`Skipped = tuple[int | None, str]` is (1-based line, reason) of a record that could not be taken. A reader
raises `db.errors.InputError(path, message, line)` only when the file as a whole cannot be read.
`db.formats.importer` chooses the reader (the extension's when the text has its structure, else how the text starts).
"""
