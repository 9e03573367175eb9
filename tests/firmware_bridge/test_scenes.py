"""LED scenes computed from real engine outcomes, checked LED by LED.

Each scene is played on the simulated backend and rendered with the firmware's own
animation arithmetic (``firmware_bridge.render``), so the colours checked here are the
colours the strip shows.
"""

import pytest

import engine
from engine.hexgrid import NUM_CELLS, parse_cell
from engine.notation import position_from_text
from firmware_bridge.backends import SimulatedBackend
from firmware_bridge.ledmap import LedMap
from firmware_bridge.scenes import (
    DANGER, ILLEGAL, MAMMOTH_COLOUR, MAMMOTH_WINS_COLOUR, OFF, WHITE, LedScene, SceneError,
    SceneMaker, dim, spiral)

OPEN = "gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg"
RED, BLUE, YELLOW = (230, 20, 20), (20, 70, 255), (255, 190, 0)


@pytest.fixture(params=["north-west", "south-east"])
def maker(request):
    """Scenes for the default wiring and for a chain starting at the other corner."""
    return SceneMaker(LedMap.serpentine(start=request.param), palette=[RED, BLUE, YELLOW])


def played(scene: LedScene, leds: LedMap, t_ms: int):
    backend = SimulatedBackend(led_count=leds.led_count)
    scene.play(backend)
    return backend.rendered(t_ms)


def at(maker, pixels, cell):
    return pixels[maker.ledmap.index_of(cell)]


def lit(pixels):
    return {i for i, rgb in enumerate(pixels) if rgb != OFF}


