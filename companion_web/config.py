"""The companion web page's settings, gathered in one object.

``create_app(config)`` starts from :class:`WebConfig` and overlays ``config`` (a dict or
any object with upper-case attributes), so the app loop, the tests and the benchmark
change only what they need.

>>> cfg = WebConfig()
>>> cfg.MAX_CONTENT_LENGTH <= 256 * 1024, cfg.WAITRESS_THREADS > cfg.SSE_MAX_STREAMS
(True, True)
>>> len(new_pin()), new_pin().isdigit()
(6, True)
"""

from __future__ import annotations

import secrets


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

    #: The live hub (``companion_web.hub.GameHub``) and the table's one live game
    #: (``session.TableSession``); the app wiring passes its own, otherwise
    #: ``create_app`` makes fresh ones (an in-memory game with simulated cards).
    HUB = None
    SESSION = None
    #: Other games the app wiring added to this page, as ``(name, link)`` for the menu.
    OTHER_GAMES: tuple = ()

    #: Used by the JSON API for per-card destinations and the what-if grid.
    CARD_VALUES: tuple[int, ...] = (1, 2, 3)
