"""The bridge's worker thread against the emulated board: sync, coalescing, unplug, restore."""

import time

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.backends import FirmwareBackend
from firmware_bridge.emulator import EmulatedPico
from firmware_bridge.serial_link import FirmwareClient, LinkError, SerialLink, open_port

pytestmark = pytest.mark.firmware

LEDS = 41


def wait_until(condition, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def shown(backend):
    return backend.link.request(lambda client: client.pixels())


@pytest.fixture
def board():
    pico = EmulatedPico()
    pico.plug()
    yield pico
    pico.close()


def test_backend_frames_and_animations_reach_the_strip(board):
    backend = FirmwareBackend(port=board.port)
    try:
        backend.set_brightness(255)
        frame = [(i * 6, 0, 40) for i in range(LEDS)]
        backend.show(frame)
        assert backend.link.wait_synced(15)
        assert shown(backend) == (p.MODE_HOST, frame)
        backend.animate("blink", [0], (255, 255, 255), 200)
        assert backend.link.wait_synced(5)
        seen = set()
        for _ in range(15):
            seen.add(shown(backend)[1][0])
            time.sleep(0.03)
        assert {(255, 255, 255), (0, 0, 40)} <= seen
    finally:
        backend.close()


def test_only_the_latest_state_is_sent_when_the_game_loop_outruns_the_link(board):
    link = SerialLink(port=board.port)
    try:
        assert wait_until(lambda: link.connected)
        for shade in range(200):  # far faster than any serial link
            link.show([(shade, shade, shade)] * LEDS)
        assert link.wait_synced(10)
        assert link.acked < 200, "intermediate states were skipped"
        assert link.request(lambda c: c.pixels())[1][0] == (199 * 96 // 255,) * 3
    finally:
        link.close()


def test_show_does_not_wait_for_a_missing_board(tmp_path):
    """No board at all: calls return at once, the state is kept and the error explains."""
    link = SerialLink(port=str(tmp_path / "nothing-here"), reconnect_s=0.05)
    try:
        link.show([(1, 2, 3)] * LEDS)
        assert not link.wait_synced(0.3)
        assert not link.connected
        assert "nothing-here" in link.last_error
        with pytest.raises(LinkError):
            link.request(lambda c: c.ping(), timeout=2)
    finally:
        link.close()


def test_unplugged_board_comes_back_with_the_scene_restored(board):
    events = []
    backend = FirmwareBackend(port=board.port, keepalive_s=0.3,
                              on_status=lambda up, error: events.append(up))
    try:
        backend.set_brightness(255)
        scene = [(0, 120, 0)] * LEDS
        backend.show(scene)
        backend.animate("pulse", [40], (255, 0, 0), 500)
        assert backend.link.wait_synced(15)
        board.unplug()
        assert wait_until(lambda: not backend.link.connected), "the loss is noticed"
        assert backend.state()["link"]["error"], "the web page can say why the LEDs are dark"
        backend.show([(0, 0, 90)] * LEDS)  # the game goes on while the cable is out
        board.plug()  # a fresh boot: the new firmware shows nothing yet
        assert board.boots == 2
        assert wait_until(lambda: backend.link.connected)
        assert backend.link.wait_synced(10)
        mode, pixels = shown(backend)
        assert mode == p.MODE_HOST and pixels == [(0, 0, 90)] * LEDS
        assert backend.state()["link"]["connected"] is True
        assert events[:3] == [True, False, True]
    finally:
        backend.close()


def test_a_firmware_that_stops_answering_is_noticed_and_the_next_boot_repainted(board):
    """The keepalive PING finds a dead firmware; the next one to boot gets the state."""
    link = SerialLink(port=board.port, keepalive_s=0.2)
    try:
        link.set_brightness(255)
        link.show([(7, 7, 7)] * LEDS)
        assert link.wait_synced(15)
        link.request(lambda c: c.request(p.EXIT_TO_REPL))  # the firmware stops...
        assert wait_until(lambda: not board.alive(), 10)
        board.unplug()
        board.plug()  # ...and a new one boots on the same port
        assert wait_until(lambda: link.reconnects >= 2)
        assert link.wait_synced(10)
        assert link.request(lambda c: c.pixels())[1] == [(7, 7, 7)] * LEDS
    finally:
        link.close()


def test_exit_to_repl_acknowledges_then_stops_the_firmware(board):
    port = open_port(board.port)
    client = FirmwareClient(port, timeout=1.0)
    client.wait_for_board()
    assert client.request(p.EXIT_TO_REPL)[0] == p.ACK
    assert wait_until(lambda: not board.alive(), 10)
    port.close()


def test_board_that_reboots_on_the_same_port_is_repainted_after_its_hello(board):
    """No unplug, just a restart (UART bridge, watchdog): the HELLO triggers a full restore."""
    # Patient retries: the pings sent while the interpreter reboots must not give up.
    link = SerialLink(port=board.port, keepalive_s=0.2, timeout=1.0, retries=8)
    try:
        link.set_brightness(255)
        link.show([(11, 22, 33)] * LEDS)
        link.animate(p.ANIM_PULSE, [2], (0, 255, 0), 400)
        assert link.wait_synced(15)
        board.reset()
        assert wait_until(lambda: link.reboots_seen >= 1)
        assert link.reconnects == 1, "the port never went away"
        assert wait_until(lambda: link.request(lambda c: c.pixels())[1][5] == (11, 22, 33))
    finally:
        link.close()
