"""The headless commands of `main.py` (ARCHITECTURE.md, "Command line"): db.cli.parser (the grammar), db.cli.common
(what every group needs), one module per command group, and db.cli.commands (`run_command`) that dispatches."""
