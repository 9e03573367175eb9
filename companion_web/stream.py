"""Live updates as server-sent events, and the camera's latest frame.

A page opens ``/api/stream`` with ``EventSource``; the browser reconnects by itself and
sends ``Last-Event-ID``, and the hub answers with the latest state unless the page
already has it. Each stream holds one waitress thread; beyond ``SSE_MAX_STREAMS`` a
page gets 503 and its EventSource retries later (the threads left serve page loads).
"""

from __future__ import annotations

import functools
import io

from flask import Blueprint, Response, current_app, request

from .jsonio import error_response

bp = Blueprint("stream", __name__)


class _Stream:
    """The event stream's body; ``close`` (called by the server when the page goes away,
    even before the first chunk) gives the stream's slot back exactly once."""

    def __init__(self, hub, chunks, address=None):
        self._hub, self._chunks, self._open, self._address = hub, chunks, True, address

    def __iter__(self):
        return self._chunks

    def close(self):
        if self._open:
            self._open = False
            self._chunks.close()
            self._hub.close_stream(self._address)


def _last_seen() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or ""
    try:
        return int(raw[:20])
    except ValueError:
        return -1


@bp.get("/api/stream")
def stream():
    return event_stream(current_app.extensions["maamut_hub"])


def event_stream(hub):
    """``hub``'s updates as this request's event stream (the live page's, and each other
    game's own: :mod:`companion_web.games`), within the page's stream slots."""
    config = current_app.config
    address = request.remote_addr or "?"
    if not hub.try_open_stream(config["SSE_MAX_STREAMS"], address, config["SSE_MAX_STREAMS_PER_ADDRESS"]):
        response = error_response(503, "busy", "too many open pages; retrying shortly")
        response.headers["Retry-After"] = "5"
        return response
    chunks = hub.stream(_last_seen(), config["SSE_HEARTBEAT_S"], config["SSE_RETRY_MS"])
    return Response(_Stream(hub, chunks, address), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@functools.lru_cache(maxsize=8)
def _qr_svg(url: str) -> bytes:
    import segno

    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, dark="#1b1b1b", light="#ffffff", border=2)
    return buffer.getvalue()


@bp.get("/join.svg")
def join_qr():
    """A QR code of the page's address (as the app published it), for visitors to scan."""
    url = current_app.extensions["maamut_hub"].state.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")) or len(url) > 200:
        return error_response(404, "no_url", "the app has not published the page's address")
    return Response(_qr_svg(url), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})


@bp.get("/camera/frame")
def camera_frame():
    """The latest annotated camera frame (detected grid and confidences drawn on it)."""
    version, data, content_type = current_app.extensions["maamut_hub"].frame()
    if data is None:
        return error_response(404, "no_frame", "no camera frame yet")
    return Response(data, mimetype=content_type, headers={"ETag": f'"frame-{version}"'})
