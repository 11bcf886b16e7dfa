#!/usr/bin/env bash
# Mutation testing (mutmut, [tool.mutmut] in pyproject.toml) of the given db/ modules, one at a time:
#   scripts/mutation.sh db/text/cleaning.py db/text/names.py
# Each mutant of the module is run against the fast db/ tests; the survivors are listed at the end with
# `mutmut show NAME` to see one. CPU-heavy: runs under `nice -n 10`; not part of scripts/test.sh or CI.
# Needs mutmut in .venv (`.venv/bin/pip install "mutmut==3.8.1"`, pyproject's `mutation` extra).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
    echo "usage: scripts/mutation.sh MODULE… (e.g. db/text/cleaning.py db/text/names.py)" >&2
    exit 2
fi
if [ ! -x .venv/bin/mutmut ]; then
    echo "mutation.sh: mutmut is not installed: .venv/bin/pip install \"mutmut==3.8.1\"" >&2
    exit 1
fi
export QT_QPA_PLATFORM=offscreen
for module in "$@"; do
    case "$module" in
        db/*.py) name="${module%.py}"; name="${name//\//.}" ;;
        db.*) name="$module" ;;
        *) echo "mutation.sh: $module: give a module of db/, e.g. db/text/cleaning.py" >&2; exit 2 ;;
    esac
    if [ ! -f "${name//.//}.py" ]; then
        echo "mutation.sh: ${name//.//}.py: no such module" >&2
        exit 2
    fi
    echo "== $module"
    nice -n 10 .venv/bin/mutmut run "$name.*" >/dev/null
    .venv/bin/mutmut results --all true 2>/dev/null | grep -E "^ *$name\." | awk -v m="$module" '
        { status[$NF]++; total++ } / survived$/ { print "  survived: " $1 }
        END { killed = status["killed"] + status["timeout"]; printf "%s: %d mutants, %d killed, %d survived, %d other\n",
              m, total, killed, status["survived"], total - killed - status["survived"] }'
done
