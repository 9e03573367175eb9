"""The photographed-table generator (``sim.tabletop``): deterministic, legal, in the same
folder format as ``sim.flatart``, its cards in frame and found by OpenCV's ArUco detector
where they were laid, its pieces standing up in 3D, and varied."""
import json
import math
import os
import re

import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import engine
from engine.core import Tile
from engine.game import Game
from engine.hexgrid import CELL_NAMES, RING, parse_cell
from engine.setup import validate_layout
from sim import flatart
from sim.tabletop import (HOLD_FRAMES, HUNTER_SHAPES, LIGHTS, MAMMOTH_KINDS, SURFACES, TRAP_SHAPES, generate_game,
                          generate_table, write_game, write_table)
from sim.tabletop.__main__ import main
from sim.tabletop.lens import HEIGHT, MARGIN, WIDTH, Camera, card_outline, card_plane
from sim.tabletop.samples import plan_table
from sim.tabletop.style import CLOSE_TO_TILE, random_look
from sim.tables import read_boards
from vision.geometry import ARUCO_DICTIONARY, MARKER_IDS, preserves_handedness

TABLE_SEEDS = (1, 2)


@pytest.fixture(scope="module")
def tables():
    return {seed: generate_table(seed, reads=2) for seed in TABLE_SEEDS}


@pytest.fixture(scope="module")
def game():
    return generate_game(5, turns=2)


@pytest.fixture(scope="module")
def flat_folders(tmp_path_factory):
    """One table and one game of the flat-art generator, the format to match."""
    out = str(tmp_path_factory.mktemp("flat"))
    return (flatart.write_table(flatart.generate_table(3, reads=2), out),
            flatart.write_game(flatart.generate_game(3, turns=1), out))


def _position(truth: dict) -> engine.Position:
    """The engine's own check of a truth: it refuses rock under pieces, traps off grass,
    more than four traps a player and a hunter at rest on the mammoth's cell."""
    dead = [p for p in truth["players"] if p not in truth["hunters"]]
    return engine.position_from_json({**truth, "to_move": truth["players"][0], "eliminated": dead})


def _pattern(name: str) -> str:
    """A file name with its numbers blanked: ``read_001.json`` -> ``read_#.json``."""
    return re.sub(r"\d+", "#", name)


def test_a_seed_always_draws_the_same_table_and_another_seed_another(tables):
    again = generate_table(TABLE_SEEDS[0], reads=2)
    first = tables[TABLE_SEEDS[0]]
    assert [f.jpeg for f in again.calib] == [f.jpeg for f in first.calib]
    assert [(f.jpeg, t) for f, t in again.reads] == [(f.jpeg, t) for f, t in first.reads]
    assert again.table == first.table
    assert tables[TABLE_SEEDS[1]].calib[0].jpeg != first.calib[0].jpeg


def test_every_read_truth_is_a_legal_position_of_the_table(tables):
    for sample in tables.values():
        tiles = tuple(Tile(sample.table["tiles"][name]) for name in CELL_NAMES)
        assert validate_layout(tiles) == []
        for _, truth in sample.reads:
            pos = _position(truth)
            assert pos.mammoth not in pos.traps, "a mammoth on a trap would be a finished game"
            assert truth["tiles"] == sample.table["tiles"]


def test_setup_frames_show_the_empty_board_then_each_hunter_in_seat_order_on_outer_cells(tables):
    setup, _, _ = plan_table(TABLE_SEEDS[0])
    assert len(tables[TABLE_SEEDS[0]].calib) == len(setup.game.players) + 1
    assert setup.boards[0] == {"mammoth": "0,0", "hunters": {}, "traps": {}}
    for k, player in enumerate(setup.game.players, start=1):
        board = setup.boards[k]
        assert list(board["hunters"]) == list(setup.game.players[:k])
        cell = parse_cell(board["hunters"][player])
        assert RING[cell] == 3 and setup.game.tiles[cell] is not Tile.ROCK


def test_a_table_folder_holds_the_same_files_and_keys_as_a_flat_art_one(tables, flat_folders, tmp_path):
    flat_table, _ = flat_folders
    folder = write_table(tables[TABLE_SEEDS[0]], str(tmp_path))
    assert os.path.basename(folder) == f"tabletop-{TABLE_SEEDS[0]}"
    assert {_pattern(n) for n in os.listdir(folder)} == {_pattern(n) for n in os.listdir(flat_table)}
    assert sorted(n for n in os.listdir(folder) if n.startswith("read_")) == \
        sorted(n for n in os.listdir(flat_table) if n.startswith("read_"))
    for name in ("read_001.json", "table.json"):
        with open(os.path.join(folder, name), encoding="utf-8") as mine, \
                open(os.path.join(flat_table, name), encoding="utf-8") as theirs:
            keys, flat_keys = set(json.load(mine)), set(json.load(theirs))
        if name == "table.json":       # the samples' keys; each generator adds its own
            assert {"tiles", "players", "hunter_shape", "trap_shape", "tilt", "colours", "mammoth_colour",
                    "tile_colours", "dark_player", "style"} <= keys & flat_keys
        else:
            assert keys == flat_keys
    assert cv2.imread(os.path.join(folder, "calib_00.jpg")).shape == (HEIGHT, WIDTH, 3)


