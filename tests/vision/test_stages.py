"""The reader's stages, each on its own: locate, tiles, light, pieces (by their changes,
and the kit's tokens and the players' figures step by step, :mod:`vision.tokens`).

Frames come from the kept vision samples (``data/samples/``), the path-traced photo set
(``data/photo/``) and a rendered kit set; pieces' grids are built by hand so each rule of
:mod:`vision.changes` is seen alone.
"""
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.hexgrid import CENTRE, NEIGHBOURS, NUM_CELLS, cell_name, parse_cell
from vision.calibration import Calibration, learn
from vision.changes import GRID, ChangeModel, Look, covered_cells, frame_changes, read_changes, relit_empty
from vision.colour import TILE_CLASSES
from vision.geometry import CELL_CENTRES, project
from vision.observation import Observation
from vision import tokens
from vision.reader import BoardReader, figure_leans, observation_to_json
from vision.stability import unclean_reason

TABLE = Path(__file__).parent / "data" / "samples" / "flat-6900002"


@pytest.fixture(scope="module")
def table():
    calibration = learn([cv2.imread(str(f)) for f in sorted(TABLE.glob("calib_*.jpg"))])
    frame = cv2.imread(str(TABLE / "read_000.jpg"))
    truth = json.loads((TABLE / "read_000.json").read_text())
    return calibration, frame, truth


def test_a_small_piece_set_is_learnt_by_its_changes_and_survives_its_file(table, tmp_path):
    """Pawns a fifth of a tile wide are learnt from what they change, each cell's empty
    look kept: the calibration says so and reads back from its file the same."""
    calibration, _, _ = table
    assert calibration.pieces == "changes" and calibration.changes is not None
    assert all(look.body >= 10 for look in calibration.changes.hunters.values())
    path = tmp_path / "cal.json"
    calibration.save(path)
    again = Calibration.load(path)
    assert again.pieces == "changes" and set(again.changes.hunters) == set(calibration.hunters)
    assert np.abs(again.changes.empty - calibration.changes.empty).max() <= 0.006


def test_locate_finds_the_board_and_samples_every_cell(table):
    calibration, frame, _ = table
    geometry, first, inside = BoardReader(calibration).locate(frame)
    assert geometry is not None and len(geometry.markers) >= 4
    assert first["tile"].shape[0] == NUM_CELLS and inside.all()
    blank = np.zeros_like(frame)
    assert BoardReader(calibration).locate(blank)[0] is None


def test_tiles_reads_the_layout_of_a_table_it_did_not_lock(table):
    calibration, frame, truth = table
    reader = BoardReader(calibration)
    _, first, _ = reader.locate(frame)
    tiles = reader.tiles(first)
    names = {cell_name(c): ("cross" if c == CENTRE else TILE_CLASSES[k]) for c, k in enumerate(tiles.classes)}
    assert names == truth["tiles"]
    assert tiles.confidence.min() > 0.5


def test_light_follows_a_lamp_colour_and_finds_a_hand(table):
    """A warmer, dimmer light scales each cell's gain by the same per-channel factor; a
    grey block over a few cells makes those cells, and no far one, occluded."""
    calibration, frame, _ = table
    reader = BoardReader(calibration)
    geometry, first, inside = reader.locate(frame)
    before = reader.light(first, inside, reader.tiles(first))
    warm = np.clip(frame.astype(np.float32) * np.array([0.8, 0.9, 1.0]), 0, 255).astype(np.uint8)  # BGR
    _, first_warm, inside_warm = reader.locate(warm)
    after = reader.light(first_warm, inside_warm, reader.tiles(first_warm))
    ratio = np.median(after.gain / before.gain, axis=0)
    assert np.allclose(ratio, [1.0, 0.9, 0.8], atol=0.04)      # RGB
    assert not after.occluded.any()
    hand = frame.copy()
    centre = project(geometry.homography, CELL_CENTRES)[parse_cell("0,0")].astype(int)
    cv2.circle(hand, tuple(int(v) for v in centre), 60, (120, 140, 190), -1)
    _, first_hand, inside_hand = reader.locate(hand)
    covered = reader.light(first_hand, inside_hand, reader.tiles(first_hand)).occluded
    assert covered[CENTRE] and covered.sum() <= 7


