"""Pieces under the camera: projection, shading, soft shadows, and what stays in view.

Each primitive of :mod:`sim.tabletop.pieces` becomes a :class:`Mark`, something to paint
on the frame (and to paint into a mask: a piece's pixels, for the shadows it must not
darken and for how much of it stays in view). Shading is Lambert's plus a highlight
for glossy pieces, from the same lamp that lights the table; the factors are relative
to the table top's own lighting, which the light field applies to the whole frame.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from .lens import HEIGHT, WIDTH, Camera
from .pieces import UP, Ball, Dome, Facet, Piece, Ring, Rod, circle

_SHIFT = 4
_ONE = 1 << _SHIFT


def _fixed(px: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(px) * _ONE).astype(np.int32).reshape(-1, 2)


def _box(px: np.ndarray, pad: int = 2) -> tuple[int, int, int, int] | None:
    """The integer box around pixels, clipped to the frame (x0, y0, x1, y1), or None."""
    x0, y0 = np.floor(px.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, WIDTH), min(y1, HEIGHT)
    return None if x1 <= x0 or y1 <= y0 else (int(x0), int(y0), int(x1), int(y1))


@dataclass
class Mark:
    """One primitive as projected: its depth, its pixel box, how to paint it and how to
    mask it (``mask(buffer, value, origin)`` draws relative to ``origin``, the buffer's corner)."""
    depth: float
    box: np.ndarray                    # (x0, y0, x1, y1) pixels, not clipped
    paint: Callable[[np.ndarray], None]
    mask: Callable[[np.ndarray, int, tuple[int, int]], None]


def _poly_mark(depth: float, px: np.ndarray, paint: Callable[[np.ndarray], None], contours=None) -> Mark:
    pts = contours if contours is not None else [_fixed(px)]

    def mask(buf, value, origin=(0, 0)):
        shift = np.array(origin, np.int32) * _ONE
        cv2.fillPoly(buf, [p - shift for p in pts], value, cv2.LINE_8, _SHIFT)

    return Mark(depth, np.concatenate([px.min(axis=0), px.max(axis=0)]), paint, mask)


def _disc_mark(depth: float, centre, radius: float, paint: Callable[[np.ndarray], None]) -> Mark:
    def mask(buf, value, origin=(0, 0)):
        _disc(buf, np.asarray(centre) - origin, radius, value)

    return Mark(depth, np.array([centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius]),
                paint, mask)


class Painter:
    """Projects and shades pieces for one table's camera and lamp."""

    def __init__(self, camera: Camera, lamp, key_share: float):
        self.camera = camera
        self.lamp = np.array([lamp[0], lamp[1], -lamp[2]], np.float64)
        self.key = key_share

    # -- light ------------------------------------------------------------------------------------
    def shading(self, normal, point, gloss: float) -> tuple[float, float]:
        """(diffuse factor, highlight) of a surface relative to the table top at ``point``."""
        n = np.asarray(normal, np.float64)
        to_lamp = self.lamp - point
        to_lamp /= np.linalg.norm(to_lamp)
        table = (1 - self.key) + self.key * max(0.0, float(to_lamp @ UP))
        face = (1 - self.key) * (0.6 + 0.4 * float(n @ UP)) + self.key * max(0.0, float(n @ to_lamp))
        view = self.camera.centre - point
        half = to_lamp + view / np.linalg.norm(view)
        spec = gloss * max(0.0, float(n @ half) / np.linalg.norm(half)) ** 30 * self.key
        return face / table, spec / table

    def _colour(self, colour, normal, point, gloss) -> tuple:
        diffuse, spec = self.shading(normal, point, gloss)
        return tuple(float(min(255.0, c * diffuse + 235 * spec)) for c in colour)

    # -- marks ----------------------------------------------------------------------------------
    def marks(self, piece: Piece) -> list[Mark]:
        """The piece's marks in painting order (group by group, far to near); hidden faces left out."""
        out = []
        for group in piece.groups:
            facets = [p for p in group if isinstance(p, Facet)]
            marks = self._facets(facets) if facets else []
            marks += [m for prim in group if not isinstance(prim, Facet) for m in self._mark(prim)]
            out += sorted(marks, key=lambda m: -m.depth)
        return out

    def _mark(self, prim) -> list[Mark]:
        if isinstance(prim, Ball):
            return [self._ball(prim)]
        if isinstance(prim, Dome):
            return [self._dome(prim)]
        if isinstance(prim, Ring):
            return self._ring(prim)
        return [self._rod(prim)]

    def _facets(self, facets: list[Facet]) -> list[Mark]:
        """Flat faces, projected together; those turned away from the camera left out."""
        counts = [len(f.points) for f in facets]
        px, depth = self.camera.project(np.concatenate([f.points for f in facets]))
        ends = np.cumsum(counts)
        marks = []
        for f, end, n in zip(facets, ends, counts):
            middle = f.points.mean(axis=0)
            normal = f.normal
            if normal @ (self.camera.centre - middle) <= 0:
                if not f.two_sided:
                    continue
                normal = -normal
            quad, d = px[end - n:end], float(depth[end - n:end].mean())
            if f.decal is None:
                colour = self._colour(f.colour, normal, middle, f.gloss)
                pts = _fixed(quad)
                marks.append(_poly_mark(d, quad, lambda img, pts=pts, c=colour:
                                        cv2.fillPoly(img, [pts], c, cv2.LINE_AA, _SHIFT)))
            else:
                diffuse, spec = self.shading(normal, middle, f.gloss)
                marks.append(_poly_mark(d, quad, lambda img, q=quad, f=f, a=diffuse, b=spec:
                                        _print(img, f.decal, q, a, b)))
        return marks

    def _radius_px(self, centre, radius: float) -> float:
        side = self.camera.rotation[:, 0] * radius
        px, _ = self.camera.project(np.array([centre, centre + side]))
        return float(np.linalg.norm(px[1] - px[0]))

    def _in_camera(self, v) -> np.ndarray:
        v = np.asarray(v, np.float64)
        return (v / np.linalg.norm(v)) @ self.camera.rotation

    def _ball(self, b: Ball) -> Mark:
        (c,), (depth,) = self.camera.project(b.centre[None])
        r = self._radius_px(b.centre, b.radius)
        light = self._in_camera(self.lamp - b.centre)
        to_lamp = (self.lamp - b.centre) / np.linalg.norm(self.lamp - b.centre)
        table = (1 - self.key) + self.key * max(0.0, float(to_lamp @ UP))
        up = self._in_camera(UP)
        return _disc_mark(float(depth - b.radius), c, r,
                          lambda img: _shade_sphere(img, c, r, b.colour, light, up, self.key, b.gloss, table))

    def _dome(self, d: Dome) -> Mark:
        middle = d.centre + UP * d.height * 0.45
        (c,), (depth,) = self.camera.project(middle[None])
        r = self._radius_px(middle, d.radius)
        light = self._in_camera(self.lamp - middle)
        return _disc_mark(float(depth), c, r, lambda img: _glass(img, c, r, d.colour, light))

    def _rod(self, rod: Rod) -> Mark:
        px, depth = self.camera.project(rod.points)
        width = max(1, int(round(self._radius_px(rod.points.mean(axis=0), rod.width))))
        colour = self._colour(rod.colour, UP, rod.points.mean(axis=0), 0.0)
        pts = _fixed(px)

        def mask(buf, value, origin=(0, 0)):
            cv2.polylines(buf, [pts - np.array(origin, np.int32) * _ONE], False, value, width, cv2.LINE_8, _SHIFT)

        return Mark(float(depth.min()), np.concatenate([px.min(axis=0) - width, px.max(axis=0) + width]),
                    lambda img: cv2.polylines(img, [pts], False, colour, width, cv2.LINE_AA, _SHIFT), mask)

    def _ring(self, ring: Ring) -> list[Mark]:
        """A ring lying flat: its outer wall, the inner wall seen through the hole, its top."""
        walls = []
        for radius, sign in ((ring.outer, 1.0), (ring.inner, -1.0)):
            pts = np.column_stack([circle(radius), np.zeros(28)]) + ring.centre
            up = pts + UP * ring.height
            for i in range(len(pts)):
                j = (i + 1) % len(pts)
                normal = sign * ((pts[i] + pts[j]) / 2 - ring.centre)
                walls.append(Facet(np.array([pts[i], pts[j], up[j], up[i]]), ring.colour,
                                   normal / np.linalg.norm(normal), ring.gloss))
        top = np.column_stack([np.concatenate([circle(ring.outer), circle(ring.inner)]), np.zeros(56)])
        px, depth = self.camera.project(top + ring.centre + UP * ring.height)
        colour = self._colour(ring.colour, UP, ring.centre, ring.gloss)
        contours = [_fixed(px[:28]), _fixed(px[28:])]
        # The top goes on last whatever the walls' depths: only through its hole is a wall seen.
        cover = _poly_mark(float(depth.min()) - 1e3, px,
                           lambda img: cv2.fillPoly(img, contours, colour, cv2.LINE_AA, _SHIFT), contours)
        return self._facets(walls) + [cover]


# -- painting helpers -------------------------------------------------------------------------------

def _disc(buf: np.ndarray, centre, radius: float, value) -> None:
    cv2.circle(buf, tuple(_fixed(centre)[0]), max(1, int(round(radius * _ONE))), value, -1, cv2.LINE_8, _SHIFT)


def _print(img: np.ndarray, decal: np.ndarray, quad: np.ndarray, diffuse: float, spec: float) -> None:
    """A printed picture (BGRA) on a projected four-cornered face, in its light."""
    box = _box(quad)
    if box is None:
        return
    x0, y0, x1, y1 = box
    h, w = decal.shape[:2]
    src = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
    m = cv2.getPerspectiveTransform(src, np.float32(quad - (x0, y0)))
    warped = cv2.warpPerspective(decal, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32)
    a = warped[..., 3:] / 255
    colour = np.minimum(warped[..., :3] * diffuse + 235 * spec, 255)
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - a) + colour * a).astype(np.uint8)


