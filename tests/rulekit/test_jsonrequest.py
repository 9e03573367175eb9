"""The one JSON request reader: its limits, its answers naming the field, its stdin loop."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.jsonrequest import (MAX_DEPTH, MAX_INT_DIGITS, MAX_REQUEST_CHARS, RequestError, answer_bytes,
                                 answer_text, read_json, serve_stdin)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 20, 10 ** 20) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=("Cs",))),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_within_the_limits_reads_back_unchanged(value):
    assert read_json(json.dumps(value)) == value
    assert read_json(json.dumps(value, ensure_ascii=False)) == value


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{}",:0123456789.eE+-truefalsnNIy \\u\n\ud800', max_size=60))
def test_any_text_is_read_or_refused_with_a_request_error_never_another_exception(text):
    try:
        read_json(text)
    except RequestError as exc:
        assert exc.field and exc.to_json()["error"]["rule"] == "request.format"


@pytest.mark.parametrize("text, field, words", [
    ('{"seed": ' + "7" * (MAX_INT_DIGITS + 1) + "}", "seed", f"at most {MAX_INT_DIGITS}"),
    ('{"a": [1, -' + "7" * 5000 + "]}", "a[1]", "5000 digits"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "request", "nested"),
    ('{"a": "' + "[" * 100 + '"}', None, None),  # brackets inside a string are not nesting
    ('{"players": ["\\ud800"]}', "players[0]", "lone surrogate"),
    ('{"\\udc00": 1}', "request", "lone surrogate"),
    ('{"x": NaN}', "x", "NaN"),
    ('{"x": -Infinity}', "x", "-Infinity"),
    ('{"x": 1e999}', "x", "too large"),
    ('{"a": ', "request", "not JSON"),
    (" " * (MAX_REQUEST_CHARS + 1), "request", "characters"),
])
def test_each_limit_is_refused_with_the_field_it_found(text, field, words):
    if field is None:
        assert read_json(text) == {"a": "[" * 100}
        return
    with pytest.raises(RequestError) as caught:
        read_json(text)
    assert caught.value.field == field and words in str(caught.value)


def test_a_valid_surrogate_pair_is_text_not_an_error():
    assert read_json('"\\ud83e\\udda3"') == "\U0001f9a3"


def test_one_integer_one_float_one_string_keep_their_json_types():
    assert read_json('[1, 1.0, "1"]') == [1, 1.0, "1"] and type(read_json("1.0")) is float


def _echo(request):
    if not isinstance(request, dict):
        return 2, {"ok": False, "error": {"code": "bad_request", "field": "request", "message": "not an object",
                                          "rule": "request.format"}}
    return (1 if request.get("illegal") else 0), {"ok": not request.get("illegal"), "echo": request}


def test_one_document_gets_one_response_and_its_exit_code():
    assert answer_text(_echo, '{"illegal": true}').code == 1
    pretty = answer_text(_echo, '{\n  "a": 1\n}\n')
    assert (pretty.code, pretty.lines, pretty.responses[0]["echo"]) == (0, False, {"a": 1})
    assert answer_text(_echo, "   \n").code == 2


def test_json_lines_answer_every_line_in_order_exit_0_a_bad_line_alone():
    text = '{"n": 1}\n\n{"n": ' + "9" * 5000 + '}\n{"illegal": true}\n[' + "[" * 30000 + '\n{"n": 5}\n'
    answer = answer_text(_echo, text)
    assert answer.lines and answer.code == 0 and len(answer.responses) == 5
    assert answer.responses[0]["echo"] == {"n": 1} and answer.responses[-1]["echo"] == {"n": 5}
    assert answer.responses[1]["error"]["field"] == "n" and answer.responses[1]["error"]["message"].startswith("line 3:")
    assert answer.responses[2]["ok"] is False and "echo" in answer.responses[2]
    assert answer.responses[3]["error"]["message"].startswith("line 5: nested")


def test_a_line_that_is_not_utf8_is_answered_alone():
    answer = answer_bytes(_echo, b'{"n": 1}\n{"n": "\xff"}\n{"n": 3}')
    assert [r["ok"] for r in answer.responses] == [True, False, True]
    assert answer.responses[1]["error"]["message"].startswith("line 2: input is not UTF-8")
    assert answer_bytes(_echo, b'{"n": "\xff"}').code == 2


def test_a_line_separator_inside_a_json_string_does_not_split_the_line():
    answer = answer_text(_echo, '{"n": "a\u2028b"}\n{"n": 2}')
    assert [r["echo"]["n"] for r in answer.responses] == ["a\u2028b", 2]


def test_serve_stdin_prints_utf8_whatever_the_locale():
    class Stdin:
        buffer = io.BytesIO('{"name": "Zoé"}'.encode())

    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert serve_stdin(_echo, Stdin, out) == 0
    assert json.loads(out.buffer.getvalue().decode("utf-8")) == {"ok": True, "echo": {"name": "Zoé"}}
