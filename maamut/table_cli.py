"""The table's command line: ``maamut serve``, ``maamut config`` and ``maamut kit``.

Declaring the arguments imports nothing else; each handler imports what it runs. The
helpers :func:`config_from_args` and :func:`stop_on_sigterm` serve every command that
runs the companion (``maamut demo`` too, which the simulation plugs in).
"""

from __future__ import annotations

import signal
import sys
import threading


def stop_on_sigterm(stop: threading.Event) -> None:
    """systemd stops services with SIGTERM: finish cleanly (the journal is already safe)."""
    signal.signal(signal.SIGTERM, lambda *_: stop.set())


def add_web_options(parser) -> None:
    """``--config``, ``--port`` and ``--host`` of the commands that serve the page."""
    parser.add_argument("--config", help="TOML configuration file (see `maamut config`)")
    parser.add_argument("--port", type=int, help="web page port (default: the configuration's, 8080)")
    parser.add_argument("--host", help="address the web page listens on (default: the configuration's, 0.0.0.0)")


def config_from_args(args):
    """The configuration ``--config`` names with ``--port``/``--host`` applied; None (said why) if bad."""
    from .config import ConfigError, load_config

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
    cfg = config_from_args(args)
    if cfg is None:
        return 2
    from .app import Companion, say, wait_forever
    from .serve import ButtonLoop

    companion = Companion(cfg)
    stop = threading.Event()
    stop_on_sigterm(stop)
    companion.start_web()
    camera = companion.start_camera(stop)
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


def cmd_config(args) -> int:
    from .config import DEFAULT_TEXT

    sys.stdout.write(DEFAULT_TEXT)
    return 0


def cmd_kit(args) -> int:
    """Print files of the marker cards and the mat for the tiles the user measured."""
    from vision.kit_size import KitSizeError
    from vision.render_kit import write_kit

    tile_mm = args.tile_mm
    if tile_mm is None:
        cfg = config_from_args(args)
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


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help="run the companion at a real table (camera, LEDs, buttons, page)",
                              description="Run the companion at a real table: camera, LEDs, buttons and the web "
                                          "page. Missing hardware falls back to simulated LEDs and the page's "
                                          "controls.")
    add_web_options(p)
    p.set_defaults(handler=cmd_serve)

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
