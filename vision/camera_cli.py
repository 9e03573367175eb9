"""``maamut calibrate | read`` (plus ``track``); rendering and the vision benchmark live in ``sim``.

Exit codes: 0 done; 1 the board was not found in the image (the JSON still says so);
2 bad input (missing file, not an image, bad calibration), with the reason on stderr.
"""
from __future__ import annotations

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

    try:
        from .pipeline import register_track
    except ImportError:
        register_track = None
    if register_track is not None:
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


