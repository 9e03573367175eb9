"""A whole game of La Vallée des Mammouths: the state, and the steps that chain the phases.

A :class:`Game` is plain data (the valley, the tribes, the animals and the bag, the
markers and fields, the season clock, the decks) plus an *agenda*: the steps still to
run this turn. :meth:`Game.pending` says what the table is asked now (a die roll, a card
or token draw, a player's choice, with its legal options); :meth:`Game.apply` takes one
entry (a JSON-ready dict), runs every step it unblocks, and returns the events it caused.
An illegal entry raises :class:`~vallee.core.IllegalRequest` naming the rule, a malformed
one :class:`~vallee.core.BadRequest`; neither changes anything the caller keeps when it
works on :meth:`Game.copy` (validate on a copy → journal → keep the copy).

The rules live in the phase modules (:mod:`vallee.calendar`, :mod:`vallee.arrivals`,
:mod:`vallee.animals`, :mod:`vallee.tribes`, :mod:`vallee.camps`,
:mod:`vallee.combat_play`, :mod:`vallee.survival`, :mod:`vallee.births`,
:mod:`vallee.events`, :mod:`vallee.tricks`, :mod:`vallee.standing`); the steps that call
them are in :mod:`vallee.game_turn`, :mod:`vallee.game_events`, :mod:`vallee.game_combat`
and :mod:`vallee.game_tricks`. docs/vallee-game.md documents the entries.

Randomness is per component (``dice``, ``events``, ``tricks``, ``bag``): *physical*, the
entry carries the face, card or token seen at the table; *virtual*, the entry may leave
it out and the game draws it from a generator seeded by the setup's seed and the number
of earlier draws of that component. Either way the value is written into the entry kept
in :attr:`Game.entries`, so a replay or an undo never draws again.

>>> game = Game.new({"players": ["red", "blue"], "map": "sample", "seed": 7})
>>> game.pending()["kind"], game.pending()["step"]
('lot', 'first_player_lot')
>>> events = game.apply({"kind": "lot"})
>>> game.entries[-1]["player"] in ("red", "blue"), game.pending()["kind"]
(True, 'place_camp')
"""

from __future__ import annotations

import json
import random
from copy import deepcopy
from dataclasses import dataclass, field

from .board import Valley
from .calendar import TurnInfo, turn_info
from .core import BadRequest, Cell, IllegalRequest, ValleeError, cell_name, reading_key
from .variants import Variants

RECORD_FORMAT = "vallee-game/1"
COMPONENTS = ("dice", "events", "tricks", "bag")
MODES = ("virtual", "physical")
HIDDEN = "?"  # a trick card in a hand the companion cannot see (physical trick deck)
MAX_WARRIORS, MAX_WOMEN, START_FOOD = 10, 6, 12


@dataclass
class Tribe:
    """One player's tribe: pawns per cell ([warriors, women]), camps, food, hand, fire."""

    name: str
    pawns: dict = field(default_factory=dict)  # cell → [warriors, women]
    camps: dict = field(default_factory=dict)  # cell → "village" | "cave"
    food: int = START_FOOD
    hand: list = field(default_factory=list)  # trick ids, or HIDDEN
    fire: bool = False
    returned: bool = False  # used its one return (rules «Le retour…»)
    out: bool = False  # eliminated for good
    announced: bool = False  # announced four camps at the last end of turn
    pacs: dict = field(default_factory=dict)  # camp cell → turn founded without a woman (Pacs)
    wolf: Cell | None = None  # the cell of its tamed wolf (Louveteau)
    wolf_letter: str = ""  # the tamed wolf's token letter ("" unlettered)
    turn_cards: list = field(default_factory=list)  # cards lasting this turn: silax, torches, cannibales

    @property
    def warriors(self) -> int:
        return sum(w for w, _ in self.pawns.values())

    @property
    def women(self) -> int:
        return sum(f for _, f in self.pawns.values())

    @property
    def count(self) -> int:
        return self.warriors + self.women

    def at(self, cell: Cell) -> tuple[int, int]:
        w, f = self.pawns.get(cell, (0, 0))
        return (w, f)


@dataclass
class Animal:
    """A unit on the board: one animal or a herd; ``letters`` one per token ("" unlettered)."""

    id: str
    species: str
    cell: Cell
    letters: list

    @property
    def count(self) -> int:
        return len(self.letters)


