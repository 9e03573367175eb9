#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine, then run it.
# Used as-is by CI (.ci/run) and by the README's second command.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's chromium for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "!! /usr/bin/chromium is missing and we are not root: browser tests will be skipped" >&2
  fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv"
  "$PYTHON" -m venv .venv
fi
echo "== installing the project with its test extra"
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'

echo "== running the test suite"
exec .venv/bin/python -m pytest "$@"
