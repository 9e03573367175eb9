"""The bridge's worker thread against the emulated board: sync, coalescing, unplug, restore."""

import os
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


# -- frames that pass the CRC but not the rest, and surprises in the worker ------------

class ScriptedBoard:
    """A pretend controller in plain Python, for replies the real firmware never sends.

    Answers PING with a PONG (the first ``short_pongs`` of them cut to two bytes, with a
    valid CRC), keeps what SET_ALL sends for GET_PIXELS and ACKs everything else.
    ``explode`` makes the next write raise it and ``open_error`` every open, as a bug
    in pyserial or a driver would.
    """

    def __init__(self, short_pongs=0):
        self.short_pongs = short_pongs
        self.explode = None
        self.open_error = None
        self.opened = 0
        self.pixels = b""
        self._reader = p.FrameReader()
        self._out = bytearray()

    def open(self, name, baudrate=115200):
        if self.open_error is not None:
            raise self.open_error
        self.opened += 1
        return self

    @property
    def in_waiting(self):
        return len(self._out)

    def read(self, size=1):
        data = bytes(self._out[:size])
        del self._out[:size]
        if not data:
            time.sleep(0.002)  # the port's read timeout
        return data

    def send(self, kind, seq, payload=b""):
        self._out += p.encode_frame(kind, seq, payload)

    def write(self, data):
        if self.explode is not None:
            error, self.explode = self.explode, None
            raise error
        for block in self._reader.feed(data):
            kind, seq, payload = p.decode_frame(block)
            if kind == p.PING:
                info = p.info_payload((1, 0, 0), LEDS, 255, 0)
                if self.short_pongs:
                    self.short_pongs -= 1
                    info = info[:2]
                self.send(p.PONG, seq, info)
            elif kind == p.GET_PIXELS:
                self.send(p.PIXELS, seq, bytes((p.MODE_HOST,)) + self.pixels)
            else:
                if kind == p.SET_ALL:
                    self.pixels = payload
                self.send(p.ACK, seq)
        return len(data)

    def reset_input_buffer(self):
        self._out.clear()

    def close(self):
        pass


@pytest.fixture
def scripted(monkeypatch):
    def make(**kwargs):
        fake = ScriptedBoard(**kwargs)
        monkeypatch.setattr("firmware_bridge.serial_link.open_port", fake.open)
        return fake
    return make


def test_a_short_hello_with_a_good_crc_is_dropped_and_counted_and_the_link_goes_on(board):
    """A HELLO too short to parse used to kill the worker (``connected`` stayed true and
    the LEDs froze); now it is dropped, counted, and the next frames still get through."""
    link = SerialLink(port=board.port, keepalive_s=0.1)
    try:
        link.set_brightness(255)
        link.show([(1, 1, 1)] * LEDS)
        assert link.wait_synced(15)
        # The "board" says HELLO with a two-byte payload and a valid CRC.
        os.write(board._master, b"\x00" + p.encode_frame(p.HELLO, 0, b"\x01\x02"))
        assert wait_until(lambda: link.stats["bad_frames"] >= 1, 5)
        time.sleep(0.3)  # a few keepalives after it
        assert link._thread.is_alive() and link.connected
        link.show([(0, 99, 0)] * LEDS)
        assert link.wait_synced(5), "the LEDs still follow the game"
        assert link.request(lambda c: c.pixels())[1] == [(0, 99, 0)] * LEDS
        assert link.reboots_seen == 0, "a HELLO that cannot be read is no reboot"
    finally:
        link.close()


def test_a_short_pong_is_dropped_and_counted_and_the_next_good_one_connects(scripted):
    """A PONG whose payload is too short used to raise in ``parse_info`` and end the thread."""
    fake = scripted(short_pongs=2)
    link = SerialLink(port="scripted", timeout=0.1, retries=3, reconnect_s=0.05)
    try:
        link.show([(5, 6, 7)] * LEDS)
        assert link.wait_synced(5)
        assert link.connected and link.info["led_count"] == LEDS
        assert link.stats["bad_frames"] == 2
        assert fake.pixels == bytes((5, 6, 7)) * LEDS
    finally:
        link.close()


def test_a_board_that_only_sends_short_pongs_is_not_connected_but_the_link_keeps_trying(scripted):
    scripted(short_pongs=10 ** 6)
    link = SerialLink(port="scripted", timeout=0.05, retries=1, reconnect_s=0.02)
    try:
        assert wait_until(lambda: link.stats["bad_frames"] >= 4, 5)
        assert link._thread.is_alive() and not link.connected
        assert "no answer" in link.last_error
    finally:
        link.close()


def test_an_unexpected_error_in_the_worker_is_logged_counted_and_the_link_reconnects(
        scripted, caplog):
    """Any exception, not only serial ones: the thread logs it, reconnects and restores."""
    fake = scripted()
    link = SerialLink(port="scripted", timeout=0.1, reconnect_s=0.05)
    try:
        link.show([(1, 2, 3)] * LEDS)
        assert link.wait_synced(5)
        fake.explode = RuntimeError("a bug nobody expected")
        link.show([(9, 8, 7)] * LEDS)
        assert link.wait_synced(5), "the state after the error reaches the board"
        assert link._thread.is_alive() and link.connected
        assert link.stats["worker_errors"] == 1
        assert link.reconnects == 2 and fake.opened == 2
        assert fake.pixels == bytes((9, 8, 7)) * LEDS
        assert "a bug nobody expected" in caplog.text
    finally:
        link.close()


