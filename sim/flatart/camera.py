"""A still camera above the table: pose, lens, light and sensor.

The board lies in the plane z = 0 (x east, y south, z pointing down into the table, a
right-handed frame); the camera hangs above it looking down, leaning up to 25°. Seen
from above and never mirrored, east stays to the right of north as the rules want.

>>> import numpy as np
>>> from sim.flatart.style import random_style
>>> style = random_style(np.random.default_rng(0))
>>> from vision.geometry import preserves_handedness
>>> preserves_handedness(board_to_image(style.camera))     # clockwise stays clockwise
True
"""
from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.geometry import MARKER_IDS

from .art import canvas_to_board, card_corners
from .style import CameraStyle, TableStyle

WIDTH, HEIGHT = 1280, 960
#: Pixels kept between the cards and the frame's edge (ArUco ignores codes touching it).
_MARGIN = 20


def _rotation_z(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def board_to_image(camera: CameraStyle) -> np.ndarray:
    """The 3×3 homography from board units to image pixels."""
    # The camera's optical axis leans from straight down (+z) by the tilt, towards an azimuth.
    tilt = math.radians(camera.tilt_deg)
    towards = math.radians(camera.tilt_towards_deg)
    axis = np.array([math.sin(tilt) * math.cos(towards), math.sin(tilt) * math.sin(towards), math.cos(tilt)])
    # Camera x stays as horizontal as possible; y = z × x keeps the frame right-handed.
    x_cam = np.cross([0.0, 1.0, 0.0], axis)
    if np.linalg.norm(x_cam) < 1e-6:
        x_cam = np.array([1.0, 0.0, 0.0])
    x_cam /= np.linalg.norm(x_cam)
    y_cam = np.cross(axis, x_cam)
    world_to_cam = np.stack([x_cam, y_cam, axis])
    distance = 14.0                          # board units from the board centre
    centre = -distance * axis                # the camera looks at the board centre
    f = camera.pixels_per_unit * distance
    k = np.array([[f, 0, WIDTH / 2 + camera.centre_offset[0]], [0, f, HEIGHT / 2 + camera.centre_offset[1]],
                  [0, 0, 1]])
    # A board point b lies at Rz b on the table; p = K R (Rz b - C) = K [m1 m2 -R C] (x, y, 1).
    m = world_to_cam @ _rotation_z(camera.board_turn_deg)
    h = k @ np.column_stack([m[:, 0], m[:, 1], -world_to_cam @ centre])
    return h / h[2, 2]


def framed(style: TableStyle) -> TableStyle:
    """The style with the camera zoomed out until all six cards are in the frame.

    The kit asks for the tiles and all six cards in view, with a margin
    (hardware/CAMERA_MOUNT.md); a random pose that cuts a card is pulled back the way
    a user would move the camera."""
    cam = style.camera
    outline = np.concatenate([card_corners(m, style, quiet=True) for m in MARKER_IDS]).reshape(-1, 1, 2)
    for _ in range(60):
        pts = cv2.perspectiveTransform(outline, board_to_image(cam)).reshape(-1, 2)
        if (pts.min(axis=0) >= _MARGIN).all() and (pts.max(axis=0) <= (WIDTH - _MARGIN, HEIGHT - _MARGIN)).all():
            break
        cam = replace(cam, pixels_per_unit=cam.pixels_per_unit * 0.98,
                      centre_offset=(cam.centre_offset[0] * 0.9, cam.centre_offset[1] * 0.9))
    return replace(style, camera=cam)


def canvas_to_image(camera: CameraStyle) -> np.ndarray:
    return board_to_image(camera) @ canvas_to_board()


def table_background(rgb, rng: np.random.Generator) -> np.ndarray:
    """The bare table around the board: its colour with a faint cloth or wood texture."""
    base = np.array(rgb[::-1], np.float32)
    coarse = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (WIDTH, HEIGHT), interpolation=cv2.INTER_CUBIC)
    streaks = cv2.resize(rng.normal(0, 1, (HEIGHT // 4, 1)).astype(np.float32), (WIDTH, HEIGHT),
                         interpolation=cv2.INTER_LINEAR)
    img = base + (5 * coarse + rng.uniform(0, 6) * streaks)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def light_field(camera: CameraStyle) -> np.ndarray:
    """Per-pixel gain (H, W, 3): lamp gradient, vignetting, white balance and exposure."""
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    u, v = (xx - WIDTH / 2) / (WIDTH / 2), (yy - HEIGHT / 2) / (HEIGHT / 2)
    a = math.radians(camera.light_angle_deg)
    gain = 1 + camera.light_gradient * 0.5 * (u * math.cos(a) + v * math.sin(a))
    gain *= 1 - camera.vignetting * 0.5 * (u * u + v * v)
    gain *= camera.exposure
    return gain[..., None] * np.array(camera.white_balance, np.float32)


def compose(canvas: np.ndarray, mask: np.ndarray, background: np.ndarray, camera: CameraStyle) -> np.ndarray:
    """The table art under the camera's perspective, over the table."""
    h = canvas_to_image(camera)
    warped = cv2.warpPerspective(canvas, h, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, h, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    return cv2.blendLinear(warped, background, alpha, 1 - alpha)


def draw_hand(image: np.ndarray, target: tuple[float, float], pixels_per_unit: float,
              rng: np.random.Generator) -> np.ndarray:
    """A hand in a sleeve reaching from a frame edge to ``target`` (pixels), with its shadow."""
    out = image.copy()
    tone = rng.uniform(0.35, 1.0)               # dark to light skin
    skin = tuple(float(c) for c in np.array([95, 125, 170]) * tone + np.array([40, 45, 55]))   # BGR
    sleeve = tuple(float(c) for c in rng.uniform(20, 220, 3))
    start = [(rng.uniform(0, WIDTH), HEIGHT + 60), (rng.uniform(0, WIDTH), -60),
             (-60, rng.uniform(0, HEIGHT)), (WIDTH + 60, rng.uniform(0, HEIGHT))][int(rng.integers(4))]
    direction = np.subtract(target, start)
    direction /= np.linalg.norm(direction) + 1e-9
    normal = np.array([-direction[1], direction[0]])
    width = rng.uniform(2.4, 3.2) * pixels_per_unit          # a palm is 8-10 cm: near two tiles across
    palm = np.asarray(target) - direction * width * 0.55
    wrist = palm - direction * width * 0.6
    cuff = wrist - direction * width * rng.uniform(0.3, 1.2)
    angle = math.degrees(math.atan2(direction[1], direction[0]))

    def draw(img, offset, skin_colour, sleeve_colour):
        p = lambda v: tuple(int(round(c)) for c in np.asarray(v) + offset)
        cv2.line(img, p(start), p(cuff), sleeve_colour, int(width * 0.75), cv2.LINE_AA)
        cv2.line(img, p(cuff), p(wrist), skin_colour, int(width * 0.55), cv2.LINE_AA)
        cv2.ellipse(img, p(palm), (int(width * 0.5), int(width * 0.42)), angle, 0, 360, skin_colour, -1, cv2.LINE_AA)
        for k in range(4):
            base = palm + normal * (k - 1.5) * width * 0.22 + direction * width * 0.35
            tip = base + direction * width * rng.uniform(0.4, 0.6) * (0.8 if k in (0, 3) else 1.0)
            cv2.line(img, p(base), p(tip), skin_colour, int(width * 0.17), cv2.LINE_AA)
        thumb = palm + normal * width * 0.5 * rng.choice((-1, 1))
        cv2.line(img, p(palm), p(thumb + direction * width * 0.3), skin_colour, int(width * 0.2), cv2.LINE_AA)

    shadow = np.zeros(out.shape[:2], np.float32)
    state = rng.bit_generator.state
    draw(shadow, np.array((0.3, 0.4)) * width, 1.0, 1.0)
    rng.bit_generator.state = state          # the same fingers for the hand as for its shadow
    draw(out, np.zeros(2), skin, sleeve)
    shadow = cv2.GaussianBlur(shadow, (0, 0), width * 0.15)
    bare = np.all(out == image, axis=2)
    shaded = (out * (1 - 0.4 * shadow[..., None])).astype(np.uint8)
    return np.where(bare[..., None], shaded, out)


def photograph(image: np.ndarray, camera: CameraStyle, gain: np.ndarray, frame_seed: int) -> bytes:
    """Light, lens blur, sensor noise and JPEG compression; returns the JPEG bytes."""
    img = cv2.GaussianBlur(cv2.multiply(image, gain, dtype=cv2.CV_32F), (0, 0), camera.blur_sigma)
    noise = np.empty_like(img)
    cv2.setRNGSeed(int(frame_seed) & 0x7FFFFFFF)
    cv2.randn(noise, 0.0, camera.noise_sigma)
    img = np.clip(cv2.add(img, noise), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, camera.jpeg_quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    return data.tobytes()
