"""The design card's import rule: data flows one way and simulation stays out of the product.

``rulekit`` (the games' shared, game-agnostic scaffolding, who may sit at the table
included) imports nothing of ours and every package may use it; ``engine`` and
``ostby_mammut`` only ``rulekit`` (Mammut's page keeps its game in the one journal,
``rulekit.journal``); ``session`` only ``engine``; ``vision``,
``firmware_bridge`` and ``companion_web`` only ``engine`` and ``session``; ``ai`` only
``engine``; the app wiring (``maamut``) anything but the simulation; the simulation
(``sim``) anything, and nothing imports it: it plugs in through the entry points of
``pyproject.toml``. Every import counts, including those inside functions and those
made by name: ``importlib.import_module("x")`` and ``__import__("x")`` calls, and
strings naming a module's attribute (``"pkg.mod:attr"``, an entry point
``"name = pkg.mod:attr"``) or a dotted module path (``"pkg.mod"``). Docstrings may
mention any module in prose.
"""

import ast
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = {"engine", "session", "vision", "firmware_bridge", "companion_web", "maamut", "sim", "ostby_mammut", "ai",
        "rulekit", "vallee"}
ALLOWED = {
    "rulekit": set(),
    "engine": {"rulekit"},
    "session": {"engine", "rulekit"},
    "vision": {"engine", "session", "rulekit"},
    "firmware_bridge": {"engine", "session", "rulekit"},
    "companion_web": {"engine", "session", "rulekit"},
    "ostby_mammut": {"rulekit"},
    "vallee": {"rulekit"},
    "ai": {"engine", "rulekit"},
    "maamut": OURS - {"maamut", "sim"},
    "sim": OURS - {"sim"},
}
#: Calls that import the module their first argument names.
IMPORTING_CALLS = {"import_module", "__import__", "find_spec"}
#: A string that may name a module: ``pkg.mod``, ``pkg.mod:attr``, ``pkg:attr``, or an
#: entry point ``name = pkg.mod:attr`` inside a longer text (see ``_named_in_string``).
MODULE_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_][\w.]*)?|[A-Za-z_]\w*:[A-Za-z_][\w.]*")
ENTRY_POINT = re.compile(r"(?:^|[\s=\"'])([A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


def _docstrings(tree) -> set:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _is_module(dotted: str) -> bool:
    path = os.path.join(ROOT, *dotted.split("."))
    return os.path.isfile(path + ".py") or os.path.isfile(os.path.join(path, "__init__.py"))


def _named_in_string(text: str) -> set:
    """Our packages a string names as a module: ``pkg.mod:attr``, an entry point inside a
    text, a dotted path to one of our modules, or any dotted path into the simulation (a
    logger or entry-point group called ``maamut.serve`` names no module; a lone word
    names nothing).

    >>> sorted(_named_in_string("sim.bots:Bot")), sorted(_named_in_string("engine.referee_cli"))
    (['sim'], ['engine'])
    >>> sorted(_named_in_string("demo = sim.bots:Bot")), sorted(_named_in_string("sim.gone"))
    (['sim'], ['sim'])
    >>> _named_in_string("sim"), _named_in_string("a sim run"), _named_in_string("maamut.frame_sources")
    (set(), set(), set())
    """
    text = text.strip()
    names = set(ENTRY_POINT.findall(text))
    if MODULE_PATH.fullmatch(text):
        module, colon, _ = text.partition(":")
        if colon or module.startswith("sim.") or _is_module(module):
            names.add(module.split(".")[0])
    return names & OURS


def imports_in_source(source: str, path: str = "<source>") -> set:
    """Our top-level packages a module's source imports, by statement or by name."""
    tree = ast.parse(source, path)
    docstrings = _docstrings(tree)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in IMPORTING_CALLS:
                names.add(node.args[0].value.split(".")[0].split(":")[0])
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            names.update(_named_in_string(node.value))
    return names & OURS


def imports_of(package: str) -> dict[str, set]:
    """Our other top-level packages each module of ``package`` imports, by module path."""
    found = {}
    for folder, _, files in os.walk(os.path.join(ROOT, package)):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as fh:
                    found[os.path.relpath(path, ROOT)] = imports_in_source(fh.read(), path) - {package}
    return found


def test_the_rules_cover_every_package_of_the_repository():
    packages = {name for name in os.listdir(ROOT)
                if os.path.isfile(os.path.join(ROOT, name, "__init__.py")) and name != "tests"}
    assert packages == OURS == set(ALLOWED)


@pytest.mark.parametrize("source, named", [
    ("from sim.bots import Bot", {"sim"}),
    ("import sim.camera as camera", {"sim"}),
    ("def f():\n    import sim\n", {"sim"}),
    ("import importlib\nimportlib.import_module('sim.commands')", {"sim"}),
    ("__import__('sim')", {"sim"}),
    ("DEMO_BOT = 'sim.bots:Bot'", {"sim"}),
    ("MODULES = ('engine.referee_cli', 'sim.simulation_cli')", {"engine", "sim"}),
    ("TOML = '[x]\\ndemo = \"sim.bots:Bot\"\\n'", {"sim"}),
    ("'''The demo's bot, :mod:`sim.bots` (prose).'''\nMODES = ('page', 'sim')", set()),
])
def test_the_scan_sees_imports_made_by_statement_and_by_name(source, named):
    assert imports_in_source(source) == named


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_imports_only_what_the_design_allows(package):
    wrong = {module: sorted(names - ALLOWED[package]) for module, names in imports_of(package).items()
             if names - ALLOWED[package]}
    assert wrong == {}


def test_nothing_outside_the_simulation_names_it_in_any_form():
    importers = {module for package in OURS - {"sim"} for module, names in imports_of(package).items()
                 if "sim" in names}
    assert importers == set()


def test_the_simulation_plugs_in_only_through_the_projects_entry_points():
    """``pyproject.toml`` names ``sim`` in its package list and its entry-point tables only."""
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        project = tomllib.load(fh)
    naming = {(group, name) for group, points in project["project"]["entry-points"].items()
              for name, value in points.items() if value.startswith("sim.")}
    assert ("maamut.commands", "demo") in naming and ("maamut.frame_sources", "sim") in naming
    assert "sim" not in str(project["project"]["scripts"])