# -- pieces by their changes, on grids built by hand ------------------------------------
GREEN = (0.3, 0.6, 0.3)
RED, BLUE, BLACK = (0.8, 0.15, 0.1), (0.15, 0.25, 0.8), (0.05, 0.05, 0.05)


def blob(grid, cell, colour, radius, at=(0.0, 0.0)):
    inside = np.hypot(GRID[:, 0] - at[0], GRID[:, 1] - at[1]) <= radius
    grid[cell, inside] = colour
    return int(inside.sum())


def model_and_grid():
    empty = np.full((NUM_CELLS, len(GRID), 3), GREEN, np.float32)
    grid = empty.copy()
    hunter = blob(grid.copy(), 0, RED, 0.2)
    model = ChangeModel(empty, Look((0.35, 0.25, 0.15), 200.0),
                        {"c0": Look(RED, hunter, 0.0), "c1": Look(BLUE, hunter, 0.0)}, BLACK)
    return model, grid


def read(model, grid):
    ok = np.ones(NUM_CELLS, bool)
    return read_changes(model, grid, ok, ok.copy(), ["c0", "c1"])


def test_a_piece_is_what_changed_whatever_its_size():
    """A hunter the size learnt is a hunter; the same colour over a far larger part of a
    grass cell is his trap; a hunter on another's trap is both."""
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.2, at=(0.2, -0.1))
    blob(grid, 9, BLUE, 0.55)
    blob(grid, 12, BLUE, 0.55)
    blob(grid, 12, RED, 0.2)
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    seen = read(model, grid)
    assert seen.hunters == {"c0": 12} or seen.hunters == {"c0": 5}
    assert seen.traps == {9: "c1", 12: "c1"}
    assert seen.mammoth == 20 and not seen.unknown.any()


def test_a_patch_the_classifier_is_sure_holds_no_trap_is_no_trap_and_is_asked_about():
    """What the hunters leave unexplained on a grass cell reads as a trap; where the
    learned classifier is sure that cell holds no trap (a standing piece's shade, a
    lean), it is read empty and unsure, so the referee is asked; its odds elsewhere,
    or not sure enough, change nothing."""
    from vision.changes import NO_TRAP_ODDS
    from vision.reader import UNSURE
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.2)
    blob(grid, 25, BLUE, 0.2)
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    blob(grid, 9, BLUE, 0.55)
    blob(grid, 14, BLUE, 0.55)
    ok = np.ones(NUM_CELLS, bool)
    assert read(model, grid).traps == {9: "c1", 14: "c1"}
    odds = np.full(NUM_CELLS, 0.5)
    odds[14] = NO_TRAP_ODDS / 2
    seen = read_changes(model, grid, ok, ok.copy(), ["c0", "c1"], trap_odds=odds)
    assert seen.traps == {9: "c1"}
    assert seen.confidence[14] < UNSURE <= seen.confidence[9]
    odds[14] = NO_TRAP_ODDS * 2
    assert read_changes(model, grid, ok, ok.copy(), ["c0", "c1"], trap_odds=odds).traps == {9: "c1", 14: "c1"}


def test_a_hunter_showing_a_trace_of_his_colour_is_placed_unsure_where_the_classifier_sees_a_hunter():
    """A glass bead shows its tile through it, and little of the colour learnt for it
    at setup: too little to be read as a hunter. Where the learned classifier is sure
    a hunter stands and none was read, the player read nowhere whose colour that cell
    shows is placed there, and the cell is unsure (asked about). The classifier's
    odds on a cell showing none of his colour, or short of sure, place nobody."""
    from vision.changes import HUNTER_ODDS, HUNTER_SHARE, TRACE_SHARE
    from vision.reader import UNSURE
    model, grid = model_and_grid()
    trace = blob(grid, 7, RED, 0.09)
    assert TRACE_SHARE <= trace / model.hunters["c0"].body < HUNTER_SHARE
    blob(grid, 25, BLUE, 0.2)
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    ok = np.ones(NUM_CELLS, bool)
    assert read(model, grid).hunters == {"c1": 25}
    odds = np.full(NUM_CELLS, 0.02)
    odds[[7, 11, 25]] = (HUNTER_ODDS + 1) / 2
    seen = read_changes(model, grid, ok, ok.copy(), ["c0", "c1"], hunter_odds=odds)
    assert seen.hunters == {"c1": 25, "c0": 7}
    assert seen.confidence[7] < UNSURE <= seen.confidence[25]
    assert seen.traps == {} and seen.mammoth == 20
    odds[7] = HUNTER_ODDS * 0.9
    assert read_changes(model, grid, ok, ok.copy(), ["c0", "c1"], hunter_odds=odds).hunters == {"c1": 25}


