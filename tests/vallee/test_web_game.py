"""The live game's routes through Flask's test client (docs/vallee-web.md «The game»):
a game started, entries applied and refused (400 naming the field, 409 naming the rule
in English and French, never a 500), the referee's PIN (401) and the custom header (403),
If-Match (412), undo said in words and never re-rolling, a restart mid-turn resuming the
same question, the players' private links, and no hand in the public state."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion_web import create_app
from maamut.app import vallee_mode
from vallee.autoplay import answer

PIN = "246810"
WRITE = {"X-Referee-PIN": PIN, "X-Vallee": "1"}
SETUP = {"players": ["red", "blue", "green"], "map": "sample", "seed": 5}


def make_client(folder):
    app = create_app({"REFEREE_PIN": PIN, "TESTING": True},
                     games=[vallee_mode(str(folder / "maps"), str(folder / "vallee-game.jsonl"))])
    return app.test_client()


@pytest.fixture
def client(tmp_path):
    return make_client(tmp_path)


def start(client, setup=None):
    response = client.post("/vallee/api/new", json=setup or SETUP, headers=WRITE)
    assert response.status_code == 200, response.json
    return response.json


def entry(client, value, **headers):
    return client.post("/vallee/api/entry", json={"entry": value}, headers={**WRITE, **headers})


def table_of(client):
    return client.application.extensions["vallee_table"]


def play_until(client, stop, limit=600):
    """Answer every question as a fair random player would, through the route, until
    ``stop(state)``; the state then."""
    rng = random.Random(11)
    state = client.get("/vallee/api/state").json
    for _ in range(limit):
        if stop(state):
            return state
        value = answer(table_of(client).game, rng)
        response = entry(client, value)
        if value["kind"] == "trick" and response.status_code == 409:
            continue
        assert response.status_code == 200, (value, response.json)
        state = response.json
    raise AssertionError("never reached")


def test_no_game_yet_is_said_and_a_new_game_asks_its_first_question(client):
    state = client.get("/vallee/api/state").json
    assert state["ok"] and state["game"] is None and state["log"] == []
    state = start(client)
    assert state["game"]["pending"]["kind"] == "lot" and state["calendar"]["setup"] is True
    assert state["said"] == {"en": "New game", "fr": "Nouvelle partie"}


def test_the_public_state_never_carries_a_hand(client):
    start(client)
    state = play_until(client, lambda s: s["game"] and s["game"]["turn"] >= 1)
    hands = table_of(client).game.tribes
    for name, tribe in state["game"]["tribes"].items():
        assert "hand" not in tribe and tribe["cards"] == len(hands[name].hand) == 5
    assert "tricks" not in state["game"]["pending"]
    red = client.get(client.post("/vallee/api/links", json={}, headers=WRITE).json["links"]["red"]
                     .replace("/vallee/p/", "/vallee/api/player/")).json
    assert [c["card"] for c in red["hand"]] == hands["red"].hand
    assert all(c["why"]["en"] and c["why"]["fr"] for c in red["hand"])


def test_an_entry_is_kept_in_words_and_its_events_with_it(client):
    start(client)
    done = entry(client, {"kind": "lot"}).json["done"]
    first = table_of(client).game.entries[-1]["player"]
    assert done["en"] == f"Lot drawn: {first}" and done["fr"] == f"Tirage au sort : {first}"
    assert done["lines"]["en"] == [f"{first} sets up first"]


@pytest.mark.parametrize("body,field", [
    ({"entry": "lot"}, "entry"),
    ({"entry": {"kind": 3}}, "entry.kind"),
    ({"entry": {"kind": "lot"}, "extra": 1}, "extra"),
    ({}, "entry"),
])
def test_a_malformed_entry_is_a_400_naming_its_field(client, body, field):
    start(client)
    response = client.post("/vallee/api/entry", json=body, headers=WRITE)
    assert response.status_code == 400 and response.json["error"]["field"] == field


def test_a_malformed_setup_or_body_is_a_400_naming_its_field(client):
    assert client.post("/vallee/api/new", json={"players": ["solo"], "map": "sample"},
                       headers=WRITE).json["error"]["field"] == "players"
    assert client.post("/vallee/api/new", json={"players": ["a", "b"], "map": "nowhere"},
                       headers=WRITE).json["error"]["field"] == "map"
    response = client.post("/vallee/api/new", data=b"{not json", headers={**WRITE, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.json["error"]["field"]
    start(client)
    assert client.post("/vallee/api/rollout", json={"policy": "bravely"}, headers=WRITE).json["error"]["field"] == "policy"


def test_physical_tokens_are_entered_and_a_bad_one_names_its_field(client):
    start(client, {**SETUP, "random": "physical", "first": "red"})
    while table_of(client).game.pending()["kind"] == "place_camp":
        ask = table_of(client).game.pending()
        assert entry(client, {"kind": "place_camp", "cell": ask["options"][0]}).status_code == 200
    ask = table_of(client).game.pending()
    assert ask["kind"] == "tokens" and ask["random"] == "physical"
    response = entry(client, {"kind": "tokens", "tokens": [{"species": "dragon", "letter": "A"}] * ask["count"]})
    assert response.status_code == 400 and response.json["error"]["field"].startswith("tokens")


def test_an_entry_the_rules_forbid_is_a_409_naming_the_rule_in_both_languages(client):
    start(client)
    error = entry(client, {"kind": "roll"}).json["error"]
    assert error["code"] == "illegal_request" and error["rule"] == "phase.setup"
    assert error["message"] and error["message_fr"] and error["message"] != error["message_fr"]
    assert client.post("/vallee/api/rollout", json={}, headers=WRITE).status_code == 409


def test_writes_need_the_referee_and_the_header(client):
    start(client)
    assert entry(client, {"kind": "lot"}, **{"X-Referee-PIN": "000000"}).status_code == 401
    assert client.post("/vallee/api/entry", json={"entry": {"kind": "lot"}}, headers={"X-Vallee": "1"}).status_code == 401
    response = client.post("/vallee/api/entry", json={"entry": {"kind": "lot"}}, headers={"X-Referee-PIN": PIN})
    assert response.status_code == 403 and response.json["error"]["field"] == "X-Vallee"
    assert client.post("/vallee/api/links", json={}).status_code == 401
    assert table_of(client).game.entries == []


def test_if_match_refuses_a_write_on_a_state_that_changed(client):
    etag = start(client)["etag"]
    assert entry(client, {"kind": "lot"}, **{"If-Match": f'"{etag}"'}).status_code == 200
    stale = client.post("/vallee/api/undo", json={}, headers={**WRITE, "If-Match": f'"{etag}"'})
    assert stale.status_code == 412 and stale.json["error"]["field"] == "If-Match"
    assert len(table_of(client).game.entries) == 1


def test_undo_is_said_in_words_and_never_rolls_again(client):
    start(client)
    play_until(client, lambda s: s["game"]["pending"] and s["game"]["pending"]["step"] == "animal_die")
    rolled = entry(client, {"kind": "roll"}).json["done"]
    undo = client.post("/vallee/api/undo", json={}, headers=WRITE).json
    assert undo["done"]["en"] == "Undo: " + rolled["en"] and undo["done"]["fr"] == "Annulé : " + rolled["fr"]
    assert undo["said"] == undo["done"] and undo["game"]["pending"]["step"] == "animal_die"
    again = entry(client, {"kind": "roll"}).json["done"]
    assert again["en"] == rolled["en"]  # the same face: the journal held it


def test_a_restarted_server_resumes_mid_turn_where_it_was(tmp_path):
    client = make_client(tmp_path)
    start(client)
    before = play_until(client, lambda s: s["game"]["turn"] >= 3 and s["game"]["pending"]["step"] == "movement")
    again = make_client(tmp_path).get("/vallee/api/state").json
    for key in ("etag", "log", "calendar", "lit", "pieces"):
        assert again[key] == before[key], key
    assert again["game"]["pending"] == before["game"]["pending"]
    links = client.post("/vallee/api/links", json={}, headers=WRITE).json["links"]
    assert make_client(tmp_path).get(links["blue"]).status_code == 200  # the phones' links still work


def test_a_fight_shows_the_odds_and_rolls_out_entry_by_entry(client):
    start(client)
    state = play_until(client, lambda s: s["game"]["pending"] and s["game"]["pending"]["step"] == "fight"
                       and s["game"]["pending"]["kind"] == "roll")
    fight = state["fight"]
    assert fight["cell"] == state["game"]["pending"]["cell"] and fight["cell"] in state["lit"]
    assert fight["odds"] and abs(sum(fight["odds"].values()) - 1) < 1e-3
    assert all(side["parts"] and side["bonus"] == sum(p["value"] for p in side["parts"]) for side in fight["sides"])
    entries = len(table_of(client).game.entries)
    after = client.post("/vallee/api/rollout", json={"policy": "warriors_first"}, headers=WRITE).json
    pending = after["game"]["pending"]
    assert not (pending and pending["step"] == "fight" and pending.get("cell") == fight["cell"]
                and pending["kind"] in ("roll", "lose"))
    assert len(after["log"]) == len(table_of(client).game.entries) > entries


def test_player_links_open_only_their_own_view_and_change_with_a_new_game(client):
    start(client)
    links = client.post("/vallee/api/links", json={}, headers=WRITE).json["links"]
    assert set(links) == set(SETUP["players"]) and len(set(links.values())) == 3
    page = client.get(links["red"])
    assert page.status_code == 200 and "red" in page.get_data(as_text=True)
    assert client.get("/vallee/api/player/0123456789ab").status_code == 404
    assert client.get("/vallee/p/nope").status_code == 404
    start(client)
    assert client.post("/vallee/api/links", json={}, headers=WRITE).json["links"] != links


def test_the_page_carries_the_game_master_panel_and_the_stream(client):
    page = client.get("/vallee/").get_data(as_text=True)
    assert 'id="vallee-game"' in page and 'data-stream="/vallee/api/stream"' in page and 'id="start-form"' in page
    start(client)
    assert client.get("/vallee/").status_code == 200


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["kind", "cell", "dice", "player", "path", "from", "warriors", "tokens", "x"]),
                        inner, max_size=4), max_leaves=8))
def test_no_entry_is_ever_answered_with_a_500(client, value):
    if table_of(client).game is None:
        start(client)
    response = client.post("/vallee/api/entry", data=json.dumps({"entry": value}),
                           headers={**WRITE, "Content-Type": "application/json"})
    assert response.status_code in (200, 400, 409), response.json


def test_the_valley_page_opened_before_a_game_brings_the_forms_the_game_will_need(client):
    """A spectator opens the page, then the referee starts a game: the live page updates
    itself and asks the game's questions, so the forms' script comes with it from the
    start (the demo's live browser test once saw "ValleeForms is not defined")."""
    page = client.get("/vallee/").get_data(as_text=True)
    assert "forms.js" in page and "game.js" in page
    start(client)
    assert "forms.js" in client.get("/vallee/").get_data(as_text=True)
