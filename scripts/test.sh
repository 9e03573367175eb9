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

# -- axe-core for the web page's accessibility test (tests/companion_web/test_page_ux.py) -------
# The test injects .cache/axe/node_modules/axe-core/axe.min.js into each page in
# chromium; it is skipped when the file is missing. npm is only needed here, at setup.
if [ ! -f .cache/axe/node_modules/axe-core/axe.min.js ]; then
  if ! command -v npm >/dev/null && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null || true
  fi
  if command -v npm >/dev/null; then
    echo "== installing axe-core for the accessibility test"
    npm install --prefix .cache/axe axe-core --no-audit --no-fund --silent || echo "!! axe-core not installed: the accessibility test will be skipped" >&2
  fi
fi
# -- end of the axe-core block ---------------------------------------------------------

echo "== running the test suite"
exec .venv/bin/python -m pytest "$@"
