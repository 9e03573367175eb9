"""The season calendar: the first eight turns as in the rules, held turns, and its invariants."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from vallee.calendar import turn_info
from vallee.variants import Variants

from .conftest import run_cli

# turn: (season, season turn, events, arrivals 4-6 / 2-3, harvest, births, sowing, tricks)
FIRST_TURNS = {
    1: ("summer", 2, False, 6, 6, False, False, False, False),
    2: ("summer", 3, False, 4, 3, True, True, False, True),
    3: ("winter", 1, True, 2, 1, False, False, False, False),
    4: ("winter", 2, True, 2, 1, False, False, False, False),
    5: ("winter", 3, True, 2, 1, False, True, True, True),
    6: ("summer", 1, True, 4, 3, False, False, False, False),
    7: ("summer", 2, True, 4, 3, False, False, False, False),
    8: ("summer", 3, True, 4, 3, True, True, False, True),
    11: ("winter", 3, True, 2, 1, False, True, True, True),
}


@pytest.mark.parametrize("turn", sorted(FIRST_TURNS))
def test_the_first_turns_follow_the_rulebook(turn):
    season, season_turn, events, big, small, harvest, births, sowing, tricks = FIRST_TURNS[turn]
    t = turn_info(turn, players=5)
    assert (t.season, t.season_turn, t.runs("events"), t.arrivals) == (season, season_turn, events, big)
    assert (t.harvest, t.runs("births"), t.runs("sowing"), t.runs("tricks")) == (harvest, births, sowing, tricks)
    assert turn_info(turn, players=3).arrivals == small
    assert all(t.runs(p) for p in ("arrivals", "animals", "tribes", "combat", "survival", "end"))


def test_first_turn_with_few_players_under_the_english_summary_variant():
    assert turn_info(1, players=2, variants=Variants(first_turn_animals_small=5)).arrivals == 5
    assert turn_info(1, players=4, variants=Variants(first_turn_animals_small=5)).arrivals == 6


def test_a_long_winter_ends_on_the_extra_turn_by_default_and_on_the_printed_turn_under_the_variant():
    assert [turn_info(t, held={4}).ends_season for t in (4, 5, 6)] == [False, False, True]
    printed = Variants(season_end_with_extra_turn="printed_turn")
    assert [turn_info(t, held={5}, variants=printed).ends_season for t in (5, 6)] == [True, False]
    assert [turn_info(t, held={5}).ends_season for t in (5, 6)] == [False, True]


def test_the_return_window_closes_with_the_first_year():
    assert [turn_info(t).return_window for t in range(1, 8)] == [True] * 5 + [False] * 2
    assert turn_info(6, held={3}).return_window


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, 40), max_size=8), st.sampled_from(["last_turn", "printed_turn"]))
def test_each_season_lasts_three_turns_plus_its_held_turns_and_ends_once(held, reading):
    """Whatever turns are held, every season ends exactly once, sowing only at winter's end,
    the harvest only at summer's end, and events from the third turn on."""
    variants = Variants(season_end_with_extra_turn=reading)
    infos = [turn_info(t, held=held, variants=variants) for t in range(1, 45)]
    seasons, current = [], None
    for info in infos:
        if current is None or info.season != current[0]:
            current = [info.season, 0, 0, 0]
            seasons.append(current)
        current[1] += 1
        current[2] += info.ends_season
        current[3] += info.held
        assert info.runs("sowing") == (info.ends_season and info.season == "winter")
        assert info.harvest == (info.ends_season and info.season == "summer")
        assert info.runs("events") == (info.turn >= 3)
    for season, length, ends, holds in seasons[1:-1]:
        assert (length, ends) == (3 + holds, 1)
    assert seasons[0][1] == 2 + seasons[0][3]


def test_calendar_command_with_flags_and_with_json():
    code, out = run_cli(["calendar", "--turn", "6", "--held", "5", "--players", "3"])
    assert code == 0 and (out["season"], out["season_turn"], out["extra_turn"], out["arrivals"]) == ("winter", 3, True, 1)
    assert [p["phase"] for p in out["phases"] if p["runs"]] == [
        "events", "arrivals", "animals", "tribes", "combat", "survival", "births", "sowing", "tricks", "end"]
    code, same = run_cli(["calendar"], json.dumps({"turn": 6, "held": [5], "players": 3}))
    assert code == 0 and same == out


@pytest.mark.parametrize("request_, field", [
    ({"turn": 0}, "turn"), ({"turn": 3, "players": 7}, "players"), ({"turn": 3, "held": [0]}, "held.0"),
    ({"turn": 3, "variants": {"herd_order": "x"}}, "variants.herd_order"), ({"turn": 3, "x": 1}, "x"), ({}, "turn"),
])
def test_calendar_malformed_requests_name_the_field(request_, field):
    code, out = run_cli(["calendar"], json.dumps(request_))
    assert code == 2 and out["error"]["field"] == field


def test_json_lines_get_one_answer_per_line_and_exit_0():
    """Through the shared request reader, as maamut resolve does."""
    import subprocess

    from .conftest import MAAMUT, ROOT
    proc = subprocess.run([str(MAAMUT), "vallee", "calendar"], input=b'{"turn": 1}\n{"turn": 0}\n{oops\n',
                          capture_output=True, cwd=str(ROOT), timeout=60)
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert proc.returncode == 0 and [a["ok"] for a in answers] == [True, False, False]
    assert answers[1]["error"]["field"] == "turn" and answers[2]["error"]["field"] == "request"
