"""A whole game: setup, cards, turns, an append-only record that replays, and undo.

>>> game = Game.new(["A", "B"], seed=3)
>>> for player in ("A", "B"):
...     game.place_hunter(player, game.start_cells()[0])
>>> game.phase, game.position.to_move, len(game.position.hands["A"])
('play', 'A', 3)
>>> outcome = game.play(game.legal_actions()[-1])
>>> replayed = Game.replay(game.record_lines())
>>> replayed.position == game.position and replayed.deck_state() == game.deck_state()
True
>>> game.undo()
True
>>> game.position.to_move
'A'
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Callable, Iterable

from rulekit.jsonrequest import RequestError, read_json

from .cards import Deck
from .events import HunterPlaced
from .core import HAND_SIZE, MAMMOTH, Action, IllegalAction, Outcome, Position, Tile
from .hexgrid import CELL_NAMES, CENTRE, NUM_CELLS, parse_cell
from .jsonio import action_from_json, action_to_json, choices_from_json, choices_to_json
from .notation import turn_to_text
from .rules import apply_action, legal_actions
from .setup import placement_error, random_layout, start_cells, validate_layout
from .variants import Variants

RECORD_FORMAT = "maamut-record/1"


def _line(entry: dict) -> str:
    return json.dumps(entry, ensure_ascii=False)


class RecordError(ValueError):
    """A game record that cannot be replayed; the message names the line."""


class Game:
    """One game from the deal to the end, with its deck and its record.

    ``on_record`` is called with every new record line before the change is visible,
    which is where a journal writes and fsyncs it.
    """

    def __init__(self, players, seed, variants: Variants = Variants(), tiles=None,
                 on_record: Callable[[str], None] | None = None, deal: bool = True, table: dict | None = None):
        players = tuple(players)
        if not 2 <= len(players) <= 4:
            raise ValueError("Mâamut is played by 2 to 4 players")
        if len(set(players)) != len(players):
            raise ValueError("player names must be distinct")
        self.players = players
        self.seed = seed
        self.variants = variants
        # deal=False: the players hold real cards the engine cannot see (a camera-read
        # table), so any card value may be played and no deck is simulated.
        self.deal = deal
        self.on_record = on_record
        rng = random.Random(f"maamut:{seed}")
        if tiles is None:
            tiles = random_layout(rng)
        tiles = tuple(tiles)
        problems = validate_layout(tiles)
        if problems:
            raise ValueError("invalid layout: " + "; ".join(problems))
        self.tiles = tiles
        self._header = {"record": RECORD_FORMAT, "players": list(players), "seed": seed,
                        "variants": variants.changed(), **({} if deal else {"deal": False}),
                        "tiles": {CELL_NAMES[i]: t.value for i, t in enumerate(tiles)}}
        # What the table knows beyond the rules (display names, colours): kept in the
        # header so that a replayed record shows the game exactly as it was played.
        self.table = dict(table or {})
        if self.table:
            self._header["table"] = self.table
        # record entries as dicts; written as JSON only when someone reads or journals them
        self._log: list[dict] = [self._header]
        self._entries: list[dict] = []
        self._restart()

    # -- construction -----------------------------------------------------------
    @classmethod
    def new(cls, players, seed=None, variants: Variants = Variants(), tiles=None, on_record=None,
            deal: bool = True, table: dict | None = None) -> "Game":
        if seed is None:
            seed = secrets.randbelow(2**31)
        game = cls(players, seed, variants, tiles, on_record, deal, table)
        if on_record:
            on_record(_line(game._header))
        return game

    def _restart(self):
        self.deck = Deck.new(f"cards:{self.seed}", self.variants.reshuffle)
        hands = {p: tuple(self.deck.draw() for _ in range(HAND_SIZE)) for p in self.players} if self.deal else None
        self.position = Position(self.tiles, CENTRE, self.players, {}, {}, self.players[0], (), hands)
        self.phase = "setup"
        self.winner: str | None = None
        self.history: list[dict] = []  # per applied entry: the events it produced
        self._turns = 0

    # -- setup -------------------------------------------------------------------
    def start_cells(self) -> list[int]:
        return start_cells(self.position, self.variants)

    def next_to_place(self) -> str | None:
        return next((p for p in self.players if p not in self.position.hunters), None) if self.phase == "setup" else None

    def place_hunter(self, player: str, cell: int):
        self._place(player, cell)
        self._append({"place": player, "cell": CELL_NAMES[cell]})

    def _place(self, player: str, cell: int):
        if self.phase != "setup":
            raise IllegalAction("hunters are placed before the first turn only", "setup.hunter_placement")
        error = placement_error(self.position, player, cell, self.variants)
        if error:
            raise IllegalAction(error, "setup.hunter_placement")
        hunters = dict(self.position.hunters)
        hunters[player] = cell
        self.position = self.position.with_(hunters=hunters)
        event = HunterPlaced(player, CELL_NAMES[cell])
        if len(hunters) == len(self.players):
            self.phase = "play"
            first = self.players[0] if self.variants.first_player == "first_placer" else self.players[-1]
            self.position = self.position.with_(to_move=first)
        self.history.append({"events": [event]})

    # -- play --------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.phase != "play" or self.winner is not None:
            return []
        return legal_actions(self.position, self.variants)

    def play(self, action: Action, choices=()) -> Outcome:
        """Play one turn; an outcome with ``needs`` set changes nothing yet."""
        outcome = self._play(action, tuple(choices))
        if outcome.needs is None:
            self._append({"action": action_to_json(action), "choices": choices_to_json(choices),
                          "turn": turn_to_text(action, choices)})
        return outcome

    def _play(self, action: Action, choices) -> Outcome:
        if self.phase != "play":
            raise IllegalAction("place every hunter before the first turn", "setup.hunter_placement")
        if self.winner is not None:
            raise IllegalAction(f"the game is over ({self.winner} won)", "end.game_over")
        outcome = apply_action(self.position, action, choices, self.variants)
        if outcome.needs is not None:
            return outcome
        pos = outcome.position
        if pos.hands is None:
            return self._commit(outcome)
        hands = dict(pos.hands)
        for event in outcome.events:
            if event["type"] == "hunter_moved" and not event.get("continued"):
                self.deck.discard([event["distance"]])
            elif event["type"] == "passed" and event["card"] is not None:
                self.deck.discard([event["card"]])
            elif event["type"] == "hunter_eliminated":
                self.deck.discard(event.get("discarded", ()))
        if action.hunter not in pos.eliminated:
            hand = list(hands[action.hunter])
            while len(hand) < HAND_SIZE:
                card = self.deck.draw()
                if card is None:
                    break
                hand.append(card)
            hands[action.hunter] = tuple(hand)
        outcome.position = pos.with_(hands=hands)
        return self._commit(outcome)

    def _commit(self, outcome: Outcome) -> Outcome:
        self.position = outcome.position
        self.winner = outcome.winner
        if self.winner is not None:
            self.phase = "over"
        self.history.append({"events": outcome.events})
        self._turns += 1
        return outcome

    # -- record ------------------------------------------------------------------
    def _append(self, entry: dict):
        self._entries.append(entry)
        self._log.append(entry)
        if self.on_record:
            self.on_record(_line(entry))

    def undo(self) -> bool:
        """Take back the last placement or turn; False when there is nothing to undo."""
        if not self._entries:
            return False
        entries = self._entries[:-1]
        self._rebuild(entries)
        self._entries = entries
        self._log.append({"undo": True})
        if self.on_record:
            self.on_record(_line({"undo": True}))
        return True

    def _rebuild(self, entries):
        self._restart()
        for entry in entries:
            self._apply_entry(entry)

    def _apply_entry(self, entry: dict):
        if "place" in entry:
            self._place(entry["place"], parse_cell(entry["cell"]))
        else:
            outcome = self._play(action_from_json(entry["action"]), choices_from_json(entry.get("choices")))
            if outcome.needs is not None:
                raise RecordError("a recorded turn lacks the flee choice for " + outcome.needs.hunter)

    def entries(self) -> list[dict]:
        """The placements and turns in force (undone ones left out), oldest first, as
        record entries: ``{"place", "cell"}`` or ``{"action", "choices", "turn"}``."""
        return list(self._entries)

    def record_length(self) -> int:
        """How many lines the record has (header included)."""
        return len(self._log)

    def record_lines(self, start: int = 0) -> list[str]:
        """The append-only JSON-lines record: a header, then placements, turns and undos."""
        return [_line(entry) for entry in self._log[start:]]

    @classmethod
    def replay(cls, lines: Iterable[str], on_record=None) -> "Game":
        """Rebuild a game from its record; ``RecordError`` names the first bad line.

        A truncated last line (a write cut by a power failure) is ignored.
        """
        game, problem, _ = cls.replay_prefix(lines)
        if problem is not None:
            raise RecordError(problem)
        game.on_record = on_record
        return game

    @classmethod
    def replay_prefix(cls, lines: Iterable[str]) -> tuple["Game", str | None, int]:
        """The game of the record's longest valid beginning.

        Returns ``(game, problem, kept)``: ``problem`` names the first line that could
        not be replayed (``None`` when every line was), ``kept`` counts the non-empty
        lines replayed. A torn final line is not a problem. ``RecordError`` only when
        not even the header can be read.

        >>> game = Game.new(["A", "B"], seed=3)
        >>> game.place_hunter("A", game.start_cells()[0])
        >>> lines = game.record_lines() + ['{"place": "Z", "cell": "0,0"}', '{"undo": true}']
        >>> replayed, problem, kept = Game.replay_prefix(lines)
        >>> replayed.position == game.position, kept, problem.split(":")[0]
        (True, 2, 'line 3')
        """
        raw = [ln for ln in (line.strip() for line in lines) if ln]
        if not raw:
            raise RecordError("the record is empty")
        parsed = []
        problem = None
        for i, line in enumerate(raw):
            try:
                parsed.append(read_json(line))  # within the request limits: a record is input too
            except RequestError:
                if not (i == len(raw) - 1 and i > 0):  # a torn final write is no problem
                    problem = f"line {i + 1} is not JSON"
                break
        if not parsed:
            raise RecordError(problem or "line 1 is not JSON")
        header = parsed[0]
        if not isinstance(header, dict) or header.get("record") != RECORD_FORMAT:
            raise RecordError(f"line 1 is not a {RECORD_FORMAT} header")
        try:
            tiles = tuple(Tile(header["tiles"][CELL_NAMES[i]]) for i in range(NUM_CELLS))
            table = header.get("table")
            game = cls(header["players"], header["seed"], Variants.from_json(header.get("variants")), tiles,
                       deal=bool(header.get("deal", True)), table=table if isinstance(table, dict) else None)
        except (KeyError, ValueError, TypeError) as exc:
            raise RecordError(f"line 1: {exc}") from None
        kept = 1
        for number, entry in enumerate(parsed[1:], start=2):
            try:
                if not isinstance(entry, dict):
                    raise ValueError("not an object")
                if entry.get("undo"):
                    game.undo()
                else:
                    game._apply_entry(entry)
                    game._entries.append(entry)
                    game._log.append(entry)
            except Exception as exc:  # any broken entry is reported with its line number
                problem = f"line {number}: {exc}"
                game._rebuild(game._entries)  # back to the state before the broken entry
                break
            kept += 1
        return game, problem, kept

    def deck_state(self) -> tuple:
        return (tuple(self.deck.draw_pile), tuple(self.deck.discard_pile))

    def turns_played(self) -> int:
        return self._turns

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def mammoth_won(self) -> bool:
        return self.winner == MAMMOTH