def test_worked_example_flight_chases_along_the_path_and_blinks_the_destination(maker):
    """RULINGS' figure: the mammoth runs from 0,2 through 1,1 to 2,0."""
    pos = position_from_text("gggg/ggggg/gggggg/gggrggg/gggggg/ggsgg/gggg 0,2 A@-2,2;B@3,-3 - A")
    outcome = engine.apply_action(pos, engine.Move("A", "E", 2))
    flight, turn = maker.for_outcome(outcome)
    assert flight.name == "flight" and turn.name == "turn"
    assert flight.detail == {"from": "0,2", "to": "2,0", "path": ["1,1", "2,0"]}
    chase, blink = flight.animations
    assert chase.kind == "chase" and chase.leds == tuple(maker.ledmap.indices_of(["0,2", "1,1"]))
    assert blink.kind == "blink" and blink.leds == (maker.ledmap.index_of("2,0"),)
    period = chase.period_ms
    # First half of the chase: the head sits on the mammoth's old cell, then moves on.
    early, late = played(flight, maker.ledmap, period // 4), played(flight, maker.ledmap, 3 * period // 4)
    assert at(maker, early, "0,2") == MAMMOTH_COLOUR and at(maker, late, "1,1") == MAMMOTH_COLOUR
    assert at(maker, early, "2,0") == MAMMOTH_COLOUR  # blink's bright half
    assert at(maker, played(flight, maker.ledmap, 600), "2,0") == dim(MAMMOTH_COLOUR)
    path_leds = set(maker.ledmap.indices_of(["0,2", "1,1", "2,0"]))
    assert lit(early) - set(maker.ledmap.status_leds) <= path_leds
    # Afterwards B is to move: his status LED bright, A's dim, a pulse under B's hunter.
    frame = played(turn, maker.ledmap, 0)
    assert frame[maker.ledmap.status_leds[1]] == BLUE
    assert frame[maker.ledmap.status_leds[0]] == dim(RED)
    assert turn.animation_at(maker.ledmap.index_of("3,-3")).kind == "pulse"


def test_frightened_hunter_sees_his_flee_options_in_his_colour(maker):
    pos = position_from_text(f"{OPEN} 0,0 A@0,-3;B@0,2;C@-3,0 - A")
    outcome = engine.apply_action(pos, engine.Move("A", "SE", 3))
    assert outcome.needs is not None and outcome.needs.hunter == "B"
    scenes = maker.for_outcome(outcome)
    assert [s.name for s in scenes] == ["flight", "flee_options"]
    flee = scenes[-1]
    options = set(maker.ledmap.indices_of(outcome.needs.options))
    assert flee.animations[0].kind == "pulse" and set(flee.animations[0].leds) == options
    period = flee.animations[0].period_ms
    bright = played(flee, maker.ledmap, period // 2)  # top of the pulse
    assert all(bright[i] == BLUE for i in options)
    # The cell the mammoth came from is no option and stays dark; B's own cell shows the mammoth.
    assert at(maker, bright, "0,1") == OFF
    assert at(maker, bright, "0,2") == MAMMOTH_COLOUR
    assert bright[maker.ledmap.status_leds[1]] == BLUE
    # Seats 1-3 lit (B bright, A and C dim); the fourth status LED has no player.
    assert lit(bright) == options | {maker.ledmap.index_of("0,2")} | set(maker.ledmap.status_leds[:3])


def test_flee_options_from_the_json_form_match_the_engine_objects(maker):
    pos = position_from_text(f"{OPEN} 0,0 A@0,-3;B@0,2;C@-3,0 - A")
    outcome = engine.apply_action(pos, engine.Move("A", "SE", 3))
    from_json = maker.flee_options(engine.needs_to_json(outcome.needs), engine.position_to_json(outcome.position))
    assert from_json == maker.flee_options(outcome.needs, outcome.position)


def test_hunter_with_no_escape_is_eliminated_and_the_mammoth_celebrates(maker):
    pos = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggr/ggrg 0,0 A@0,-3;B@0,3;C@-3,0 - A")
    outcome = engine.apply_action(pos, engine.Move("A", "SE", 3))
    assert outcome.winner == "mammoth"
    flight, eliminated, party = maker.for_outcome(outcome)
    assert eliminated.name == "eliminated" and eliminated.detail == {"hunter": "B", "cell": "0,3"}
    ring = set(maker.ledmap.indices_of(["0,2", "1,2", "-1,3"]))  # the on-board neighbours of 0,3
    assert set(eliminated.animations[0].leds) == ring
    shown = played(eliminated, maker.ledmap, 50)
    assert at(maker, shown, "0,3") == BLUE
    assert all(shown[i] == DANGER for i in ring)
    assert shown[maker.ledmap.status_leds[1]] == OFF  # B is out: his seat goes dark
    assert party.name == "celebration" and party.detail == {"winner": "mammoth"}
    assert all(party.frame[i] == MAMMOTH_WINS_COLOUR for i in maker.ledmap.status_leds)


def test_trap_owner_wins_and_the_whole_board_spirals_in_his_colour(maker):
    pos = position_from_text(f"{OPEN} 0,0 A@0,-3;B@3,0;C@-3,0 C@0,2 A")
    outcome = engine.apply_action(pos, engine.Move("A", "SE", 3))
    assert outcome.winner == "C"
    party = maker.for_outcome(outcome)[-1]
    assert party.detail == {"winner": "C", "trap": "0,2"}
    chase, trap_blink = party.animations
    order = [c for c in spiral() if c != parse_cell("0,2")]
    assert chase.leds == tuple(maker.ledmap.indices_of(order)) and chase.colour == YELLOW
    assert trap_blink.leds == (maker.ledmap.index_of("0,2"),) and trap_blink.colour == WHITE
    shown = played(party, maker.ledmap, 10)
    assert shown[maker.ledmap.index_of("0,0")] == YELLOW  # the chase starts at the centre
    assert at(maker, shown, "0,2") == WHITE
    assert all(shown[i] == YELLOW for i in maker.ledmap.status_leds)


def test_mammoth_facing_the_hunter_blinks_danger_round_its_cell(maker):
    # Rocks at 1,-2 and -1,-1, the board edge elsewhere, the arrival side never: no way out.
    pos = position_from_text("gggg/ggrgg/grgggg/ggggggg/gggggg/ggggg/gggg 0,-2 A@0,0;B@3,0 - A")
    outcome = engine.apply_action(pos, engine.Move("A", "NW", 2))
    kinds = [e["type"] for e in outcome.events]
    assert "mammoth_faced" in kinds and "hunter_eliminated" in kinds
    faced = maker.for_outcome(outcome)[0]
    assert faced.name == "faced" and faced.detail["cell"] == "0,-2"
    assert faced.frame[maker.ledmap.index_of("0,-2")] == MAMMOTH_COLOUR
    assert faced.animations[0].colour == DANGER


def test_illegal_change_blinks_the_cells_involved_in_magenta(maker):
    scene = maker.illegal_change(["1,1", "-2,0"])
    cells = set(maker.ledmap.indices_of(["1,1", "-2,0"]))
    on, off = played(scene, maker.ledmap, 10), played(scene, maker.ledmap, 300)
    assert {i for i in lit(on) if i not in maker.ledmap.status_leds} == cells
    assert all(on[i] == ILLEGAL for i in cells) and all(off[i] == OFF for i in cells)
    assert all(on[i] == ILLEGAL for i in maker.ledmap.status_leds)


def test_turn_with_more_players_than_status_leds_shows_the_mover_on_all_of_them():
    maker = SceneMaker(LedMap.serpentine(status_leds=2), palette=[RED, BLUE, YELLOW])
    pos = position_from_text(f"{OPEN} 0,0 A@0,-3;B@3,0;C@-3,0 - C")
    frame = maker.turn(pos).frame
    assert [frame[i] for i in maker.ledmap.status_leds] == [YELLOW, YELLOW]


def test_configured_player_colours_win_over_the_seat_palette():
    maker = SceneMaker.from_config({"game": {"players": [{"id": "A"}, {"id": "B", "colour": "#00ff00"}]}})
    pos = position_from_text(f"{OPEN} 0,0 A@0,-3;B@3,0 - B")
    assert maker.turn(pos).frame[38] == (0, 255, 0)


def test_attract_loop_animates_every_hex_and_fits_the_strip():
    maker = SceneMaker()
    scene = maker.attract()
    animated = {i for a in scene.animations for i in a.leds}
    assert animated == set(range(NUM_CELLS))
    backend = SimulatedBackend(led_count=maker.ledmap.led_count)
    scene.play(backend)
    assert len(backend.state()["animations"]) == 3
    assert any(rgb != OFF for rgb in backend.rendered(500))


def test_every_scene_fits_the_firmware_limits():
    """LED indices exist and periods fit the protocol's 16-bit field."""
    maker = SceneMaker(LedMap.serpentine(status_leds=0))
    pos = position_from_text(f"{OPEN} 0,0 A@0,-3;B@3,0 - A")
    scenes = [maker.turn(pos), maker.attract(), maker.celebration("A", pos, "0,0"),
              maker.illegal_change("0,0")]
    for scene in scenes:
        assert len(scene.frame) == maker.ledmap.led_count == NUM_CELLS
        for anim in scene.animations:
            assert 0 < anim.period_ms <= 0xFFFF
            assert all(0 <= i < maker.ledmap.led_count for i in anim.leds)


@pytest.mark.parametrize("call, message", [
    (lambda m: m.flight({"type": "mammoth_fled", "from": "0,0"}), "lacks to, path"),
    (lambda m: m.flight({"type": "hunter_moved"}), "expected a mammoth_fled"),
    (lambda m: m.flight({"type": "mammoth_fled", "from": "0,0", "to": "0,2", "path": ["0,1"]}), "must end"),
    (lambda m: m.eliminated({"type": "hunter_eliminated", "hunter": "B", "cell": "7,7"}), "off the board"),
    (lambda m: m.flee_options({"hunter": "B", "cell": "0,0"}), "lacks options"),
    (lambda m: m.flee_options(42), "not a flee request"),
    (lambda m: m.illegal_change(["zero"]), "not of the form"),
    (lambda m: m.for_events("mammoth_fled"), "list of event objects"),
    (lambda m: m.for_events([3]), "must be an object"),
    (lambda m: m.turn({"tiles": "nonsense"}), "bad position"),
    (lambda m: m.celebration(""), "winner's name"),
])
def test_bad_input_gives_a_clear_scene_error(call, message):
    with pytest.raises(SceneError, match=message):
        call(SceneMaker())


def test_unknown_events_are_skipped_and_the_turn_is_shown():
    pos = position_from_text(f"{OPEN} 0,0 A@0,-3;B@3,0 - B")
    scenes = SceneMaker().for_events([{"type": "passed", "hunter": "A", "card": 2}, {"type": "future_event"}], pos)
    assert [s.name for s in scenes] == ["turn"]


def test_setup_shows_where_the_placing_player_may_put_his_hunter():
    from engine.game import Game

    maker = SceneMaker()
    game = Game.new(["A", "B", "C"], seed=7)
    game.place_hunter("A", game.start_cells()[0])
    player, cells = game.next_to_place(), game.start_cells()
    assert player == "B" and len(cells) > 0
    scene = maker.placement(player, cells, game.position)
    anim = scene.animations[0]
    assert anim.kind == "pulse" and anim.colour == maker.colour_of("B", game.position)
    assert set(anim.leds) == set(maker.ledmap.indices_of(cells))
    assert maker.ledmap.index_of(game.position.hunters["A"]) not in anim.leds   # taken
    assert scene.frame[maker.ledmap.status_leds[1]] == maker.colour_of("B", game.position)


def test_for_game_follows_a_real_game_from_setup_to_play_and_shows_illegal_marks():
    from engine.game import Game

    maker = SceneMaker()
    game = Game.new(["A", "B"], seed=3)
    assert [s.name for s in maker.for_game(game)] == ["placement"]
    for player in ("A", "B"):
        game.place_hunter(player, game.start_cells()[0])
    assert game.phase == "play"
    scenes = maker.for_game(game)
    assert [s.name for s in scenes] == ["turn"] and scenes[0].detail["player"] == game.position.to_move
    marks = [{"cell": "0,0", "reason": "the mammoth moved by itself"}]
    illegal = maker.for_game(game, illegal=marks)
    assert [s.name for s in illegal] == ["illegal_change"] and illegal[0].detail["cells"] == ["0,0"]
