"""The read-only JSON API: the command-line contract over HTTP and the sandbox helpers."""

from __future__ import annotations

import json

from engine import api as contract

from web_fixtures import FIGURE, FIGURE_MOVE


def test_resolve_answers_exactly_what_the_command_line_answers(client, figure_position):
    request = {"position": figure_position, "action": FIGURE_MOVE}
    response = client.post("/api/resolve", json=request)
    assert response.status_code == 200
    assert response.json == contract.resolve_request(request)[1]
    flight = next(e for e in response.json["events"] if e["type"] == "mammoth_fled")
    assert (flight["direction"], flight["to"]) == ("NE", "2,0")


def test_resolve_illegal_action_is_422_with_the_rule(client, figure_position):
    response = client.post("/api/resolve", json={"position": figure_position,
                                                 "action": {**FIGURE_MOVE, "hunter": "B"}})
    assert response.status_code == 422
    assert response.json["ok"] is False and response.json["error"]["code"] == "illegal_move"
    assert response.json["error"]["rule"]


def test_resolve_malformed_request_is_400_naming_the_field(client, figure_position):
    response = client.post("/api/resolve", json={"position": figure_position})
    assert response.status_code == 400
    assert response.json["error"]["field"] == "action"
    bad_cell = dict(figure_position, mammoth="9,9")
    response = client.post("/api/resolve", json={"position": bad_cell, "action": FIGURE_MOVE})
    assert response.status_code == 400 and "mammoth" in response.json["error"]["field"]


def test_resolve_json_lines_get_one_response_line_each_in_order(client, figure_position):
    good = json.dumps({"position": figure_position, "action": FIGURE_MOVE})
    body = "\n".join([good, "{not json", json.dumps({"position": figure_position, "action": {**FIGURE_MOVE, "hunter": "B"}})])
    response = client.post("/api/resolve", data=body, content_type="application/x-ndjson")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.data.decode().splitlines()]
    assert [line["ok"] for line in lines] == [True, False, False]
    assert [lines[1]["error"]["code"], lines[2]["error"]["code"]] == ["bad_request", "illegal_move"]


def test_legal_lists_the_actions_of_the_player_to_move(client, figure_position):
    response = client.post("/api/legal", json={"position": figure_position})
    assert response.status_code == 200
    assert response.json == contract.legal_request({"position": figure_position})[1]
    assert "A:E2" in response.json["notation"]


def test_hostile_bodies_get_a_clear_400_not_a_crash(client):
    for body in ["", "{", "[1, 2]", '"just a string"', "[" * 50000, "\xff\xfe"]:
        response = client.post("/api/resolve", data=body.encode("utf-8", "surrogateescape")
                               if body != "\xff\xfe" else b"\xff\xfe\x00", content_type="application/json")
        assert response.status_code == 400, body[:20]
        assert response.json["ok"] is False and response.json["error"]["message"]


def test_oversized_body_is_refused_with_413(client, app):
    too_big = b"[" + b"1," * app.config["MAX_CONTENT_LENGTH"] + b"1]"
    response = client.post("/api/resolve", data=too_big, content_type="application/json")
    assert response.status_code == 413
    assert response.json["ok"] is False


def test_state_is_the_same_view_the_event_stream_sends(client):
    response = client.get("/api/state")
    assert response.status_code == 200
    view = response.json
    assert view["version"] == 0 and view["svg"].count('class="cell"') == 37


def test_render_draws_the_flight_arrow_and_explains_it_in_both_languages(client, figure_position):
    resolved = client.post("/api/resolve", json={"position": figure_position, "action": FIGURE_MOVE}).json
    response = client.post("/api/render", json={"position": resolved["position"], "events": resolved["events"]})
    assert response.status_code == 200
    assert 'class="flight"' in response.json["svg"] and "animateMotion" in response.json["svg"]
    english, french = response.json["explanation"]["en"], response.json["explanation"]["fr"]
    assert any("NE" in line and "open" in line for line in english)
    assert any("rock" in line and "0,1" in line for line in english)
    assert any("rocher" in line for line in french)


