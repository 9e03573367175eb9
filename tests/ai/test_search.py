"""The search player: the kernel it steps agrees with the referee; it never plays an
illegal action; it never uses the others' hidden cards; it keeps to its budget."""

import itertools
import random
from collections import Counter

import pytest

from ai import Level, SearchPlayer, observe
from ai.bench import RandomHunter, run_ai_bench, wilson
from engine.fastplay import PlayoutState, action_of
from engine.game import Game
from engine.rules import apply_action, legal_actions


def _game(players: int, seed: int, turns: int) -> Game:
    """A dealt game after ``turns`` random turns (or earlier if it ended)."""
    rng = random.Random(seed)
    game = Game.new("ABCD"[:players], seed=seed)
    hunter = RandomHunter(rng)
    for p in game.players:
        game.place_hunter(p, hunter.choose_start(game))
    while not game.is_over and game.turns_played() < turns:
        game.play(*hunter.choose_turn(game))
    return game


def _lowest_flee(state, seat, options):
    return min(options)


@pytest.mark.parametrize("seed", range(12))
def test_the_search_state_plays_every_turn_as_the_referee_does(seed):
    rng = random.Random(seed)
    game = Game.new("ABCD"[:2 + seed % 3], seed=seed)
    for p in game.players:
        game.place_hunter(p, rng.choice(game.start_cells()))
    while not game.is_over and game.turns_played() < 150:
        pos = game.position
        state = PlayoutState.from_position(pos, pos.hands, list(game.deck.draw_pile), game.deck.discard_pile,
                                        flee=_lowest_flee)
        codes = state.legal()
        assert {action_of(pos, c) for c in codes} == set(game.legal_actions())
        code = rng.choice(codes)
        action = action_of(pos, code)
        choices = ()
        while (out := apply_action(pos, action, choices)).needs is not None:
            choices += ((out.needs.hunter, min(out.needs.options)),)
        game.play(action, choices)
        state.play(code)
        after = game.position
        names = pos.players
        assert {names[i]: c for i, c in enumerate(state.at) if c >= 0} == after.hunters
        assert {c: names[o] for c, o in enumerate(state.traps) if o >= 0} == after.traps
        assert state.mammoth == after.mammoth
        winner = None if state.winner == -1 else ("mammoth" if state.winner == -2 else names[state.winner])
        assert winner == game.winner
        if not game.is_over:
            assert names[state.me] == after.to_move


@pytest.mark.parametrize("players,seed", list(itertools.product((2, 3, 4), range(5))))
def test_the_ai_never_plays_an_illegal_action_nor_an_illegal_flee(players, seed):
    game = _game(players, 100 + seed, turns=seed * 7)
    ai = SearchPlayer(Level(iterations=40), random.Random(seed))
    for _ in range(12):
        if game.is_over:
            break
        me = game.position.to_move
        before = observe(game, me)
        decision = ai.decide(before)
        assert decision.action in game.legal_actions()
        action, choices = decision.action, ()
        while (out := game.play(action, choices)).needs is not None:
            # the AI answers for every frightened hunter here, as if it owned them all
            owner_view = observe(game, out.needs.hunter)
            cell, chances = ai.choose_flee(owner_view, action, choices, out.needs)
            assert cell in out.needs.options and set(chances) == set(out.needs.options)
            choices += ((out.needs.hunter, cell),)


def test_the_ai_finds_a_push_into_its_own_trap_at_once():
    from ai import InfoSetObservation
    from engine.notation import position_from_text
    # A stands west of the mammoth with its trap just east of it: E1 (or E2) pushes it in
    pos = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@-1,0;B@0,3 A@1,0 A")
    obs = InfoSetObservation(pos, "A", (1, 2, 3), (), (("B", 3),))
    decision = SearchPlayer(Level(iterations=50), random.Random(0)).decide(obs)
    assert decision.iterations == 0  # no search needed
    assert apply_action(pos, decision.action).winner == "A"


def test_the_ai_plays_the_tables_variants():
    """On a trap with another hunter, taking it up is legal only with
    alone_required_for_recover off: the AI's actions are the referee's under the
    table's variants."""
    from ai import InfoSetObservation
    from engine.notation import position_from_text
    from engine.core import RemoveTrap
    from engine.variants import Variants
    pos = position_from_text("gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@-2,1;B@-2,1;C@0,3 B@-2,1 A")
    lax = Variants(alone_required_for_recover=False)
    for variants, can_take_up in ((Variants(), False), (lax, True)):
        decision = SearchPlayer(Level(iterations=30), random.Random(0)).decide(
            InfoSetObservation(pos, "A", (1, 2, 3), (), (("B", 3), ("C", 3)), variants))
        actions = {row["action"] for row in decision.analysis}
        assert actions == set(legal_actions(pos.with_(hands={"A": (1, 2, 3)}), variants))
        assert (RemoveTrap("A") in actions) == can_take_up


