"""What the LEDs under the board show, derived from the engine's events and position.

A :class:`LedScene` is a base frame (one ``(r, g, b)`` per LED) plus animation requests
(blink, pulse, chase on a list of LEDs). Playing it on any LED backend is two kinds of
call, ``backend.show(frame)`` then ``backend.animate(kind, leds, colour, period_ms)``;
the controller keeps the animations running by itself, so a busy host never stutters.

:class:`SceneMaker` turns game moments into scenes: the mammoth's path and destination,
the cells a frightened hunter may flee to (in his colour), an eliminated hunter, an
illegal change seen by the camera, whose turn it is (status LEDs), the winner's
celebration and an attract loop for convention stands.

>>> from engine.notation import position_from_text
>>> pos = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3;B@0,3 - A")
>>> maker = SceneMaker()
>>> scene = maker.turn(pos)
>>> scene.frame[37] == maker.colour_of("A", pos), scene.frame[38] == dim(maker.colour_of("B", pos))
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from engine.hexgrid import CELLS, DIRECTIONS, cell_name, neighbour
from rulekit.players import is_colour

from . import render
from .backends import DEFAULT_BRIGHTNESS
from .ledmap import LedMap, as_cell
from .protocol import ANIMATION_NAMES

if TYPE_CHECKING:
    from .backends import LedBackend

RGB = tuple[int, int, int]

OFF: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
#: The mammoth: warm amber, unlike any hunter colour.
MAMMOTH_COLOUR: RGB = (255, 110, 0)
#: The mammoth's victory: cold ice blue.
MAMMOTH_WINS_COLOUR: RGB = (120, 200, 255)
#: Danger around an eliminated hunter.
DANGER: RGB = (255, 0, 0)
#: "This change is not a legal move": magenta, so it never reads as a hunter's red.
ILLEGAL: RGB = (255, 0, 180)
#: Seat colours for players whose token colour the configuration does not give:
#: red, blue, yellow, green, in seating order.
DEFAULT_PALETTE: tuple[RGB, ...] = ((230, 20, 20), (20, 70, 255), (255, 190, 0), (20, 200, 50))

#: Animation periods in milliseconds, slow enough to read across a table.
CHASE_STEP_MS = 220
BLINK_MS = 800
FAST_BLINK_MS = 400
PULSE_MS = 1600



class SceneError(ValueError):
    """An event, position or setting a scene cannot be made from; the message says why."""


@dataclass(frozen=True)
class Animation:
    """An animation request: ``kind`` is ``"blink"``, ``"pulse"`` or ``"chase"``.

    A chase runs along ``leds`` in the order given, which is how the mammoth's path
    shows its direction.
    """

    kind: str
    leds: tuple[int, ...]
    colour: RGB
    period_ms: int

    def __post_init__(self):
        if self.kind not in ANIMATION_NAMES or self.kind == "none":
            raise SceneError(f"unknown animation kind {self.kind!r}")
        if not self.leds:
            raise SceneError("an animation needs at least one LED")
        if not 1 <= self.period_ms <= 0xFFFF:
            raise SceneError(f"animation period must be 1..65535 ms, got {self.period_ms}")


@dataclass(frozen=True)
class LedScene:
    """A named base frame plus animations; ``play`` sends it to a backend."""

    name: str
    frame: tuple[RGB, ...]
    animations: tuple[Animation, ...] = ()
    #: What the scene is about, for logs and the web page (cells as "q,r").
    detail: dict = field(default_factory=dict, compare=False)

    def play(self, backend: "LedBackend") -> None:
        """Show the frame, then start the animations (a new frame stops old ones).

        ``backend`` is any :class:`firmware_bridge.backends.LedBackend`: the Pico
        firmware, an Adalight receiver or the simulated strip the web page mirrors.
        """
        backend.show(list(self.frame))
        for anim in self.animations:
            backend.animate(anim.kind, list(anim.leds), anim.colour, anim.period_ms)

    def render(self, t_ms: int) -> list[RGB]:
        """The colours at ``t_ms`` after ``play``, computed by the firmware's own code.

        >>> s = LedScene("x", (OFF, OFF), (Animation("blink", (1,), WHITE, 1000),))
        >>> s.render(100), s.render(600)
        ([(0, 0, 0), (255, 255, 255)], [(0, 0, 0), (0, 0, 0)])
        """
        strip = render.Scene(len(self.frame))
        strip.set_all(self.frame)
        for anim in self.animations:
            strip.animate(ANIMATION_NAMES[anim.kind], list(anim.leds), anim.colour, anim.period_ms)
        out = strip.render(t_ms)
        return [tuple(out[i:i + 3]) for i in range(0, len(out), 3)]

    def animation_at(self, led: int) -> Animation | None:
        """The animation that drives ``led`` (the last one listed wins, as on the strip)."""
        found = None
        for anim in self.animations:
            if led in anim.leds:
                found = anim
        return found


def peak_current_ma(scene: LedScene, brightness: int = 255, current_limit_ma: int = 0,
                    step_ms: int = 20) -> int:
    """Highest estimated strip draw over one cycle of the scene's animations, in mA.

    Uses the firmware's own estimate and limiter (:func:`firmware_bridge.render.limit_current`,
    about 20 mA per colour channel at full value); ``current_limit_ma = 0`` means no limit.
    Each LED also draws about 1 mA while dark, which is not included.

    >>> white = LedScene("white", ((255, 255, 255),) * 41)
    >>> peak_current_ma(white), peak_current_ma(white, brightness=96)
    (2460, 926)
    >>> peak_current_ma(white, 255, current_limit_ma=1500) <= 1500
    True
    """
    longest = max((a.period_ms for a in scene.animations), default=step_ms)
    peak = 0
    for t in range(0, longest, step_ms):
        buf = bytearray(b for rgb in scene.render(t) for b in rgb)
        peak = max(peak, render.limit_current(buf, brightness, current_limit_ma))
    return peak


def dim(colour: RGB, factor: int = 8) -> RGB:
    """A faint version of ``colour``, for "still in the game, not your turn".

    >>> dim((240, 16, 0))
    (30, 2, 0)
    """
    return tuple(c // factor for c in colour)


def parse_colour(value) -> RGB:
    """An ``(r, g, b)`` triple from ``"#rrggbb"`` or a list of three 0..255 integers.

    >>> parse_colour("#FF8000"), parse_colour([1, 2, 3])
    ((255, 128, 0), (1, 2, 3))
    >>> parse_colour("orange")
    Traceback (most recent call last):
    ...
    firmware_bridge.scenes.SceneError: colour 'orange' is not "#rrggbb" or [r, g, b]
    """
    if isinstance(value, str) and is_colour(value.strip()):
        digits = value.strip()[1:]
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    elif isinstance(value, (list, tuple)) and len(value) == 3 and all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value):
        return tuple(value)
    raise SceneError(f"colour {value!r} is not \"#rrggbb\" or [r, g, b]")


def clockwise(cells: Iterable[int]) -> list[int]:
    """Cells sorted clockwise (seen from above) round the centre, starting due north.

    >>> [cell_name(c) for c in clockwise(as_cell(n) for n in ("-1,0", "1,0", "0,-1", "0,1", "1,-1", "-1,1"))]
    ['1,-1', '1,0', '0,1', '-1,1', '-1,0', '0,-1']
    """
    def bearing(cell: int) -> float:
        q, r = CELLS[cell]
        x, y = math.sqrt(3) * (q + r / 2), 1.5 * r  # y grows southward
        return math.atan2(x, -y) % (2 * math.pi)

    return sorted(cells, key=bearing)


def spiral() -> list[int]:
    """All cells from the centre outwards, each ring clockwise from north."""
    by_ring: dict[int, list[int]] = {}
    for cell, (q, r) in enumerate(CELLS):
        by_ring.setdefault(max(abs(q), abs(r), abs(q + r)), []).append(cell)
    return [c for ring in sorted(by_ring) for c in clockwise(by_ring[ring])]


class SceneMaker:
    """Builds :class:`LedScene` objects for one board wiring and one set of colours.

    ``colours`` maps player names to their token colours; players not named there get
    ``palette[seat]`` by their seat in the position (seating order).
    """

    def __init__(self, ledmap: LedMap | None = None, palette: Sequence[RGB] = DEFAULT_PALETTE,
                 colours: Mapping[str, RGB] | None = None):
        self.ledmap = ledmap or LedMap.serpentine()
        if not palette:
            raise SceneError("the seat palette needs at least one colour")
        self.palette = tuple(parse_colour(list(c) if isinstance(c, tuple) else c) for c in palette)
        self.colours = {str(k): parse_colour(list(v) if isinstance(v, tuple) else v)
                        for k, v in (colours or {}).items()}

    @classmethod
    def from_config(cls, config) -> "SceneMaker":
        """From the companion's configuration: ``[leds.map]`` and the ``[game] players`` colours.

        ``config`` is the parsed TOML (a dict) or an object with ``leds`` and ``game``
        tables. Each player's ``colour`` is keyed by his ``id`` and his ``name``.

        >>> maker = SceneMaker.from_config({"game": {"players": [
        ...     {"id": "A", "name": "Ann", "colour": "#00ff00"}]}})
        >>> maker.colours
        {'A': (0, 255, 0), 'Ann': (0, 255, 0)}
        >>> SceneMaker.from_config({"game": {"players": [{"id": "A", "colour": "green"}]}})
        Traceback (most recent call last):
        ...
        firmware_bridge.scenes.SceneError: [game] players: colour 'green' is not "#rrggbb" or [r, g, b]
        """
        def table(name):
            value = config.get(name) if isinstance(config, Mapping) else getattr(config, name, None)
            if value is None:
                return {}
            if not isinstance(value, Mapping):
                raise SceneError(f"[{name}] must be a table")
            return value

        players = table("game").get("players") or []
        if not isinstance(players, Sequence) or isinstance(players, (str, bytes)):
            raise SceneError("[game] players must be a list of tables")
        colours: dict[str, RGB] = {}
        for player in players:
            if not isinstance(player, Mapping) or not player.get("colour"):
                continue  # a player without a colour gets his seat's palette colour
            try:
                colour = parse_colour(player["colour"])
            except SceneError as exc:
                raise SceneError(f"[game] players: {exc}") from None
            for key in ("id", "name"):
                if player.get(key) is not None:
                    colours[str(player[key])] = colour
        return cls(LedMap.from_config(table("leds").get("map")), colours=colours)

    # -- helpers --------------------------------------------------------------------

    def colour_of(self, hunter: str, position=None) -> RGB:
        """The hunter's token colour: configured by name, else his seat's palette colour."""
        if hunter in self.colours:
            return self.colours[hunter]
        players = _players(position)
        if hunter in players:
            return self.palette[players.index(hunter) % len(self.palette)]
        return WHITE

    def _frame(self) -> list[RGB]:
        return self.ledmap.blank_frame()

    def _leds(self, cells: Iterable) -> tuple[int, ...]:
        try:
            return tuple(self.ledmap.index_of(c) for c in cells)
        except ValueError as exc:
            raise SceneError(str(exc)) from None

    def _status(self, frame: list[RGB], position, highlight: str | None = None,
                colour: RGB | None = None) -> list[RGB]:
        """Status LEDs: one per seat, the one whose turn it is bright, others dim.

        With more seats than status LEDs, they all show the highlighted player's colour.
        """
        status = self.ledmap.status_leds
        if not status:
            return frame
        if colour is not None:
            for led in status:
                frame[led] = colour
            return frame
        players = _players(position)
        eliminated = set(_eliminated(position))
        if highlight is None:
            highlight = _to_move(position)
        if len(players) > len(status):
            for led in status:
                frame[led] = self.colour_of(highlight, position) if highlight else OFF
            return frame
        for seat, player in enumerate(players):
            if player in eliminated:
                frame[status[seat]] = OFF
            else:
                own = self.colour_of(player, position)
                frame[status[seat]] = own if player == highlight else dim(own)
        return frame

    # -- the scenes -----------------------------------------------------------------

    def turn(self, position) -> LedScene:
        """Whose turn: the status LEDs, and a slow pulse under the mover's hunter."""
        position = _position(position)
        frame = self._status(self._frame(), position)
        mover = position.to_move
        animations = []
        if mover in position.hunters:
            led = self._leds([position.hunters[mover]])
            animations.append(Animation("pulse", led, self.colour_of(mover, position), PULSE_MS))
        return LedScene("turn", tuple(frame), tuple(animations), {"player": mover})

    def placement(self, player: str, cells: Iterable, position=None) -> LedScene:
        """Setup: the cells where ``player`` may put his hunter pulse in his colour.

        ``cells`` come from the engine (``Game.start_cells()``); his status LED is lit.
        """
        if not isinstance(player, str) or not player:
            raise SceneError("placement needs the placing player's name")
        if isinstance(cells, (str, int)):
            cells = [cells]
        allowed = _cells(list(cells), "placement cells")
        frame = self._frame()
        if position is not None:
            self._status(frame, _position(position), highlight=player)
        colour = self.colour_of(player, position)
        animations = (Animation("pulse", self._leds(allowed), colour, PULSE_MS),) if allowed else ()
        return LedScene("placement", tuple(frame), animations,
                        {"player": player, "cells": [cell_name(c) for c in allowed]})

    def flight(self, event: Mapping, position=None) -> LedScene:
        """The mammoth's run: a chase from its old cell along the path, the destination blinking.

        ``event`` is a ``mammoth_fled`` event (JSON form).
        """
        _expect(event, "mammoth_fled", ("from", "to", "path"))
        path = _cells(event["path"], "path")
        origin, dest = _cell(event["from"], "from"), _cell(event["to"], "to")
        if not path or path[-1] != dest:
            raise SceneError("mammoth_fled: the path must end at the destination 'to'")
        frame = self._frame()
        if position is not None:
            self._status(frame, _position(position))
        trail = [origin] + path[:-1]
        for led in self._leds(trail):
            frame[led] = dim(MAMMOTH_COLOUR)
        dest_led = self._leds([dest])
        frame[dest_led[0]] = dim(MAMMOTH_COLOUR)
        animations = (
            Animation("chase", self._leds(trail), MAMMOTH_COLOUR, CHASE_STEP_MS * len(trail)),
            Animation("blink", dest_led, MAMMOTH_COLOUR, BLINK_MS),
        )
        return LedScene("flight", tuple(frame), animations,
                        {"from": cell_name(origin), "to": cell_name(dest), "path": [cell_name(c) for c in path]})

    def faced(self, event: Mapping, position=None) -> LedScene:
        """The mammoth could not flee and turns on the hunter: its cell blinks in danger red."""
        _expect(event, "mammoth_faced", ("cell", "hunter"))
        cell = _cell(event["cell"], "cell")
        frame = self._frame()
        if position is not None:
            self._status(frame, _position(position))
        led = self._leds([cell])
        frame[led[0]] = MAMMOTH_COLOUR
        ring = self._leds(_ring_around(cell))
        animations = (Animation("blink", ring, DANGER, FAST_BLINK_MS),) if ring else ()
        return LedScene("faced", tuple(frame), animations, {"cell": cell_name(cell), "hunter": event["hunter"]})

    def flee_options(self, needs, position=None) -> LedScene:
        """A frightened hunter must flee: his options pulse in his colour.

        ``needs`` is the engine's ``FleeRequest`` or its JSON form (``hunter``, ``cell``,
        ``options``). The cell he stands on shows the mammoth, which just arrived there.
        """
        hunter, cell, options = _flee_request(needs)
        frame = self._frame()
        if position is not None:
            self._status(frame, _position(position), highlight=hunter)
        colour = self.colour_of(hunter, position)
        frame[self._leds([cell])[0]] = MAMMOTH_COLOUR
        animations = (Animation("pulse", self._leds(options), colour, PULSE_MS // 2),) if options else ()
        return LedScene("flee_options", tuple(frame), animations,
                        {"hunter": hunter, "cell": cell_name(cell), "options": [cell_name(c) for c in options]})

    def eliminated(self, event: Mapping, position=None) -> LedScene:
        """An eliminated hunter: his cell in his colour, a red ring blinking round it."""
        _expect(event, "hunter_eliminated", ("hunter", "cell"))
        hunter, cell = event["hunter"], _cell(event["cell"], "cell")
        frame = self._frame()
        if position is not None:
            self._status(frame, _position(position))
        frame[self._leds([cell])[0]] = self.colour_of(hunter, position)
        ring = self._leds(_ring_around(cell))
        animations = (Animation("blink", ring, DANGER, FAST_BLINK_MS),) if ring else ()
        return LedScene("eliminated", tuple(frame), animations, {"hunter": hunter, "cell": cell_name(cell)})

    def illegal_change(self, cells: Iterable) -> LedScene:
        """The camera saw a change that is no legal move: those cells blink magenta.

        The status LEDs turn magenta too, so the table notices even with the cells
        covered by hands or tokens.
        """
        if isinstance(cells, (str, int)):
            cells = [cells]
        involved = _cells(list(cells), "cells")
        frame = self._frame()
        self._status(frame, None, colour=ILLEGAL)
        animations = (Animation("blink", self._leds(involved), ILLEGAL, FAST_BLINK_MS),) if involved else ()
        return LedScene("illegal_change", tuple(frame), animations, {"cells": [cell_name(c) for c in involved]})

    def celebration(self, winner: str, position=None, trap_cell=None) -> LedScene:
        """The end: the whole board chases in the winner's colour, spiralling outwards.

        ``winner`` is a player name or ``"mammoth"``; ``trap_cell`` (where the mammoth
        fell) blinks white.
        """
        if not isinstance(winner, str) or not winner:
            raise SceneError("celebration needs the winner's name (or \"mammoth\")")
        colour = MAMMOTH_WINS_COLOUR if winner == "mammoth" else self.colour_of(winner, position)
        frame = self._status(self._frame(), None, colour=colour)
        order = spiral()
        detail = {"winner": winner}
        extra = []
        if trap_cell is not None:
            trap = _cell(trap_cell, "trap_cell")
            order.remove(trap)
            extra.append(Animation("blink", self._leds([trap]), WHITE, BLINK_MS))
            detail["trap"] = cell_name(trap)
        animations = [Animation("chase", self._leds(order), colour, 40 * len(order))] + extra
        for led in self._leds(order):
            frame[led] = dim(colour)
        return LedScene("celebration", tuple(frame), tuple(animations), detail)

    def attract(self) -> LedScene:
        """For convention stands: rings of colour running round the board while nobody plays."""
        rings: dict[int, list[int]] = {}
        for cell, (q, r) in enumerate(CELLS):
            rings.setdefault(max(abs(q), abs(r), abs(q + r)), []).append(cell)
        outer = clockwise(rings[3])
        middle = clockwise(rings[2])[::-1]  # counter-clockwise: the two rings cross
        inner = rings[1] + rings[0]
        frame = self._frame()
        for led in self._leds(outer):
            frame[led] = dim(DEFAULT_PALETTE[3], 16)
        for k, led in enumerate(self.ledmap.status_leds):
            frame[led] = dim(self.palette[k % len(self.palette)])
        animations = (
            Animation("chase", self._leds(outer), MAMMOTH_COLOUR, 120 * len(outer)),
            Animation("chase", self._leds(middle), DEFAULT_PALETTE[1], 150 * len(middle)),
            Animation("pulse", self._leds(inner), WHITE, 2400),
        )
        return LedScene("attract", tuple(frame), animations, {})

    # -- from the engine --------------------------------------------------------------

    def for_events(self, events: Sequence[Mapping], position=None, needs=None,
                   winner: str | None = None) -> list[LedScene]:
        """The scenes to show, in order, for one resolved (or paused) action.

        ``events`` are the JSON events of an ``Outcome``; ``position`` the position after
        it. The last scene is the one to leave on: the celebration, the flee options
        (the game waits for a choice) or whose turn is next. Unknown events are skipped.
        """
        if isinstance(events, (str, bytes)) or not isinstance(events, Sequence):
            raise SceneError("events must be a list of event objects")
        scenes: list[LedScene] = []
        trap_cell = None
        for event in events:
            if not isinstance(event, Mapping):
                raise SceneError(f"an event must be an object, got {type(event).__name__}")
            kind = event.get("type")
            if kind == "mammoth_fled":
                scenes.append(self.flight(event, position))
            elif kind == "mammoth_faced":
                scenes.append(self.faced(event, position))
            elif kind == "hunter_eliminated":
                scenes.append(self.eliminated(event, position))
            elif kind == "mammoth_trapped":
                trap_cell = event.get("cell")
            elif kind == "game_over" and winner is None:
                winner = event.get("winner")
        if winner:
            scenes.append(self.celebration(winner, position, trap_cell))
        elif needs is not None:
            scenes.append(self.flee_options(needs, position))
        elif position is not None:
            scenes.append(self.turn(position))
        return scenes

    def for_game(self, game, events: Sequence[Mapping] = (), needs=None, illegal: Iterable = ()) -> list[LedScene]:
        """The scenes for the latest change of an ``engine.game.Game``, whatever its phase.

        During setup: where the next hunter may go. With ``illegal`` marks (cells, or
        ``{"cell": "q,r", ...}`` as the camera tracker reports them): those cells, until
        the table puts things back. Otherwise :meth:`for_events` on the game's position.
        """
        marks = [m.get("cell") if isinstance(m, Mapping) else m for m in illegal or ()]
        if marks:
            return [self.illegal_change(marks)]
        if getattr(game, "phase", None) == "setup":
            player = game.next_to_place()
            if player is not None:
                return [self.placement(player, game.start_cells(), game.position)]
        return self.for_events(list(events), game.position, needs, getattr(game, "winner", None))

    def for_outcome(self, outcome) -> list[LedScene]:
        """:meth:`for_events` for an ``engine.Outcome``."""
        return self.for_events(outcome.events, outcome.position, outcome.needs, outcome.winner)


# -- reading engine objects and their JSON forms -------------------------------------

def _position(position):
    """An ``engine.Position`` from itself or its JSON form."""
    if position is None:
        raise SceneError("this scene needs the position")
    if isinstance(position, Mapping):
        import engine  # the JSON form is read by the engine's own parser

        try:
            return engine.position_from_json(position)
        except engine.BadRequest as exc:
            raise SceneError(f"bad position: {exc}") from None
    if not all(hasattr(position, a) for a in ("players", "to_move", "hunters", "eliminated")):
        raise SceneError(f"not a position: {type(position).__name__}")
    return position


def _players(position) -> tuple[str, ...]:
    return tuple(_position(position).players) if position is not None else ()


def _eliminated(position) -> tuple[str, ...]:
    return tuple(_position(position).eliminated) if position is not None else ()


def _to_move(position) -> str | None:
    return _position(position).to_move if position is not None else None


def _cell(value, what: str) -> int:
    try:
        return as_cell(value)
    except ValueError as exc:
        raise SceneError(f"{what}: {exc}") from None


def _cells(values, what: str) -> list[int]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise SceneError(f"{what} must be a list of cells like \"0,1\"")
    return [_cell(v, what) for v in values]


def _expect(event, kind: str, fields: Sequence[str]) -> None:
    if not isinstance(event, Mapping):
        raise SceneError(f"a {kind} event must be an object")
    if event.get("type") != kind:
        raise SceneError(f"expected a {kind} event, got {event.get('type')!r}")
    missing = [f for f in fields if f not in event]
    if missing:
        raise SceneError(f"{kind} event lacks {', '.join(missing)}")


def _flee_request(needs) -> tuple[str, int, list[int]]:
    if isinstance(needs, Mapping):
        missing = [f for f in ("hunter", "cell", "options") if f not in needs]
        if missing:
            raise SceneError(f"flee request lacks {', '.join(missing)}")
        hunter, cell, options = needs["hunter"], needs["cell"], needs["options"]
    elif all(hasattr(needs, a) for a in ("hunter", "cell", "options")):
        hunter, cell, options = needs.hunter, needs.cell, list(needs.options)
    else:
        raise SceneError(f"not a flee request: {type(needs).__name__}")
    if not isinstance(hunter, str):
        raise SceneError("flee request: hunter must be a name")
    return hunter, _cell(cell, "flee cell"), _cells(list(options), "flee options")


def _ring_around(cell: int) -> list[int]:
    """The on-board neighbours of ``cell``, clockwise from east."""
    return [n for n in (neighbour(cell, d) for d in range(len(DIRECTIONS))) if n is not None]



def demo_scenes(maker: SceneMaker | None = None) -> list[LedScene]:
    """One of each scene, from real engine outcomes on an open four-player board."""
    import engine
    from engine.game import Game
    from engine.notation import position_from_text

    maker = maker or SceneMaker()
    setup = Game.new(["A", "B", "C", "D"], seed=1)
    setup.place_hunter("A", setup.start_cells()[0])
    board = "gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg"
    start = position_from_text(f"{board} 0,0 A@0,-3;B@0,2;C@-3,0;D@3,0 - A")
    frightened = engine.apply_action(start, engine.Move("A", "SE", 3))     # B must flee
    trapped = engine.apply_action(position_from_text(f"{board} 0,0 A@0,-3;B@3,0;C@-3,0 C@0,2 A"),
                                  engine.Move("A", "SE", 3))                # C's trap
    cornered = engine.apply_action(position_from_text(
        "gggg/ggggg/gggggg/gggxggg/gggggg/ggggr/ggrg 0,0 A@0,-3;B@0,3;C@-3,0 - A"),
        engine.Move("A", "SE", 3))                                          # B has no escape
    scenes = [maker.placement(setup.next_to_place(), setup.start_cells(), setup.position),
              maker.turn(start), *maker.for_outcome(frightened), maker.for_outcome(trapped)[-1],
              *[s for s in maker.for_outcome(cornered) if s.name == "eliminated"],
              maker.illegal_change(["0,0", "1,0"]), maker.celebration("mammoth", start), maker.attract()]
    return scenes


def brightest(scene: LedScene, step_ms: int = 20) -> list[RGB]:
    """Each LED at its brightest over one animation cycle: a still picture of the scene."""
    longest = max((a.period_ms for a in scene.animations), default=step_ms)
    best = list(scene.frame)
    for t in range(0, longest, step_ms):
        for i, rgb in enumerate(scene.render(t)):
            if sum(rgb) > sum(best[i]):
                best[i] = rgb
    return best


def scenes_svg(scenes: Sequence[LedScene], ledmap: LedMap, columns: int = 3) -> str:
    """A sheet of small boards, one per scene, each LED at its brightest.

    Animated hexes carry a letter: B blink, P pulse, C chase (with the chase order).
    """
    size, cell_w, cell_h = 11.0, 250.0, 250.0
    rows = (len(scenes) + columns - 1) // columns
    width, height = cell_w * columns, cell_h * rows + 40
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
           "<!-- Generated by python -m firmware_bridge.scenes (option svg); do not edit by hand. -->",
           "<title>What the LEDs show in each scene</title>",
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#20242a"/>',
           f'<text x="{width / 2:.0f}" y="24" text-anchor="middle" fill="#eee" font-size="14">Each LED at its '
           'brightest during the animation. B blink, P pulse, C chase (numbers: chase order).</text>']
    for k, scene in enumerate(scenes):
        ox = cell_w * (k % columns) + cell_w / 2
        oy = 40 + cell_h * (k // columns) + cell_h / 2 - 15
        pixels = brightest(scene)
        for cell in range(len(CELLS)):
            led = ledmap.index_of(cell)
            q, r = CELLS[cell]
            cx, cy = ox + size * math.sqrt(3) * (q + r / 2), oy + size * 1.5 * r
            corners = " ".join(f"{cx + size * math.cos(math.radians(-90 + 60 * i)):.1f},"
                               f"{cy + size * math.sin(math.radians(-90 + 60 * i)):.1f}" for i in range(6))
            colour = "#%02x%02x%02x" % pixels[led]
            out.append(f'<polygon points="{corners}" fill="{colour}" stroke="#555" stroke-width="0.6"/>')
            anim = scene.animation_at(led)
            if anim is not None:
                label = anim.kind[0].upper()
                if anim.kind == "chase" and len(anim.leds) <= 12:
                    label += str(anim.leds.index(led) + 1)
                out.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle" font-size="7" '
                           f'fill="#fff" stroke="#000" stroke-width="0.3">{label}</text>')
        for j, led in enumerate(ledmap.status_leds):
            x = ox + (j - (len(ledmap.status_leds) - 1) / 2) * 18
            out.append(f'<circle cx="{x:.1f}" cy="{oy + 88:.1f}" r="6" fill="#%02x%02x%02x" stroke="#777"/>'
                       % pixels[led])
        caption = scene.name.replace("_", " ")
        if "winner" in scene.detail:
            caption += f" ({scene.detail['winner']})"
        out.append(f'<text x="{ox:.1f}" y="{oy + 112:.1f}" text-anchor="middle" fill="#eee" '
                   f'font-size="13">{caption}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def bench_scenes(rounds: int = 300) -> str:
    """Time from an engine outcome to its scenes, and to playing them on the simulated strip."""
    import time

    import engine
    from engine.notation import position_from_text

    from .backends import SimulatedBackend

    maker = SceneMaker()
    pos = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3;B@0,2;C@-3,0 - A")
    outcome = engine.apply_action(pos, engine.Move("A", "SE", 3))   # a flight, then B must flee
    backend = SimulatedBackend(led_count=maker.ledmap.led_count)
    start = time.perf_counter()
    for _ in range(rounds):
        scenes = maker.for_outcome(outcome)
    built = (time.perf_counter() - start) / rounds
    start = time.perf_counter()
    for _ in range(rounds):
        for scene in scenes:
            scene.play(backend)
    played = (time.perf_counter() - start) / rounds
    return (f"scenes for one outcome ({len(scenes)} scenes): built in {built * 1e6:.0f} µs, "
            f"played on the simulated strip in {played * 1e6:.0f} µs ({rounds} rounds)")


def main(argv: list[str] | None = None) -> int:
    """``python -m firmware_bridge.scenes --power``: estimated draw of every scene."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.scenes",
                                     description="Show the LED scenes of a demo game and their current draw.")
    parser.add_argument("--brightness", type=int, default=DEFAULT_BRIGHTNESS,
                        help=f"firmware brightness 0..255 ({DEFAULT_BRIGHTNESS})")
    parser.add_argument("--limit", type=int, default=1500, help="firmware current limit in mA (1500)")
    parser.add_argument("--bench", action="store_true",
                        help="time scene building and playing on the simulated strip instead")
    parser.add_argument("--svg", metavar="OUT.svg", help="draw every demo scene into this file instead")
    args = parser.parse_args(argv)
    if args.bench:
        print(bench_scenes())
        return 0
    if args.svg:
        maker = SceneMaker()
        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(scenes_svg(demo_scenes(maker), maker.ledmap))
        except OSError as exc:
            print(f"error: cannot write {args.svg}: {exc.strerror or exc}", file=__import__("sys").stderr)
            return 1
        print(f"wrote {args.svg}")
        return 0
    if not 0 <= args.brightness <= 255 or args.limit < 0:
        parser.error("brightness must be 0..255 and the limit >= 0")
    maker = SceneMaker()
    count = maker.ledmap.led_count
    print(f"{'scene':22s} {'full':>8s} {'limited':>8s}   (mA, {count} LEDs; limited = brightness "
          f"{args.brightness}, limit {args.limit} mA; +{count} mA quiescent)")
    rows = [(f"{s.name} ({s.detail['winner']})" if "winner" in s.detail else s.name, s)
            for s in demo_scenes(maker)]
    rows.append(("all white (worst)", LedScene("white", (WHITE,) * count)))
    for name, scene in rows:
        print(f"{name:22s} {peak_current_ma(scene):8d} {peak_current_ma(scene, args.brightness, args.limit):8d}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