def test_a_request_pending_when_an_unexpected_error_strikes_fails_instead_of_hanging(scripted):
    """Even an error while (re)connecting answers the requests the worker had taken."""
    fake = scripted()
    fake.open_error = RuntimeError("the driver fell over")
    link = SerialLink(port="scripted", timeout=0.1, reconnect_s=0.05)
    try:
        with pytest.raises(LinkError, match="the driver fell over"):
            link.request(lambda c: c.ping(), timeout=3)
        assert link._thread.is_alive() and link.stats["worker_errors"] >= 1
        fake.open_error = None
        assert wait_until(lambda: link.connected, 5)
        assert link.request(lambda c: c.ping())["led_count"] == LEDS
    finally:
        link.close()


# -- a board that reboots right after a reply, and frames cut short ---------------------

HELLO = p.encode_frame(p.HELLO, 0, p.info_payload((1, 0, 0), LEDS, 255, 0))


class RebootingBoard(ScriptedBoard):
    """Reboots right after acknowledging the SET_ALL that follows ``arm()``: its LEDs go
    dark, and its HELLO reaches the host in the same read as that ACK, arranged with
    it by ``arrange(ack, hello)``."""

    def __init__(self, arrange):
        super().__init__()
        self.arrange = arrange
        self.armed = False
        self.set_alls = 0

    def arm(self):
        self.armed = True

    def write(self, data):
        for block in p.FrameReader().feed(data):
            if p.decode_frame(block)[0] == p.SET_ALL:
                self.set_alls += 1
        return super().write(data)

    def send(self, kind, seq, payload=b""):
        frame = p.encode_frame(kind, seq, payload)
        if kind == p.ACK and self.armed:
            self.armed = False
            self.pixels = b""  # rebooted: the strip is dark
            frame = self.arrange(frame, HELLO)
        self._out += frame


@pytest.mark.parametrize("arrange", [
    lambda ack, hello: ack + hello,
    lambda ack, hello: hello + ack,
    lambda ack, hello: ack + ack[:3] + hello,  # the reboot cut a frame short: HELLO glued on
    lambda ack, hello: ack + b"\x13\x37\xfe" + hello,  # boot noise without a delimiter
], ids=["ack_then_hello", "hello_then_ack", "hello_glued_to_a_cut_frame", "hello_after_noise"])
@pytest.mark.parametrize("animated", [False, True], ids=["one_command", "batch"])
def test_a_board_that_reboots_with_its_hello_in_the_same_read_as_an_ack_is_repainted(
        monkeypatch, arrange, animated):
    fake = RebootingBoard(arrange)
    monkeypatch.setattr("firmware_bridge.serial_link.open_port", fake.open)
    link = SerialLink(port="scripted", timeout=0.1, keepalive_s=30)
    try:
        link.show([(1, 1, 1)] * LEDS)
        assert link.wait_synced(5)
        fake.arm()
        link.show([(4, 5, 6)] * LEDS)
        if animated:  # SET_ALL and its animation go out together (request_many)
            link.animate(p.ANIM_BLINK, [3], (255, 0, 0), 300)
        assert wait_until(lambda: fake.pixels == bytes((4, 5, 6)) * LEDS and fake.set_alls >= 3, 5), \
            "the scene is sent again after the reboot"
        assert link.reboots_seen == 1 and link.reconnects == 1 and link.connected
    finally:
        link.close()


def test_every_malformed_frame_is_counted_including_short_ones_with_a_valid_crc(scripted):
    """Frames cut short before their CRC was computed pass the CRC: each is still a bad
    frame, counted once, and the good reply behind them gets through."""
    fake = scripted()
    client = FirmwareClient(fake.open("scripted"), timeout=0.2, retries=0)
    client.ping()  # the board's LED count is known from here on
    body = bytes((p.ACK, 9))
    too_short = p.cobs_encode(body[:1] + bytes((p.crc16(body[:1]) >> 8, p.crc16(body[:1]) & 0xFF))) + b"\x00"
    malformed = [
        p.encode_frame(p.NAK, 3),  # a NAK without its reason
        p.encode_frame(p.PIXELS, 4, bytes((p.MODE_HOST,))),  # the mode, no LED
        p.encode_frame(p.PIXELS, 5, bytes((p.MODE_HOST,)) + bytes(3 * (LEDS - 1))),  # one LED short
        p.encode_frame(p.PONG, 6, p.info_payload((1, 0, 0), LEDS, 255, 0)[:8]),  # info cut short
        p.encode_frame(p.HELLO, 0, b"\x01"),
        too_short,  # a type and a CRC, no sequence number
        p.encode_frame(p.ACK, 7, b"\x01"),  # an ACK carries nothing
        p.encode_frame(0x42, 8),  # no such reply
        b"\x05\x80\x11\x00",  # COBS block running past its frame
        p.encode_frame(p.ACK, 9)[:-3] + b"\x00",  # the CRC cut off
    ]
    fake._out += b"".join(malformed)
    assert client.ping()["led_count"] == LEDS
    assert client.stats["bad_frames"] == len(malformed)
    assert not client.rebooted, "a HELLO that cannot be read is no reboot"
