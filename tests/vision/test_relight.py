"""Re-learning the light under a game in progress, on rendered frames read by the same
code as a live camera (``TrackRun``: reader, stability filter, tracker, light watch).

The scripted game is played to its middle, then daylight washes the board out (light
the print does not reflect, added to every channel): the setup's colours no longer
read the board, and the tracker stalls. A re-learn (automatic, or the referee's button)
must let it track the rest of the same game, changing nothing the game recorded.
"""
import cv2
import numpy as np
import pytest

from sim.tracker_bench import render_frames, script_game
from vision.relight import LabelBoard, RelearnError, expected_board, relearn
from vision.pipeline import TrackRun

SEED = 12
DAYLIGHT = {"ambient": (80, 70, 50)}


@pytest.fixture(scope="module")
def script():
    return script_game(SEED, n_players=2, max_turns=8)


def _middle(script):
    return len(script.steps) // 2


def _play(script, run, on_light=None):
    """Feed the rendered game; ``on_light(run, frame, t)`` may feed extra frames first
    when the light has just changed (before the board is shown under it)."""
    k = _middle(script)
    previous, previous_index, repeats = None, None, 0
    for t, frame, index in render_frames(script, SEED, hold=8, relight={k: DAYLIGHT}):
        if frame is None:
            run.press_pass(t)
            continue
        same = previous is not None and np.array_equal(previous, frame)
        if on_light is not None and index == previous_index == k - 1 and repeats >= 3 and not same:
            on_light(run, frame, t)  # the still board of step k-1, now under daylight
            on_light = None
        repeats = repeats + 1 if same else 0
        previous, previous_index = frame, index
        run.feed(t, frame)
    run.finish()
    return run


