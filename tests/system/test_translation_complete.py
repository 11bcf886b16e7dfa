"""The committed Simplified Chinese translation covers every string of the window, and keeps its placeholders
and accelerators (scripts/translate_zh_CN.py fills it; scripts/update_translations.sh extracts and compiles)."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "translations" / "margin_zh_CN.ts"
LUPDATE = Path(sys.executable).parent / "pyside6-lupdate"
PLACEHOLDER = re.compile(r"%(?:\d+|n)")
ACCELERATOR = re.compile(r"&([^&\s])")  # "&&" is a literal ampersand


def messages(ts: Path) -> list[tuple[str, str, ET.Element]]:
    """(context, source, message element) of every message in `ts`."""
    root = ET.parse(ts).getroot()
    return [(context.findtext("name") or "", message.findtext("source") or "", message)
            for context in root.iter("context") for message in context.iter("message")]


def translations(message: ET.Element) -> list[str]:
    """The translation's text (one per numerus form)."""
    element = message.find("translation")
    if element is None:
        return []
    if message.get("numerus") == "yes":
        return [form.text or "" for form in element.iter("numerusform")]
    return [element.text or ""]


def accelerator(text: str) -> str | None:
    found = ACCELERATOR.findall(text.replace("&&", ""))
    return found[0].upper() if found else None


def test_every_message_is_translated():
    all_messages = messages(TS)
    assert len(all_messages) > 200
    unfinished = [f"{c}: {s!r}" for c, s, m in all_messages
                  if m.find("translation") is None or m.find("translation").get("type") in ("unfinished", "vanished",
                                                                                             "obsolete")]
    empty = [f"{c}: {s!r}" for c, s, m in all_messages
             if not translations(m) or not all(t.strip() for t in translations(m))]
    assert not unfinished, f"unfinished in {TS.name}: {unfinished}"
    assert not empty, f"no translation in {TS.name}: {empty}"


def test_translations_keep_placeholders_and_accelerators():
    problems = []
    for context, source, message in messages(TS):
        wanted = sorted(set(PLACEHOLDER.findall(source)))
        key = accelerator(source)
        for text in translations(message):
            if sorted(set(PLACEHOLDER.findall(text))) != wanted:
                problems.append(f"{context}: {source!r} → {text!r}: placeholders {wanted}")
            if key is not None and accelerator(text) != key:
                problems.append(f"{context}: {source!r} → {text!r}: accelerator &{key}")
    assert not problems, "\n".join(problems)


def test_no_string_of_the_sources_is_missing_from_the_translation(tmp_path):
    if not LUPDATE.exists():
        pytest.skip(f"pyside6-lupdate is not installed beside this Python ({LUPDATE}): cannot extract the strings")
    fresh = tmp_path / "margin_zh_CN.ts"
    sources = ["main.py", *sorted(str(p.relative_to(ROOT)) for folder in ("db", "desktop")
                                  for p in (ROOT / folder).rglob("*.py"))]
    subprocess.run([str(LUPDATE), "-no-obsolete", "-locations", "none", "-target-language", "zh_CN", *sources,
                    "-ts", str(fresh)], cwd=ROOT, check=True, capture_output=True, timeout=300)
    committed = {(c, s) for c, s, _ in messages(TS)}
    extracted = {(c, s) for c, s, _ in messages(fresh)}
    assert len(extracted) > 200
    missing = sorted(extracted - committed)
    assert not missing, ("strings not in margin_zh_CN.ts (run scripts/update_translations.sh, translate them in "
                         f"scripts/translations_zh_CN.py, run scripts/translate_zh_CN.py and both again): {missing}")
