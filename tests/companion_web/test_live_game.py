"""Referee control of the live game through the API, and what viewers then see."""

from __future__ import annotations

import random

import engine
from companion_web import create_app
from web_fixtures import PIN, place_all, start_new_game


def _pick(game, rng):
    """A legal action that makes the mammoth flee if there is one, else a random one."""
    actions = game.legal_actions()
    for action in actions:
        try:
            outcome = engine.apply_action(game.position, action, (), game.variants)
        except engine.IllegalAction:
            continue
        if outcome.needs or any(e["type"] == "mammoth_fled" for e in outcome.events):
            return action
    return rng.choice(actions)


def _play_until_a_flight(client, referee, game, max_turns=200):
    """Play seeded turns through the API (choosing the first flee option when asked)
    until a turn makes the mammoth flee; returns that turn's events."""
    rng = random.Random(1)
    for _ in range(max_turns):
        if game.winner:
            break
        action = engine.action_to_json(_pick(game, rng))
        choices = []
        while True:
            response = client.post("/api/game/play", json={"action": action, "choices": choices}, headers=referee)
            assert response.status_code == 200, response.json
            needs = response.json["needs"]
            if not needs:
                break
            assert client.get("/api/state").json["needs"] == needs  # viewers see who must choose
            choices.append({"hunter": needs["hunter"], "to": needs["options"][0]})
        if any(e["type"] == "mammoth_fled" for e in response.json["events"]):
            return response.json["events"]
    return None


def test_a_new_game_is_published_in_setup_phase_with_display_names(client, referee):
    start_new_game(client, referee)
    view = client.get("/api/state").json
    assert view["phase"] == "setup" and view["next_to_place"] == "A"
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob"]
    assert view["version"] >= 1


def test_placing_hunters_follows_the_rules_and_reaches_the_play_phase(client, referee):
    start_new_game(client, referee)
    centre = client.post("/api/game/place", json={"player": "A", "cell": "0,0"}, headers=referee)
    assert centre.status_code == 422 and centre.json["error"]["rule"] == "setup.hunter_placement"
    off = client.post("/api/game/place", json={"player": "A", "cell": "5,5"}, headers=referee)
    assert off.status_code == 400 and off.json["error"]["field"] == "cell"
    place_all(client, referee)
    view = client.get("/api/state").json
    assert view["phase"] == "play" and len(view["position"]["hunters"]) == 2
    assert "hands" not in view["position"]  # cards in hand stay secret from viewers
    assert all(p["cards"] == 3 for p in view["players"])


def test_turns_played_by_notation_appear_in_the_log_explained_in_both_languages(client, referee):
    start_new_game(client, referee)
    game = place_all(client, referee)
    first = engine.notation.action_to_text(game.legal_actions()[0])
    response = client.post("/api/game/play", json={"notation": first}, headers=referee)
    assert response.status_code == 200 and response.json["ok"]
    log = client.get("/api/state").json["log"]
    assert log[-1]["notation"].startswith(first.split(":")[0])
    assert log[-1]["en"] and log[-1]["fr"] and log[-1]["en"] != log[-1]["fr"]


def test_a_flight_in_the_live_game_is_drawn_and_explained_step_by_step(client, referee):
    start_new_game(client, referee, seed=11)
    game = place_all(client, referee)
    events = _play_until_a_flight(client, referee, game)
    assert events is not None, "no flight within 200 turns of first-legal play"
    view = client.get("/api/state").json
    assert 'class="flight"' in view["svg"]
    flight = next(e for e in events if e["type"] == "mammoth_fled")
    assert len([line for line in view["log"][-1]["en"] if line.startswith("    ")]) == len(flight["tried"]) + bool(flight.get("arrival"))


def test_illegal_turns_are_422_and_leave_the_game_unchanged(client, referee):
    start_new_game(client, referee)
    place_all(client, referee)
    before = client.get("/api/state").json["version"]
    wrong_player = client.post("/api/game/play", json={"notation": "B:E1"}, headers=referee)
    assert wrong_player.status_code == 422 and wrong_player.json["error"]["code"] == "illegal_move"
    garbage = client.post("/api/game/play", json={"notation": "??"}, headers=referee)
    assert garbage.status_code == 400
    missing = client.post("/api/game/play", json={}, headers=referee)
    assert missing.status_code == 400 and missing.json["error"]["field"] == "action"
    assert client.get("/api/state").json["version"] == before


