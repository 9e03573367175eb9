"""``maamut serve``, ``maamut demo``, ``maamut config``, ``maamut kit`` and ``maamut bench soak``."""

from __future__ import annotations

import json
import signal
import sys
import threading

from .config import DEFAULT_TEXT, ConfigError, load_config


def _stop_on_sigterm(stop: threading.Event) -> None:
    """systemd stops services with SIGTERM: finish cleanly (the journal is already safe)."""
    signal.signal(signal.SIGTERM, lambda *_: stop.set())


def _load(args):
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        print(f"maamut: {args.config or 'configuration'}: {exc}", file=sys.stderr)
        return None
    if getattr(args, "port", None) is not None:
        cfg.web["port"] = args.port
    if getattr(args, "host", None):
        cfg.web["host"] = args.host
    return cfg


def cmd_serve(args) -> int:
    cfg = _load(args)
    if cfg is None:
        return 2
    from .app import Companion, say, wait_forever
    from .serve import CameraLoop, ButtonLoop

    companion = Companion(cfg)
    stop = threading.Event()
    _stop_on_sigterm(stop)
    companion.start_web()
    camera = CameraLoop.start(companion, stop)
    if camera is None:
        say("no camera: play on the page (setup wizard, then moves) or plug a camera in and restart")
    buttons = ButtonLoop.start(companion, camera, stop)
    try:
        wait_forever(stop)
    finally:
        stop.set()
        for part in (camera, buttons):
            if part is not None:
                part.join(timeout=5)
        companion.close()
    return 0


def cmd_demo(args) -> int:
    cfg = _load(args)
    if cfg is None:
        return 2
    if not args.config:
        cfg.game["journal"] = "var/demo-game.jsonl"
        cfg.camera["calibration"] = "var/demo-calibration.json"
    from .app import Companion, say
    from .demo import Demo

    companion = Companion(cfg)
    companion.start_web()
    say("demo: simulated players move the pieces; a simulated camera films them and the real camera loop "
        "follows" if not args.no_vision else "demo: bots play (camera path off)")
    stop = threading.Event()
    _stop_on_sigterm(stop)
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


def cmd_config(args) -> int:
    sys.stdout.write(DEFAULT_TEXT)
    return 0


def cmd_kit(args) -> int:
    """Print files of the marker cards and the mat for the tiles the user measured."""
    from vision.kit_size import KitSizeError
    from vision.render_kit import write_kit

    tile_mm = args.tile_mm
    if tile_mm is None:
        cfg = _load(args)
        if cfg is None:
            return 2
        tile_mm = cfg.camera["tile_mm"]
    try:
        written = write_kit(args.out, tile_mm)
    except KitSizeError as exc:
        print(f"maamut: --tile-mm: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"maamut: cannot write the kit into {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"kit for tiles {tile_mm:g} mm across flats: " + ", ".join(written))
    print("print at 100 % (no 'fit to page'); check the printed size line with a ruler")
    return 0


def cmd_bench_soak(args) -> int:
    from .soak import run_soak

    figures = run_soak(games=args.games, vision_every=args.vision_every, seed=args.seed)
    print(json.dumps(figures) if args.json else "\n".join(f"{k:>22}: {v}" for k, v in figures.items()))
    return 0 if figures["errors"] == 0 else 1


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help="run the companion at a real table (camera, LEDs, buttons, page)",
                              description="Run the companion at a real table: camera, LEDs, buttons and the web "
                                          "page. Missing hardware falls back to simulated LEDs and the page's "
                                          "controls.")
    p.add_argument("--config", help="TOML configuration file (see `maamut config`)")
    p.add_argument("--port", type=int, help="web page port (default: the configuration's, 8080)")
    p.add_argument("--host", help="address the web page listens on (default: the configuration's, 0.0.0.0)")
    p.set_defaults(handler=cmd_serve)

    p = subparsers.add_parser("demo", help="self-playing demo with simulated camera, LEDs and board",
                              description="Self-playing demo: bots play, every move is filmed by a simulated "
                                          "camera and read back by the real camera path; no hardware needed.")
    p.add_argument("--config", help="TOML configuration file (see `maamut config`)")
    p.add_argument("--port", type=int, help="web page port (default: the configuration's, 8080)")
    p.add_argument("--host", help="address the web page listens on (default: the configuration's, 0.0.0.0)")
    p.add_argument("--games", type=int, help="stop after this many games (default: run until Ctrl-C)")
    p.add_argument("--seed", type=int, help="seed of the bots and the layouts (default: a new one each start)")
    p.add_argument("--turn-seconds", type=float, default=2.0, help="pause between turns")
    p.add_argument("--attract-seconds", type=float, default=8.0, help="attract animation between games")
    p.add_argument("--no-vision", action="store_true", help="skip rendering and reading frames")
    p.set_defaults(handler=cmd_demo)

    p = subparsers.add_parser("config", help="print a commented default configuration file",
                              description="Print a commented default configuration file: "
                                          "maamut config > maamut.toml, then edit it.")
    p.set_defaults(handler=cmd_config)

    p = subparsers.add_parser("kit", help="print the marker cards and the mat for your tiles' size",
                              description="Write the six marker cards (A4 SVG sheets) and the full-size mat "
                                          "for tiles N mm across flats: measure one tile with a ruler from a "
                                          "straight side to the opposite one. Exit 2 for a size outside "
                                          "25-120 mm.")
    p.add_argument("--tile-mm", type=float, metavar="N",
                   help="tile width across flats in mm (default: the configuration's [camera] tile_mm, 52)")
    p.add_argument("--config", help="TOML configuration file whose [camera] tile_mm to use")
    p.add_argument("--out", default="kit", help="folder to write the SVG files into (default: ./kit)")
    p.set_defaults(handler=cmd_kit)


def register_bench(bench_targets) -> None:
    p = bench_targets.add_parser("soak", help="the demo accelerated: games, errors, resident memory",
                                 description="The demo accelerated: play many games and report errors and "
                                             "resident memory. Exit 1 when any game had an error.")
    p.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    p.add_argument("--vision-every", type=int, default=10,
                   help="every Nth game goes through rendered frames, the reader and the tracker")
    p.add_argument("--seed", type=int, default=7, help="seed of the games (default 7)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.set_defaults(handler=cmd_bench_soak)
