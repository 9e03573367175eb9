"""The flat-art generator (``sim.flatart``): deterministic, legal, in the samples' format,
readable by the kit's contract (OpenCV's ArUco detector), and varied."""
import copy
import json
import os
import random
import re
from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

import engine
from engine.core import Tile
from engine.game import Game
from engine.hexgrid import CELL_NAMES, RING, parse_cell
from engine.setup import validate_layout
from sim.flatart import (HOLD_FRAMES, HUNTER_SHAPES, MAMMOTH_KINDS, TRAP_SHAPES, generate_game, generate_table,
                         write_game, write_table)
from sim.flatart import art
from sim.flatart.__main__ import main
from sim.flatart.art import card_corners
from sim.tables import read_boards
from sim.flatart.samples import plan_table
from sim.flatart.style import COLOUR_KINDS, random_style
from sim.flatart.camera import board_to_image
from vision.geometry import ARUCO_DICTIONARY, MARKER_IDS, preserves_handedness

#: The keys of a read frame's truth in the shared vision samples.
TRUTH_KEYS = {"tiles", "players", "mammoth", "hunters", "traps"}
#: The keys every sample's table.json has.
TABLE_KEYS = {"tiles", "players", "hunter_shape", "trap_shape", "tilt", "colours", "mammoth_colour",
              "tile_colours", "dark_player", "style"}
TABLE_SEEDS = (1, 2, 3)


@pytest.fixture(scope="module")
def tables():
    return {seed: generate_table(seed, reads=2) for seed in TABLE_SEEDS}


@pytest.fixture(scope="module")
def game():
    return generate_game(5, turns=3, hands=True)


def _position(truth: dict) -> engine.Position:
    """The engine's own check of a truth: it refuses rock under pieces, traps off grass,
    more than four traps a player and a hunter at rest on the mammoth's cell."""
    dead = [p for p in truth["players"] if p not in truth["hunters"]]
    return engine.position_from_json({**truth, "to_move": truth["players"][0], "eliminated": dead})


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


def test_setup_frames_show_the_empty_board_then_each_hunter_in_seat_order_on_outer_cells():
    setup, _, _ = plan_table(11)
    assert setup.boards[0] == {"mammoth": "0,0", "hunters": {}, "traps": {}}
    for k, player in enumerate(setup.game.players, start=1):
        board = setup.boards[k]
        assert list(board["hunters"]) == list(setup.game.players[:k])
        cell = parse_cell(board["hunters"][player])
        assert RING[cell] == 3 and setup.game.tiles[cell] is not Tile.ROCK


def test_a_table_folder_has_exactly_the_samples_files(tables, tmp_path):
    sample = tables[TABLE_SEEDS[0]]
    folder = write_table(sample, str(tmp_path))
    players = len(sample.table["players"])
    expected = {f"calib_{k:02d}.jpg" for k in range(players + 1)} | {"table.json"}
    expected |= {f"read_{k:03d}.{ext}" for k in range(2) for ext in ("jpg", "json")}
    assert os.path.basename(folder) == f"flat-{sample.seed}"
    assert set(os.listdir(folder)) == expected
    with open(os.path.join(folder, "read_001.json"), encoding="utf-8") as fh:
        assert set(json.load(fh)) == TRUTH_KEYS
    with open(os.path.join(folder, "table.json"), encoding="utf-8") as fh:
        assert TABLE_KEYS <= set(json.load(fh))
    image = cv2.imread(os.path.join(folder, "calib_00.jpg"))
    assert image.shape == (960, 1280, 3)


def test_a_game_folder_holds_frames_and_the_expected_actions(game, tmp_path):
    folder = write_game(game, str(tmp_path))
    names = sorted(os.listdir(os.path.join(folder, "frames")))
    assert names == [f"f{k:05d}.jpg" for k in range(len(game.frames))]
    with open(os.path.join(folder, "expected.json"), encoding="utf-8") as fh:
        expected = json.load(fh)
    assert set(expected) == {"players", "tiles", "expected", "final"}
    assert set(expected["final"]) == {"mammoth", "hunters", "traps"}
    for entry in expected["expected"]:
        if entry["type"] == "move":
            assert entry["choices"] == [] and entry["events"] == []


def test_a_game_replays_through_the_engine_to_its_final_board(game):
    """Setup boards place the hunters; the expected actions, applied by the engine,
    reach the final board."""
    expected = game.expected
    players = expected["players"]
    tiles = tuple(Tile(expected["tiles"][name]) for name in CELL_NAMES)
    replay = Game(players, 0, tiles=tiles, deal=False)
    placed = game.boards[len(players)]["hunters"]
    for player in players:
        replay.place_hunter(player, parse_cell(placed[player]))
    for entry in expected["expected"]:
        action = engine.action_from_json({k: v for k, v in entry.items() if k not in ("choices", "events")})
        outcome = replay.play(action)
        assert outcome.needs is None
    assert engine.position_to_json(replay.position)["hunters"] == expected["final"]["hunters"]
    assert engine.position_to_json(replay.position)["traps"] == expected["final"]["traps"]
    assert CELL_NAMES[replay.position.mammoth] == expected["final"]["mammoth"]


def test_every_board_of_a_game_is_held_for_eight_frames_and_hands_come_between(game):
    boards = len(game.boards)
    assert len(game.frames) > boards * HOLD_FRAMES      # hands were asked for
    still = generate_game(5, turns=3, hands=False)
    assert len(still.frames) == boards * HOLD_FRAMES
    held = [f.jpeg for f in still.frames[:HOLD_FRAMES]]
    assert len(set(held)) == HOLD_FRAMES, "each held frame has its own sensor noise"


