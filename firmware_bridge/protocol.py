"""Wire protocol between the host and the LED controller (see hardware/PROTOCOL.md).

This one file is imported by CPython (the bridge) *and* by MicroPython (the
firmware: ``maamut firmware install`` copies it to the Pico unchanged), so it is
plain Python: no typing, no dataclasses, no f-strings, only ``bytes``/``bytearray``
and integers.  That is also why COBS and CRC-16 are written out here instead of
using the PyPI ``cobs``/``crcmod`` packages: those do not exist on the Pico, and
two implementations that must agree byte for byte are worse than one.

A frame on the wire is ``COBS(type, seq, payload..., crc_hi, crc_lo) + b"\\x00"``,
the CRC being CRC-16/CCITT-FALSE over ``type, seq, payload``.

>>> wire = encode_frame(PING, 7)
>>> wire[-1]
0
>>> decode_frame(wire[:-1])
(1, 7, b'')
>>> decode_frame(b"\\x08garbage")
Traceback (most recent call last):
...
firmware_bridge.protocol.ProtocolError: bad CRC
"""

PROTOCOL_VERSION = 1

# Host -> controller commands.
PING = 0x01          # -> PONG
SET_ALL = 0x02       # payload: r,g,b per LED from LED 0; stops all animations
SET_ONE = 0x03       # payload: index (u16 BE), r, g, b; stops that LED's animation
ANIMATE = 0x04       # payload: kind, period_ms (u16 BE), r, g, b, indices (u16 BE each)
BRIGHTNESS = 0x05    # payload: brightness 0..255 (scales everything shown)
GET_PIXELS = 0x06    # -> PIXELS (what the strip is really showing)
CONFIG = 0x07        # payload: idle_after_ms (u32 BE); 0 turns the idle animation off
EXIT_TO_REPL = 0x08  # ACK, then stop the firmware and give the REPL back (for mpremote)

# Controller -> host replies; every reply repeats the command's sequence number.
ACK = 0x80
PONG = 0x81          # payload: protocol version, fw major, minor, patch, led count (u16 BE),
                     #          brightness, current limit in mA (u16 BE)
PIXELS = 0x86        # payload: mode (0 host scene, 1 idle), then r,g,b per LED
NAK = 0x8F           # payload: one NAK_* reason byte
HELLO = 0x90         # sent unasked at boot (seq 0): same payload as PONG

# Animation kinds for ANIMATE.
ANIM_NONE = 0        # stop the animation on the listed LEDs (they show their base colour)
ANIM_BLINK = 1
ANIM_PULSE = 2
ANIM_CHASE = 3
ANIMATION_NAMES = {"none": ANIM_NONE, "blink": ANIM_BLINK, "pulse": ANIM_PULSE,
                   "chase": ANIM_CHASE}

# NAK reasons.
NAK_BAD_FRAME = 1    # COBS or CRC check failed (sequence number is then 0)
NAK_UNKNOWN = 2      # unknown command type
NAK_BAD_LENGTH = 3   # payload has the wrong length for its command
NAK_OUT_OF_RANGE = 4  # an LED index or value is out of range
NAK_TOO_LONG = 5     # the frame overflowed the receive buffer

MODE_HOST = 0
MODE_IDLE = 1

#: Longest decoded frame accepted (type + seq + payload + CRC).  Room for a
#: SET_ALL of 300 LEDs; anything longer is dropped whole, so a stream of
#: garbage without zero bytes can never exhaust the controller's RAM.
MAX_FRAME = 4 + 3 * 300


class ProtocolError(ValueError):
    """A frame that must not be accepted (bad COBS, bad CRC, too short)."""


def _make_crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_CRC_TABLE = _make_crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): the check value is 0x29B1.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no zero byte.

    >>> cobs_encode(b"\\x11\\x00\\x22")
    b'\\x02\\x11\\x02"'
    >>> cobs_encode(b"")
    b'\\x01'
    """
    out = bytearray()
    code_index = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_index] = code
            code_index = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_index] = code
                code_index = len(out)
                out.append(0)
                code = 1
    out[code_index] = code
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raise :class:`ProtocolError` on malformed input.

    >>> cobs_decode(b'\\x02\\x11\\x02"')
    b'\\x11\\x00"'
    """
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0:
            raise ProtocolError("zero byte inside COBS data")
        end = index + code
        if end > length:
            raise ProtocolError("COBS block runs past the frame")
        block = data[index + 1:end]
        for byte in block:
            if byte == 0:
                raise ProtocolError("zero byte inside COBS data")
        out.extend(block)
        index = end
        if code != 0xFF and index < length:
            out.append(0)
    return bytes(out)


def encode_frame(kind, seq, payload=b""):
    """Bytes to send for one message, including the trailing 0x00 delimiter."""
    body = bytearray((kind & 0xFF, seq & 0xFF))
    body.extend(payload)
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return cobs_encode(body) + b"\x00"


def decode_frame(data):
    """Check and split one COBS block (without its 0x00): ``(type, seq, payload)``."""
    body = cobs_decode(data)
    if len(body) < 4:
        raise ProtocolError("frame too short")
    if len(body) > MAX_FRAME:
        raise ProtocolError("frame too long")
    crc = (body[-2] << 8) | body[-1]
    if crc16(body[:-2]) != crc:
        raise ProtocolError("bad CRC")
    return body[0], body[1], bytes(body[2:-2])


