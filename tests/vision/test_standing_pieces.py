"""Players' own pieces with height, read by their changes, on photographed tables.

Each table is drawn here by ``sim.tabletop`` from a development seed (5,000,000 on;
never the held-out 8,000,000 on), calibrated from its setup frames as ``maamut
calibrate`` does and read as ``maamut read`` does. Standing pieces seen from a tilted
camera show a lit side and a shaded side, lean away from the camera and cast shadows.
"""
from functools import lru_cache

import numpy as np
import pytest

import vision.changes
import vision.together
from engine.hexgrid import CENTRE, parse_cell
from sim.tabletop.samples import generate_table, plan_table
from sim.samples_bench import frame_right
from vision.calibration import learn, setup_score
from vision.colour import to_lab
from vision.reader import BoardReader

pytestmark = pytest.mark.slow


@lru_cache(maxsize=2)
def table(seed: int):
    sample = generate_table(seed, reads=4)
    frames = [frame.image() for frame in sample.calib]
    return sample, frames, learn(frames)


def hue(lab) -> float:
    return float(np.degrees(np.arctan2(lab[2], lab[1])))


def setup_cells(seed: int) -> dict:
    setup, _, _ = plan_table(seed)
    label = {player: f"c{i}" for i, player in enumerate(setup.game.players)}
    return {label[p]: parse_cell(cell) for p, cell in setup.boards[-1]["hunters"].items()}


def test_a_tall_figures_colour_is_learnt_from_its_lit_side():
    """Figures 2.8 tile radii tall under a camera tilted 23°: the middle of what each
    changed is mostly his shaded side (a purple figure was learnt near-black, L 8).
    Each chromatic player's learnt colour now has his own hue and is no darker than
    a third of the lightness range."""
    sample, _, calibration = table(5_000_001)
    info = sample.table
    assert info["hunter_shape"] == "figure" and info["tilt"] > 20 and calibration.pieces == "changes"
    for i, player in enumerate(info["players"]):
        if player == info["dark_player"]:
            continue
        true = to_lab(np.array([int(info["colours"][player][k:k + 2], 16) / 255 for k in (1, 3, 5)]))
        learnt = to_lab(np.clip(np.array(calibration.changes.hunters[f"c{i}"].colour), 0, 1))
        assert abs((hue(learnt) - hue(true) + 180) % 360 - 180) < 35, player
        assert learnt[0] > 20, player


def test_players_whose_middle_shows_alike_are_learnt_by_the_colour_that_tells_them():
    """Card standees under a camera tilted 21°: the middle of what the orange and the
    black player's standees changed is their dark foot, alike for both (orange was
    learnt L 15, no hue). Setup now chooses the players' bodies together, each by a
    cluster of his change that tells him from the others: orange is learnt by his own
    hue, and the black player stays black."""
    sample, _, calibration = table(5_000_006)
    info = sample.table
    assert info["hunter_shape"] == "standee" and calibration.pieces == "changes"
    looks = {player: to_lab(np.clip(np.array(calibration.changes.hunters[f"c{i}"].colour), 0, 1))
             for i, player in enumerate(info["players"])}
    orange = next(p for p, name in info["colour_names"].items() if name == "orange")
    true = to_lab(np.array([int(info["colours"][orange][k:k + 2], 16) / 255 for k in (1, 3, 5)]))
    assert abs((hue(looks[orange]) - hue(true) + 180) % 360 - 180) < 35
    assert np.hypot(*looks[orange][1:]) > 20
    assert looks[info["dark_player"]][0] < 25


