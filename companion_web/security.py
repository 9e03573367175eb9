"""Open-Wi-Fi safety: the referee PIN, CSRF tokens, response headers.

Viewers only read. Anything that changes the game goes through :func:`referee_required`,
which accepts either

- a script's ``X-Referee-PIN`` header (a custom header cannot be sent cross-site
  without a CORS pre-flight we never grant, so no CSRF token is needed), or
- a browser session that logged in with the PIN **and** carries the session's CSRF
  token in ``X-CSRF-Token`` or a ``csrf_token`` form field.

CSRF is a few lines of our own rather than Flask-WTF: we have no WTForms forms, most
writes are ``fetch`` calls with a header, and a random token kept in Flask's signed
session compared with ``hmac.compare_digest`` is the whole of the protection.
Wrong PINs are counted per client address and lock that address out for a while.
"""

from __future__ import annotations

import functools
import hmac
import secrets
import threading
import time
from collections import deque

from flask import current_app, jsonify, request, session

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


class PinGuard:
    """Checks PINs and throttles guessing per client address.

    >>> guard = PinGuard("123456", max_failures=2, lockout_s=60)
    >>> guard.check("1.2.3.4", "000000"), guard.check("1.2.3.4", "111111")
    (False, False)
    >>> guard.check("1.2.3.4", "123456")  # locked out, even with the right PIN
    False
    >>> guard.check("5.6.7.8", "123456")
    True
    """

    def __init__(self, pin: str, max_failures: int = 5, lockout_s: float = 300.0):
        self.pin = str(pin)
        self.max_failures = max_failures
        self.lockout_s = lockout_s
        self._failures: dict[str, deque] = {}
        self._lock = threading.Lock()

    def locked_out(self, client: str) -> bool:
        now = time.monotonic()
        with self._lock:
            recent = self._failures.get(client)
            if not recent:
                return False
            while recent and now - recent[0] > self.lockout_s:
                recent.popleft()
            return len(recent) >= self.max_failures

    def check(self, client: str, submitted) -> bool:
        if self.locked_out(client):
            return False
        ok = isinstance(submitted, str) and hmac.compare_digest(submitted.strip().encode(), self.pin.encode())
        if not ok:
            with self._lock:
                self._failures.setdefault(client, deque()).append(time.monotonic())
                if len(self._failures) > 10_000:  # never let a flood of addresses fill memory
                    self._failures.clear()
        return ok


def csrf_token() -> str:
    """This session's CSRF token (created on first use); templates call it."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def csrf_ok() -> bool:
    expected = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    return bool(expected) and isinstance(sent, str) and hmac.compare_digest(sent.encode(), expected.encode())


def is_referee() -> bool:
    return bool(session.get("referee"))


def login(pin: str) -> bool:
    guard: PinGuard = current_app.extensions["maamut_pin"]
    if not guard.check(request.remote_addr or "?", pin):
        return False
    session.clear()
    session["referee"] = True
    session["csrf"] = secrets.token_urlsafe(32)  # a fresh token for the new privilege
    return True


def _error(status: int, code: str, message: str):
    response = jsonify({"ok": False, "error": {"code": code, "message": message, "rule": ""}})
    response.status_code = status
    return response


def referee_required(view):
    """Refuse with 401/403 unless the request carries the referee's authority."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        guard: PinGuard = current_app.extensions["maamut_pin"]
        pin = request.headers.get("X-Referee-PIN")
        if pin is not None:
            if guard.check(request.remote_addr or "?", pin):
                return view(*args, **kwargs)
            if guard.locked_out(request.remote_addr or "?"):
                return _error(429, "locked_out", "too many wrong PINs; wait a few minutes")
            return _error(403, "bad_pin", "wrong referee PIN")
        if not is_referee():
            if request.method in ("GET", "HEAD"):
                return _error(401, "referee_only", "for the referee only: log in with the referee PIN first")
            return _error(401, "referee_only", "this changes the game: log in with the referee PIN first")
        # Reading (a record download) cannot be forged into a change: GET needs no token.
        if request.method not in ("GET", "HEAD") and not csrf_ok():
            return _error(403, "csrf", "missing or wrong CSRF token; reload the page")
        return view(*args, **kwargs)

    return wrapper


def add_security_headers(response):
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.setdefault("Cache-Control", "no-store")
    return response
