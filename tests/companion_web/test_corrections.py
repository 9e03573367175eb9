"""Corrections that say what they correct (issue 22): ``GET /api/state`` carries the game's
``ETag``; every referee write under ``/api/game/`` honours ``If-Match``; a stale one is
412, changes nothing and names the turn that landed meanwhile; every page is told when
the referee takes a turn back or enters one."""

from __future__ import annotations

import engine
import pytest

from web_fixtures import place_all, start_new_game


def _tag(client) -> str:
    return client.get("/api/state").headers["ETag"]


def _first_legal(game) -> dict:
    return engine.action_to_json(game.legal_actions()[0])


@pytest.fixture
def playing(client, referee):
    start_new_game(client, referee)
    return place_all(client, referee)


def test_the_etag_changes_with_every_committed_action_and_not_with_the_leds(app, client, referee, playing):
    tags = [_tag(client)]
    app.extensions["maamut_hub"].update(leds=[[1, 2, 3]])
    assert _tag(client) == tags[0]
    assert client.post("/api/game/play", json={"action": _first_legal(playing)}, headers=referee).status_code == 200
    tags.append(_tag(client))
    assert client.post("/api/game/undo", json={}, headers=referee).status_code == 200
    tags.append(_tag(client))
    assert len(set(tags)) == 3  # an undo is a committed action too: the record keeps it
    assert client.get("/api/state").json["etag"] == tags[2].strip('"')


def test_a_stale_undo_is_refused_changes_nothing_and_names_the_turn_that_landed(app, client, referee, playing):
    read = _tag(client)
    table = app.extensions["maamut_game"].session
    action = playing.legal_actions()[0]
    table.play(action, (), source="camera")  # lands after the referee read the page
    entries = len(playing.entries())
    response = client.post("/api/game/undo", json={}, headers={**referee, "If-Match": read})
    assert response.status_code == 412
    error = response.json["error"]
    notation = engine.notation.action_to_text(action)
    assert error["code"] == "precondition_failed" and error["field"] == "If-Match"
    assert error["landed"][0]["notation"] == notation and notation in error["message"]
    assert error["landed"][0]["en"].startswith("Ann moves") and error["landed"][0]["fr"].startswith("Ann avance")
    assert response.headers["ETag"] == _tag(client) == response.json["etag"]
    assert len(playing.entries()) == entries  # nothing was taken back


@pytest.mark.parametrize("route, body", [
    ("/api/game/new", {"players": [{"id": "A"}, {"id": "B"}], "seed": 3}),
    ("/api/game/place", {"player": "A", "cell": "0,-3"}),
    ("/api/game/play", {"notation": "A:E1"}),
    ("/api/game/flee", {"cell": "0,0"}),
    ("/api/game/undo", {}),
    ("/api/game/record", "x"),
])
def test_every_referee_write_refuses_a_stale_if_match_before_anything_else(client, referee, playing, route, body):
    before = client.get("/api/state").json
    kwargs = {"data": body} if isinstance(body, str) else {"json": body}
    response = client.post(route, headers={**referee, "If-Match": '"1-000000000000"'}, **kwargs)
    assert response.status_code == 412, response.json
    assert response.json["error"]["code"] == "precondition_failed"
    after = client.get("/api/state").json
    assert after["etag"] == before["etag"] and after["version"] == before["version"]


def test_a_fresh_if_match_or_none_at_all_writes_and_answers_the_new_etag(client, referee, playing):
    response = client.post("/api/game/play", json={"action": _first_legal(playing)},
                           headers={**referee, "If-Match": _tag(client)})
    assert response.status_code == 200 and response.headers["ETag"] == _tag(client)
    # Without If-Match a write acts on the game as it is (the contract before issue 22).
    response = client.post("/api/game/undo", json={}, headers=referee)
    assert response.status_code == 200 and response.json["undone"] is True
    assert response.json["taken_back"]["notation"] == engine.notation.action_to_text(playing.legal_actions()[0])
    assert client.post("/api/game/undo", json={}, headers={**referee, "If-Match": "*"}).status_code == 200