def _sphere_normals(centre, radius: float):
    """Per pixel of a projected sphere's box: the box, coverage, and unit normals (camera frame)."""
    box = _box(np.array([centre]) + np.array([[-radius, -radius], [radius, radius]]))
    if box is None:
        return None
    x0, y0, x1, y1 = box
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    dx, dy = (xx + 0.5 - centre[0]) / radius, (yy + 0.5 - centre[1]) / radius
    d2 = dx * dx + dy * dy
    cover = np.clip((1 - np.sqrt(d2)) * radius + 0.5, 0, 1)
    nz = -np.sqrt(np.clip(1 - d2, 0, 1))          # towards the camera
    return box, cover, np.stack([dx, dy, nz], axis=-1) * (d2 < 1)[..., None]


def _shade_sphere(img, centre, radius, colour, light, up, key, gloss, table) -> None:
    got = _sphere_normals(centre, radius)
    if got is None:
        return
    (x0, y0, x1, y1), cover, n = got
    lambert = np.clip(n @ light, 0, None)
    ambient = 0.6 + 0.4 * (n @ up)
    diffuse = ((1 - key) * ambient + key * lambert) / table
    half = light + np.array([0.0, 0.0, -1.0])
    half /= np.linalg.norm(half)
    spec = gloss * np.clip(n @ half, 0, None) ** 30 * key / table
    shaded = np.clip(np.array(colour, np.float32) * diffuse[..., None] + 235 * spec[..., None], 0, 255)
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - cover[..., None]) + shaded * cover[..., None]).astype(np.uint8)


