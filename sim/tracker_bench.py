"""Tracking benchmark: whole seeded games, played out as the camera would see them.

A game is played by the engine with random legal choices, then turned into what
happens on the table: a hand comes over the board, one token is moved, the hand
leaves, the board rests; a pass is a button press. Between the real changes come the
things that must never commit anything: hands passing over with nothing moved (and
frames under a hand that happen to show a perfectly legal board), and short
unoccluded misreadings such as a lamp switched on or a shadow.

:func:`run` feeds those observations through the tracker and counts the games it
followed exactly and any action it committed that was not played. The vision bench
(``maamut bench vision``) calls it; ``rendered=True`` runs the same games through
the renderer and the reader instead of the direct observations.

>>> result = run(2, seed=5)
>>> result["games"], result["tracked_exactly"], result["false_commits"]
(2, 2, 0)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import engine
from engine.game import Game
from engine.hexgrid import CENTRE, NUM_CELLS, parse_cell

from vision.observation import Observation
from vision.stability import StabilityFilter
from vision.tracker import GameTracker, TrackerError

PLAYER_NAMES = ("Ada", "Bo", "Cy", "Di")


@dataclass(frozen=True)
class Snapshot:
    """Tokens on the table, as colour labels: what a perfect reader would report."""

    mammoth: int | None
    hunters: tuple = ()  # ((label, cell), ...) sorted
    traps: tuple = ()  # ((cell, label), ...) sorted

    @classmethod
    def of(cls, pos: engine.Position, labels: dict[str, str]) -> "Snapshot":
        return cls(pos.mammoth,
                   tuple(sorted((labels[p], c) for p, c in pos.hunters.items())),
                   tuple(sorted((c, labels[o]) for c, o in pos.traps.items())))

    def with_hunter(self, label: str, cell: int | None) -> "Snapshot":
        hunters = dict(self.hunters)
        if cell is None:
            hunters.pop(label, None)
        else:
            hunters[label] = cell
        return Snapshot(self.mammoth, tuple(sorted(hunters.items())), self.traps)

    def with_mammoth(self, cell: int | None) -> "Snapshot":
        return Snapshot(cell, self.hunters, self.traps)

    def with_trap(self, cell: int, label: str | None) -> "Snapshot":
        traps = dict(self.traps)
        if label is None:
            traps.pop(cell, None)
        else:
            traps[cell] = label
        return Snapshot(self.mammoth, self.hunters, tuple(sorted(traps.items())))


@dataclass
class Step:
    """One thing that happens at the table: a board that settles, or a pass button press."""

    kind: str  # "board" or "pass"
    board: Snapshot | None = None
    hand: bool = True  # a hand is over the board before it settles


@dataclass
class GameScript:
    players: tuple
    tiles: tuple
    labels: dict  # player -> colour label, in placement order
    steps: list = field(default_factory=list)
    placements: list = field(default_factory=list)  # (player, cell)
    truth: list = field(default_factory=list)  # position after each action, hands unknown
    actions: list = field(default_factory=list)  # (action, choices) as played
    winner: str | None = None


def table_transition(before: Snapshot, after: Snapshot, mover_label: str | None, via: int | None,
                lift: bool = False) -> list[Snapshot]:
    """The boards seen while people move the tokens one at a time, mover first."""
    boards, current = [], before
    old, new = dict(before.hunters), dict(after.hunters)
    order = ([mover_label] if mover_label in old else []) + [label for label in old if label != mover_label]

    def step(board):
        nonlocal current
        if board != current:
            boards.append(board)
            current = board

    if mover_label in old and lift:
        step(current.with_hunter(mover_label, None))  # picked up; the player ponders, hand away
    if mover_label in old and via is not None and (mover_label not in new or via == before.mammoth):
        # He walks up to the mammoth first: it flees, or it turns on him.
        step(current.with_hunter(mover_label, via))
    if mover_label is not None:
        step(current.with_hunter(mover_label, new.get(mover_label)))
    step(current.with_mammoth(after.mammoth))
    for label in order[1:]:
        step(current.with_hunter(label, new.get(label)))
    old_traps, new_traps = dict(before.traps), dict(after.traps)
    for cell in sorted(set(old_traps) | set(new_traps)):
        if old_traps.get(cell) != new_traps.get(cell):
            step(current.with_trap(cell, new_traps.get(cell)))
    assert current == after, "the transition must end on the engine's board"
    return boards


def _pick_action(rng: random.Random, actions: list) -> engine.Action:
    weights = []
    for action in actions:
        if isinstance(action, engine.Move):
            weights.append(1.0)
        elif isinstance(action, engine.PlaceTrap):
            weights.append(4.0)
        elif isinstance(action, engine.RemoveTrap):
            weights.append(1.5)
        else:
            weights.append(0.15)
    return rng.choices(actions, weights)[0]


def _play_random_turn(rng: random.Random, game: Game):
    """Play one random legal turn, choosing flee cells at random when the engine asks."""
    actions = game.legal_actions()
    while True:
        action = _pick_action(rng, actions)
        choices = ()
        try:
            outcome = game.play(action, choices)
            while outcome.needs is not None:
                choices += ((outcome.needs.hunter, rng.choice(outcome.needs.options)),)
                outcome = game.play(action, choices)
            return action, choices, outcome
        except engine.IllegalAction:
            # An engine that cannot replay its own flee request: play something else
            # rather than stop the benchmark (the tracker reports the same problem).
            actions = [a for a in actions if a != action]


def script_game(seed: int, n_players: int | None = None, max_turns: int = 30) -> GameScript:
    """A seeded game with random legal play, as the sequence of table steps.

    >>> script = script_game(3, n_players=2, max_turns=4)
    >>> [s.kind for s in script.steps][:3], len(script.truth) <= 4
    (['board', 'board', 'board'], True)
    """
    rng = random.Random(f"track:{seed}")
    n_players = n_players or rng.choice((2, 3, 4))
    players = PLAYER_NAMES[:n_players]
    game = Game.new(players, seed=rng.randrange(2**31))
    labels = {p: f"c{i}" for i, p in enumerate(players)}
    script = GameScript(players, game.tiles, labels)
    board = Snapshot(CENTRE)
    script.steps.append(Step("board", board, hand=False))
    for player in players:
        cell = rng.choice(game.start_cells())
        game.place_hunter(player, cell)
        script.placements.append((player, cell))
        board = board.with_hunter(labels[player], cell)
        script.steps.append(Step("board", board))
    turns = 0
    while not game.is_over and turns < max_turns:
        turns += 1
        action, choices, outcome = _play_random_turn(rng, game)
        script.truth.append(game.position.with_(hands=None))
        script.actions.append((action, choices))
        if isinstance(action, engine.Pass):
            script.steps.append(Step("pass"))
            continue
        after = Snapshot.of(game.position, labels)
        moved = next((e for e in outcome.events if e["type"] == "hunter_moved"), None)
        via = parse_cell(moved["to"]) if moved else None
        fled = any(e["type"] in ("mammoth_fled", "mammoth_trapped") for e in outcome.events)
        if fled and moved and rng.random() < 0.4:
            via = board.mammoth  # the player first stands his hunter on the mammoth's cell
        lift = isinstance(action, engine.Move) and rng.random() < 0.15
        for snapshot in table_transition(board, after, labels[action.hunter], via, lift):
            script.steps.append(Step("board", snapshot))
        board = after
    script.winner = game.winner
    return script


def _observation(t: float, board: Snapshot, tiles, occluded=False, confidence=0.95) -> Observation:
    return Observation(
        timestamp=t, board_found=True, occluded=occluded,
        tiles=tuple(tile.value for tile in tiles), tile_confidence=(0.95,) * NUM_CELLS,
        mammoth=board.mammoth, hunters=dict(board.hunters), traps=dict(board.traps),
        cell_confidence=(confidence,) * NUM_CELLS,
    )


def _misread(rng: random.Random, board: Snapshot) -> Snapshot:
    """A plausible wrong reading: one token seen on another cell, or not seen."""
    what = rng.random()
    if what < 0.4 and board.hunters:
        label, _ = rng.choice(board.hunters)
        return board.with_hunter(label, rng.choice([None, rng.randrange(NUM_CELLS)]))
    if what < 0.7:
        return board.with_mammoth(rng.randrange(NUM_CELLS))
    return board.with_trap(rng.randrange(NUM_CELLS), rng.choice(["c0", "c1", None]))


def observations(script: GameScript, seed: int = 0, hold: int = 7, hand: int = 6, fps: float = 30.0,
                 required: int = 5, disturbances: bool = True):
    """Per-frame observations of the script, with ``"pass"`` where the button is pressed.

    Hands pass over (occluded frames that may show anything, even a legal board), and
    unoccluded misreadings last fewer than ``required`` frames, so that a correct
    stability filter never commits them.
    """
    rng = random.Random(f"frames:{seed}")
    t, previous = 0.0, None
    on_top: list[str] = []
    for step in script.steps:
        if step.kind == "pass":
            yield "pass"
            continue
        for label, cell in step.board.hunters:
            if previous is None or dict(previous.hunters).get(label) != cell:
                on_top = [x for x in on_top if x != label] + [label]
        seen = camera_view(step.board, on_top)
        frames = []
        if step.hand:
            for _ in range(hand):
                shown = rng.choice([previous or seen, seen, _misread(rng, seen)])
                frames.append((shown, True))
        if disturbances and rng.random() < 0.3:
            # Lamp switched on or a shadow: a short run of confident but wrong readings.
            wrong = _misread(rng, seen)
            frames += [(seen, False)] * rng.randint(0, 2) + [(wrong, False)] * rng.randint(1, required - 1)
        frames += [(seen, False)] * hold
        if disturbances and rng.random() < 0.2:
            # Someone reaches over and takes the hand back without moving anything.
            frames += [(_misread(rng, seen), True)] * hand + [(seen, False)] * hold
        for board, occluded in frames:
            yield _observation(t, board, script.tiles, occluded)
            t += 1.0 / fps
        previous = step.board


def camera_view(board: Snapshot, on_top: list[str]) -> Snapshot:
    """What a camera sees of stacked tokens, drawn as the renderer draws them.

    Of several hunters on one cell only the one put down last shows; a hunter on the
    mammoth's cell hides the mammoth; the mammoth hides a trap under it.

    >>> camera_view(Snapshot(7, (("c0", 3), ("c1", 3), ("c2", 7)), ((7, "c0"),)), ["c2", "c0", "c1"])
    Snapshot(mammoth=None, hunters=(('c1', 3), ('c2', 7)), traps=())
    """
    top_at = {}
    for label in sorted(dict(board.hunters), key=lambda x: on_top.index(x) if x in on_top else -1):
        top_at[dict(board.hunters)[label]] = label
    hunters = tuple(sorted((label, cell) for cell, label in top_at.items()))
    mammoth = None if board.mammoth in top_at else board.mammoth
    traps = tuple((cell, label) for cell, label in board.traps if cell != board.mammoth)
    return Snapshot(mammoth, hunters, traps)


def track(script: GameScript, stream, required: int = 5) -> GameTracker:
    """Run a tracker over an observation stream (``"pass"`` items press the pass button)."""
    tracker = GameTracker(script.players, stability=StabilityFilter(frames=required))
    for item in stream:
        if isinstance(item, str):
            try:
                tracker.confirm_pass()
            except TrackerError:
                pass  # refused and left as it was: the game then cannot be tracked exactly
        else:
            tracker.feed(item)
    return tracker


def tracked_positions(tracker: GameTracker) -> list:
    """The position after each turn of the table's game (cards in hand left out)."""
    game = tracker.table.game
    if game is None:
        return []
    replay = Game.replay(game.record_lines()[:1])
    positions = []
    for entry in game.entries():
        if "place" in entry:
            replay.place_hunter(entry["place"], parse_cell(entry["cell"]))
        else:
            replay.play(engine.action_from_json(entry["action"]), engine.choices_from_json(entry.get("choices")))
            positions.append(replay.position.with_(hands=None))
    return positions


