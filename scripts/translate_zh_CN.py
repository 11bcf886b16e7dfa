"""Fill resources/translations/margin_zh_CN.ts with the Simplified Chinese translations.

Usage: python scripts/translate_zh_CN.py [TS]   (then scripts/update_translations.sh compiles the .qm)

The translations are in scripts/translations_zh_CN.py: TRANSLATIONS maps an English source text to its
translation; CONTEXT_TRANSLATIONS maps (context, source) for a source that needs a different translation in one
context. A message whose source is in neither is left as it is and listed on stderr (exit code 1), so new
strings are easy to spot: add them there and run this again.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent))
from translations_zh_CN import CONTEXT_TRANSLATIONS, TRANSLATIONS  # noqa: E402 - beside this script

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "resources" / "translations" / "margin_zh_CN.ts"


def translation_for(context: str, source: str) -> str | None:
    return CONTEXT_TRANSLATIONS.get((context, source), TRANSLATIONS.get(source))


def translate(ts: Path = TS) -> tuple[int, list[str]]:
    """Write the translations into `ts`; returns (messages translated, sources with no translation here)."""
    tree = etree.parse(str(ts))
    done, missing = 0, []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            text = translation_for(name, source)
            element = message.find("translation")
            if text is None:
                if element is None or element.get("type") == "unfinished":
                    missing.append(f"{name}: {source!r}")
                continue
            if element is None:
                element = etree.SubElement(message, "translation")
            element.attrib.pop("type", None)
            if message.get("numerus") == "yes":  # Chinese has one plural form
                for child in list(element):
                    element.remove(child)
                element.text = "\n            "
                form = etree.SubElement(element, "numerusform")
                form.text = text
                form.tail = "\n        "
            else:
                for child in list(element):
                    element.remove(child)
                element.text = text
            done += 1
    tree.write(str(ts), encoding="utf-8", xml_declaration=True, doctype="<!DOCTYPE TS>")
    return done, missing


def main() -> int:
    ts = Path(sys.argv[1]) if len(sys.argv) > 1 else TS
    done, missing = translate(ts)
    print(f"{ts}: {done} messages translated, {len(missing)} without a translation in translations_zh_CN.py")
    for line in missing:
        print(f"  missing: {line}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
