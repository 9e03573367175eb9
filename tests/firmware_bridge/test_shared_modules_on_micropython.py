"""The shared modules give the same bytes under MicroPython as under CPython."""

import subprocess
import sys

import pytest

from firmware_bridge import protocol as p
from firmware_bridge import render
from firmware_bridge.emulator import ROOT, stage_firmware

pytestmark = pytest.mark.firmware

CHECK = """
import sys
print(sys.implementation.name)
import protocol as p, render, hal
payloads = [b"", b"\\x00", bytes(range(256)), b"\\x00" * 300, bytes(3 * 41)]
for i, payload in enumerate(payloads):
    print(p.encode_frame(p.SET_ALL, i, payload).hex())
buf = bytearray(b"\\xff" * 123)
print(render.limit_current(buf, 200, 1500), bytes(buf[:6]).hex())
scene = render.Scene(6)
scene.set_all([(1, 2, 3)] * 6)
scene.animate(p.ANIM_CHASE, [5, 4, 3], (9, 9, 9), 300)
scene.animate(p.ANIM_PULSE, [0], (255, 0, 0), 700)
print(bytes(scene.render(123)).hex(), bytes(scene.render(456)).hex())
print(type(hal.make_strip(4)).__name__, hal.safe_boot_requested())
"""


def cpython_reference():
    lines = ["micropython"]
    payloads = [b"", b"\x00", bytes(range(256)), b"\x00" * 300, bytes(3 * 41)]
    for i, payload in enumerate(payloads):
        lines.append(p.encode_frame(p.SET_ALL, i, payload).hex())
    buf = bytearray(b"\xff" * 123)
    lines.append("%d %s" % (render.limit_current(buf, 200, 1500), bytes(buf[:6]).hex()))
    scene = render.Scene(6)
    scene.set_all([(1, 2, 3)] * 6)
    scene.animate(p.ANIM_CHASE, [5, 4, 3], (9, 9, 9), 300)
    scene.animate(p.ANIM_PULSE, [0], (255, 0, 0), 700)
    lines.append("%s %s" % (bytes(scene.render(123)).hex(), bytes(scene.render(456)).hex()))
    lines.append("EmulatedStrip False")
    return lines


def test_micropython_and_cpython_agree_byte_for_byte(tmp_path):
    board = stage_firmware(tmp_path / "board")
    (board / "check.py").write_text(CHECK)
    result = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.wasm_runner", str(board), "check.py"],
        capture_output=True, text=True, timeout=120, cwd=str(ROOT), stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == cpython_reference()
