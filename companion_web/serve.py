"""Serving the app with waitress (a production WSGI server; never Flask's dev server).

Every open page holds one server-sent-events stream, and waitress gives each request a
thread of its own for as long as it runs, so ``threads`` is sized from the config
(``WAITRESS_THREADS``, default 168: 150 viewers plus a reserve for page loads and API
calls) and ``connection_limit`` above it. Waitress 3 hands each chunk to the socket at
once (``send_bytes`` is 1), so an event is not held back to fill a buffer.

>>> from companion_web import create_app
>>> server = make_server(create_app(), "127.0.0.1", 0)
>>> int(server.effective_port) > 0
True
>>> server.close()
"""

from __future__ import annotations

from flask import Flask
from waitress import create_server


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int | None = None):
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` stops it).

    ``port=0`` picks a free port: read ``int(server.effective_port)``.
    """
    threads = threads or app.config["WAITRESS_THREADS"]
    return create_server(app, host=host, port=port, threads=threads, connection_limit=threads + 64,
                         channel_timeout=max(60, int(app.config["SSE_HEARTBEAT_S"] * 4)),
                         ident="maamut", clear_untrusted_proxy_headers=True)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int | None = None) -> None:
    """Serve until interrupted; the hub is closed on the way out so streams end."""
    server = make_server(app, host, port, threads)
    try:
        server.run()
    finally:
        app.extensions["maamut_hub"].close()
        server.close()


class BackgroundServer:
    """The app served by waitress from a thread (tests, benchmark, an app loop that owns
    the main thread). ``stop()`` ends the streams, closes the server and joins the thread.

    >>> from companion_web import create_app
    >>> server = BackgroundServer(create_app(), threads=8).start()
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.stop()
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int | None = None):
        import threading

        self.app = app
        self.server = make_server(app, host, port, threads)
        self.url = f"http://{host}:{int(self.server.effective_port)}"
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="maamut-web", daemon=True)

    def _run(self):
        try:
            self.server.run()
        except (OSError, ValueError):
            # Closing the listening socket under the select loop is how waitress stops
            # from another thread; only an error before stop() is a real one.
            if not self._stopping:
                raise

    def start(self) -> "BackgroundServer":
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping = True
        self.app.extensions["maamut_hub"].close()
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=timeout)
        self.server.close()
        self._thread.join(timeout)
