"""Serving the app with waitress (a production WSGI server; never Flask's dev server).

Every open page holds one server-sent-events stream, and waitress gives each request a
thread of its own for as long as it runs, so ``threads`` is sized from the config
(``WAITRESS_THREADS``, default 168: 150 viewers plus a reserve for page loads and API
calls). Waitress 3 hands each chunk to the socket at once (``send_bytes`` is 1), so an
event is not held back to fill a buffer.

Two things a convention Wi-Fi does to a small server, and what we set against them:

- **Idle connections.** A socket that connects and sends nothing costs no thread, but
  waitress stops accepting once ``connection_limit`` sockets are open, and by default
  closes idle ones only after two minutes: 260 idle sockets from one laptop made every
  page time out. So the limit is high (``WAITRESS_CONNECTION_LIMIT``, within the
  process's file limit, with ``poll`` rather than ``select``), idle sockets are closed
  after ``WAITRESS_IDLE_TIMEOUT_S`` (checked every second or two), and one client
  address keeps at most ``WAITRESS_IDLE_PER_ADDRESS`` idle sockets: its next one closes
  its own oldest idle socket, never anybody else's. A socket serving a request (an
  open page's event stream) is never idle.
- **Memory.** Waitress keeps the bytes it has already sent in each connection's output
  buffer until the buffer reaches ``outbuf_high_watermark`` (16 MB by default), so an
  open page grew the server by the size of every update (about 42 KB/s). The watermark
  is ``WAITRESS_OUTBUF_HIGH_WATERMARK`` (256 KB): the buffer is rotated and the sent
  one freed at that size, and a phone that stops reading holds up only its own stream.

>>> from companion_web import create_app
>>> server = make_server(create_app(), "127.0.0.1", 0)
>>> int(server.effective_port) > 0, server.adj.outbuf_high_watermark <= 1 << 20
(True, True)
>>> server.close()
"""

from __future__ import annotations

import resource

from flask import Flask
from waitress import create_server, wasyncore
from waitress.channel import HTTPChannel


class GuardedChannel(HTTPChannel):
    """A waitress connection that makes room for itself: when its client address
    already holds more idle sockets than allowed, the oldest of them is closed."""

    idle_per_address = 16

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        host = addr[0] if isinstance(addr, tuple) and addr else addr
        idle = [ch for ch in list(server.active_channels.values())
                if ch is not self and _host(ch) == host and _is_idle(ch)]
        excess = len(idle) + 1 - self.idle_per_address
        if excess > 0:
            idle.sort(key=lambda ch: ch.last_activity)
            for channel in idle[:excess]:
                channel.will_close = True  # the server loop closes it on its next turn


def _host(channel):
    addr = getattr(channel, "addr", None)
    return addr[0] if isinstance(addr, tuple) and addr else addr


def _is_idle(channel) -> bool:
    return not (channel.requests or channel.total_outbufs_len or channel.will_close
                or channel.close_when_flushed)


def _connection_limit(wanted: int) -> int:
    """``wanted``, within the process's limit of open files (raised to its hard limit
    when allowed), keeping a reserve for the journal, the camera and the threads."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted + 128:
        target = wanted + 128 if hard == resource.RLIM_INFINITY else min(hard, wanted + 128)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, soft - 128))


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int | None = None):
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` stops it).

    ``port=0`` picks a free port: read ``int(server.effective_port)``.
    """
    config = app.config
    threads = threads or config["WAITRESS_THREADS"]
    limit = _connection_limit(max(config["WAITRESS_CONNECTION_LIMIT"], threads + 64))
    idle_timeout = max(1, int(config["WAITRESS_IDLE_TIMEOUT_S"]))
    server = create_server(app, host=host, port=port, threads=threads, connection_limit=limit,
                           channel_timeout=idle_timeout, cleanup_interval=max(1, min(idle_timeout // 2, 5)),
                           outbuf_high_watermark=config["WAITRESS_OUTBUF_HIGH_WATERMARK"],
                           asyncore_use_poll=True, ident="maamut", clear_untrusted_proxy_headers=True)
    guarded = type("GuardedChannel", (GuardedChannel,),
                   {"idle_per_address": max(1, int(config["WAITRESS_IDLE_PER_ADDRESS"]))})
    server.channel_class = guarded
    return server


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
            # A poll that races stop()'s closing of its sockets may fail; only an error
            # before stop() is a real one.
            if not self._stopping:
                raise

    def start(self) -> "BackgroundServer":
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping = True
        self.app.extensions["maamut_hub"].close()
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=timeout)
        if self._thread.is_alive():
            # The poll loop owns its sockets: they are closed from inside it (a trigger
            # thunk), so nothing is closed under a poll that still uses it.
            self.server.trigger.pull_trigger(self._close_sockets)
            self._thread.join(timeout)
        else:
            self._close_sockets()
        if not self._thread.is_alive() and not self.server.task_dispatcher.threads:
            # Only once no thread can pull it: a closed pipe's number is soon another
            # file's, and a late pull would write into that file.
            self.server.trigger.close()

    def _close_sockets(self) -> None:
        """Every connection and the listening socket; the loop ends with its map empty."""
        trigger = self.server.trigger
        for dispatcher in list(self.server._map.values()):
            if dispatcher is not trigger and dispatcher is not self.server:
                dispatcher.close()
        wasyncore.dispatcher.close(self.server)
        trigger.del_channel()
