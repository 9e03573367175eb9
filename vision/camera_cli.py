"""The camera's command line: ``maamut calibrate``, ``read`` and ``track``.

Declaring the arguments loads nothing of the camera stack: every handler imports
OpenCV, NumPy and the pipeline (:mod:`vision.pipeline`) when it runs, so the referee's
commands and ``maamut --help`` never pay for them.

Exit codes: 0 done; 1 the board was not found in the image (the JSON still says so);
2 bad input (missing file, not an image, bad calibration), with the reason on stderr.
``maamut track`` prints ``{"tiles", "placements", "actions", "position", "winner",
"phase", "reports", "frames", "questions"}`` (see :mod:`vision.pipeline`); with ``--ask``
the camera's questions are asked on the terminal as they come.
"""
from __future__ import annotations

import argparse
import json
import os
import sys


def _fail(message: str) -> int:
    print(f"maamut: {message}", file=sys.stderr)
    return 2


def register(subparsers) -> None:
    p = subparsers.add_parser("calibrate", help="learn a set's colours and layout from setup frames",
                              description="Learn a set's tile and hunter colours and its layout from the setup "
                                          "frames, and write them to a calibration file for 'maamut read'.")
    p.add_argument("frames", nargs="+", help="empty board with the mammoth on the cross, then one frame per hunter placed")
    p.add_argument("--out", required=True, help="calibration JSON file to write")
    p.add_argument("--trap-frames", nargs="+", default=[], metavar="FRAME",
                   help="optional: after the last hunter, one frame per trap put down, one trap per player in "
                        "seating order (each player's traps are then matched with their own colour)")
    p.set_defaults(handler=run_calibrate)

    p = subparsers.add_parser("read", help="read the position shown in one camera image",
                              description="Read the tiles, the mammoth, the hunters and the traps shown in one "
                                          "camera image. Exit 0 read, 1 board not found, 2 bad input.")
    p.add_argument("image", help="the camera image (any format OpenCV reads: PNG, JPEG...)")
    p.add_argument("--calibration", required=True, help="file written by 'maamut calibrate'")
    p.add_argument("--json", action="store_true", help="print JSON (cells as \"q,r\", confidence per cell)")
    p.add_argument("--lock-tiles", action="store_true", help="report the calibration's tiles instead of reading them")
    p.set_defaults(handler=run_read)

    register_track(subparsers)


