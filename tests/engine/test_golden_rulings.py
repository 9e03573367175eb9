"""Golden scenarios: each ruling of RULINGS.md played out on a hand-made position."""

import pytest

from engine import IllegalAction, Move, Pass, PlaceTrap, RemoveTrap, Variants, apply_action, legal_actions
from engine.explain import explain
from engine.hexgrid import cell_name, parse_cell

from .helpers import cells, make


def types(outcome):
    return [e["type"] for e in outcome.events]


def test_rulebook_figure_mammoth_takes_the_fifth_direction():
    """RULINGS worked example: E, SE, SW leave the board, NW is rock, W is the arrival side → NE."""
    pos = make(mammoth="0,2", rocks=["0,1"], hunters={"A": "-2,2", "B": "3,-3"})
    out = apply_action(pos, Move("A", "E", 2))
    fled = out.events[1]
    assert types(out) == ["hunter_moved", "mammoth_fled"]
    assert [(t["direction"], t["reason"]) for t in fled["tried"]] == [
        ("E", "edge"), ("SE", "edge"), ("SW", "edge"), ("NW", "rock"), ("NE", "open")]
    assert fled["tried"][3]["cell"] == "0,1"
    assert fled["arrival"] == "W"
    assert fled["path"] == ["1,1", "2,0"]
    assert cell_name(out.position.mammoth) == "2,0"
    assert cells(out.position)["A"] == "0,2"
    assert out.position.to_move == "B" and out.winner is None


def test_flight_goes_straight_ahead_when_open():
    """Direction a (the hunter's own direction) is tried first."""
    pos = make(mammoth="0,0", hunters={"A": "-2,0", "B": "3,-3"})
    out = apply_action(pos, Move("A", "E", 2))
    assert out.events[1]["direction"] == "E" and out.events[1]["to"] == "2,0"
    assert len(out.events[1]["tried"]) == 1


def test_flight_distance_is_the_card_not_the_steps_taken():
    """A hunter entering on his first step of a 3 still makes the mammoth run 3 cells."""
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "3,-3"})
    out = apply_action(pos, Move("A", "E", 3))
    assert cell_name(out.position.mammoth) == "3,0"
    assert types(out) == ["hunter_moved", "mammoth_fled", "hunter_moved"]
    assert out.events[2]["continued"] is True and out.events[2]["rule"] == "flight.continue"
    assert cells(out.position)["A"] == "2,0"


def test_pass_through_variant_off_ignores_a_mammoth_passed_over():
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "3,-3"})
    out = apply_action(pos, Move("A", "E", 3), variants=Variants(trigger_on_pass_through=False))
    assert cell_name(out.position.mammoth) == "0,0"
    assert cells(out.position)["A"] == "2,0"


def test_steps_walked_variant_can_meet_the_mammoth_again_and_resolves_a_new_flight():
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "3,-3"})
    out = apply_action(pos, Move("A", "E", 3), variants=Variants(flight_distance="steps_walked"))
    assert types(out).count("mammoth_fled") == 2
    assert [e["distance"] for e in out.events if e["type"] == "mammoth_fled"] == [1, 2]
    assert cell_name(out.position.mammoth) == "3,0" and cells(out.position)["A"] == "2,0"


def _walled_for_three():
    # every 3-cell flight from the centre ends on a rock
    return ["3,0", "0,3", "-3,3", "0,-3", "3,-3"]


def test_mammoth_with_no_way_out_faces_the_hunter():
    """No open direction: the mover is eliminated at once, the mammoth stays."""
    pos = make(mammoth="0,0", hunters={"A": "-3,0", "B": "3,-2"}, rocks=_walled_for_three(),
               traps={"1,1": "A"})
    out = apply_action(pos, Move("A", "E", 3))
    assert types(out) == ["hunter_moved", "mammoth_faced", "hunter_eliminated"]
    assert out.events[2]["reason"] == "mammoth_faced"
    assert out.events[2]["traps_removed"] == ["1,1"]
    assert cell_name(out.position.mammoth) == "0,0"
    assert "A" not in out.position.hunters and out.position.eliminated == ("A",)
    assert out.position.traps == {}
    assert out.position.to_move == "B" and out.winner is None


