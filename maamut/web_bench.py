"""``maamut bench web`` for the whole product: the web part's figures (page weight,
update latency with 100 viewers, idle flood, memory) and, as new keys, Mammut's page:
``mammut_page_weight_kb`` and ``mammut_update_latency_ms`` (a take, then its undo, made
through Mammut's API, to the last byte on each viewer's socket)."""

from __future__ import annotations

import tempfile

MAMMUT_HEADERS = {"X-Mammut": "1"}


def _mammut_start(client, pin) -> None:
    response = client.post("/mammut/api/new", json={"players": ["Ana", "Bo", "Cy"]},
                           headers={**MAMMUT_HEADERS, "X-Referee-PIN": pin})
    if response.status_code != 200:
        raise RuntimeError(f"Mammut bench: the game was not dealt ({response.status_code})")


def _mammut_change(client, pin, i: int) -> None:
    """A take by the player to move, then its undo: each a change every page shows."""
    headers = {**MAMMUT_HEADERS, "X-Referee-PIN": pin}
    if i % 2:
        client.post("/mammut/api/undo", json={}, headers=headers)
        return
    to_move = client.get("/mammut/api/state").get_json()["game"]["to_move"]
    client.post("/mammut/api/action", json={"action": {"type": "take", "player": to_move, "tiles": {"meat": 1}}},
                headers=headers)


def register_bench(bench_subparsers) -> None:
    from companion_web.web_cli import register_bench as register_web

    register_web(bench_subparsers, handler=_bench)


def _bench(args) -> dict | int:
    from companion_web.web_cli import _bench as web_bench

    from .app import mammut_mode

    with tempfile.TemporaryDirectory() as folder:
        mode = mammut_mode(f"{folder}/mammut.jsonl")
        modes = [("mammut", mode, _mammut_start, _mammut_change)] if mode is not None else []
        return web_bench(args, modes)


__all__ = ["register_bench"]
