"""Host side of the LED controller link: find the Pico, talk to it, survive unplugs.

Two layers:

* :class:`FirmwareClient` does one request at a time over an open pyserial port:
  sequence numbers, waiting for the reply with the same number, retrying on NAK
  or timeout.  Tests and benchmarks use it directly.
* :class:`SerialLink` owns a worker thread that keeps the controller in step
  with the *latest* wanted LED state.  The game loop only updates that state
  (never blocks on the serial port); intermediate states that were superseded
  before they could be sent are skipped.  When the port fails the worker closes
  it, looks for the board again and, once it is back, restores the whole state.

Nothing the board sends can stop the worker: a frame that fails its checks (bad
COBS or CRC, too long, too short, a type the board never sends, or a payload of the
wrong shape for its type: :func:`protocol.check_reply`) is dropped and counted in
``stats["bad_frames"]``, and any unexpected error in the worker is logged, counted in
``stats["worker_errors"]`` and answered by reconnecting.

A board that reboots says HELLO. Every frame of a read is taken in, even those after
the reply a request was waiting for, and a HELLO is noted the moment it is read —
also when the reboot cut the board's previous frame short and the HELLO arrives glued
to its remains — so the worker always repaints a rebooted board.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from dataclasses import dataclass, field

import serial
from serial.tools import list_ports

from firmware_bridge import protocol as p

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A
PICO_PID = 0x0005  # MicroPython's USB CDC on the RP2040


#: The reply each command is answered with when it succeeds (ACK for all others).
EXPECTED_REPLY = {p.PING: p.PONG, p.GET_PIXELS: p.PIXELS}

#: The longest tail of a damaged block searched for a HELLO glued to it (a HELLO with
#: today's 9-byte info is 14 bytes on the wire; room for a longer info).
HELLO_SEARCH = 64


def hello_at_end(block: bytes):
    """The HELLO ``(type, seq, payload)`` that ends a damaged block, or ``None``.

    A board that reboots in the middle of a frame leaves that frame without its
    delimiter, so its HELLO is glued to the remains. Only a HELLO (type 0x90, seq 0,
    a well-formed info, a good CRC) is looked for: it is what must not be lost.

    >>> hello = p.encode_frame(p.HELLO, 0, p.info_payload((1, 0, 0), 41, 255, 0))
    >>> hello_at_end(b"\\x05\\x80\\x11" + hello[:-1])[0] == p.HELLO
    True
    >>> hello_at_end(b"\\x05\\x80\\x11") is None
    True
    """
    for start in range(max(0, len(block) - HELLO_SEARCH), len(block) - 4):
        try:
            kind, seq, payload = p.decode_frame(block[start:])
            if kind == p.HELLO and seq == 0:
                p.check_reply(kind, payload)
                return kind, seq, payload
        except p.ProtocolError:
            continue
    return None


def new_stats() -> dict:
    """Counters of what went wrong on a link (shared by its successive clients)."""
    return {"bad_frames": 0, "worker_errors": 0}


class LinkError(IOError):
    """The controller did not answer properly after all retries."""


class CommandRefused(LinkError):
    """The controller understood a command and refused it (NAK other than a bad frame)."""


def find_pico(serial_number: str | None = None, ports=None) -> str | None:
    """Device path of the first MicroPython Pico (VID:PID 2E8A:0005), or ``None``.

    ``serial_number`` picks one board when several are plugged in.  ``ports``
    defaults to pyserial's ``list_ports.comports()``.

    >>> from serial.tools.list_ports_common import ListPortInfo
    >>> other = ListPortInfo("/dev/ttyUSB0"); other.vid, other.pid = 0x0403, 0x6001
    >>> pico = ListPortInfo("/dev/ttyACM1"); pico.vid, pico.pid = PICO_VID, PICO_PID
    >>> pico.serial_number = "E6616408437B2F2B"
    >>> find_pico(ports=[other, pico])
    '/dev/ttyACM1'
    >>> find_pico("0000", ports=[other, pico]) is None
    True
    """
    for info in ports if ports is not None else list_ports.comports():
        if info.vid == PICO_VID and info.pid == PICO_PID:
            if serial_number is None or info.serial_number == serial_number:
                return info.device
    return None


def open_port(port: str, baudrate: int = 115200) -> serial.Serial:
    """Open ``port`` exclusively (a second program would corrupt our frames)."""
    return serial.Serial(port, baudrate=baudrate, timeout=0.01, write_timeout=1.0,
                         exclusive=True)


class FirmwareClient:
    """Request/response over an open serial port; not thread-safe (one owner)."""

    def __init__(self, port: serial.Serial, timeout: float = 0.5, retries: int = 3,
                 nak_grace: float = 0.15, stats: dict | None = None):
        self.port = port
        #: ``bad_frames``: frames dropped because they failed a check.
        self.stats = stats if stats is not None else new_stats()
        self.nak_grace = nak_grace
        self.timeout = timeout
        self.retries = retries
        self.reader = p.FrameReader()
        # Start where no earlier client on this port is likely to have been:
        # commands it left unanswered in the line buffer get replies later, and
        # those must not pass for replies to ours.
        self.seq = random.randrange(255)
        self.naks = 0
        self.timeouts = 0
        self.rebooted = False  # set when the board announces a fresh boot (HELLO)
        self.info: dict | None = None
        # Checked frames read but not yet looked at: a request that got its reply
        # leaves the rest of the read here for the next one, never drops it.
        self._backlog: deque = deque()

    def _next_seq(self) -> int:
        # 0 is reserved for unsolicited frames and NAKs of unreadable frames.
        self.seq = self.seq % 255 + 1
        return self.seq

    def _bad_frame(self, why) -> None:
        self.stats["bad_frames"] = self.stats.get("bad_frames", 0) + 1
        log.debug("dropped a bad frame from the controller: %s", why)

    def _read_frames(self, deadline):
        """Yield checked frames until ``deadline()`` (re-read each time) passes.

        Frames that fail a check are dropped and counted, never yielded; a HELLO is
        taken note of as it is read (:meth:`_take`), never yielded either.
        """
        while True:
            self._take(self.port.read(self.port.in_waiting or 1))
            while self._backlog:
                yield self._backlog.popleft()
            if time.monotonic() >= deadline():
                return

    def _take(self, data: bytes) -> None:
        """Cut what was read into frames: check every one, note a HELLO at once, queue
        the others in order for whoever waits for a reply."""
        overflows = self.reader.overflows
        blocks = self.reader.feed(data)
        for _ in range(self.reader.overflows - overflows):
            self._bad_frame("longer than any frame")
        led_count = self.info.get("led_count") if self.info else None
        for block in blocks:
            try:
                kind, seq, payload = p.decode_frame(block)
                p.check_reply(kind, payload, led_count)
            except p.ProtocolError as exc:
                self._bad_frame(exc)
                found = hello_at_end(block)
                if found is None:
                    continue
                kind, seq, payload = found
            if kind == p.HELLO:
                self.rebooted = True
                self.info = p.parse_info(payload)
                led_count = self.info["led_count"]
                continue
            self._backlog.append((kind, seq, payload))

    def _unsolicited(self, reply: int, reply_seq: int, payload: bytes, limit: list) -> str | None:
        """Handle what the board says on its own: a NAK for a damaged frame (maybe ours,
        maybe older noise: if ours, no reply follows, so the wait is cut short).
        Returns what it was, or ``None`` for a reply to a command."""
        if reply == p.NAK and reply_seq == 0:
            self.naks += 1
            limit[0] = min(limit[0], time.monotonic() + self.nak_grace)
            return "damaged frame"
        return None

    def request(self, kind: int, payload: bytes = b"") -> tuple[int, bytes]:
        """Send one command; return ``(reply type, payload)``. Raises :class:`LinkError`."""
        last_problem = "no reply"
        expected = EXPECTED_REPLY.get(kind, p.ACK)
        for _attempt in range(self.retries + 1):
            seq = self._next_seq()
            # A leading delimiter ends any half frame left on the line (a write
            # cut short, noise), so this frame is never glued onto it.
            self.port.write(b"\x00" + p.encode_frame(kind, seq, payload))
            limit = [time.monotonic() + self.timeout]
            for reply, reply_seq, reply_payload in self._read_frames(lambda: limit[0]):
                unsolicited = self._unsolicited(reply, reply_seq, reply_payload, limit)
                if unsolicited:
                    if unsolicited == "damaged frame":
                        last_problem = unsolicited
                elif reply_seq != seq or reply not in (expected, p.NAK):
                    continue  # a late reply to an earlier attempt or an earlier client
                elif reply == p.NAK:
                    self.naks += 1
                    reason = reply_payload[0] if reply_payload else 0
                    # The board understood and refused: repeating cannot help.
                    raise CommandRefused("controller refused command 0x%02x: NAK reason %d"
                                         % (kind, reason))
                else:
                    return reply, reply_payload
            self.timeouts += 1
            if last_problem == "no reply":
                last_problem = "timeout"
        raise LinkError("no valid reply to command 0x%02x after %d tries (%s)"
                        % (kind, self.retries + 1, last_problem))

    def request_many(self, commands) -> list[tuple[int, bytes]]:
        """Send ``(type, payload)`` commands back to back, then collect the replies.

        One round trip for a whole scene (SET_ALL and its animations) instead of one
        per command: on a 115200-baud UART that is the difference between ~12 ms and
        ~12 ms times the number of commands.  Order matters (SET_ALL stops
        animations), so if any reply is missing, everything from the first missing
        one on is sent again, one command at a time.
        """
        commands = list(commands)
        if len(commands) <= 1:
            return [self.request(kind, payload) for kind, payload in commands]
        seqs = []
        out = bytearray()
        for kind, payload in commands:
            seq = self._next_seq()
            seqs.append(seq)
            out += b"\x00" + p.encode_frame(kind, seq, payload)
        self.port.write(bytes(out))
        replies: dict = {}
        limit = [time.monotonic() + self.timeout]
        for reply, reply_seq, reply_payload in self._read_frames(lambda: limit[0]):
            if self._unsolicited(reply, reply_seq, reply_payload, limit):
                continue
            if (reply_seq in seqs and reply_seq not in replies
                  and reply in (EXPECTED_REPLY.get(commands[seqs.index(reply_seq)][0], p.ACK),
                                p.NAK)):
                if reply == p.NAK:
                    self.naks += 1
                    kind = commands[seqs.index(reply_seq)][0]
                    raise CommandRefused("controller refused command 0x%02x: NAK reason %d"
                                         % (kind, reply_payload[0] if reply_payload else 0))
                replies[reply_seq] = (reply, reply_payload)
                if len(replies) == len(seqs):
                    break
        results = []
        for index, seq in enumerate(seqs):
            if seq not in replies:
                self.timeouts += 1
                return results + [self.request(kind, payload)
                                  for kind, payload in commands[index:]]
            results.append(replies[seq])
        return results

    def ping(self) -> dict:
        reply, payload = self.request(p.PING)
        self.info = p.parse_info(payload)
        return self.info

    def wait_for_board(self, timeout: float = 30.0) -> dict:
        """PING until the board answers (it may still be booting); its info, or LinkError."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.ping()
            except LinkError:
                if time.monotonic() >= deadline:
                    raise

    def set_all(self, pixels) -> None:
        self.request(p.SET_ALL, p.set_all_payload(pixels))

    def set_one(self, index: int, colour) -> None:
        self.request(p.SET_ONE, p.set_one_payload(index, colour))

    def animate(self, kind: int, leds, colour, period_ms: int) -> None:
        self.request(p.ANIMATE, p.animate_payload(kind, leds, colour, period_ms))

    def set_brightness(self, value: int) -> None:
        self.request(p.BRIGHTNESS, bytes((max(0, min(255, int(value))),)))

    def configure(self, idle_after_ms: int) -> None:
        self.request(p.CONFIG, p.config_payload(idle_after_ms))

    def pixels(self) -> tuple[int, list[tuple[int, int, int]]]:
        """``(mode, [(r, g, b), ...])`` as the strip shows them right now."""
        reply, payload = self.request(p.GET_PIXELS)
        if reply != p.PIXELS or not payload:
            raise LinkError("unexpected reply 0x%02x to GET_PIXELS" % reply)
        data = payload[1:]
        return payload[0], [tuple(data[i:i + 3]) for i in range(0, len(data) - 2, 3)]