def compare(script: GameScript, tracker: GameTracker) -> dict:
    """How the tracked game compares with the game played: exact, and false commits."""
    tracked = tracked_positions(tracker)
    false_commits = sum(1 for i, pos in enumerate(tracked) if i >= len(script.truth) or pos != script.truth[i])
    placements = [(p["hunter"], parse_cell(p["cell"])) for p in tracker.placements]
    exact = (placements == script.placements and tracker.tiles == script.tiles
             and tracked == script.truth and tracker.winner == script.winner)
    return {"exact": exact, "false_commits": false_commits, "reports": len(tracker.reports),
            "actions": len(script.truth)}


def run(n_games: int = 50, seed: int = 1_000_000, rendered: bool = False, max_turns: int = 30) -> dict:
    """Track ``n_games`` seeded games; the figures the vision bench reports.

    By default the games are fed as direct observations (:func:`observations`: hands,
    lamp and shadow misreadings), which measures the stability filter and the tracker
    alone, thousands of frames a second. With ``rendered=True`` every frame is drawn by
    the renderer (a new palette, token shapes and camera per game), the setup is
    learnt from the recording and every frame is read: the whole camera path, at
    about a second of rendering per board, so keep ``n_games`` and ``max_turns`` small.

    Game ``i`` uses seed ``seed + i``; the default starts at 1 000 000, like the
    vision bench, so it tracks games the tests (seeds below 100 000) never play.
    """
    exact = false_commits = reports = actions = frames = 0
    started = time.perf_counter()
    for game in range(n_games):
        game_seed = seed + game
        script = script_game(game_seed, max_turns=max_turns)
        if rendered:
            run_ = track_rendered(script, game_seed)
            tracker = run_.tracker
            frames += run_.frames_seen
        else:
            stream = list(observations(script, seed=game_seed))
            frames += sum(1 for item in stream if not isinstance(item, str))
            tracker = track(script, stream)
        result = compare(script, tracker)
        exact += result["exact"]
        false_commits += result["false_commits"]
        reports += result["reports"]
        actions += result["actions"]
    elapsed = time.perf_counter() - started
    return {
        "games": n_games,
        "tracked_exactly": exact,
        "tracked_exactly_ratio": exact / n_games if n_games else 0.0,
        "false_commits": false_commits,
        "reports": reports,
        "actions": actions,
        "frames": frames,
        "ms_per_frame": 1000.0 * elapsed / frames if frames else 0.0,
        "rendered": rendered,
    }


