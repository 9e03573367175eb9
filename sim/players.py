"""Simulated players: bots with hands, sitting at a table whose game they obey.

They look at the table's game (the LEDs and the page, for people) and at the board in
front of them, and do what people do:

* when the board differs from the game (an undo or a move entered on the page, a new
  game, a misread), they put the pieces right, after a moment;
* when it is a bot's turn and the board is right, it chooses its turn and moves the
  pieces by hand (mover first, then the mammoth, then the frightened hunters) or
  presses *done* to pass;
* at setup they place their hunters in seating order; when a game is over, they hold
  *undo* for a new one after a pause;
* when the camera asks about a cell (the referee's page shows the question), the one
  acting as referee answers it from the board in front of them, as people do
  (:class:`TableReferee`); a question none of the offered answers fits is left for
  the board to settle anew.

Without a board (``board=None``) they skip the camera and propose their moves to the
table directly, the way a referee types them on the page.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

import engine
from ai import Level, SearchPlayer, observe
from engine.game import Game
from engine.hexgrid import CENTRE, cell_name, parse_cell
from session import CommandError, Snapshot as TableSnapshot, TableSession

from .bots import Bot
from .camera import SimulatedBoard
from .tracker_bench import Snapshot, table_transition
from vision.questions import Contents

#: Seats (by seating index) the demo gives to the search player, so that visitors see
#: purposeful play next to the simple bots; and its strength there (a fraction of a second).
DEMO_AI_SEATS = (1,)
DEMO_AI_LEVEL = Level(iterations=120, time_ms=500)


@dataclass
class PlayStats:
    games: int = 0
    turns: int = 0
    errors: int = 0
    corrections: int = 0
    frames: int = 0
    winners: dict = field(default_factory=dict)
    messages: list = field(default_factory=list)
    #: The camera's questions the referee answered from the board.
    answers: int = 0

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.messages) < 20:  # keep memory flat over hours
            self.messages.append(message)


class TableReferee:
    """The referee's side of the camera's questions, as the page has it: the question in
    the table's live state and the desk its *answer* button posts to (``question()``:
    the page's form or ``None``; ``answer(id, index)``, refusing with ``ValueError``)."""

    def __init__(self, hub, desk):
        self.hub = hub
        self.desk = desk

    def question(self) -> dict | None:
        from companion_web.camera_questions import question_view

        return question_view(self.hub.state.get("camera_question"))

    def answer(self, question_id: int, option: int) -> dict:
        return self.desk.answer(question_id, option)


def true_answer(question: dict, board: Snapshot, players) -> int | None:
    """The option of a camera question that says what ``board`` really has on its cell
    (owners as player ids, ``players`` in seat order); ``None`` when none does.

    >>> question = {"id": 3, "cell": "2,0", "options": [
    ...     {"mammoth": False, "hunters": [], "trap": "B"}, {"mammoth": False, "hunters": ["A"], "trap": "B"}]}
    >>> true_answer(question, Snapshot(CENTRE, (("c0", parse_cell("2,0")),), ((parse_cell("2,0"), "c1"),)), ["A", "B"])
    1
    >>> true_answer(question, Snapshot(CENTRE), ["A", "B"]) is None
    True
    """
    cell = parse_cell(question["cell"])
    owner = dict(zip((f"c{i}" for i in range(len(players))), players))
    truth = Contents(board.mammoth == cell, tuple(sorted(owner[label] for label, c in board.hunters if c == cell)),
                     next((owner[label] for c, label in board.traps if c == cell), None))
    return next((i for i, option in enumerate(question["options"]) if Contents.from_json(option) == truth), None)


def board_of(snapshot: TableSnapshot) -> Snapshot:
    """The board the table's game says should lie on the table (labels ``c<seat>``)."""
    if snapshot.position is None:
        return Snapshot(CENTRE)
    return Snapshot.of(snapshot.position, {p: f"c{i}" for i, p in enumerate(snapshot.players)})


