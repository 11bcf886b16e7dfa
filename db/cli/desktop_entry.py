"""A Linux desktop entry for Margin (freedesktop.org Desktop Entry and Icon Theme specifications).

`install(data_home)` writes `applications/margin.desktop` and the icon (`icons/hicolor/scalable/apps/margin.svg`
and `icons/hicolor/256x256/apps/margin.png`) under `data_home` ($XDG_DATA_HOME, by default ~/.local/share),
so the desktop's menu lists Margin; `remove(data_home)` takes them away again. No Qt here.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from db.errors import MarginError
from db.system.resources import ICONS_DIR

APP_ID = "margin"


def data_home() -> Path:
    """$XDG_DATA_HOME, else ~/.local/share."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launch_command() -> list[str]:
    """How the menu starts Margin: the `margin` script beside this Python (pipx, a venv), else this Python
    running the entry point."""
    script = Path(sys.executable).parent / "margin"
    if script.is_file():
        return [str(script)]
    return [sys.executable, str(Path(__file__).resolve().parents[2] / "main.py")]


def entry_text(command: list[str]) -> str:
    """The text of margin.desktop for `command` (quoted as the Desktop Entry specification's Exec key asks)."""
    exec_line = " ".join(_exec_quote(part) for part in command)
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.5",
        "Name=Margin",
        "Name[zh_CN]=Margin 论文摘要",
        "GenericName=Paper abstract reader",
        "GenericName[zh_CN]=论文摘要阅读器",
        "Comment=Read, triage and annotate research-paper abstracts",
        "Comment[zh_CN]=阅读、筛选和批注论文摘要",
        f"Exec={exec_line}",
        f"TryExec={command[0]}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Office;Education;Science;",
        "Keywords=papers;abstracts;research;notes;BibTeX;",
        "StartupWMClass=margin",
        "",
    ])


def _exec_quote(part: str) -> str:
    if not any(c in part for c in ' \t\n"\'\\><~|&;$*?#()`%'):
        return part
    return '"' + part.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$") + '"'


def paths(home: Path) -> dict[str, Path]:
    """Where install() writes: entry, svg icon, png icon."""
    icons = home / "icons" / "hicolor"
    return {"entry": home / "applications" / f"{APP_ID}.desktop",
            "svg": icons / "scalable" / "apps" / f"{APP_ID}.svg",
            "png": icons / "256x256" / "apps" / f"{APP_ID}.png"}


def install(home: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Write the desktop entry and the icons under `home` (data_home() when None). Returns the files written.
    Raises MarginError naming the file that cannot be written."""
    where = paths(home or data_home())
    sources = {"svg": ICONS_DIR / "margin.svg", "png": ICONS_DIR / "margin.png"}
    written = []
    for key, target in where.items():
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if key == "entry":
                target.write_text(entry_text(command or launch_command()), encoding="utf-8")
            else:
                shutil.copyfile(sources[key], target)
        except OSError as error:
            raise MarginError(f"{target}: cannot write it ({error.strerror})") from None
        written.append(target)
    return written


def remove(home: Path | None = None) -> list[Path]:
    """Delete what install() wrote under `home`. Returns the files deleted."""
    removed = []
    for target in paths(home or data_home()).values():
        try:
            target.unlink()
            removed.append(target)
        except FileNotFoundError:
            pass
        except OSError as error:
            raise MarginError(f"{target}: cannot delete it ({error.strerror})") from None
    return removed


__all__ = ["APP_ID", "data_home", "entry_text", "install", "launch_command", "paths", "remove"]
