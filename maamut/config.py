"""The configuration file (TOML) of ``maamut serve`` and ``maamut demo``.

Every key is optional; ``maamut config`` prints the defaults as a starting file.

>>> cfg = load_config(None)
>>> cfg.web["port"], cfg.leds["backend"], cfg.camera["source"]
(8080, 'auto', 'auto')
>>> cfg = parse_config('[web]\\nport = 9000\\n[game]\\nvariants = {flee_target = "empty"}')
>>> cfg.web["port"], cfg.variants().flee_target
(9000, 'empty')

A value that cannot work is a :class:`ConfigError` naming the key, raised while the
file is read (never later, half-way through starting the companion):

>>> parse_config('[game]\\nplayers = "A, B"')
Traceback (most recent call last):
...
maamut.config.ConfigError: [game] players: give 2 to 4 players as a list of tables, ... (got a string)
"""

from __future__ import annotations

import copy
import os
import re
import string
import tomllib
from dataclasses import dataclass, field

from engine import Variants
from firmware_bridge.backend_choice import LED_BACKENDS
from firmware_bridge.backends import DEFAULT_BRIGHTNESS
from rulekit.players import DEFAULT_COLOURS, SEAT_KEYS, SeatError, read_seats

DEFAULT_TEXT = string.Template("""\
# Mâamut table companion configuration. Every key is optional.

[game]
# Players in seating order (clockwise); colours are those of the hunter tokens.
players = [
  { id = "A", name = "Red", colour = "$red" },
  { id = "B", name = "Blue", colour = "$blue" },
  { id = "C", name = "Yellow", colour = "$yellow" },
]
# An AI hunter fills a seat with ai = "easy" | "normal" | "hard" (see docs/ai.md):
#   { id = "D", name = "Bot", ai = "normal" }
# Rule variants (see docs/rulings.md), e.g. { flee_target = "empty" }
variants = {}
# The crash-safe journal of the game in progress; resumed at every start.
journal = "var/current-game.jsonl"

[camera]
# auto (the Pi camera, then the first USB webcam, else none) | picamera[:N] | webcam[:N] | FOLDER or VIDEO | none
source = "auto"
calibration = "var/calibration.json"
# Your tiles' width across flats in mm (a ruler from one straight side to the opposite
# one): `maamut kit --config FILE` prints marker cards and a mat for that size.
tile_mm = 52.0

[leds]
# auto (our Pico firmware if plugged in, else simulated) | firmware | adalight | simulated
backend = "auto"
# Serial port; empty: find the Pico by its USB id (2E8A:0005).
port = ""
serial_number = ""
# 0..255, applied to everything the LEDs show.
brightness = $brightness
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
""").substitute(red=DEFAULT_COLOURS[0], blue=DEFAULT_COLOURS[1], yellow=DEFAULT_COLOURS[2],
                brightness=DEFAULT_BRIGHTNESS)

DEFAULTS = tomllib.loads(DEFAULT_TEXT)
#: Every key each section may hold: the defaults above, and ``[leds.map]`` (a custom LED
#: chain, see hardware/README.md). ``[buttons]`` is declared by its own settings object,
#: :class:`firmware_bridge.buttons.ButtonSettings`, which refuses other keys itself.
SECTION_KEYS = {section: tuple(DEFAULTS[section]) + (("map",) if section == "leds" else ())
                for section in ("game", "camera", "leds", "web")}


class ConfigError(ValueError):
    """The configuration file cannot be used; the message says which key and why."""


PLAYER_KEYS = (*SEAT_KEYS, "ai")
#: Strengths of an AI seat (``ai = "normal"``), as in ``ai.LEVELS``: easy, normal (about
#: 0.1-0.3 s a move here, the level ``maamut bench ai`` measures), hard (up to 3 s).
AI_LEVELS = ("easy", "normal", "hard")
PLAYERS_MESSAGE = ('[game] players: give 2 to 4 players as a list of tables, '
                   'like [{ id = "A" }, { id = "B" }]')
_CAMERA_DEVICE = re.compile(r"(picamera|webcam)(:\d+)?|\d+")
_TYPE_NAMES = {str: "a string", dict: "one table", int: "a number", float: "a number",
               bool: "true/false"}


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

    def ai_seats(self) -> dict:
        """``{player id: level}`` of the seats an AI plays."""
        return {p["id"]: p["ai"] for p in self.players() if p.get("ai")}

    def players(self) -> list[dict]:
        players = self.game.get("players")
        check_players(players)
        return players


