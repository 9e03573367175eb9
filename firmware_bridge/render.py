"""How a scene becomes LED values: animations, idle pattern and the current limit.

Like :mod:`firmware_bridge.protocol` this file runs unchanged on MicroPython:
the firmware uses it to animate the strip by itself, and the host uses the same
arithmetic for backends without firmware animations (Adalight) and for the
simulated strip the web page mirrors, so every backend shows the same thing.
Integer arithmetic only, because the Pico has no FPU and little time per frame.

>>> level(ANIM_BLINK, 1000, 100, 0, 1), level(ANIM_BLINK, 1000, 600, 0, 1)
(255, 0)
>>> [level(ANIM_CHASE, 400, 150, i, 4) for i in range(4)]
[64, 255, 0, 0]
>>> scale_colour((200, 100, 0), 128)
(100, 50, 0)
"""

try:
    from firmware_bridge.protocol import ANIM_NONE, ANIM_BLINK, ANIM_PULSE, ANIM_CHASE, set_all_payload
except ImportError:  # on the Pico the shared modules sit side by side
    from protocol import ANIM_NONE, ANIM_BLINK, ANIM_PULSE, ANIM_CHASE, set_all_payload

#: Rough WS2812B draw per colour channel at full value, in milliamps.
MA_PER_CHANNEL = 20
#: Idle pattern brightness (0..255): a glow that says "powered, waiting".
IDLE_LEVEL = 40


def level(kind, period_ms, t_ms, position, count):
    """Brightness 0..255 of one animated LED at time ``t_ms``.

    ``position`` is the LED's place among the ``count`` LEDs of a chase.
    """
    period = period_ms if period_ms > 0 else 1
    phase = t_ms % period
    if kind == ANIM_BLINK:
        return 255 if phase * 2 < period else 0
    if kind == ANIM_PULSE:
        # Triangle wave, squared so it looks even to the eye (rough gamma 2).
        tri = phase * 510 // period
        if tri > 255:
            tri = 510 - tri
        return 8 + tri * tri * 247 // 65025
    if kind == ANIM_CHASE:
        count = count if count > 0 else 1
        head = phase * count // period
        if position == head:
            return 255
        if position == (head - 1) % count:
            return 64  # a short tail shows the direction of travel
        return 0
    return 255


def scale_colour(colour, value):
    r, g, b = colour
    return (r * value // 255, g * value // 255, b * value // 255)


def wheel(hue):
    """Colour of a hue 0..255 on a red-green-blue wheel.

    >>> wheel(0), wheel(85), wheel(170)
    ((255, 0, 0), (0, 255, 0), (0, 0, 255))
    """
    hue &= 0xFF
    if hue < 85:
        return (255 - hue * 3, hue * 3, 0)
    if hue < 170:
        hue -= 85
        return (0, 255 - hue * 3, hue * 3)
    hue -= 170
    return (hue * 3, 0, 255 - hue * 3)


def idle_colour(index, count, t_ms):
    """Slow dim rainbow drifting round the board while no host talks to us."""
    count = count if count > 0 else 1
    return scale_colour(wheel(index * 256 // count + t_ms // 40), IDLE_LEVEL)


def limit_current(buf, brightness, current_limit_ma, ma_per_channel=MA_PER_CHANNEL):
    """Scale ``buf`` (r,g,b bytes) in place by ``brightness`` and to the current limit.

    Returns the estimated draw in mA after limiting, so the power budget can be
    checked: a full-white board must never exceed what the supply gives.

    >>> buf = bytearray([255] * 30)   # ten white LEDs: 600 mA unlimited
    >>> limit_current(buf, 255, 300) <= 300
    True
    >>> buf[0] < 255
    True
    """
    total = 0
    for i in range(len(buf)):
        value = buf[i] * brightness // 255
        buf[i] = value
        total += value
    draw = total * ma_per_channel // 255
    if current_limit_ma > 0 and draw > current_limit_ma:
        # One more integer pass; rounding down keeps us under the limit.
        factor = current_limit_ma * 65536 // draw
        total = 0
        for i in range(len(buf)):
            value = buf[i] * factor >> 16
            buf[i] = value
            total += value
        draw = total * ma_per_channel // 255
    return draw


class Scene:
    """Base colours plus per-LED animations: what the host asked the strip to show.

    >>> scene = Scene(3)
    >>> scene.set_all([(10, 0, 0), (0, 10, 0), (0, 0, 10)])
    >>> scene.animate(ANIM_BLINK, [2], (255, 255, 255), 1000)
    >>> bytes(scene.render(600))            # blink is in its dark half at 600 ms
    b'\\n\\x00\\x00\\x00\\n\\x00\\x00\\x00\\n'
    """

    def __init__(self, count):
        self.count = count
        self.base = bytearray(3 * count)
        self.kind = bytearray(count)
        self.colour = bytearray(3 * count)
        self.period = [1000] * count
        self.position = [0] * count
        self.group = [1] * count
        self.out = bytearray(3 * count)

    def set_all(self, pixels):
        """Base colours from a flat r,g,b byte string or a sequence of triples."""
        flat = pixels if isinstance(pixels, (bytes, bytearray)) else set_all_payload(pixels)
        n = min(len(flat), len(self.base))
        self.base[:n] = flat[:n]
        for i in range(n, len(self.base)):
            self.base[i] = 0
        for i in range(self.count):
            self.kind[i] = ANIM_NONE

    def set_one(self, index, colour):
        self.base[3 * index:3 * index + 3] = bytes(colour)
        self.kind[index] = ANIM_NONE

    def animate(self, kind, leds, colour, period_ms):
        count = len(leds)
        for position in range(count):
            index = leds[position]
            self.kind[index] = kind
            self.colour[3 * index:3 * index + 3] = bytes(colour)
            self.period[index] = period_ms
            self.position[index] = position
            self.group[index] = count

    def animated(self):
        for i in range(self.count):
            if self.kind[i] != ANIM_NONE:
                return True
        return False

    def render(self, t_ms):
        """Fill and return ``self.out`` with the colours at time ``t_ms``."""
        out = self.out
        out[:] = self.base
        for i in range(self.count):
            kind = self.kind[i]
            if kind != ANIM_NONE:
                value = level(kind, self.period[i], t_ms, self.position[i], self.group[i])
                j = 3 * i
                if value == 0:
                    continue  # dark phase: the LED shows its base colour
                out[j] = self.colour[j] * value // 255
                out[j + 1] = self.colour[j + 1] * value // 255
                out[j + 2] = self.colour[j + 2] * value // 255
        return out