def test_render_rejects_wrong_shapes_with_the_field(client, figure_position):
    for field, value in [("events", "x"), ("marks", [1]), ("needs", 3), ("players", [])]:
        response = client.post("/api/render", json={"position": figure_position, field: value})
        assert response.status_code == 400 and response.json["error"]["field"] == field


def test_notation_round_trips_through_the_api(client, figure_position):
    text = client.post("/api/notation", json={"position": figure_position}).json["text"]
    assert text == FIGURE
    parsed = client.post("/api/notation/parse", json={"text": text}).json["position"]
    assert parsed == figure_position
    bad = client.post("/api/notation/parse", json={"text": "not a position"})
    assert bad.status_code == 400 and bad.json["error"]["message"]


def test_whatif_gives_all_18_moves_with_the_engine_ruling(client, figure_position):
    response = client.post("/api/whatif", json={"position": figure_position, "hunter": "A"})
    assert response.status_code == 200
    moves = response.json["moves"]
    assert len(moves) == 18 and len({(m["direction"], m["distance"]) for m in moves}) == 18
    east2 = next(m for m in moves if (m["direction"], m["distance"]) == ("E", 2))
    assert east2["legal"] and east2["mammoth_to"] == "2,0"
    west = next(m for m in moves if (m["direction"], m["distance"]) == ("W", 2))
    assert not west["legal"] and west["error"]["code"] == "illegal_move"  # runs off the board
    assert client.post("/api/whatif", json={"position": figure_position, "hunter": "Z"}).status_code == 400


def test_board_svg_share_link_serves_the_position_as_a_file(client):
    response = client.get("/board.svg", query_string={"p": FIGURE})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.data.decode()
    assert svg.count('class="cell"') == 37 and 'data-cell="0,1" data-tile="rock"' in svg
    assert client.get("/board.svg", query_string={"p": "garbage"}).status_code == 400