def test_arrival_side_is_never_taken_even_when_it_is_the_only_way():
    pos = make(mammoth="0,0", hunters={"A": "-3,0", "B": "3,-2"}, rocks=_walled_for_three())
    out = apply_action(pos, Move("A", "E", 3))
    assert "W" not in [t["direction"] for t in out.events[1]["tried"]]
    assert out.events[1]["type"] == "mammoth_faced"


def test_last_hunter_faced_means_the_mammoth_wins():
    pos = make(mammoth="0,0", hunters={"A": "-3,0"}, players=("A", "B"), eliminated=("B",),
               rocks=_walled_for_three())
    out = apply_action(pos, Move("A", "E", 3))
    assert out.winner == "mammoth"
    assert out.events[-1] == {"type": "game_over", "winner": "mammoth", "reason": "no_hunters",
                              "rule": "end.mammoth_wins"}


def test_trap_on_the_way_ends_the_game_for_its_owner_whoever_pushed():
    """The mammoth falls into B's trap on its first cell; C further on does not flee."""
    pos = make(mammoth="0,0", hunters={"A": "-2,0", "B": "-3,3", "C": "2,0"}, traps={"1,0": "B"})
    out = apply_action(pos, Move("A", "E", 2))
    assert types(out) == ["hunter_moved", "mammoth_fled", "mammoth_trapped", "game_over"]
    assert out.winner == "B"
    assert out.events[1]["path"] == ["1,0"]
    assert cells(out.position)["C"] == "2,0"


def test_trap_in_front_of_a_rock_does_not_open_the_direction_by_default():
    pos = make(mammoth="0,0", hunters={"A": "-2,0", "B": "-3,3"}, traps={"1,0": "B"}, rocks=["2,0"])
    out = apply_action(pos, Move("A", "E", 2))
    assert out.events[1]["tried"][0] == {"direction": "E", "open": False, "reason": "rock", "cell": "2,0"}
    assert out.winner is None


def test_trap_truncates_variant_lets_the_mammoth_fall_before_the_rock():
    pos = make(mammoth="0,0", hunters={"A": "-2,0", "B": "-3,3"}, traps={"1,0": "B"}, rocks=["2,0"])
    out = apply_action(pos, Move("A", "E", 2), variants=Variants(trap_truncates_path_check=True))
    assert out.winner == "B"


def test_frightened_hunter_flees_by_his_owners_choice():
    """The engine stops and lists B's options: neighbours except the mammoth's previous cell and C's."""
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "1,0", "C": "2,0"})
    move = Move("A", "E", 1)
    asked = apply_action(pos, move)
    assert asked.needs is not None and asked.needs.hunter == "B"
    assert sorted(cell_name(o) for o in asked.needs.options) == ["0,1", "1,-1", "1,1", "2,-1"]
    assert asked.position == pos  # nothing changes until the choice is given
    out = apply_action(pos, move, [("B", parse_cell("1,1"))])
    assert types(out) == ["hunter_moved", "mammoth_fled", "hunter_fled"]
    assert cells(out.position)["B"] == "1,1" and cell_name(out.position.mammoth) == "1,0"


def test_a_flee_choice_outside_the_options_is_illegal():
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "1,0", "C": "2,0"})
    with pytest.raises(IllegalAction) as err:
        apply_action(pos, Move("A", "E", 1), [("B", parse_cell("2,0"))])
    assert err.value.rule == "flight.frighten"


def test_frightened_hunter_with_nowhere_to_go_is_eliminated():
    # B on the east corner 3,0: neighbours 2,0 (the mammoth's previous cell), 2,1 and 3,-1 (rock)
    pos = make(mammoth="2,0", hunters={"A": "1,0", "B": "3,0"}, rocks=["2,1", "3,-1"])
    out = apply_action(pos, Move("A", "E", 1))
    assert types(out)[:3] == ["hunter_moved", "mammoth_fled", "hunter_eliminated"]
    assert out.events[2]["hunter"] == "B" and out.events[2]["reason"] == "no_escape"


