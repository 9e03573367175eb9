"""Fixtures of the web tests: a fresh app per test, a real waitress server when needed."""

from __future__ import annotations

import pytest

import engine
from companion_web import create_app
from companion_web.serve import BackgroundServer

from tests.chromium import launched
from web_fixtures import CHROMIUM, FIGURE, PIN, watched_context  # noqa: F401  (re-exported for the tests)


@pytest.fixture
def app():
    return create_app({"REFEREE_PIN": PIN, "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def referee():
    """Headers of a script acting with the referee's PIN."""
    return {"X-Referee-PIN": PIN}


@pytest.fixture
def figure_position():
    return engine.position_to_json(engine.notation.position_from_text(FIGURE))


@pytest.fixture
def live_server(app):
    """The app served by waitress on a free loopback port; yields the base URL."""
    server = BackgroundServer(app, threads=16).start()
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, for one test module."""
    with launched() as browser:
        yield browser


@pytest.fixture
def server():
    """A fresh app served by waitress (24 threads) for one browser test."""
    running = BackgroundServer(create_app({"REFEREE_PIN": PIN}), threads=24).start()
    yield running
    running.stop()


@pytest.fixture
def page(browser):
    """A desktop page that records its errors (see ``web_fixtures.watched_context``)."""
    context, page = watched_context(browser)
    yield page
    context.close()
