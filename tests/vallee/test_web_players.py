"""Who may write in a La Vallée game (docs/vallee-web.md «Who may do what»): a player's
own link (header ``X-Vallee-Player``) gives that player's entries — the question asked
of them, a trick card in their name — and nothing else (another player's choice, the
table's draws, undo, a new game, the links: 403 saying why in English and French); the
header ``X-Vallee`` is still needed; the referee keeps every right."""

from __future__ import annotations

import random

import pytest

from vallee.autoplay import answer, movement

from .test_web_game import PIN, WRITE, entry, make_client, start, table_of

SETUP = {"players": ["red", "blue", "green"], "map": "sample", "seed": 5, "first": "red"}
#: Cards that need no choice and may be played at any step: a phone plays one with a tap.
NO_CHOICE = ("espionnage", "intuition")


@pytest.fixture
def client(tmp_path):
    c = make_client(tmp_path)
    start(c, SETUP)
    c.tokens = {p: link.rsplit("/", 1)[1] for p, link in
                c.post("/vallee/api/links", json={}, headers=WRITE).json["links"].items()}
    return c


def as_player(client, player, value, **headers):
    return client.post("/vallee/api/entry", json={"entry": value},
                       headers={"X-Vallee": "1", "X-Vallee-Player": client.tokens[player], **headers})


def advance(client, stop, limit=800):
    """The referee plays (the fair random player) until ``stop(game)``."""
    rng = random.Random(2)
    game = table_of(client).game
    for _ in range(limit):
        if stop(game):
            return game
        value = answer(game, rng)
        response = entry(client, value)
        assert response.status_code == 200 or value["kind"] == "trick", (value, response.json)
        game = table_of(client).game
    raise AssertionError("never reached")


def test_a_player_sets_up_and_moves_their_own_tribe_from_their_phone(client):
    game = table_of(client).game
    assert game.pending()["player"] == "red"
    cell = game.pending()["options"][0]
    response = as_player(client, "red", {"kind": "place_camp", "cell": cell})
    assert response.status_code == 200, response.json
    assert response.json["done"]["en"] == f"red sets up camp on {cell}"
    game = advance(client, lambda g: g.pending()["step"] == "movement")
    mover = game.pending()["player"]
    value = movement(game, game.pending(), random.Random(4))
    response = as_player(client, mover, value)
    assert response.status_code == 200, response.json
    assert table_of(client).game.entries[-1]["kind"] == value["kind"]


def test_a_player_plays_a_card_from_their_own_hand(client):
    def offered(game):
        return any(t["card"] in NO_CHOICE for t in game.pending()["tricks"])
    game = advance(client, offered)
    item = next(t for t in game.pending()["tricks"] if t["card"] in NO_CHOICE)
    before = len(game.tribes[item["player"]].hand)
    response = as_player(client, item["player"], {"kind": "trick", "player": item["player"], "card": item["card"]})
    assert response.status_code == 200, response.json
    assert len(table_of(client).game.tribes[item["player"]].hand) == before - 1


def refused(response, code):
    assert response.status_code == 403, response.json
    error = response.json["error"]
    assert error["code"] == code and error["message"] and error["message_fr"] and error["message"] != error["message_fr"]
    return error


def test_a_player_is_refused_another_players_step_and_cards_and_the_tables_draws(client):
    cell = table_of(client).game.pending()["options"][0]
    error = refused(as_player(client, "blue", {"kind": "place_camp", "cell": cell}), "not_yours")
    assert error["message"] == "this is red's choice, not blue's" and error["field"] == "X-Vallee-Player"
    refused(as_player(client, "blue", {"kind": "place_camp", "cell": cell, "player": "red"}), "not_yours")
    refused(as_player(client, "red", {"kind": "place_camp", "cell": cell, "player": "blue"}), "not_yours")
    refused(as_player(client, "blue", {"kind": "trick", "player": "red", "card": "espionnage"}), "not_yours")
    advance(client, lambda g: g.pending()["step"] == "animal_die")
    error = refused(as_player(client, "red", {"kind": "roll"}), "not_yours")
    assert "game master" in error["message"]
    assert table_of(client).game.pending()["step"] == "animal_die"  # nothing changed


def test_undo_a_new_game_and_the_links_stay_the_referees(client):
    n = len(table_of(client).game.entries)
    token = {"X-Vallee": "1", "X-Vallee-Player": client.tokens["red"]}
    error = refused(client.post("/vallee/api/undo", json={}, headers=token), "referee_only")
    assert error["field"] == "X-Vallee-Player" and "referee" in error["message"] and "arbitre" in error["message_fr"]
    refused(client.post("/vallee/api/new", json=SETUP, headers=token), "referee_only")
    refused(client.post("/vallee/api/links", json={}, headers=token), "referee_only")
    refused(client.post("/vallee/api/rollout", json={}, headers=token), "referee_only")
    refused(client.post("/vallee/maps/save", json={"map": {}}, headers=token), "referee_only")
    assert len(table_of(client).game.entries) == n


def test_an_unknown_link_is_refused_and_the_custom_header_is_still_needed(client):
    cell = table_of(client).game.pending()["options"][0]
    response = client.post("/vallee/api/entry", json={"entry": {"kind": "place_camp", "cell": cell}},
                           headers={"X-Vallee": "1", "X-Vallee-Player": "0123456789ab"})
    refused(response, "unknown_player")
    response = client.post("/vallee/api/entry", json={"entry": {"kind": "place_camp", "cell": cell}},
                           headers={"X-Vallee-Player": client.tokens["red"]})
    assert response.status_code == 403 and response.json["error"]["field"] == "X-Vallee"
    assert client.post("/vallee/api/entry", json={"entry": {"kind": "place_camp", "cell": cell}}).status_code == 401
    assert table_of(client).game.entries == []


def test_the_referee_keeps_every_right_even_beside_a_players_link(client):
    cell = table_of(client).game.pending()["options"][0]
    both = {**WRITE, "X-Vallee-Player": client.tokens["blue"]}
    response = client.post("/vallee/api/entry", json={"entry": {"kind": "place_camp", "cell": cell}}, headers=both)
    assert response.status_code == 200, response.json
    assert client.post("/vallee/api/undo", json={}, headers=both).status_code == 200
    assert client.post("/vallee/api/links", json={}, headers={"X-Referee-PIN": PIN, "X-Vallee": "1"}).status_code == 200


def test_a_new_game_ends_the_old_links_writes(client):
    old = client.tokens["red"]
    start(client, SETUP)
    cell = table_of(client).game.pending()["options"][0]
    response = client.post("/vallee/api/entry", json={"entry": {"kind": "place_camp", "cell": cell}},
                           headers={"X-Vallee": "1", "X-Vallee-Player": old})
    refused(response, "unknown_player")
