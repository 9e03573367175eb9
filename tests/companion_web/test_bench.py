"""``maamut bench web`` runs end to end (its figures are reported, never asserted on)."""

from __future__ import annotations

import pytest

from companion_web.bench import run_benchmark
from maamut.cli import build_parser


def test_bench_web_is_registered_on_the_command_line():
    args = build_parser().parse_args(["bench", "web", "--json", "--viewers", "3"])
    assert args.viewers == 3 and args.json and callable(args.handler)


@pytest.mark.slow
def test_a_small_benchmark_reaches_every_viewer_and_keeps_pages_within_the_weight_budget():
    result = run_benchmark(viewers=3, updates=3, interval=0.02, idle=40, soak_pages=4, soak_seconds=2)
    assert result["missed"] == 0 and result["latency_ms"]["p95"] is not None
    # Delivery is timed by the viewers' kernel (their own reading comes on top, reported apart).
    assert result["latency_clock"] == "kernel receive timestamp"
    assert result["latency_read_ms"]["p50"] >= result["latency_ms"]["p50"]
    assert set(result["page_weight_bytes"]) == {"/", "/stand", "/sandbox", "/setup", "/referee"}
    assert result["heaviest_page_kb"] <= 150  # a size budget, not a timing
    assert 0 < result["update_bytes"]["delta"] <= result["update_bytes"]["full"]
    assert result["idle_flood_p95_ms"] is not None and result["idle_flood"]["timeouts"] == 0
    assert result["rss_soak"]["connected"] == 4 and "rss_mb_150_pages_10min" not in result


def test_bench_web_has_the_idle_flood_and_memory_soak_options():
    args = build_parser().parse_args(["bench", "web", "--idle", "0", "--soak-seconds", "30", "--soak-pages", "10"])
    assert (args.idle, args.soak_seconds, args.soak_pages) == (0, 30, 10)


def test_an_idle_flood_from_one_address_does_not_starve_another_client():
    from companion_web.bench import idle_flood

    result = idle_flood(idle=300, requests=10)
    assert result["timeouts"] == 0
    # One address keeps only a few idle sockets: the flood closes its own oldest ones.
    assert result["idle_still_open"] <= 16
