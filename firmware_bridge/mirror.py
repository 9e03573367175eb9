"""The LED strip mirrored on the page, at most a few times a second.

One move plays several scenes and each sets pixels several times; the page needs only
the latest colours, so changes arriving faster than ``rate_hz`` are folded into one
update. ``hub`` is anything with ``update(leds=[[r, g, b], ...])`` (the page's
:class:`companion_web.GameHub`).

>>> from firmware_bridge.backends import SimulatedBackend
>>> class Page:
...     def update(self, leds): self.leds = leds
>>> leds, page = SimulatedBackend(2), Page()
>>> mirror = LedMirror(leds, page)
>>> leds.show([(9, 0, 0), (0, 0, 9)])
>>> page.leds
[[9, 0, 0], [0, 0, 9]]
>>> mirror.close()
"""

from __future__ import annotations

import threading
import time


class LedMirror:
    """Shows ``backend``'s colours on the page, at most ``rate_hz`` times a second."""

    def __init__(self, backend, hub, rate_hz: float = 4.0):
        self.backend = backend
        self.hub = hub
        self.period = 1.0 / rate_hz
        self._lock = threading.Lock()
        self._last = 0.0
        self._timer: threading.Timer | None = None
        self.published = 0
        backend.on_change(self._changed)

    def _changed(self, state=None) -> None:
        with self._lock:
            if self._timer is not None:
                return  # an update is already due: it will show these colours too
            wait = self._last + self.period - time.monotonic()
            if wait > 0:
                self._timer = threading.Timer(wait, self._publish)
                self._timer.daemon = True
                self._timer.start()
                return
            self._last = time.monotonic()
        self._send()

    def _publish(self) -> None:
        with self._lock:
            self._timer = None
            self._last = time.monotonic()
        self._send()

    def _send(self) -> None:
        self.published += 1
        self.hub.update(leds=[list(map(int, rgb)) for rgb in self.backend.rendered(int(time.monotonic() * 1000))])

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


__all__ = ["LedMirror"]