def check_players(players) -> None:
    """2 to 4 tables with a unique ``id``, maybe a ``name``, a ``colour`` (#rrggbb) and an
    ``ai`` level; the seat rules are :func:`rulekit.players.read_seats`.

    >>> check_players([{"id": "A", "colour": "red"}, {"id": "B"}])
    Traceback (most recent call last):
    ...
    maamut.config.ConfigError: [game] players[1] colour: 'red' is not a colour like "#d7263d"
    >>> check_players([{"id": "A"}, {"id": "A"}])
    Traceback (most recent call last):
    ...
    maamut.config.ConfigError: [game] players[2] id: 'A' is already an earlier seat's id; each player needs his own
    """
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        got = len(players) if isinstance(players, list) else _TYPE_NAMES.get(type(players), repr(players))
        raise ConfigError(f"{PLAYERS_MESSAGE} (got {got})")
    try:
        read_seats(players, known_keys=PLAYER_KEYS)
    except SeatError as exc:
        where = "[game] players" if exc.seat is None else f"[game] players[{exc.seat + 1}]"
        raise ConfigError(f"{where}{' ' + exc.key if exc.key else ''}: {exc.reason}") from None
    for number, player in enumerate(players, 1):
        level = player.get("ai")
        if level is not None and level not in AI_LEVELS:
            raise ConfigError(f"[game] players[{number}] ai: {level!r} is not one of {', '.join(AI_LEVELS)} "
                              "(leave it out for a person)")


def check_camera_source(source) -> None:
    """``[camera] source``: a kind of camera, or a recording (folder of frames, video file)."""
    if isinstance(source, int) and not isinstance(source, bool) and source >= 0:
        return  # a webcam number
    if source in ("auto", "none"):
        return
    text = source.strip() if isinstance(source, str) else None
    if text and (_CAMERA_DEVICE.fullmatch(text) or os.path.exists(text)):
        return
    raise ConfigError(f"[camera] source: {source!r} is not auto, none, picamera[:N], webcam[:N], "
                      "or an existing folder of frames or video file")


def check_tile_mm(value) -> None:
    """``[camera] tile_mm``: the tiles' width across flats, within what the kit can print.

    >>> check_tile_mm(300)
    Traceback (most recent call last):
    ...
    maamut.config.ConfigError: [camera] tile_mm: tile size 300 mm across flats is outside 25-120 mm: ...
    """
    from vision.kit_size import KitSizeError, unit_mm

    try:
        unit_mm(value)
    except KitSizeError as exc:
        raise ConfigError(f"[camera] tile_mm: {exc}") from None


def check_leds(leds: dict) -> None:
    backend = leds.get("backend")
    if backend not in LED_BACKENDS:
        raise ConfigError(f"[leds] backend: {backend!r} is not one of {', '.join(LED_BACKENDS)}")
    brightness = leds.get("brightness")
    if isinstance(brightness, bool) or not isinstance(brightness, int) or not 0 <= brightness <= 255:
        raise ConfigError(f"[leds] brightness: {brightness!r} is not a whole number from 0 to 255")
    if leds.get("map") is not None:
        from firmware_bridge.ledmap import LedMap

        try:
            LedMap.from_config(leds["map"])
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"[leds.map] {exc}") from None


def check_buttons(buttons: dict) -> None:
    from firmware_bridge.buttons import ButtonError, ButtonSettings

    try:
        ButtonSettings.from_config(buttons)
    except (ButtonError, TypeError, ValueError) as exc:
        raise ConfigError(f"[buttons] {str(exc).replace('buttons.', '')}") from None


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
        unknown = sorted(set(values) - set(SECTION_KEYS.get(section, values)))
        if unknown:
            raise ConfigError(f"[{section}] unknown key(s) {', '.join(unknown)} "
                              f"(known: {', '.join(SECTION_KEYS[section])})")
        target.update(values)
    if not isinstance(cfg.web.get("port"), int) or not 0 <= cfg.web["port"] < 65536:
        raise ConfigError("[web] port must be a port number")
    cfg.variants()
    check_players(cfg.game.get("players"))
    check_leds(cfg.leds)
    check_buttons(cfg.buttons)
    check_camera_source(cfg.camera.get("source"))
    check_tile_mm(cfg.camera.get("tile_mm"))
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
