"""The board drawn as a standalone SVG from a contract-JSON position.

The geometry is the engine's (``engine.hexgrid.pixel_of``): pointy-top hexagons, north
up, east to the right, seen from above and never mirrored. The SVG uses presentation
attributes only (no ``style`` attributes, no script), so it obeys the page's strict
Content-Security-Policy, renders the same when downloaded as a file and can be drawn
onto a canvas for the PNG export. Every piece of text from outside (player names,
reasons) is escaped.

>>> tiles = {name: "grass" for name in CELL_NAMES}
>>> tiles["0,0"] = "cross"
>>> svg = render_board({"tiles": tiles, "mammoth": "0,0", "players": ["A"],
...                     "hunters": {"A": "0,3"}, "traps": {}, "to_move": "A"})
>>> svg.startswith("<svg"), svg.count('class="cell"')
(True, 37)
>>> "<script" in render_board({"tiles": tiles, "mammoth": "0,0", "players": ["<script>"],
...                            "hunters": {"<script>": "0,3"}, "traps": {}})
False
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from markupsafe import escape

from engine.hexgrid import CELL_NAMES, parse_cell, pixel_of
from rulekit.players import default_colour, is_colour

#: Hexagon circumradius in SVG units; the drawing scales to any screen by its viewBox.
SIZE = 40.0

TILE_FILL = {"grass": "#8cc152", "snow": "#eef3f8", "cross": "#eef3f8", "rock": "#6f6a62"}
UNKNOWN_TILE_FILL = "#d0d0d0"

#: Hunter colours the setup wizard offers; the physical hunters come in these.
PALETTE = {
    "red": "#d7263d",
    "blue": "#1b6ec2",
    "yellow": "#f4c20d",
    "purple": "#7b3fa0",
    "orange": "#f08a24",
    "black": "#222222",
    "white": "#fafafa",
    "pink": "#e85d9b",
}
FLIGHT_COLOUR = "#8b1e0f"
LAST_MOVE_FILL = "#ffe14d"
LAST_MOVE_STROKE = "#f5b700"
ILLEGAL_COLOUR = "#e00000"


def _cell_xy(name, size: float = SIZE) -> tuple[float, float] | None:
    """Pixel centre of a ``"q,r"`` cell, or ``None`` when the name is not a board cell."""
    try:
        return pixel_of(parse_cell(name), size)
    except (ValueError, TypeError):
        return None


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def hexagon(cx: float, cy: float, size: float = SIZE) -> list[tuple[float, float]]:
    """Corners of a pointy-top hexagon, clockwise from the top."""
    return [(cx + size * math.cos(math.radians(-90 + 60 * i)),
             cy + size * math.sin(math.radians(-90 + 60 * i))) for i in range(6)]


def player_colours(players: Iterable[str], info: Mapping | None = None) -> dict[str, str]:
    """Colour of each player: the one chosen at setup, else a default by seat.

    >>> player_colours(["A", "B"], {"B": {"colour": "#00ff00"}})
    {'A': '#d7263d', 'B': '#00ff00'}
    >>> player_colours(["A"], {"A": {"colour": "red;} <x"}})
    {'A': '#d7263d'}
    """
    out = {}
    for seat, player in enumerate(players):
        chosen = ((info or {}).get(player) or {}).get("colour") if isinstance(info, Mapping) else None
        out[player] = chosen if is_colour(chosen) else default_colour(seat)
    return out


def _ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#fff"


def _label(player: str, info: Mapping | None) -> str:
    name = ((info or {}).get(player) or {}).get("name") if isinstance(info, Mapping) else None
    return str(name or player)


def _shorten(points, by: float):
    """Stop a path ``by`` units before its last point, so the arrowhead is not hidden
    under the piece standing there."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= by * 1.5:
        return points
    k = (length - by) / length
    return points[:-1] + [(x0 + (x1 - x0) * k, y0 + (y1 - y0) * k)]


def _arrow(points, colour: str, marker: str, width: float, cls: str, dash: str = "") -> str:
    points = _shorten(points, SIZE * 0.55)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<polyline class="{cls}" points="{_points(points)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_f(width)}" stroke-linecap="round" stroke-linejoin="round"{dash_attr} '
            f'marker-end="url(#{marker})" opacity="0.9"/>')


