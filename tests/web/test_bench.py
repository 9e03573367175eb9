"""``maamut bench web`` runs end to end (its figures are reported, never asserted on)."""

from __future__ import annotations

from companion_web.bench import run_benchmark
from maamut.cli import build_parser


def test_bench_web_is_registered_on_the_command_line():
    args = build_parser().parse_args(["bench", "web", "--json", "--viewers", "3"])
    assert args.viewers == 3 and args.json and callable(args.handler)


def test_a_small_benchmark_reaches_every_viewer_and_keeps_pages_within_the_weight_budget():
    result = run_benchmark(viewers=3, updates=3, interval=0.02)
    assert result["missed"] == 0 and result["latency_ms"]["p95"] is not None
    assert set(result["page_weight_bytes"]) == {"/", "/sandbox", "/setup", "/referee"}
    assert result["heaviest_page_kb"] <= 150  # a size budget, not a timing
    assert 0 < result["update_bytes"]["delta"] <= result["update_bytes"]["full"]
