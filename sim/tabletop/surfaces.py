"""The table under the board: wooden planks, a cloth (plain or checked), felt, laminate.

Textures are made in the board frame (so they shrink with distance like the board does)
at a coarser scale than the tiles: a table is never in sharp focus detail.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .style import Surface


def _smooth_noise(rng: np.random.Generator, shape, cells: tuple[int, int]) -> np.ndarray:
    """Noise in -1..1-ish varying over ``cells`` (rows, cols) across the texture."""
    coarse = rng.normal(0, 1, cells).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _rotated_coords(size: int, scale: float, extent: float, angle_deg: float):
    """Board coordinates of the texture's pixels turned by ``angle_deg``: (along, across)."""
    v = (np.arange(size, dtype=np.float32) + 0.5) / scale - extent
    xx, yy = np.meshgrid(v, v)
    a = math.radians(angle_deg)
    return xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)


def _planks(surface: Surface, rng, size: int, scale: float, extent: float) -> np.ndarray:
    along, across = _rotated_coords(size, scale, extent, surface.angle_deg)
    plank = np.floor(across / surface.scale).astype(np.int32)
    n = int(plank.max() - plank.min() + 1)
    tone = rng.uniform(0.85, 1.12, n).astype(np.float32)[plank - plank.min()]
    shift = rng.uniform(0, 50, n).astype(np.float32)[plank - plank.min()]
    warp = _smooth_noise(rng, (size, size), (8, 8)) * np.float32(0.6)
    # Growth rings cut lengthwise: thin darker lines along the plank, wavering slowly.
    phase = across * np.float32(3.0) + warp * np.float32(3.0) + np.sin(along * np.float32(0.25) + shift) * \
        np.float32(2.0) + shift
    lines = 1 - np.abs(np.sin(phase * np.float32(2.0)))
    lines *= lines                           # the fourth power: thin lines, a few pixels apart
    streaks = cv2.resize(rng.normal(0, 1, (size, 1)).astype(np.float32), (size, size),
                         interpolation=cv2.INTER_LINEAR)
    streaks = cv2.warpAffine(streaks, cv2.getRotationMatrix2D((size / 2, size / 2), -surface.angle_deg, 1.42),
                             (size, size), borderMode=cv2.BORDER_REFLECT)
    shade = tone * (1 + np.float32(0.04) * streaks + np.float32(0.05) * np.sin(phase * np.float32(0.5)))
    shade *= 1 - np.float32(0.18) * lines * lines
    seam = np.abs((across / surface.scale) - np.round(across / surface.scale)) * np.float32(surface.scale)
    shade *= 1 - np.float32(0.45) * np.exp(-(seam / np.float32(0.04)) ** 2)
    img = np.array(surface.colour[::-1], np.float32) * shade[..., None]
    return img


def _cloth(surface: Surface, rng, size: int, scale: float, extent: float) -> np.ndarray:
    along, across = _rotated_coords(size, scale, extent, surface.angle_deg)
    base = np.array(surface.colour[::-1], np.float32)
    img = np.broadcast_to(base, (size, size, 3)).copy()
    if surface.pattern == "gingham":
        ink = np.array(surface.colour2[::-1], np.float32)
        a = (np.floor(along / surface.scale) % 2).astype(np.float32)
        b = (np.floor(across / surface.scale) % 2).astype(np.float32)
        cover = (0.45 * a + 0.45 * b)[..., None]          # stripes crossing make the darker checks
        img = img * (1 - cover) + ink * cover
    folds = _smooth_noise(rng, (size, size), (6, 5)) * 0.07 + _smooth_noise(rng, (size, size), (20, 16)) * 0.03
    weave = 0.03 * np.sin(along * 40) * np.sin(across * 40)
    return img * (1 + folds + weave)[..., None]


def _felt(surface: Surface, rng, size: int) -> np.ndarray:
    fuzz = cv2.GaussianBlur(rng.normal(0, 1, (size, size)).astype(np.float32), (0, 0), 0.8)
    mottle = _smooth_noise(rng, (size, size), (10, 10))
    return np.array(surface.colour[::-1], np.float32) * (1 + 0.06 * fuzz + 0.04 * mottle)[..., None]


def _laminate(surface: Surface, rng, size: int, scale: float, extent: float) -> np.ndarray:
    along, across = _rotated_coords(size, scale, extent, surface.angle_deg)
    speck = cv2.GaussianBlur((rng.random((size, size)) < 0.03).astype(np.float32), (0, 0), 0.6)
    speck *= np.float32(rng.choice((-0.25, 0.25)))
    print_grain = 0.015 * np.sin(across * 7 + _smooth_noise(rng, (size, size), (6, 6)) * 2)
    seam = (np.abs((along / surface.scale) - np.round(along / surface.scale)) * surface.scale < 0.02) * -0.12
    return np.array(surface.colour[::-1], np.float32) * (1 + speck + print_grain + seam)[..., None]


def table_texture(surface: Surface, rng: np.random.Generator, extent: float) -> tuple[np.ndarray, float]:
    """The table top around the board's centre out to ``extent`` units (BGR uint8), and its
    pixels per board unit."""
    scale = min(18.0, 1000.0 / (2 * extent))
    size = int(round(2 * extent * scale))
    if surface.kind == "wood":
        img = _planks(surface, rng, size, scale, extent)
    elif surface.kind == "cloth":
        img = _cloth(surface, rng, size, scale, extent)
    elif surface.kind == "felt":
        img = _felt(surface, rng, size)
    else:
        img = _laminate(surface, rng, size, scale, extent)
    return np.clip(img, 0, 255).astype(np.uint8), scale
