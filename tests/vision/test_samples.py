"""Tables from renderers the team never saw, read through the documented commands.

``data/samples/`` is a copy of the shared vision samples, byte for byte: three flat
printed-art tables with small pieces (stars, pawns seen from above; traps as squares,
slashed rings, discs), two path-traced ones, and one whole flat-art game filmed by a still
camera with the kit's documented token designs (a near-black player among them, the
light drifting from one board to the next). Each table is calibrated with
``maamut calibrate calib_*.jpg --out cal.json`` and every position read with
``maamut read FRAME --calibration cal.json --json``; the game is followed with
``maamut track frames --players A,B,C,D --json``. Players A, B, C, D are ``c0..c3``.
"""
import json
from pathlib import Path

import pytest

from maamut.cli import main

SAMPLES = Path(__file__).parent / "data" / "samples"
TABLES = sorted(p for p in SAMPLES.iterdir() if (p / "read_000.json").exists())
GAME = SAMPLES / "game-6950001"


def test_the_samples_are_all_here():
    """Five tables (three flat-art, two path-traced) with four positions each, and the game."""
    assert [t.name.split("-")[0] for t in TABLES] == ["flat"] * 3 + ["photo"] * 2
    for table in TABLES:
        assert len(list(table.glob("read_*.jpg"))) == 4 and (table / "calib_00.jpg").exists()
    assert len(list((GAME / "frames").glob("*.jpg"))) == 104


@pytest.fixture(scope="module")
def calibrations(tmp_path_factory):
    out = {}
    for table in TABLES:
        cal = tmp_path_factory.mktemp(table.name) / "cal.json"
        assert main(["calibrate", *map(str, sorted(table.glob("calib_*.jpg"))), "--out", str(cal)]) == 0
        out[table.name] = cal
    return out


def expected_reading(truth: dict) -> dict:
    """The truth file in ``maamut read --json``'s terms (players by seat, ``c0`` first)."""
    label = {player: f"c{i}" for i, player in enumerate(truth["players"])}
    return {"tiles": truth["tiles"], "mammoth": truth["mammoth"],
            "hunters": {label[p]: cell for p, cell in truth["hunters"].items()},
            "traps": {cell: label[p] for cell, p in truth["traps"].items()}}


FLAT = [(t, f) for t in TABLES if t.name.startswith("flat") for f in sorted(t.glob("read_*.jpg"))]
PHOTO = [(t, f) for t in TABLES if t.name.startswith("photo") for f in sorted(t.glob("read_*.jpg"))]


