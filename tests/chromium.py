"""Debian's chromium driven by Playwright, for every browser test (no browser download).

>>> CHROMIUM
'/usr/bin/chromium'
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
#: Headless in a container: no sandbox, no GPU, nothing reaching out to the network.
LAUNCH_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--autoplay-policy=no-user-gesture-required")


@contextmanager
def launched():
    """A headless chromium for the ``with`` block (the test is skipped without Playwright)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(LAUNCH_ARGS))
        try:
            yield browser
        finally:
            browser.close()
