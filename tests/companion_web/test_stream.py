"""Live updates: the hub and its server-sent-events streams, served by waitress."""

from __future__ import annotations

import json
import socket
import threading
import time
from urllib.parse import urlsplit

from companion_web.hub import GameHub


class Viewer:
    """A bare server-sent-events client on a raw socket (so a test can drop it hard)."""

    def __init__(self, base: str, last_event_id: str | None = None, timeout: float = 10):
        url = urlsplit(base)
        self.sock = socket.create_connection((url.hostname, url.port), timeout=timeout)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id is not None else ""
        self.sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        self.headers = {}
        while (line := self.file.readline().decode().strip()):
            key, _, value = line.partition(":")
            self.headers[key.lower()] = value.strip()

    def next_event(self) -> dict:
        """Read up to the next complete ``state`` event; returns its id and data."""
        fields = {}
        while True:
            line = self.file.readline().decode()
            if line == "":
                raise EOFError("stream closed")
            line = line.rstrip("\r\n")
            if not line:
                if "data" in fields:
                    return {"id": int(fields["id"]), "data": json.loads(fields["data"])}
                fields = {}
            elif not line.startswith(":"):
                key, _, value = line.partition(": ")
                if key.isalpha():
                    fields[key] = value

    def close(self):
        self.file.close()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def test_publish_is_thread_safe_and_versions_are_consecutive():
    hub = GameHub(render=lambda state: {"n": state.get("n")})
    threads = [threading.Thread(target=lambda i=i: [hub.publish({"n": i}) for _ in range(50)]) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    version, payload = hub.latest()
    assert version == 400 and json.loads(payload)["version"] == 400


def test_wait_for_update_wakes_on_publish_and_close():
    hub = GameHub(render=dict)
    got = []
    waiter = threading.Thread(target=lambda: got.append(hub.wait_for_update(0, timeout=10)))
    waiter.start()
    time.sleep(0.05)
    hub.publish({"x": 1})
    waiter.join(timeout=5)
    assert got and got[0][0] == 1
    hub.close()
    assert hub.wait_for_update(1, timeout=10) is None  # returns at once when closed


def test_an_open_page_receives_the_state_at_once_then_every_update(app, live_server):
    viewer = Viewer(live_server)
    assert viewer.status == 200 and viewer.headers["content-type"].startswith("text/event-stream")
    first = viewer.next_event()
    assert first["id"] == 0 and first["data"]["svg"].count('class="cell"') == 37
    hub = app.extensions["maamut_hub"]
    hub.update(leds=[[255, 0, 0]] * 37)
    second = viewer.next_event()
    assert second["id"] == 1 and second["data"]["leds"][0] == "#ff0000" and len(second["data"]["leds"]) == 37
    viewer.close()


def test_a_reconnecting_page_catches_up_and_an_up_to_date_one_gets_no_duplicate(app, live_server):
    hub = app.extensions["maamut_hub"]
    for i in range(3):
        hub.update(leds=[[i, i, i]])
    viewer = Viewer(live_server, last_event_id="1")
    caught_up = viewer.next_event()
    assert caught_up["id"] == 3 and caught_up["data"]["leds"] == ["#020202"]
    viewer.close()
    viewer = Viewer(live_server, last_event_id="3")
    threading.Timer(0.3, lambda: hub.update(leds=[[9, 9, 9]])).start()
    assert viewer.next_event()["id"] == 4  # version 3 was not sent again
    viewer.close()
    viewer = Viewer(live_server, last_event_id="garbage")
    assert viewer.next_event()["id"] == 4
    viewer.close()


def test_streams_beyond_the_limit_get_503_and_closed_pages_free_their_slot(app, live_server):
    app.config["SSE_MAX_STREAMS"] = 2
    hub = app.extensions["maamut_hub"]
    opened = [Viewer(live_server) for _ in range(2)]
    for viewer in opened:
        viewer.next_event()
    refused = Viewer(live_server)
    assert refused.status == 503 and refused.headers["retry-after"]
    refused.close()
    for viewer in opened:
        viewer.close()
    # The server notices a gone page when it next writes to it.
    deadline = time.monotonic() + 10
    while hub.open_streams and time.monotonic() < deadline:
        hub.update(leds=[])
        time.sleep(0.1)
    assert hub.open_streams == 0
    viewer = Viewer(live_server)
    assert viewer.status == 200
    viewer.close()


def test_the_camera_frame_and_its_confidences_reach_the_pages(client, app):
    import cv2
    import numpy as np

    assert client.get("/camera/frame").status_code == 404
    ok, jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))
    assert ok
    number = app.extensions["maamut_hub"].publish_frame(jpeg.tobytes(), {"0,0": 0.97, "1,-1": 0.4})
    response = client.get("/camera/frame")
    assert response.status_code == 200 and response.data == jpeg.tobytes() and response.mimetype == "image/jpeg"
    assert cv2.imdecode(np.frombuffer(response.data, np.uint8), cv2.IMREAD_COLOR).shape == (48, 64, 3)
    camera = client.get("/api/state").json["camera"]
    assert camera == {"frame": number, "confidence": {"0,0": 0.97, "1,-1": 0.4}}
    app.extensions["maamut_hub"].publish_frame(jpeg.tobytes())  # confidences kept when not given
    assert client.get("/api/state").json["camera"]["confidence"] == {"0,0": 0.97, "1,-1": 0.4}