def test_a_game_folder_holds_the_same_files_and_keys_as_a_flat_art_one(game, flat_folders, tmp_path):
    _, flat_game = flat_folders
    folder = write_game(game, str(tmp_path))
    assert os.path.basename(folder) == "tabletop-game-5"
    assert set(os.listdir(folder)) == set(os.listdir(flat_game))
    names = sorted(os.listdir(os.path.join(folder, "frames")))
    assert names == [f"f{k:05d}.jpg" for k in range(len(game.frames))]
    with open(os.path.join(folder, "expected.json"), encoding="utf-8") as mine, \
            open(os.path.join(flat_game, "expected.json"), encoding="utf-8") as theirs:
        expected, flat_expected = json.load(mine), json.load(theirs)
    assert set(expected) == set(flat_expected)
    assert set(expected["final"]) == set(flat_expected["final"])


def test_a_game_replays_through_the_engine_to_its_final_board(game):
    expected = game.expected
    players = expected["players"]
    replay = Game(players, 0, tiles=tuple(Tile(expected["tiles"][n]) for n in CELL_NAMES), deal=False)
    placed = game.boards[len(players)]["hunters"]
    for player in players:
        replay.place_hunter(player, parse_cell(placed[player]))
    for entry in expected["expected"]:
        outcome = replay.play(engine.action_from_json({k: v for k, v in entry.items()
                                                       if k not in ("choices", "events")}))
        assert outcome.needs is None
    final = engine.position_to_json(replay.position)
    assert (final["hunters"], final["traps"]) == (expected["final"]["hunters"], expected["final"]["traps"])
    assert CELL_NAMES[replay.position.mammoth] == expected["final"]["mammoth"]


def test_every_board_of_a_game_is_held_for_eight_frames_each_with_its_own_noise(game):
    assert len(game.frames) == len(game.boards) * HOLD_FRAMES
    held = [f.jpeg for f in game.frames[:HOLD_FRAMES]]
    assert len(set(held)) == HOLD_FRAMES
    first, last = game.frames[0].image().astype(int), game.frames[HOLD_FRAMES - 1].image().astype(int)
    assert np.abs(first - last).mean() < 8, "the same board, only the sensor noise differs"


def _detected(image: np.ndarray) -> dict[int, np.ndarray]:
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    return {} if ids is None else {int(i): q.reshape(4, 2) for q, i in zip(corners, ids.ravel())}


def test_the_kits_cards_are_found_by_opencv_where_they_were_laid(tables):
    """The kit's contract: ArUco DICT_4X4_50 ids 0-5 beside the flat sides, where
    ``vision.geometry`` puts them (hand-laid offsets included). All six in the empty
    board's frame, at least four in every frame (a tall piece may stand before one),
    each within 2.5 px of where the camera sees the laid card."""
    for seed, sample in tables.items():
        _, look, _ = plan_table(seed)
        camera = Camera.from_lens(look.lens)
        for k, frame in enumerate([*sample.calib, *(f for f, _ in sample.reads)]):
            found = _detected(frame.image())
            assert set(found) <= set(MARKER_IDS)
            assert len(found) >= (6 if k == 0 else 4), (seed, frame.name, sorted(found))
            for marker, quad in found.items():
                square = card_outline(look, marker, paper=False)
                laid, _ = camera.project(np.column_stack([square, np.full(4, card_plane(look))]))
                assert np.abs(quad - laid).max() < 2.5, (seed, frame.name, marker)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_every_card_lies_wholly_in_the_frame_and_the_camera_never_mirrors(seed):
    _, look, _ = plan_table(seed)
    camera = Camera.from_lens(look.lens)
    for marker in MARKER_IDS:
        paper = card_outline(look, marker)
        px, depth = camera.project(np.column_stack([paper, np.full(4, card_plane(look))]))
        assert (depth > 0).all()
        assert (px >= MARGIN - 0.5).all() and (px <= (WIDTH - MARGIN + 0.5, HEIGHT - MARGIN + 0.5)).all()
        dx, dy, turn = look.cards[marker]
        assert math.hypot(dx, dy) <= 0.11 and abs(turn) <= 5, "a few millimetres and degrees off"
    assert 0 <= look.lens.tilt_deg <= 25
    assert preserves_handedness(camera.homography(0.0))