def test_a_trap_hidden_under_a_lone_hunter_is_his_own_and_asked_about_where_the_classifier_sees_one():
    """A hunter sets his trap on his own cell (FR «Tour de jeu» 2), and a piece as
    wide as the trap hides its colour. Where the learned classifier is sure of a trap
    under a lone hunter and the colours show none, his own trap is read there, unsure
    (asked about); short of sure, or off the grass, none."""
    from vision.changes import UNDER_TRAP_ODDS
    from vision.reader import UNSURE
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.2)
    blob(grid, 25, BLUE, 0.2)
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    ok = np.ones(NUM_CELLS, bool)
    assert read(model, grid).traps == {}
    odds = np.full(NUM_CELLS, 0.02)
    odds[[5, 25]] = (UNDER_TRAP_ODDS + 1) / 2
    grass = ok.copy()
    grass[25] = False
    seen = read_changes(model, grid, ok, grass, ["c0", "c1"], trap_odds=odds)
    assert seen.hunters == {"c0": 5, "c1": 25} and seen.traps == {5: "c0"}
    assert seen.confidence[5] < UNSURE <= seen.confidence[25]
    odds[5] = UNDER_TRAP_ODDS * 0.9
    assert read_changes(model, grid, ok, grass, ["c0", "c1"], trap_odds=odds).traps == {}


def test_a_hunter_read_where_the_classifier_sees_none_stands_on_his_own_trap_where_it_sees_one():
    """A small hunter on his own trap passes for the trap alone, and his colour is read
    elsewhere. Where the learned classifier sees no hunter on the cell he was read on
    but one on a cell of his own trap, he is moved there, unsure (asked about); his
    trap stays under him. Without that lead, or on a cell it sees him on, he stays."""
    from vision.changes import NO_HUNTER_ODDS, OWN_TRAP_LEAD
    from vision.reader import UNSURE
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.2)
    blob(grid, 9, RED, 0.55)
    blob(grid, 25, BLUE, 0.2)
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    ok = np.ones(NUM_CELLS, bool)
    assert read(model, grid).hunters == {"c0": 5, "c1": 25}
    odds = np.full(NUM_CELLS, 0.02)
    odds[25] = 0.9
    odds[5] = NO_HUNTER_ODDS / 2
    odds[9] = odds[5] + OWN_TRAP_LEAD * 1.5
    seen = read_changes(model, grid, ok, ok.copy(), ["c0", "c1"], hunter_odds=odds)
    assert seen.hunters == {"c0": 9, "c1": 25} and seen.traps == {9: "c0"}
    assert max(seen.confidence[5], seen.confidence[9]) < UNSURE <= seen.confidence[25]
    odds[9] = odds[5] + OWN_TRAP_LEAD / 2
    assert read_changes(model, grid, ok, ok.copy(), ["c0", "c1"], hunter_odds=odds).hunters["c0"] == 5
    odds[[5, 9]] = (NO_HUNTER_ODDS * 2, 1.0)
    assert read_changes(model, grid, ok, ok.copy(), ["c0", "c1"], hunter_odds=odds).hunters["c0"] == 5


def test_a_lone_hunter_is_read_where_he_stands_and_nothing_else():
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.2, at=(0.2, -0.1))
    blob(grid, 20, (0.35, 0.25, 0.15), 0.55)
    seen = read(model, grid)
    assert seen.hunters == {"c0": 5} and seen.traps == {} and seen.mammoth == 20
    assert seen.confidence.min() > 0.5


def test_a_trap_of_a_hunters_size_is_no_hunter_when_its_print_has_no_owner():
    """A printed token of the red player's colour, about his hunter's size, with a grey
    print around it, and the red hunter standing on the blue player's trap elsewhere:
    the hunter is where his remainder has an owner (the blue trap), the token is his trap."""
    model, grid = model_and_grid()
    blob(grid, 9, (0.55, 0.55, 0.55), 0.5)          # the token's grey print...
    blob(grid, 9, RED, 0.2)                          # ...round a red middle his size
    blob(grid, 12, BLUE, 0.55)
    blob(grid, 12, RED, 0.2)
    seen = read(model, grid)
    assert seen.hunters == {"c0": 12}
    assert seen.traps == {9: "c0", 12: "c1"}


