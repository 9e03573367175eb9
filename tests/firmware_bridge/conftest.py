"""Fixtures that boot the unchanged firmware under MicroPython (WASI) behind a pty."""

import pytest

from firmware_bridge.emulator import EmulatedPico
from firmware_bridge.serial_link import FirmwareClient, open_port


@pytest.fixture(scope="module")
def pico():
    """One emulated board per test module (booting the interpreter takes ~1 s)."""
    board = EmulatedPico()
    board.plug()
    yield board
    board.close()


@pytest.fixture
def client(pico):
    """A client on the shared board, with a known starting point: black, full brightness."""
    port = open_port(pico.port)
    link = FirmwareClient(port, timeout=1.0, retries=2)
    link.wait_for_board()
    link.set_brightness(255)
    link.set_all([(0, 0, 0)] * link.info["led_count"])
    yield link
    port.close()
    assert pico.alive(), "the firmware died:\n" + pico.log()
