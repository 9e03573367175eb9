"""``maamut bench web``: page weight, and update latency with many viewers on loopback.

The app is served by waitress exactly as ``maamut serve`` does; a live game is set up and
a few turns played so each update carries a real board and log. The viewers run in a
separate process (asyncio, one raw socket each, like phones' EventSource) so their
work does not share the server's interpreter lock. Latency is measured from the moment
the app calls ``hub.publish`` (rendering included) to the moment each viewer has read
the whole event; both processes read the same wall clock.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import re
import statistics
import time
import urllib.request

PAGES = ("/", "/sandbox", "/setup", "/referee")


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
        if page == "/":
            total += state  # the live page receives the state over its stream at once
        weights[page] = total
    return {"pages": weights, "assets": assets, "state": state,
            "site": html_total + sum(assets.values()) + state}


async def _viewer(host: str, port: int, arrivals: dict, ready: asyncio.Event, last: int, deadline: float):
    reader, writer = await asyncio.open_connection(host, port, limit=2**22)
    writer.write(b"GET /api/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"viewer refused: {status!r}")
    version = None
    try:
        while time.time() < deadline:
            line = await asyncio.wait_for(reader.readline(), timeout=max(0.1, deadline - time.time()))
            if not line:
                break
            if line.startswith(b"id: "):
                version = int(line[4:])
            elif line == b"\n" and version is not None:
                arrivals[version] = time.time()
                ready.set()
                if version >= last:
                    break
                version = None
    except asyncio.TimeoutError:
        pass
    finally:
        writer.close()


def _viewers_main(host: str, port: int, count: int, last: int, timeout: float, pipe) -> None:
    async def run():
        arrivals = [dict() for _ in range(count)]
        ready = [asyncio.Event() for _ in range(count)]
        deadline = time.time() + timeout
        tasks = [asyncio.create_task(_viewer(host, port, arrivals[i], ready[i], last, deadline)) for i in range(count)]
        await asyncio.gather(*(r.wait() for r in ready))
        pipe.send("ready")
        await asyncio.gather(*tasks, return_exceptions=True)
        return arrivals

    pipe.send(asyncio.run(run()))
    pipe.close()


def _prepared_app(threads: int):
    from engine.hexgrid import cell_name

    from . import create_app

    app = create_app({"WAITRESS_THREADS": threads, "SSE_MAX_STREAMS": threads - 8, "SSE_HEARTBEAT_S": 30})
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


def run_benchmark(viewers: int = 100, updates: int = 40, interval: float = 0.1) -> dict:
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
        arrivals = ours.recv() if ours.poll(timeout) else []
        process.join(10)
        full_bytes, delta_bytes = hub.message_sizes()
    finally:
        server.stop()
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
    quantile = (lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)) if latencies else (lambda q: None)
    heaviest = max(weights["pages"].values())
    return {
        "page_weight_bytes": weights["pages"],
        "heaviest_page_kb": round(heaviest / 1024, 1),
        "whole_site_kb": round(weights["site"] / 1024, 1),
        "update_bytes": {"full": full_bytes, "delta": delta_bytes},
        "viewers": viewers,
        "updates": updates,
        "waitress_threads": threads,
        "latency_ms": {"p50": quantile(0.50), "p95": quantile(0.95), "max": quantile(1.0),
                       "mean": round(statistics.fmean(latencies), 2) if latencies else None},
        "missed": missed,
        "server_cpu_ms_per_update": round(cpu_ms, 1),
        "targets": {"page_weight_kb": 150, "p95_ms": 100},
        # Viewers and server share this machine's cores: read the latency with the load.
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpu_count": os.cpu_count(),
        "meets_targets": bool(latencies) and missed == 0 and heaviest <= 150 * 1024 and quantile(0.95) <= 100,
    }


def main(args) -> int:
    result = run_benchmark(args.viewers, args.updates, args.interval)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
