"""Which LED in the chain sits under which hex of the board.

The WS2812 chain snakes under the 37 hexes, then carries a few *status LEDs* (whose turn
it is) after the last hex. The default is a serpentine that starts at the west end of
the north row and turns back at the end of every row, which is the shortest wiring for
strips cut row by row. A builder who wired the chain differently describes it in the
``[leds.map]`` table of the configuration file (see ``hardware/README.md``).

>>> leds = LedMap.serpentine()
>>> leds.led_count, leds.status_leds
(41, (37, 38, 39, 40))
>>> leds.index_of("0,-3"), leds.index_of("3,-3"), leds.index_of("3,-2")
(0, 3, 4)
>>> leds.cell_at(4) == parse_cell("3,-2"), leds.cell_at(38)
(True, None)
>>> LedMap.from_config(leds.to_config()) == leds
True

Cells are the engine's cell ids (``engine.hexgrid``) or their ``"q,r"`` names.
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from engine.hexgrid import CELLS, NUM_CELLS, cell_name, parse_cell, pixel_of

#: Status LEDs after the board: one per seat of a four-player game.
DEFAULT_STATUS_LEDS = 4
#: A generous ceiling; a Pico drives a few hundred WS2812 comfortably, a typo does not.
MAX_LEDS = 1024
#: In a ``chain`` list, an LED that lights no hex (a spare pixel between two strips).
SKIP = "-"
CORNERS = ("north-west", "north-east", "south-west", "south-east")
LAYOUTS = ("serpentine", "rows", "custom")
_KNOWN_KEYS = {"layout", "start", "status_leds", "chain", "cells"}


class LedMapError(ValueError):
    """The LED map in the configuration is not usable; the message says why."""


def as_cell(cell: int | str) -> int:
    """A cell id from a cell id or a ``"q,r"`` name, with a clear error otherwise.

    >>> as_cell("0,0"), as_cell(5)
    (18, 5)
    """
    if isinstance(cell, str):
        return parse_cell(cell)
    if isinstance(cell, int) and not isinstance(cell, bool) and 0 <= cell < NUM_CELLS:
        return cell
    raise ValueError(f"not a cell: {cell!r} (expected an id 0..{NUM_CELLS - 1} or \"q,r\")")


@dataclass(frozen=True)
class LedMap:
    """LED index of every hex (indexed by cell id) plus the status LEDs after them.

    ``cell_leds[i]`` is the chain position of the LED under cell ``i``. Gaps are allowed
    (LEDs that light nothing); the status LEDs always follow the last hex LED.
    """

    cell_leds: tuple[int, ...]
    status_count: int = DEFAULT_STATUS_LEDS

    def __post_init__(self):
        leds = tuple(self.cell_leds)
        object.__setattr__(self, "cell_leds", leds)
        if len(leds) != NUM_CELLS:
            raise LedMapError(f"the LED map needs one LED per hex: {NUM_CELLS}, got {len(leds)}")
        for cell, led in enumerate(leds):
            if not isinstance(led, int) or isinstance(led, bool) or led < 0:
                raise LedMapError(f"hex {cell_name(cell)}: LED index must be a whole number >= 0, got {led!r}")
        seen: dict[int, int] = {}
        for cell, led in enumerate(leds):
            if led in seen:
                raise LedMapError(
                    f"hexes {cell_name(seen[led])} and {cell_name(cell)} both use LED {led}; "
                    "every hex needs its own LED")
            seen[led] = cell
        if not isinstance(self.status_count, int) or isinstance(self.status_count, bool) \
                or not 0 <= self.status_count <= 16:
            raise LedMapError(f"status_leds must be a whole number from 0 to 16, got {self.status_count!r}")
        if max(leds) + 1 + self.status_count > MAX_LEDS:
            raise LedMapError(f"the chain would need {max(leds) + 1 + self.status_count} LEDs; "
                              f"more than {MAX_LEDS} is surely a mistake")

    # -- construction -------------------------------------------------------------

    @classmethod
    def serpentine(cls, start: str = "north-west", status_leds: int = DEFAULT_STATUS_LEDS) -> "LedMap":
        """Row by row from the ``start`` corner, turning back at the end of each row.

        >>> [cell_name(c) for c in LedMap.serpentine().chain()[:6]]
        ['0,-3', '1,-3', '2,-3', '3,-3', '3,-2', '2,-2']
        """
        return cls._from_rows(start, status_leds, snake=True)

    @classmethod
    def rows(cls, start: str = "north-west", status_leds: int = DEFAULT_STATUS_LEDS) -> "LedMap":
        """Row by row from the ``start`` corner, every row in the same direction.

        >>> [cell_name(c) for c in LedMap.rows().chain()[3:6]]
        ['3,-3', '-1,-2', '0,-2']
        """
        return cls._from_rows(start, status_leds, snake=False)

    @classmethod
    def _from_rows(cls, start: str, status_leds: int, snake: bool) -> "LedMap":
        if start not in CORNERS:
            raise LedMapError(f"start must be one of {', '.join(CORNERS)}; got {start!r}")
        north_first = start.startswith("north")
        west_first = start.endswith("west")
        row_numbers = sorted({r for _, r in CELLS}, reverse=not north_first)
        chain: list[int] = []
        for k, r in enumerate(row_numbers):
            row = sorted((i for i, (_, rr) in enumerate(CELLS) if rr == r), key=lambda i: CELLS[i][0])
            eastward = west_first if not snake or k % 2 == 0 else not west_first
            chain.extend(row if eastward else reversed(row))
        return cls.from_chain(chain, status_leds)

    @classmethod
    def from_chain(cls, chain: Sequence[int | str | None], status_leds: int = DEFAULT_STATUS_LEDS) -> "LedMap":
        """The cells in the order the data line visits them; ``"-"``/``None`` is a spare LED.

        >>> LedMap.from_chain(["0,0"])
        Traceback (most recent call last):
        ...
        firmware_bridge.ledmap.LedMapError: chain: 36 hexes have no LED: 0,-3, 1,-3, 2,-3, 3,-3, -1,-2, ...
        """
        if isinstance(chain, (str, bytes)) or not isinstance(chain, Sequence):
            raise LedMapError("chain must be a list of cells like \"0,-3\" in wiring order")
        leds: dict[int, int] = {}
        for position, entry in enumerate(chain):
            if entry is None or entry == SKIP:
                continue
            try:
                cell = as_cell(entry)
            except ValueError as exc:
                raise LedMapError(f"chain[{position}]: {exc}") from None
            if cell in leds:
                raise LedMapError(f"chain: hex {cell_name(cell)} appears twice "
                                  f"(LEDs {leds[cell]} and {position})")
            leds[cell] = position
        missing = [cell_name(c) for c in range(NUM_CELLS) if c not in leds]
        if missing:
            shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
            raise LedMapError(f"chain: {len(missing)} hexes have no LED: {shown}")
        return cls(tuple(leds[c] for c in range(NUM_CELLS)), status_leds)

    @classmethod
    def from_config(cls, table: Mapping | None) -> "LedMap":
        """The map described by a ``[leds.map]`` configuration table (``None``: the default).

        >>> LedMap.from_config({"layout": "serpentine", "start": "south-east"}).chain()[0] == parse_cell("0,3")
        True
        >>> LedMap.from_config({"layout": "zigzag"})
        Traceback (most recent call last):
        ...
        firmware_bridge.ledmap.LedMapError: leds.layout must be one of serpentine, rows, custom; got 'zigzag'
        """
        if table is None:
            return cls.serpentine()
        if not isinstance(table, Mapping):
            raise LedMapError("the [leds.map] configuration must be a table")
        unknown = sorted(set(table) - _KNOWN_KEYS)
        if unknown:
            raise LedMapError(f"unknown key(s) in [leds.map]: {', '.join(unknown)} "
                              f"(known: {', '.join(sorted(_KNOWN_KEYS))})")
        status = table.get("status_leds", DEFAULT_STATUS_LEDS)
        layout = table.get("layout", "custom" if ("chain" in table or "cells" in table) else "serpentine")
        if layout not in LAYOUTS:
            raise LedMapError(f"leds.layout must be one of {', '.join(LAYOUTS)}; got {layout!r}")
        if layout in ("serpentine", "rows"):
            if "chain" in table or "cells" in table:
                raise LedMapError(f"leds.layout = {layout!r} takes no chain or cells; use layout = 'custom'")
            start = table.get("start", "north-west")
            return cls._from_rows(start, status, snake=layout == "serpentine")
        if "start" in table:
            raise LedMapError("leds.start only applies to the serpentine and rows layouts")
        if ("chain" in table) == ("cells" in table):
            raise LedMapError("leds.layout = 'custom' needs exactly one of chain (a list) or cells (a table)")
        if "chain" in table:
            return cls.from_chain(table["chain"], status)
        return cls._from_cell_table(table["cells"], status)

    @classmethod
    def _from_cell_table(cls, cells: Mapping, status: int) -> "LedMap":
        if not isinstance(cells, Mapping):
            raise LedMapError("leds.cells must be a table of \"q,r\" = LED index")
        leds: dict[int, int] = {}
        for name, led in cells.items():
            try:
                cell = as_cell(name)
            except ValueError as exc:
                raise LedMapError(f"leds.cells: {exc}") from None
            if cell in leds:
                raise LedMapError(f"leds.cells: hex {cell_name(cell)} is listed twice")
            leds[cell] = led
        missing = [cell_name(c) for c in range(NUM_CELLS) if c not in leds]
        if missing:
            raise LedMapError(f"leds.cells: {len(missing)} hexes have no LED, first {missing[0]}")
        return cls(tuple(leds[c] for c in range(NUM_CELLS)), status)

    @classmethod
    def load(cls, path: str | Path) -> "LedMap":
        """Read the ``[leds.map]`` table of a TOML configuration file (absent: the default)."""
        try:
            with open(path, "rb") as handle:
                config = tomllib.load(handle)
        except OSError as exc:
            raise LedMapError(f"cannot read {path}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise LedMapError(f"{path} is not valid TOML: {exc}") from None
        leds = config.get("leds", {})
        if not isinstance(leds, Mapping):
            raise LedMapError(f"{path}: [leds] must be a table")
        return cls.from_config(leds.get("map"))

    # -- queries ------------------------------------------------------------------

    @property
    def led_count(self) -> int:
        """How many LEDs the firmware must drive: hexes, gaps and status LEDs."""
        return max(self.cell_leds) + 1 + self.status_count

    @property
    def status_leds(self) -> tuple[int, ...]:
        first = max(self.cell_leds) + 1
        return tuple(range(first, first + self.status_count))

    def index_of(self, cell: int | str) -> int:
        """The LED under ``cell`` (an id or a ``"q,r"`` name)."""
        return self.cell_leds[as_cell(cell)]

    def indices_of(self, cells: Iterable[int | str]) -> list[int]:
        return [self.index_of(c) for c in cells]

    def cell_at(self, led: int) -> int | None:
        """The cell above LED ``led``; ``None`` for a status LED or a spare one."""
        try:
            return self.cell_leds.index(led)
        except ValueError:
            return None

    def chain(self) -> list[int | None]:
        """Cells in wiring order, ``None`` where a hex LED position is a spare."""
        out: list[int | None] = [None] * (max(self.cell_leds) + 1)
        for cell, led in enumerate(self.cell_leds):
            out[led] = cell
        return out

    def blank_frame(self) -> list[tuple[int, int, int]]:
        """A frame with every LED off, one ``(r, g, b)`` per LED."""
        return [(0, 0, 0)] * self.led_count

    # -- writing it back ----------------------------------------------------------

    def to_config(self) -> dict:
        """The ``[leds.map]`` table that describes this map exactly (a custom chain)."""
        return {
            "layout": "custom",
            "status_leds": self.status_count,
            "chain": [SKIP if c is None else cell_name(c) for c in self.chain()],
        }

    def to_toml(self) -> str:
        """The ``[leds.map]`` table as TOML text, one row of the board per line.

        >>> print(LedMap.serpentine(status_leds=2).to_toml().splitlines()[4])
            "0,-3", "1,-3", "2,-3", "3,-3",
        """
        chain = self.to_config()["chain"]
        lines = ["[leds.map]", 'layout = "custom"', f"status_leds = {self.status_count}", "chain = ["]
        row: list[str] = []
        previous_r = None
        for entry in chain:
            r = None if entry == SKIP else CELLS[parse_cell(entry)][1]
            if row and r is not None and previous_r is not None and r != previous_r:
                lines.append("    " + ", ".join(row) + ",")
                row = []
            row.append(f'"{entry}"')
            if r is not None:
                previous_r = r
        if row:
            lines.append("    " + ", ".join(row) + ",")
        lines.append("]")
        return "\n".join(lines) + "\n"

    def to_svg(self, hex_size: float = 46.0) -> str:
        """A drawing of the board seen from above with each hex's LED index and the wiring.

        ``hex_size`` is the hexagon's circumradius in SVG units (millimetres for an
        80 mm tile measured across flats).
        """
        return _svg(self, hex_size)


def _svg(leds: LedMap, size: float) -> str:
    margin = size * 1.3
    centres = [pixel_of(c, size) for c in range(NUM_CELLS)]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    min_x, max_x = min(xs) - size - margin, max(xs) + size + margin
    min_y, max_y = min(ys) - size - margin, max(ys) + size + margin * 2.2
    width, height = max_x - min_x, max_y - min_y

    def pt(x: float, y: float) -> str:
        return f"{x - min_x:.1f},{y - min_y:.1f}"

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}mm" height="{height:.0f}mm" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="DejaVu Sans, Arial, sans-serif">',
        "<!-- Generated by python -m firmware_bridge.ledmap (option svg); do not edit by hand. -->",
        f"<title>Mâamut LED map: {leds.led_count} WS2812 LEDs, "
        f"{NUM_CELLS} under the hexes, {leds.status_count} status LEDs</title>",
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" "
        "markerHeight=\"5\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c0392b\"/>"
        "</marker></defs>",
        f'<rect x="0" y="0" width="{width:.1f}" height="{height:.1f}" fill="#ffffff"/>',
    ]
    for cell, (cx, cy) in enumerate(centres):
        corners = " ".join(
            pt(cx + size * math.cos(math.radians(-90 + 60 * k)), cy + size * math.sin(math.radians(-90 + 60 * k)))
            for k in range(6))
        out.append(f'<polygon points="{corners}" fill="#f4f1e8" stroke="#555" stroke-width="{size / 30:.2f}"/>')
    # The data line, drawn first so the labels sit on top of it.
    chain_points = [centres[c] for c in leds.chain() if c is not None]
    path = " ".join(pt(x, y) for x, y in chain_points)
    out.append(f'<polyline points="{path}" fill="none" stroke="#c0392b" stroke-width="{size / 18:.2f}" '
               f'stroke-dasharray="{size / 6:.1f},{size / 12:.1f}" marker-end="url(#arrow)"/>')
    for cell, (cx, cy) in enumerate(centres):
        x, y = cx - min_x, cy - min_y
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.34:.1f}" fill="#ffffff" stroke="#c0392b" '
                   f'stroke-width="{size / 40:.2f}"/>')
        out.append(f'<text x="{x:.1f}" y="{y + size * 0.12:.1f}" text-anchor="middle" '
                   f'font-size="{size * 0.36:.1f}" font-weight="bold">{leds.cell_leds[cell]}</text>')
        out.append(f'<text x="{x:.1f}" y="{y + size * 0.62:.1f}" text-anchor="middle" '
                   f'font-size="{size * 0.2:.1f}" fill="#666">{cell_name(cell)}</text>')
    first = chain_points[0]
    out.append(f'<text x="{first[0] - min_x - size * 0.9:.1f}" y="{first[1] - min_y - size * 1.2:.1f}" '
               f'font-size="{size * 0.26:.1f}" fill="#c0392b">data in (DIN): Pico GP2, level shifter, 330 Ω</text>')
    # Status LEDs: a row below the board, continuing the chain.
    base_y = max(ys) + size + margin * 1.3
    step = size * 1.1
    start_x = -step * (leds.status_count - 1) / 2
    if leds.status_count:
        last = chain_points[-1]
        out.append(f'<polyline points="{pt(*last)} {pt(last[0], base_y - size * 0.75)} '
                   f'{pt(start_x, base_y - size * 0.75)} {pt(start_x, base_y - size * 0.34)}" fill="none" '
                   f'stroke="#c0392b" stroke-width="{size / 18:.2f}" '
                   f'stroke-dasharray="{size / 6:.1f},{size / 12:.1f}"/>')
    for k, led in enumerate(leds.status_leds):
        x, y = start_x + k * step - min_x, base_y - min_y
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.34:.1f}" fill="#fff6d5" stroke="#c0392b" '
                   f'stroke-width="{size / 40:.2f}"/>')
        out.append(f'<text x="{x:.1f}" y="{y + size * 0.12:.1f}" text-anchor="middle" '
                   f'font-size="{size * 0.36:.1f}" font-weight="bold">{led}</text>')
        out.append(f'<text x="{x:.1f}" y="{y + size * 0.62:.1f}" text-anchor="middle" '
                   f'font-size="{size * 0.2:.1f}" fill="#666">seat {k + 1}</text>')
    if leds.status_count:
        out.append(f'<text x="{-min_x:.1f}" y="{base_y - min_y - size * 0.85:.1f}" text-anchor="middle" '
                   f'font-size="{size * 0.24:.1f}">status LEDs (whose turn), after the last hex</text>')
    # Compass: north is up, seen from above the table (RULINGS).
    nx, ny = min(xs) - size * 0.6 - min_x, min(ys) - size * 0.4 - min_y
    out.append(f'<line x1="{nx:.1f}" y1="{ny + size * 0.5:.1f}" x2="{nx:.1f}" y2="{ny - size * 0.3:.1f}" '
               f'stroke="#333" stroke-width="{size / 20:.2f}" marker-end="url(#arrow)"/>')
    out.append(f'<text x="{nx:.1f}" y="{ny + size * 0.85:.1f}" text-anchor="middle" '
               f'font-size="{size * 0.3:.1f}">N</text>')
    out.append(f'<text x="{width / 2:.1f}" y="{height - size * 0.25:.1f}" text-anchor="middle" '
               f'font-size="{size * 0.24:.1f}" fill="#333">Seen from above the table. Big number: LED index '
               f'in the chain; small: hex "q,r". {leds.led_count} LEDs in all.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m firmware_bridge.ledmap``: check a configured map, print it, draw it."""
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.ledmap",
        description="Check the hex -> LED map of a configuration file, print it as TOML or draw it as SVG.")
    parser.add_argument("--config", metavar="FILE.toml",
                        help="configuration file whose [leds.map] table describes the wiring (default: serpentine)")
    parser.add_argument("--svg", metavar="OUT.svg", help="write the LED map drawn on the board to this file")
    parser.add_argument("--toml", action="store_true", help="print the map as an explicit [leds.map] table")
    args = parser.parse_args(argv)
    try:
        leds = LedMap.load(args.config) if args.config else LedMap.serpentine()
    except LedMapError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.svg:
        try:
            Path(args.svg).write_text(leds.to_svg(), encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {args.svg}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"wrote {args.svg}: {leds.led_count} LEDs ({NUM_CELLS} hexes, {leds.status_count} status)")
    if args.toml:
        print(leds.to_toml(), end="")
    if not args.svg and not args.toml:
        print(f"LED map OK: {leds.led_count} LEDs, hexes 0..{max(leds.cell_leds)}, "
              f"status LEDs {', '.join(map(str, leds.status_leds)) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
