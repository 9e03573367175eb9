"""The companion's server starts on whatever its journals hold and answers a failed write
cleanly, for both games (Mâamut on ``/api/game``, Mammut on ``/mammut/api``).

The server is the app the companion's factory builds (``maamut.app.Companion``), driven
with the referee PIN through Flask's test client.
"""

from __future__ import annotations

import errno
import os

import pytest

import engine
from maamut.app import Companion
from maamut.config import Config

PIN = "112233"
MAAMUT = {"X-Referee-PIN": PIN}
MAMMUT = {"X-Referee-PIN": PIN, "X-Mammut": "1"}
#: Five players: four take a tile each, the fifth takes the rest (five actions at most).
MAMMUT_PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]


def companion(tmp_path) -> Companion:
    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bo"}]
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = PIN
    return Companion(cfg)


def journals(tmp_path) -> tuple[str, str]:
    return str(tmp_path / "var" / "current-game.jsonl"), str(tmp_path / "var" / "mammut-game.jsonl")


def maamut_act(client):
    """The player to move passes (a cardboard table: any card may be played)."""
    to_move = client.get("/api/state").get_json()["position"]["to_move"]
    return client.post("/api/game/play", json={"action": engine.action_to_json(engine.Pass(to_move))},
                       headers=MAAMUT)


def mammut_act(client):
    """The player to move takes one tile from the middle (the last one all that is left)."""
    options = client.get("/mammut/api/state").get_json()["game"]["options"]
    tiles = options["pool"] if options["must_take_all"] else {"unsorted": 1}
    return client.post("/mammut/api/action", json={"action": {"type": "take", "player": options["to_move"],
                                                              "tiles": tiles}}, headers=MAMMUT)


def maamut_turns(client) -> int:
    return sum(1 for entry in client.get("/api/state").get_json()["log"] if ":" in entry["notation"])


def mammut_actions(client) -> int:
    return client.get("/mammut/api/state").get_json()["game"]["actions"]


def started(tmp_path, actions: int = 2):
    """A companion whose Mâamut game has its hunters placed and whose Mammut game has
    begun, each with ``actions`` confirmed actions."""
    app = companion(tmp_path)
    client = app.app.test_client()
    assert client.post("/api/game/new", json={"players": [{"id": "A"}, {"id": "B"}], "seed": 4},
                       headers=MAAMUT).status_code == 200
    for player in ("A", "B"):
        cell = engine.hexgrid.cell_name(app.table.game.start_cells()[0])
        assert client.post("/api/game/place", json={"player": player, "cell": cell}, headers=MAAMUT).status_code == 200
    assert client.post("/mammut/api/new", json={"players": MAMMUT_PLAYERS, "seed": 3},
                       headers=MAMMUT).status_code == 200
    for _ in range(actions):
        assert maamut_act(client).status_code == 200
        assert mammut_act(client).status_code == 200
    return app, client


def damage_line(path: str, damage: bytes) -> bytes:
    """Replace the last-but-one record line (the second of three actions) with ``damage``;
    returns the file as written."""
    with open(path, "rb") as fh:
        lines = fh.read().split(b"\n")
    lines[-3] = damage
    data = b"\n".join(lines)
    with open(path, "wb") as fh:
        fh.write(data)
    return data


@pytest.mark.parametrize("damage", [b"\x00\x00 a bad disk block", b'{"type": "act\xff\xfeion"}'],
                         ids=["garbage", "invalid_utf8"])
