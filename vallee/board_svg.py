"""The valley drawn as a standalone SVG from a :class:`~vallee.board.Valley`.

Terrain as fills, rivers as thick lines on the cell edges they follow with their number
once per river, the lake, each land cell's region number, the eighteen edge letters,
volcanoes and the cells their lava reaches (hatched), and the compass rose (die face →
direction). Cell names (``q,r``) are drawn hidden; the page shows them with a toggle
(CSS class ``show-names`` on the drawing's container).

Like :mod:`companion_web.board_svg`, the drawing uses presentation attributes only (no
``style``, no script) so that it obeys the page's strict Content-Security-Policy and
renders the same when saved as a file. Everything people read has both languages: the
``<title>`` of a cell carries ``data-en`` and ``data-fr`` and the page shows the one of
the site's language setting (English when read outside the page). Text from a map file
(its title) is escaped.

>>> from vallee.board import sample_valley
>>> svg = render_valley(sample_valley())
>>> svg.startswith("<svg"), svg.count('class="cell '), svg.count('class="river-number"')
(True, 37, 3)
>>> svg.count('class="letter"'), svg.count('class="lava"'), svg.count('class="compass-face"')
(18, 3, 6)
>>> "<script" in render_valley(sample_valley(), caption="<script>")
False
"""

from __future__ import annotations

import math

from markupsafe import escape

from .board import Valley
from .core import DIRECTION_NAMES, LAKE, TERRAIN_FR, VOLCANO, Cell, cell_name, direction_step, neighbours_of

#: Hexagon circumradius in SVG units; the drawing scales to any screen by its viewBox.
SIZE = 40.0

TERRAIN_FILL = {"plain": "#e3d27a", "forest": "#2e6b34", "mountain": "#8c8177", "volcano": "#5a2f2a",
                "lake": "#2f7fc8"}
#: Text drawn on a terrain: dark on light fills, white on dark ones (contrast ≥ 4.5).
TERRAIN_INK = {"plain": "#1b1b1b", "forest": "#ffffff", "mountain": "#111111", "volcano": "#ffffff",
               "lake": "#ffffff"}
RIVER_COLOUR = "#0b4fa8"
LAVA_COLOUR = "#ff5a1f"
DIRECTION_EN = {"E": "east", "W": "west", "N": "north", "S": "south", "NE": "north-east", "NW": "north-west",
                "SE": "south-east", "SW": "south-west"}
DIRECTION_FR = {"E": "est", "W": "ouest", "N": "nord", "S": "sud", "NE": "nord-est", "NW": "nord-ouest",
                "SE": "sud-est", "SW": "sud-ouest"}


def centre(orientation: str, cell: Cell, size: float = SIZE) -> tuple[float, float]:
    """Pixel centre of an axial cell (``r`` grows southward, north up, never mirrored).

    >>> centre("pointy", (0, 1)), centre("flat", (1, 0))
    ((34.64, 60.0), (60.0, 34.64))
    """
    q, r = cell
    if orientation == "pointy":
        x, y = size * math.sqrt(3) * (q + r / 2), size * 1.5 * r
    else:
        x, y = size * 1.5 * q, size * math.sqrt(3) * (r + q / 2)
    return round(x, 2), round(y, 2)


def corners(orientation: str, x: float, y: float, radius: float) -> list[tuple[float, float]]:
    start = -30 if orientation == "pointy" else 0
    return [(round(x + radius * math.cos(math.radians(start + 60 * k)), 2),
             round(y + radius * math.sin(math.radians(start + 60 * k)), 2)) for k in range(6)]


def edge_line(orientation: str, a: Cell, b: Cell, size: float = SIZE) -> tuple[float, float, float, float]:
    """The two ends of the edge two adjacent cells share: centred between them, across
    the line joining them, one side of the hexagon long."""
    (xa, ya), (xb, yb) = centre(orientation, a, size), centre(orientation, b, size)
    mx, my, dx, dy = (xa + xb) / 2, (ya + yb) / 2, xb - xa, yb - ya
    length = math.hypot(dx, dy)
    px, py = -dy / length * size / 2, dx / length * size / 2
    return round(mx - px, 2), round(my - py, 2), round(mx + px, 2), round(my + py, 2)


