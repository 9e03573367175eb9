"""Any request, however wrong, gets an answer with exit 0, 1 or 2 and never a traceback:
each command's documented example is mutated at random (a field replaced, removed or
added, at any depth) and handed to the command's handler."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from vallee import api

from .api_doc import examples

HANDLERS = {"animals": api.animals, "combat": api.combat, "survival": api.survival, "event": api.event,
            "arrivals": api.arrivals, "births": api.births, "standing": api.standing, "move": api.move,
            "camp": api.camp, "calendar": api.calendar}


def requests():
    out = []
    for command, _, _ in examples():
        if command.startswith("echo '"):
            body, _, rest = command[len("echo '"):].partition("' | maamut vallee ")
            name = rest.split()[0]
            out.append((name, json.loads(body)))
    return out


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
                    | st.sampled_from(["0,1", "9,9", "-3,0", "wolf", "red", "sample", "village", "summer"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, prefix + (i,))


def mutate(request, where, how, value):
    request = copy.deepcopy(request)
    if not where:
        return value if how == "replace" else request
    parent = request
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    if how == "replace":
        parent[last] = value
    elif how == "remove" and isinstance(parent, dict):
        del parent[last]
    elif how == "remove":
        parent.pop(last)
    elif isinstance(parent, dict):
        parent[f"{last}_extra"] = value
    else:
        parent.append(value)
    return request


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_requests_always_get_exit_0_1_or_2(data):
    name, request = data.draw(st.sampled_from(requests()))
    where = data.draw(st.sampled_from(list(paths(request))))
    how = data.draw(st.sampled_from(["replace", "remove", "add"]))
    value = data.draw(JSON)
    code, response = api.answer(HANDLERS[name], mutate(request, where, how, value))
    assert code in (0, 1, 2) and response["ok"] == (code == 0)
    json.dumps(response)  # the response is JSON
    if code:
        assert response["error"]["rule"] and response["error"]["message"]
        if code == 2:
            assert response["error"]["field"] is not None