def _swap_unseen(game: Game, rng: random.Random) -> None:
    """Deal the others' hands and the draw pile again from the same unseen cards."""
    pos = game.position
    me = pos.to_move
    others = [p for p in pos.players if p != me and pos.hands.get(p)]
    unseen = [c for p in others for c in pos.hands[p]] + list(game.deck.draw_pile)
    rng.shuffle(unseen)
    hands = dict(pos.hands)
    for p in others:
        size = len(pos.hands[p])
        hands[p], unseen = tuple(unseen[:size]), unseen[size:]
    game.deck.draw_pile[:] = unseen
    game.position = pos.with_(hands=hands)


def test_swapping_the_unseen_cards_changes_nothing_the_ai_sees_or_decides():
    game = _game(4, 7, turns=10)
    assert not game.is_over
    me = game.position.to_move
    original = observe(game, me)
    # a sanity check that the observation would show a leak: my own cards are in it
    assert original.hand == game.position.hands[me]
    swapped_game = _game(4, 7, turns=10)
    rng = random.Random(3)
    while swapped_game.position.hands == game.position.hands:
        _swap_unseen(swapped_game, rng)
    swapped = observe(swapped_game, me)
    assert swapped == original
    level = Level(iterations=60)
    # the decision distribution over independent seeds is the same within noise
    first = Counter(SearchPlayer(level, random.Random(s)).decide(observe(game, me)).action for s in range(30))
    second = Counter(SearchPlayer(level, random.Random(1000 + s)).decide(observe(swapped_game, me)).action
                     for s in range(30))
    tv = sum(abs(first[a] - second[a]) for a in set(first) | set(second)) / 60
    assert tv <= 0.45, (first, second)
    # and with the same seed the very same decision, analysis included
    a = SearchPlayer(level, random.Random(5)).decide(observe(game, me))
    b = SearchPlayer(level, random.Random(5)).decide(observe(swapped_game, me))
    assert (a.action, [r["win_chance"] for r in a.analysis]) == (b.action, [r["win_chance"] for r in b.analysis])


class _TickClock:
    """A clock that advances 1 ms each time it is read: the budget is counted in reads."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.001
        return self.now


@pytest.mark.parametrize("budget_ms", [5, 40])
def test_the_ai_stops_within_its_time_budget(budget_ms):
    game = _game(4, 11, turns=4)
    ai = SearchPlayer(Level(time_ms=budget_ms), random.Random(0), clock=_TickClock())
    decision = ai.decide(observe(game, game.position.to_move))
    assert decision.budget_ms == budget_ms
    assert decision.iterations >= 1
    # one clock read per iteration: it stops at the first read past the budget
    assert decision.elapsed_ms <= budget_ms + 2


def test_an_iteration_level_does_exactly_its_iterations():
    game = _game(3, 12, turns=3)
    decision = SearchPlayer(Level(iterations=25), random.Random(0)).decide(observe(game, game.position.to_move))
    assert decision.iterations == 25
    assert sum(row["visits"] for row in decision.analysis) == 25


def test_the_bench_reports_its_figures():
    figures = run_ai_bench(games=2, players=2, level=Level(iterations=5), opponent="random", baseline=True)
    assert {"games", "ai_win_rate", "ci95", "baseline", "ms_per_move"} <= set(figures)
    assert figures["games"] == 2 and 0 <= figures["ai_win_rate"] <= 1
    low, high = wilson(30, 50)
    assert low < 0.6 < high


def test_maamut_bench_ai_prints_its_figures_as_json(capsys):
    import json

    from maamut.cli import main

    assert main(["bench", "ai", "--games", "2", "--extra-games", "0", "--iterations", "5", "--opponent", "random",
                 "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert {"games", "ai_win_rate", "ci95", "baseline", "ms_per_move"} <= set(figures)
    assert figures["games"] == 2 and figures["level"]["iterations"] == 5


@pytest.mark.parametrize("seed", range(8))
def test_the_discards_counted_from_the_turns_are_the_decks_discard_pile(seed):
    from ai.search import public_discards
    from engine.playout import choose_turn

    rng = random.Random(seed)
    game = Game.new("ABCD"[:2 + seed % 3], seed=seed)
    for p in game.players:
        game.place_hunter(p, rng.choice(game.start_cells()))
    while not game.is_over and game.turns_played() < 200:
        game.play(*choose_turn(game, rng, trap_bias=0.3))
        assert sorted(public_discards(game)) == sorted(game.deck.discard_pile)