def test_a_follower_gets_only_new_log_entries_and_a_newcomer_the_whole_log():
    hub = GameHub(render=lambda state: {"log": state.get("log", [])})
    hub.publish({"log": ["a", "b"]})
    hub.publish({"log": ["a", "b", "c"]})
    follower = json.loads(hub.wait_for_update(1, timeout=1)[1])
    assert (follower["log_from"], follower["log"]) == (2, ["c"])
    newcomer = json.loads(hub.wait_for_update(0, timeout=1)[1])
    assert (newcomer["log_from"], newcomer["log"]) == (0, ["a", "b", "c"])
    hub.publish({"log": ["a", "x"]})  # an undo then another turn rewrites the tail
    rewritten = json.loads(hub.wait_for_update(2, timeout=1)[1])
    assert (rewritten["log_from"], rewritten["log"]) == (1, ["x"])


def test_led_and_game_updates_from_different_threads_never_undo_each_other(client, referee):
    from web_fixtures import place_all, start_new_game

    start_new_game(client, referee)
    hub = client.application.extensions["maamut_hub"]
    live = client.application.extensions["maamut_game"]
    stop = threading.Event()

    def leds():
        i = 0
        while not stop.is_set():
            i += 1
            hub.update(leds=[[i % 256, 0, 0]])

    writer = threading.Thread(target=leds)
    writer.start()
    try:
        place_all(client, referee)
        for _ in range(20):
            live.publish()
    finally:
        stop.set()
        writer.join()
    final = hub.update(leds=[[1, 2, 3]])
    view = json.loads(hub.latest()[1])
    assert view["version"] == final and view["leds"] == ["#010203"] and view["phase"] == "play"


def test_the_page_address_published_by_the_app_is_shown_with_a_qr_code(client, app):
    assert client.get("/join.svg").status_code == 404
    app.extensions["maamut_hub"].update(url="http://192.168.4.1:8080/")
    assert client.get("/api/state").json["url"] == "http://192.168.4.1:8080/"
    response = client.get("/join.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<svg" in response.data and b"<script" not in response.data
    app.extensions["maamut_hub"].update(url="javascript:alert(1)")
    assert client.get("/join.svg").status_code == 404


def test_one_address_cannot_take_every_page_slot(app, live_server):
    app.config["SSE_MAX_STREAMS_PER_ADDRESS"] = 2
    hub = app.extensions["maamut_hub"]
    opened = [Viewer(live_server) for _ in range(2)]
    for viewer in opened:
        viewer.next_event()
    refused = Viewer(live_server)
    assert refused.status == 503
    refused.close()
    assert hub.try_open_stream(150, "192.0.2.7", 2)  # another phone still gets in
    hub.close_stream("192.0.2.7")
    for viewer in opened:
        viewer.close()
