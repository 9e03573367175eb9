"""``maamut demo`` tells a visitor only what the demo is and where to look (issue 22):
no GPIO pin-factory lines, no hunt for an LED controller."""

from __future__ import annotations

import subprocess
import sys


def test_the_demo_console_says_only_what_a_visitor_needs(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "maamut.cli", "demo", "--games", "1", "--turn-seconds", "0.01",
                           "--attract-seconds", "0", "--no-vision", "--port", "0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "referee PIN" in out and "1 games" in out
    for noise in ("pin factory", "GPIO", "lgpio", "pigpio", "LED controller", "Traceback"):
        assert noise not in out, out
