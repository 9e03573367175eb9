"""The button loop of ``maamut serve`` (and of ``maamut demo``): each press of the
*done* and *undo* buttons handed to the companion.

It runs in its own thread and only ever proposes changes to the table's session, so a
bouncing button never blocks the page. The camera loop is :mod:`vision.camera_loop`.
"""

from __future__ import annotations

import threading


class ButtonLoop(threading.Thread):
    def __init__(self, companion, camera, stop: threading.Event):
        super().__init__(name="buttons", daemon=True)
        self.companion = companion
        self.camera = camera
        self.stop = stop

    @classmethod
    def start(cls, companion, camera, stop: threading.Event):
        if companion.buttons is None:
            return None
        loop = cls(companion, camera, stop)
        threading.Thread.start(loop)
        return loop

    def run(self) -> None:
        panel = self.companion.buttons
        while not self.stop.is_set():
            event = panel.get_event(timeout=0.2)
            if event is None:
                continue
            self.companion.handle_button(event)