@dataclass
class Markers:
    flooded: set = field(default_factory=set)
    burning: set = field(default_factory=set)
    closed: set = field(default_factory=set)  # closed this turn (snow, volcanoes)
    frozen_cells: set = field(default_factory=set)  # pawns there may not move this turn
    lava: set = field(default_factory=set)  # lava flowed this turn (fire may be taken)
    frozen_rivers: set = field(default_factory=set)
    drought: bool = False
    lean_meat: bool = False
    good_rains: bool = False
    cold_snap: bool = False
    no_arrivals: bool = False
    epizootie: str | None = None
    move_limit: int = 2


def _fail(en: str, fr: str, rule: str):
    raise IllegalRequest(en, fr, rule)


class Game:
    """One game; build it with :meth:`new` (a setup) or :meth:`replay` (setup + entries)."""

    def __init__(self, setup: dict):
        from . import game_combat, game_events, game_moves, game_turn  # noqa: F401  (their steps register)
        from .game_setup import read_setup

        self.setup = read_setup(setup)
        s = self.setup
        self.valley: Valley = s["valley"]
        self.variants: Variants = s["variants"]
        self.seats: tuple[str, ...] = tuple(s["players"])
        self.fire_rules: bool = s["fire_rules"]
        self.modes: dict = s["random"]
        self.seed: int = s["seed"]
        self.draws = {c: 0 for c in COMPONENTS}
        self.turn = 0
        self.held: list[int] = []
        self.tribes = {name: Tribe(name, food=s["food"]) for name in self.seats}
        self.animals: dict[str, Animal] = {}
        self.bag: list = []
        self.wolves_reserve = 0
        self.fields: dict = {}  # cell → {"state": intact|damaged, "palisade": bool, "owner": name}
        self.markers = Markers()
        self.neutrals: list[dict] = []  # the solitaire pawns: {"cell": Cell, "sex": "warrior"|"woman"}
        self.decks: dict = {}
        self.discards: dict = {}
        self.lasting: list = []  # event cards lying face up while their effect lasts
        self.trick_pile: list = []  # ids (virtual) or HIDDEN (physical)
        self.trick_discards: list = []
        self.order: tuple[str, ...] = ()
        self.first_setup: str | None = None
        self.agenda: list[dict] = []
        self.entries: list[dict] = []
        self.over = False
        self.winners: tuple[str, ...] = ()
        self.reason: str | None = None
        self.turn_log: dict = {}  # facts of this turn later steps need (births, kills…)
        self._ask: dict | None = None
        self._info: TurnInfo | None = None
        self.turn_players = len(self.seats)  # tribes counted for this turn's arrivals (gap V25)
        from .game_setup import start

        self._events: list = []
        self._phase = "setup"
        start(self)
        self._run()
        #: The events of the setup steps that ran before the first question.
        self.setup_events, self._events = self._events, []

    # -- building --------------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict) -> "Game":
        return cls(setup)

    @classmethod
    def replay(cls, setup: dict, entries) -> "Game":
        game = cls(setup)
        for entry in entries:
            game.apply(entry)
        return game

    def copy(self) -> "Game":
        """An independent copy (the map and variants are shared, never changed)."""
        return deepcopy(self, {id(self.valley): self.valley, id(self.variants): self.variants})

    def undone(self) -> "Game":
        """The same game without its last entry: rebuilt from the setup and the entries
        before it (the recorded rolls and draws are reused, never drawn again)."""
        if not self.entries:
            _fail("nothing to undo", "rien à annuler", "request.format")
        return Game.replay(self.setup["json"], self.entries[:-1])

    # -- the clock -------------------------------------------------------------------
    @property
    def info(self) -> TurnInfo:
        if self._info is None or self._info.turn != max(self.turn, 1):
            self._info = turn_info(max(self.turn, 1), held=tuple(self.held), variants=self.variants)
        return self._info

    def in_play(self) -> list[str]:
        """Players still in the game, in seat order (eliminated ones who may return included)."""
        return [p for p in self.seats if not self.tribes[p].out]

    def on_board(self) -> list[str]:
        return [p for p in self.seats if self.tribes[p].count]

    # -- the step machine ---------------------------------------------------------------
    def pending(self) -> dict | None:
        """What the table is asked now, or None when the game is over."""
        if self.over or self._ask is None:
            return None
        return deepcopy(self._ask)

    def apply(self, entry) -> list[dict]:
        """Take one entry; return the events it caused (see docs/vallee-game.md)."""
        from .game_tricks import play_trick

        if self.over:
            _fail("the game is over", "la partie est finie", "phase.end")
        if not isinstance(entry, dict):
            raise BadRequest("entry", "must be an object")
        kind = entry.get("kind")
        if not isinstance(kind, str):
            raise BadRequest("entry.kind", "is required")
        entry = dict(entry)
        self._events = []
        if kind == "trick":
            play_trick(self, self._ask, entry)
        else:
            ask = self._ask
            if ask is None:
                _fail("nothing is asked now", "rien n'est demandé maintenant", "request.format")
            if kind not in ask.get("kinds", (ask["kind"],)):
                _fail(
                    f"the table is asked for {ask['kind']!r}, not {kind!r}",
                    f"la table attend {ask['kind']!r}, pas {kind!r}",
                    f"phase.{ask['phase']}",
                )
            if ask.get("player") and entry.get("player", ask["player"]) != ask["player"]:
                _fail(
                    f"it is {ask['player']}'s choice, not {entry.get('player')}'s",
                    f"c'est à {ask['player']} de choisir, pas à {entry.get('player')}",
                    f"phase.{ask['phase']}",
                )
            if ask.get("player"):
                entry["player"] = ask["player"]
            step = self.agenda[0]
            self._ask = None
            self._phase = step.get("phase", "setup")
            from .game_turn import STEPS

            if STEPS[step["step"]](self, step, entry) is True:  # a question returned: asked again
                self._finish_step(step)
        self.entries.append(entry)
        self._run()
        events, self._events = self._events, []
        return events

    def destinations(self, start: str, warriors: int, women: int, cards=()) -> dict:
        """During a movement question: where a group of the player to move may go from
        ``start`` ("q,r") without leaving pawns on the way, ``{end cell: path}`` (each path
        a list of cells, the shortest legal one); ``cards`` as in a move entry."""
        from .core import parse_cell
        from .game_moves import destinations

        if self._ask is None or self._ask["step"] != "movement":
            _fail("destinations are asked during a movement", "les destinations se demandent pendant un déplacement",
                  "phase.tribes")
        found = destinations(self, self.agenda[0], parse_cell(start, "start"), warriors, women, tuple(cards))
        return {cell_name(end): [cell_name(c) for c in path] for end, path in sorted(found.items(),
                                                                                       key=lambda kv: reading_key(kv[0]))}

    def _finish_step(self, step: dict) -> None:
        if self.agenda and self.agenda[0] is step:
            self.agenda.pop(0)
        else:  # sub-steps were put in front of it: remove it where it is
            self.agenda = [s for s in self.agenda if s is not step]

    def _run(self) -> None:
        """Run every step that needs no input, up to the next question."""
        from .game_turn import STEPS

        while not self.over:
            if not self.agenda:
                from .game_turn import next_turn

                next_turn(self)
                continue
            step = self.agenda[0]
            self._phase = step.get("phase", "setup")
            asked = STEPS[step["step"]](self, step, None)
            if isinstance(asked, dict):
                self._ask = {"turn": self.turn, "phase": step.get("phase", "setup"), "step": step["step"], **asked}
                from .game_tricks import tricks_now

                self._ask["tricks"] = tricks_now(self, self._ask)
                return
            if asked:
                self._finish_step(step)
        self._ask = None

    def then(self, *steps: dict) -> None:
        """Put steps right after the one running now (in the order given)."""
        if not self.agenda:
            self.agenda.extend(steps)
            return
        self.agenda[1:1] = list(steps)

    def first(self, *steps: dict) -> None:
        """Put steps before the one running now (it runs again after them)."""
        self.agenda[0:0] = list(steps)

    # -- events and changes ---------------------------------------------------------------
    def emit(self, kind: str, rule: str, **data) -> dict:
        event = {"type": kind, "rule": rule, "turn": self.turn, "phase": self._phase, **data}
        self._events.append(event)
        return event

    def change_food(self, player: str, delta: int, reason: str, rule: str) -> int:
        """Add or take food (never below 0: a payment takes what there is, gap V21)."""
        tribe = self.tribes[player]
        before = tribe.food
        tribe.food = max(0, before + delta)
        if tribe.food != before:
            self.emit("food", rule, player=player, delta=tribe.food - before, reason=reason, food=tribe.food)
        return tribe.food - before

    def change_pawns(self, player: str, cell: Cell, warriors: int, women: int, reason: str, rule: str) -> None:
        """Add (positive) or remove (negative) a tribe's pawns on a cell, caps checked."""
        tribe = self.tribes[player]
        w, f = tribe.at(cell)
        w, f = w + warriors, f + women
        if w < 0 or f < 0:
            _fail(
                f"{player} has not that many pawns on {cell_name(cell)}",
                f"{player} n'a pas autant de pions en {cell_name(cell)}",
                "tribes.pieces",
            )
        if tribe.warriors + warriors > MAX_WARRIORS or tribe.women + women > MAX_WOMEN:
            _fail(f"{player} has no piece left for that", f"{player} n'a plus de pion pour cela", "pieces.tribe")
        if w or f:
            tribe.pawns[cell] = [w, f]
        else:
            tribe.pawns.pop(cell, None)
        if warriors or women:
            self.emit("pawns", rule, player=player, cell=cell_name(cell), warriors=warriors, women=women, reason=reason)

    def free_pieces(self, player: str) -> tuple[int, int]:
        tribe = self.tribes[player]
        return MAX_WARRIORS - tribe.warriors, MAX_WOMEN - tribe.women

    def check_camps(self, rule: str = "camps.abandoned") -> None:
        """After pawns were lost or moved: a camp without one of its tribe's women on its
        cell is abandoned (rules §4), except a Pacs camp until the end of the turn after its
        founding; a tamed wolf left without its tribe goes wild (ruling G10)."""
        for name, tribe in self.tribes.items():
            for cell in list(tribe.camps):
                if tribe.at(cell)[1] == 0 and cell not in tribe.pacs:
                    self.remove_camp(name, cell, "abandoned", rule)
            if tribe.wolf is not None and tribe.wolf not in tribe.pawns:
                from .game_tricks import wolf_goes_wild

                wolf_goes_wild(self, name)

    def remove_camp(self, player: str, cell: Cell, why: str, rule: str) -> None:
        tribe = self.tribes[player]
        tribe.camps.pop(cell, None)
        tribe.pacs.pop(cell, None)
        self.emit("camp_lost", rule, player=player, cell=cell_name(cell), why=why)
        if not tribe.camps and tribe.fire and self.variants.fire_without_camp == "forbidden":
            self.set_fire(player, False, "no_camp", "fire.camp")

    def set_fire(self, player: str, has: bool, why: str, rule: str) -> None:
        tribe = self.tribes[player]
        if tribe.fire != has:
            tribe.fire = has
            self.emit("fire", rule, player=player, fire=has, why=why)

    def may_take_fire(self, player: str) -> bool:
        tribe = self.tribes[player]
        return (
            self.fire_rules
            and not tribe.fire
            and (bool(tribe.camps) or self.variants.fire_without_camp == "kept_until_camp")
        )

    # -- who stands where -----------------------------------------------------------------
    def occupants(self, cell: Cell) -> dict:
        """Tribe → (warriors, women) on a cell."""
        return {name: t.at(cell) for name, t in self.tribes.items() if cell in t.pawns}

    def animals_at(self, cell: Cell) -> list[Animal]:
        return [a for a in self.animals.values() if a.cell == cell]

    def human_cells(self) -> set:
        cells = {c for t in self.tribes.values() for c in t.pawns}
        cells.update(n["cell"] for n in self.neutrals)
        return cells

    def camp_owner(self, cell: Cell) -> str | None:
        return next((name for name, t in self.tribes.items() if cell in t.camps), None)

    def closed_cells(self) -> set:
        m = self.markers
        return m.flooded | m.burning | m.closed

    # -- randomness ------------------------------------------------------------------------
    def virtual(self, component: str) -> bool:
        return self.modes[component] == "virtual"

    def rng(self, component: str) -> random.Random:
        """The generator of the next virtual draw of a component (not yet counted)."""
        return random.Random(f"{self.seed}/{component}/{self.draws[component]}")

    def drew(self, component: str) -> None:
        self.draws[component] += 1

    def dice(self, entry: dict, count: int) -> list[int]:
        """The dice of a roll entry: given (physical, or checked against the virtual draw)
        or drawn; written into the entry."""
        rng = self.rng("dice")
        drawn = [rng.randint(1, 6) for _ in range(count)] if self.virtual("dice") else None
        given = entry.get("dice")
        if given is None:
            if drawn is None:
                raise BadRequest("dice", f"the dice are physical: give the {count} face(s) rolled")
            given = drawn
        if not isinstance(given, list) or len(given) != count:
            raise BadRequest("dice", f"must list {count} die face(s)")
        for i, d in enumerate(given):
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
                raise BadRequest(f"dice.{i}", "a die shows 1 to 6")
        if drawn is not None and given != drawn:
            _fail(
                'the dice are virtual: the companion rolls them (leave "dice" out)',
                'les dés sont virtuels : le compagnon les lance (omettez "dice")',
                "random.virtual",
            )
        self.drew("dice")
        entry["dice"] = list(given)
        return list(given)

    # -- the record ---------------------------------------------------------------------------
    def record_lines(self) -> list[str]:
        return [setup_line(self.setup["json"])] + [entry_line(e) for e in self.entries]

    def to_json(self) -> dict:
        from .game_view import view

        return view(self)


