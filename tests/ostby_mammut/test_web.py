"""The Mammut page's blueprint through Flask's test client, on a tiny app of its own."""

from __future__ import annotations

import json

import flask
import pytest

from ostby_mammut.web import register

H = {"X-Mammut": "1"}


def make_app(journal):
    app = flask.Flask(__name__)
    app.config["TESTING"] = True
    register(app, str(journal))
    return app


@pytest.fixture
def journal(tmp_path):
    return tmp_path / "mammut.jsonl"


@pytest.fixture
def client(journal):
    return make_app(journal).test_client()


def post(client, path, body):
    return client.post("/mammut/api" + path, json=body, headers=H)


def act(client, action):
    return post(client, "/action", {"action": action})


def test_page_and_assets_are_local(client):
    page = client.get("/mammut/?lang=en")
    assert page.status_code == 200 and b"mammut.js" in page.data and b"http" not in page.data.split(b"<body")[0]
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert client.get("/mammut/static/mammut.js").status_code == 200
    assert client.get("/mammut/static/mammut.css").status_code == 200


def test_writes_need_the_header(client):
    assert client.post("/mammut/api/new", json={"players": ["A", "B", "C"]}).status_code == 403


def test_a_round_undo_and_legal_summary(client, journal):
    r = post(client, "/new", {"players": ["Ana", "Bo", "Cy"]})
    g = r.get_json()["game"]
    assert g["to_move"] == "Ana" and g["options"]["first_move"] and g["pool_size"] == 32
    r = act(client, {"type": "steal", "player": "Ana", "victim": "Bo", "give_back": {"meat": 1}})
    assert r.status_code == 409
    r = act(client, {"type": "take", "player": "Ana", "tiles": {"meat": 2, "shaman": 1}})
    assert r.get_json()["game"]["to_move"] == "Bo"
    r = act(client, {"type": "steal", "player": "Bo", "victim": "Ana", "give_back": {"meat": 1}})
    g = r.get_json()["game"]
    assert g["to_move"] == "Cy" and g["holder"] == "Bo"
    r = post(client, "/undo", {})
    assert r.get_json()["game"]["to_move"] == "Bo" and r.get_json()["game"]["holder"] == "Ana"
    r = act(client, {"type": "take", "player": "Bo", "tiles": {"fire": 1}})
    g = r.get_json()["game"]
    assert g["options"]["must_take_all"] and g["options"]["take_max"] == 28
    r = act(client, {"type": "take", "player": "Cy", "tiles": {"meat": 1}})
    assert r.status_code == 409 and r.get_json()["error"]["rule"] == "share.last_takes_all"
    r = act(client, {"type": "take", "player": "Cy", "tiles": g["pool"]})
    g = r.get_json()["game"]
    assert g["phase"] == "evaluation" and g["evaluation"]["tiles"]["Cy"]["to_reveal"] == 28
    bad = act(client, {"type": "evaluate", "tiles": {"Ana": {"meat": 2}, "Bo": {"fire": 1}, "Cy": {"meat": 3}}})
    assert bad.status_code == 409 and bad.get_json()["error"]["rule"] == "eval.reveal"
    # every tile of the set once, on a side it carries (docs/rulings-mammut.md «The tile list»)
    animals = ["bear", "bison", "boar", "deer", "horse", "ibex", "wolf"]
    cy = {"meat": 4, "skin": 5, "fire": 3, "tusk": 4, "axe": 5, **{s: 1 for s in animals}}
    r = act(client, {"type": "evaluate", "arrow": "red", "tiles": {"Ana": {"meat": 2}, "Bo": {"fire": 1}, "Cy": cy}})
    g = r.get_json()["game"]
    assert g["round"] == 2 and g["phase"] == "sharing" and g["to_move"] == "Cy"
    lines = g["results"][0]["lines"]
    assert any(l["rule"] == "eval.meat" and l["player"] == "Cy" and l["points"] == 8 for l in lines)
    assert all(l["en"] and l["fr"] for l in lines)
    assert g["hands"]["Cy"] == 2 + 5 and g["species_owned"]["Cy"] == animals
    # the journal holds exactly what was shown, and replays to the same game
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert records[0]["type"] == "setup" and {"type": "undo"} in records
    again = make_app(journal).test_client().get("/mammut/api/state").get_json()["game"]
    assert again["points"] == g["points"] and again["round"] == 2 and again["to_move"] == "Cy"


def test_torn_last_line_is_ignored(journal):
    client = make_app(journal).test_client()
    post(client, "/new", {"players": ["A", "B", "C"]})
    act(client, {"type": "take", "player": "A", "tiles": {"meat": 2}})
    with open(journal, "a", encoding="utf-8") as fh:
        fh.write('{"action": {"type": "take", "player": "B", "til')
    g = make_app(journal).test_client().get("/mammut/api/state").get_json()["game"]
    assert g["to_move"] == "B" and g["lots"]["A"] == [{"meat": 2}]
    assert journal.read_text().endswith("\n")


def test_bad_requests(client):
    assert post(client, "/new", {"players": ["A"]}).status_code == 400
    post(client, "/new", {"players": ["A", "B", "C"]})
    r = act(client, {"type": "jump", "player": "A"})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "action.type"
    r = act(client, {"type": "take", "player": "B", "tiles": {"meat": 1}})
    assert r.status_code == 409 and r.get_json()["error"]["rule"] == "share.not_your_turn"
    assert r.get_json()["error"]["message_fr"].startswith("c'est au tour")


def test_new_game_starts_a_new_journal(client, journal):
    post(client, "/new", {"players": ["A", "B", "C"]})
    post(client, "/new", {"players": ["X", "Y"], "variants": {"penalty_ties": "all"}})
    assert len(list(journal.parent.glob("mammut-*.jsonl"))) == 1
    g = client.get("/mammut/api/state").get_json()["game"]
    assert g["players"] == ["X", "Y"] and g["variants"]["penalty_ties"] == "all" and g["lots_needed"] == 2
