"""``maamut render | calibrate | read`` and ``maamut bench vision`` (plus ``track``).

Exit codes: 0 done; 1 the board was not found in the image (the JSON still says so);
2 bad input (missing file, not an image, bad calibration), with the reason on stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import sys


def _fail(message: str) -> int:
    print(f"maamut: {message}", file=sys.stderr)
    return 2


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def register(subparsers) -> None:
    p = subparsers.add_parser("render", help="draw synthetic camera frames with ground truth")
    p.add_argument("--seed", type=int, default=0, help="scene seed (palette, layout, camera, positions)")
    p.add_argument("--out", required=True, help="folder to write PNG frames and truth.json into")
    p.add_argument("--frames", type=_positive, default=1, help="random positions to draw after the setup frames")
    p.add_argument("--hunters", type=int, choices=range(1, 5), default=4, help="hunters placed at setup")
    p.add_argument("--hands", type=float, default=0.0, help="share of position frames with a hand over the board")
    p.add_argument("--mirror", action="store_true", help="mirror the frames, as some webcams do")
    p.add_argument("--max-tilt", type=float, default=25.0, help="largest camera tilt, degrees")
    p.set_defaults(handler=run_render)

    p = subparsers.add_parser("calibrate", help="learn a set's colours and layout from setup frames")
    p.add_argument("frames", nargs="+", help="empty board with the mammoth on the cross, then one frame per hunter placed")
    p.add_argument("--out", required=True, help="calibration JSON file to write")
    p.set_defaults(handler=run_calibrate)

    p = subparsers.add_parser("read", help="read the position shown in one camera image")
    p.add_argument("image")
    p.add_argument("--calibration", required=True, help="file written by 'maamut calibrate'")
    p.add_argument("--json", action="store_true", help="print JSON (cells as \"q,r\", confidence per cell)")
    p.add_argument("--lock-tiles", action="store_true", help="report the calibration's tiles instead of reading them")
    p.set_defaults(handler=run_read)

    try:
        from .track_commands import register_track
    except ImportError:
        register_track = None
    if register_track is not None:
        register_track(subparsers)


def register_bench(bench_subparsers) -> None:
    p = bench_subparsers.add_parser("vision", help="read rendered scenes on unseen seeds; print accuracy and speed")
    p.add_argument("--scenes", type=_positive, default=200)
    p.add_argument("--occlusion-sequences", type=int, default=None,
                   help="hand-over-the-board sequences for false_commits (default: one per 2 scenes)")
    p.add_argument("--seed", type=int, default=1_000_000, help="first seed (tests use seeds below 100000)")
    p.add_argument("--games", type=int, default=0,
                   help="also render whole games frame by frame and track them (about a minute each)")
    p.add_argument("--game-turns", type=int, default=12, help="turns per rendered game")
    p.add_argument("--stacks", type=int, default=50,
                   help="also read this many scenes where every hunter stands on a trap of his own colour")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=run_bench)


# --- handlers -----------------------------------------------------------------------

def run_render(args) -> int:
    import cv2
    import numpy as np

    from engine.hexgrid import cell_name

    from .render import Kit, random_hand, random_layout, random_scene, render_frame, setup_scenes
    from .render_palette import random_look

    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        return _fail(f"cannot create {args.out}: {exc.strerror}")
    if not 0 <= args.hands <= 1:
        return _fail("--hands must be between 0 and 1")
    rng = np.random.default_rng(args.seed)
    kit = Kit(Kit.random(rng).palette, random_look(rng, max_tilt_deg=args.max_tilt))
    tiles = random_layout(rng)
    truth = {"seed": args.seed, "tiles": {cell_name(i): t for i, t in enumerate(tiles)},
             "palette": {"hunter_shape": kit.palette.hunter_shape, "trap_shape": kit.palette.trap_shape,
                         "mammoth_shape": kit.palette.mammoth_shape},
             "setup": [], "frames": []}
    for index, scene in enumerate(setup_scenes(tiles, rng, args.hunters)):
        name = f"setup-{index}.png"
        image, _ = render_frame(scene, kit.palette, kit.nudged(rng), rng, mirror=args.mirror)
        cv2.imwrite(os.path.join(args.out, name), image)
        truth["setup"].append({"file": name, **scene.to_json()})
    for index in range(args.frames):
        scene = random_scene(rng, tiles=tiles, n_hunters=args.hunters)
        hand = random_hand(rng) if rng.random() < args.hands else None
        image, info = render_frame(scene, kit.palette, kit.nudged(rng), rng, hand=hand, mirror=args.mirror)
        name = f"frame-{index:03d}.png"
        cv2.imwrite(os.path.join(args.out, name), image)
        truth["frames"].append({"file": name, **scene.to_json(),
                                "occluded_cells": [cell_name(c) for c in info["occluded_cells"]]})
    with open(os.path.join(args.out, "truth.json"), "w", encoding="utf-8") as fh:
        json.dump(truth, fh, indent=1)
    print(f"wrote {len(truth['setup'])} setup frames and {args.frames} position frames to {args.out}")
    return 0


def load_image(path):
    """A BGR image, or ``ValueError`` saying why not (no OpenCV warning on stderr)."""
    import cv2
    if not os.path.isfile(path):
        raise ValueError(f"cannot read image {path}: no such file")
    frame = cv2.imread(path, cv2.IMREAD_COLOR)
    if frame is None:
        raise ValueError(f"cannot read image {path}: not an image OpenCV can decode")
    return frame


def _load_images(paths):
    return [load_image(path) for path in paths]


def run_calibrate(args) -> int:
    from .calibration import CalibrationError, learn
    try:
        calibration = learn(_load_images(args.frames))
        calibration.save(args.out)
    except (ValueError, CalibrationError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror}")
    print(f"calibration written to {args.out}: {len(calibration.hunters)} hunter colours"
          f"{', mirrored camera' if calibration.mirrored else ''}")
    return 0


def run_read(args) -> int:
    from .calibration import Calibration, CalibrationError
    from .reader import BoardReader, observation_to_json
    try:
        calibration = Calibration.load(args.calibration)
    except CalibrationError as exc:
        return _fail(str(exc))
    try:
        frame = load_image(args.image)
    except ValueError as exc:
        return _fail(str(exc))
    observation = BoardReader(calibration, lock_tiles=args.lock_tiles).read(frame, timestamp=0.0)
    result = observation_to_json(observation)
    if args.json:
        print(json.dumps(result, indent=1, sort_keys=True))
    else:
        print(describe(result))
    return 0 if observation.board_found else 1


def describe(result: dict) -> str:
    """A short human summary of a reading."""
    if not result["board_found"]:
        return "board not found (are at least 2 of the 6 markers visible?)"
    lines = [f"mammoth: {result['mammoth'] or 'not seen'}"]
    lines += [f"hunter {k}: {v}" for k, v in result["hunters"].items()]
    lines += [f"trap of {o}: {c}" for c, o in result["traps"].items()]
    if result["occluded"]:
        lines.append(f"occluded: {', '.join(result['occluded_cells']) or 'markers hidden'}")
    return "\n".join(lines)


def run_bench(args) -> int:
    from .render_bench import run_vision_bench
    sequences = args.scenes // 2 if args.occlusion_sequences is None else args.occlusion_sequences
    result = run_vision_bench(args.scenes, args.seed, sequences)
    if args.stacks:
        from .render_bench import run_stack_bench
        # Their own seed range (scenes + 500 000), away from the scenes' and the tests'.
        result.update(run_stack_bench(args.stacks, args.seed + 500_000))
    if args.games:
        from .tracker_bench import run as track_games

        games = track_games(args.games, seed=args.seed, rendered=True, max_turns=args.game_turns)
        result["games_tracked_exactly"] = games["tracked_exactly_ratio"]
        result["games"] = games["games"]
        result["false_commits"] += games["false_commits"]
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