@dataclass
class WantedState:
    """What the LEDs should show: base colours, animations on top, brightness."""

    pixels: tuple = ()
    animations: list = field(default_factory=list)  # (kind, leds tuple, colour, period)
    brightness: int | None = None
    idle_after_ms: int | None = None


class SerialLink:
    """Keeps a controller showing the latest :class:`WantedState`, from a worker thread.

    ``port`` is a device path; without it the Pico is found by VID:PID (and
    ``serial_number`` if given) each time the link (re)connects.
    """

    def __init__(self, port: str | None = None, serial_number: str | None = None,
                 baudrate: int = 115200, timeout: float = 0.5, retries: int = 3,
                 keepalive_s: float = 2.0, reconnect_s: float = 0.3,
                 on_status=None):
        self.port_name = port
        self.serial_number = serial_number
        self.baudrate = baudrate
        self.timeout = timeout
        self.retries = retries
        self.keepalive_s = keepalive_s
        self.reconnect_s = reconnect_s
        self.on_status = on_status
        self.client: FirmwareClient | None = None
        self.connected = False
        self.info: dict | None = None
        self.reconnects = 0
        self.reboots_seen = 0
        self.last_error: str | None = None
        self.acked = 0
        self.last_ack_latency: float | None = None
        #: ``bad_frames``: frames from the board dropped because they failed a check;
        #: ``worker_errors``: unexpected errors the worker survived by reconnecting.
        self.stats = new_stats()
        self._wanted = WantedState()
        self._wanted_version = 0
        self._wanted_since = time.monotonic()
        self._applied_version = -1
        self._sent: WantedState | None = None  # what the board is known to show
        self._cond = threading.Condition()
        self._jobs: list = []
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="led-serial-link",
                                        daemon=True)
        self._thread.start()

    # -- called by the game loop: cheap, never touches the port -----------------
    def _update(self, change) -> None:
        with self._cond:
            change(self._wanted)
            self._wanted_version += 1
            self._wanted_since = time.monotonic()
            self._cond.notify_all()

    def show(self, pixels) -> None:
        frame = tuple(tuple(int(v) & 0xFF for v in rgb) for rgb in pixels)

        def change(wanted):
            wanted.pixels = frame
            wanted.animations = []  # a new frame starts a new scene, as SET_ALL does
        self._update(change)

    def animate(self, kind: int, leds, colour, period_ms: int) -> None:
        entry = (int(kind), tuple(int(i) for i in leds), tuple(colour), int(period_ms))

        def change(wanted):
            # Per LED the last animation wins, so one that the new one fully covers is
            # dead weight; dropping it keeps a restore short in a long session.
            covered = set(entry[1])
            wanted.animations = [a for a in wanted.animations if not set(a[1]) <= covered]
            wanted.animations.append(entry)
        self._update(change)

    def set_brightness(self, value: int) -> None:
        self._update(lambda wanted: setattr(wanted, "brightness", int(value)))

    def configure(self, idle_after_ms: int) -> None:
        self._update(lambda wanted: setattr(wanted, "idle_after_ms", int(idle_after_ms)))

    def wait_synced(self, timeout: float = 5.0) -> bool:
        """Block until the board has acknowledged the latest state (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._applied_version != self._wanted_version:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def request(self, fn, timeout: float = 5.0):
        """Run ``fn(client)`` on the worker thread (e.g. read pixels back); returns its result."""
        box: dict = {}
        done = threading.Event()
        with self._cond:
            self._jobs.append((fn, box, done))
            self._cond.notify_all()
        if not done.wait(timeout):
            raise LinkError("the controller link did not run the request in time")
        error = box.get("error")
        if isinstance(error, LinkError):
            raise error
        if error is not None:
            raise LinkError("controller link failed: %s" % error) from error
        return box["value"]

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=5)
        self._disconnect(None)

    # -- worker thread ------------------------------------------------------------
    def _status(self, connected: bool, error: str | None) -> None:
        changed = connected != self.connected
        self.connected = connected
        self.last_error = error
        if changed and self.on_status is not None:
            try:
                self.on_status(connected, error)
            except Exception:  # a UI callback must not kill the link
                log.exception("LED link status callback failed")

    def _connect(self) -> bool:
        name = self.port_name or find_pico(self.serial_number)
        if name is None:
            self._status(False, "no Raspberry Pi Pico (2E8A:0005) found")
            return False
        try:
            port = open_port(name, self.baudrate)
        except (serial.SerialException, OSError, ValueError) as exc:
            # A replugged Pico may come back as another ttyACM: look for it by VID:PID.
            other = find_pico(self.serial_number) if self.port_name else None
            if other is None or other == name:
                self._status(False, "cannot open %s: %s" % (name, exc))
                return False
            try:
                port = open_port(other, self.baudrate)
            except (serial.SerialException, OSError, ValueError) as exc2:
                self._status(False, "cannot open %s: %s" % (other, exc2))
                return False
            name = other
        client = FirmwareClient(port, self.timeout, self.retries, stats=self.stats)
        try:
            port.reset_input_buffer()
            self.info = client.ping()
            client.rebooted = False  # a board met as it boots gets everything anyway
        except (LinkError, serial.SerialException, OSError) as exc:
            port.close()
            self._status(False, "no answer on %s: %s" % (name, exc))
            return False
        except BaseException:
            port.close()  # opened exclusively: left open, no later attempt could open it
            raise
        self.client = client
        self._sent = None  # unknown: restore everything
        self._applied_version = -1
        self.reconnects += 1
        self._status(True, None)
        log.info("LED controller on %s: %s", name, self.info)
        return True

    def _disconnect(self, error: str | None) -> None:
        if self.client is not None:
            try:
                self.client.port.close()
            except Exception:
                pass
        self.client = None
        self._sent = None
        if error is not None:
            self._status(False, error)

    def _push(self, wanted: WantedState) -> None:
        """Send what differs between the board's known state and ``wanted``, in one go."""
        client = self.client
        sent = self._sent
        if client.rebooted:
            client.rebooted = False
            self.reboots_seen += 1
            sent = None  # the board restarted behind our back: it shows nothing
        commands = []
        if wanted.idle_after_ms is not None and (
                sent is None or sent.idle_after_ms != wanted.idle_after_ms):
            commands.append((p.CONFIG, p.config_payload(wanted.idle_after_ms)))
        if wanted.brightness is not None and (sent is None or sent.brightness != wanted.brightness):
            commands.append((p.BRIGHTNESS, bytes((max(0, min(255, wanted.brightness)),))))
        if (sent is None or sent.pixels != wanted.pixels
                or sent.animations != wanted.animations[:len(sent.animations)]):
            commands.append((p.SET_ALL, p.set_all_payload(wanted.pixels)))
            done = 0
        else:
            done = len(sent.animations)  # only new animations were added
        for kind, leds, colour, period in wanted.animations[done:]:
            commands.append((p.ANIMATE, p.animate_payload(kind, leds, colour, period)))
        client.request_many(commands)
        self._sent = wanted

    def _run(self) -> None:
        """The worker: :meth:`_step` over and over; nothing it raises ends the thread."""
        failures = 0
        acked_at_failure = -1
        while True:
            jobs: list = []
            try:
                if self._step(jobs):
                    return
            except Exception as exc:  # a bug or a surprise: log it, reconnect, carry on
                self.stats["worker_errors"] += 1
                log.exception("LED controller link: unexpected error, reconnecting")
                for _fn, box, done in jobs:
                    if not done.is_set():
                        box["error"] = LinkError("controller link failed: %r" % exc)
                        done.set()
                try:
                    self._disconnect("unexpected error: %r" % exc)
                except Exception:
                    log.exception("LED controller link: could not even disconnect")
                    self.client = None
                    self._status(False, "unexpected error: %r" % exc)
                # The same error again and again (nothing acknowledged in between)
                # must not spin: wait longer each time, up to 5 s.
                failures = failures + 1 if self.acked == acked_at_failure else 1
                acked_at_failure = self.acked
                deadline = time.monotonic() + min(5.0, self.reconnect_s * 2 ** (failures - 1))
                with self._cond:
                    while not self._stop and time.monotonic() < deadline:
                        self._cond.wait(deadline - time.monotonic())
                    if self._stop:
                        return

    def _step(self, jobs: list) -> bool:
        """One round of the worker: connect, run jobs, push the state or keep alive.

        Puts the requests it takes into ``jobs``, so that if it raises they can
        still be answered.  Returns ``True`` once the link is closed.
        """
        with self._cond:
            if self._stop:
                return True
            jobs[:], self._jobs = self._jobs, []
        if self.client is None and not self._connect():
            for _fn, box, done in jobs:
                box["error"] = LinkError(self.last_error or "not connected")
                done.set()
            with self._cond:
                self._cond.wait(self.reconnect_s)
            return False
        try:
            for fn, box, done in jobs:
                try:
                    box["value"] = fn(self.client)
                except Exception as exc:
                    box["error"] = exc
                    if not isinstance(exc, CommandRefused) and isinstance(
                            exc, (LinkError, serial.SerialException, OSError)):
                        raise
                finally:
                    done.set()
            with self._cond:
                version = self._wanted_version
                since = self._wanted_since
                # A HELLO seen in passing means the board rebooted without the
                # port going away (UART bridges, watchdog): repaint it.
                pending = version != self._applied_version or self.client.rebooted
                if pending:
                    wanted = WantedState(self._wanted.pixels, list(self._wanted.animations),
                                         self._wanted.brightness, self._wanted.idle_after_ms)
            if pending:
                try:
                    self._push(wanted)
                except CommandRefused as exc:
                    # Resending the same bad state would loop forever; keep
                    # the link and wait for the next state instead.
                    log.error("LED state not shown: %s", exc)
                    self._sent = None
                with self._cond:
                    self._applied_version = version
                    self.acked += 1
                    self.last_ack_latency = time.monotonic() - since
                    self._cond.notify_all()
                return False
            with self._cond:
                if (not self._stop and self._wanted_version == self._applied_version
                        and not self._jobs):
                    notified = self._cond.wait(self.keepalive_s)
                else:
                    notified = True
            if not notified:
                self.client.ping()  # keep the board out of its idle animation
        except (LinkError, serial.SerialException, OSError) as exc:
            log.warning("LED controller link lost: %s", exc)
            self._disconnect(str(exc))
        return False