def test_a_hunters_own_echo_of_another_colour_is_no_trap_under_him(colours_alone):
    """Glass beads, two players' learnt near-black: at setup the olive bead alone showed
    105 grid points of the dark-brown player's colour (its dark middle), which setup
    now keeps (the look's ``echo``). A bead read on its cell with no trap under it
    lends that much to the other colour: no trap is read under it (two phantom traps
    of the dark-brown and the olive player were read under the beads). The colours'
    rules alone: the owner model takes the two near-black players for one."""
    colours_alone()
    sample, _, calibration = table(5_000_002)
    looks = calibration.changes.hunters
    assert max(looks["c1"].echo.values()) > 50
    frame, truth = sample.reads[0]
    seen = BoardReader(calibration).read(frame.image(), 0.0)
    label = {player: f"c{i}" for i, player in enumerate(truth["players"])}
    bare = [(label[p], parse_cell(cell)) for p, cell in truth["hunters"].items() if cell not in truth["traps"]]
    # (Hunters read by their colour: a bead placed, unsure, from a trace of it where
    # the classifier sees a hunter (``seen_hunters``) explains nothing under him.)
    checked = [cell for who, cell in bare if seen.hunters.get(who) == cell and cell not in seen.unsure_cells]
    assert len(checked) >= 2
    assert not any(cell in seen.traps for cell in checked)


def test_what_the_mammoth_shows_of_a_players_colour_is_no_hunter_on_its_cell():
    """A mammoth figure and meeples: at setup the figure alone on the cross showed more
    points of one player's colour than his meeple's whole body (the mammoth's look keeps
    them, its ``echo``). With the mammoth off the cross, that player is read on his own
    cell; counting the mammoth's echo as his, he was read on the mammoth's cell (by the
    colours' rules alone: the models then place him right). Since each cell's light is
    taken from uncovered neighbours only (session 33), the echo's share no longer
    outweighs his own cell in that frame, but still does in another, where he is read
    two cells from the mammoth without it.
    (Session 12 showed this on 5,000,013, whose layout was then learnt wrong; learnt
    right, its mammoth lends another player's colour.)"""
    sample, _, calibration = table(5_000_199)
    info = sample.table
    assert info["mammoth"] == "figure" and info["hunter_shape"] == "meeple"
    frame, truth = sample.reads[1]
    lent = [k for k, points in calibration.changes.mammoth.echo.items() if points > calibration.changes.hunters[k].body]
    player = info["players"][1]
    assert "c1" in lent and truth["mammoth"] != "0,0"
    seen = BoardReader(calibration).read(frame.image(), 0.0)
    assert seen.mammoth == parse_cell(truth["mammoth"])
    assert seen.hunters["c1"] == parse_cell(truth["hunters"][player])


def test_the_mammoths_echo_keeps_a_player_read_where_he_stands_by_the_colours_alone(monkeypatch, colours_alone):
    """Another table of the kind, read by the colours' rules alone: the mammoth's echo
    counted as his, the player is read where he stands; not counted, elsewhere. (The
    table the test above uses lost this witness when the light came to be judged
    against setup's: read on one thread, as the benchmark reads, it no longer showed the
    difference. Of 200 frames of 5,000,150-199 read so, the echo set 8 players right
    and 3 wrong; on one thread, 7 and 3.)"""
    sample, _, calibration = table(5_000_185)
    player = sample.table["players"][1]
    colours_alone()
    frame, truth = sample.reads[2]
    assert BoardReader(calibration).read(frame.image(), 0.0).hunters["c1"] == parse_cell(truth["hunters"][player])
    monkeypatch.setattr(vision.changes, "ECHO_ALLOWANCE", 0.0)
    assert BoardReader(calibration).read(frame.image(), 0.0).hunters["c1"] != parse_cell(truth["hunters"][player])


def test_the_calibration_keeps_the_model_that_explains_more_of_the_setup():
    """Wooden cylinders under a 20° camera: the figures' model reads the setup back
    wrong, and the changes do too, but less so (:func:`vision.calibration.setup_score`:
    the mammoth on the cross and each hunter where he was put down count for a model,
    any piece read where none is against it): the set is read by its changes. (It was
    read by the figures' model, kept unless the changes read the setup back exactly.)"""
    _, frames, calibration = table(5_000_000)
    cells = setup_cells(5_000_000)
    chosen = setup_score(calibration, frames, cells)
    assert calibration.pieces == "changes"
    assert chosen > setup_score(learn(frames, pieces="figures"), frames, cells)


