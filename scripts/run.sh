#!/usr/bin/env bash
# Set everything up (first time only) and open Margin on the default library (seeded with ICML 2026).
# Extra arguments go to main.py, e.g. `scripts/run.sh --library ~/my-library`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python main.py "$@"
