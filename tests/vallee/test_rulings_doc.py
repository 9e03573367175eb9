"""docs/rulings-vallee.md settles all 77 gaps and documents every named variant the code accepts."""

from __future__ import annotations

import re

from vallee.rulebook import RULES
from vallee.variants import CHOICES, Variants

from .conftest import ROOT

TEXT = (ROOT / "docs" / "rulings-vallee.md").read_text(encoding="utf-8")


def test_every_gap_has_exactly_one_row():
    rows = re.findall(r"^\| (V\d+) \|", TEXT, re.M)
    assert rows == [f"V{i}" for i in range(1, 78)]


def test_every_variant_is_documented_with_its_values_default_first():
    for name, values in CHOICES.items():
        shown = ", ".join(f"`{str(v).lower() if isinstance(v, bool) else v}`" for v in values)
        assert f"| `{name}` | {shown} |" in TEXT
        assert getattr(Variants(), name) == values[0]


def test_every_rule_cites_a_section_and_says_it_in_two_languages():
    for rule in RULES.values():
        assert rule.section and rule.en and rule.fr and rule.en != rule.fr
