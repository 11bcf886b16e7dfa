"""The headless commands of `main.py` (ARCHITECTURE.md, "Command line"); `db.cli.commands.main` runs one."""