def test_a_hunter_on_a_trap_of_exactly_his_colour_is_told_by_his_dark_part_or_left_unsure():
    """A hunter with an outline standing on his own plate is read there (the outline is
    his); a plain one, of exactly the plate's colour, cannot be seen: the plates of his
    colour are unsure rather than guessed."""
    model, grid = model_and_grid()
    hunter = model.hunters["c0"]
    outlined = replace(hunter, dark=float(blob(grid.copy(), 0, BLACK, 0.28) - hunter.body), dark_colour=BLACK)
    blob(grid, 9, RED, 0.6)
    blob(grid, 12, RED, 0.6)
    blob(grid, 12, BLACK, 0.28)
    blob(grid, 12, RED, 0.2)
    model.hunters["c0"] = outlined
    seen = read(model, grid)
    assert seen.hunters == {"c0": 12} and seen.traps == {9: "c0", 12: "c0"}
    plain = grid.copy()
    plain[12] = model.empty[12]
    blob(plain, 12, RED, 0.6)
    model.hunters["c0"] = hunter
    seen = read(model, plain)
    assert "c0" not in seen.hunters and seen.confidence[[9, 12]].max() < 0.1


def test_a_change_of_no_learnt_colour_makes_its_cell_unreadable():
    model, grid = model_and_grid()
    blob(grid, 7, (0.97, 0.97, 0.95), 0.45)      # a die
    assert read(model, grid).unknown[7]


def test_the_light_now_is_divided_out_cell_by_cell():
    """Cells twice as dark as at setup (a shadow over a part of the board) show no change."""
    model, grid = model_and_grid()
    shade = [3] + [n for n in NEIGHBOURS[3] if n is not None]
    grid[shade] *= 0.5
    assert np.allclose(relit_empty(model.empty, grid)[3], grid[3], atol=1e-3)
    assert not read(model, grid).unknown.any()


def test_a_token_as_wide_as_its_tile_is_no_change_of_light():
    """A flat piece covering a whole cell, its tile ring included (a mammoth token as
    wide as its tile), would pass its colour for the cell's light: the light there is
    its neighbours', so the token is seen (here as the mammoth)."""
    model, grid = model_and_grid()
    grid[20] = (0.35, 0.25, 0.15)
    seen = read(model, grid)
    assert seen.mammoth == 20 and not seen.unknown.any()


def test_a_ring_unlike_its_tile_is_a_hand_only_where_it_shows_no_learnt_piece():
    """Of the cells whose tile ring looks unlike its tile class, a cell where a hunter
    overhangs the ring is read, one where a thing of no learnt colour lies is covered, a
    cell off the frame is covered whatever it shows, and a mammoth token as wide as its
    tile is the mammoth, not a hand."""
    model, grid = model_and_grid()
    blob(grid, 5, RED, 0.95)                        # a hunter over his tile's ring
    blob(grid, 7, (0.97, 0.97, 0.95), 0.95)         # a hand, say
    grid[20] = (0.35, 0.25, 0.15)                   # the mammoth token, tile wide
    foreign = np.zeros(NUM_CELLS, bool)
    foreign[[5, 7, 20]] = True
    inside = np.ones(NUM_CELLS, bool)
    inside[30] = False
    measured = frame_changes(model, grid, ["c0", "c1"])
    covered = covered_cells(model, measured, foreign, inside)
    assert set(np.flatnonzero(covered)) == {7, 30}
    seen = read_changes(model, grid, ~covered, ~covered, ["c0", "c1"], measured=measured)
    assert seen.mammoth == 20 and seen.hunters == {"c0": 5}


def test_unsure_cells_hold_the_board_back_and_are_reported_only_when_there_are_some():
    base = Observation(0.0, True, False, None, None, 18, {}, {}, (1.0,) * NUM_CELLS)
    assert unclean_reason(base, 0.0) is None and "unsure_cells" not in observation_to_json(base)
    unsure = Observation(0.0, True, False, None, None, 18, {}, {}, (1.0,) * NUM_CELLS, unsure_cells=(4,))
    assert unclean_reason(unsure, 0.0) == "a cell is read with low confidence"
    assert observation_to_json(unsure)["unsure_cells"] == [cell_name(4)]