def test_frightened_hunters_flee_in_turn_order_from_the_active_player():
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "1,0", "C": "1,0"}, players=("C", "A", "B"))
    pos = pos.with_(to_move="A")
    asked = apply_action(pos, Move("A", "E", 1))
    assert asked.needs.hunter == "B"  # after A comes B, then C
    asked = apply_action(pos, Move("A", "E", 1), [("B", parse_cell("1,1"))])
    assert asked.needs.hunter == "C"
    assert parse_cell("1,1") not in asked.needs.options  # B now stands there


@pytest.mark.parametrize("flee_target, expected", [
    ("unoccupied", ["0,1", "1,-1", "1,1", "2,-1"]),
    ("accessible", ["0,1", "1,-1", "1,1", "2,-1", "2,0"]),
    ("empty", ["0,1", "1,-1", "2,-1"]),
])
def test_flee_target_variants(flee_target, expected):
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "1,0", "C": "2,0"}, traps={"1,1": "C"})
    asked = apply_action(pos, Move("A", "E", 1), variants=Variants(flee_target=flee_target))
    assert sorted(cell_name(o) for o in asked.needs.options) == expected


def test_moves_must_stay_on_the_board_and_off_rock():
    pos = make(mammoth="0,0", hunters={"A": "-2,0", "B": "3,-3"}, rocks=["-2,2"])
    with pytest.raises(IllegalAction, match="rock"):
        apply_action(pos, Move("A", "SE", 2))
    with pytest.raises(IllegalAction, match="leaves the board"):
        apply_action(pos, Move("A", "W", 2))
    assert Move("A", "SE", 2) not in legal_actions(pos)


def test_a_move_that_gets_the_mover_killed_is_still_legal():
    pos = make(mammoth="0,0", hunters={"A": "-3,0", "B": "3,-2"}, rocks=_walled_for_three())
    assert Move("A", "E", 3) in legal_actions(pos)


def test_only_the_player_to_move_may_act():
    pos = make(mammoth="0,0", hunters={"A": "-2,0", "B": "3,-3"})
    with pytest.raises(IllegalAction) as err:
        apply_action(pos, Move("B", "W", 1))
    assert err.value.reason == "not_your_turn"


def test_trap_placement_rules():
    pos = make(hunters={"A": "2,0", "B": "2,0", "C": "-2,0"}, snow=["-2,0"], to_move="C")
    with pytest.raises(IllegalAction, match="grass"):
        apply_action(pos, PlaceTrap("C"))
    pos = pos.with_(to_move="A")
    with pytest.raises(IllegalAction, match="not alone"):
        apply_action(pos, PlaceTrap("A"))
    full = make(hunters={"A": "2,0", "B": "-3,3"},
                traps={"3,0": "A", "3,-1": "A", "3,-2": "A", "3,-3": "A"})
    with pytest.raises(IllegalAction, match="no trap left"):
        apply_action(full, PlaceTrap("A"))
    ok = apply_action(make(hunters={"A": "2,0", "B": "-3,3"}), PlaceTrap("A"))
    assert ok.position.traps == {parse_cell("2,0"): "A"}


def test_removing_a_trap_returns_it_and_needs_the_hunter_alone():
    pos = make(hunters={"A": "2,0", "B": "2,0"}, traps={"2,0": "B"})
    with pytest.raises(IllegalAction, match="not alone"):
        apply_action(pos, RemoveTrap("A"))
    out = apply_action(pos, RemoveTrap("A"), variants=Variants(alone_required_for_recover=False))
    assert out.position.traps == {} and out.events[0]["owner"] == "B"


def test_turns_skip_eliminated_players():
    pos = make(hunters={"A": "2,0", "C": "-2,0"}, players=("A", "B", "C"), eliminated=("B",))
    out = apply_action(pos, Pass("A"))
    assert out.position.to_move == "C"


def test_cards_in_hand_limit_moves_and_are_spent():
    pos = make(mammoth="0,0", hunters={"A": "-3,0", "B": "3,-3"}, hands={"A": (1, 1, 3), "B": (2, 2, 2)})
    assert {a.distance for a in legal_actions(pos) if isinstance(a, Move)} == {1, 3}
    with pytest.raises(IllegalAction) as err:
        apply_action(pos, Move("A", "E", 2))
    assert err.value.reason == "card_not_in_hand"
    out = apply_action(pos, Move("A", "E", 1))
    assert out.position.hands["A"] == (1, 3)


