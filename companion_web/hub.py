"""The live hub: the app loop publishes the game's state, every open page receives it.

``GameHub.publish(state)`` is thread-safe and cheap for many viewers: the state is
rendered (board SVG, explanations) and serialised to JSON **once** per update, then the
same bytes go to every server-sent-events stream. Each message carries the whole view,
so a page that reconnects catches up by receiving the latest message; ``Last-Event-ID``
only spares it a duplicate when it is already up to date.

Each update is serialised twice: in full (``log_from: 0``, the whole log) and as a delta
whose ``log`` holds only the entries after ``log_from``. A stream that sent the previous
version gets the delta, so a long game's log does not travel to 100 phones at every
move; any other stream (new page, reconnect after missing updates) gets the full one.

The state the app publishes is a dict; every key is optional:

- ``position``: the contract JSON position (as ``maamut resolve`` prints it);
- ``players``: ``{id: {"name": display name, "colour": "#rrggbb"}}``;
- ``log``: ``[{"notation": "A:E2", "action": {...}, "events": [...]}, ...]``, oldest first;
- ``winner``, ``needs`` (as in the contract), ``illegal``: ``[{"cell": "q,r", "reason": ...}]``;
- ``pending_events``: while ``needs`` waits, the waiting turn's events (its move and the
  mammoth's path are drawn from them);
- ``led_cells``: the cell under each LED (``None`` for a status LED), when the LED
  chain is not the default serpentine;
- ``leds``: ``[[r, g, b], ...]`` from the simulated LED backend;
- ``camera``: ``{"frame": n, "confidence": {"q,r": 0.0-1.0}, "light": {...}}``, set by
  :meth:`GameHub.publish_frame` together with the frame itself; ``light`` is the camera's
  word on the light (``vision.relight.LightWatch.status``: warnings and the last re-learn).

>>> hub = GameHub(render=lambda state: {"n": len(state)})
>>> hub.publish({"winner": None})
1
>>> version, payload = hub.latest()
>>> version, payload
(1, b'{"n": 1, "version": 1, "log_from": 0}')
>>> hub.wait_for_update(after=1, timeout=0.01) is None
True
>>> hub.message(*hub.latest()).splitlines()[:2]
[b'id: 1', b'event: state']
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator


class GameHub:
    def __init__(self, render: Callable[[dict], dict] | None = None):
        if render is None:
            from .view import live_view

            render = live_view
        self._render = render
        self._cond = threading.Condition()
        # Serialises whole publications (read-modify-render-swap) so an LED update and a
        # game update arriving together cannot undo each other.
        self._publishing = threading.RLock()
        self._version = 0
        self._state: dict = {}
        # Before the first publish, pages show an empty board rather than nothing.
        empty = dict(render({}))
        self._payload = json.dumps({**empty, "version": 0, "log_from": 0}, ensure_ascii=False).encode()
        self._delta = self._payload
        self._log: list = list(empty.get("log") or [])
        self._etag: str | None = None
        self._winner = None
        self._last_result = None
        self._previous: dict | None = None
        self._frame: tuple[int, bytes | None, str] = (0, None, "image/jpeg")
        self._closed = False
        self._streams = 0
        self._per_address: dict[str, int] = {}

    # -- the app side -------------------------------------------------------------
    def publish(self, state: dict) -> int:
        """Replace the live state and wake every stream; returns the new version."""
        if not isinstance(state, dict):
            raise TypeError("GameHub.publish takes a dict")
        with self._publishing:
            return self._publish(state)

    def _publish(self, state: dict) -> int:
        view = dict(self._render(state))
        log = list(view.get("log") or [])
        with self._cond:
            if "log" in view:
                self._note_previous_game(log, view)
            self._version += 1
            view["version"] = self._version
            # Serialise inside the lock so versions and payloads never cross.
            self._payload = json.dumps({**view, "log_from": 0}, ensure_ascii=False).encode()
            common = 0
            for old, new in zip(self._log, log):
                if old != new:
                    break
                common += 1
            if "log" in view:
                self._delta = json.dumps({**view, "log": log[common:], "log_from": common},
                                         ensure_ascii=False).encode()
            else:
                self._delta = self._payload
            self._log = log
            self._etag = view.get("etag")
            self._state = state
            self._cond.notify_all()
            return self._version

    def _note_previous_game(self, log: list, view: dict) -> None:
        """Remember how the last game ended when a new one replaces it (also a game cut
        short, e.g. at a stand's turn limit), until the new game's first turn."""
        def turns(entries):
            return sum(1 for e in entries if "@" not in str(e.get("notation", "") if isinstance(e, dict) else e))

        old = self._log
        replaced = bool(old) and turns(old) > 0 and (not log or log[0] != old[0]) and len(log) <= len(old)
        if replaced:
            self._previous = {"turns": turns(old), "winner": self._winner, "result": self._last_result}
        elif turns(log) > 0:
            self._previous = None
        self._winner = view.get("winner")
        self._last_result = view.get("result")
        view["previous"] = self._previous

    def update(self, **parts) -> int:
        """Publish the current state with some keys replaced (e.g. ``leds=...``); atomic
        with respect to other publications."""
        with self._publishing:
            with self._cond:
                state = dict(self._state)
            state.update(parts)
            return self._publish(state)

    def publish_frame(self, jpeg: bytes, confidence: dict | None = None,
                       content_type: str = "image/jpeg", light: dict | None = None) -> int:
        """Store the camera's latest annotated frame (the vision part draws the detected
        grid on it) and tell the pages, with the per-cell confidences ``{"q,r": 0..1}``.

        Every call is an update sent to every page: call it when the picture matters
        (a change seen, or about once a second), not for every camera frame.
        """
        if not isinstance(jpeg, (bytes, bytearray)):
            raise TypeError("publish_frame takes the encoded image bytes")
        with self._publishing:
            with self._cond:
                self._frame = (self._frame[0] + 1, bytes(jpeg), content_type)
                number = self._frame[0]
                previous = self._state.get("camera") or {}
            camera = {"frame": number,
                      "confidence": confidence if confidence is not None else previous.get("confidence", {})}
            light = light if light is not None else previous.get("light")
            if light is not None:
                camera["light"] = light
            self.update(camera=camera)
            return number

    def close(self) -> None:
        """Wake every stream so it ends (server shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    # -- the web side -------------------------------------------------------------
    @property
    def state(self) -> dict:
        with self._cond:
            return self._state

    def latest(self) -> tuple[int, bytes]:
        with self._cond:
            return self._version, self._payload

    def latest_tagged(self) -> tuple[int, bytes, str | None]:
        """The latest message with the game's entity tag it was rendered from (``None``
        while no game has been published)."""
        with self._cond:
            return self._version, self._payload, self._etag

    def message_sizes(self) -> tuple[int, int]:
        """Bytes of the latest update in full and as a delta (for the benchmark)."""
        with self._cond:
            return len(self._payload), len(self._delta)

    def frame(self) -> tuple[int, bytes | None, str]:
        with self._cond:
            return self._frame

    def wait_for_update(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        """The latest message once its version is past ``after``; ``None`` on timeout.

        The delta form when ``after`` is the version just before, else the full form."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._version <= after and not self._closed:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)
            if self._closed:
                return None
            return self._version, self._delta if after == self._version - 1 else self._payload

    @property
    def closed(self) -> bool:
        return self._closed

    @staticmethod
    def message(version: int, payload: bytes) -> bytes:
        """One server-sent event (the payload is one JSON line, so one ``data:``)."""
        return b"id: %d\nevent: state\ndata: %s\n\n" % (version, payload)

    def try_open_stream(self, limit: int, address: str | None = None, per_address: int | None = None) -> bool:
        """Take a stream slot: at most ``limit`` in all and ``per_address`` for one client
        address, so one laptop cannot take every slot from the phones around it.

        >>> hub = GameHub(render=lambda state: {})
        >>> [hub.try_open_stream(10, "10.0.0.5", 2) for _ in range(3)], hub.try_open_stream(10, "10.0.0.6", 2)
        ([True, True, False], True)
        >>> hub.close_stream("10.0.0.5"); hub.try_open_stream(10, "10.0.0.5", 2)
        True
        """
        with self._cond:
            if self._streams >= limit:
                return False
            if address is not None and per_address is not None:
                if self._per_address.get(address, 0) >= per_address:
                    return False
                self._per_address[address] = self._per_address.get(address, 0) + 1
            self._streams += 1
            return True

    def close_stream(self, address: str | None = None) -> None:
        with self._cond:
            self._streams -= 1
            if address is not None and address in self._per_address:
                self._per_address[address] -= 1
                if self._per_address[address] <= 0:
                    del self._per_address[address]

    @property
    def open_streams(self) -> int:
        with self._cond:
            return self._streams

    def stream(self, last_seen: int, heartbeat_s: float, retry_ms: int) -> Iterator[bytes]:
        """The byte chunks of one viewer's event stream (call ``close_stream`` after).

        Sends the latest state at once unless the viewer already has it, then every
        update, with a comment line as heartbeat while nothing happens.
        """
        yield b"retry: %d\n\n" % retry_ms
        version, payload = self.latest()
        if version != last_seen:
            yield self.message(version, payload)
        while not self._closed:
            update = self.wait_for_update(version, heartbeat_s)
            if update is None:
                if self._closed:
                    return
                yield b": keep-alive\n\n"
                continue
            version, payload = update
            yield self.message(version, payload)
