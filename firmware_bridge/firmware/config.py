# Settings of the LED controller; edit before `maamut firmware install`.
# Plain constants so MicroPython can read them without any parsing code.

FIRMWARE_VERSION = (1, 0, 0)

HEX_LEDS = 37          # one WS2812 under each hex of the board
STATUS_LEDS = 4        # turn / result indicators after the hexes on the same chain
LED_COUNT = HEX_LEDS + STATUS_LEDS

DATA_PIN = 2           # GP2 -> 74AHCT125 level shifter -> DIN of the first LED
SAFE_BOOT_PIN = 22     # GP22 held to GND at power-up: skip the firmware, keep the REPL

BRIGHTNESS = 96        # 0..255, applied to everything shown (the host may change it)
CURRENT_LIMIT_MA = 1500  # estimated strip draw never exceeds this (5 V 2 A supply)

IDLE_AFTER_MS = 15000  # no valid frame for this long: show the idle animation
FRAME_MS = 20          # animation step (50 Hz); also the longest input wait
GC_MARGIN = 32768      # collect garbage between frames when free heap drops below this
