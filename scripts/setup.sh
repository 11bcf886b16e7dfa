#!/usr/bin/env bash
# Set up Margin: a virtual environment in .venv with the project and its test tools, and, on Debian/Ubuntu
# when run as root, the system libraries Qt needs. Safe to run again: it only does what is missing.
# With MARGIN_TEST_TOOLS=1 (scripts/test.sh sets it when run as root, as in CI) it also installs the programs
# the interop tests read Margin's exports with: biber, BibTeX 0.99d, pandoc, bibutils (ris2xml), LibreOffice Calc (about 20 s and
# 400 MB on Debian 12; the tests skip with this line when they are missing).
set -euo pipefail
cd "$(dirname "$0")/.."

# apt and dpkg hold fcntl locks on these files while they run (unattended-upgrades at a fresh machine's first boot,
# another engineer's install, a CI job): an attempt to take one without waiting tells whether it is held
APT_LOCKS="/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock"
apt_lock_held() {
    python3 - $APT_LOCKS <<'PY' 2>/dev/null
import fcntl, os, sys
for path in sys.argv[1:]:
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        continue  # absent, or not ours to test: apt-get itself will say
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.exit(0)  # held by another process
    finally:
        os.close(fd)
sys.exit(1)
PY
}

# wait (up to 15 minutes, saying so once a minute) until no other apt or dpkg run holds its lock
apt_wait() {
    waited=0
    while apt_lock_held; do
        if [ $((waited % 60)) = 0 ]; then
            echo "margin setup: waiting for another apt/dpkg run to finish (it holds the lock; ${waited} s so far)" >&2
        fi
        if [ "$waited" -ge 900 ]; then
            echo "margin setup: apt/dpkg still busy after 15 minutes; trying anyway" >&2
            return 0
        fi
        sleep 5
        waited=$((waited + 5))
    done
}

# apt-get that waits for another apt or dpkg to let go of its lock (apt's own timeout covers a lock taken
# between the wait and the call)
apt_install() {
    apt_wait
    apt-get -o DPkg::Lock::Timeout=900 update -qq && apt_wait && DEBIAN_FRONTEND=noninteractive \
        apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "$@" >/dev/null
}

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "margin setup: Python 3.11 or newer is needed (tried '$PYTHON'; set PYTHON=/path/to/python3.11)" >&2
    exit 1
fi

# Qt's runtime libraries (Debian/Ubuntu names) and a CJK font for the Chinese collection header.
QT_DEBS="libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-noto-cjk
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1
  libxcb-randr0 libxcb-xfixes0 libxcb-sync1 libxcb-shm0 libxcb-xinerama0 libwayland-client0 libwayland-cursor0
  libwayland-egl1"
if command -v dpkg >/dev/null 2>&1; then
    missing=""
    for deb in $QT_DEBS; do
        dpkg -s "$deb" >/dev/null 2>&1 || missing="$missing $deb"
    done
    if [ -n "$missing" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "margin setup: installing system libraries:$missing"
            apt_install $missing || echo "margin setup: could not install$missing; Qt may fail to start" >&2
        else
            echo "margin setup: Qt may need these system packages: sudo apt-get install$missing" >&2
        fi
    fi
fi

# The interop tests' tools (Debian package names), when asked for
TEST_DEBS="biber texlive-binaries pandoc libreoffice-calc-nogui bibutils nodejs postgresql"  # postgresql: the sync tests' server
if [ "${MARGIN_TEST_TOOLS:-0}" = 1 ] && command -v dpkg >/dev/null 2>&1; then
    missing=""
    for deb in $TEST_DEBS; do
        dpkg -s "$deb" >/dev/null 2>&1 || missing="$missing $deb"
    done
    if [ -n "$missing" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "margin setup: installing the interop tests' tools:$missing"
            started=$(date +%s)
            apt_install $missing || echo "margin setup: could not install$missing; those tests will skip" >&2
            echo "margin setup: tools installed in $(( $(date +%s) - started )) s"
        else
            echo "margin setup: the interop tests skip without: sudo apt-get install --no-install-recommends$missing" >&2
        fi
    fi
fi

# citeproc-js (the CSL processor of Zotero and Mendeley) from the npm registry, for the citation interop tests
# (tests/helpers/interop_tools.py looks for it here; they skip without it)
NODE_TOOLS="${MARGIN_NODE_TOOLS:-$HOME/.cache/margin/node-tools}"
if [ "${MARGIN_TEST_TOOLS:-0}" = 1 ] && command -v npm >/dev/null 2>&1 && [ ! -d "$NODE_TOOLS/node_modules/citeproc" ]; then
    mkdir -p "$NODE_TOOLS"
    npm install --prefix "$NODE_TOOLS" --no-audit --no-fund citeproc@2.4.63 >/dev/null 2>&1 \
        || echo "margin setup: could not install citeproc-js (npm); the citation interop tests will skip" >&2
fi

if [ ! -x .venv/bin/python ]; then
    echo "margin setup: creating .venv"
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.margin-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "margin setup: installing Margin and its dependencies into .venv"
    # pip's and setuptools' own notes (the multi-line "editable installation" warning) are kept out of the
    # way in a log and shown only when the install fails
    log=.venv/margin-install.log
    if ! { .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e ".[test]"; } \
            >"$log" 2>&1; then
        cat "$log" >&2
        echo "margin setup: installing into .venv failed (the lines above; also in $log)" >&2
        exit 1
    fi
    touch "$stamp"
fi

# The translations of a checkout (a wheel compiles its own: setup.py): resources/translations/*.ts → *.qm
for ts in resources/translations/*.ts; do
    qm="${ts%.ts}.qm"
    if [ -f "$ts" ] && { [ ! -f "$qm" ] || [ "$ts" -nt "$qm" ]; }; then
        .venv/bin/pyside6-lrelease -silent "$ts" -qm "$qm" || echo "margin setup: could not compile $ts" >&2
    fi
done

# Qt's X11 and Wayland plugins load more libraries than Python can see: name any that are still missing.
plugins=$(.venv/bin/python -c 'import PySide6, pathlib; print(pathlib.Path(PySide6.__file__).parent / "Qt/plugins/platforms")' 2>/dev/null || true)
if [ -n "$plugins" ] && command -v ldd >/dev/null 2>&1; then
    missing_libs=$(for plugin in "$plugins"/libqxcb.so "$plugins"/libqwayland*.so; do
        [ -f "$plugin" ] && ldd "$plugin" 2>/dev/null | awk '/not found/ {print $1}'; done | sort -u | tr '\n' ' ')
    if [ -n "$missing_libs" ]; then
        echo "margin setup: Qt's window plugins still miss: $missing_libs(the offscreen tests do not need them)" >&2
    fi
fi