# --- handlers -----------------------------------------------------------------------

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
        calibration = learn(_load_images(args.frames), trap_frames=_load_images(getattr(args, "trap_frames", [])))
        calibration.save(args.out)
    except (ValueError, CalibrationError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror}")
    print(f"calibration written to {args.out}: {len(calibration.hunters)} hunter colours"
          f"{f', {len(calibration.traps)} trap colours' if calibration.traps else ''}"
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


# --- maamut track ---------------------------------------------------------------------

def _players(text: str) -> tuple[str, ...]:
    import engine

    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not 2 <= len(names) <= 4:
        raise argparse.ArgumentTypeError("give 2 to 4 player names in seating order, e.g. --players Ann,Bob,Cy")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError("player names must be distinct")
    for name in names:
        try:
            engine.action_from_json({"type": "pass", "hunter": name})  # the engine's own name check
        except engine.BadRequest as exc:
            raise argparse.ArgumentTypeError(exc.message) from None
    return names


def _times(text: str) -> list[float]:
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("--pass-at takes seconds separated by commas, e.g. 12.5,40") from None


def register_track(subparsers) -> None:
    """Add ``maamut track``."""
    parser = subparsers.add_parser(
        "track", help="follow a whole game from camera frames and validate every action",
        description="Follow a game from a recording or a camera, starting from the empty board with the "
                    "mammoth on the cross, and print the actions the engine accepted.")
    parser.add_argument("source", metavar="SOURCE",
                        help="folder of frames (name order), video file, webcam[:N] or picamera[:N]")
    parser.add_argument("--players", required=True, type=_players, help="player names in seating order, comma separated")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--calibration", metavar="FILE", help="use this calibration instead of learning it at setup")
    parser.add_argument("--trap-step", action="store_true",
                        help="setup also shows one trap per player after the hunters, in seating order, then "
                             "takes them off (each player's traps are matched with their own colour)")
    parser.add_argument("--variants", metavar="JSON", default="{}", help="rule variants as a JSON object")
    parser.add_argument("--fps", type=float, default=30.0, help="frame rate of a folder of frames (default 30)")
    parser.add_argument("--stable-frames", type=int, default=5,
                        help="consecutive agreeing frames before a board counts (default 5)")
    parser.add_argument("--pass-at", type=_times, default=[], metavar="T[,T...]",
                        help="source times (s) at which the pass button was pressed")
    parser.add_argument("--ask", action="store_true",
                        help="when the camera is unsure, ask on the terminal (the question on stderr, the "
                             "answer's number read from stdin; Enter leaves it unanswered) instead of waiting "
                             "for the referee's page")
    parser.add_argument("--lang", choices=("en", "fr"), default="en", help="language of --ask's questions")
    parser.set_defaults(handler=run_track)


def run_track(args) -> int:
    import engine

    from .calibration import Calibration, CalibrationError
    from .pipeline import TrackRun, track_source
    from .sources import SourceError

    def fail(message: str, code: int = 2) -> int:
        if args.json:
            print(json.dumps({"error": message}))
        else:
            print(f"maamut track: {message}", file=sys.stderr)
        return code

    try:
        variants = engine.Variants.from_json(json.loads(args.variants))
    except (ValueError, TypeError) as exc:
        return fail(f"--variants: {exc}")
    if args.stable_frames < 1:
        return fail("--stable-frames must be at least 1")
    calibration = None
    if args.calibration:
        try:
            calibration = Calibration.load(args.calibration)
        except CalibrationError as exc:
            return fail(str(exc))
    run = TrackRun(args.players, variants, calibration, args.stable_frames, args.pass_at,
                   trap_step=getattr(args, "trap_step", False))
    if getattr(args, "ask", False):
        run.on_question = _terminal_asker(run, getattr(args, "lang", "en"))
    try:
        track_source(args.source, run, fps=args.fps)
    except SourceError as exc:
        return fail(str(exc))
    result = run.result()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        _print_human(result)
    return 0


def _terminal_asker(run, lang: str):
    """``maamut track --ask``: each question worded on stderr, the answer's number read
    from stdin (1 for the first answer); an empty line or the end of stdin leaves it
    unanswered (the game waits, the question is in the result). A refused answer (the
    board it implies is not the game's, nor a legal turn) is said and ends that round:
    the question stays pending (asking the same answer again would only be refused
    again, and a scripted stdin would spin). A line that is no answer's number is asked
    again, a few times at most."""
    from .questions import WORDS, QuestionRefused, worded

    words = WORDS[lang]
    closed = False

    def ask(question) -> None:
        nonlocal closed
        text, answers = worded(question.to_json(), lang)
        for _ in range(MAX_PROMPTS):
            if closed:
                return
            print(f"camera: {text}", file=sys.stderr)
            for number, answer in enumerate(answers, start=1):
                print(f"  {number}) {answer}", file=sys.stderr)
            print(words["prompt"].format(n=len(answers)), end="", file=sys.stderr, flush=True)
            line = sys.stdin.readline()
            if not line:
                closed = True     # no one at the terminal any more: stop asking
                return
            line = line.strip()
            if not line:
                return
            if not line.isdigit() or not 1 <= int(line) <= len(answers):
                continue
            try:
                run.answer(question.id, int(line) - 1)
            except QuestionRefused as exc:
                print(words["refused"].format(why=exc.message), file=sys.stderr)
            return

    return ask


#: Lines read for one question at the terminal before it is left pending (typos).
MAX_PROMPTS = 3


def _print_human(result: dict) -> None:
    import engine
    from engine.notation import turn_to_text

    for placement in result["placements"]:
        print(f"placed  {placement['hunter']} on {placement['cell']}")
    for entry in result["actions"]:
        action = engine.action_from_json(entry["action"])
        choices = engine.choices_from_json(entry["choices"])
        print(f"{entry['time']:8.2f}s  {turn_to_text(action, choices)}")
    for report in result["reports"]:
        where = f" [{', '.join(report['cells'])}]" if report["cells"] else ""
        print(f"report  {report['type']}: {report['message']}{where}")
    for question in result.get("questions", []):
        print(f"waiting the camera asks about {question['cell']} (answer on the referee's page, or track with --ask)")
    if result["winner"]:
        print(f"winner  {result['winner']}")