class SimulatedPlayers:
    """Bots at the table (see the module docstring); :meth:`step` is one glance."""

    def __init__(self, table: TableSession, board: SimulatedBoard | None, press, rng: random.Random,
                 turn_s: float = 2.0, attract_s: float = 8.0, patience_s: float = 20.0,
                 max_turns: int = 120, clock=time.monotonic, ai_seats=DEMO_AI_SEATS,
                 ai_level: Level = DEMO_AI_LEVEL, referee: TableReferee | None = None):
        self.table = table
        self.referee = referee  # who answers the camera's questions (None: nobody does)
        self._question_seen: int | None = None  # the question last answered (or found unanswerable)
        self.board = board
        self.press = press  # press(button): "done", "undo", "new_game"; False when refused
        self.rng = rng
        self.bot = Bot(random.Random(rng.randrange(2**31)))
        self.ai_seats = tuple(ai_seats or ())
        self.ai = SearchPlayer(ai_level, random.Random(rng.randrange(2**31))) if self.ai_seats else None
        self.turn_s = turn_s
        self.attract_s = attract_s
        self.patience_s = patience_s
        self.max_turns = max_turns
        self.clock = clock
        self.stats = PlayStats()
        self._acted_at: float | None = None  # when our last change was made
        self._acted_version: int | None = None  # the table's version then
        self._expected: Snapshot | None = None  # the board our change should make the table show
        self._last_description = "our last change"
        #: Someone else (the referee on the page) changed the game since our last change:
        #: then a board other than ours is the table's decision, not the camera's mistake.
        self._overruled = False
        table.subscribe(self._heard)
        self._differs_since: float | None = None
        self._idle_until = 0.0
        # A game already over when the players sit down was counted by whoever played it.
        start = table.snapshot()
        self._counted_over: int | None = start.version if start.phase == "over" else None
        self._empty_since: float | None = None
        #: How long an empty board waits for the camera to start the game by itself
        #: (it does once it knows the set) before hunters are placed for it to learn.
        self.setup_wait_s = max(2.0, 2 * turn_s)

    # -- one glance at the table ----------------------------------------------------
    def step(self) -> str:
        """Look and maybe act; returns what was done (for tests and logs)."""
        now = self.clock()
        if now < self._idle_until:
            return "pause"
        if self.board is not None and not self.board.settled():
            return "moving"
        answered = self._answer_question()
        if answered is not None:
            return answered
        snap = self.table.snapshot()
        if self._acted_version is not None:
            if snap.version == self._acted_version:
                if now - self._acted_at < self.patience_s:
                    return "waiting for the table"
                if not self._overruled:
                    self.stats.error(f"the table did not follow {self._describe_last()} "
                                     f"within {self.patience_s:.0f} s")
            elif (self._expected is not None and board_of(snap) != self._expected and snap.phase != "no_game"
                  and not self._overruled):
                self.stats.error(f"the table shows a different board than was played after {self._describe_last()}")
            self._acted_version = None
        if snap.phase == "over":
            return self._game_over(snap, now)
        if snap.phase == "play" and self._turns(snap) >= self.max_turns:
            self._finish_game(snap, "turn limit")
            self.press("new_game")
            return "new game (turn limit)"
        expected = board_of(snap)
        if self.board is not None and snap.phase != "no_game" and self._board() != expected:
            if not self._is_own_setup_ahead(snap):
                return self._put_right(expected, now)
        self._differs_since = None
        if snap.phase == "no_game":
            return self._setup_without_game(snap)
        if snap.phase == "setup":
            return self._place(snap)
        if snap.needs is not None:
            return self._choose_flee(snap)
        return self._play(snap)

    def _heard(self, change, snapshot) -> None:
        if change.kind != "marks" and change.source not in ("camera", "buttons", "players"):
            self._overruled = True

    def _turns(self, snap: TableSnapshot) -> int:
        game = self.table.game
        return game.turns_played() if game is not None else 0

    def _board(self) -> Snapshot:
        return self.board.current

    def _describe_last(self) -> str:
        return self._last_description

    def _acted(self, snap: TableSnapshot, expected: Snapshot | None, description: str) -> None:
        self._acted_at = self.clock()
        self._acted_version = snap.version
        self._overruled = False
        self._expected = expected
        self._last_description = description
        self._idle_until = self._acted_at + self.turn_s

    # -- the camera's questions ------------------------------------------------------
    def _answer_question(self) -> str | None:
        """The referee answers the camera's question from the board in front of him (once
        per question: a refused answer or one none of the options fits is not given again;
        the camera asks anew when the board settles anew)."""
        if self.referee is None or self.board is None:
            return None
        question = self.referee.question()
        if question is None or question["id"] == self._question_seen:
            return None
        self._question_seen = question["id"]
        option = true_answer(question, self._board(), self.table.snapshot().players)
        if option is None:
            return f"no answer fits the camera's question on {question['cell']}"
        try:
            self.referee.answer(question["id"], option)
        except (LookupError, ValueError) as exc:
            return f"the camera refused the answer on {question['cell']}: {exc}"
        self.stats.answers += 1
        return f"answered the camera's question on {question['cell']}"

    # -- putting things right -------------------------------------------------------
    def _put_right(self, expected: Snapshot, now: float) -> str:
        if self._differs_since is None:
            self._differs_since = now
            return "noticed the board differs"
        if now - self._differs_since < min(1.0, self.turn_s):
            return "about to put the board right"
        self.board.move_through([expected])
        self.stats.corrections += 1
        self._differs_since = None
        return "put the board right"

    def _is_own_setup_ahead(self, snap: TableSnapshot) -> bool:
        """At setup, hunters we placed that the camera has not proposed yet are no error."""
        if snap.phase != "setup":
            return False
        board, expected = self._board(), board_of(snap)
        return (board.mammoth == expected.mammoth and board.traps == expected.traps
                and set(expected.hunters) <= set(board.hunters))

    # -- setup ---------------------------------------------------------------------
    def _setup_without_game(self, snap: TableSnapshot) -> str:
        """No game yet: the camera starts one when it sees the empty board, if it knows
        the set; otherwise it learns the set from the hunters being placed."""
        if self.board is None:
            self.table.new_game(source="players")
            return "new game"
        return self._setup(snap)

    def _place(self, snap: TableSnapshot) -> str:
        if self.board is not None:
            return self._setup(snap)
        game, player = self.table.game, snap.next_to_place
        if game is None or player is None:
            return "nothing to place"
        self.table.place_hunter(player, self.bot.choose_start(game), source="players")
        self._idle_until = self.clock() + self.turn_s / 2
        return f"placed {player}"

    def _setup(self, snap: TableSnapshot) -> str:
        """Place the hunters by hand in seating order, one after the other; the table
        follows as the camera sees them."""
        board = self._board()
        seats = list(snap.players) or [s["id"] for s in self.table.seats]
        labels = [f"c{i}" for i in range(len(seats))]
        placed = dict(board.hunters)
        if board.mammoth != CENTRE or board.traps or any(label not in labels for label in placed):
            self.board.move_through([Snapshot(CENTRE)])
            self._empty_since = None
            return "cleared the board"
        if snap.phase == "no_game" and not placed:
            now = self.clock()
            if self._empty_since is None:
                self._empty_since = now
            if now - self._empty_since < self.setup_wait_s:
                return "waiting for the camera to see the empty board"
        if len(placed) >= len(seats):
            return "waiting for the camera"
        local = Game.new(seats, seed=0, tiles=self.board_tiles(), deal=False, variants=snap.variants)
        for player, label in zip(seats, labels):
            if label not in placed:
                break
            local.place_hunter(player, placed[label])
        label = labels[len(local.position.hunters)]
        cell = self.bot.choose_start(local)
        self.board.move_through([board.with_hunter(label, cell)])
        self._idle_until = self.clock() + self.turn_s / 2
        return f"placed {label}"

    def board_tiles(self):
        layout = self.table.layout
        if layout is not None:
            return layout
        return tuple(engine.Tile(t) for t in self.board.tiles)

    # -- play ----------------------------------------------------------------------
    def _play(self, snap: TableSnapshot) -> str:
        # A copy: the referee may change the live game while the bot thinks.
        game = self.table.game_copy()
        if game is None or game.phase != "play" or game.position != snap.position:
            return "the game changed since the glance"
        action, choices = self._choose_turn(game)
        if self.table.snapshot().version != snap.version:
            return "the game changed while thinking"
        outcome = engine.apply_action(snap.position.with_(hands=None), action, choices, snap.variants)
        description = f"{engine.notation.turn_to_text(action, choices)}"
        if self.board is None:
            try:
                self.table.play(action, choices, source="players")
            except CommandError as exc:
                self.stats.error(f"{description} refused: {exc.message}")
                return "refused"
            self.stats.turns += 1
            self._idle_until = self.clock() + self.turn_s
            return f"played {description}"
        if isinstance(action, engine.Pass):
            # A pass leaves the board as it is: the button tells. The camera refuses it while
            # it has not yet seen the board agree (just put right): press again in a moment.
            if self.press("done") is False:
                self._idle_until = self.clock() + self.turn_s
                return f"pass refused ({description}): pressing again in a moment"
            self._acted(snap, board_of_position(outcome.position, snap.players), description)
            self.stats.turns += 1
            return f"passed ({description})"
        labels = {p: f"c{i}" for i, p in enumerate(snap.players)}
        before, after = board_of(snap), board_of_position(outcome.position, snap.players)
        moved = next((e for e in outcome.events if e["type"] == "hunter_moved"), None)
        via = parse_cell(moved["to"]) if moved else None
        self.board.move_through(table_transition(before, after, labels[action.hunter], via))
        self._acted(snap, after, description)
        self.stats.turns += 1
        return f"played {description}"

    def _is_ai(self, game: Game, player: str) -> bool:
        return self.ai is not None and game.players.index(player) in self.ai_seats

    def _observe(self, game: Game, player: str):
        # the simulated players hold no cards the table knows: any value may be played
        return observe(game, player, hand=None if game.position.hands is not None else (1, 2, 3))

    def _choose_turn(self, game: Game):
        """The bot's or the search player's turn, every flee choice made by the hunter's
        owner: the search player for its own hunter, the mover's wish, else at random."""
        mover = game.position.to_move
        if self._is_ai(game, mover):
            decision = self.ai.decide(self._observe(game, mover))
            action, wanted = decision.action, {}
            if isinstance(action, engine.Pass) and game.position.hands is None:
                action = engine.Pass(mover)  # at a cardboard table the pass names no card
        else:
            action, preferred = self.bot.choose_turn(game)
            wanted = dict(preferred)
        pos = game.position.with_(hands=None)
        choices: tuple = ()
        while (outcome := engine.apply_action(pos, action, choices, game.variants)).needs is not None:
            needs = outcome.needs
            if self._is_ai(game, needs.hunter):
                view = self._observe(game, needs.hunter)
                cell, _ = self.ai.choose_flee(view, action, choices, needs)
            elif wanted.get(needs.hunter) in needs.options:
                cell = wanted[needs.hunter]
            else:
                cell = self.rng.choice(needs.options)
            choices += ((needs.hunter, cell),)
        return action, choices

    def _choose_flee(self, snap: TableSnapshot) -> str:
        # Someone entered a move on the page that waits for a flee choice: its owner
        # chooses on the page, as people do.
        option = self.rng.choice(snap.needs.options)
        self.table.choose_flee(option, source="players")
        return f"chose the flee to {cell_name(option)}"

    # -- the end ---------------------------------------------------------------------
    def _game_over(self, snap: TableSnapshot, now: float) -> str:
        if self._counted_over != snap.version:
            self._counted_over = snap.version
            self._finish_game(snap, snap.winner)
            self._idle_until = now + self.attract_s
            return "game over"
        self.press("new_game")  # hold undo: a new game with the same seats and tiles
        return "new game"

    def _finish_game(self, snap: TableSnapshot, winner) -> None:
        self.stats.games += 1
        side = "mammoth" if winner == engine.MAMMOTH else ("hunters" if winner else str(winner))
        self.stats.winners[side] = self.stats.winners.get(side, 0) + 1

    # -- running -------------------------------------------------------------------
    def run(self, stop: threading.Event, max_games: int | None = None, tick_s: float = 0.05) -> PlayStats:
        while not stop.is_set() and (max_games is None or self.stats.games < max_games):
            try:
                self.step()
            except CommandError as exc:
                self.stats.error(f"the table refused: {exc.message}")
            except Exception as exc:  # the stand keeps running; the error is counted and shown
                self.stats.error(f"{type(exc).__name__}: {exc}")
            stop.wait(tick_s)
        return self.stats


def board_of_position(position: engine.Position, players) -> Snapshot:
    return Snapshot.of(position, {p: f"c{i}" for i, p in enumerate(players)})


__all__ = ["SimulatedPlayers", "PlayStats", "board_of"]
