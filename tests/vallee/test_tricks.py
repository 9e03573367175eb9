"""The 40 trick cards as data: complete, consistent with every card id the commands accept,
and the trick draw at a season's end."""

from __future__ import annotations

from vallee.combat import CARDS as COMBAT_CARDS
from vallee.rulebook import RULES
from vallee.survival import SURVIVAL_CARDS
from vallee.tribes import BRIDGE_CARDS, LONG_MARCH_CARDS
from vallee.tricks import TRICKS, hand_limit, trick_draws


def test_forty_cards_each_with_its_moment_and_two_languages():
    assert len(TRICKS) == 40
    assert all(t.when and t.en and t.fr and t.en != t.fr for t in TRICKS.values())
    assert {t.id for t in TRICKS.values() if t.fire == "needs"} == {"terre_brulee", "torches"}
    assert {t.id for t in TRICKS.values() if t.fire} == {"terre_brulee", "torches", "incendiaire", "silax", "vol"}


def test_every_card_id_a_command_accepts_is_a_trick_card_with_a_rule_id():
    used = set(COMBAT_CARDS) | set(SURVIVAL_CARDS) | set(BRIDGE_CARDS) | set(LONG_MARCH_CARDS) | {
        "herbes_de_fertilite", "bonnes_herbes", "pacs", "terrasse", "palissade"}
    assert used <= set(TRICKS)
    assert all(f"trick.{card}" in RULES for card in used)


def test_players_below_the_hand_limit_draw_exactly_one():
    assert hand_limit(4) == 5 and hand_limit(5) == 4
    assert trick_draws({"A": 4, "B": 4, "C": 0, "D": 1, "E": 3}, 5, pile=9, discards=0) == (("C", "D", "E"), False)
    assert trick_draws({"A": 0, "B": 0}, 2, pile=1, discards=3) == (("A", "B"), True)