def _line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True)


def setup_line(setup: dict) -> str:
    """The journal's first line: ``{"record": "vallee-game/1", "setup": {...}}``."""
    return _line({"record": RECORD_FORMAT, "setup": setup})


def entry_line(entry: dict) -> str:
    return _line({"entry": entry})


def undo_line() -> str:
    return _line({"undo": True})


def replay_prefix(lines) -> tuple[Game, str | None, int]:
    """The game of the journal's longest valid beginning, why it stopped (None when
    every line replayed) and how many lines it used: the replay function
    :meth:`rulekit.journal.Journal.load` takes. ``ValueError`` when no line starts a game.

    >>> g = Game.new({"players": ["red", "blue"], "map": "sample", "seed": 3})
    >>> _ = g.apply({"kind": "lot"})
    >>> lines = g.record_lines() + [entry_line({"kind": "roll"}), undo_line()]
    >>> game, problem, kept = replay_prefix(lines)
    >>> len(game.entries), kept, problem.split(":")[0]
    (1, 2, 'line 3')
    """
    from rulekit.jsonrequest import RequestError, read_json

    game, entries, kept = None, [], 0
    for number, line in enumerate(lines, start=1):
        try:
            record = read_json(line) if isinstance(line, str) else line
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
            if game is None:
                if record.get("record") != RECORD_FORMAT:
                    raise ValueError(f"not a {RECORD_FORMAT} header")
                game = Game(record["setup"])
            elif record.get("undo"):
                if not entries:
                    raise ValueError("nothing to undo")
                entries = entries[:-1]
                game = Game.replay(game.setup["json"], entries)
            elif "entry" in record:
                game.apply(record["entry"])
                entries.append(game.entries[-1])
            else:
                raise ValueError("neither an entry nor an undo")
        except Exception as exc:  # any line that cannot be replayed ends the valid beginning
            message = getattr(exc, "message", None) or str(exc)
            if game is None:
                if not isinstance(exc, (RequestError, ValueError, KeyError, TypeError, ValleeError)):
                    raise
                raise ValueError(f"line {number}: {message}") from None
            # an entry refused half-way: back to the game of the entries before it
            return Game.replay(game.setup["json"], entries), f"line {number}: {message}", kept
        kept += 1
    if game is None:
        raise ValueError("no line starts a game")
    return game, None, kept


def sorted_cells(cells) -> list:
    return sorted(cells, key=reading_key)


__all__ = [
    "Game",
    "Tribe",
    "Animal",
    "Markers",
    "replay_prefix",
    "setup_line",
    "entry_line",
    "undo_line",
    "RECORD_FORMAT",
    "COMPONENTS",
    "MODES",
    "HIDDEN",
]
