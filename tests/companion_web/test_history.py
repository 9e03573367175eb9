"""The move list's endpoints: the board at any turn, the moves as text, the start cells;
the view's result, LED board and the hub's memory of the last game."""

from __future__ import annotations

import engine
from companion_web.view import default_led_layout, live_view
from web_fixtures import place_all, start_new_game


def _play(client, referee, turns):
    game = place_all(client, referee)
    for _ in range(turns):
        action = game.legal_actions()[0]
        response = client.post("/api/game/play", json={"action": engine.action_to_json(action)}, headers=referee)
        assert response.status_code == 200
    return game


def test_the_board_at_each_turn_is_served_and_needs_no_pin(client, referee):
    start_new_game(client, referee)
    game = _play(client, referee, 3)
    entries = len(game.entries())
    start = client.get("/api/history/0").json
    assert start["turn"] == 0 and start["of"] == entries and start["notation"] == ""
    assert 'class="hunter"' not in start["svg"]
    last = client.get(f"/api/history/{entries}").json
    assert last["notation"] == game.entries()[-1]["turn"] and 'class="last-to"' in last["svg"]
    assert client.get(f"/api/history/{entries + 1}").status_code == 404


def test_the_moves_as_text_are_numbered_and_keep_the_cards_secret(client, referee):
    start_new_game(client, referee)
    game = _play(client, referee, 2)
    text = client.get("/game.txt").data.decode()
    assert "  1. " in text and "  2. " in text
    position_line = text.split("position: ")[1]
    assert ":" not in position_line  # hands are written "A:122;B:3": none here
    assert game.position.hands  # the game has hands; the text does not


def test_start_cells_are_listed_while_hunters_are_placed(client, referee):
    start_new_game(client, referee)
    data = client.get("/api/start-cells").json
    game = client.application.extensions["maamut_game"].session.game
    assert data["player"] == "A" and len(data["cells"]) == len(game.start_cells()) > 0


def test_the_view_says_who_won_and_places_each_led_at_its_cell():
    view = live_view({"winner": "A", "log": [{"notation": "A:E2", "events": [
        {"type": "mammoth_trapped", "cell": "1,1", "owner": "A"},
        {"type": "game_over", "winner": "A", "reason": "trap", "rule": "end.trap"}]}],
        "leds": [[255, 0, 0]] * 41})
    assert view["result"] == {"winner": "A", "reason": "trap", "trap_owner": "A", "cell": "1,1", "turns": 1}
    assert view["led_cells"] == default_led_layout() and view["led_cells"][0] == "0,-3"
    assert view["led_cells"][37:] == [None] * 4  # the status LEDs
    custom = live_view({"leds": [[1, 2, 3]] * 3, "led_cells": ["1,1", "x", None]})["led_cells"]
    assert custom == ["1,1", None, None]


def test_the_hub_remembers_a_game_cut_short_until_the_next_one_starts(client, referee):
    start_new_game(client, referee)
    _play(client, referee, 3)
    hub = client.application.extensions["maamut_hub"]
    start_new_game(client, referee, seed=8)
    assert client.get("/api/state").json["previous"] == {"turns": 3, "winner": None, "result": None}
    _play(client, referee, 1)
    assert client.get("/api/state").json["previous"] is None
    assert hub.latest()[0] > 0


def test_a_waiting_flight_is_drawn_from_the_pending_events_when_the_table_gives_them():
    from engine.notation import position_from_text
    from web_fixtures import FLEE

    position = engine.position_to_json(position_from_text(FLEE))
    outcome = engine.apply_action(position_from_text(FLEE), engine.Move("A", "E", 2), ())
    needs = engine.needs_to_json(outcome.needs)
    view = live_view({"position": position, "needs": needs, "pending_events": engine.events.to_json(outcome.events)})
    assert 'class="flight"' in view["svg"] and view["svg"].count('class="flee-option"') == len(needs["options"])
    assert 'class="flight"' not in live_view({"position": position, "needs": needs})["svg"]


def test_the_live_page_draws_a_waiting_flight_and_the_options(client, referee):
    import random

    from engine.hexgrid import cell_name

    table = client.application.extensions["maamut_game"].session
    for seed in range(1, 40):
        table.new_game([{"id": "A"}, {"id": "B"}, {"id": "C"}], seed=seed)
        game = table.game
        while game.next_to_place():
            table.place_hunter(game.next_to_place(), cell_name(game.start_cells()[0]))
        rng = random.Random(seed)
        for _ in range(200):
            if game.winner:
                break
            outcome = table.play(rng.choice(game.legal_actions()), ())
            if outcome.needs:
                break
        if table.pending_turn():
            break
    assert table.pending_turn(), "no seed produced a frightened hunter"
    view = client.get("/api/state").json
    assert view["needs"] and 'class="flight"' in view["svg"] and 'class="flee-option"' in view["svg"]
    option = view["needs"]["options"][0]
    table.choose_flee(option if isinstance(option, str) else cell_name(option))
    assert client.get("/api/state").json["needs"] is None