def _arm_over(frame):
    """A still forearm reaching over the board (a skin-coloured band from the edge)."""
    h, w = frame.shape[:2]
    out = frame.copy()
    cv2.line(out, (w // 2, h), (w // 2 + 40, h // 2 - 40), (120, 160, 215), 170)
    cv2.circle(out, (w // 2 + 40, h // 2 - 40), 110, (115, 150, 205), -1)
    return out


@pytest.mark.slow
def test_without_a_relearn_the_washed_out_board_stalls_the_game(script):
    """The scenario is a real failure: with the setup's colours only, the tracker stops
    following the game once the light changes."""
    run = TrackRun(script.players, required=3)
    run.light.auto = False
    _play(script, run)
    assert len(run.tracker.actions) < len(script.truth)
    assert run.light.relearnt == 0


@pytest.mark.slow
def test_the_light_is_relearnt_automatically_and_the_same_game_goes_on(script):
    """A still board showing the game's position, readable only in the wrong colours,
    is re-learnt; every turn before and after is tracked into the same game."""
    run = TrackRun(script.players, required=3)
    before = []
    run.on_relearn = lambda calibration, by: before.append((by, len(run.tracker.actions),
                                                            run.tracker.table.game.entries()[:]))
    setup = {}

    def remember(run_, frame, t):
        setup["calibration"] = run_.reader.calibration
        setup["placements"] = run_.tracker.placements
    _play(script, run, on_light=remember)
    assert run.light.relearnt == 1 and before[0][0] == "auto"
    by, turns, entries = before[0]
    assert run.tracker.table.game.entries()[:len(entries)] == entries, "the journal's entries are unchanged"
    assert 0 < turns < len(script.truth), "re-learnt mid-game"
    assert len(run.tracker.actions) == len(script.truth)
    assert run.tracker.position == script.truth[-1]
    assert run.tracker.placements == setup["placements"], "seat colours keep their identity"
    new = run.reader.calibration
    assert list(new.hunters) == list(setup["calibration"].hunters) and new.tiles == setup["calibration"].tiles
    assert any(r["type"] == "light_relearnt" for r in run.tracker.reports)


@pytest.mark.slow
def test_the_referees_relearn_waits_out_a_hand_and_recovers_the_game(script):
    """The button's re-learn is asked while an arm lies still over the board: the arm
    is never learnt (the calibration stays as it was while it is there); once the board
    is clear the referee's re-learn is done, and the same game is tracked to its end."""
    run = TrackRun(script.players, required=3)
    run.light.auto = False  # the button alone
    seen, relearnt = {}, []
    run.on_relearn = lambda calibration, by: relearnt.append(by)

    def referee_presses_with_an_arm_over(run_, frame, t):
        run_.request_relearn(t)
        calibration = run_.reader.calibration
        arm = _arm_over(frame)
        with pytest.raises(RelearnError):
            relearn(arm, calibration, expected_board(run_.tracker))
        for i in range(12):  # the arm stays still for 12 frames
            run_.feed(t + i / 30, arm)
        seen["unchanged"] = run_.reader.calibration is calibration
        seen["state"] = run_.light.last.state
    _play(script, run, on_light=referee_presses_with_an_arm_over)
    assert seen == {"unchanged": True, "state": "waiting"}
    assert relearnt == ["button"]
    assert len(run.tracker.actions) == len(script.truth)
    assert run.tracker.position == script.truth[-1]


def test_swapped_hunters_are_not_taken_for_a_change_of_light(rendered_board):
    """Two hunters whose places are swapped on the board: the re-learn refuses (it would
    give each seat the other's colour)."""
    frame, calibration, board = rendered_board
    swapped = dict(board.hunters)
    a, b = list(swapped)[:2]
    swapped[a], swapped[b] = swapped[b], swapped[a]
    with pytest.raises(RelearnError) as caught:
        relearn(frame, calibration, LabelBoard(board.mammoth, swapped, board.traps))
    assert caught.value.code in ("colours_differ", "board_differs")
    assert relearn(frame, calibration, board).hunters.keys() == calibration.hunters.keys()


@pytest.fixture(scope="module")
def rendered_board():
    from dataclasses import replace

    from tests.vision.rendered_sets import RenderedSet
    from sim.render import Scene

    rendered = RenderedSet(1212, n_hunters=3)
    cells = [c for c in range(37) if rendered.tiles[c] == "grass"][:5]
    scene = Scene(rendered.tiles, cells[0], {"c0": cells[1], "c1": cells[2], "c2": cells[3]}, {cells[4]: "c1"})
    frame, _ = rendered.render(scene, look=replace(rendered.kit.look, ambient=(70, 60, 50)))
    return frame, rendered.calibration, LabelBoard(scene.mammoth, dict(scene.hunters), dict(scene.traps))


def test_the_watch_says_when_a_lamp_clips_the_tiles_or_the_board_is_too_dark():
    """Warnings come from what the frame shows: a lamp's hotspot over the south-east
    clips the white tiles there; a dim lamp leaves the whites under 20 % of the range."""
    from dataclasses import replace

    from sim.render import Scene
    from tests.vision.rendered_sets import RenderedSet
    from vision.reader import BoardReader
    from vision.relight import LightWatch

    rendered = RenderedSet(1313, n_hunters=2)
    reader = BoardReader(rendered.calibration, lock_tiles=True)
    scene = Scene(rendered.tiles, 18, {}, {})
    base = replace(rendered.kit.look, yaw=0.0, tilt=0.0)

    def status(look):
        watch = LightWatch(required=3)
        frame, _ = rendered.render(scene, look=look)
        tracker = TrackRun(("A", "B"), calibration=rendered.calibration).tracker
        watch.feed(0.0, frame, reader.read(frame, 0.0), tracker, rendered.calibration)
        return watch.status()["warnings"]

    assert status(base) == []
    glare = status(replace(base, hotspot=(0.75, 0.75, 0.12, 3.0)))
    assert [w["kind"] for w in glare] == ["glare"] and glare[0]["where"] == "south-east"
    assert [w["kind"] for w in status(replace(base, gradient=(0.12, 0.0, 0.0)))] == ["dark"]
