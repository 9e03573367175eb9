"""Whole seeded games, seen as the camera would, are tracked exactly with no false commit."""

import pytest

from sim import tracker_bench
from vision.stability import StabilityFilter
from vision.tracker import GameTracker, TrackerError


@pytest.mark.parametrize("seed", range(12))
def test_a_whole_game_with_hands_and_misreadings_is_tracked_exactly(seed):
    script = tracker_bench.script_game(seed)
    tracker = tracker_bench.track(script, tracker_bench.observations(script, seed=seed))
    result = tracker_bench.compare(script, tracker)
    assert result["false_commits"] == 0
    assert result["exact"], tracker.reports
    assert tracker.reports == [] or all(r["type"] == "engine_error" for r in tracker.reports)


def test_every_intermediate_board_of_a_flight_is_waited_for_quietly():
    """Property over many games: the boards between a move and its full resolution raise no report."""
    for seed in range(40):
        script = tracker_bench.script_game(1000 + seed)
        tracker = tracker_bench.track(script, tracker_bench.observations(script, seed, disturbances=False))
        assert [r for r in tracker.reports if r["type"] != "engine_error"] == [], seed
        assert tracker_bench.compare(script, tracker)["exact"], seed


def test_a_filter_too_lax_for_the_misreadings_is_caught_by_the_comparison():
    """The benchmark's comparison is not vacuous: one-frame commits let misreadings through."""
    wrong = 0
    for seed in range(10):
        script = tracker_bench.script_game(seed)
        tracker = GameTracker(script.players, stability=StabilityFilter(frames=1))
        for item in tracker_bench.observations(script, seed=seed):
            if isinstance(item, str):
                try:
                    tracker.confirm_pass()
                except TrackerError:
                    pass  # refused mid-move: the misread board made it look like one
            else:
                tracker.feed(item)
        result = tracker_bench.compare(script, tracker)
        wrong += (not result["exact"]) or bool(tracker.reports)
    assert wrong > 0


def test_the_bench_function_reports_its_figures():
    result = tracker_bench.run(3, seed=77)
    assert set(result) >= {"games", "tracked_exactly", "tracked_exactly_ratio", "false_commits", "ms_per_frame"}
    assert result["games"] == 3 and result["tracked_exactly"] == 3 and result["false_commits"] == 0
