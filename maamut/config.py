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
import tomllib
from dataclasses import dataclass, field

from engine import Variants
from engine.core import PLAYER_NAME

DEFAULT_TEXT = """\
# Mâamut table companion configuration. Every key is optional.

[game]
# Players in seating order (clockwise); colours are those of the hunter tokens.
players = [
  { id = "A", name = "Red", colour = "#d62828" },
  { id = "B", name = "Blue", colour = "#1d4ed8" },
  { id = "C", name = "Yellow", colour = "#f4c20d" },
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


LED_BACKENDS = ("auto", "firmware", "adalight", "simulated")
PLAYER_KEYS = ("id", "name", "colour")
#: Strengths of an AI seat (``ai = "normal"``), as in ``ai.LEVELS``: easy, normal (about
#: 0.1-0.3 s a move here, the level ``maamut bench ai`` measures), hard (up to 3 s).
AI_LEVELS = ("easy", "normal", "hard")
PLAYERS_MESSAGE = ('[game] players: give 2 to 4 players as a list of tables, '
                   'like [{ id = "A" }, { id = "B" }]')
_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
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
    """2 to 4 tables with a unique ``id``, maybe a ``name`` and a ``colour`` (#rrggbb).

    >>> check_players([{"id": "A", "colour": "red"}, {"id": "B"}])
    Traceback (most recent call last):
    ...
    maamut.config.ConfigError: [game] players[1] colour: 'red' is not a colour like "#d62828"
    >>> check_players([{"id": "A"}, {"id": "A"}])
    Traceback (most recent call last):
    ...
    maamut.config.ConfigError: [game] players: id 'A' is given to players 1 and 2; each needs his own
    """
    if not isinstance(players, list):
        raise ConfigError(f"{PLAYERS_MESSAGE} (got {_TYPE_NAMES.get(type(players), repr(players))})")
    if not 2 <= len(players) <= 4:
        raise ConfigError(f"{PLAYERS_MESSAGE} (got {len(players)})")
    seen: dict[str, int] = {}
    for number, player in enumerate(players, 1):
        where = f"[game] players[{number}]"
        if not isinstance(player, dict):
            raise ConfigError(f"{where}: each player is a table like {{ id = \"A\", name = \"Ann\" }}, "
                              f"not {player!r}")
        unknown = sorted(set(player) - set(PLAYER_KEYS) - {"ai"})
        if unknown:
            raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(PLAYER_KEYS)})")
        if "id" not in player:
            raise ConfigError(f"{where}: id is missing (a short name like \"A\", used in game records)")
        ident = player["id"]
        if not isinstance(ident, str) or not PLAYER_NAME.fullmatch(ident):
            raise ConfigError(f"{where} id: {ident!r} must be 1 to 24 characters, no spaces and none of "
                              "@ ; : ! , / > [ ] { } \"")
        if ident in seen:
            raise ConfigError(f"[game] players: id {ident!r} is given to players {seen[ident]} and {number}; "
                              "each needs his own")
        seen[ident] = number
        name = player.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 40):
            raise ConfigError(f"{where} name: {name!r} must be text of 1 to 40 characters")
        colour = player.get("colour")
        if colour is not None and not (isinstance(colour, str) and _HEX_COLOUR.fullmatch(colour)):
            raise ConfigError(f"{where} colour: {colour!r} is not a colour like \"#d62828\"")
        level = player.get("ai")
        if level is not None and level not in AI_LEVELS:
            raise ConfigError(f"{where} ai: {level!r} is not one of {', '.join(AI_LEVELS)} (leave it out for a person)")


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
