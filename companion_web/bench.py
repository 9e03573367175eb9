"""``maamut bench web``: page weight, and update latency with many viewers on loopback.

The app is served by waitress exactly as ``maamut serve`` does; a live game is set up and
a few turns played so each update carries a real board and log. The viewers run in a
separate process (one raw socket each on one selector loop, like phones' EventSource)
so their work does not share the server's interpreter lock. ``latency_ms`` is measured
from the moment the app calls ``hub.update`` (rendering included) to the moment the
event's last bytes reached each viewer's socket, by the kernel's receive timestamp
(``SO_TIMESTAMPNS``), so the viewers' own process, busy with 100 sockets on a shared
machine, is not counted as the server's delay; ``latency_read_ms`` is the same up to
the viewers' process having read the event. Both processes read the same wall clock.

Two more figures, each with its own server as ``maamut serve`` configures it:

- ``idle_flood_p95_ms``: p95 of ``GET /api/state`` for a normal client (its own
  loopback address, 127.0.0.2) while ``idle`` sockets that never send a byte are held
  open from one other address; ``idle_flood_spread_p95_ms`` the same with the idle
  sockets spread over 50 addresses (10 each, under the per-address cap), so only the
  connection limit and the idle timeout protect the normal client. A request that
  gets no answer within 10 s counts as 10 000 ms.
- ``rss_mb_150_pages_10min``: the server's resident memory after ``soak_pages`` pages
  (event streams read to the end, like browsers) followed the game for
  ``soak_seconds`` with LED updates 4 times a second and a camera frame every second,
  as ``maamut demo`` publishes them. The key is written only for a soak of 150 pages
  and at least 600 s; ``rss_soak`` always has the samples.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import re
import statistics
import time
import urllib.request

PAGES = ("/", "/stand", "/sandbox", "/setup", "/referee")


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def page_weights(base: str) -> dict:
    """Bytes of each page with everything it loads (HTML, CSS, scripts, first state)."""
    state = len(_get(base + "/api/state"))
    weights, assets, html_total = {}, {}, 0
    for page in PAGES:
        html = _get(base + page)
        total = len(html)
        html_total += total
        for ref in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html):
            url = ref.decode()
            assets.setdefault(url, len(_get(base + url)))
            total += assets[url]
        if page in ("/", "/stand"):
            total += state  # the live pages receive the state over their stream at once
        weights[page] = total
    return {"pages": weights, "assets": assets, "state": state,
            "site": html_total + sum(assets.values()) + state}


def _phone_address(i: int) -> tuple[str, int]:
    """A loopback source address per simulated phone (127.0.2.x, 127.0.3.x...): each
    phone on the Wi-Fi has its own, and the server caps idle sockets per address."""
    return (f"127.0.{2 + i // 250}.{1 + i % 250}", 0)


#: Linux's socket option (and control message) for receive timestamps in nanoseconds;
#: Python's socket module does not name it.
SO_TIMESTAMPNS = 35
_EVENT_ID = re.compile(rb"(?:^|\n)id: (\d+)\n")


def _viewers_main(host: str, port: int, count: int, last: int, timeout: float, pipe, path: str = "/api/stream") -> None:
    """``count`` viewers of ``/api/stream`` on one selector loop. For each event each
    viewer records two times: when the kernel received the event's last bytes on its
    socket (``SO_TIMESTAMPNS``: the server's delivery, whatever this process's own
    scheduling) and when this process had read it (the old figure, client included)."""
    import selectors
    import socket
    import struct

    selector = selectors.DefaultSelector()
    delivered = [dict() for _ in range(count)]
    read = [dict() for _ in range(count)]
    buffers = [bytearray() for _ in range(count)]
    done = [False] * count
    started = [False] * count
    stamps_work = True
    for i in range(count):
        sock = socket.socket()
        sock.bind(_phone_address(i))
        sock.connect((host, port))
        try:
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        except OSError:
            stamps_work = False
        sock.sendall(b"GET %s HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n" % path.encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, i)
    deadline = time.time() + timeout
    told_ready = False
    ancillary = socket.CMSG_SPACE(16)
    while time.time() < deadline and not all(done):
        for key, _ in selector.select(timeout=0.5):
            i, sock = key.data, key.fileobj
            try:
                data, anc, _, _ = sock.recvmsg(1 << 20, ancillary)
            except BlockingIOError:
                continue
            except OSError:
                data, anc = b"", []
            now = time.time()
            if not data:
                selector.unregister(sock)
                sock.close()
                done[i] = True
                continue
            stamp = now
            for level, kind, value in anc:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(value) >= 16:
                    seconds, nanoseconds = struct.unpack("qq", value[:16])
                    stamp = seconds + nanoseconds / 1e9
            buffer = buffers[i]
            buffer += data
            if not started[i]:
                head, sep, rest = bytes(buffer).partition(b"\r\n\r\n")
                if not sep:
                    continue
                if b" 200 " not in head.split(b"\r\n", 1)[0]:
                    raise RuntimeError(f"viewer refused: {head[:80]!r}")
                started[i] = True
                buffer[:] = rest
            while True:
                end = buffer.find(b"\n\n")
                if end < 0:
                    break
                block = bytes(buffer[:end])
                del buffer[:end + 2]
                # (The stream is chunked: a chunk's size line may come before the id.)
                found = _EVENT_ID.search(block)
                if found:
                    version = int(found.group(1))
                    delivered[i][version] = stamp
                    read[i][version] = now
                    if version >= last:
                        selector.unregister(sock)
                        sock.close()
                        done[i] = True
                if done[i]:
                    break
        if not told_ready and all(read[i] or done[i] for i in range(count)):
            pipe.send("ready")
            told_ready = True
    if not told_ready:
        pipe.send("ready")
    pipe.send({"delivered": delivered, "read": read, "kernel_stamps": stamps_work})
    pipe.close()


def _prepared_app(threads: int | None):
    from engine.hexgrid import cell_name

    from . import create_app

    app = create_app({"WAITRESS_THREADS": threads, "SSE_MAX_STREAMS": threads - 8, "SSE_HEARTBEAT_S": 30}
                     if threads else {})
    live = app.extensions["maamut_game"]
    table = live.session
    table.new_game([{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}, {"id": "C", "name": "Cleo"}], seed=2026)
    while table.game.next_to_place():
        table.place_hunter(table.game.next_to_place(), cell_name(table.game.start_cells()[0]))
    rng = random.Random(7)
    import engine

    for _ in range(12):
        actions = table.game.legal_actions()
        if not actions:
            break
        action, choices = engine.action_to_json(rng.choice(actions)), []
        result = live.play(action)
        while result["needs"]:
            choices.append({"hunter": result["needs"]["hunter"], "to": result["needs"]["options"][0]})
            result = live.play(action, choices)
    return app


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _quantile(values: list[float], q: float):
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2)


def _state_request(port: int, source: str, timeout: float = 10.0) -> float:
    """Milliseconds for one ``GET /api/state`` on a new connection from ``source``."""
    import http.client

    started = time.perf_counter()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
        connection.request("GET", "/api/state")
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status != 200:
            return timeout * 1000
    except OSError:
        return timeout * 1000
    return (time.perf_counter() - started) * 1000


def idle_flood(idle: int = 500, requests: int = 100, spread: int = 1) -> dict:
    """p95 of ``/api/state`` for a normal client while ``idle`` silent sockets are held
    open from ``spread`` client addresses (127.0.1.x); see the module docstring."""
    import socket

    from . import create_app
    from .serve import BackgroundServer

    server = BackgroundServer(create_app()).start()
    port = int(server.url.rsplit(":", 1)[1])
    sockets, refused = [], 0
    try:
        for i in range(idle):
            sock = socket.socket()
            try:
                sock.bind((f"127.0.1.{1 + i % spread}", 0))
                sock.settimeout(5)
                sock.connect(("127.0.0.1", port))
                sockets.append(sock)
            except OSError:
                refused += 1
                sock.close()
        time.sleep(0.5)  # let the server accept them all
        times = []
        for i in range(requests):
            times.append(_state_request(port, "127.0.0.2"))
            time.sleep(0.01)
        still_open = 0
        for sock in sockets:
            sock.setblocking(False)
            try:
                still_open += sock.recv(1) != b""
            except BlockingIOError:
                still_open += 1
            except OSError:
                pass
    finally:
        for sock in sockets:
            sock.close()
        server.stop()
    return {"p95_ms": _quantile(times, 0.95), "max_ms": _quantile(times, 1.0), "idle": idle,
            "addresses": spread, "idle_still_open": still_open, "connect_refused": refused,
            "timeouts": sum(t >= 10000 for t in times)}


def _soak_viewer_main(port: int, count: int, seconds: float, pipe) -> None:
    async def viewer(received: list, index: int):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22,
                                                       local_addr=_phone_address(index))
        writer.write(b"GET /api/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        await writer.drain()
        deadline = time.time() + seconds
        try:
            while time.time() < deadline:
                chunk = await asyncio.wait_for(reader.read(65536), timeout=max(0.1, deadline - time.time()))
                if not chunk:
                    break
                received[0] += len(chunk)
        except asyncio.TimeoutError:
            pass
        finally:
            writer.close()

    async def run():
        received = [[0] for _ in range(count)]
        await asyncio.gather(*(viewer(r, i) for i, r in enumerate(received)), return_exceptions=True)
        return sum(r[0] for r in received)

    pipe.send(asyncio.run(run()))
    pipe.close()


def memory_soak(pages: int = 150, seconds: float = 600.0, sample_every: float = 10.0) -> dict:
    """Server RSS while ``pages`` live pages follow the game (see the module docstring)."""
    from .serve import BackgroundServer

    app = _prepared_app(None)
    server = BackgroundServer(app).start()
    hub = app.extensions["maamut_hub"]
    port = int(server.url.rsplit(":", 1)[1])
    jpeg = bytes(range(256)) * 120  # a camera frame's size (30 KB); its bytes do not matter
    confidence = {f"{q},{r}": 0.9 for q in range(-3, 4) for r in range(-3, 4)}
    samples = []
    try:
        start_rss = _rss_mb()
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        process = ctx.Process(target=_soak_viewer_main, args=(port, pages, seconds + 5, theirs))
        process.start()
        deadline = time.time() + 30
        while hub.open_streams < pages and time.time() < deadline:
            time.sleep(0.1)
        connected = hub.open_streams
        began = time.time()
        next_sample, tick = began, 0
        while time.time() - began < seconds:
            tick += 1
            hub.update(leds=[[(tick * 7 + j) % 256, 40, 200] for j in range(41)])
            if tick % 4 == 0:
                hub.publish_frame(jpeg, confidence)
            if time.time() >= next_sample:
                samples.append([round(time.time() - began, 1), _rss_mb()])
                next_sample += sample_every
            time.sleep(0.25)
        samples.append([round(time.time() - began, 1), _rss_mb()])
        received = ours.recv() if ours.poll(30) else None
        process.join(10)
    finally:
        server.stop()
    return {"pages": pages, "connected": connected, "seconds": seconds, "start_mb": start_rss,
            "end_mb": samples[-1][1], "max_mb": max(s[1] for s in samples), "samples": samples,
            "bytes_received": received}


def run_benchmark(viewers: int = 100, updates: int = 40, interval: float = 0.1, idle: int = 500,
                  soak_pages: int = 150, soak_seconds: float = 600.0) -> dict:
    from .serve import BackgroundServer

    threads = viewers + 24
    app = _prepared_app(threads)
    server = BackgroundServer(app, threads=threads).start()
    hub = app.extensions["maamut_hub"]
    try:
        weights = page_weights(server.url)
        port = int(server.url.rsplit(":", 1)[1])
        first = hub.latest()[0]
        last = first + updates
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        timeout = 30 + updates * interval * 3
        process = ctx.Process(target=_viewers_main, args=("127.0.0.1", port, viewers, last, timeout, theirs))
        process.start()
        if not ours.poll(60) or ours.recv() != "ready":
            raise RuntimeError("viewers did not connect")
        sent = {}
        cpu_before = os.times()
        for i in range(updates):
            leds = [[(i * 7 + j) % 256, 40, 200] for j in range(37)]
            t = time.time()
            version = hub.update(leds=leds)
            sent[version] = t
            time.sleep(interval)
        cpu_after = os.times()
        # CPU the server spent per update (rendering + sending to every viewer): unlike the
        # latency, it does not depend on what else the machine is running.
        cpu_ms = ((cpu_after.user + cpu_after.system) - (cpu_before.user + cpu_before.system)) * 1000 / updates
        received = ours.recv() if ours.poll(timeout) else {}
        process.join(10)
        full_bytes, delta_bytes = hub.message_sizes()
    finally:
        server.stop()

    def latency_figures(arrivals):
        latencies, missed = [], 0
        for per_viewer in arrivals:
            for version, t in sent.items():
                if version in per_viewer:
                    latencies.append((per_viewer[version] - t) * 1000)
                else:
                    missed += 1
        if not arrivals:
            missed = viewers * updates
        latencies.sort()
        if not latencies:
            return {"p50": None, "p95": None, "max": None, "mean": None}, missed, latencies
        at = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)  # noqa: E731
        return ({"p50": at(0.50), "p95": at(0.95), "max": at(1.0), "mean": round(statistics.fmean(latencies), 2)},
                missed, latencies)

    latency, missed, latencies = latency_figures(received.get("delivered") or [])
    latency_read, _, _ = latency_figures(received.get("read") or [])
    heaviest = max(weights["pages"].values())
    extra = {}
    if idle > 0:
        flood = idle_flood(idle)
        spread = idle_flood(idle, spread=50)
        extra.update(idle_flood_p95_ms=flood["p95_ms"], idle_flood_spread_p95_ms=spread["p95_ms"],
                     idle_flood=flood, idle_flood_spread=spread)
    if soak_seconds > 0 and soak_pages > 0:
        soak = memory_soak(soak_pages, soak_seconds, sample_every=min(10.0, max(1.0, soak_seconds / 10)))
        if soak_pages == 150 and soak_seconds >= 600:
            extra["rss_mb_150_pages_10min"] = soak["max_mb"]
        extra["rss_soak"] = soak
    return {
        "page_weight_bytes": weights["pages"],
        "heaviest_page_kb": round(heaviest / 1024, 1),
        "whole_site_kb": round(weights["site"] / 1024, 1),
        "update_bytes": {"full": full_bytes, "delta": delta_bytes},
        "viewers": viewers,
        "updates": updates,
        "waitress_threads": threads,
        # From hub.update() to the event's last bytes reaching each viewer's socket (the
        # kernel's receive time): the server's delivery, not the viewers' own process.
        "latency_ms": latency,
        # The same up to the viewers' process having read the event (client overhead included).
        "latency_read_ms": latency_read,
        "latency_clock": "kernel receive timestamp" if received.get("kernel_stamps") else "viewer read time",
        "missed": missed,
        "server_cpu_ms_per_update": round(cpu_ms, 1),
        **extra,
        "targets": {"page_weight_kb": 150, "p95_ms": 100, "idle_flood_p95_ms": 200, "rss_mb_150_pages_10min": 300},
        # Viewers and server share this machine's cores: read the latency with the load.
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpu_count": os.cpu_count(),
        "meets_targets": bool(latencies) and missed == 0 and heaviest <= 150 * 1024 and latency["p95"] <= 100
                         and (extra.get("idle_flood_p95_ms") or 0) <= 200
                         and ("rss_soak" not in extra or extra["rss_soak"]["max_mb"] <= 300),
    }


def _page_weight(base: str, path: str, state_path: str) -> int:
    """Bytes of one page with everything it loads (HTML, CSS, scripts, first state)."""
    html = _get(base + path)
    total = len(html) + len(_get(base + state_path))
    for ref in set(re.findall(rb'(?:src|href)="(/[^"]*static/[^"]+)"', html)):
        total += len(_get(base + ref.decode()))
    return total


def mode_figures(mode, start, change, viewers: int = 20, updates: int = 20, interval: float = 0.05) -> dict:
    """Another game's page (a :class:`companion_web.games.GameMode` with a live part):
    its weight, and the latency of its live updates, from the start of a change made
    through its API (``change(client, i)``, a Flask test client of the same app; ``start``
    deals the game first) to the event's last bytes reaching each of ``viewers``
    viewers of its stream (kernel receive time, as ``latency_ms``)."""
    from . import create_app
    from .serve import BackgroundServer

    threads = viewers + 16
    app = create_app({"WAITRESS_THREADS": threads, "SSE_MAX_STREAMS": viewers + 8, "SSE_HEARTBEAT_S": 30},
                     games=[mode])
    client = app.test_client()
    start(client, app.config["REFEREE_PIN"])
    hub = app.extensions[f"{mode.blueprint.name}_hub"]
    server = BackgroundServer(app, threads=threads).start()
    try:
        weight = _page_weight(server.url, mode.link, mode.link + "api/state")
        port = int(server.url.rsplit(":", 1)[1])
        last = hub.latest()[0] + updates
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        timeout = 30 + updates * interval * 3
        process = ctx.Process(target=_viewers_main, args=("127.0.0.1", port, viewers, last, timeout, theirs,
                                                          mode.link + "api/stream"))
        process.start()
        if not ours.poll(60) or ours.recv() != "ready":
            raise RuntimeError("viewers did not connect")
        sent = {}
        for i in range(updates):
            t = time.time()
            change(client, app.config["REFEREE_PIN"], i)
            sent[hub.latest()[0]] = t
            time.sleep(interval)
        received = ours.recv() if ours.poll(timeout) else {}
        process.join(10)
    finally:
        server.stop()
    latencies, missed = [], 0
    for per_viewer in received.get("delivered") or []:
        for version, t in sent.items():
            if version in per_viewer:
                latencies.append((per_viewer[version] - t) * 1000)
            else:
                missed += 1
    if not received.get("delivered"):
        missed = viewers * updates
    return {"page_weight_kb": round(weight / 1024, 1), "viewers": viewers, "updates": updates, "missed": missed,
            "latency_ms": {"p50": _quantile(latencies, 0.5), "p95": _quantile(latencies, 0.95),
                           "max": _quantile(latencies, 1.0)}}


def main(args, modes=()) -> dict:
    """``maamut bench web``; ``modes`` are other games' pages to measure too, each
    ``(key, mode, start, change)`` (see :func:`mode_figures`): their figures are added
    under ``<key>_page_weight_kb`` and ``<key>_update_latency_ms`` (new keys only)."""
    result = run_benchmark(args.viewers, args.updates, args.interval, idle=args.idle,
                           soak_pages=args.soak_pages, soak_seconds=args.soak_seconds)
    for key, mode, start, change in modes:
        figures = mode_figures(mode, start, change, viewers=min(args.viewers, 20), updates=min(args.updates, 20))
        result[f"{key}_page_weight_kb"] = figures["page_weight_kb"]
        result[f"{key}_update_latency_ms"] = figures["latency_ms"]
        result[key] = figures
    return result