# -- the kit's tokens and the players' figures, step by step (vision.tokens) -----------
SAMPLES = Path(__file__).parent / "data" / "samples"
PHOTO = Path(__file__).parent / "data" / "photo"


def staged(folder: Path, frame_name: str):
    """A path-traced table's calibration, one read frame's truth (cells by index, hunters
    and traps keyed ``c0, c1, …``) and the pieces stage's inputs, as the reader builds them."""
    calibration = learn([cv2.imread(str(f)) for f in sorted(folder.glob("calib_*.jpg"))])
    frame = cv2.imread(str(folder / f"{frame_name}.jpg"))
    truth = json.loads((folder / f"{frame_name}.json").read_text())
    label = {p: f"c{i}" for i, p in enumerate(truth["players"])}
    truth = {"mammoth": parse_cell(truth["mammoth"]),
             "hunters": {label[p]: parse_cell(c) for p, c in truth["hunters"].items()},
             "traps": {parse_cell(c): label[p] for c, p in truth["traps"].items()}}
    reader = BoardReader(calibration)
    geometry, first, inside = reader.locate(frame)
    tiles = reader.tiles(first, inside)
    light = reader.light(first, inside, tiles)
    evidence = reader.tokens.evidence(frame, geometry.homography, first["probe"], tiles.lab, light.gain)
    return reader, tiles, light, evidence, truth


@pytest.fixture(scope="module")
def kit():
    """Outlined-disc hunters, printed traps and a pawn for the mammoth, path-traced."""
    return staged(SAMPLES / "photo-9100002", "read_001")


def test_the_evidence_shows_each_hunters_colour_in_his_core_and_no_players_on_bare_cells(kit):
    reader, _, light, ev, truth = kit
    assert reader.calibration.pieces == "kit"
    for label, cell in truth["hunters"].items():
        assert ev.k_core[cell] == 2 + reader.tokens.labels.index(label)
    covered = set(truth["hunters"].values()) | set(truth["traps"]) | {truth["mammoth"], CENTRE}
    bare = [c for c in range(NUM_CELLS) if c not in covered and not light.occluded[c]]
    assert len(bare) > 20 and (ev.k_core[bare] < 2).all() and (ev.trap_votes[bare, 2:] < tokens.TRAP_SHARE).all()
    assert not ev.unknown.any()


def test_outlines_are_found_round_the_kits_hunters_and_never_round_a_bare_trap(kit):
    _, _, _, ev, truth = kit
    rim_share, has_rim = tokens.outlines(ev)
    assert has_rim[list(truth["hunters"].values())].all()
    bare_traps = [c for c in truth["traps"] if c not in truth["hunters"].values()]
    assert bare_traps and not has_rim[bare_traps].any()
    assert rim_share.min() >= 0.0 and rim_share.max() <= 1.0


def test_confidence_is_nothing_on_unreadable_cells_and_high_on_bare_ones(kit):
    _, _, light, ev, truth = kit
    readable = np.ones(NUM_CELLS, bool)
    readable[[3, 7]] = False
    rim_share, _ = tokens.outlines(ev)
    confidence = tokens.token_confidence(ev, rim_share, readable)
    assert confidence[[3, 7]].max() == 0.0
    covered = set(truth["hunters"].values()) | set(truth["traps"]) | {truth["mammoth"], CENTRE, 3, 7}
    bare = [c for c in range(NUM_CELLS) if c not in covered and not light.occluded[c]]
    assert np.median(confidence[bare]) > 0.5


def test_each_kit_step_alone_reads_its_pieces(kit):
    """Hunters (core and outline), the mammoth (a pawn, learnt as covering its cell like
    the kit's token) and traps (trap rings, grass only) each come out right from the same
    evidence."""
    reader, tiles, light, ev, truth = kit
    readable = ~(light.occluded | ev.unknown)
    rim_share, has_rim = tokens.outlines(ev)
    hunters, patches = reader.tokens.kit_hunters(ev, readable, rim_share, has_rim)
    assert hunters == truth["hunters"] and patches == {}
    assert reader.tokens.kit_mammoth(ev, readable, has_rim, truth["hunters"]) == truth["mammoth"]
    traps = reader.tokens.kit_traps(ev, readable, tiles.classes, truth["mammoth"], truth["hunters"], {}, has_rim)
    assert traps == truth["traps"]
    pieces = reader.tokens.kit(ev, light.occluded, tiles.classes)
    assert (pieces.mammoth, pieces.hunters, pieces.traps) == (truth["mammoth"], truth["hunters"], truth["traps"])


