"""The simulation's command line: ``maamut demo``, ``maamut render`` (synthetic camera
frames with ground truth), ``maamut bench vision`` and ``maamut bench soak``.

The simulation plugs these into ``maamut`` through its entry points (``pyproject.toml``)
like any other part: product code never imports them. Declaring the arguments imports
nothing else; each handler imports what it runs.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from maamut.table_cli import add_web_options


def _fail(message: str) -> int:
    print(f"maamut: {message}", file=sys.stderr)
    return 2


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def register(subparsers) -> None:
    p = subparsers.add_parser("demo", help="self-playing demo with simulated camera, LEDs and board",
                              description="Self-playing demo: bots play, every move is filmed by a simulated "
                                          "camera and read back by the real camera path; no hardware needed.")
    add_web_options(p)
    p.add_argument("--game", choices=("maamut", "vallee"), default="maamut",
                   help="the game the bots play: maamut (default) or vallee (La Vallée des Mammouths on the "
                        "sample valley, followed live on /vallee/)")
    p.add_argument("--games", type=int, help="stop after this many games (default: run until Ctrl-C)")
    p.add_argument("--seed", type=int, help="seed of the bots and the layouts (default: a new one each start)")
    p.add_argument("--turn-seconds", type=float, default=2.0, help="pause between turns")
    p.add_argument("--attract-seconds", type=float, default=8.0, help="attract animation between games")
    p.add_argument("--no-vision", action="store_true", help="skip rendering and reading frames")
    p.add_argument("--step-seconds", type=float, default=1.5,
                   help="La Vallée: pause before each answer of the simulated players (default 1.5)")
    p.set_defaults(handler=run_demo)

    p = subparsers.add_parser("render", help="draw synthetic camera frames with ground truth",
                              description="Draw the setup frames (empty board, then each hunter placed) and "
                                          "random positions of one random set under one lamp, as PNG files, "
                                          "with truth.json saying what each frame shows. Test data: "
                                          "read them back with `maamut calibrate` and `maamut read`.")
    p.add_argument("--seed", type=int, default=0, help="scene seed (palette, layout, camera, positions)")
    p.add_argument("--out", required=True, help="folder to write PNG frames and truth.json into")
    p.add_argument("--frames", type=_positive, default=1, help="random positions to draw after the setup frames")
    p.add_argument("--hunters", type=int, choices=range(1, 5), default=4, help="hunters placed at setup")
    p.add_argument("--hands", type=float, default=0.0, help="share of position frames with a hand over the board")
    p.add_argument("--mirror", action="store_true", help="mirror the frames, as some webcams do")
    p.add_argument("--max-tilt", type=float, default=25.0, help="largest camera tilt, degrees")
    p.add_argument("--loose-cards", action="store_true",
                   help="lay the marker cards by hand: each up to ±3 mm and ±5° off its printed spot")
    p.add_argument("--hide-cards", default="", metavar="IDS",
                   help="marker cards missing from every frame, e.g. 0,1 (comma-separated ids 0-5)")
    p.set_defaults(handler=run_render)


def register_bench(bench_subparsers) -> None:
    p = bench_subparsers.add_parser("vision", help="read rendered scenes on unseen seeds; print accuracy and speed",
                                    description="Each scene is a new set, calibrated from its own setup frames, "
                                                "then read under another light: per-cell error, boards read "
                                                "right, time per frame, false commits under hands.")
    p.add_argument("--scenes", type=_positive, default=200, help="rendered scenes to read (each a new set)")
    p.add_argument("--occlusion-sequences", type=int, default=None,
                   help="hand-over-the-board sequences for false_commits (default: one per 2 scenes)")
    p.add_argument("--seed", type=int, default=1_000_000, help="first seed (tests use seeds below 100000)")
    p.add_argument("--games", type=int, default=0,
                   help="also render whole games frame by frame and track them (about a minute each)")
    p.add_argument("--game-turns", type=int, default=12, help="turns per rendered game")
    p.add_argument("--relight", type=int, default=0, metavar="N",
                   help="also track N rendered games whose light changes mid-game (re-learn figures)")
    p.add_argument("--stacks", type=int, default=50,
                   help="also read this many scenes where every hunter stands on a trap of his own colour")
    p.add_argument("--loose-cards", type=int, default=50, metavar="N",
                   help="also read N sets whose marker cards were laid by hand (±3 mm, ±5° off their spot)")
    p.add_argument("--pieces", type=int, default=50,
                   help="also read this many scenes with hunters side by side, on the mammoth and on traps, "
                        "near-black players and x-shaped cross prints (and half as many with printed traps "
                        "learnt at setup, one per player)")
    p.add_argument("--photo", nargs="?", const="", default=None, metavar="DIR",
                   help="read path-traced photo tables instead (default: the set kept in "
                        "tests/vision/data/photo; see sim/photo/generate.py to render more)")
    p.add_argument("--photo-games", default=None, metavar="DIR",
                   help="track path-traced games instead, like maamut track (folders with game.json in DIR, "
                        "made by sim/photo/game.py; with --photo, both): the photo_games_* figures")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.set_defaults(handler=run_bench)

    p = bench_subparsers.add_parser("soak", help="the demo accelerated: games, errors, resident memory",
                                    description="The demo accelerated: play many games and report errors and "
                                                "resident memory. Exit 1 when any game had an error.")
    p.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    p.add_argument("--vision-every", type=int, default=10,
                   help="every Nth game goes through rendered frames, the reader and the tracker")
    p.add_argument("--seed", type=int, default=7, help="seed of the games (default 7)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.set_defaults(handler=run_bench_soak)

# --- handlers -----------------------------------------------------------------------

def run_demo(args) -> int:
    import threading

    if args.game == "vallee":
        return run_vallee_demo(args)

    from maamut.app import Companion, say
    from maamut.table_cli import config_from_args, stop_on_sigterm

    from .demo import Demo

    cfg = config_from_args(args)
    if cfg is None:
        return 2
    if not args.config:
        cfg.game["journal"] = "var/demo-game.jsonl"
        cfg.camera["calibration"] = "var/demo-calibration.json"
        # The demo's players press its buttons and its LEDs are drawn on the page: no GPIO
        # pins nor LED controller to look for (a visitor reads only what the demo is).
        cfg.buttons["pin_factory"] = "none"
        cfg.leds["backend"] = "simulated"
    companion = Companion(cfg)
    companion.start_web()
    say("demo: simulated players move the pieces; a simulated camera films them and the real camera loop "
        "follows; the LEDs are drawn on the referee's page" if not args.no_vision else "demo: bots play (camera path off)")
    stop = threading.Event()
    stop_on_sigterm(stop)
    demo = Demo(companion, seed=args.seed, turn_s=args.turn_seconds, attract_s=args.attract_seconds,
                vision=not args.no_vision, max_games=args.games, stop=stop)
    try:
        stats = demo.run()
    except KeyboardInterrupt:
        stop.set()
        stats = demo.stats
    finally:
        companion.close()
    say(f"{stats.games} games, {stats.turns} turns, {stats.errors} errors")
    for message in stats.messages:
        say(f"  error: {message}")
    return 0 if stats.errors == 0 else 1


def run_vallee_demo(args) -> int:
    import threading

    from maamut.app import Companion, say
    from maamut.table_cli import config_from_args, stop_on_sigterm

    from .vallee_demo import ValleeDemo

    if args.step_seconds < 0 or args.attract_seconds < 0:
        return _fail("--step-seconds and --attract-seconds must not be negative")
    cfg = config_from_args(args)
    if cfg is None:
        return 2
    vallee_journal = "var/vallee-game.jsonl"
    if not args.config:
        # The demo's own journals: a game saved on this table is never replaced by the demo's.
        cfg.game["journal"] = "var/demo-game.jsonl"
        vallee_journal = "var/demo-vallee-game.jsonl"
        cfg.buttons["pin_factory"] = "none"
        cfg.leds["backend"] = "simulated"
    companion = Companion(cfg, vallee_journal=vallee_journal)
    if companion.vallee is None:
        companion.close()
        return _fail("La Vallée is not installed with this companion")
    companion.start_web()
    say(f"demo: simulated players play La Vallée des Mammouths on the sample valley; follow it on "
        f"{companion.url}vallee/")
    stop = threading.Event()
    stop_on_sigterm(stop)
    demo = ValleeDemo(companion.vallee, seed=args.seed, step_s=args.step_seconds, attract_s=args.attract_seconds,
                      max_games=args.games, stop=stop)
    try:
        stats = demo.run()
    except KeyboardInterrupt:
        stop.set()
        stats = demo.stats
    finally:
        companion.close()
    say(f"{stats.finished} games, {stats.entries} answers, {stats.errors} errors")
    for message in stats.messages:
        say(f"  error: {message}")
    return 0 if stats.errors == 0 else 1


def run_bench_soak(args) -> tuple[dict, int]:
    from .soak import run_soak

    figures = run_soak(games=args.games, vision_every=args.vision_every, seed=args.seed)
    return figures, 0 if figures["errors"] == 0 else 1


def run_render(args) -> int:
    import cv2
    import numpy as np

    from engine.hexgrid import cell_name

    from .render import Kit, loose_cards, random_hand, random_layout, random_scene, render_frame, setup_scenes
    from .render_palette import random_look

    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        return _fail(f"cannot create {args.out}: {exc.strerror}")
    if not 0 <= args.hands <= 1:
        return _fail("--hands must be between 0 and 1")
    try:
        hidden = tuple(sorted({int(v) for v in args.hide_cards.split(",") if v.strip()}))
    except ValueError:
        hidden = (-1,)
    if not set(hidden) <= set(range(6)):
        return _fail(f"--hide-cards: expected marker ids 0 to 5 separated by commas, got {args.hide_cards!r}")
    rng = np.random.default_rng(args.seed)
    kit = Kit(Kit.random(rng).palette, random_look(rng, max_tilt_deg=args.max_tilt))
    tiles = random_layout(rng)
    # The cards' own generator: the same seed draws the same set with or without them.
    cards = loose_cards(np.random.default_rng([args.seed, 1])) if args.loose_cards else None
    truth = {"seed": args.seed, "tiles": {cell_name(i): t for i, t in enumerate(tiles)},
             "palette": {"hunter_shape": kit.palette.hunter_shape, "trap_shape": kit.palette.trap_shape,
                         "mammoth_shape": kit.palette.mammoth_shape},
             "setup": [], "frames": []}
    if cards:
        # Where each card was laid: shift in tile units (east, south) and turn in degrees.
        truth["cards"] = {str(k): {"shift": [round(dx, 4), round(dy, 4)], "turn_deg": round(float(np.degrees(t)), 2)}
                          for k, (dx, dy, t) in sorted(cards.items())}
    if hidden:
        truth["hidden_cards"] = list(hidden)
    for index, scene in enumerate(setup_scenes(tiles, rng, args.hunters)):
        name = f"setup-{index}.png"
        image, _ = render_frame(scene, kit.palette, kit.nudged(rng), rng, mirror=args.mirror, cards=cards,
                                hidden_cards=hidden)
        cv2.imwrite(os.path.join(args.out, name), image)
        truth["setup"].append({"file": name, **scene.to_json()})
    for index in range(args.frames):
        scene = random_scene(rng, tiles=tiles, n_hunters=args.hunters)
        hand = random_hand(rng) if rng.random() < args.hands else None
        image, info = render_frame(scene, kit.palette, kit.nudged(rng), rng, hand=hand, mirror=args.mirror,
                                   cards=cards, hidden_cards=hidden)
        name = f"frame-{index:03d}.png"
        cv2.imwrite(os.path.join(args.out, name), image)
        truth["frames"].append({"file": name, **scene.to_json(),
                                "occluded_cells": [cell_name(c) for c in info["occluded_cells"]]})
    with open(os.path.join(args.out, "truth.json"), "w", encoding="utf-8") as fh:
        json.dump(truth, fh, indent=1)
    print(f"wrote {len(truth['setup'])} setup frames and {args.frames} position frames to {args.out}")
    return 0



def run_bench(args) -> dict | int:
    games_root = getattr(args, "photo_games", None)
    if games_root is not None:
        from .photo.game_bench import game_dirs
        if not game_dirs(games_root):
            return _fail(f"no photo games (folders with game.json) in {games_root}")
    if getattr(args, "photo", None) is not None:
        from .photo.bench import DEFAULT_SET, run_photo_bench, table_dirs
        root = args.photo or DEFAULT_SET
        if not table_dirs(root):
            return _fail(f"no photo tables (folders with truth.json) in {root}")
        result = run_photo_bench(root)
        _add_photo_games(result, games_root)
        return result
    if games_root is not None:
        # Like --photo: the path-traced games instead of the rendered scenes.
        result = {}
        _add_photo_games(result, games_root)
        return result
    from .vision_bench import run_vision_bench
    sequences = args.scenes // 2 if args.occlusion_sequences is None else args.occlusion_sequences
    result = run_vision_bench(args.scenes, args.seed, sequences)
    if args.stacks:
        from .vision_bench import run_stack_bench
        # Their own seed range (scenes + 500 000), away from the scenes' and the tests'.
        result.update(run_stack_bench(args.stacks, args.seed + 500_000))
    if args.loose_cards:
        from .vision_bench import run_loose_cards_bench
        # Their own seed range (scenes + 300 000), away from the scenes', the stacks' and the tests'.
        result.update(run_loose_cards_bench(args.loose_cards, args.seed + 300_000))
    if getattr(args, "pieces", 0):
        from .vision_bench import run_pieces_bench
        # Their own seed range too (scenes + 900 000; the trap step + 950 000).
        result.update(run_pieces_bench(args.pieces, args.seed + 900_000))
        from .vision_bench import run_trap_step_bench
        result.update(run_trap_step_bench(max(1, args.pieces // 2), args.seed + 950_000))
    if args.games:
        from .tracker_bench import run as track_games

        games = track_games(args.games, seed=args.seed, rendered=True, max_turns=args.game_turns)
        result["games_tracked_exactly"] = games["tracked_exactly_ratio"]
        result["games"] = games["games"]
        result["false_commits"] += games["false_commits"]
    if args.relight:
        from .tracker_bench import run_relight

        # Their own seed range (scenes + 700 000), away from the scenes', the games' and the tests'.
        result.update(run_relight(args.relight, args.seed + 700_000))
    return result


def _add_photo_games(result: dict, root) -> None:
    if root is not None:
        from .photo.game_bench import run_photo_games_bench
        result.update(run_photo_games_bench(root))
