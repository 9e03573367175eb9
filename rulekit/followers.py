"""The devices following a live table: each hears the table's public state after every change.

Mammut's and La Vallée's live tables both announce their state to the site's event
streams (``companion_web.games``) the same way, so the bookkeeping lives here once.

>>> followers = Followers()
>>> heard = []
>>> followers.add(heard.append)
>>> followers.announce(lambda: {"turn": 2})
>>> heard
[{'turn': 2}]

With nobody following, the state is never built (it can be a whole page's view):

>>> Followers().announce(lambda: 1 / 0)
"""
from __future__ import annotations

from typing import Any, Callable


class Followers:
    """Callbacks told ``fn(state)`` after each change, in the order the changes happened.

    The table calls :meth:`announce` with its lock held, right after a change, so each
    follower sees every state once and in order.
    """

    def __init__(self) -> None:
        self._callbacks: list[Callable[[Any], None]] = []

    def add(self, fn: Callable[[Any], None]) -> None:
        self._callbacks.append(fn)

    def announce(self, build_state: Callable[[], Any]) -> None:
        if self._callbacks:
            state = build_state()
            for fn in list(self._callbacks):
                fn(state)