def read_json(frame, calibration, capsys) -> dict:
    capsys.readouterr()
    assert main(["read", str(frame), "--calibration", str(calibration), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("table,frame", FLAT, ids=[f"{t.name}/{f.stem}" for t, f in FLAT])
def test_every_flat_art_sample_frame_is_read_fully_right(table, frame, calibrations, capsys):
    """Tiles, the mammoth, every hunter and every trap with its owner, as the truth says:
    small stars, meeples and pawns seen from above, traps as squares, slashed rings and
    discs, a hunter on his own trap and on another's, two on one cell."""
    seen = read_json(frame, calibrations[table.name], capsys)
    expected = expected_reading(json.loads(frame.with_suffix(".json").read_text()))
    assert {key: seen[key] for key in expected} == expected
    assert seen["occluded_cells"] == []


KIT = [(t, f) for t, f in PHOTO if t.name == "photo-9100002"]


@pytest.mark.parametrize("table,frame", KIT, ids=[f"{t.name}/{f.stem}" for t, f in KIT])
def test_every_path_traced_kit_sample_frame_is_read_fully_right(table, frame, calibrations, capsys):
    """The kit's outlined discs and olive printed traps on grass under a lamp, a pawn for
    the mammoth: tiles, mammoth, hunters and traps as the truth says (the traps' colour
    is judged under the light the tiles around say, not what a yellower patch of grass
    says of red and blue). A cell reported covered holds no piece: the lamp's pool on
    the board's edge (read_002) is still taken for a hand there (the light stage's, open)."""
    seen = read_json(frame, calibrations[table.name], capsys)
    truth = json.loads(frame.with_suffix(".json").read_text())
    expected = expected_reading(truth)
    assert {key: seen[key] for key in expected} == expected
    pieces = {truth["mammoth"], *truth["hunters"].values(), *truth["traps"]}
    assert not pieces & set(seen["occluded_cells"])


def test_the_path_traced_samples_read_their_tiles_and_mammoth_and_most_pieces(calibrations, capsys):
    """Standing meeples and pawns under a lamp, a pawn mammoth: every tile and the
    mammoth right in all eight frames, every piece right in all eight, and no fewer
    frames fully right with no cell reported covered than now (seven; the reader before
    this work read two, then three, four, five, six). Open: a lamp's pool taken for
    something covering a cell (photo-9100002/read_002, its pieces read right;
    docs/vision.md, *Not yet*)."""
    right = 0
    for table, frame in PHOTO:
        seen = read_json(frame, calibrations[table.name], capsys)
        expected = expected_reading(json.loads(frame.with_suffix(".json").read_text()))
        assert seen["tiles"] == expected["tiles"] and seen["mammoth"] == expected["mammoth"], frame
        assert {key: seen[key] for key in expected} == expected, frame
        right += not seen["occluded_cells"]
    assert right >= 7


DEMANDED = [(SAMPLES / "photo-9100001", SAMPLES / "photo-9100001" / f"{name}.jpg")
            for name in ("read_000", "read_001", "read_002", "read_003")]


@pytest.mark.parametrize("table,frame", DEMANDED, ids=[f"{t.name}/{f.stem}" for t, f in DEMANDED])
def test_the_standing_meeples_frames_are_read_fully_right(table, frame, calibrations, capsys):
    """photo-9100001 (meeples, disc traps, a pawn mammoth, a lamp): read_000's disc trap
    at the board's edge, under a tinted light, lies further from its player's hue than
    a family's usual band but far from every other player's (its owner found);
    read_003's magenta meeple stands on his own disc trap, his player's other disc lying
    flat beside, with no dark part learnt to tell him and put down at setup where the
    camera looks nearly straight down: his colour drawn out along the camera's lean
    there (another meeple of the set stood at setup) tells the cell. read_001's dark
    meeple stands half hidden behind a yellow one on one cell: too little of his colour
    shows there for a trap under the yellow (a lone disc trap shows 2.5 times his size,
    the yellow meeple can hide at most his own extent), so it is he, asked about
    (``vision.changes.UNDER_UNHIDDEN``). The whole frame is read right, no cell covered."""
    seen = read_json(frame, calibrations[table.name], capsys)
    expected = expected_reading(json.loads(frame.with_suffix(".json").read_text()))
    assert {key: seen[key] for key in expected} == expected
    assert seen["occluded_cells"] == []


def test_the_sample_game_is_tracked_exactly_from_its_setup(capsys):
    """The empty board, four hunters put down, then all eight turns, in order, and the
    final position; nothing reported as unrecognised or illegal."""
    capsys.readouterr()
    assert main(["track", str(GAME / "frames"), "--players", "A,B,C,D", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = json.loads((GAME / "expected.json").read_text())
    assert result["phase"] == "playing"
    # (The expected file writes each action with its choices beside its own keys.)
    assert [{**entry["action"], **({"choices": entry["choices"]} if "choices" in want else {})}
             for entry, want in zip(result["actions"], expected["expected"])] == [
        {k: v for k, v in want.items() if k != "events"} for want in expected["expected"]]
    assert len(result["actions"]) == len(expected["expected"]) == 8
    final = result["position"]
    assert {key: final[key] for key in ("mammoth", "hunters", "traps")} == expected["final"]
    assert final["tiles"] == expected["tiles"]
    assert result["reports"] == []
