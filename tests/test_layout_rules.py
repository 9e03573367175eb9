"""The design card's import rule: data flows one way and simulation stays out of the product.

``rulekit`` (the games' shared, game-agnostic scaffolding, who may sit at the table
included) imports nothing of ours and every package may use it; ``engine`` only
``rulekit``; ``ostby_mammut`` only ``rulekit`` (its page's table keeps the game in the
one journal, ``rulekit.journal``); ``session`` only ``engine``; ``vision``,
``firmware_bridge`` and ``companion_web`` only ``engine`` and ``session``; only the app
wiring (``maamut``) and the simulation itself import ``sim``. Every import counts,
including those inside functions.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = {"engine", "session", "vision", "firmware_bridge", "companion_web", "maamut", "sim", "ostby_mammut", "ai", "rulekit"}
ALLOWED = {
    "rulekit": set(),
    "engine": {"rulekit"},
    "session": {"engine", "rulekit"},
    "vision": {"engine", "session", "rulekit"},
    "firmware_bridge": {"engine", "session", "rulekit"},
    "companion_web": {"engine", "session", "rulekit"},
    "ostby_mammut": {"rulekit"},
    "ai": {"engine", "rulekit"},
}


def imports_of(package: str) -> dict[str, set]:
    """Our top-level packages each module of ``package`` imports, by module path."""
    found = {}
    for folder, _, files in os.walk(os.path.join(ROOT, package)):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            tree = ast.parse(open(path, encoding="utf-8").read(), path)
            names = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split(".")[0])
            found[os.path.relpath(path, ROOT)] = (names & OURS) - {package}
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_product_package_imports_only_what_the_design_allows(package):
    wrong = {module: sorted(names - ALLOWED[package]) for module, names in imports_of(package).items()
             if names - ALLOWED[package]}
    assert wrong == {}


def test_only_the_app_wiring_and_the_simulation_import_the_simulation():
    importers = {module for package in OURS - {"sim"} for module, names in imports_of(package).items()
                 if "sim" in names}
    assert importers <= {os.path.join("maamut", "demo.py"), os.path.join("maamut", "soak.py"),
                         os.path.join("maamut", "cli.py")}