class FrameReader:
    """Cut a byte stream into COBS blocks at each 0x00.

    ``feed(chunk)`` returns the list of complete blocks (still COBS-encoded).  A
    block longer than the limit is dropped up to the next delimiter and counted in
    ``overflows``, so the receive buffer stays bounded whatever arrives.

    >>> reader = FrameReader()
    >>> reader.feed(b"\\x01\\x00\\x02ab")
    [b'\\x01']
    >>> reader.feed(b"c\\x00")
    [b'\\x02abc']
    """

    def __init__(self, limit=MAX_FRAME * 2 + 8):
        self.limit = limit
        self.buffer = bytearray()
        self.overflowing = False
        self.overflows = 0

    def feed(self, chunk):
        blocks = []
        for byte in chunk:
            if byte == 0:
                if self.overflowing:
                    self.overflowing = False
                elif self.buffer:
                    blocks.append(bytes(self.buffer))
                self.buffer = bytearray()
            elif not self.overflowing:
                if len(self.buffer) >= self.limit:
                    self.overflowing = True
                    self.overflows += 1
                    self.buffer = bytearray()
                else:
                    self.buffer.append(byte)
        return blocks


#: What the controller may send: every other type is a malformed frame.
REPLY_TYPES = (ACK, PONG, PIXELS, NAK, HELLO)


def check_reply(kind, payload, led_count=None):
    """Raise :class:`ProtocolError` unless ``payload`` has the shape its reply type
    needs: ACK none, NAK its reason byte, PONG/HELLO the board's info, PIXELS the mode
    and three bytes per LED (exactly ``led_count`` LEDs when it is known).  A frame cut
    short keeps a valid CRC when the cut happened before the CRC was computed, so the
    CRC alone does not make a reply whole.

    >>> check_reply(NAK, bytes((NAK_BAD_FRAME,)))
    >>> check_reply(NAK, b"")
    Traceback (most recent call last):
    ...
    firmware_bridge.protocol.ProtocolError: NAK payload of 0 bytes
    >>> check_reply(PIXELS, bytes((MODE_HOST, 1, 2, 3)), led_count=2)
    Traceback (most recent call last):
    ...
    firmware_bridge.protocol.ProtocolError: PIXELS for 1 LEDs, not 2
    """
    if kind == ACK:
        if payload:
            raise ProtocolError("ACK payload of %d bytes" % len(payload))
    elif kind == NAK:
        if len(payload) != 1:
            raise ProtocolError("NAK payload of %d bytes" % len(payload))
    elif kind == PONG or kind == HELLO:
        parse_info(payload)
    elif kind == PIXELS:
        if not payload or (len(payload) - 1) % 3:
            raise ProtocolError("PIXELS payload of %d bytes" % len(payload))
        if led_count is not None and (len(payload) - 1) // 3 != led_count:
            raise ProtocolError("PIXELS for %d LEDs, not %d" % ((len(payload) - 1) // 3, led_count))
    else:
        raise ProtocolError("unknown reply type 0x%02x" % kind)


def u16(value):
    """Two bytes, big-endian.

    >>> u16(300)
    b'\\x01,'
    """
    return bytes(((value >> 8) & 0xFF, value & 0xFF))


def read_u16(data, offset):
    return (data[offset] << 8) | data[offset + 1]


def set_all_payload(pixels):
    """SET_ALL payload from a sequence of ``(r, g, b)``."""
    out = bytearray()
    for r, g, b in pixels:
        out.append(r & 0xFF)
        out.append(g & 0xFF)
        out.append(b & 0xFF)
    return bytes(out)


def set_one_payload(index, colour):
    r, g, b = colour
    return u16(index) + bytes((r & 0xFF, g & 0xFF, b & 0xFF))


def animate_payload(kind, leds, colour, period_ms):
    """ANIMATE payload; ``leds`` in the order a chase runs through them."""
    r, g, b = colour
    out = bytearray((kind & 0xFF,))
    out.extend(u16(max(1, min(int(period_ms), 0xFFFF))))
    out.extend((r & 0xFF, g & 0xFF, b & 0xFF))
    for index in leds:
        out.extend(u16(index))
    return bytes(out)


def config_payload(idle_after_ms):
    value = max(0, min(int(idle_after_ms), 0xFFFFFFFF))
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def info_payload(fw_version, led_count, brightness, current_limit_ma):
    """PONG/HELLO payload."""
    return (bytes((PROTOCOL_VERSION, fw_version[0], fw_version[1], fw_version[2]))
            + u16(led_count) + bytes((brightness & 0xFF,)) + u16(current_limit_ma))


def parse_info(payload):
    """Decode a PONG/HELLO payload into a dict.

    >>> parse_info(info_payload((1, 2, 3), 41, 128, 1500))["led_count"]
    41
    """
    if len(payload) < 9:
        raise ProtocolError("short PONG")
    return {
        "protocol": payload[0],
        "firmware": "%d.%d.%d" % (payload[1], payload[2], payload[3]),
        "led_count": read_u16(payload, 4),
        "brightness": payload[6],
        "current_limit_ma": read_u16(payload, 7),
    }
