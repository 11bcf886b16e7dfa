"""The window's edits: undo commands, edits kept while the library is busy, reading, other processes' changes."""
