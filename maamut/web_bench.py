"""``maamut bench web`` for the whole product: the web part's figures (page weight,
update latency with 100 viewers, idle flood, memory) and, as new keys, Mammut's page:
``mammut_page_weight_kb`` and ``mammut_update_latency_ms`` (a take, then its undo, made
through Mammut's API, to the last byte on each viewer's socket); La Vallée's pages:
``vallee_page_weight_kb`` (the valley view with its styles and scripts),
``vallee_editor_weight_kb`` (the editor, plus the map and the first check it loads before
it can be used), a game's page and update (``vallee_game_weight_kb``,
``vallee_update_kb``, ``vallee_full_state_kb``), and its live game at 20 devices:
``vallee_update_p95_ms`` and
``vallee_missed_updates`` (each update one answer of the random player posted to
``/vallee/api/entry``, to the last byte on each device's socket)."""

from __future__ import annotations

import random
import re
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


VALLEE_HEADERS = {"X-Vallee": "1"}
#: The live game measured: three tribes on the sample valley, every draw by the companion.
VALLEE_SETUP = {"players": ["red", "blue", "green"], "map": "sample", "seed": 7}
#: The updates are timed from this turn on (the turns before are played untimed).
VALLEE_FROM_TURN = 4


def vallee_live(maps_folder: str, journal: str, viewers: int = 20, updates: int = 20) -> dict:
    """La Vallée's live updates at ``viewers`` devices: each update is one answer of the
    game model's random player (:mod:`vallee.autoplay`) posted as the page posts it."""
    from companion_web.bench import mode_figures
    from vallee.autoplay import answer

    from .app import vallee_mode

    mode = vallee_mode(maps_folder, journal)
    if mode is None:
        return {}
    table, rng = mode.live, random.Random(7)
    upcoming = []  # the next answer, chosen before the clock starts: only the update is timed

    def choose() -> None:
        entry = None
        if not table.game.over:
            entry = answer(table.game, rng)
            while entry["kind"] == "trick":  # a card may be refused: every update must change the game
                entry = answer(table.game, rng)
        upcoming[:] = [entry]

    def start(client, pin) -> None:
        response = client.post("/vallee/api/new", json=VALLEE_SETUP, headers={**VALLEE_HEADERS, "X-Referee-PIN": pin})
        if response.status_code != 200:
            raise RuntimeError(f"La Vallée bench: the game was not started ({response.status_code})")
        while table.game.turn < VALLEE_FROM_TURN:  # mid-game: the state as big as a table's usually is
            choose()
            table.play(upcoming[0])
        choose()

    def change(client, pin, i: int) -> None:
        headers = {**VALLEE_HEADERS, "X-Referee-PIN": pin}
        if upcoming[0] is None:  # the game is over: a new one is an update too
            response = client.post("/vallee/api/new", json=VALLEE_SETUP, headers=headers)
        else:
            response = client.post("/vallee/api/entry", json={"entry": upcoming[0]}, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"La Vallée bench: update {i} refused ({response.get_json()})")
        choose()

    figures = mode_figures(mode, start, change, viewers=viewers, updates=updates)
    return {"vallee_update_p95_ms": figures["latency_ms"]["p95"], "vallee_missed_updates": figures["missed"],
            "vallee_update_latency_ms": figures["latency_ms"],
            "vallee_devices": viewers, "vallee_updates": updates}


def vallee_weights(maps_folder: str) -> dict:
    """Bytes of La Vallée's pages with everything they load, in KiB: the valley page with
    no game (and its state), the editor, the page of a three-player game at its third turn
    with its first state, and the live update one entry sends (delta and full)."""
    from companion_web import create_app

    from .app import vallee_mode

    import os
    import random

    mode = vallee_mode(maps_folder, os.path.join(os.path.dirname(os.path.abspath(maps_folder)), "vallee-game.jsonl"))
    if mode is None:
        return {}
    app = create_app({}, games=[mode])
    client = app.test_client()
    table = app.extensions["vallee_table"]
    empty = weight_of(client, "/vallee/") + len(client.get("/vallee/api/state").get_data())

    sample = client.get("/vallee/maps/sample.json")
    check = client.post("/vallee/maps/check", json={"map": sample.get_json()},
                        headers={"X-Vallee": "1", "X-Referee-PIN": app.config["REFEREE_PIN"]})
    editor = weight_of(client, "/vallee/maps") + len(sample.get_data()) + len(check.get_data())
    # A game of three players at its third turn: the page, its first state, one update.
    from vallee.autoplay import answer
    from vallee.core import IllegalRequest

    table.start({"players": ["red", "blue", "green"], "map": "sample", "seed": 2})
    rng = random.Random(3)

    def one_entry():
        while True:
            try:
                return table.play(answer(table.game, rng))
            except IllegalRequest:  # a card the random player offers that the game refuses
                continue

    while table.game.turn < 3:
        one_entry()
    game = weight_of(client, "/vallee/") + len(client.get("/vallee/api/state").get_data())
    one_entry()
    full, delta = app.extensions["vallee_hub"].message_sizes()
    return {"vallee_page_weight_kb": round(empty / 1024, 1), "vallee_editor_weight_kb": round(editor / 1024, 1),
            "vallee_game_weight_kb": round(game / 1024, 1), "vallee_update_kb": round(delta / 1024, 1),
            "vallee_full_state_kb": round(full / 1024, 1)}


def weight_of(client, path: str) -> int:
    """Bytes of a page with the static files it loads."""
    html = client.get(path).get_data()
    refs = set(re.findall(rb'(?:src|href)="(/[^"]*static/[^"]+)"', html))
    return len(html) + sum(len(client.get(ref.decode()).get_data()) for ref in refs)


def register_bench(bench_subparsers) -> None:
    from companion_web.web_cli import register_bench as register_web

    register_web(bench_subparsers, handler=_bench)


def _bench(args) -> dict | int:
    from companion_web.web_cli import _bench as web_bench

    from .app import mammut_mode

    with tempfile.TemporaryDirectory() as folder:
        mode = mammut_mode(f"{folder}/mammut.jsonl")
        modes = [("mammut", mode, _mammut_start, _mammut_change)] if mode is not None else []
        result = web_bench(args, modes)
        if isinstance(result, dict):
            result.update(vallee_weights(f"{folder}/vallee-maps"))
            result.update(vallee_live(f"{folder}/vallee-maps", f"{folder}/vallee-live.jsonl",
                                      viewers=min(args.viewers, 20), updates=min(args.updates, 20)))
        return result


__all__ = ["register_bench", "vallee_live", "vallee_weights"]
