"""Hostile input: random JSON (and JSON that is almost a valid request) never crashes an
endpoint; every answer is a clear JSON error or a normal result."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion_web import create_app
from web_fixtures import FIGURE, PIN

ENDPOINTS = ["/api/resolve", "/api/legal", "/api/render", "/api/notation", "/api/notation/parse", "/api/whatif",
             "/api/game/new", "/api/game/place", "/api/game/play", "/api/game/flee", "/api/game/record"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=25)

_app = create_app({"REFEREE_PIN": PIN, "PIN_MAX_FAILURES": 10**9})
_client = _app.test_client()
_figure = _client.post("/api/notation/parse", json={"text": FIGURE}).json["position"]
_request = {"position": _figure, "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2},
            "hunter": "A", "text": FIGURE, "players": [{"id": "A"}, {"id": "B"}], "cell": "0,-3", "player": "A"}


def _answer_is_clean(response):
    assert response.status_code in (200, 400, 401, 404, 413, 422), response.status_code
    assert response.is_json or response.mimetype == "application/x-ndjson"
    if response.status_code != 200 and response.is_json:
        assert response.json["ok"] is False and response.json["error"]["message"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endpoint=st.sampled_from(ENDPOINTS), body=json_values)
def test_random_json_bodies_get_clean_answers(endpoint, body):
    _answer_is_clean(_client.post(endpoint, json=body, headers={"X-Referee-PIN": PIN}))


def _mutate(obj, path, value):
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


_PATHS = [("position",), ("position", "tiles"), ("position", "tiles", "0,0"), ("position", "mammoth"),
          ("position", "players"), ("position", "hunters"), ("position", "hunters", "A"), ("position", "traps"),
          ("position", "to_move"), ("position", "eliminated"), ("action",), ("action", "type"),
          ("action", "direction"), ("action", "distance"), ("action", "hunter"), ("hunter",), ("text",),
          ("players",), ("cell",), ("player",)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endpoint=st.sampled_from(ENDPOINTS), path=st.sampled_from(_PATHS), value=json_values)
def test_nearly_valid_requests_with_one_field_broken_get_clean_answers(endpoint, path, value):
    body = copy.deepcopy(_request)
    _mutate(body, path, value)
    _answer_is_clean(_client.post(endpoint, json=body, headers={"X-Referee-PIN": PIN}))