def _detected(image: np.ndarray) -> dict[int, np.ndarray]:
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    return {} if ids is None else {int(i): q.reshape(4, 2) for q, i in zip(corners, ids.ravel())}


def test_the_kits_cards_are_found_by_opencv_where_they_were_laid(tables):
    """The kit's contract: ArUco DICT_4X4_50 ids 0-5 beside the flat sides; every card in
    the empty board's frame, at least four in every frame, each within 2.5 px of where
    the table laid it (hand-laid offsets included)."""
    for seed, sample in tables.items():
        _, style, _ = plan_table(seed)
        for k, frame in enumerate([*sample.calib, *(f for f, _ in sample.reads)]):
            found = _detected(frame.image())
            assert set(found) <= set(MARKER_IDS)
            assert len(found) >= (6 if k == 0 else 4), (seed, frame.name, sorted(found))
            for marker, quad in found.items():
                laid = cv2.perspectiveTransform(card_corners(marker, style).reshape(-1, 1, 2),
                                                sample.homography).reshape(4, 2)
                assert np.abs(quad - laid).max() < 2.5, (seed, frame.name, marker)


def test_over_fifty_seeds_every_shape_trap_mammoth_and_colour_kind_appears():
    styles = [plan_table(seed)[1] for seed in range(50)]
    assert {s.hunter_shape for s in styles} == set(HUNTER_SHAPES)
    assert {s.trap_shape for s in styles} == set(TRAP_SHAPES)
    assert {s.mammoth_kind for s in styles} == set(MAMMOTH_KINDS)
    assert {k for s in styles for k in s.colour_kinds.values()} == set(COLOUR_KINDS)
    sizes = [s.hunter_size for s in styles]
    assert min(sizes) < 0.3 and max(sizes) > 1.0, "from a pawn's head to a figure overhanging its cell"


def test_over_fifty_seeds_hunters_stand_on_own_and_others_traps_and_share_cells():
    own = other = shared = 0
    for seed in range(50):
        setup, _, rng = plan_table(seed)
        for board in read_boards(setup, rng, 4):
            cells = list(board["hunters"].values())
            shared += len(cells) != len(set(cells))
            for player, cell in board["hunters"].items():
                owner = board["traps"].get(cell)
                own += owner == player
                other += owner is not None and owner != player
    assert own and other and shared, (own, other, shared)


def test_read_boards_may_leave_one_player_off_the_board_his_traps_kept():
    """--off-board P (the shared samples leave a player off the board in 30 % of their
    frames): each board of two hunters and more loses one player's hunter at that
    chance; the traps and the other hunters are the boards drawn without it."""
    for seed in range(20):
        setup, _, rng = plan_table(seed)
        plain = read_boards(setup, copy.deepcopy(rng), 4)
        off = read_boards(setup, rng, 4, off_board=1.0)
        for before, after in zip(plain, off):
            assert after["traps"] == before["traps"] and after["mammoth"] == before["mammoth"]
            assert after["hunters"].items() <= before["hunters"].items()
            assert len(after["hunters"]) == len(before["hunters"]) - (len(before["hunters"]) >= 2)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
@example(146634, 3)   # a rock-close dark brown, then a dark one: no dark colour stayed apart
def test_colours_stay_apart_cards_within_a_hand_laid_offset_and_the_camera_never_mirrors(seed, players):
    style = random_style(np.random.default_rng(seed), players)
    colours = list(style.colours.values())
    for i in range(len(colours)):
        for j in range(i + 1, len(colours)):
            assert np.linalg.norm(np.subtract(colours[i], colours[j], dtype=float)) > 30
    for dx, dy, turn in style.cards.values():
        assert abs(dx) <= 0.1 and abs(dy) <= 0.1 and abs(turn) <= 4
    assert 0 <= style.camera.tilt_deg <= 25
    assert preserves_handedness(board_to_image(style.camera)), "the camera never mirrors the board"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_read_boards_of_any_seed_are_legal(seed):
    setup, _, _ = plan_table(seed)
    for board in read_boards(setup, random.Random(seed), 3):
        _position({"tiles": setup.tiles, "players": list(setup.game.players), **board})


def test_the_command_writes_tables_and_games_and_refuses_negative_counts(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--tables", "1", "--seed", "40", "--reads", "1",
                 "--games", "1", "--turns", "1"]) == 0
    assert sorted(os.listdir(tmp_path)) == ["flat-40", "game-40"]
    assert main(["--out", str(tmp_path), "--tables", "-1"]) == 2
    assert re.search(r"--tables must not be negative", capsys.readouterr().err)


@pytest.mark.parametrize("hunter_size,trap_size", [(1.15, 0.35), (1.15, 0.85), (0.6, 0.35), (0.2, 0.85)])
def test_a_hunter_set_down_on_a_trap_leaves_a_crescent_of_it_in_view(hunter_size, trap_size):
    """Even an overhanging figure on a small trap leaves some of the trap showing: a board
    whose trap cannot be seen at all could not be read from one frame."""
    style = replace(random_style(np.random.default_rng(0), 2), hunter_shape="disc", trap_shape="disc",
                    hunter_size=hunter_size, trap_size=trap_size, colours={"A": (250, 0, 0), "B": (0, 0, 250)})
    layer = np.zeros((art.SIZE, art.SIZE, 3), np.uint8)
    trap_area = np.pi * (trap_size * np.sqrt(3) / 2 * art.SCALE) ** 2
    for seed in range(8):
        covered = art.draw_pieces(layer, style, {"mammoth": "-3,0", "hunters": {"A": "1,0"}, "traps": {"1,0": "B"}},
                                  np.random.default_rng(seed))
        shown = np.count_nonzero((covered[..., 0] > 200) & (covered[..., 2] < 60))    # BGR: B's blue
        assert shown / trap_area > 0.12, (seed, shown / trap_area)