def test_resolve_stops_to_ask_where_a_frightened_hunter_flees_then_uses_the_choice(client):
    from web_fixtures import FLEE

    position = client.post("/api/notation/parse", json={"text": FLEE}).json["position"]
    request = {"position": position, "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}}
    asked = client.post("/api/resolve", json=request)
    assert asked.status_code == 200 and asked.json["needs"]["hunter"] == "B"
    assert "1,1" in asked.json["needs"]["options"] and "0,0" not in asked.json["needs"]["options"]
    rendered = client.post("/api/render", json={"position": position, "needs": asked.json["needs"]}).json["svg"]
    assert rendered.count('class="flee-option"') == len(asked.json["needs"]["options"])
    answered = client.post("/api/resolve", json={**request, "choices": [{"hunter": "B", "to": "1,1"}]})
    assert answered.status_code == 200 and answered.json["needs"] is None
    assert answered.json["position"]["hunters"]["B"] == "1,1"
    wrong = client.post("/api/resolve", json={**request, "choices": [{"hunter": "B", "to": "0,0"}]})
    assert wrong.status_code in (400, 422) and wrong.json["ok"] is False


def test_whatif_and_resolve_follow_the_chosen_variant(client, figure_position):
    default = client.post("/api/whatif", json={"position": figure_position, "hunter": "A"}).json["moves"]
    variant = client.post("/api/whatif", json={"position": figure_position, "hunter": "A",
                                               "variants": {"trigger_on_pass_through": False}}).json["moves"]
    east3 = [next(m for m in moves if (m["direction"], m["distance"]) == ("E", 3)) for moves in (default, variant)]
    assert east3[0]["mammoth_to"] == "3,-1" and east3[1]["mammoth_to"] is None  # passing by no longer frightens it
    bad = client.post("/api/whatif", json={"position": figure_position, "hunter": "A", "variants": {"nope": 1}})
    assert bad.status_code == 400 and bad.json["error"]["field"] == "variants"


def test_a_position_in_the_text_notation_is_taken_wherever_a_json_position_is(client, figure_position):
    """/api/resolve and /api/legal answer what the command answers; the other endpoints read it too."""
    request = {"position": FIGURE, "action": FIGURE_MOVE}
    response = client.post("/api/resolve", json=request)
    assert response.status_code == 200 and response.json == contract.resolve_request(request)[1]
    assert response.json["position"]["mammoth"] == "2,0" and response.json["notation"].split()[1] == "2,0"
    as_json = client.post("/api/resolve", json={"position": figure_position, "action": FIGURE_MOVE}).json
    assert "notation" not in as_json and {**as_json, "notation": response.json["notation"]} == response.json
    legal = client.post("/api/legal", json={"position": FIGURE})
    assert legal.status_code == 200 and legal.json == contract.legal_request({"position": figure_position})[1]
    assert client.post("/api/notation", json={"position": FIGURE}).json["text"] == FIGURE
    whatif = client.post("/api/whatif", json={"position": FIGURE, "hunter": "A"})
    assert whatif.status_code == 200 and len(whatif.json["moves"]) == 18
    render = client.post("/api/render", json={"position": FIGURE})
    assert render.status_code == 200 and render.json["notation"] == FIGURE
    broken = client.post("/api/resolve", json={"position": FIGURE.replace(" - A", " - Z"), "action": FIGURE_MOVE})
    assert broken.status_code == 400 and broken.json["error"]["field"] == "position.to_move"
    assert client.post("/api/whatif", json={"position": "garbage", "hunter": "A"}).status_code == 400


#: B on 1,0 can only flee to 2,-1, then C on 2,0 only to 3,0 (rocks all around).
TWO_FORCED = "gggg/ggggg/gggrgr/gggxggg/gggrrr/ggggg/gggg 0,0 A@-1,0;B@1,0;C@2,0 - A"


def test_resolve_accepts_choices_naming_forced_flee_cells_in_the_flights_order(client):
    """What the sandbox and a referee's script send: the turn as it happened, forced flees included."""
    request = {"position": TWO_FORCED, "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}}
    plain = client.post("/api/resolve", json=request)
    described = client.post("/api/resolve", json={**request, "choices": [{"hunter": "B", "to": "2,-1"},
                                                                          {"hunter": "C", "to": "3,0"}]})
    assert plain.status_code == described.status_code == 200 and described.json == plain.json
    assert described.json["position"]["hunters"] == {"A": "1,0", "B": "2,-1", "C": "3,0"}
    wrong = client.post("/api/resolve", json={**request, "choices": [{"hunter": "B", "to": "2,-1"},
                                                                      {"hunter": "C", "to": "2,1"}]})
    assert wrong.status_code == 422
    assert wrong.json["error"]["reason"] == "bad_flee_choice" and wrong.json["error"]["options"] == ["3,0"]
    out_of_order = client.post("/api/resolve", json={**request, "choices": [{"hunter": "C", "to": "3,0"},
                                                                             {"hunter": "B", "to": "2,-1"}]})
    assert out_of_order.status_code == 422 and out_of_order.json["error"]["reason"] == "unused_choice"


def test_the_engine_api_page_examples_hold_over_http(client):
    """docs/engine-api.md's examples through /api/resolve and /api/legal, status from the exit code."""
    from tests.engine.api_doc import examples

    status = {0: 200, 1: 422, 2: 400}
    checked = 0
    for example in examples():
        path = f"/api/{example.command}"
        for request, expected in zip(example.requests(), example.responses()):
            try:
                body = json.loads(request)
            except ValueError:
                continue  # a line that is not JSON: the page's own 400 wording differs from the command's
            response = client.post(path, json=body)
            assert response.json == expected, (example.line, request)
            if not example.lines:
                assert response.status_code == status[example.exit_code]
            checked += 1
    assert checked > 30
