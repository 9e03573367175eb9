"""``maamut bench web --json`` keeps its figures and adds Mammut's page (issue 22): its
weight and its live-update latency, as new keys (figures reported, never asserted on)."""

from __future__ import annotations

import json

from maamut.cli import build_parser

WEB_KEYS = {"page_weight_bytes", "heaviest_page_kb", "whole_site_kb", "update_bytes", "viewers", "updates",
            "latency_ms", "latency_read_ms", "latency_clock", "missed", "server_cpu_ms_per_update", "targets",
            "load_average_1min", "cpu_count", "meets_targets"}


def test_bench_web_adds_the_mammut_page_weight_and_update_latency():
    args = build_parser().parse_args(["bench", "web", "--json", "--viewers", "3", "--updates", "4",
                                      "--interval", "0.02", "--idle", "0", "--soak-seconds", "0"])
    result = json.loads(json.dumps(args.handler(args)))  # the figures, as `--json` prints them
    assert WEB_KEYS <= set(result)  # every figure it had
    assert 0 < result["mammut_page_weight_kb"] <= 150  # a size budget, not a timing
    assert result["mammut"]["missed"] == 0 and result["mammut_update_latency_ms"]["p95"] is not None
