"""The committed Simplified Chinese translation covers every string of the window, and keeps its placeholders
and accelerators (scripts/translate_zh_CN.py fills it; scripts/update_translations.sh extracts and compiles)."""

import ast
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


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[tuple[str, str]]:
    """(context, source) of every string pyside6-lupdate finds in the sources now."""
    if not LUPDATE.exists():
        pytest.skip(f"pyside6-lupdate is not installed beside this Python ({LUPDATE}): cannot extract the strings")
    fresh = tmp_path_factory.mktemp("lupdate") / "margin_zh_CN.ts"
    sources = ["main.py", *sorted(str(p.relative_to(ROOT)) for folder in ("db", "desktop")
                                  for p in (ROOT / folder).rglob("*.py"))]
    subprocess.run([str(LUPDATE), "-no-obsolete", "-locations", "none", "-target-language", "zh_CN", *sources,
                    "-ts", str(fresh)], cwd=ROOT, check=True, capture_output=True, timeout=300)
    return {(c, s) for c, s, _ in messages(fresh)}


def test_no_string_of_the_sources_is_missing_from_the_translation(extracted):
    committed = {(c, s) for c, s, _ in messages(TS)}
    assert len(extracted) > 200
    missing = sorted(extracted - committed)
    assert not missing, ("strings not in margin_zh_CN.ts (run scripts/update_translations.sh, translate them in "
                         f"scripts/translations_zh_CN.py, run scripts/translate_zh_CN.py and both again): {missing}")


# Calls that translate a value rather than a literal: lupdate cannot see what they show, so each is listed here
# with where its strings are marked (QT_TRANSLATE_NOOP, db/text/translatable.py) — a new one must be added, and
# its strings checked below.
VARIABLE_CALLS = {
    ("desktop/common/i18n.py", "QCoreApplication.translate('', text, disambiguation, n)"),  # tr() itself
    ("desktop/edits/operations.py", "QCoreApplication.translate(context, text)"),  # the views' own words
    ("desktop/window/actions.py", "tr(IMPORT_FILTER)"),
    ("desktop/window/actions.py", "tr(SEARCH_SYNTAX_HELP)"),
    ("desktop/window/actions.py", "tr(RECOMMEND_HELP)"),
    ("desktop/window/export_dialog.py", "tr(DESCRIPTIONS[fmt])"),
    ("desktop/window/shortcuts.py", "tr(row.what)"),
}


def variable_calls() -> set[tuple[str, str]]:
    """(file, call) of every tr()/translate() in desktop/ and main.py whose text is not a string literal."""
    found = set()
    for path in [ROOT / "main.py", *sorted((ROOT / "desktop").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            text = node.args[1:2] if name == "translate" else node.args[:1] if name == "tr" else []
            if text and not (isinstance(text[0], ast.Constant) and isinstance(text[0].value, str)):
                found.add((str(path.relative_to(ROOT)), ast.unparse(node)))
    return found


def test_every_translated_variable_is_listed():
    assert variable_calls() == VARIABLE_CALLS


def test_strings_shown_through_a_variable_are_extracted(extracted):
    """What the listed calls show reaches the catalogue (before: the shortcuts, the export formats, the import
    filter, the search syntax and the map legend stayed English in Chinese)."""
    from db.exporters.registry import DESCRIPTIONS
    from db.search import SEARCH_SYNTAX_HELP
    from desktop.docks.map_legend import entries
    from desktop.window.actions import IMPORT_FILTER, RECOMMEND_HELP
    from desktop.window.shortcuts import TRIAGE_KEYS

    shown = [("", row.what) for row in TRIAGE_KEYS]
    shown += [("", text) for name, text in DESCRIPTIONS.items() if name not in ("bibtex", "csl-json")]
    shown += [("", IMPORT_FILTER), ("", SEARCH_SYNTAX_HELP), ("", RECOMMEND_HELP)]
    shown += [("MapDock", words) for by in ("rating", "read", "tag") for _, words in entries(by, "%1")
              if not words.startswith("★")]
    missing = [f"{c}: {s[:60]!r}" for c, s in shown if (c, s) not in extracted]
    assert not missing, f"shown through tr(variable) but never marked for lupdate: {missing}"