def test_a_standing_piece_leans_away_from_the_point_under_the_camera():
    """Seen through a lens, a piece's top lies farther than its foot from the nadir (the
    table's point right under the camera), so a tall piece overhangs outwards."""
    look = random_look(np.random.default_rng(9))
    camera = Camera.from_lens(look.lens)
    (nadir,), _ = camera.project(np.array([[camera.centre[0], camera.centre[1], 0.0]]))
    for x, y in ((4.0, 0.0), (-3.0, 3.0), (0.0, -5.0)):
        (foot, top), _ = camera.project(np.array([[x, y, 0.0], [x, y, -1.0]]))
        assert np.linalg.norm(top - nadir) > np.linalg.norm(foot - nadir) + 1


def test_the_lens_maps_the_table_as_its_homography_when_it_has_no_distortion():
    look = random_look(np.random.default_rng(4))
    camera = Camera.from_lens(look.lens)
    camera = Camera(camera.focal, camera.centre, camera.rotation, 0.0, camera.pixels_per_unit)
    points = np.array([[1.0, 2.0], [-4.0, 3.5], [6.0, -6.0]])
    px, _ = camera.project(np.column_stack([points, np.zeros(3)]))
    through = cv2.perspectiveTransform(points.reshape(-1, 1, 2), camera.homography(0.0)).reshape(-1, 2)
    assert np.allclose(px, through, atol=1e-6)
    x, y = camera.ground(0.0)
    u, v = np.round(px[0]).astype(int)
    assert abs(x[v, u] - 1.0) < 0.05 and abs(y[v, u] - 2.0) < 0.05


def test_over_sixty_seeds_every_piece_table_and_light_appears():
    looks = [plan_table(seed)[1] for seed in range(60)]
    assert {lk.pieces.hunter_shape for lk in looks} == set(HUNTER_SHAPES)
    assert {lk.pieces.trap_shape for lk in looks} == set(TRAP_SHAPES)
    assert {lk.pieces.mammoth_kind for lk in looks} == set(MAMMOTH_KINDS)
    assert {lk.surface.kind for lk in looks} == set(SURFACES)
    assert {lk.light.kind for lk in looks} == set(LIGHTS)
    sizes = [lk.pieces.hunter_size for lk in looks]
    assert min(sizes) < 0.3 and max(sizes) > 0.7 and all(0.2 <= s <= 0.8 for s in sizes)
    names = {n for lk in looks for n in lk.pieces.colour_names.values()}
    assert {"black", "dark brown", "white", "olive"} <= names
    close = sum(any(n in CLOSE_TO_TILE["grass"] for n in lk.pieces.colour_names.values()) for lk in looks)
    assert close > 10, "players whose colour is near the grass's"
    assert any(lk.light.glare > 0 and lk.tiles.gloss for lk in looks)


def test_over_thirty_seeds_hunters_stand_on_own_and_others_traps_and_share_cells():
    own = other = shared = 0
    for seed in range(30):
        setup, _, rng = plan_table(seed)
        for board in read_boards(setup, rng, 4):
            cells = list(board["hunters"].values())
            shared += len(cells) != len(set(cells))
            for player, cell in board["hunters"].items():
                owner = board["traps"].get(cell)
                own += owner == player
                other += owner is not None and owner != player
    assert own and other and shared, (own, other, shared)


def test_the_command_writes_tables_and_games_and_refuses_negative_counts(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--tables", "1", "--seed", "40", "--reads", "1",
                 "--games", "1", "--turns", "1"]) == 0
    assert sorted(os.listdir(tmp_path)) == ["tabletop-40", "tabletop-game-40"]
    assert main(["--out", str(tmp_path), "--games", "-1"]) == 2
    assert re.search(r"--games must not be negative", capsys.readouterr().err)


def test_every_piece_is_left_partly_in_view_on_every_board():
    """Pieces set down by hand may hide one another in part (a figure on a trap, two
    hunters sharing a cell, a tall piece leaning over its neighbour), never wholly: a board
    whose pieces cannot be seen could not be read."""
    from sim.tabletop.paint import visible_share
    from sim.tabletop.scene import MIN_VISIBLE, TableScene

    for seed in (18, 26):
        setup, look, rng = plan_table(seed)
        scene = TableScene(look, setup.game.tiles, seed)
        for k, board in enumerate(setup.boards[-1:] + read_boards(setup, rng, 3)):
            placed = scene.arrange(board, np.random.default_rng([seed, k]))
            wanted = ["mammoth"] + [f"hunter:{p}" for p in board["hunters"]]
            assert sorted(p.key for p, _ in placed) == sorted(wanted + [f"trap:{p}" for p in board["traps"].values()])
            for (piece, _), share in zip(placed, visible_share([marks for _, marks in placed])):
                assert share >= MIN_VISIBLE[piece.key.split(":")[0]], (seed, k, piece.key, piece.cell, share)
