"""Counts of things in the command line's English: `counted(1, "unseen paper")` is "1 unseen paper",
`counted(1683, "paper")` "1,683 papers" (the window counts with Qt's %Ln plural forms in tr() instead)."""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`n` with digit grouping and the noun phrase `singular` for 1, else `plural` (default: `singular` + "s",
    the last word pluralised as English does for regular nouns)."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"