def test_the_server_starts_on_damaged_journals_with_their_valid_beginning_and_says_what_was_set_aside(
        tmp_path, damage):
    app, _ = started(tmp_path, actions=3)
    app.close()
    originals = [damage_line(path, damage) for path in journals(tmp_path)]
    app = companion(tmp_path)
    client = app.app.test_client()
    assert maamut_turns(client) == 1 and mammut_actions(client) == 1, "the actions before the damage"
    maamut_notice = app.table.resumed.notice()
    state = client.get("/mammut/api/state").get_json()
    assert "line 5" in maamut_notice["en"] and "line 3" in state["journal"]["message"]
    assert state["journal"]["message_fr"].startswith("Le journal") and state["journal"]["dropped_lines"] == 2
    copies = sorted(name for name in os.listdir(tmp_path / "var") if "-damaged-" in name)
    assert len(copies) == 2
    for name in copies:
        with open(tmp_path / "var" / name, "rb") as fh:
            assert fh.read() in originals, "each untouched file is kept"
    assert maamut_act(client).status_code == 200 and mammut_act(client).status_code == 200
    app.close()


def test_a_last_line_without_its_newline_loses_nothing_through_act_restart_act_restart(tmp_path):
    app, _ = started(tmp_path, actions=2)
    app.close()
    for path in journals(tmp_path):
        with open(path, "rb+") as fh:
            fh.seek(-1, os.SEEK_END)
            assert fh.read() == b"\n"
            fh.seek(-1, os.SEEK_END)
            fh.truncate()  # the power went off just before the newline byte
    for expected in (2, 3, 4):
        app = companion(tmp_path)
        client = app.app.test_client()
        assert maamut_turns(client) == expected and mammut_actions(client) == expected
        assert app.table.resumed.notice() is None and "journal" not in client.get("/mammut/api/state").get_json()
        assert maamut_act(client).status_code == 200 and mammut_act(client).status_code == 200
        app.close()


def test_the_server_starts_on_torn_journals_without_a_word(tmp_path):
    app, _ = started(tmp_path, actions=2)
    app.close()
    for path in journals(tmp_path):
        with open(path, "ab") as fh:
            fh.write(b'{"action": {"type": "ta')
    app = companion(tmp_path)
    client = app.app.test_client()
    assert maamut_turns(client) == 2 and mammut_actions(client) == 2
    assert app.table.resumed.notice() is None and "journal" not in client.get("/mammut/api/state").get_json()
    app.close()


def snapshot(client, tmp_path):
    """What the page shows and what the journals hold."""
    files = []
    for path in journals(tmp_path):
        with open(path, "rb") as fh:
            files.append(fh.read())
    return client.get("/api/state").get_json()["log"], client.get("/mammut/api/state").get_json()["game"], files


def test_text_that_cannot_be_stored_is_a_clear_400_and_changes_nothing(tmp_path):
    app, client = started(tmp_path)
    before = snapshot(client, tmp_path)
    refused = client.post("/api/game/new", json={"players": [{"id": "A", "name": "Ann\ud800"}, {"id": "B"}]},
                          headers=MAAMUT)
    assert refused.status_code == 400 and refused.get_json()["error"]["field"].startswith("players")
    refused = client.post("/mammut/api/new", json={"players": ["Ann\ud800", *MAMMUT_PLAYERS[1:]]}, headers=MAMMUT)
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "bad_request"
    assert snapshot(client, tmp_path) == before
    assert maamut_act(client).status_code == 200 and mammut_act(client).status_code == 200
    app.close()
    again = companion(tmp_path).app.test_client()
    assert maamut_turns(again) == 3 and mammut_actions(again) == 3


def test_a_disk_that_refuses_the_write_is_a_clear_503_and_changes_nothing(tmp_path, monkeypatch):
    app, client = started(tmp_path)
    before = snapshot(client, tmp_path)

    def full_disk(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    refused = [maamut_act(client), mammut_act(client)]
    monkeypatch.undo()
    for answer in refused:
        assert answer.status_code == 503
        error = answer.get_json()["error"]
        assert error["code"] == "journal_failed" and "No space left on device" in error["message"]
    assert snapshot(client, tmp_path) == before
    assert maamut_act(client).status_code == 200 and mammut_act(client).status_code == 200
    app.close()
    again = companion(tmp_path).app.test_client()
    assert maamut_turns(again) == 3 and mammut_actions(again) == 3