def test_hunters_side_by_side_are_found_as_patches_and_the_token_under_one_as_the_mammoth(rendered_set):
    """Rendered kit: two hunters on one cell are found off the middle, each a compact
    patch of his colour inside an outline; the mammoth's token still shows round a
    hunter standing on it."""
    from sim.render import piece_cases
    s = rendered_set
    rng = np.random.default_rng(5)
    scene = piece_cases(rng, s.tiles, 4, cases=("stack", "mammoth"))
    frame, _ = s.render(scene)
    reader = BoardReader(s.calibration)
    geometry, first, inside = reader.locate(frame)
    tiles = reader.tiles(first, inside)
    light = reader.light(first, inside, tiles)
    ev = reader.tokens.evidence(frame, geometry.homography, first["probe"], tiles.lab, light.gain)
    readable = ~(light.occluded | ev.unknown)
    rim_share, has_rim = tokens.outlines(ev)
    hunters, patches = reader.tokens.kit_hunters(ev, readable, rim_share, has_rim)
    shared = {c for c in scene.hunters.values() if list(scene.hunters.values()).count(c) > 1}
    assert shared and hunters == scene.hunters
    assert patches and all(cell in shared | {scene.mammoth} for cell, _ in patches.values())
    assert reader.tokens.kit_mammoth(ev, readable, has_rim, hunters) == scene.mammoth


def test_figures_stand_on_the_cell_whose_base_disc_shows_their_colour():
    """Path-traced pawns: each stands where his base disc shows his colour, even when his
    top is seen over a neighbour (the camera's lean); with no trap down, no trap ring
    shows enough of a player's hue."""
    folder = PHOTO / "t900003"
    truth = json.loads((folder / "truth.json").read_text())
    calibration = learn([cv2.imread(str(folder / f["file"])) for f in truth["setup"]])
    assert calibration.pieces == "figures"
    shot = truth["frames"][1]
    frame = cv2.imread(str(folder / shot["file"]))
    reader = BoardReader(calibration)
    geometry, first, inside = reader.locate(frame)
    tiles = reader.tiles(first, inside)
    light = reader.light(first, inside, tiles)
    ev = reader.tokens.evidence(frame, geometry.homography, first["probe"], tiles.lab, light.gain)
    pieces = reader.tokens.figures(ev, light.occluded, figure_leans(geometry.homography, frame.shape))
    assert pieces.hunters == {k: parse_cell(c) for k, c in shot["hunters"].items()}
    assert pieces.mammoth == parse_cell(shot["mammoth"]) and pieces.traps == {}
    votes = reader.tokens.figure_trap_votes(ev)
    assert votes.shape == (NUM_CELLS, 2 + len(calibration.hunters)) and votes[:, 2:].max() < tokens.TRAP_SHARE


def test_tokens_are_judged_under_the_light_the_tiles_around_say_not_a_yellower_grass_print():
    """On the path-traced kit table a lamp-lit patch of grass reads about 40 % more red
    than its neutral neighbours (snow, rock) say the light is; the light the tokens are
    judged under keeps the grass's own green and strays from their red little more than
    half as far, and the olive printed trap there is read."""
    reader, tiles, light, _, truth = staged(SAMPLES / "photo-9100002", "read_000")
    cell = parse_cell("2,-2")
    assert TILE_CLASSES[tiles.classes[cell]] == "grass" and truth["traps"][cell] == "c0"
    neutral = [n for n in NEIGHBOURS[cell] if n is not None and TILE_CLASSES[tiles.classes[n]] != "grass"]
    around = np.median(light.gain[neutral], axis=0)
    pieces_light = reader.tokens.piece_light(light.gain, light.occluded, tiles.classes)
    assert light.gain[cell, 0] > 1.3 * around[0]
    assert abs(np.log(pieces_light[cell, 0] / around[0])) < 0.6 * abs(np.log(light.gain[cell, 0] / around[0]))
    assert abs(pieces_light[cell, 1] / light.gain[cell, 1] - 1) < 0.05          # green: the ring's own
    assert reader.read(cv2.imread(str(SAMPLES / "photo-9100002" / "read_000.jpg")), 0.0).traps.get(cell) == "c0"