def _path_points(event: Mapping, size: float) -> list[tuple[float, float]]:
    cells = [event.get("from")] + list(event.get("path") or [])
    if event.get("to") and (not cells or cells[-1] != event.get("to")):
        cells.append(event.get("to"))
    points = []
    for cell in cells:
        xy = _cell_xy(cell, size)
        if xy is not None and (not points or points[-1] != xy):
            points.append(xy)
    return points


def render_board(position: Mapping, *, events: Iterable[Mapping] = (), players_info: Mapping | None = None,
                 flee: Mapping | None = None, illegal: Iterable[Mapping] = (),
                 marks: Iterable[Mapping] = (), labels: bool = False, animate: bool = True,
                 title: str = "Mâamut board", size: float = SIZE) -> str:
    """The SVG of ``position`` with the overlays of the last move.

    ``events``: the engine events of the last action (its move is drawn as a dashed
    arrow, the mammoth's flight as a thick arrow, animated). ``flee``: the contract's
    ``needs`` (the frightened hunter's options are circled). ``illegal``: cells
    ``{"cell", "reason"}`` crossed out. ``marks``: sandbox annotations
    ``{"cell", "text", "kind"}``. ``labels`` writes each cell's ``q,r``.
    """
    position = position if isinstance(position, Mapping) else {}
    tiles = position.get("tiles") if isinstance(position.get("tiles"), Mapping) else {}
    players = [p for p in (position.get("players") or []) if isinstance(p, str)]
    hunters = position.get("hunters") if isinstance(position.get("hunters"), Mapping) else {}
    players += [p for p in hunters if isinstance(p, str) and p not in players]
    traps = position.get("traps") if isinstance(position.get("traps"), Mapping) else {}
    colours = player_colours(players, players_info)

    half_w = math.sqrt(3) * size * 3.5 + 6
    half_h = size * 5.5 + 6
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_f(-half_w)} {_f(-half_h)} '
           f'{_f(2 * half_w)} {_f(2 * half_h)}" class="board" role="img" font-family="sans-serif">',
           f"<title>{escape(title)}</title>",
           "<defs>"
           f'<marker id="arrow-flight" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
           f'markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{FLIGHT_COLOUR}"/></marker>'
           '<marker id="arrow-move" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="5" '
           'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#222"/></marker>'
           # One hexagon and one rock drawn once and placed 37 times: the SVG travels to
           # every viewer at every update, so it is kept small.
           f'<polygon id="hx" points="{_points(hexagon(0, 0, size - 1))}" stroke="#34495e" stroke-width="2"/>'
           f'<path id="rk" d="M{_f(-size * .45)},{_f(size * .3)} L{_f(-size * .1)},{_f(-size * .35)} L0,0 '
           f'L{_f(size * .3)},{_f(-size * .15)} L{_f(size * .5)},{_f(size * .3)} z" fill="#4b4741"/>'
           "</defs>",
           f'<rect x="{_f(-half_w)}" y="{_f(-half_h)}" width="{_f(2 * half_w)}" height="{_f(2 * half_h)}" '
           'fill="#2d3a2e" rx="12"/>',
           # North is up: a small compass so a photo of the screen can never be misread.
           f'<g class="compass" transform="translate({_f(-half_w + 22)},{_f(-half_h + 26)})">'
           '<path d="M0,-16 L6,4 L0,0 L-6,4 z" fill="#fff"/>'
           '<text y="18" text-anchor="middle" font-size="12" fill="#fff">N</text></g>']

    for name in CELL_NAMES:
        x, y = _cell_xy(name, size)
        tile = tiles.get(name)
        fill = TILE_FILL.get(tile, UNKNOWN_TILE_FILL)
        tile_name = tile if tile in TILE_FILL else "unknown"
        out.append(f'<g class="cell" data-cell="{name}" data-tile="{tile_name}">'
                   f'<use href="#hx" x="{_f(x)}" y="{_f(y)}" fill="{fill}"/>')
        if tile == "cross":
            d = size * 0.3
            out.append(f'<path d="M{_f(x - d)},{_f(y - d)} L{_f(x + d)},{_f(y + d)} M{_f(x + d)},{_f(y - d)} '
                       f'L{_f(x - d)},{_f(y + d)}" stroke="#9aa9b8" stroke-width="5" stroke-linecap="round"/>')
        elif tile == "rock":
            out.append(f'<use href="#rk" x="{_f(x)}" y="{_f(y)}"/>')
        if labels:
            out.append(f'<text x="{_f(x)}" y="{_f(y + size * 0.8)}" text-anchor="middle" font-size="9" '
                       f'fill="#223">{name}</text>')
        out.append("</g>")

    events = [e for e in events if isinstance(e, Mapping)]
    # The last move's cells, as lichess marks them: where it started and where it ended
    # (the hunter's move, and the mammoth's flight when there was one). Tinted under the
    # traps and pieces, so a trap on the cell a hunter just reached keeps its colour.
    last_cells: dict[str, str] = {}
    for event in events:
        if event.get("type") in ("hunter_moved", "mammoth_fled", "hunter_placed", "trap_placed"):
            start = event.get("from")
            end = event.get("to") or event.get("cell")
            if isinstance(start, str) and start not in last_cells:
                last_cells[start] = "from"
            if isinstance(end, str):
                last_cells[end] = "to"
    for cell, kind in last_cells.items():
        xy = _cell_xy(cell, size)
        if xy is not None:
            out.append(f'<polygon class="last-{kind}" data-cell="{escape(cell)}" '
                       f'points="{_points(hexagon(xy[0], xy[1], size - 4))}" fill="{LAST_MOVE_FILL}" '
                       f'fill-opacity="{".5" if kind == "to" else ".3"}" stroke="{LAST_MOVE_STROKE}" '
                       f'stroke-width="{"5" if kind == "to" else "3"}"/>')

    for mark in marks:
        xy = _cell_xy(mark.get("cell"), size) if isinstance(mark, Mapping) else None
        if xy is None:
            continue
        x, y = xy
        kind = str(mark.get("kind") or "legal")
        fill = {"legal": "#ffffff", "flight": "#ffd166", "danger": "#ff6b6b"}.get(kind, "#ffffff")
        out.append(f'<g class="mark" data-mark="{escape(kind)}" data-cell="{escape(mark.get("cell"))}">'
                   f'<circle cx="{_f(x)}" cy="{_f(y - size * .45)}" r="{_f(size * .25)}" fill="{fill}" '
                   f'stroke="#222" stroke-width="1.5"/>'
                   f'<text x="{_f(x)}" y="{_f(y - size * .35)}" text-anchor="middle" font-size="13" '
                   f'font-weight="bold" fill="#111">{escape(str(mark.get("text", ""))[:4])}</text></g>')

    for cell, owner in traps.items():
        xy = _cell_xy(cell, size)
        if xy is None:
            continue
        x, y = xy
        colour = colours.get(owner, "#999999")
        out.append(f'<g class="trap" data-cell="{escape(cell)}" data-owner="{escape(owner)}">'
                   f'<title>{escape(_label(owner, players_info))}</title>'
                   f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(size * .62)}" fill="#3b2f2f" '
                   f'stroke="{colour}" stroke-width="5" stroke-dasharray="6 3"/></g>')

    for event in events:
        if event.get("type") == "hunter_moved":
            points = _path_points(event, size)
            if len(points) >= 2:
                out.append(_arrow(points, "#222", "arrow-move", 3, "last-move", "7 5"))
    flight_events = [e for e in events if e.get("type") == "mammoth_fled"]
    for event in flight_events:
        points = _path_points(event, size)
        if len(points) >= 2:
            out.append(_arrow(points, FLIGHT_COLOUR, "arrow-flight", 7, "flight"))

    if isinstance(flee, Mapping):
        colour = colours.get(flee.get("hunter"), "#ffffff")
        for option in flee.get("options") or []:
            xy = _cell_xy(option, size)
            if xy is not None:
                out.append(f'<circle class="flee-option" data-cell="{escape(option)}" cx="{_f(xy[0])}" '
                           f'cy="{_f(xy[1])}" r="{_f(size * .5)}" fill="none" stroke="{colour}" '
                           f'stroke-width="4" stroke-dasharray="5 4"/>')

    by_cell: dict[str, list[str]] = {}
    for player in players:
        cell = hunters.get(player)
        if _cell_xy(cell, size) is not None:
            by_cell.setdefault(cell, []).append(player)
    mammoth_cell = position.get("mammoth")

    def draw_hunters(cell: str, here: list[str]) -> None:
        x0, y0 = _cell_xy(cell, size)
        with_mammoth = cell == mammoth_cell
        for i, player in enumerate(here):
            if with_mammoth:
                # Under the mammoth: the hunters sit on the cell's lower edge, in front.
                x = x0 + size * .32 * (i - (len(here) - 1) / 2) * (2 if len(here) > 1 else 0) / 2 \
                    + (size * .3 if len(here) == 1 else 0)
                y = y0 + size * .42
                radius = size * .24
            else:
                # Hunters sharing a cell sit side by side so each stays visible.
                angle = 2 * math.pi * i / len(here)
                x = x0 + (size * .3 * math.sin(angle) if len(here) > 1 else 0)
                y = y0 - (size * .3 * math.cos(angle) if len(here) > 1 else 0)
                radius = size * (.38 if len(here) == 1 else .3)
            colour = colours[player]
            label = _label(player, players_info)
            stacked = ' data-stacked="mammoth"' if with_mammoth else (' data-stacked="hunters"' if len(here) > 1 else "")
            out.append(f'<g class="hunter" data-hunter="{escape(player)}" data-cell="{escape(cell)}"{stacked}>'
                       f'<title>{escape(label)}</title>'
                       f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(radius)}" '
                       f'fill="{colour}" stroke="#111" stroke-width="2.5"/>'
                       f'<text x="{_f(x)}" y="{_f(y + radius * .42)}" text-anchor="middle" '
                       f'font-size="{_f(radius * 1.15)}" font-weight="bold" '
                       f'fill="{_ink_on(colour)}">{escape(label[:1].upper())}</text></g>')

    for cell, here in by_cell.items():
        if cell != mammoth_cell:
            draw_hunters(cell, here)

    mammoth = _cell_xy(position.get("mammoth"), size)
    if mammoth is not None:
        mx, my = mammoth
        shared = mammoth_cell in by_cell
        animation = ""
        # Animate only a finished flight: while a frightened hunter's owner is still
        # choosing, the engine keeps the mammoth where it was.
        if animate and flight_events and flight_events[-1].get("to") == position.get("mammoth"):
            points = _path_points(flight_events[-1], size)
            if len(points) >= 2:
                rel = [(px - mx, py - my) for px, py in points]
                animation = (f'<animateMotion dur="{_f(0.45 * (len(rel) - 1))}s" fill="freeze" '
                             f'path="M{" L".join(f"{_f(a)},{_f(b)}" for a, b in rel)}"/>')
        s = size * (.78 if shared else 1)
        lift = f'<g transform="translate(0,{_f(-size * .16)})">' if shared else "<g>"
        out.append(f'<g class="mammoth" data-cell="{escape(position.get("mammoth"))}">'
                   f'<g transform="translate({_f(mx)},{_f(my)})">{animation}{lift}'
                   "<title>Mammoth / Mammouth</title>"
                   f'<ellipse cx="0" cy="0" rx="{_f(s * .52)}" ry="{_f(s * .42)}" fill="#6b4423" '
                   'stroke="#1e120a" stroke-width="3"/>'
                   f'<path d="M{_f(-s * .3)},{_f(s * .1)} q{_f(-s * .1)},{_f(s * .35)} {_f(s * .25)},{_f(s * .3)} '
                   f'M{_f(s * .3)},{_f(s * .1)} q{_f(s * .1)},{_f(s * .35)} {_f(-s * .25)},{_f(s * .3)}" '
                   'fill="none" stroke="#fffbe6" stroke-width="4" stroke-linecap="round"/>'
                   f'<circle cx="{_f(-s * .18)}" cy="{_f(-s * .12)}" r="3" fill="#fff"/>'
                   f'<circle cx="{_f(s * .18)}" cy="{_f(-s * .12)}" r="3" fill="#fff"/></g></g></g>')
        if shared:
            draw_hunters(mammoth_cell, by_cell[mammoth_cell])

    for mark in illegal:
        xy = _cell_xy(mark.get("cell"), size) if isinstance(mark, Mapping) else None
        if xy is None:
            continue
        x, y, d = xy[0], xy[1], size * .5
        out.append(f'<g class="illegal" data-cell="{escape(mark.get("cell"))}">'
                   f'<title>{escape(str(mark.get("reason", "")))}</title>'
                   f'<path d="M{_f(x - d)},{_f(y - d)} L{_f(x + d)},{_f(y + d)} M{_f(x + d)},{_f(y - d)} '
                   f'L{_f(x - d)},{_f(y + d)}" stroke="{ILLEGAL_COLOUR}" stroke-width="7" '
                   'stroke-linecap="round"/></g>')

    out.append("</svg>")
    return "".join(out)


__all__ = ["render_board", "player_colours", "PALETTE", "SIZE"]