@pytest.mark.parametrize("policy, trap_left", [("remove", False), ("keep_live", True), ("keep_inert", True)])
def test_eliminated_players_traps_follow_the_variant(policy, trap_left):
    pos = make(mammoth="0,0", hunters={"A": "-3,0", "B": "3,-2"}, rocks=_walled_for_three(),
               traps={"1,1": "A"})
    out = apply_action(pos, Move("A", "E", 3), variants=Variants(eliminated_traps=policy))
    assert (parse_cell("1,1") in out.position.traps) is trap_left


def test_inert_traps_of_eliminated_players_do_not_catch_the_mammoth():
    pos = make(mammoth="0,0", hunters={"B": "-2,0"}, players=("A", "B"), eliminated=("A",),
               traps={"1,0": "A"}, to_move="B")
    inert = apply_action(pos, Move("B", "E", 2), variants=Variants(eliminated_traps="keep_inert"))
    assert inert.winner is None and cell_name(inert.position.mammoth) == "2,0"
    live = apply_action(pos, Move("B", "E", 2), variants=Variants(eliminated_traps="keep_live"))
    assert live.winner == "A"


def test_mammoth_wins_when_it_can_no_longer_move():
    """After this flight the mammoth stands in a rock pocket with one open neighbour."""
    pos = make(mammoth="0,0", hunters={"A": "-1,0", "B": "-3,3"},
               rocks=["3,0", "2,1", "1,1", "2,-1", "3,-1"])
    out = apply_action(pos, Move("A", "E", 2))
    assert cell_name(out.position.mammoth) == "2,0"
    assert out.winner == "mammoth" and out.events[-1]["reason"] == "mammoth_safe"


def test_stall_variant_ends_a_quiet_game():
    pos = make(hunters={"A": "2,0", "B": "-2,0"}).with_(quiet_turns=4)
    assert apply_action(pos, Pass("A")).winner is None
    assert apply_action(pos, Pass("A"), variants=Variants(stall_limit=5)).winner == "mammoth"


def test_the_flight_explanation_renders_in_both_languages():
    pos = make(mammoth="0,2", rocks=["0,1"], hunters={"A": "-2,2", "B": "3,-3"})
    out = apply_action(pos, Move("A", "E", 2))
    en = explain(out.events, "en")
    fr = explain(out.events, "fr")
    assert "NW: refused, 0,1 is rock." in "\n".join(en)
    assert "NO : refusée, 0,1 est un rocher." in "\n".join(fr)
    assert any("W: never taken" in line for line in en)
    assert any("Règle de déplacement du mammouth" in line for line in fr)


# -- forced flees described by the caller (RULINGS «Mammoth flight» 5) ---------------------
# A referee writing down a turn cannot know which flees were forced: a choice naming a
# hunter's only flee cell is accepted and consumed, in the order the flight reaches him.

#: A plays E2 from -1,0: the mammoth runs 0,0 → 1,0 → 2,0. B on 1,0 can only flee to 2,-1
#: (2,0 holds C, 0,0 is where the mammoth came from, the rest is rock); then C on 2,0 can
#: only flee to 3,0 (2,-1 now holds B).
TWO_FORCED = dict(mammoth="0,0", hunters={"A": "-1,0", "B": "1,0", "C": "2,0"},
                  rocks=["1,1", "0,1", "1,-1", "2,1", "3,-1"])


def _flees(outcome):
    return [(e["hunter"], e["to"], e["options"]) for e in outcome.events if e["type"] == "hunter_fled"]


def _choices(*pairs):
    return [(h, parse_cell(c)) for h, c in pairs]


@pytest.mark.parametrize("given", [
    (),                                      # nothing said: both forced flees applied unasked
    (("B", "2,-1"),),                        # the first one described
    (("C", "3,0"),),                         # only the second one described
    (("B", "2,-1"), ("C", "3,0")),           # the whole turn as it happened at the table
])
def test_choices_naming_forced_flee_cells_are_accepted_and_consumed(given):
    pos = make(**TWO_FORCED)
    out = apply_action(pos, Move("A", "E", 2), _choices(*given))
    assert out.needs is None and out.consumed_choices == len(given)
    assert _flees(out) == [("B", "2,-1", ["2,-1"]), ("C", "3,0", ["3,0"])]
    assert cells(out.position) == {"A": "1,0", "B": "2,-1", "C": "3,0"}
    assert cell_name(out.position.mammoth) == "2,0"


