#!/usr/bin/env bash
# Set everything up (first time only), then lint and run the whole test suite headless.
# Extra arguments go to pytest, e.g. `scripts/test.sh -k search`.
set -euo pipefail
cd "$(dirname "$0")/.."
# as root (CI) the interop tests' tools are installed too (biber, BibTeX, pandoc, LibreOffice: scripts/setup.sh)
if [ "$(id -u)" = 0 ]; then export MARGIN_TEST_TOOLS="${MARGIN_TEST_TOOLS:-1}"; fi
bash scripts/setup.sh
export QT_QPA_PLATFORM=offscreen
.venv/bin/python -m ruff check .
.venv/bin/python -m pytest "$@"