# -- rendered games (camera frames through the renderer, the reader and the tracker) -------
def render_frames(script: GameScript, seed: int = 0, hold: int = 6, hand_frames: int = 2, fps: float = 30.0,
                  relight: dict | None = None):
    """Camera frames of the scripted game: ``(timestamp, BGR frame, step index)``.

    Each board is drawn once and held for ``hold`` frames (a still camera); before it,
    a hand reaches over the board for ``hand_frames`` frames. The set's palette, token
    shapes and camera pose come from ``seed``; the board is nudged and the light shifts
    a little between boards, and now and then a lamp is switched on. ``relight`` maps a
    step index to :class:`sim.render_palette.Look` fields changed from that step on
    (``{"ambient": (70, 60, 40)}``: daylight washing the board out): before that step's
    hand, the board as it stands is shown still under the new light for ``hold`` frames.
    """
    import numpy as np
    from dataclasses import replace

    from .render import Kit, Scene, random_hand, render_frame

    rng = np.random.default_rng(seed)
    kit = Kit.random(rng)
    look = kit.look
    t = 0.0
    tiles = tuple(tile.value for tile in script.tiles)
    on_top: list[str] = []  # hunters in the order they were last put down: the latest is on top
    previous: dict = {}
    previous_scene = None
    for index, step in enumerate(script.steps):
        if step.kind == "pass":
            yield t, None, index
            continue
        board = step.board
        hunters = dict(board.hunters)
        for label, cell in hunters.items():
            if previous.get(label) != cell:
                on_top = [x for x in on_top if x != label] + [label]
        previous = hunters
        scene = Scene(tiles, board.mammoth, {label: hunters[label] for label in on_top if label in hunters},
                      dict(board.traps))
        if relight and index in relight:
            look = replace(look, **relight[index])
            if previous_scene is not None:
                frame, _ = render_frame(previous_scene, kit.palette, look, rng)
                for _ in range(hold):
                    yield t, frame, index - 1
                    t += 1.0 / fps
        previous_scene = scene
        if step.hand:
            for _ in range(hand_frames):
                frame, _ = render_frame(scene, kit.palette, look, rng, hand=random_hand(rng))
                yield t, frame, index
                t += 1.0 / fps
            look = Kit(kit.palette, look).nudged(rng)
            if rng.random() < 0.1:
                base, gx, gy = look.gradient  # a lamp switched on: brighter, from one side
                look = replace(look, gradient=(min(base * 1.25, 1.3), gx + 0.1, gy))
        frame, _ = render_frame(scene, kit.palette, look, rng)
        for _ in range(hold):
            yield t, frame, index
            t += 1.0 / fps


