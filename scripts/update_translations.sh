#!/usr/bin/env bash
# Extract every tr() string of the window into resources/translations/margin_zh_CN.ts (existing translations
# are kept; strings no longer in the code are marked obsolete and dropped with -no-obsolete), then compile it
# into margin_zh_CN.qm beside it for a checkout (a wheel compiles its own at build time: setup.py).
# Translate the .ts with Qt Linguist (`.venv/bin/pyside6-linguist resources/translations/margin_zh_CN.ts`)
# or any .ts editor, then run this again.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${MARGIN_QT_BIN:-.venv/bin}"
TS=resources/translations/margin_zh_CN.ts
"$BIN/pyside6-lupdate" -no-obsolete -locations relative -target-language zh_CN main.py $(find db desktop -name "*.py" | sort) -ts "$TS"
"$BIN/pyside6-lrelease" -silent "$TS" -qm "${TS%.ts}.qm"
echo "updated $TS and ${TS%.ts}.qm"