def test_a_small_grey_bead_on_glossy_grass_is_learnt_at_setup():
    """The first hunter, a grey glass bead a fifth of a tile wide, put down on a glossy
    grass tile, changes three points by the usual line (ΔE 14) but 24 by 10, and no
    other free cell more than two: setup learns him there, and every player where he
    was put down, so the set is read by its changes (its setup had failed them: "no
    newly placed hunter found", and the figures' model then read the mammoth on a wrong
    cell and two to four hunters missing or misplaced in every frame). Now each frame's mammoth is
    read where he stands and at least three of the four hunters where they stand."""
    sample, frames, calibration = table(5_000_007)
    assert sample.table["hunter_shape"] == "bead" and calibration.pieces == "changes"
    cells = setup_cells(5_000_007)
    assert calibration.setup_cells == tuple(cells[f"c{i}"] for i in range(len(cells)))
    for frame, truth in sample.reads:
        observation = BoardReader(calibration).read(frame.image(), 0.0)
        assert observation.mammoth == parse_cell(truth["mammoth"])
        seat = {player: f"c{i}" for i, player in enumerate(truth["players"])}
        assert sum(observation.hunters.get(seat[p]) == parse_cell(c) for p, c in truth["hunters"].items()) >= 3


def test_a_lamps_pool_on_a_corner_is_no_piece_on_the_empty_board():
    """A desk lamp lights a corner cell 2.1 times as brightly as the empty board's
    reflectance, its neighbours 1.2 to 1.8 times: judged against its neighbours' light,
    the corner's own strayed on the empty board itself, every point of it read changed,
    and a near-white player read there in the first setup frames; the changes lost the
    setup to the figures' model, which read none of the four frames right. Judged
    against its own light at setup, the empty board reads empty, the set is learnt by
    its changes, and at least three of its four frames are read fully right."""
    sample, frames, calibration = table(5_000_040)
    assert sample.table["light"] == "desk" and calibration.pieces == "changes"
    empty = BoardReader(calibration, lock_tiles=True).read(frames[0], 0.0)
    assert empty.mammoth == CENTRE and not empty.hunters and not empty.traps
    right = sum(frame_right(BoardReader(calibration).read(frame.image(), 0.0), truth) for frame, truth in sample.reads)
    assert right >= 3


def test_the_cross_print_is_no_mammoth_once_it_has_left():
    """A mammoth figure on a cross drawn in lines: setup learns the print's colour seen
    around the mammoth; once the mammoth has left the cross, the whole print shows and
    is never surely read as the mammoth: he is read where he stands, or not at all, or
    the cell he is read on is reported unsure (the tracker then waits). (Since session 24
    a mammoth left on the cross goes where the classifier sees an unexplained piece and
    him, `vision.together.place_mammoth`: in the third frame that is a stack of two
    hunters it takes for him, unsure; in the fourth, rightly, the cell he stands on.)"""
    sample, _, calibration = table(5_000_002)
    assert calibration.changes.print_colour is not None
    left = [(frame, truth) for frame, truth in sample.reads if truth["mammoth"] != "0,0"]
    assert left
    for frame, truth in left:
        seen = BoardReader(calibration).read(frame.image(), 0.0)
        assert seen.mammoth in (None, parse_cell(truth["mammoth"])) or seen.mammoth in seen.unsure_cells


def test_a_mammoth_token_on_a_cross_printed_in_broad_arms_is_learnt_from_the_token():
    """A small printed mammoth token on a cross drawn in broad dark-green arms that reach
    the tile's edge: at setup the cross shows more of its print than of the token, and
    the larger colour cluster was learnt as the mammoth (then read on the empty cross,
    or nowhere). The cluster that fills its disc is the token: its learnt colour is the
    token's drawing (not green), and once the token has left the cross it is read where
    it lies, not on the cross."""
    sample, _, calibration = table(5_000_019)
    assert sample.table["mammoth"] == "token" and sample.table["tile_art"]["cross"] == "plus"
    learnt = to_lab(np.clip(np.array(calibration.changes.mammoth.colour), 0, 1))
    assert learnt[1] > 0                   # red-brown, not the print's green (a* < 0)
    left = [(frame, truth) for frame, truth in sample.reads if truth["mammoth"] != "0,0"]
    assert len(left) >= 3
    for frame, truth in left:
        assert BoardReader(calibration).read(frame.image(), 0.0).mammoth == parse_cell(truth["mammoth"])