def track_rendered(script: GameScript, seed: int = 0, required: int = 3, **render_options):
    """Render the script, then learn the setup, read and track it like ``maamut track``."""
    from vision.pipeline import TrackRun

    run = TrackRun(script.players, required=required)
    for timestamp, frame, _ in render_frames(script, seed, **render_options):
        if frame is None:
            run.press_pass(timestamp)
        else:
            run.feed(timestamp, frame)
    return run


#: Lights that switch on mid-game in :func:`run_relight` (``Look`` fields): daylight
#: washing the board out, and the sun coming round (brighter from one side, warmer).
RELIGHTS = ({"ambient": (80, 70, 50)},
            {"ambient": (60, 60, 60), "gradient": (1.2, 0.3, 0.1), "cast": (1.1, 1.0, 0.8)})


def run_relight(n_games: int = 10, seed: int = 1_700_000, max_turns: int = 8) -> dict:
    """Rendered games whose light changes in the middle, tracked like ``maamut track``.

    Each game is tracked twice: with the setup's colours only (the automatic re-learn
    off), and as the product does (on). ``relight_recovered`` counts the games tracked
    exactly to their end with it; ``relight_stalled_without`` those the setup's
    colours alone could not finish; ``relight_false_commits`` turns committed that the
    game did not have.
    """
    from vision.pipeline import TrackRun

    games, stalled, recovered, false_commits, relearnt = 0, 0, 0, 0, 0
    for g in range(n_games):
        game_seed = seed + g
        script = script_game(game_seed, n_players=2 + g % 3, max_turns=max_turns)
        middle = len(script.steps) // 2
        light = RELIGHTS[g % len(RELIGHTS)]
        games += 1
        for auto in (False, True):
            run = TrackRun(script.players, required=3)
            run.light.auto = auto
            for t, frame, _ in render_frames(script, game_seed, hold=8, relight={middle: light}):
                if frame is None:
                    run.press_pass(t)
                else:
                    run.feed(t, frame)
            run.finish()
            result = compare(script, run.tracker)
            exact = result["exact"]
            if auto:
                recovered += exact
                relearnt += run.light.relearnt
                false_commits += result["false_commits"]
            else:
                stalled += not exact
    return {"relight_games": games, "relight_stalled_without": stalled, "relight_recovered": recovered,
            "relight_relearns": relearnt, "relight_false_commits": false_commits}
