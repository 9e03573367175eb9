"""A still camera above the table: pose, lens, light and sensor.

The board lies in the plane z = 0 (x east, y south, z pointing down into the table, a
right-handed frame); the camera hangs above it looking down, leaning up to 25°. Seen
from above and never mirrored, east stays to the right of north as the rules want.

>>> import numpy as np
>>> from sim.flatart.style import random_style
>>> style = random_style(np.random.default_rng(0))
>>> h = board_to_image(style.camera)
>>> float(np.linalg.det(h[:2, :2])) > 0     # clockwise stays clockwise
True
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .art import canvas_to_board
from .style import CameraStyle

WIDTH, HEIGHT = 1280, 960


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


def draw_hand(image: np.ndarray, target: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """A hand reaching from a frame edge towards ``target`` (pixels), with its shadow."""
    out = image.copy()
    skin = np.array([rng.uniform(60, 140), rng.uniform(90, 170), rng.uniform(140, 230)])   # BGR
    edge = rng.integers(4)
    start = [(rng.uniform(0, WIDTH), HEIGHT + 40), (rng.uniform(0, WIDTH), -40),
             (-40, rng.uniform(0, HEIGHT)), (WIDTH + 40, rng.uniform(0, HEIGHT))][edge]
    direction = np.subtract(target, start)
    direction /= np.linalg.norm(direction) + 1e-9
    palm = np.asarray(target) - direction * 30
    width = rng.uniform(70, 110)
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    shadow = np.zeros(out.shape[:2], np.float32)
    for layer, shift in ((shadow, np.array((18, 24))), (None, np.zeros(2))):
        target_img = layer if layer is not None else out
        colour = 1.0 if layer is not None else tuple(float(c) for c in skin)
        a, b = (np.asarray(start) + shift).astype(int), (palm + shift).astype(int)
        cv2.line(target_img, tuple(int(v) for v in a), tuple(int(v) for v in b), colour, int(width * 0.8), cv2.LINE_AA)
        cv2.ellipse(target_img, tuple(int(v) for v in palm + shift), (int(width * 0.62), int(width * 0.5)), angle,
                    0, 360, colour, -1, cv2.LINE_AA)
        for k in range(4):
            side = (k - 1.5) * width * 0.22
            normal = np.array([-direction[1], direction[0]])
            base = palm + shift + normal * side + direction * width * 0.35
            tip = base + direction * width * rng.uniform(0.45, 0.7)
            cv2.line(target_img, tuple(int(v) for v in base), tuple(int(v) for v in tip), colour,
                     int(width * 0.17), cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 12)
    skin_mask = np.all(out == image, axis=2)
    out = np.where(skin_mask[..., None], (out * (1 - 0.35 * shadow[..., None])).astype(np.uint8), out)
    return out


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
