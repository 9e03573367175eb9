"""La Vallée's current step on the LED board (simulated strip, the companion's own
director and mirror): the cells of the question asked pulse in the asked player's
colour, what just happened blinks first, a fight's cell blinks red, an undo shows the
question again, and a map that does not lie on the board's 37 cells leaves the LEDs alone."""

from __future__ import annotations

import copy
import random
import time

import pytest

from firmware_bridge.backends import SimulatedBackend
from firmware_bridge.director import LedDirector
from firmware_bridge.scenes import DANGER, MAMMOTH_COLOUR, SceneMaker, parse_colour
from firmware_bridge.vallee_leds import BOARD_CELLS, ValleeLeds, event_cells
from maamut.app import Companion
from maamut.config import Config
from vallee.autoplay import answer
from vallee.board import shipped_map_json
from vallee.core import DIRECTION_NAMES, IllegalRequest
from vallee.live import ValleeTable

PIN = "246810"
WRITE = {"X-Referee-PIN": PIN, "X-Vallee": "1"}
SETUP = {"players": ["red", "blue", "green"], "map": "sample", "seed": 3}
LEDMAP = SceneMaker().ledmap


def _wait(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def _pulsing(leds) -> dict:
    """{cell: colour} of the cells under a pulse animation."""
    return {_cell(i): tuple(a["colour"]) for a in leds.animations
            if a["kind"] == "pulse" for i in a["leds"]}


def _cell(led: int) -> str:
    from engine.hexgrid import cell_name

    return cell_name(LEDMAP.cell_at(led))


def _blinking(leds) -> dict:
    return {_cell(i): tuple(a["colour"]) for a in leds.animations if a["kind"] == "blink" for i in a["leds"]}


@pytest.fixture
def table(tmp_path):
    leds = SimulatedBackend()
    director = LedDirector(leds, SceneMaker(), hold_s=0.05)
    vallee = ValleeTable(tmp_path / "vallee.jsonl")
    ValleeLeds(director).follow(vallee)
    vallee.leds = leds
    return vallee


def test_the_companion_lights_the_cells_of_the_question_asked_on_the_page(tmp_path):
    cfg = Config(base_dir=str(tmp_path))
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    cfg.web["pin"] = PIN
    companion = Companion(cfg)
    client = companion.app.test_client()
    assert client.post("/vallee/api/new", json=SETUP, headers=WRITE).status_code == 200
    assert client.post("/vallee/api/entry", json={"entry": {"kind": "lot"}}, headers=WRITE).status_code == 200
    state = client.get("/vallee/api/state").get_json()
    ask = state["game"]["pending"]
    assert ask["step"] == "place_camp" and state["lit"]
    colour = parse_colour(state["colours"][ask["player"]])
    assert _wait(lambda: _pulsing(companion.leds) == {c: colour for c in state["lit"]}), \
        "the free cells pulse in the colour of the player who sets up camp"
    assert all(tuple(companion.leds.pixels[i]) == colour for i in LEDMAP.status_leds), "status LEDs: whose choice it is"
    # the LEDs are mirrored on the referee's page, as Mâamut's are
    assert _wait(lambda: companion.hub.state.get("leds"))
    companion.close()


def test_what_happened_blinks_first_then_the_next_question(table):
    table.start(SETUP)
    table.play({"kind": "lot"})
    cell = table.game.pending()["options"][0]
    table.play({"kind": "place_camp", "cell": cell})
    assert cell in event_cells(table.last_events)
    # the camp just set up blinks in amber at once, then the next question's cells pulse
    assert _wait(lambda: _pulsing(table.leds) and cell not in _pulsing(table.leds))
    ask = table.game.pending()
    assert set(_pulsing(table.leds)) == set(table.state()["lit"]) and ask["step"] == "place_camp"
    assert table.leds.version > 0


def test_the_happened_scene_names_the_cells_of_the_events(table):
    table.start(SETUP)
    table.play({"kind": "lot"})
    cell = table.game.pending()["options"][0]
    leds = ValleeLeds(LedDirector(SimulatedBackend(), SceneMaker(), hold_s=10))
    scene = leds.happened([{"type": "camp_founded", "cell": cell, "player": "red"}])
    assert {_cell(i) for a in scene.animations for i in a.leds} == {cell}
    assert scene.animations[0].colour == MAMMOTH_COLOUR


def test_a_fight_blinks_red_on_its_cell(table):
    table.start(SETUP)
    rng = random.Random(1)
    while not (table.game.pending() or {}).get("step") == "fight":
        assert table.game.turn < 30, "no fight in 30 turns"
        entry = answer(table.game, rng)
        try:
            table.play(entry)
        except IllegalRequest:
            assert entry["kind"] == "trick"
    cell = table.game.pending()["cell"]
    assert _wait(lambda: _blinking(table.leds).get(cell) == DANGER and not _pulsing(table.leds))


def test_an_undo_shows_the_question_again_with_nothing_blinking(table):
    table.start(SETUP)
    table.play({"kind": "lot"})
    table.play({"kind": "place_camp", "cell": table.game.pending()["options"][0]})
    table.undo()
    assert table.last_events == []
    assert _wait(lambda: set(_pulsing(table.leds)) == set(table.state()["lit"]) and not _blinking(table.leds))


def test_a_map_off_the_board_leaves_the_leds_alone(table):
    """The same valley drawn flat-top does not lie on the board's pointy-top hexes."""
    flat = copy.deepcopy(shipped_map_json("sample"))
    flat["grid"]["orientation"] = "flat"
    flat["name"] = "flat-sample"
    flat["compass"] = {k: DIRECTION_NAMES["flat"][DIRECTION_NAMES["pointy"].index(v)] for k, v in flat["compass"].items()}
    before = table.leds.version
    table.start({**SETUP, "map": flat})
    table.play({"kind": "lot"})
    table.play({"kind": "place_camp", "cell": table.game.pending()["options"][0]})
    time.sleep(0.2)
    assert table.leds.version == before


def test_every_cell_of_the_sample_valley_has_its_led():
    from vallee.board import sample_valley

    assert {f"{q},{r}" for q, r in sample_valley().cells} == BOARD_CELLS
    assert len(set(LEDMAP.indices_of(sorted(BOARD_CELLS)))) == 37