def test_a_forced_flee_given_another_cell_is_illegal_and_lists_the_one_option():
    pos = make(**TWO_FORCED)
    for given, hunter, option in [((("B", "0,1"),), "B", "2,-1"),
                                  ((("B", "2,-1"), ("C", "2,1")), "C", "3,0")]:
        with pytest.raises(IllegalAction) as err:
            apply_action(pos, Move("A", "E", 2), _choices(*given))
        assert err.value.code == "illegal_move" and err.value.rule == "flight.frighten"
        assert err.value.reason == "bad_flee_choice"
        assert err.value.options == [option] and err.value.hunter == hunter
        assert f"{option} is the only cell he may flee to" in err.value.message


def test_forced_flee_choices_out_of_the_flights_order_are_refused():
    """B is reached first; a list naming C first leaves B's choice over."""
    pos = make(**TWO_FORCED)
    with pytest.raises(IllegalAction) as err:
        apply_action(pos, Move("A", "E", 2), _choices(("C", "3,0"), ("B", "2,-1")))
    assert err.value.reason == "unused_choice" and err.value.rule == "flight.frighten"
    assert "B had to flee to 2,-1" in err.value.message and "order the flight reaches" in err.value.message


#: A plays E3 from -1,0: the mammoth runs 1,0 → 2,0 → 3,0. B on 1,0 must flee to 2,0 (the
#: rest is rock or the mammoth's previous cell), where the mammoth reaches him again: then
#: he may go to 3,0, 2,1 or 3,-1.
FORCED_THEN_ASKED = dict(mammoth="0,0", hunters={"A": "-1,0", "B": "1,0"}, rocks=["1,1", "0,1", "1,-1", "2,-1"])


def test_a_hunter_forced_then_asked_takes_either_description_of_the_turn():
    pos = make(**FORCED_THEN_ASKED)
    move = Move("A", "E", 3)
    asked = apply_action(pos, move)
    assert asked.needs.hunter == "B" and sorted(cell_name(o) for o in asked.needs.options) == ["2,1", "3,-1", "3,0"]
    assert _flees(asked) == [("B", "2,0", ["2,0"])]
    # the engine's questions only (the forced flee left out), or the whole turn
    for given in [(("B", "2,1"),), (("B", "2,0"), ("B", "2,1"))]:
        out = apply_action(pos, move, _choices(*given))
        assert out.needs is None and out.consumed_choices == len(given)
        assert _flees(out) == [("B", "2,0", ["2,0"]), ("B", "2,1", ["3,0", "2,1", "3,-1"])]
        assert cells(out.position)["B"] == "2,1"
    # the whole turn described, but the second flee not yet
    again = apply_action(pos, move, _choices(("B", "2,0")))
    assert again.needs.hunter == "B" and again.consumed_choices == 1
    # a cell fitting neither flee is refused with the forced flee's one option
    with pytest.raises(IllegalAction) as err:
        apply_action(pos, move, _choices(("B", "1,1")))
    assert err.value.reason == "bad_flee_choice" and err.value.options == ["2,0"]
    # and a choice passed over at the forced flee must be used later
    with pytest.raises(IllegalAction) as err:
        apply_action(pos, move, _choices(("B", "2,1"), ("B", "3,0")))
    assert err.value.reason in ("bad_flee_choice", "unused_choice")


def test_records_and_successors_keep_leaving_forced_flees_out():
    """The engine's own lists (successors, game records) name only the flees it asked about."""
    from engine import successors

    pos = make(**FORCED_THEN_ASKED)
    resolutions = [(choices, out) for action, choices, out in successors(pos) if action == Move("A", "E", 3)]
    # B's second flee has three options; from 3,0 the mammoth reaches him a third time
    assert sorted(cell_name(c[0][1]) for c, _ in resolutions) == ["2,1", "3,-1", "3,0", "3,0"]
    for choices, out in resolutions:
        assert "2,0" not in [cell_name(c) for _, c in choices] and out.consumed_choices == len(choices)