def _points(points) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def _title(en: str, fr: str) -> str:
    return f'<title data-en="{escape(en)}" data-fr="{escape(fr)}">{escape(en)}</title>'


def _cell_title(valley: Valley, cell: Cell) -> tuple[str, str]:
    terrain, name = valley.terrain[cell], cell_name(cell)
    en, fr = [terrain], [TERRAIN_FR[terrain]]
    if cell in valley.region:
        en.append(f"region {valley.region[cell]}")
        fr.append(f"région {valley.region[cell]}")
    if cell in valley.letter:
        en.append(f"letter {valley.letter[cell]}")
        fr.append(f"lettre {valley.letter[cell]}")
    lava_of = [v for v, lava in valley.volcanoes.items() if cell in lava]
    if lava_of:
        en.append("lava of " + ", ".join(cell_name(v) for v in lava_of))
        fr.append("lave de " + ", ".join(cell_name(v) for v in lava_of))
    return " · ".join(en + [name]), " · ".join(fr + [name])


def _cell(valley: Valley, cell: Cell, lava: set) -> str:
    o, terrain, name = valley.orientation, valley.terrain[cell], cell_name(cell)
    x, y = centre(o, cell)
    ink = TERRAIN_INK[terrain]
    en, fr = _cell_title(valley, cell)
    parts = [f'<g class="cell t-{terrain}" data-cell="{name}" data-terrain="{terrain}">', _title(en, fr),
             f'<polygon points="{_points(corners(o, x, y, SIZE - 0.5))}" fill="{TERRAIN_FILL[terrain]}" '
             f'stroke="#1a1a1a" stroke-width="1.5"/>']
    if cell in lava:
        parts.append(f'<polygon class="lava" points="{_points(corners(o, x, y, SIZE - 6))}" fill="url(#lava-hatch)" '
                     f'stroke="{LAVA_COLOUR}" stroke-width="3" stroke-dasharray="6 4"/>')
    if terrain == VOLCANO:
        parts.append(f'<polygon class="volcano" points="{x - 11},{y + 1} {x},{y - 17} {x + 11},{y + 1}" '
                     f'fill="{LAVA_COLOUR}" stroke="#fff" stroke-width="1.5"/>')
    if terrain == LAKE:
        parts.append(f'<path class="waves" d="M{x - 14},{y - 4} q7,-6 14,0 t14,0 M{x - 14},{y + 6} q7,-6 14,0 t14,0" '
                     f'fill="none" stroke="#d8ecff" stroke-width="2"/>')
    if cell in valley.region:
        parts.append(f'<text class="region" x="{x}" y="{y + 16 if terrain == VOLCANO else y + 8}" '
                     f'text-anchor="middle" font-size="{17 if terrain == VOLCANO else 22}" font-weight="bold" '
                     f'fill="{ink}">{valley.region[cell]}</text>')
    if cell in valley.letter:
        ly = y - 23
        parts.append(f'<g class="letter"><circle cx="{x}" cy="{ly}" r="12" fill="#fffbe6" stroke="#111" '
                     f'stroke-width="1.5"/><text x="{x}" y="{ly + 6}" text-anchor="middle" font-size="17" '
                     f'font-weight="bold" fill="#111">{escape(valley.letter[cell])}</text></g>')
    parts.append(f'<text class="cell-name" x="{x}" y="{y + 31}" text-anchor="middle" font-size="12" '
                 f'fill="{ink}" visibility="hidden">{name}</text>')
    parts.append("</g>")
    return "".join(parts)


