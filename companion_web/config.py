"""The companion web page's settings, gathered in one object.

``create_app(config)`` starts from :class:`WebConfig` and overlays ``config`` (a dict or
any object with upper-case attributes), so the app loop, the tests and the benchmark
change only what they need. Settings only: the live objects (the table's session, the
hub, the AI, the camera) are ``create_app``'s keyword arguments and live in
``app.extensions``.

>>> cfg = WebConfig()
>>> cfg.MAX_CONTENT_LENGTH <= 256 * 1024, cfg.WAITRESS_THREADS > cfg.SSE_MAX_STREAMS
(True, True)
>>> len(new_pin()), new_pin().isdigit()
(6, True)
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping


def new_pin() -> str:
    """A fresh six-digit referee PIN (shown on the console at start)."""
    return f"{secrets.randbelow(10**6):06d}"


class WebConfig:
    #: Signs the session cookie that remembers a referee login and its CSRF token.
    #: ``None`` means a random key per start: logins do not survive a restart, which is
    #: what we want on a convention table.
    SECRET_KEY: str | bytes | None = None
    #: The PIN that unlocks every change to the game; ``None`` draws a random one.
    REFEREE_PIN: str | None = None
    #: Wrong PINs allowed per client address within ``PIN_LOCKOUT_S`` before a lockout,
    #: so a six-digit PIN cannot be guessed on an open Wi-Fi.
    PIN_MAX_FAILURES: int = 5
    PIN_LOCKOUT_S: float = 300.0

    #: Largest accepted request body. A game record of a long game is a few tens of KB;
    #: anything bigger is a mistake or an attack and gets 413.
    MAX_CONTENT_LENGTH: int = 256 * 1024
    MAX_FORM_MEMORY_SIZE: int = 64 * 1024
    MAX_FORM_PARTS: int = 200

    #: Session cookie: not readable from scripts, never sent by other sites.
    SESSION_COOKIE_HTTPONLY: bool = True
    SESSION_COOKIE_SAMESITE: str = "Strict"
    SESSION_COOKIE_NAME: str = "maamut_session"

    #: Server-sent events: each open page holds one waitress thread for as long as it
    #: stays open, so the thread pool must be larger than the number of viewers.
    #: ``SSE_MAX_STREAMS`` keeps a reserve of threads for page loads and API calls;
    #: pages beyond it get 503 and their EventSource retries a few seconds later.
    SSE_MAX_STREAMS: int = 150
    #: Open pages one client address may hold (a phone has one or two; a laptop
    #: opening hundreds must not take every slot from the phones around it).
    SSE_MAX_STREAMS_PER_ADDRESS: int = 24
    WAITRESS_THREADS: int = 168
    #: A comment line every few seconds keeps idle streams open through waitress's
    #: ``channel_timeout`` and lets a vanished phone free its thread.
    SSE_HEARTBEAT_S: float = 15.0
    #: Milliseconds an EventSource waits before reconnecting.
    SSE_RETRY_MS: int = 2000

    #: Waitress against convention Wi-Fi (see ``companion_web.serve``): open sockets
    #: allowed in all (idle ones cost no thread), seconds before an idle socket is
    #: closed (a page's event stream is never idle), idle sockets one client address
    #: may hold, and the size at which a connection's sent bytes are freed.
    WAITRESS_CONNECTION_LIMIT: int = 2000
    WAITRESS_IDLE_TIMEOUT_S: float = 10.0
    WAITRESS_IDLE_PER_ADDRESS: int = 16
    WAITRESS_OUTBUF_HIGH_WATERMARK: int = 256 * 1024



def web_settings(config) -> dict:
    """The settings in ``config`` (a mapping, or an object's upper-case attributes), each
    one that :class:`WebConfig` or Flask declares; any other key is a ``ValueError``, so a
    setting nobody reads, or a live object passed as a setting, is caught at once.

    >>> web_settings({"SSE_RETRY_MS": 500, "TESTING": True})
    {'SSE_RETRY_MS': 500, 'TESTING': True}
    >>> web_settings({"HUB": object()})
    Traceback (most recent call last):
    ...
    ValueError: not web settings: HUB (live objects are create_app's keyword arguments; settings are declared in companion_web.config.WebConfig)
    """
    from flask import Flask

    if config is None:
        return {}
    settings = dict(config) if isinstance(config, Mapping) else {
        key: getattr(config, key) for key in dir(config) if key.isupper()}
    undeclared = sorted(set(settings) - declared_keys() - set(Flask.default_config))
    if undeclared:
        raise ValueError(f"not web settings: {', '.join(undeclared)} (live objects are create_app's keyword "
                         "arguments; settings are declared in companion_web.config.WebConfig)")
    return settings


def declared_keys() -> set[str]:
    """The settings :class:`WebConfig` declares.

    >>> {"REFEREE_PIN", "SSE_MAX_STREAMS"} <= declared_keys()
    True
    """
    return {key for key in vars(WebConfig) if key.isupper()}
