"""Render a whole scripted game as path-traced photos, hands over the board included.

``python -m sim.photo.game --out DIR --seed S --games N --turns T`` writes per game
``gNNNNNN/NNN-KIND.jpg`` and ``gNNNNNN/game.json``. The game is
:func:`sim.tracker_bench.script_game` (random legal play, deterministic per seed); the
frames are what ``maamut track`` would film of it:

* the setup, as :func:`sim.tracker_bench.render_frames` shows it: the board with the
  mammoth on the cross, then one hunter more per still frame, in seat order;
* for every board change, one or two frames with a hand over the board (reaching in
  over the old board, sometimes pinching the hunter it moves, then drawing back over
  the new one), then one still frame of the new board, held for several camera frames;
* a pass is a button press (no frame).

Pieces that did not move keep their physical spot. Only the first frame is rendered
whole: every later one is the previous still frame with the region that changed (the
cells whose pieces changed, the hand, and their shadows, projected with the camera)
path-traced again at the same sampling seed and pasted on it.

``game.json`` holds the script (players, tiles, placements, positions after each
action and the actions in the engine's JSON, winner), so the bench rebuilds it without
Blender or the engine's random play, and the frames: ``file``, ``step`` (index in the
script's steps), ``kind`` (``setup``, ``hand``, ``still``, ``pass``) and ``hold`` (how
many camera frames show it). Needs ``bpy`` (``pip install -e .[photo]``).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import time

import cv2
import numpy as np

import engine
from engine.hexgrid import NUM_CELLS, cell_name

#: Camera frames a still board is held for (``maamut track`` wants 5 alike to commit).
STILL_HOLD = 8
#: Pixels around a changed region, so the denoiser's edge falls on unchanged pixels.
REGION_MARGIN = 24
#: Height (board units above the tiles) that a piece's changed region reaches (a 3.5 cm figure and its spear).
PIECE_HEIGHT = 1.8


def script_to_json(script) -> dict:
    """The parts of a :class:`sim.tracker_bench.GameScript` that ``compare`` needs.

    >>> from sim.tracker_bench import script_game
    >>> data = script_to_json(script_game(3, n_players=2, max_turns=4))
    >>> sorted(data)
    ['actions', 'labels', 'placements', 'players', 'tiles', 'truth', 'winner']
    """
    return {
        "players": list(script.players),
        "tiles": [tile.value for tile in script.tiles],
        "labels": dict(script.labels),
        "placements": [[player, cell_name(cell)] for player, cell in script.placements],
        "truth": [engine.position_to_json(pos) for pos in script.truth],
        "actions": [{"action": engine.action_to_json(action), "choices": engine.choices_to_json(choices)}
                    for action, choices in script.actions],
        "winner": script.winner,
    }


def script_from_json(data: dict):
    """The script back from :func:`script_to_json` (its table steps are not kept).

    >>> from sim.tracker_bench import script_game
    >>> script = script_game(3, n_players=2, max_turns=4)
    >>> back = script_from_json(script_to_json(script))
    >>> back.truth == script.truth and back.placements == script.placements and back.tiles == script.tiles
    True
    """
    from engine.hexgrid import parse_cell
    from sim.tracker_bench import GameScript
    return GameScript(
        players=tuple(data["players"]),
        tiles=tuple(engine.Tile(t) for t in data["tiles"]),
        labels=dict(data["labels"]),
        placements=[(player, parse_cell(cell)) for player, cell in data["placements"]],
        truth=[engine.position_from_json(pos) for pos in data["truth"]],
        actions=[(engine.action_from_json(a["action"]), engine.choices_from_json(a["choices"]))
                 for a in data["actions"]],
        winner=data["winner"],
    )


class PhysicalBoard:
    """Where each piece physically stands: a piece that stays on its cell stays put."""

    def __init__(self, rng: np.random.Generator, jitter: float = 0.08):
        self.rng = rng
        self.jitter = jitter
        self.pieces: dict = {}   # ("mammoth",) / ("hunter", label) / ("trap", cell) -> Placement

    def _spot(self, cell: int) -> tuple:
        from vision.geometry import CELL_CENTRES
        x, y = CELL_CENTRES[cell] + self.rng.uniform(-self.jitter, self.jitter, 2)
        return float(x), float(y)

    def _make_room(self, cell: int) -> None:
        """Stand the hunters sharing ``cell`` apart, as people put them (pieces do not
        overlap): around the cell's centre, or beside the mammoth if it is there."""
        from dataclasses import replace
        from vision.geometry import CELL_CENTRES
        hunters = [key for key, p in self.pieces.items() if p.kind == "hunter" and p.cell == cell]
        mammoth = self.pieces.get(("mammoth",))
        if mammoth is not None and mammoth.cell == cell:
            side = np.array([-math.sin(mammoth.angle), math.cos(mammoth.angle)])
            spots = [np.array([mammoth.x, mammoth.y]) + side * 0.62 * (1 if k % 2 == 0 else -1) * (1 + k // 2 * 0.2)
                     for k in range(len(hunters))]
        elif len(hunters) > 1:
            a = self.rng.uniform(0, 2 * math.pi)
            r = 0.42 if len(hunters) == 2 else 0.5
            spots = [CELL_CENTRES[cell] + r * np.array([math.cos(a + 2 * math.pi * k / len(hunters)),
                                                        math.sin(a + 2 * math.pi * k / len(hunters))])
                     for k in range(len(hunters))]
        else:
            return
        for key, (x, y) in zip(hunters, spots):
            self.pieces[key] = replace(self.pieces[key], x=float(x), y=float(y))

    def update(self, board) -> set:
        """Move to ``board`` (a :class:`sim.tracker_bench.Snapshot`); returns the cells
        where something changed (left or arrived)."""
        from .blender import Placement
        wanted = {("mammoth",): board.mammoth} if board.mammoth is not None else {}
        wanted.update({("hunter", label): cell for label, cell in board.hunters})
        wanted.update({("trap", cell): cell for cell, _ in board.traps})
        owners = {("trap", cell): label for cell, label in board.traps}
        changed = set()
        for key in list(self.pieces):
            if wanted.get(key) != self.pieces[key].cell or owners.get(key, self.pieces[key].owner) != self.pieces[key].owner:
                changed.add(self.pieces.pop(key).cell)
        for key, cell in wanted.items():
            if key in self.pieces:
                continue
            x, y = self._spot(cell)
            kind = key[0]
            owner = key[1] if kind == "hunter" else owners.get(key)
            self.pieces[key] = Placement(kind, cell, x, y, float(self.rng.uniform(0, 2 * math.pi)), owner)
            changed.add(cell)
        for cell in sorted(changed):
            self._make_room(cell)
        return changed

    def placements(self, without: str | None = None) -> list:
        return [p for key, p in self.pieces.items() if key != ("hunter", without)]


def _box(points: np.ndarray, margin: int = REGION_MARGIN) -> tuple:
    from .blender import IMAGE_SIZE
    w, h = IMAGE_SIZE
    x0, y0 = np.floor(points.min(axis=0)) - margin
    x1, y1 = np.ceil(points.max(axis=0)) + margin
    return (int(np.clip(x0, 0, w)), int(np.clip(y0, 0, h)), int(np.clip(x1, 0, w)), int(np.clip(y1, 0, h)))


def _union(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def cell_points(cells) -> np.ndarray:
    """Corners of the cells' hexagons at the tiles and at a standing piece's height."""
    from vision.geometry import CELL_CENTRES
    from .blender import BOARD_HEIGHT, TILE_HEIGHT
    top = BOARD_HEIGHT + TILE_HEIGHT
    corners = [(math.cos(math.radians(60 * k + 30)), math.sin(math.radians(60 * k + 30))) for k in range(6)]
    return np.array([(CELL_CENTRES[c][0] + 1.1 * cx, CELL_CENTRES[c][1] + 1.1 * cy, z)
                     for c in cells for cx, cy in corners for z in (top, top + PIECE_HEIGHT)])


def hand_points(hand) -> np.ndarray:
    """Points around every part of the hand (its radius in every direction)."""
    from .blender import hand_segments
    out = []
    for _, start, end, radius in hand_segments(hand):
        for t in np.linspace(0, 1, 6):
            c = start + (end - start) * t
            for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
                out.append(c + np.array([dx, dy, dz]) * radius * 1.2)
    return np.array(out)


class GameCamera:
    """The game's table in Blender and the last still frame, to paste changes on."""

    def __init__(self, table, out: str):
        self.table = table
        self.out = out
        self.canvas: np.ndarray | None = None   # the last still frame, never re-compressed
        self.timings: list = []
        self.pixels: list = []

    def region(self, cells, hand=None):
        box = None
        if cells:
            box = _box(self.table.project(self.table.shadow_points(cell_points(sorted(cells)))))
        if hand is not None:
            box = _union(box, _box(self.table.project(self.table.shadow_points(hand_points(hand)))))
        return box

    def shoot(self, name: str, placements, cells, hand=None, still: bool = True, quality: int = 88) -> None:
        """Render the frame (whole the first time, else the changed region) and save it."""
        from .blender import IMAGE_SIZE
        table = self.table
        table.clear_pieces()
        table.add_pieces(placements)
        if hand is not None:
            table.add_hand(hand)
        start = time.perf_counter()
        if self.canvas is None:
            path = os.path.join(self.out, ".full.png")
            table.scene.render.image_settings.file_format = "PNG"
            table.render(path)
            table.scene.render.image_settings.file_format = "JPEG"
            image = cv2.imread(path, cv2.IMREAD_COLOR)
            os.remove(path)
            self.pixels.append(IMAGE_SIZE[0] * IMAGE_SIZE[1])
        else:
            image = self.canvas.copy()
            box = self.region(cells, hand)
            if box is not None and box[2] > box[0] and box[3] > box[1]:
                path = os.path.join(self.out, ".region.png")
                x0, y0, x1, y1 = box
                image[y0:y1, x0:x1] = table.render_region(path, box)
                os.remove(path)
                self.pixels.append((x1 - x0) * (y1 - y0))
            else:
                self.pixels.append(0)
        self.timings.append(time.perf_counter() - start)
        if still:
            self.canvas = image
        cv2.imwrite(os.path.join(self.out, name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])


def render_game(seed: int, out: str, max_turns: int = 8, n_players: int | None = None, samples: int = 10,
                threads: int = 2, hold: int = STILL_HOLD) -> dict:
    """Render the game of ``seed`` into ``out``; returns the manifest written to ``game.json``."""
    from sim.tracker_bench import script_game
    from .blender import BlenderScene, random_photo_hand, random_photo_look

    script = script_game(seed, n_players=n_players, max_turns=max_turns)
    rng = np.random.default_rng(seed)
    look = random_photo_look(rng)
    look.seed = seed
    os.makedirs(out, exist_ok=True)
    camera = GameCamera(BlenderScene(look, tuple(t.value for t in script.tiles), samples=samples, threads=threads), out)
    board = PhysicalBoard(rng)
    frames = []
    n_setup = 1 + len(script.players)
    previous = None
    for index, step in enumerate(script.steps):
        if step.kind == "pass":
            frames.append({"file": None, "step": index, "kind": "pass", "hold": 0})
            continue
        old_placements = board.placements()
        changed = board.update(step.board)
        movers = [label for label, cell in step.board.hunters
                  if previous is None or dict(previous.hunters).get(label) != cell]
        if step.hand:
            target = sorted(changed)[int(rng.integers(len(changed)))] if changed else int(rng.integers(NUM_CELLS))
            n_hands = 1 if index < n_setup else int(rng.integers(1, 3))
            for k in range(n_hands):
                reaching = k == 0 and n_hands == 2
                holding = movers[0] if reaching and movers and rng.random() < 0.5 else None
                hand = random_photo_hand(rng, target, holding=holding)
                placements = old_placements if reaching else board.placements()
                if holding is not None:
                    placements = [p for p in placements if not (p.kind == "hunter" and p.owner == holding)]
                name = f"{len(frames):03d}-hand.jpg"
                camera.shoot(name, placements, changed, hand, still=False)
                frames.append({"file": name, "step": index, "kind": "hand", "hold": int(rng.integers(1, 3)),
                               "hand": hand.to_json()})
        kind = "setup" if index < n_setup else "still"
        name = f"{len(frames):03d}-{kind}.jpg"
        camera.shoot(name, board.placements(), changed)
        frames.append({"file": name, "step": index, "kind": kind, "hold": hold,
                       "pieces": [p.__dict__ for p in board.placements()]})
        previous = step.board
    manifest = {
        "seed": seed, "max_turns": max_turns, "n_players": len(script.players), "samples": samples,
        "script": script_to_json(script), "look": look.to_json(), "frames": frames,
        "seconds_per_frame": round(float(np.mean(camera.timings)), 2),
        "seconds_first_frame": round(float(camera.timings[0]), 2),
        "pixels_rendered_per_frame": int(np.mean(camera.pixels)),
    }
    with open(os.path.join(out, "game.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=1)
    return manifest


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=2_000_000)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--turns", type=int, default=8, help="at most this many turns per game")
    p.add_argument("--players", type=int, default=None, help="players per game (default: 2-4, per seed)")
    p.add_argument("--samples", type=int, default=10)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args(argv)
    for k in range(args.games):
        seed = args.seed + k
        manifest = render_game(seed, os.path.join(args.out, f"g{seed:07d}"), args.turns, args.players,
                               samples=args.samples, threads=args.threads)
        shown = sum(f["kind"] != "pass" for f in manifest["frames"])
        print(f"game {seed}: {shown} frames, {manifest['seconds_per_frame']} s/frame "
              f"(first {manifest['seconds_first_frame']} s), {manifest['pixels_rendered_per_frame']} px/frame",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