def _rivers(valley: Valley) -> list[str]:
    out = []
    for number in sorted(valley.rivers):
        river = valley.rivers[number]
        edges = sorted((tuple(sorted(e)) for e in river.edges if len(e) == 2 and all(c in valley.terrain for c in e)))
        if not edges:
            continue
        lines = "".join(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>'
                        for x1, y1, x2, y2 in (edge_line(valley.orientation, a, b) for a, b in edges))
        out.append(f'<g class="river" data-river="{number}" stroke="{RIVER_COLOUR}" stroke-width="7" '
                   f'stroke-linecap="round">{_title(f"river {number}", f"rivière {number}")}{lines}</g>')
        x1, y1, x2, y2 = edge_line(valley.orientation, *edges[len(edges) // 2])
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        out.append(f'<g class="river-number"><circle cx="{mx:.2f}" cy="{my:.2f}" r="11" fill="#ffffff" '
                   f'stroke="{RIVER_COLOUR}" stroke-width="3"/><text x="{mx:.2f}" y="{my + 5:.2f}" '
                   f'text-anchor="middle" font-size="14" font-weight="bold" fill="{RIVER_COLOUR}">{number}</text></g>')
    return out


def _edge_targets(valley: Valley) -> list[str]:
    """Wide invisible strokes on every edge between two land cells, for the editor's clicks."""
    out, seen = [], set()
    for cell in valley.cells:
        for other in neighbours_of(cell):
            if other not in valley.terrain or LAKE in (valley.terrain[cell], valley.terrain[other]):
                continue
            pair = tuple(sorted((cell, other)))
            if pair in seen:
                continue
            seen.add(pair)
            x1, y1, x2, y2 = edge_line(valley.orientation, *pair)
            out.append(f'<line class="edge-hit" data-edge="{cell_name(pair[0])}|{cell_name(pair[1])}" '
                       f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#ffffff" stroke-opacity="0" '
                       f'stroke-width="12" stroke-linecap="round"/>')
    return out


def _compass(valley: Valley, cx: float, cy: float) -> str:
    parts = [f'<g class="compass">{_title("compass rose: die face to direction", "rose des vents : face du dé vers direction")}',
             f'<circle cx="{cx}" cy="{cy}" r="49" fill="#fffbe6" stroke="#111" stroke-width="1.5"/>']
    for face in range(1, 7):
        direction = valley.compass.get(face)
        if direction not in DIRECTION_NAMES[valley.orientation]:
            continue
        sx, sy = centre(valley.orientation, direction_step(valley.orientation, direction), 1.0)
        length = math.hypot(sx, sy)
        ux, uy = sx / length, sy / length
        parts.append(f'<line x1="{cx}" y1="{cy}" x2="{cx + 26 * ux:.2f}" y2="{cy + 26 * uy:.2f}" stroke="#111" '
                     f'stroke-width="2"/>')
        parts.append(f'<text class="compass-face" data-face="{face}" data-direction="{direction}" '
                     f'x="{cx + 37 * ux:.2f}" y="{cy + 37 * uy + 6:.2f}" text-anchor="middle" font-size="17" '
                     f'font-weight="bold" fill="#111">{face}</text>')
    parts.append(f'<circle cx="{cx}" cy="{cy}" r="4" fill="#111"/></g>')
    return "".join(parts)


def frame(valley: Valley) -> tuple[float, float, float, float, float, float]:
    """The drawing's box (left, top, width, height) and where the rose sits."""
    o = valley.orientation
    xs, ys = zip(*(centre(o, c) for c in valley.cells)) if valley.cells else ((0.0,), (0.0,))
    pad = SIZE + 6
    left, top, right, bottom = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    # the rose sits in the lower right corner, beside the board rather than over it
    rose_x, rose_y = right - 10, bottom - 10
    right, bottom = right + 50, bottom + 40
    return left, top, right - left, bottom - top, rose_x, rose_y


def render_valley(valley: Valley, *, editor: bool = False, caption: str = "") -> str:
    """The whole valley as one ``<svg>``; ``editor`` adds the clickable cell edges."""
    left, top, width, height, rose_x, rose_y = frame(valley)
    lava = {c for cells in valley.volcanoes.values() for c in cells}
    label = caption or (valley.title.get("en") if isinstance(valley.title, dict) else "") or valley.name
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="valley-board" viewBox="{left:.1f} {top:.1f} '
             f'{width:.1f} {height:.1f}" role="img" aria-label="{escape(label)}">',
             '<defs><pattern id="lava-hatch" patternUnits="userSpaceOnUse" width="8" height="8" '
             'patternTransform="rotate(45)"><rect width="8" height="8" fill="none"/>'
             f'<line x1="0" y1="0" x2="0" y2="8" stroke="{LAVA_COLOUR}" stroke-width="3"/></pattern></defs>']
    parts.extend(_cell(valley, c, lava) for c in valley.cells)
    parts.extend(_rivers(valley))
    if editor:
        parts.extend(_edge_targets(valley))
    parts.append(_compass(valley, rose_x, rose_y))
    parts.append("</svg>")
    return "".join(parts)


def legend() -> list[dict]:
    """What the drawing's marks mean, in both languages, for the page's legend.

    >>> [item["key"] for item in legend()][:3]
    ['plain', 'forest', 'mountain']
    """
    items = [{"key": t, "fill": TERRAIN_FILL[t], "en": t, "fr": TERRAIN_FR[t]} for t in TERRAIN_FILL]
    items += [
        {"key": "river", "fill": RIVER_COLOUR, "en": "river (its number in a white disc)",
         "fr": "rivière (son numéro dans un disque blanc)"},
        {"key": "lava", "fill": LAVA_COLOUR, "en": "cell the lava reaches (hatched)",
         "fr": "case atteinte par la lave (hachurée)"},
        {"key": "letter", "fill": "#fffbe6", "en": "edge letter: where a drawn animal token enters",
         "fr": "lettre du bord : où entre un pion animal tiré"},
        {"key": "region", "fill": "#ffffff", "en": "big number: the cell's region (1–6 per terrain)",
         "fr": "grand chiffre : la région de la case (1 à 6 par terrain)"},
        {"key": "compass", "fill": "#fffbe6", "en": "compass rose: the die face that sends the animals that way",
         "fr": "rose des vents : la face du dé qui envoie les animaux de ce côté"},
    ]
    return items


def direction_words(direction: str) -> dict:
    return {"en": DIRECTION_EN.get(direction, direction), "fr": DIRECTION_FR.get(direction, direction)}


#: Each species' mark on the board: a short name and a fill (the names are in the titles).
SPECIES_MARK = {"wolf": ("Wo", "#6b6b6b"), "tiger": ("Ti", "#e07b16"), "bear": ("Be", "#6b3e1f"),
                "bison": ("Bi", "#3d2b1f"), "rhino": ("Rh", "#5b6770"), "mammoth": ("Ma", "#7a4a2a")}
SPECIES_FR = {"wolf": "loup", "tiger": "tigre", "bear": "ours", "bison": "bison", "rhino": "rhinocéros",
              "mammoth": "mammouth"}


DASHED = ' stroke-dasharray="3 2"'


def _ink(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def render_pieces(valley: Valley, state: dict, colours: dict) -> str:
    """The pieces of a game (``vallee.game_view.view``'s JSON) as an ``<svg>`` of the same
    box as :func:`render_valley`, laid over it: fields, markers, camps, animals and herds
    with their counts, each tribe's warriors and women per cell.

    >>> from vallee.board import sample_valley
    >>> state = {"tribes": {"red": {"pawns": {"0,0": [3, 1]}, "camps": {"0,0": "village"}, "fire": True}},
    ...          "animals": [{"species": "wolf", "cell": "1,0", "count": 2}], "neutrals": [],
    ...          "fields": {"0,0": {"state": "intact"}}, "markers": {"flooded": ["0,1"], "burning": []}}
    >>> svg = render_pieces(sample_valley(), state, {"red": "#d7263d"})
    >>> svg.count('class="tribe"'), svg.count('class="herd"'), svg.count('class="camp"'), 'data-count="2"' in svg
    (1, 1, 1, True)
    """
    left, top, width, height, _, _ = frame(valley)
    o = valley.orientation
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="valley-pieces" viewBox="{left:.1f} {top:.1f} '
             f'{width:.1f} {height:.1f}" role="img" aria-label="pieces / pions">']

    def at(name: str) -> tuple[float, float] | None:
        try:
            cell = tuple(int(v) for v in name.split(","))
        except ValueError:
            return None
        return centre(o, cell) if cell in valley.terrain else None

    markers = state.get("markers") or {}
    for kind, fill in (("flooded", "#5fb3ff"), ("burning", "#ff7b1f"), ("closed", "#cccccc")):
        for name in markers.get(kind, []):
            if (xy := at(name)):
                parts.append(f'<polygon class="marker marker-{kind}" data-cell="{name}" points="'
                             f'{_points(corners(o, xy[0], xy[1], SIZE - 4))}" fill="{fill}" fill-opacity="0.45"/>')
    for name, field in (state.get("fields") or {}).items():
        if (xy := at(name)):
            damaged = field.get("state") == "damaged"
            parts.append(f'<g class="field" data-cell="{name}">{_title("field" + (" (damaged)" if damaged else ""), "champ" + (" (abîmé)" if damaged else ""))}'
                         f'<rect x="{xy[0] - 30:.1f}" y="{xy[1] - 6:.1f}" width="14" height="14" fill="#7ac143" '
                         f'stroke="#1b1b1b" stroke-width="1.5"{DASHED if damaged else ""}/></g>')
    for player, tribe in (state.get("tribes") or {}).items():
        fill = colours.get(player, "#ffffff")
        for name, camp in (tribe.get("camps") or {}).items():
            if (xy := at(name)):
                x, y = xy[0] + 18, xy[1] - 20
                fr = "village" if camp == "village" else "grotte"
                parts.append(f'<g class="camp" data-cell="{name}" data-player="{escape(player)}">'
                             f'{_title(f"{player}: {camp}", f"{player} : {fr}")}'
                             f'<polygon points="{x - 10},{y + 8} {x},{y - 8} {x + 10},{y + 8}" fill="{fill}" '
                             f'stroke="#111" stroke-width="2"/></g>')
    for i, (player, tribe) in enumerate((state.get("tribes") or {}).items()):
        fill = colours.get(player, "#ffffff")
        for name, (w, f) in (tribe.get("pawns") or {}).items():
            if not (xy := at(name)):
                continue
            here = [p for p, t in state["tribes"].items() if name in (t.get("pawns") or {})]
            k = here.index(player)
            x, y = xy[0] - 22 + 22 * (k % 3) - (11 * (len(here) - 1) if len(here) < 3 else 0) + 11, xy[1] + 14 - 13 * (k // 3)
            parts.append(f'<g class="tribe" data-cell="{name}" data-player="{escape(player)}" data-warriors="{w}" '
                         f'data-women="{f}">{_title(f"{player}: {w} warrior(s), {f} woman/women", f"{player} : {w} guerrier(s), {f} femme(s)")}'
                         f'<rect x="{x - 14:.1f}" y="{y - 9:.1f}" width="28" height="18" rx="4" fill="{fill}" '
                         f'stroke="#111" stroke-width="1.5"/><text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" '
                         f'font-size="13" font-weight="bold" fill="{_ink(fill)}">{w}·{f}</text></g>')
    animals: dict = {}
    for a in state.get("animals") or []:
        animals.setdefault(a["cell"], []).append(a)
    for name, units in animals.items():
        if not (xy := at(name)):
            continue
        for k, a in enumerate(units):
            mark, fill = SPECIES_MARK.get(a["species"], ("?", "#444444"))
            x, y = xy[0] - 14 + 20 * (k % 2), xy[1] - 14 - 18 * (k // 2)
            count = a["count"]
            label = f"{count} {a['species']}" + (" (herd)" if count > 1 else "")
            label_fr = f"{count} {SPECIES_FR.get(a['species'], a['species'])}" + (" (troupeau)" if count > 1 else "")
            parts.append(f'<g class="{"herd" if count > 1 else "animal"}" data-cell="{name}" data-species="{a["species"]}" '
                         f'data-count="{count}">{_title(label, label_fr)}'
                         f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="{fill}" stroke="#fff" stroke-width="1.5"/>'
                         f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="10" font-weight="bold" '
                         f'fill="#ffffff">{mark}{count if count > 1 else ""}</text></g>')
    for n in state.get("neutrals") or []:
        if (xy := at(n["cell"])):
            parts.append(f'<g class="neutral" data-cell="{n["cell"]}">{_title("lone " + n["sex"], "solitaire")}'
                         f'<circle cx="{xy[0] + 20:.1f}" cy="{xy[1] + 8:.1f}" r="7" fill="#ffffff" stroke="#111" '
                         f'stroke-width="2"/></g>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["render_valley", "render_pieces", "frame", "legend", "centre", "edge_line", "SIZE"]
