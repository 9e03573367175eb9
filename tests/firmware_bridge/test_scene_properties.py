"""Properties over many real games and many wirings: scenes always fit the strip and
point at the cells the engine named."""

import random

from hypothesis import given, settings, strategies as st

from engine.game import Game
from engine.hexgrid import NUM_CELLS, cell_name
from firmware_bridge.ledmap import LedMap
from firmware_bridge.scenes import SceneMaker


@st.composite
def wirings(draw):
    """Any order of the 37 hexes along the chain, with a few spare LEDs anywhere."""
    cells = draw(st.permutations(range(NUM_CELLS)))
    chain: list = [cell_name(c) for c in cells]
    for _ in range(draw(st.integers(0, 3))):
        chain.insert(draw(st.integers(0, len(chain))), "-")
    return LedMap.from_chain(chain, status_leds=draw(st.integers(0, 6)))


@given(wirings())
@settings(max_examples=60, deadline=None)
def test_any_wiring_round_trips_and_maps_both_ways(leds):
    assert LedMap.from_config(leds.to_config()) == leds
    import tomllib

    assert LedMap.from_config(tomllib.loads(leds.to_toml())["leds"]["map"]) == leds
    for cell in range(NUM_CELLS):
        assert leds.cell_at(leds.index_of(cell)) == cell
    assert all(leds.cell_at(i) is None for i in leds.status_leds)
    assert leds.led_count == max(leds.cell_leds) + 1 + leds.status_count


def play_random_game(seed: int, on_outcome) -> Game:
    """A whole game of random legal actions and random flee choices."""
    rng = random.Random(seed)
    game = Game.new(["A", "B", "C"], seed=seed)
    while game.phase == "setup":
        game.place_hunter(game.next_to_place(), rng.choice(game.start_cells()))
    for _ in range(60):
        actions = game.legal_actions()
        if not actions:
            break
        action, choices = rng.choice(actions), []
        outcome = game.play(action, choices)
        while outcome.needs is not None:
            on_outcome(game, outcome)
            choices.append((outcome.needs.hunter, rng.choice(outcome.needs.options)))
            outcome = game.play(action, choices)
        on_outcome(game, outcome)
    return game


@given(wirings(), st.integers(0, 10_000))
@settings(max_examples=15, deadline=None)
def test_scenes_of_random_games_fit_the_strip_and_follow_the_events(leds, seed):
    maker = SceneMaker(leds)
    seen = set()

    def check(game, outcome):
        scenes = maker.for_outcome(outcome)
        assert scenes, "every outcome leaves something on the LEDs"
        for scene in scenes:
            seen.add(scene.name)
            assert len(scene.frame) == leds.led_count
            for anim in scene.animations:
                assert all(0 <= i < leds.led_count for i in anim.leds)
        flights = [e for e in outcome.events if e["type"] == "mammoth_fled"]
        flight_scenes = [s for s in scenes if s.name == "flight"]
        assert len(flight_scenes) == len(flights)
        for event, scene in zip(flights, flight_scenes):
            chase = scene.animations[0]
            assert chase.leds == tuple(leds.indices_of([event["from"], *event["path"][:-1]]))
            assert scene.animations[1].leds == (leds.index_of(event["to"]),)
        last = scenes[-1]
        if outcome.winner:
            assert last.name == "celebration" and last.detail["winner"] == outcome.winner
        elif outcome.needs is not None:
            assert last.name == "flee_options"
            assert set(last.animations[0].leds) == set(leds.indices_of(outcome.needs.options))
        else:
            assert last.name == "turn" and last.detail["player"] == outcome.position.to_move

    play_random_game(seed, check)
    assert "turn" in seen