def _glass(img, centre, radius, colour, light) -> None:
    """A flat glass bead: the tile seen through it, magnified and tinted, darker at the rim
    where the glass mirrors the room, a glint on top and the light it gathers thrown
    bright on its far side."""
    got = _sphere_normals(centre, radius)
    if got is None:
        return
    (x0, y0, x1, y1), cover, n = got
    roi = img[y0:y1, x0:x1]
    lens = cv2.getRotationMatrix2D((float(centre[0] - x0), float(centre[1] - y0)), 0, 1 / 1.2)
    seen = cv2.warpAffine(roi, lens, (x1 - x0, y1 - y0), borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    tint = np.array(colour, np.float32) / 255
    depth = -n[..., 2:]
    through = seen * (0.3 + 0.7 * tint) * (0.5 + 0.5 * np.sqrt(depth))
    mirror = (1 - depth) ** 3 * 70
    half = light + np.array([0.0, 0.0, -1.0])
    half /= np.linalg.norm(half)
    glint = np.clip(n @ half, 0, None)[..., None] ** 60 * 255
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    away = centre - light[:2] * radius * 0.45
    caustic = np.exp(-((xx - away[0]) ** 2 + (yy - away[1]) ** 2) / (2 * (0.25 * radius) ** 2))[..., None]
    shaded = np.clip(through + mirror + glint + caustic * (50 + 150 * tint), 0, 255)
    roi[:] = (roi * (1 - cover[..., None]) + shaded * cover[..., None]).astype(np.uint8)


# -- shadows -----------------------------------------------------------------------------------------

def _outline_points(prim) -> np.ndarray:
    """Points whose shadows outline a primitive's shadow."""
    if isinstance(prim, Facet):
        return prim.points
    if isinstance(prim, Rod):
        return prim.points
    if isinstance(prim, Ball):
        ring = np.column_stack([circle(prim.radius, 12), np.zeros(12)])
        tilted = np.column_stack([circle(prim.radius, 12)[:, 0], np.zeros(12), circle(prim.radius, 12)[:, 1]])
        return np.concatenate([ring, tilted, tilted[:, [1, 0, 2]]]) + prim.centre
    if isinstance(prim, Dome):
        ring = np.column_stack([circle(prim.radius, 16), np.zeros(16)]) + prim.centre
        return np.concatenate([ring, ring + UP * prim.height * 0.7 - (ring - prim.centre) * 0.4])
    pts = np.column_stack([circle(prim.outer, 20), np.zeros(20)]) + prim.centre
    return np.concatenate([pts, pts + UP * prim.height])


def cast_shadow(painter: Painter, piece: Piece, plane: float, buf: np.ndarray) -> None:
    """Fill the shadow ``piece`` throws from the lamp onto the plane at height ``plane``."""
    lamp = painter.lamp
    for prim in piece.primitives():
        pts = _outline_points(prim)
        s = (plane - lamp[2]) / np.maximum(pts[:, 2] - lamp[2], 1e-6)
        ground = lamp + s[:, None] * (pts - lamp)
        hull = cv2.convexHull(ground[:, :2].astype(np.float32)).reshape(-1, 2)
        px, _ = painter.camera.project(np.column_stack([hull, np.full(len(hull), plane)]))
        cv2.fillPoly(buf, [_fixed(px)], 255, cv2.LINE_AA, _SHIFT)


def contact_shadow(painter: Painter, piece: Piece, radius: float, buf: np.ndarray) -> None:
    """The dark rim where a piece meets the table: no light reaches under its edge."""
    ring = np.column_stack([circle(radius, 20), np.zeros(20)]) + piece.base
    px, _ = painter.camera.project(ring)
    cv2.fillPoly(buf, [_fixed(px)], 255, cv2.LINE_AA, _SHIFT)


def visible_share(marks_by_piece: list[list[Mark]]) -> list[float]:
    """How much of each piece (painted in this order) is left in view, from 0 to 1."""
    boxes = [np.concatenate([np.min([m.box[:2] for m in marks], axis=0), np.max([m.box[2:] for m in marks], axis=0)])
             for marks in marks_by_piece if marks]
    if not boxes:
        return [0.0] * len(marks_by_piece)
    x0, y0 = np.floor(np.min(boxes, axis=0)[:2]).astype(int) - 2
    x1, y1 = np.ceil(np.max(boxes, axis=0)[2:]).astype(int) + 2
    ids = np.zeros((y1 - y0, x1 - x0), np.uint8)
    alone = []
    for k, marks in enumerate(marks_by_piece, start=1):
        if not marks:
            alone.append(0)
            continue
        bx0, by0 = np.floor(np.min([m.box[:2] for m in marks], axis=0)).astype(int) - 2
        bx1, by1 = np.ceil(np.max([m.box[2:] for m in marks], axis=0)).astype(int) + 2
        own = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        for mark in marks:
            mark.mask(ids, k, (x0, y0))
            mark.mask(own, 1, (bx0, by0))
        alone.append(int(np.count_nonzero(own)))
    counts = np.bincount(ids.ravel(), minlength=len(marks_by_piece) + 1)
    return [float(counts[k] / a) if a else 0.0 for k, a in enumerate(alone, start=1)]
