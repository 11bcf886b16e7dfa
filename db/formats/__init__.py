"""Readers for paper-list formats. Each module maps one format onto `db.paper.PaperRecord`.

Every reader module has `read(text: str, path: Path) -> tuple[list[PaperRecord], list[Skipped], str]`: the records,
`Skipped = tuple[int | None, str]` (1-based line, reason) for each record that could not be taken, and the format
read. A reader raises `db.errors.InputError(path, message, line)` only when the file as a whole cannot be read.
Each reader is registered once in `db.formats.registry` (name, extensions, description, how to sniff it), whose
`sniff` chooses among them; `db.formats.importer` decodes a file and hands its text to the chosen reader.
"""