def test_a_weak_or_foreign_tag_is_stale_and_a_list_with_the_current_tag_matches(client, referee, playing):
    tag = _tag(client)
    assert client.post("/api/game/undo", json={}, headers={**referee, "If-Match": "W/" + tag}).status_code == 412
    assert client.post("/api/game/undo", json={}, headers={**referee, "If-Match": "nonsense"}).status_code == 412
    assert client.post("/api/game/undo", json={}, headers={**referee, "If-Match": '"x", ' + tag}).status_code == 200


def test_a_stale_tag_after_an_undo_says_how_many_entries_were_taken_back(app, client, referee, playing):
    client.post("/api/game/play", json={"action": _first_legal(playing)}, headers=referee)
    read = _tag(client)
    app.extensions["maamut_game"].session.undo(source="buttons")
    error = client.post("/api/game/undo", json={}, headers={**referee, "If-Match": read}).json["error"]
    assert error["taken_back"] == 1 and "taken back" in error["message"]


def test_every_page_is_told_when_the_referee_takes_a_turn_back_or_enters_one(app, client, referee, playing):
    table = app.extensions["maamut_game"].session
    assert client.get("/api/state").json["correction"] is None  # placing hunters is no correction
    table.play(playing.legal_actions()[0], (), source="camera")
    assert client.get("/api/state").json["correction"] is None
    client.post("/api/game/undo", json={}, headers=referee)
    correction = client.get("/api/state").json["correction"]
    assert correction["kind"] == "taken_back" and correction["en"].startswith("Ann moves")
    client.post("/api/game/play", json={"action": _first_legal(playing)}, headers=referee)
    correction = client.get("/api/state").json["correction"]
    assert correction["kind"] == "entered" and correction["notation"] == playing.entries()[-1]["turn"]
    table.play(playing.legal_actions()[0], (), source="camera")  # the next change ends the notice
    assert client.get("/api/state").json["correction"] is None


def test_a_refusal_names_the_players_for_people_and_keeps_the_ids_in_the_message(client, referee, playing):
    wrong = "B:E1" if playing.position.to_move == "A" else "A:E1"
    error = client.post("/api/game/play", json={"notation": wrong}, headers=referee).json["error"]
    assert error["message"] == "it is A's turn, not B's"  # the contract's text, unchanged
    assert error["said"] == "it is Ann's turn, not Bob's"


from hypothesis import given, settings, strategies as st  # noqa: E402

from companion_web.hub import GameHub  # noqa: E402
from companion_web.live import PageAdapter, game_tag  # noqa: E402
from engine.hexgrid import cell_name  # noqa: E402
from session import TableSession  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(steps=st.lists(st.sampled_from(["camera", "undo", "marks"]), min_size=1, max_size=10), seed=st.integers(0, 50))
def test_the_tag_changes_with_every_committed_action_and_only_then(steps, seed):
    """Whatever lands, in any order: every committed action gives a tag never seen
    before in this game, the camera's marks leave it alone, and the pages get the same
    tag as the one a write is checked against."""
    table = TableSession(deal=True)
    hub = GameHub()
    PageAdapter(table, hub)
    table.new_game([{"id": "A"}, {"id": "B"}], seed=seed)
    while table.game.next_to_place():
        table.place_hunter(table.game.next_to_place(), cell_name(table.game.start_cells()[0]))
    seen = {game_tag(table)}
    for step in steps:
        before = game_tag(table)
        if step == "marks":
            table.mark_board([{"cell": "0,0", "reason": str(len(seen))}])
            assert game_tag(table) == before
            continue
        if step == "undo":
            changed = table.undo(source="page")
        else:
            if table.game.winner:
                continue
            changed = True
            if table.game.next_to_place():  # an undo took a placement back: place again
                table.place_hunter(table.game.next_to_place(), cell_name(table.game.start_cells()[0]), source="camera")
                outcome = None
            else:
                outcome = table.play(table.game.legal_actions()[0], (), source="camera")
            if outcome and outcome.needs:
                assert game_tag(table) not in seen  # a turn waiting for its flee choice is a change too
                seen.add(game_tag(table))
                table.choose_flee(cell_name(outcome.needs.options[0]), source="camera")
        after = game_tag(table)
        assert (after not in seen) == changed
        seen.add(after)
        assert hub.latest_tagged()[2] == after
