"""Hostile and random input never crashes the resolver: a clear error with a field, or an answer."""

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import legal_request, resolve_request
from engine.jsonio import position_to_json

from .helpers import make

BASE = {"position": position_to_json(make(mammoth="0,2", rocks=["0,1"], hunters={"A": "-2,2", "B": "3,-3"})),
        "action": {"type": "move", "hunter": "A", "direction": "E", "distance": 2}}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)

paths = st.sampled_from([
    ("position",), ("action",), ("choices",), ("variants",),
    ("position", "tiles"), ("position", "tiles", "0,0"), ("position", "mammoth"), ("position", "players"),
    ("position", "hunters"), ("position", "hunters", "A"), ("position", "traps"), ("position", "to_move"),
    ("position", "eliminated"), ("position", "hands"), ("action", "type"), ("action", "hunter"),
    ("action", "direction"), ("action", "distance"),
])


@settings(max_examples=400, deadline=None)
@given(path=paths, value=json_values)
def test_any_corrupted_field_gives_an_answer_or_a_named_error(path, value):
    request = copy.deepcopy(BASE)
    target = request
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    code, response = resolve_request(request)
    json.dumps(response)  # always serialisable
    assert code in (0, 1, 2)
    if code == 2:
        assert response["error"]["code"] == "bad_request" and response["error"]["field"]
    if code == 1:
        assert response["error"]["code"] == "illegal_move" and response["error"]["rule"]
    legal_code, _ = legal_request({"position": request.get("position")})
    assert legal_code in (0, 2)


NOTATION = "gggg/ggggg/gggggg/gggxggg/gggrgg/ggggg/gggg 0,2 A@-2,2;B@3,-3 - A A:123;B:-"


@settings(max_examples=300, deadline=None)
@given(edits=st.lists(st.tuples(st.integers(0, len(NOTATION)), st.integers(0, 3),
                                st.text(alphabet="gsrx0123456789-,;@!:/* ABZ\u00b2\t", max_size=3)),
                      min_size=1, max_size=4))
def test_a_corrupted_text_notation_position_gives_an_answer_or_a_named_error(edits):
    text = NOTATION
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut:]
    request = dict(BASE, position=text)
    code, response = resolve_request(request)
    json.dumps(response)
    assert code in (0, 1, 2)
    if code == 2:
        assert response["error"]["field"].startswith("position")
    if code == 0:
        assert response["notation"]
    assert legal_request({"position": text})[0] in (0, 2)


@settings(max_examples=200, deadline=None)
@given(value=json_values)
def test_whole_requests_of_random_json_are_refused_cleanly(value):
    code, response = resolve_request(value)
    assert code in (0, 1, 2) and "ok" in response
