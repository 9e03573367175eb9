"""One table under one camera: the still part drawn once, pieces and light for each board,
and the phone's sensor for each frame.

The still part is the table top (beyond its edge, the floor), the printed board if any,
the cards and the tiles, each a canvas put under the camera at its own height (tiles
stand a cardboard's thickness above the table, so under tilt their cut edges show).
Each board adds its pieces with their soft shadows; the lamp's light field (fall-off,
colour cast, vignetting, glare on glossy tiles) multiplies the lot; each frame adds its
own sensor noise, the phone's sharpening and JPEG.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.hexgrid import CELL_NAMES, pixel_of

from ..tables import Frame
from .lens import HEIGHT, WIDTH, Camera, card_plane
from .paint import Painter, cast_shadow, contact_shadow, visible_share
from .pieces import TILE_WIDTH, Piece, hunter, mammoth, trap, trap_height
from .style import TableLook
from .surfaces import table_texture
from .tiles import SCALE, Layer, card_layer, tile_layers

#: The light field's grid step, pixels.
_COARSE = 4
#: Least share of a piece left in view: a board whose pieces cannot be seen cannot be read.
MIN_VISIBLE = {"trap": 0.25, "hunter": 0.4, "mammoth": 0.4}


@dataclass(frozen=True)
class Exposure:
    """A board as the light reaches the sensor (BGR float), and its noise's spread per pixel."""
    radiance: np.ndarray
    sigma: np.ndarray


