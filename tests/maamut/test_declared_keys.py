"""Each configuration object declares every key the code reads, and the code reads every key
it declares: the page's settings (:class:`companion_web.config.WebConfig`) and the
configuration file's sections (:data:`maamut.config.SECTION_KEYS`; ``[buttons]`` is
declared by :class:`firmware_bridge.buttons.ButtonSettings`).

The reads are found in the source (every ``….config["KEY"]``, ``….config.get("KEY")``,
``cfg.leds["key"]``…), so a key read somewhere without a declaration fails here rather
than on a table where nobody set it.
"""

import ast
import os
import re

import pytest
from flask import Flask

from companion_web.config import WebConfig, declared_keys, web_settings
from maamut.config import DEFAULTS, SECTION_KEYS, parse_config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECTIONS = ("game", "camera", "leds", "web")
#: Modules that read one section's table under another name (the table is passed to them).
SECTION_READERS = {os.path.join("firmware_bridge", "backend_choice.py"): ("settings", "leds"),
                   os.path.join("firmware_bridge", "scenes.py"): ("table('leds')", "leds")}


def _python_files(*packages):
    for package in packages:
        for folder, _, files in os.walk(os.path.join(ROOT, package)):
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    yield os.path.relpath(path, ROOT), ast.parse(open(path, encoding="utf-8").read(), path)


def _key_reads(tree):
    """``(owner, key)`` for every ``owner[KEY]`` and ``owner.get(KEY)`` with a constant string
    key; ``owner`` is the source text of what is read from (``app.config``, ``cfg.leds``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            owner, key = node.value, node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args):
            owner, key = node.func.value, node.args[0]
        else:
            continue
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            yield ast.unparse(owner), key.value


def web_reads() -> dict[str, set]:
    """Flask config keys read by the page, the games' blueprints and the app wiring, with where."""
    found: dict[str, set] = {}
    for path, tree in _python_files("companion_web", "ostby_mammut", "maamut"):
        for owner, key in _key_reads(tree):
            if owner == "config" or owner.endswith("app.config"):
                found.setdefault(key, set()).add(path)
    for folder in ("companion_web", "ostby_mammut"):
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if name.endswith(".html"):
                    text = open(os.path.join(base, name), encoding="utf-8").read()
                    for key in re.findall(r"\bconfig(?:\.get\(|\[)\s*['\"]([A-Z_]+)['\"]", text):
                        found.setdefault(key, set()).add(name)
    return found


def file_reads() -> dict[str, set]:
    """``section.key`` read from the configuration file's tables, with where."""
    found: dict[str, set] = {}
    for path, tree in _python_files("maamut", "firmware_bridge"):
        renamed = SECTION_READERS.get(path)
        for owner, key in _key_reads(tree):
            section = owner.rsplit(".", 1)[-1]
            if renamed and owner == renamed[0]:
                section = renamed[1]
            if section in SECTIONS and owner != section:  # cfg.leds, self.game, companion.cfg.camera
                found.setdefault(f"{section}.{key}", set()).add(path)
    return found


def test_every_web_setting_the_code_reads_is_declared():
    undeclared = {key: sorted(where) for key, where in web_reads().items()
                  if key not in declared_keys() and key not in Flask.default_config}
    assert undeclared == {}


def test_every_declared_web_setting_is_read_by_us_or_by_flask():
    read = set(web_reads())
    unread = sorted(key for key in declared_keys() if key not in read and key not in Flask.default_config)
    assert unread == []


def test_the_live_objects_are_not_settings():
    """The session, the hub, the AI and the camera are ``create_app``'s arguments and live in
    ``app.extensions``; passing one as a setting is refused, naming it."""
    for key in ("HUB", "SESSION", "HINTS", "AI_SEATS", "CAMERA_RELEARN", "OTHER_GAMES", "CARD_VALUES"):
        assert key not in vars(WebConfig)
        with pytest.raises(ValueError, match=key):
            web_settings({key: object()})


def test_every_key_read_from_the_configuration_file_is_declared():
    declared = {f"{section}.{key}" for section, keys in SECTION_KEYS.items() for key in keys}
    undeclared = {key: sorted(where) for key, where in file_reads().items() if key not in declared}
    assert undeclared == {}


def test_every_declared_key_of_the_configuration_file_is_read():
    read = set(file_reads())
    unread = sorted(f"{section}.{key}" for section, keys in SECTION_KEYS.items() for key in keys
                    if f"{section}.{key}" not in read)
    assert unread == []


def test_the_default_file_declares_the_sections_keys_and_a_typo_is_refused():
    assert set(SECTION_KEYS) | {"buttons"} == set(DEFAULTS)
    with pytest.raises(ValueError, match=r"\[camera\] unknown key\(s\) tilemm"):
        parse_config("[camera]\ntilemm = 40")


def test_the_configured_brightness_reaches_the_leds(tmp_path):
    """``[leds] brightness`` is read: the backend the companion opens shows at that brightness."""
    from maamut.app import Companion

    cfg = parse_config('[leds]\nbackend = "simulated"\nbrightness = 40\n[buttons]\npin_factory = "none"',
                       base_dir=str(tmp_path))
    companion = Companion(cfg)
    try:
        assert companion.leds.brightness == 40
    finally:
        companion.close()