def test_a_mammoth_token_as_wide_as_its_tile_is_read_where_it_lies():
    """A printed mammoth token 0.94 of its tile's width covers the tile's ring off the
    cross: the ring, unlike its tile, passed for a hand and the cell was reported
    covered, the mammoth nowhere. A cell showing the whole mammoth where no readable
    cell shows it is the mammoth's: he is read there and the cell is not covered."""
    sample, _, calibration = table(5_000_010)
    assert sample.table["mammoth"] == "token" and sample.table["mammoth_size"] > 0.9
    left = [(frame, truth) for frame, truth in sample.reads if truth["mammoth"] != "0,0"]
    assert len(left) >= 3
    for frame, truth in left:
        seen = BoardReader(calibration).read(frame.image(), 0.0)
        assert seen.mammoth == parse_cell(truth["mammoth"]) and seen.mammoth not in seen.occluded_cells


def test_a_mammoth_token_on_a_cross_as_at_setup_is_read_there_in_every_frame():
    """A token printed in two colours on a cross with its own plate, never moved: its
    learnt colour shows as much on other cells (a trap, a rock) as on the cross, and it
    was read there in all four frames. The cross still looks as at setup, so it has not
    left: read on the cross in each."""
    sample, _, calibration = table(5_000_025)
    assert all(truth["mammoth"] == "0,0" for _, truth in sample.reads)
    for frame, _ in sample.reads:
        assert BoardReader(calibration).read(frame.image(), 0.0).mammoth == CENTRE


def test_lone_traps_the_colours_miss_are_read_where_the_classifier_sees_them(monkeypatch, colours_alone):
    """Cubes over disc traps printed a shade darker than the cubes: three lone traps of
    the dark-brown player show too little of the colour setup learnt from his cube;
    the classifier sees a trap on each (grass cells where nothing else was read), so
    they are read, unsure, as the player whose colour shows most there: his."""
    sample, _, calibration = table(5_000_150)
    frame, truth = sample.reads[2]
    seen = BoardReader(calibration).read(frame.image(), 0.0)
    label = {player: f"c{i}" for i, player in enumerate(truth["players"])}
    assert {c: k for c, k in seen.traps.items()} == {parse_cell(c): label[p] for c, p in truth["traps"].items()}
    monkeypatch.setattr(vision.changes, "lone_traps", lambda traps, conf, *args: (traps, conf))
    colours_alone()
    bare = BoardReader(calibration).read(frame.image(), 0.0)
    found = set(seen.traps) - set(bare.traps)
    assert len(found) >= 2 and found <= set(seen.unsure_cells)


def test_the_mammoth_is_read_where_the_classifier_sees_him_when_it_sees_nothing_where_his_colours_are(
        monkeypatch):
    """Cubes and a mammoth token: the colours learnt for the mammoth on the cross show on
    a cell where the classifier sees no piece at all, while it is sure of the mammoth
    elsewhere: he is read there, unsure."""
    sample, _, calibration = table(5_000_150)
    frame, truth = sample.reads[3]
    seen = BoardReader(calibration).read(frame.image(), 0.0)
    assert seen.mammoth == parse_cell(truth["mammoth"]) and seen.mammoth in seen.unsure_cells
    monkeypatch.setattr(vision.changes, "mammoth_by_odds", lambda mammoth, conf, *args: (mammoth, conf))
    monkeypatch.setattr(vision.together, "place_mammoth", lambda mammoth, *args: mammoth)
    assert BoardReader(calibration).read(frame.image(), 0.0).mammoth != seen.mammoth


def test_the_same_setup_frames_are_learnt_the_same_way_every_time():
    """A referee settling a dispute must get the same reading twice. On these setup
    frames ``learn`` gave one of two empty boards, by the heap's state: the tiles'
    edges were measured with ``cv2.magnitude``, whose IPP path varies in its last bits
    from call to call, and the tile alignment then landed differently."""
    _, frames, first = table(5_000_199)
    for _ in range(3):
        again = learn(frames)
        assert np.array_equal(again.changes.empty, first.changes.empty)
        assert again.changes.hunters.keys() == first.changes.hunters.keys()