def test_no_game_yet_gives_a_clear_error(client, referee):
    response = client.post("/api/game/play", json={"notation": "A:E1"}, headers=referee)
    assert response.status_code == 400 and "no game" in response.json["error"]["message"]
    assert client.get("/api/game/record", headers=referee).status_code == 404


def test_undo_takes_back_the_last_turn(client, referee):
    start_new_game(client, referee)
    game = place_all(client, referee)
    before = client.get("/api/state").json["position"]
    client.post("/api/game/play", json={"action": engine.action_to_json(game.legal_actions()[0])}, headers=referee)
    assert client.get("/api/state").json["position"] != before
    assert client.post("/api/game/undo", json={}, headers=referee).json["undone"] is True
    assert client.get("/api/state").json["position"] == before


def test_an_exported_record_imports_into_another_server_to_the_same_position(client, referee):
    start_new_game(client, referee, seed=5)
    game = place_all(client, referee)
    for _ in range(6):
        _play_until_a_flight(client, referee, game, max_turns=1)
    assert client.get("/api/game/record").status_code == 401  # the seed reveals the cards to come
    record = client.get("/api/game/record", headers=referee)
    assert record.status_code == 200 and record.mimetype == "application/x-ndjson"
    other = create_app({"REFEREE_PIN": PIN}).test_client()
    imported = other.post("/api/game/record", data=record.data, headers=referee, content_type="application/x-ndjson")
    assert imported.status_code == 200
    assert other.get("/api/state").json["position"] == client.get("/api/state").json["position"]


def test_a_broken_record_is_refused_with_the_line(client, referee):
    response = client.post("/api/game/record", data=b'{"record": "maamut-record/1"}\n{broken', headers=referee)
    assert response.status_code == 400 and "line" in response.json["error"]["message"]
    assert client.post("/api/game/record", data=b"", headers=referee).status_code == 400


def test_illegal_changes_seen_by_the_camera_are_crossed_out_until_the_next_turn(client, referee):
    start_new_game(client, referee)
    game = place_all(client, referee)
    live = client.application.extensions["maamut_game"]
    live.session.mark_board([{"cell": "0,-2", "reason": "a hunter moved onto <rock>"}, "junk"])
    view = client.get("/api/state").json
    assert view["illegal"] == [{"cell": "0,-2", "reason": "a hunter moved onto <rock>"}]
    assert 'class="illegal" data-cell="0,-2"' in view["svg"] and "&lt;rock&gt;" in view["svg"]
    client.post("/api/game/play", json={"action": engine.action_to_json(game.legal_actions()[0])}, headers=referee)
    assert client.get("/api/state").json["illegal"] == []


def test_a_frightened_hunter_waits_for_the_flee_choice_made_on_the_referee_board(client, referee):
    assert client.post("/api/game/flee", json={"cell": "0,0"}, headers=referee).status_code == 400
    start_new_game(client, referee, players=[{"id": "A"}, {"id": "B"}, {"id": "C"}], seed=1)
    game = place_all(client, referee)
    rng = random.Random(1)
    for _ in range(100):  # seeded play until some move frightens a hunter with a choice to make
        asking = [a for a in game.legal_actions() if engine.apply_action(game.position, a, (), game.variants).needs]
        action = asking[0] if asking else rng.choice(game.legal_actions())
        response = client.post("/api/game/play", json={"action": engine.action_to_json(action)}, headers=referee)
        if asking:
            break
        while response.json["needs"]:
            needs = response.json["needs"]
            response = client.post("/api/game/flee", json={"cell": needs["options"][0]}, headers=referee)
    needs = response.json["needs"]
    assert needs and len(needs["options"]) >= 1
    view = client.get("/api/state").json
    assert view["needs"] == needs and view["svg"].count('class="flee-option"') == len(needs["options"])
    wrong = client.post("/api/game/flee", json={"cell": "9,9"}, headers=referee)
    assert wrong.status_code == 422 and wrong.json["error"]["field"] == "cell"
    assert client.post("/api/game/flee", json={"cell": needs["options"][-1]}).status_code == 401  # viewers cannot
    done = client.post("/api/game/flee", json={"cell": needs["options"][-1]}, headers=referee)
    assert done.status_code == 200
    # Settled, or the next frightened hunter of the same flight is now the one waiting.
    assert client.get("/api/state").json["needs"] == done.json["needs"]
    assert any(e["type"] == "hunter_fled" and e["to"] == needs["options"][-1] for e in done.json["events"])
