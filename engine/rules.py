"""The referee: legal actions, applying an action, and the mammoth's flight.

Each decision names the rule it applies (ids of :mod:`engine.rulebook`). The board's
geometry is precomputed once per layout (rays per cell and direction, integer cells),
so a flight costs a handful of tuple look-ups.

The rulebook figure (RULINGS "Worked example"): the hunter at -2,2 plays a 2 east,
enters the mammoth's cell 0,2 on his last step, and the mammoth runs north-east:

>>> from engine.notation import position_from_text
>>> pos = position_from_text("gggg/ggggg/gggggg/gggrggg/gggggg/ggsgg/gggg 0,2 A@-2,2;B@3,-3 - A")
>>> out = apply_action(pos, Move("A", "E", 2))
>>> [e["type"] for e in out.events]
['hunter_moved', 'mammoth_fled']
>>> out.events[1]["direction"], out.events[1]["to"], [t["direction"] for t in out.events[1]["tried"]]
('NE', '2,0', ['E', 'SE', 'SW', 'NW', 'NE'])
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Sequence

from .core import (
    MAMMOTH,
    TRAPS_PER_PLAYER,
    Action,
    FleeRequest,
    IllegalAction,
    Move,
    Outcome,
    Pass,
    PlaceTrap,
    Position,
    RemoveTrap,
    Tile,
)
from . import events as ev
from .cards import CARD_VALUES
from .hexgrid import CELL_NAMES, CELLS, DIRECTION_INDEX, DIRECTION_VECTORS, DIRECTIONS, NEIGHBOURS, NUM_CELLS, RAYS
from .variants import DEFAULT, Variants


#: Flight order relative to the hunter's direction a: a, a+1, a+2, a+4, a+5 (RULINGS flight 2).
FLIGHT_TURNS = (0, 1, 2, 4, 5)


class _Layout:
    """What a tile layout fixes for the whole game: walkability and open ray lengths."""

    __slots__ = ("tiles", "walkable", "grass", "open_len", "ray_codes", "_survives", "_tried", "_masks")

    def __init__(self, tiles: tuple[Tile, ...]):
        self.tiles = tiles
        self._survives: list = [None] * NUM_CELLS
        self._tried: dict = {}
        self._masks = None
        self.walkable = tuple(t is not Tile.ROCK for t in tiles)
        self.grass = tuple(t is Tile.GRASS for t in tiles)
        open_len = []
        #: each cell's open lengths packed 2 bits per direction (the playout kernel's cache key)
        ray_codes = []
        for cell in range(NUM_CELLS):
            row = []
            code = 0
            for d in range(6):
                n = 0
                for c in RAYS[cell][d][:3]:
                    if not self.walkable[c]:
                        break
                    n += 1
                row.append(n)
                code |= n << (2 * d)
            open_len.append(tuple(row))
            ray_codes.append(code)
        self.open_len = tuple(open_len)
        self.ray_codes = tuple(ray_codes)

    def flight_direction(self, origin: int, a: int, k: int) -> int:
        """The direction a flight of ``k`` takes when traps do not shorten the check, or -1."""
        reach = self.open_len[origin]
        for t in FLIGHT_TURNS:
            d = (a + t) % 6
            if reach[d] >= k:
                return d
        return -1

    def survives(self, mammoth: int) -> bool:
        known = self._survives[mammoth]
        if known is None:
            if self._masks is None:
                self._masks = _entered_masks(self.tiles, self.open_len)
            known = self._survives[mammoth] = survives_from(self.tiles, mammoth, self.open_len, self._masks)
        return known


@lru_cache(maxsize=256)
def _layout_for(tiles: tuple[Tile, ...]) -> _Layout:
    return _Layout(tiles)


def layout_of(pos: Position) -> _Layout:
    """The layout tables of a position, computed once and carried to its successors."""
    layout = pos.layout
    if layout is None:
        layout = _layout_for(pos.tiles)
        object.__setattr__(pos, "layout", layout)
    return layout


def _off_board_name(cell: int, d: int, steps: int) -> str:
    q, r = CELLS[cell]
    dq, dr = DIRECTION_VECTORS[d]
    return f"{q + dq * steps},{r + dr * steps}"


def live_traps(pos: Position, variants: Variants = DEFAULT) -> dict[int, str]:
    """Traps the mammoth can fall into (an eliminated player's may be inert)."""
    if variants.eliminated_traps == "keep_inert" and pos.eliminated:
        return {c: o for c, o in pos.traps.items() if o not in pos.eliminated}
    return pos.traps


def next_player(pos: Position, after: str, eliminated: Sequence[str]) -> str:
    """The next player clockwise after ``after`` who is still in the game."""
    players = pos.players
    n = len(players)
    i = players.index(after)
    for step in range(1, n + 1):
        candidate = players[(i + step) % n]
        if candidate not in eliminated:
            return candidate
    return after


def _hand_values(pos: Position, player: str) -> Sequence[int]:
    if pos.hands is None:
        return CARD_VALUES
    return sorted(set(pos.hands.get(player, ())))


def legal_actions(pos: Position, variants: Variants = DEFAULT) -> list[Action]:
    """Every legal action of the player to move (none once the game is over).

    >>> from engine.notation import position_from_text
    >>> pos = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@0,-3;B@0,3 - A A:11;B:123")
    >>> [a for a in legal_actions(pos) if isinstance(a, Move)][:3]
    [Move(hunter='A', direction='E', distance=1), Move(hunter='A', direction='SE', distance=1), Move(hunter='A', direction='SW', distance=1)]
    >>> len(legal_actions(pos))
    5
    """
    player = pos.to_move
    cell = pos.hunters.get(player)
    if cell is None or player in pos.eliminated or game_is_over(pos, variants):
        return []
    layout = layout_of(pos)
    open_len = layout.open_len[cell]
    values = _hand_values(pos, player)
    actions: list[Action] = []
    for d in range(6):
        reach = open_len[d]
        for k in values:
            if k <= reach:
                actions.append(Move(player, DIRECTIONS[d], k))
    alone = _alone(pos, player, cell)
    if layout.grass[cell] and cell not in pos.traps and alone and pos.traps_of(player) < TRAPS_PER_PLAYER:
        actions.append(PlaceTrap(player))
    if cell in pos.traps and (alone or not variants.alone_required_for_recover):
        actions.append(RemoveTrap(player))
    if pos.hands is None or not pos.hands.get(player):
        actions.append(Pass(player))
    else:
        actions.extend(Pass(player, v) for v in values)
    return actions


def _alone(pos: Position, player: str, cell: int) -> bool:
    for other, c in pos.hunters.items():
        if c == cell and other != player:
            return False
    return True


def game_is_over(pos: Position, variants: Variants = DEFAULT) -> bool:
    """No hunter is left, or the mammoth lies in a trap: nobody can act any more."""
    return not pos.hunters or pos.mammoth in live_traps(pos, variants)


def _illegal(message: str, rule: str, reason: str) -> IllegalAction:
    err = IllegalAction(message, rule)
    err.reason = reason
    return err


class _Resolution:
    """Mutable working copy of a position while one action resolves."""

    def __init__(self, pos: Position, variants: Variants, choices: Sequence[tuple[str, int]],
                 legacy_forced: bool = False):
        self.pos = pos
        self.variants = variants
        self.layout = layout_of(pos)
        self.mammoth = pos.mammoth
        self.hunters = dict(pos.hunters)
        self.traps = dict(pos.traps)
        self.eliminated = list(pos.eliminated)
        self.hands = None if pos.hands is None else dict(pos.hands)
        self.events: list[ev.Event] = []
        self.choices = choices
        self.next_choice = 0
        #: read a mismatched choice at a forced flee as meant for a later flee (see apply_action)
        self.legacy_forced = legacy_forced
        self.skipped: list[int] = []  # indices of choices passed over at forced flees (legacy reading)
        self.forced: list[tuple[str, int, int]] = []  # forced flees applied unasked: (hunter, cell, next choice)
        self.winner: str | None = None
        self.needs: FleeRequest | None = None
        self.eventful = False  # a flight or a trap change resets the stall counter

    # -- players --------------------------------------------------------------
    def eliminate(self, hunter: str, cell: int, reason: str, rule: str):
        del self.hunters[hunter]
        self.eliminated.append(hunter)
        discarded = traps_removed = None
        if self.hands is not None:
            discarded = tuple(self.hands.get(hunter, ()))
            self.hands[hunter] = ()
        if self.variants.eliminated_traps == "remove":
            removed = sorted(c for c, o in self.traps.items() if o == hunter)
            for c in removed:
                del self.traps[c]
            traps_removed = tuple(CELL_NAMES[c] for c in removed)
        self.events.append(ev.HunterEliminated(hunter, CELL_NAMES[cell], reason, rule, discarded, traps_removed))

    def live_trap_owner(self, cell: int):
        owner = self.traps.get(cell)
        if owner is None:
            return None
        if self.variants.eliminated_traps == "keep_inert" and owner in self.eliminated:
            return None
        return owner

    # -- flight ---------------------------------------------------------------
    def try_directions(self, origin: int, a: int, k: int):
        """Each direction in flight order with why it is refused, up to the first open one."""
        truncate = self.variants.trap_truncates_path_check
        if not truncate:
            # without traps in the check the verdicts depend on the layout only: memoise them
            key = (origin, a, k)
            cached = self.layout._tried.get(key)
            if cached is None:
                cached = self.layout._tried[key] = self._try_directions(origin, a, k, False)
            return [dict(t) for t in cached[0]], cached[1]
        return self._try_directions(origin, a, k, True)

    def _try_directions(self, origin: int, a: int, k: int, truncate: bool):
        walkable = self.layout.walkable
        tried = []
        for turn in FLIGHT_TURNS:
            d = (a + turn) % 6
            ray = RAYS[origin][d]
            verdict = None
            for step in range(k):
                if step >= len(ray):
                    verdict = ("edge", _off_board_name(origin, d, step + 1))
                    break
                c = ray[step]
                if truncate and self.live_trap_owner(c) is not None:
                    break  # the mammoth would fall in before meeting what lies beyond
                if not walkable[c]:
                    verdict = ("rock", CELL_NAMES[c])
                    break
            if verdict is None:
                tried.append({"direction": DIRECTIONS[d], "open": True, "reason": "open", "cell": None})
                return tried, d
            tried.append({"direction": DIRECTIONS[d], "open": False, "reason": verdict[0], "cell": verdict[1]})
        return tried, None

    def flight(self, mover: str, a: int, k: int) -> str:
        """Resolve one flight; returns "faced", "trapped", "needs" or "fled"."""
        origin = self.mammoth
        tried, d = self.try_directions(origin, a, k)
        if d is None:
            self.events.append(ev.MammothFaced(CELL_NAMES[origin], mover, k, tuple(tried),
                                               DIRECTIONS[(a + 3) % 6]))
            self.eliminate(mover, origin, "mammoth_faced", "flight.faced")
            return "faced"
        path = list(RAYS[origin][d][:k])
        for i, c in enumerate(path):
            if self.live_trap_owner(c) is not None:
                path = path[: i + 1]
                break
        self.eventful = True
        self.events.append(ev.MammothFled(CELL_NAMES[origin], CELL_NAMES[path[-1]],
                                          tuple(CELL_NAMES[c] for c in path), DIRECTIONS[d], k, mover,
                                          tuple(tried), DIRECTIONS[(a + 3) % 6]))
        previous = origin
        for c in path:
            self.mammoth = c
            owner = self.live_trap_owner(c)
            if owner is not None:
                self.events.append(ev.MammothTrapped(CELL_NAMES[c], owner))
                self.winner = owner
                return "trapped"
            frightened = [h for h, hc in self.hunters.items() if hc == c]
            if frightened:
                for hunter in self.turn_order_from(mover, frightened):
                    if not self.frighten(hunter, c, previous):
                        return "needs"
            previous = c
        return "fled"

    def turn_order_from(self, active: str, names: list[str]) -> list[str]:
        players = self.pos.players
        start = players.index(active)
        order = players[start:] + players[:start]
        return [p for p in order if p in names]

    def flee_options(self, cell: int, came_from: int) -> tuple[int, ...]:
        rule = self.variants.flee_target
        walkable = self.layout.walkable
        occupied = set(self.hunters.values())
        options = []
        for n in NEIGHBOURS[cell]:
            if n is None or n == came_from or not walkable[n]:
                continue
            if rule != "accessible" and n in occupied:
                continue
            if rule == "empty" and n in self.traps:
                continue
            options.append(n)
        return tuple(options)

    def frighten(self, hunter: str, cell: int, came_from: int) -> bool:
        """Make ``hunter`` flee from ``cell``; False when the owner's choice is missing.

        RULINGS «Mammoth flight» 5 (FR/EN mammoth rules ¶4, rule ``flight.frighten``):
        the owner chooses among ``options``. A hunter with a single option flees there
        without being asked; a choice naming him next may still describe that flee (a
        referee writing down the turn cannot know which flees were forced): it is
        consumed when it names the one option, refused when it names another cell.
        """
        options = self.flee_options(cell, came_from)
        if not options:
            self.eliminate(hunter, cell, "no_escape", "flight.no_escape")
            return True
        forced = len(options) == 1
        supplied = self.choices[self.next_choice] if self.next_choice < len(self.choices) else None
        if supplied is not None and supplied[0] == hunter:
            choice = supplied[1]
            if forced and choice != options[0] and self.legacy_forced:
                # the older reading (a forced flee consumes no choice): this choice is
                # for a later flee of the same hunter in this action
                self.skipped.append(self.next_choice)
                choice = options[0]
            else:
                self.next_choice += 1
                if choice not in options:
                    raise self.bad_choice(hunter, choice, options, forced)
        elif forced:
            choice = options[0]  # asks nothing, so it consumes no choice
            self.forced.append((hunter, choice, self.next_choice))
        else:
            self.needs = FleeRequest(hunter, options, cell)
            return False
        self.hunters[hunter] = choice
        self.events.append(ev.HunterFled(hunter, CELL_NAMES[cell], CELL_NAMES[choice],
                                         tuple(CELL_NAMES[o] for o in options)))
        return True

    @staticmethod
    def bad_choice(hunter: str, choice: int, options: tuple[int, ...], forced: bool) -> IllegalAction:
        """A flee choice outside the hunter's options (RULINGS «Mammoth flight» 5)."""
        allowed = ", ".join(CELL_NAMES[o] for o in options)
        if forced:
            message = (f"hunter {hunter} cannot flee to {CELL_NAMES[choice]}: {allowed} is the only cell he "
                       f"may flee to")
        else:
            message = f"hunter {hunter} cannot flee to {CELL_NAMES[choice]}; options: {allowed}"
        err = _illegal(message, "flight.frighten", "bad_flee_choice")
        err.hunter = hunter
        err.options = [CELL_NAMES[o] for o in options]
        err.forced = forced
        return err

    # -- actions --------------------------------------------------------------
    def move(self, action: Move):
        player = action.hunter
        d = DIRECTION_INDEX[action.direction]
        k = action.distance
        start = self.hunters[player]
        path = RAYS[start][d][:k]
        trigger_anywhere = self.variants.trigger_on_pass_through
        walked_from = start
        segment: list[int] = []
        continuation = False
        for step, c in enumerate(path):
            segment.append(c)
            self.hunters[player] = c
            if c == self.mammoth and (trigger_anywhere or step == k - 1):
                self.events.append(self._moved(player, walked_from, segment, d, k, continuation))
                flee_k = k if self.variants.flight_distance == "card" else step + 1
                result = self.flight(player, d, flee_k)
                if result != "fled":
                    return
                walked_from, segment, continuation = c, [], True
        if segment or not continuation:
            self.events.append(self._moved(player, walked_from, segment, d, k, continuation))

    @staticmethod
    def _moved(player, walked_from, segment, d, k, continuation):
        return ev.HunterMoved(player, CELL_NAMES[walked_from], CELL_NAMES[segment[-1]],
                              tuple(CELL_NAMES[c] for c in segment), DIRECTIONS[d], k,
                              "flight.continue" if continuation else "move.straight",
                              True if continuation else None)

    def spend_card(self, player: str, value: int | None) -> int | None:
        if self.hands is None:
            return value
        hand = list(self.hands.get(player, ()))
        if value is None:
            if not hand:
                return None
            value = hand[0]
        hand.remove(value)
        self.hands[player] = tuple(hand)
        return value


def _check_turn(pos: Position, hunter: str, variants: Variants = DEFAULT):
    if game_is_over(pos, variants):
        raise _illegal("the game is over", "end.game_over", "game_over")
    if hunter not in pos.players:
        raise _illegal(f"{hunter!r} is not a player of this game", "turn.one_action", "unknown_player")
    if hunter in pos.eliminated or hunter not in pos.hunters:
        raise _illegal(f"hunter {hunter} is out of the game", "end.elimination", "eliminated")
    if hunter != pos.to_move:
        raise _illegal(f"it is {pos.to_move}'s turn, not {hunter}'s", "turn.one_action", "not_your_turn")


def check_action(pos: Position, action: Action, variants: Variants = DEFAULT):
    """Raise :class:`IllegalAction` with the rule it breaks unless ``action`` is legal."""
    _check_turn(pos, action.hunter, variants)
    player = action.hunter
    cell = pos.hunters[player]
    layout = layout_of(pos)
    if isinstance(action, Move):
        d = DIRECTION_INDEX.get(action.direction)
        if d is None:
            raise _illegal(f"unknown direction {action.direction!r}", "move.straight", "bad_direction")
        k = action.distance
        if k not in CARD_VALUES:
            raise _illegal(f"no card moves {k} cells (cards show 1, 2 or 3)", "move.card", "bad_distance")
        if pos.hands is not None and k not in pos.hands.get(player, ()):
            raise _illegal(f"{player} holds no card of value {k}", "move.card", "card_not_in_hand")
        ray = RAYS[cell][d]
        if len(ray) < k:
            raise _illegal(f"moving {k} {action.direction} from {CELL_NAMES[cell]} leaves the board",
                           "move.straight", "off_board")
        for c in ray[:k]:
            if not layout.walkable[c]:
                raise _illegal(f"moving {k} {action.direction} from {CELL_NAMES[cell]} meets the rock at "
                               f"{CELL_NAMES[c]}", "move.straight", "rock")
    elif isinstance(action, PlaceTrap):
        if not layout.grass[cell]:
            raise _illegal(f"traps go on grass only; {CELL_NAMES[cell]} is {pos.tiles[cell].value}",
                           "trap.place", "not_grass")
        if cell in pos.traps:
            raise _illegal(f"{CELL_NAMES[cell]} already holds a trap", "trap.place", "trap_there")
        if not _alone(pos, player, cell):
            raise _illegal(f"{player} is not alone on {CELL_NAMES[cell]}", "trap.place", "not_alone")
        if pos.traps_of(player) >= TRAPS_PER_PLAYER:
            raise _illegal(f"{player} has no trap left in supply", "trap.place", "no_trap_left")
    elif isinstance(action, RemoveTrap):
        if cell not in pos.traps:
            raise _illegal(f"there is no trap on {CELL_NAMES[cell]}", "trap.remove", "no_trap")
        if variants.alone_required_for_recover and not _alone(pos, player, cell):
            raise _illegal(f"{player} is not alone on {CELL_NAMES[cell]}", "trap.remove", "not_alone")
    elif isinstance(action, Pass):
        if action.card is not None:
            if action.card not in CARD_VALUES:
                raise _illegal(f"no card has the value {action.card}", "turn.pass", "bad_distance")
            if pos.hands is not None and action.card not in pos.hands.get(player, ()):
                raise _illegal(f"{player} holds no card of value {action.card}", "turn.pass", "card_not_in_hand")
    else:
        raise _illegal(f"unknown action {action!r}", "turn.one_action", "unknown_action")


def apply_action(pos: Position, action: Action, choices: Sequence[tuple[str, int]] = (),
                 variants: Variants = DEFAULT) -> Outcome:
    """Play ``action`` and resolve everything it sets off.

    ``choices`` are ``(hunter, cell)`` flee choices consumed in the order the flight
    reaches the hunters. When a frightened hunter has several options and no choice is
    given, the returned outcome has ``needs`` set and the *unchanged* position: play
    the action again with one more choice. A hunter with a single option flees there
    unasked; a choice for that flee may be given too (it must name that cell).
    """
    check_action(pos, action, variants)
    try:
        return _resolve(pos, action, choices, variants, legacy_forced=False)
    except IllegalAction as exc:
        if not getattr(exc, "forced", False):
            raise
        # A forced flee was given another cell. Lists built from the engine's questions
        # name only the flees it asked about, so that choice may be for a later flee of
        # the same hunter: accept that reading only if it uses every choice so passed over.
        try:
            return _resolve(pos, action, choices, variants, legacy_forced=True)
        except IllegalAction:
            raise exc from None


def _resolve(pos: Position, action: Action, choices: Sequence[tuple[str, int]], variants: Variants,
             legacy_forced: bool) -> Outcome:
    res = _Resolution(pos, variants, choices, legacy_forced)
    player = action.hunter
    if isinstance(action, Move):
        res.spend_card(player, action.distance)
        res.move(action)
    elif isinstance(action, PlaceTrap):
        cell = res.hunters[player]
        res.traps[cell] = player
        res.eventful = True
        res.events.append(ev.TrapPlaced(player, CELL_NAMES[cell]))
    elif isinstance(action, RemoveTrap):
        cell = res.hunters[player]
        owner = res.traps.pop(cell)
        res.eventful = True
        res.events.append(ev.TrapRemoved(player, CELL_NAMES[cell], owner))
    else:
        card = res.spend_card(player, action.card)
        res.events.append(ev.Passed(player, card))

    if res.skipped and max(res.skipped) >= res.next_choice:
        raise _illegal("a choice passed over at a forced flee was never used", "flight.frighten", "unused_choice")
    if res.needs is not None:
        return Outcome(pos, res.events, None, res.needs, res.next_choice)
    if res.next_choice < len(choices):
        raise _unused_choice(res, choices[res.next_choice])

    eliminated = tuple(p for p in pos.players if p in res.eliminated)  # seating order, like the JSON form
    quiet = 0 if res.eventful else pos.quiet_turns + 1
    new = Position(pos.tiles, res.mammoth, pos.players, res.hunters, res.traps,
                   next_player(pos, player, eliminated), eliminated, res.hands, quiet, res.layout)
    winner = res.winner
    reason = "trap" if winner else None
    if winner is None:
        if not new.hunters:
            winner, reason = MAMMOTH, "no_hunters"
        elif mammoth_survives(new, variants):
            winner, reason = MAMMOTH, "mammoth_safe"
        elif variants.stall_limit is not None and quiet >= variants.stall_limit:
            winner, reason = MAMMOTH, "stall"
    if winner is not None:
        rule = {"trap": "end.trap_owner", "stall": "end.stall"}.get(reason, "end.mammoth_wins")
        res.events.append(ev.GameOver(winner, reason, rule))
    return Outcome(new, res.events, winner, None, res.next_choice)


def _unused_choice(res: _Resolution, extra: tuple[str, int]) -> IllegalAction:
    """A choice left over once the action is resolved (RULINGS «Mammoth flight» 5)."""
    hunter = extra[0]
    message = f"choice for {hunter} was not asked for by this action"
    earlier = [(c, i) for h, c, i in res.forced if h == hunter and i <= res.next_choice]
    if earlier:
        cell, index = earlier[-1]
        message += (f": {hunter} had to flee to {CELL_NAMES[cell]}, his only option, before the flight reached "
                    f"{res.choices[index][0]}; list the choices in the order the flight reaches the hunters")
    return _illegal(message, "flight.frighten", "unused_choice")


def successors(pos: Position, variants: Variants = DEFAULT) -> Iterator[tuple[Action, tuple, Outcome]]:
    """Every complete resolution of every legal action, one per combination of flee choices."""
    for action in legal_actions(pos, variants):
        stack = [()]
        while stack:
            choices = stack.pop()
            outcome = apply_action(pos, action, choices, variants)
            if outcome.needs is None:
                yield action, choices, outcome
            else:
                hunter = outcome.needs.hunter
                for option in reversed(outcome.needs.options):
                    stack.append(choices + ((hunter, option),))


from .proof import _entered_masks, mammoth_survives, survives_from  # noqa: E402  (the proof reuses this module's layout cache)