class TableScene:
    """Draws one table's frames: the still part once, then each board and each frame."""

    def __init__(self, look: TableLook, tiles, seed: int):
        self.look, self.seed = look, seed
        self.camera = Camera.from_lens(look.lens)
        self._grounds: dict[float, tuple[np.ndarray, np.ndarray]] = {}
        self.card_z = card_plane(look)
        self.tile_top = self.card_z - look.tiles.thickness
        self.painter = Painter(self.camera, look.light.lamp, look.light.key_share)
        self.albedo, self.tile_mask = self._still(tiles)
        self.light = self._light_field()
        self.glare = self._glare() * self.tile_mask
        self.glare_box = _box_of(self.glare > 0.004)
        self.lut = self._tone_curve()

    def ground(self, z: float) -> tuple[np.ndarray, np.ndarray]:
        """Each pixel's point on the plane at height ``z`` (board x, y), kept once worked out."""
        if z not in self._grounds:
            self._grounds[z] = self.camera.ground(z)
        return self._grounds[z]

    # -- the still part ---------------------------------------------------------------------------
    def _put(self, layer: Layer, z: float, scale: float = SCALE, border: int = cv2.BORDER_CONSTANT):
        """A canvas laid at height ``z``, as the camera sees it: (BGR, coverage 0-1 float)."""
        x, y = self.ground(z)
        mx, my = (x + layer.extent) * scale, (y + layer.extent) * scale
        img = cv2.remap(layer.image, mx, my, cv2.INTER_LINEAR, borderMode=border)
        a = cv2.remap(layer.alpha, mx, my, cv2.INTER_LINEAR, borderMode=border)
        return img, a.astype(np.float32) * (1 / 255)

    def _table_top(self) -> np.ndarray:
        """The table (its texture within its edges) and the floor beyond, in view."""
        rng = np.random.default_rng([self.look.texture_seed, 9])
        extent = 28.0
        texture, scale = table_texture(self.look.surface, rng, extent)
        size = texture.shape[0]
        img, _ = self._put(Layer(texture, np.full((size, size), 255, np.uint8), extent), 0.0, scale,
                           cv2.BORDER_REFLECT)
        x, y = self.ground(0.0)
        a = math.radians(self.look.surface.angle_deg)
        half = rng.uniform(14, 22), rng.uniform(10, 16)
        off = rng.uniform(-4, 4, 2)
        u = (x - off[0]) * math.cos(a) + (y - off[1]) * math.sin(a)
        v = -(x - off[0]) * math.sin(a) + (y - off[1]) * math.cos(a)
        beyond = (np.abs(u) > half[0]) | (np.abs(v) > half[1]) | (self.camera.rays[2] <= 0.05)
        img[beyond] = rng.uniform(30, 90, 3).astype(np.uint8)       # the floor, far below
        return img

    def _still(self, tiles) -> tuple[np.ndarray, np.ndarray]:
        top, side = tile_layers(self.look, tiles)
        cards = card_layer(self.look)
        img = self._table_top()
        if self.look.tiles.mat is not None:              # the printed board's cut edge
            _, a = self._put(cards, 0.0)
            img = cv2.blendLinear(np.zeros_like(img), img, a * 0.6, 1 - a * 0.6)
        for layer, z in ((cards, self.card_z), (side, self.card_z)):
            over, a = self._put(layer, z)
            img = cv2.blendLinear(over, img, a, 1 - a)
        # The narrow gaps between tiles and the table right beside them get less light.
        gaps = cv2.GaussianBlur(a, (0, 0), max(1.0, 0.06 * self.camera.pixels_per_unit))
        img = cv2.blendLinear(np.zeros_like(img), img, 0.35 * gaps * (1 - a), 1 - 0.35 * gaps * (1 - a))
        over, a = self._put(top, self.tile_top)
        return cv2.blendLinear(over, img, a, 1 - a), a

    # -- light ------------------------------------------------------------------------------------
    def _light_field(self) -> np.ndarray:
        """Per-pixel gain (BGR): the lamp's fall-off and colour, the room's fill, white
        balance, exposure and vignetting. Light varies slowly: worked out on a coarse grid."""
        light = self.look.light
        x, y = (v[::_COARSE, ::_COARSE] for v in self.ground(self.tile_top))
        lx, ly, lh = light.lamp
        d2 = (x - lx) ** 2 + (y - ly) ** 2 + lh * lh
        lamp = (lh / np.sqrt(d2) / d2) / (lh / (lx * lx + ly * ly + lh * lh) ** 1.5)
        fill = 1 + light.ambient_gradient[0] * x / 8 + light.ambient_gradient[1] * y / 8
        key, amb = np.array(light.key_rgb[::-1], np.float32), np.array(light.ambient_rgb[::-1], np.float32)
        k = light.key_share
        field = (1 - k) * np.clip(fill, 0.5, 1.5)[..., None] * amb + k * np.clip(lamp, 0, 3)[..., None] * key
        centre = (1 - k) * amb + k * key
        balance = centre ** -self.look.sensor.white_balance
        balance /= float(np.mean(centre * balance))
        yy, xx = np.mgrid[0:HEIGHT:_COARSE, 0:WIDTH:_COARSE].astype(np.float32)
        r2 = ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / ((WIDTH / 2) ** 2 + (HEIGHT / 2) ** 2)
        vignette = 1 - light.vignetting * r2
        coarse = (field * balance * (self.look.sensor.exposure * vignette)[..., None]).astype(np.float32)
        return cv2.resize(coarse, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)

    def _glare(self) -> np.ndarray:
        """The lamp mirrored in glossy tiles: a soft bright spot where the reflection lands."""
        light = self.look.light
        if light.glare <= 0 or not self.look.tiles.gloss:
            return np.zeros((HEIGHT, WIDTH), np.float32)
        # The lamp hangs at z = -height; its mirror image lies as far below the tiles' face.
        mirrored = np.array([light.lamp[0], light.lamp[1], 2 * self.tile_top + light.lamp[2]])
        c = self.camera.centre
        s = (self.tile_top - c[2]) / (mirrored[2] - c[2])
        spot = c + s * (mirrored - c)
        x, y = (v[::_COARSE, ::_COARSE] for v in self.ground(self.tile_top))
        d2 = (x - spot[0]) ** 2 + (y - spot[1]) ** 2
        coarse = (light.glare * np.exp(-d2 / (2 * light.glare_spread ** 2))).astype(np.float32)
        return cv2.resize(coarse, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)

    def _tone_curve(self) -> np.ndarray:
        s = self.look.sensor
        x = np.linspace(0, 1, 256)
        y = x ** s.gamma
        bend = 0.15 if s.device == "phone" else 0.05
        y = y - bend * np.sin(2 * math.pi * y) / (2 * math.pi)
        return np.clip(np.round(y * 255), 0, 255).astype(np.uint8)

    # -- the pieces of a board ---------------------------------------------------------------------
    def arrange(self, board: dict, rng: np.random.Generator) -> list[tuple[Piece, list]]:
        """The board's pieces set down by hand, each with its marks in painting order, every
        one left partly in view: pieces that hide one another are set down again a little
        further apart."""
        best, best_margin = None, -1.0
        for attempt in range(24):
            ordered = self._in_paint_order(self._set_down(board, rng, 1.0 + 0.15 * attempt))
            marks = [self.painter.marks(p) for p in ordered]
            shares = visible_share(marks)
            margin = min((share / MIN_VISIBLE[p.key.split(":")[0]] for p, share in zip(ordered, shares)),
                         default=2.0)
            if margin > best_margin:
                best, best_margin = list(zip(ordered, marks)), margin
            if margin >= 1.0:
                break
        return best

    def _in_paint_order(self, pieces: list[Piece]) -> list[Piece]:
        """Flat pieces first, then standing ones from the farthest to the nearest."""
        depth = lambda p: float(self.camera.to_camera(p.base)[0, 2])         # noqa: E731
        return sorted(pieces, key=lambda p: (not p.flat, -depth(p)))

    def _set_down(self, board: dict, rng: np.random.Generator, spread: float) -> list[Piece]:
        ps = self.look.pieces
        pieces, traps = [], {}
        for cell, player in board["traps"].items():
            at = _centre(cell) + _scatter(rng, 0.1 * spread)
            traps[cell] = at
            pieces.append(trap(ps, player, cell, at, rng.uniform(0, 2 * math.pi), self.tile_top))
        cells: dict[str, list[str]] = {}
        for player, cell in board["hunters"].items():
            cells.setdefault(cell, []).append(player)
        width = ps.hunter_size * TILE_WIDTH
        lift = trap_height(ps)
        for cell, players in cells.items():
            anchor = traps.get(cell, _centre(cell))
            if len(players) > 1:
                reach = min(0.75 * spread, 1.0, max(0.3, 0.5 * width) * spread)
            elif cell in traps:
                reach = min(0.7 * spread, 1.0, rng.uniform(0.1, 0.4) * spread)
            else:
                reach = rng.uniform(0, 0.18)
            turn = rng.uniform(0, 2 * math.pi)
            for k, player in enumerate(players):
                a = turn + 2 * math.pi * k / len(players) + rng.normal(0, 0.2)
                at = anchor + reach * np.array([math.cos(a), math.sin(a)])
                on_trap = cell in traps and np.linalg.norm(at - traps[cell]) < ps.trap_size * TILE_WIDTH * 0.45
                pieces.append(hunter(ps, player, cell, at, rng.uniform(0, 2 * math.pi),
                                     self.tile_top - (lift if on_trap else 0.0)))
        at = _centre(board["mammoth"]) + _scatter(rng, 0.1)
        pieces.append(mammoth(ps, board["mammoth"], at, rng.uniform(0, 2 * math.pi), self.tile_top))
        return pieces

    def render(self, board: dict, index: int) -> "Exposure":
        """The board under the table's light and lens, before the sensor."""
        rng = np.random.default_rng([self.seed, 2, index])
        placed = self.arrange(board, rng)
        img = self.albedo.copy()
        self._shadows(img, [p for p, _ in placed])
        cover = np.zeros((HEIGHT, WIDTH), np.uint8)
        for _, marks in placed:
            for mark in marks:
                mark.paint(img)
                mark.mask(cover, 1)
        radiance = cv2.multiply(img, self.light, dtype=cv2.CV_32F)
        if self.glare_box is not None:                  # the lamp's reflection, where no piece stands
            x0, y0, x1, y1 = self.glare_box
            shine = self.glare[y0:y1, x0:x1] * (1 - cover[y0:y1, x0:x1])
            key = np.array(self.look.light.key_rgb[::-1], np.float32) * 255
            radiance[y0:y1, x0:x1] += shine[..., None] * key
        radiance = self._optics(radiance)
        # Shot noise grows with the light gathered; read noise is there even in the dark.
        sigma = cv2.sqrt(cv2.max(radiance, 0.0) * self.look.sensor.shot_noise + self.look.sensor.read_noise ** 2)
        return Exposure(radiance, sigma)

    def _shadows(self, img: np.ndarray, pieces: list[Piece]) -> None:
        """Darken the table under the pieces' soft shadows and where they touch it."""
        shadow = np.zeros((HEIGHT, WIDTH), np.uint8)
        contact = np.zeros((HEIGHT, WIDTH), np.uint8)
        width = self.look.pieces.hunter_size * TILE_WIDTH
        for piece in pieces:
            cast_shadow(self.painter, piece, self.tile_top, shadow)
            if not piece.flat:
                contact_shadow(self.painter, piece, 0.55 * (width if piece.key != "mammoth" else 0.6), contact)
        ppu = self.camera.pixels_per_unit
        soft, near = max(1.0, self.look.light.penumbra * ppu), max(1.0, 0.08 * ppu)
        x, y, w, h = cv2.boundingRect(cv2.bitwise_or(shadow, contact))
        if w == 0:
            return
        pad = int(3 * soft) + 2
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(WIDTH, x + w + pad), min(HEIGHT, y + h + pad)
        blurred = cv2.GaussianBlur(shadow[y0:y1, x0:x1], (0, 0), soft).astype(np.float32)
        touch = cv2.GaussianBlur(contact[y0:y1, x0:x1], (0, 0), near).astype(np.float32)
        dark = 1 - (0.85 * self.look.light.key_share * blurred + 0.3 * touch) / 255
        roi = img[y0:y1, x0:x1]
        roi[:] = cv2.multiply(roi, cv2.merge([dark, dark, dark]), dtype=cv2.CV_8U)

    # -- lens and sensor ---------------------------------------------------------------------------
    def _optics(self, radiance: np.ndarray) -> np.ndarray:
        """The phone's colour processing and the lens's blur (focus, shake), once per board."""
        s = self.look.sensor
        grey = np.array([0.114, 0.587, 0.299], np.float32)      # BGR weights of luma
        saturate = (1 - s.saturation) * np.tile(grey, (3, 1)) + s.saturation * np.eye(3, dtype=np.float32)
        radiance = cv2.transform(radiance, saturate)
        radiance = cv2.GaussianBlur(radiance, (0, 0), s.blur_sigma)
        if s.motion_px > 0:
            n = int(math.ceil(s.motion_px)) * 2 + 1
            kernel = np.zeros((n, n), np.float32)
            d = np.array([math.cos(math.radians(s.motion_deg)), math.sin(math.radians(s.motion_deg))]) * s.motion_px / 2
            ends = [(int(round(n // 2 - d[0])), int(round(n // 2 - d[1]))),
                    (int(round(n // 2 + d[0])), int(round(n // 2 + d[1])))]
            cv2.line(kernel, ends[0], ends[1], 1.0, 1, cv2.LINE_AA)
            radiance = cv2.filter2D(radiance, -1, kernel / kernel.sum())
        return radiance

    def shoot(self, exposure: "Exposure", name: str, index: int) -> Frame:
        """One frame of a board: its own sensor noise, the phone's processing, JPEG."""
        s = self.look.sensor
        cv2.setRNGSeed((self.seed * 100_003 + index) & 0x7FFFFFFF)
        noise = np.empty_like(exposure.radiance)
        cv2.randn(noise, 0.0, 1.0)
        blotches = np.empty((HEIGHT // 8, WIDTH // 8, 3), np.float32)
        cv2.randn(blotches, 0.0, s.chroma_noise)
        img = cv2.add(cv2.add(exposure.radiance, cv2.multiply(noise, exposure.sigma)),
                      cv2.resize(blotches, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR))
        img = cv2.LUT(np.clip(img, 0, 255, out=img).astype(np.uint8), self.lut)
        if s.sharpen > 0:
            img = cv2.addWeighted(img, 1 + s.sharpen, cv2.GaussianBlur(img, (0, 0), 1.2), -s.sharpen, 0)
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, s.jpeg_quality])
        if not ok:
            raise RuntimeError("OpenCV could not encode a JPEG")
        return Frame(name, data.tobytes())

    def cell_pixel(self, cell: str) -> tuple[float, float]:
        (p,), _ = self.camera.project(np.array([[*pixel_of(CELL_NAMES.index(cell), 1.0), self.tile_top]]))
        return (float(p[0]), float(p[1]))


def _centre(cell: str) -> np.ndarray:
    return np.array(pixel_of(CELL_NAMES.index(cell), 1.0))


def _scatter(rng: np.random.Generator, radius: float) -> np.ndarray:
    """A point within ``radius`` of the origin: where a hand sets a piece down near its aim."""
    r, a = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
    return np.array([r * math.cos(a), r * math.sin(a)])


def _box_of(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) around a mask's set pixels, or None when there are none."""
    x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
    return None if w == 0 else (x, y, x + w, y + h)
