"""The configuration file (TOML) of ``maamut serve`` and ``maamut demo``.

Every key is optional; ``maamut config`` prints the defaults as a starting file.

>>> cfg = load_config(None)
>>> cfg.web["port"], cfg.leds["backend"], cfg.camera["source"]
(8080, 'auto', 'auto')
>>> cfg = parse_config('[web]\\nport = 9000\\n[game]\\nvariants = {flee_target = "empty"}')
>>> cfg.web["port"], cfg.variants().flee_target
(9000, 'empty')
"""

from __future__ import annotations

import copy
import os
import tomllib
from dataclasses import dataclass, field

from engine import Variants

DEFAULT_TEXT = """\
# Mâamut table companion configuration. Every key is optional.

[game]
# Players in seating order (clockwise); colours are those of the hunter tokens.
players = [
  { id = "A", name = "Red", colour = "#d62828" },
  { id = "B", name = "Blue", colour = "#1d4ed8" },
  { id = "C", name = "Yellow", colour = "#f4c20d" },
]
# Rule variants (see docs/rulings.md), e.g. { flee_target = "empty" }
variants = {}
# The crash-safe journal of the game in progress; resumed at every start.
journal = "var/current-game.jsonl"

[camera]
# auto (the Pi camera, then the first USB webcam, else none) | picamera[:N] | webcam[:N] | FOLDER or VIDEO | none
source = "auto"
calibration = "var/calibration.json"

[leds]
# auto (our Pico firmware if plugged in, else simulated) | firmware | adalight | simulated
backend = "auto"
# Serial port; empty: find the Pico by its USB id (2E8A:0005).
port = ""
serial_number = ""
brightness = 96
# [leds.map] holds a custom hex -> LED index chain (see hardware/README.md).

[buttons]
# auto (real GPIO on a Pi, else none) | mock | none
pin_factory = "auto"
done_pin = 17
undo_pin = 27
hold_new_game_s = 3.0

[web]
host = "0.0.0.0"
port = 8080
# Empty: a fresh six-digit PIN at each start, printed on the console.
pin = ""
"""

DEFAULTS = tomllib.loads(DEFAULT_TEXT)


class ConfigError(ValueError):
    """The configuration file cannot be used; the message says which key and why."""


@dataclass
class Config:
    game: dict = field(default_factory=lambda: copy.deepcopy(DEFAULTS["game"]))
    camera: dict = field(default_factory=lambda: copy.deepcopy(DEFAULTS["camera"]))
    leds: dict = field(default_factory=lambda: copy.deepcopy(DEFAULTS["leds"]))
    buttons: dict = field(default_factory=lambda: copy.deepcopy(DEFAULTS["buttons"]))
    web: dict = field(default_factory=lambda: copy.deepcopy(DEFAULTS["web"]))
    base_dir: str = "."

    def variants(self) -> Variants:
        try:
            return Variants.from_json(self.game.get("variants") or {})
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"[game] variants: {exc}") from None

    def path(self, value: str) -> str:
        """A path from the file, relative to the file's own folder."""
        return value if os.path.isabs(value) else os.path.join(self.base_dir, value)

    def players(self) -> list[dict]:
        players = self.game.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise ConfigError("[game] players: list 2 to 4 players")
        return players


def parse_config(text: str, base_dir: str = ".") -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}") from None
    cfg = Config(base_dir=base_dir)
    for section, values in data.items():
        target = getattr(cfg, section, None)
        if not isinstance(target, dict) or section == "base_dir":
            raise ConfigError(f"unknown section [{section}] (known: game, camera, leds, buttons, web)")
        if not isinstance(values, dict):
            raise ConfigError(f"[{section}] must be a table")
        target.update(values)
    if not isinstance(cfg.web.get("port"), int) or not 0 <= cfg.web["port"] < 65536:
        raise ConfigError("[web] port must be a port number")
    cfg.variants()
    return cfg


def load_config(path: str | None) -> Config:
    """The configuration from ``path``, or the defaults when ``path`` is ``None``."""
    if path is None:
        return Config()
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    return parse_config(text, os.path.dirname(os.path.abspath(path)))
