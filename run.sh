#!/usr/bin/env bash
# One entry point for a fresh machine.
#   bash run.sh app    install everything into .venv and start the app on its built-in samples
#   bash run.sh test   install everything (and Debian's chromium) and run the whole test suite
# Extra arguments go to `streamlit run` or to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

VENV=.venv
PYTHON=${PYTHON:-python3}

say() { printf '[run.sh] %s\n' "$*" >&2; }

as_root() { [ "$(id -u)" = 0 ]; }

apt_install() {
    # Only as root, and only for what is missing; apt's lists are refreshed first.
    as_root || return 1
    say "apt-get install -y $*"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_venv() {
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        say "tokcore needs Python >= 3.11; $PYTHON is $("$PYTHON" --version 2>&1 || echo missing). Set PYTHON=/path/to/python3.11"
        exit 1
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV"
        if ! "$PYTHON" -m venv "$VENV" 2>/dev/null; then
            rm -rf "$VENV"
            apt_install python3-venv || { say "cannot create a venv: install python3-venv"; exit 1; }
            "$PYTHON" -m venv "$VENV"
        fi
    fi
    say "pip install -e '.[test]' (runtime and test dependencies; log in $VENV/pip-install.log)"
    if ! "$VENV/bin/python" -m pip install --disable-pip-version-check -e '.[test]' >"$VENV/pip-install.log" 2>&1; then
        tail -n 40 "$VENV/pip-install.log" >&2
        say "pip install failed (full log: $VENV/pip-install.log)"
        exit 1
    fi
}

ensure_chromium() {
    # The browser tests drive Debian's chromium (Playwright cannot download browsers here).
    if [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; then
        return 0
    fi
    apt_install chromium || say "chromium is missing and this is not root: browser tests will skip (fail with CI=true)"
}

case "${1:-}" in
    app)
        shift
        ensure_venv
        port=${PORT:-8501}
        # One warm-up run in the background, so the first visitor's deep link works (see tokapp/warmup.py).
        "$VENV/bin/python" -m tokapp.warmup "http://127.0.0.1:$port" &
        exec "$VENV/bin/python" -m streamlit run app.py --server.port "$port" --browser.gatherUsageStats false "$@"
        ;;
    test)
        shift
        ensure_venv
        ensure_chromium
        # pytest's own exit code goes out unchanged: failures fail, and "no tests ran" (5) fails too.
        exec "$VENV/bin/python" -m pytest -n 2 --dist loadgroup "$@"
        ;;
    *)
        echo "usage: bash run.sh app|test [extra arguments]" >&2
        exit 2
        ;;
esac
