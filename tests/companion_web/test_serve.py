"""``BackgroundServer.stop()`` ends the server for good even while a browser keeps its
connections open: the poll thread is joined and the trigger pipe closed only then, so no
late wake-up writes into a file that reused the pipe's number (a test-suite flake once)."""

import http.client
import os

from companion_web import create_app
from companion_web.serve import BackgroundServer


def open_keep_alive(server: BackgroundServer) -> http.client.HTTPConnection:
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    connection.request("GET", "/api/state")
    response = connection.getresponse()
    response.read()
    assert response.status == 200 and not response.will_close, "kept alive, as browsers do"
    return connection


def fd_is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def test_stop_joins_the_poll_thread_and_closes_the_trigger_with_a_connection_still_open():
    server = BackgroundServer(create_app(), threads=4).start()
    connection = open_keep_alive(server)
    trigger_fds = list(server.server.trigger._fds)
    assert all(fd_is_open(fd) for fd in trigger_fds)
    server.stop()
    assert not server._thread.is_alive(), "the poll loop ended though the client never hung up"
    assert server.server.trigger._closed and not server.server._map
    assert not server.server.task_dispatcher.threads
    connection.close()


def test_stop_twice_and_stop_before_start_are_harmless():
    never_started = BackgroundServer(create_app(), threads=2)
    never_started.stop()
    assert never_started.server.trigger._closed
    server = BackgroundServer(create_app(), threads=2).start()
    server.stop()
    server.stop()
    assert not server._thread.is_alive()
