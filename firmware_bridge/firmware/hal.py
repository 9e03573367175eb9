# Hardware-abstraction layer: the only file that touches the Pico's pins.
#
# On a Pico it drives WS2812 LEDs through `neopixel` and reads the safe-boot pin.
# Where `machine.Pin` or `neopixel` do not exist (MicroPython's Unix/WASI ports,
# used to test this very firmware), it falls back to an emulated strip that keeps
# the last values written, so the GET_PIXELS command reports what the LEDs show.
import config

try:
    from machine import Pin
    import neopixel
except ImportError:
    Pin = None
    neopixel = None


class NeoPixelStrip:
    def __init__(self, pin, count):
        self.count = count
        self.pixels = neopixel.NeoPixel(Pin(pin, Pin.OUT), count)
        self.shown = bytearray(3 * count)

    def write(self, buf):
        pixels = self.pixels
        for i in range(self.count):
            j = 3 * i
            pixels[i] = (buf[j], buf[j + 1], buf[j + 2])
        pixels.write()
        self.shown[:] = buf


class EmulatedStrip:
    """Stands in for the LEDs when there is no hardware: remembers what was shown."""

    def __init__(self, pin, count):
        self.count = count
        self.shown = bytearray(3 * count)
        self.writes = 0

    def write(self, buf):
        self.shown[:] = buf
        self.writes += 1


def make_strip(count=config.LED_COUNT):
    if Pin is not None and neopixel is not None:
        return NeoPixelStrip(config.DATA_PIN, count)
    return EmulatedStrip(config.DATA_PIN, count)


def safe_boot_requested():
    """True when the safe-boot pin is held low: the firmware must not start."""
    if Pin is None:
        return False
    pin = Pin(config.SAFE_BOOT_PIN, Pin.IN, Pin.PULL_UP)
    return pin.value() == 0
