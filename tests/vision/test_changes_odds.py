"""The learned classifier's word in the changes reader (:mod:`vision.changes`): where it
overrules the colours learnt at setup, and where it must not.

Each rule takes a cell's odds (the classifier's) and what the colours show there, and
gives back a reading whose overruled cells are unsure (confidence 0): the tracker waits
and the referee is asked before a board holding such a guess is committed.
"""
import numpy as np

from engine.hexgrid import CENTRE, NEIGHBOURS, NUM_CELLS, cell_name, parse_cell
from vision.changes import (HUNTER_ODDS, LONE_TRAP_ODDS, MAMMOTH_ELSEWHERE_ODDS, MAMMOTH_GONE_ODDS, MAMMOTH_ODDS,
                            MAMMOTH_ON_HUNTER_ODDS, MISPLACED_ODDS, NO_MAMMOTH_ODDS, UNPLACED_ODDS, lone_traps,
                            mammoth_by_odds, misplaced_hunters, unplaced_onto_own_traps)

LABELS = ["c0", "c1", "c2"]


def odds(cells: dict) -> np.ndarray:
    """Odds 0 everywhere but on the named cells: ``{"q,r": odds}``."""
    out = np.zeros(NUM_CELLS)
    for name, value in cells.items():
        out[parse_cell(name)] = value
    return out


def cell(name: str) -> int:
    return parse_cell(name)


def sure() -> np.ndarray:
    return np.ones(NUM_CELLS)


# --- the mammoth ---------------------------------------------------------------------------

NOTHING = np.zeros(NUM_CELLS)


def test_the_mammoth_moves_where_the_classifier_is_sure_and_sees_nothing_where_read():
    mammoth, conf = mammoth_by_odds(cell("2,-1"), sure(), odds({"-2,3": 0.9, "2,-1": 0.02}), NOTHING)
    assert mammoth == cell("-2,3")
    assert conf[cell("-2,3")] == 0.0 and conf[cell("2,-1")] == 0.0, "both cells asked about"


def test_a_mammoth_the_colours_put_nowhere_is_placed_where_the_classifier_sees_him():
    mammoth, conf = mammoth_by_odds(None, sure(), odds({"1,-2": MAMMOTH_ODDS}), NOTHING)
    assert mammoth == cell("1,-2") and conf[mammoth] == 0.0


def test_the_mammoth_stays_where_the_classifier_does_not_rule_him_out():
    at = cell("2,-1")
    mammoth, conf = mammoth_by_odds(at, sure(), odds({"-2,3": 0.95, "2,-1": NO_MAMMOTH_ODDS}), NOTHING)
    assert mammoth == at and conf.min() == 1.0


def test_the_mammoth_stays_where_the_classifier_sees_some_piece():
    """A tall figure photographed from the side shows his back two cells away, and the
    classifier takes his base for a trap (the shared sample photo-9100001)."""
    at = cell("3,0")
    photographed = odds({"2,-1": 0.887, "3,0": 0.046})   # the sample's own odds
    mammoth, conf = mammoth_by_odds(at, sure(), photographed, odds({"3,0": 0.6, "2,-1": 0.9}))
    assert mammoth == at and conf.min() == 1.0


def test_the_mammoth_leaves_a_piece_where_the_classifier_rules_him_out():
    """His colours took a trap for him (sim.tabletop development tables, session 20): the
    classifier sees a piece there but gives him under MAMMOTH_GONE_ODDS, and is sure of
    him on a cell next to it or far away: he moves there, both cells unsure."""
    at = cell("3,0")
    for seen in ("2,-1", next(cell_name(n) for n in NEIGHBOURS[at] if n is not None)):
        ruled_out = odds({seen: 0.9, "3,0": MAMMOTH_GONE_ODDS - 0.001})
        mammoth, conf = mammoth_by_odds(at, sure(), ruled_out, odds({"3,0": 1.0, seen: 1.0}))
        assert mammoth == cell(seen) and conf[at] == 0.0 and conf[mammoth] == 0.0
    two_places = odds({"2,-1": 0.9, "-3,3": MAMMOTH_ELSEWHERE_ODDS, "3,0": 0.0})
    assert mammoth_by_odds(at, sure(), two_places, odds({"3,0": 1.0}))[0] == at, "not sure where he is"


def test_the_mammoth_moves_off_a_cell_where_the_classifier_sees_a_hunter():
    """A hunter's colour close to the mammoth's drew the mammoth onto his cell; the
    classifier sees a hunter there (not a base it cannot name, as in photo-9100001) and
    is sure of the mammoth elsewhere: moved there, both cells unsure."""
    at = cell("3,0")
    piece_there = odds({"3,0": 1.0, "2,-1": 1.0})
    hunter_there = odds({"3,0": MAMMOTH_ON_HUNTER_ODDS})
    not_ruled_out = odds({"2,-1": 0.9, "3,0": MAMMOTH_GONE_ODDS})
    mammoth, conf = mammoth_by_odds(at, sure(), not_ruled_out, piece_there, hunter_there)
    assert mammoth == cell("2,-1") and conf[at] == 0.0 and conf[mammoth] == 0.0
    doubtful = odds({"3,0": MAMMOTH_ON_HUNTER_ODDS - 0.01})
    assert mammoth_by_odds(at, sure(), not_ruled_out, piece_there, doubtful)[0] == at


def test_the_mammoth_stays_on_a_hunter_when_the_classifier_sees_him_on_two_cells_apart():
    """sim.tabletop test table 5,000,002: the classifier gives the mammoth 0.99 on one
    cell and 0.92 on another four cells away (his), and a hunter where the colours put
    him: it is not sure where he is, so the colours' cell stays."""
    at = CENTRE
    two_cells = odds({"-2,-1": 0.99, "3,0": MAMMOTH_ELSEWHERE_ODDS, "0,0": MAMMOTH_GONE_ODDS})
    hunter_there = odds({"0,0": 0.98})
    mammoth, conf = mammoth_by_odds(at, sure(), two_cells, odds({"0,0": 1.0}), hunter_there)
    assert mammoth == at and conf.min() == 1.0


def test_the_mammoth_stays_when_the_classifier_is_not_sure_of_another_cell():
    mammoth, conf = mammoth_by_odds(CENTRE, sure(), odds({"-2,3": MAMMOTH_ODDS - 0.01}), NOTHING)
    assert mammoth == CENTRE and conf.min() == 1.0


def test_a_figure_seen_on_the_next_cell_stays_where_his_colours_are():
    """He leans over the next cell, where the classifier is surest of him; it does not
    rule him out on his own (MAMMOTH_GONE_ODDS)."""
    beside = next(n for n in NEIGHBOURS[cell("0,2")] if n is not None)
    probabilities = np.zeros(NUM_CELLS)
    probabilities[[beside, cell("0,2")]] = (0.95, MAMMOTH_GONE_ODDS)
    mammoth, conf = mammoth_by_odds(cell("0,2"), sure(), probabilities, NOTHING)
    assert mammoth == cell("0,2") and conf.min() == 1.0


# --- a lone trap the colours missed ----------------------------------------------------------

def shown_points(cells: dict | None = None) -> np.ndarray:
    """Points of each player's colour per cell: ``{"q,r": (c0, c1, c2)}``."""
    out = np.zeros((NUM_CELLS, len(LABELS)))
    for name, values in (cells or {}).items():
        out[parse_cell(name)] = values
    return out


def test_a_lone_trap_the_colours_missed_is_read_unsure_as_the_player_showing_most():
    grass = np.ones(NUM_CELLS, bool)
    traps, conf = lone_traps({}, sure(), {}, grass, CENTRE, odds({"2,-1": LONE_TRAP_ODDS}),
                             shown_points({"2,-1": (2, 9, 4)}), LABELS)
    assert traps == {cell("2,-1"): "c1"}
    assert conf[cell("2,-1")] == 0.0


def test_no_lone_trap_on_a_hunter_the_mammoth_a_trap_read_or_off_the_grass():
    grass = np.ones(NUM_CELLS, bool)
    grass[cell("1,1")] = False
    probabilities = odds({"2,-1": 0.9, "0,1": 0.9, "1,1": 0.9, "-1,1": 0.9, "0,0": 0.9})
    shown = shown_points({"2,-1": (0, 9, 0), "0,1": (9, 0, 0), "1,1": (0, 0, 9), "-1,1": (9, 0, 0),
                          "0,0": (9, 0, 0)})
    traps, conf = lone_traps({cell("0,1"): "c2"}, sure(), {"c1": cell("2,-1")}, grass, CENTRE, probabilities,
                             shown, LABELS)
    assert traps == {cell("0,1"): "c2", cell("-1,1"): "c0"}, "only the open grass cell gains a trap"


def test_no_lone_trap_where_no_players_colour_shows():
    traps, _ = lone_traps({}, sure(), {}, np.ones(NUM_CELLS, bool), None, odds({"2,-1": 0.99}),
                          shown_points(), LABELS)
    assert traps == {}


def test_no_lone_trap_where_the_classifier_is_unsure():
    traps, _ = lone_traps({}, sure(), {}, np.ones(NUM_CELLS, bool), None, odds({"2,-1": LONE_TRAP_ODDS - 0.01}),
                          shown_points({"2,-1": (0, 30, 0)}), LABELS)
    assert traps == {}


# --- a hunter read on a patch of his colour the classifier sees no hunter on ----------------

def test_a_hunter_the_classifier_sees_elsewhere_moves_there_unsure():
    """A near-black star on snow and his lone near-black disc show as many dark points:
    the colours put him on the disc, the classifier sees the star."""
    probabilities = odds({"-1,2": 0.95, "0,-3": 0.15})
    shown = shown_points({"-1,2": (0, 40, 0), "0,-3": (0, 41, 0)})
    hunters, conf = misplaced_hunters({"c0": cell("1,0"), "c1": cell("0,-3")}, {}, sure(), CENTRE, probabilities,
                                      shown, LABELS)
    assert hunters == {"c0": cell("1,0"), "c1": cell("-1,2")}
    assert conf[cell("-1,2")] == 0.0 and conf[cell("0,-3")] == 0.0


def test_a_hunter_stays_where_the_classifier_gives_him_a_chance():
    probabilities = odds({"-1,2": 0.95, "0,-3": MISPLACED_ODDS})
    shown = shown_points({"-1,2": (0, 40, 0), "0,-3": (0, 41, 0)})
    hunters, conf = misplaced_hunters({"c1": cell("0,-3")}, {}, sure(), CENTRE, probabilities, shown, LABELS)
    assert hunters == {"c1": cell("0,-3")} and conf.min() == 1.0


def test_a_hunter_never_moves_onto_another_players_colour_another_hunter_or_the_mammoth():
    probabilities = odds({"-1,2": HUNTER_ODDS, "1,1": 0.99, "2,-1": 0.99, "0,-3": 0.05})
    shown = shown_points({"-1,2": (0, 20, 30), "1,1": (0, 40, 0), "2,-1": (0, 40, 0)})
    hunters, conf = misplaced_hunters({"c1": cell("0,-3"), "c2": cell("1,1")}, {}, sure(), cell("2,-1"),
                                      probabilities, shown, LABELS)
    assert hunters == {"c1": cell("0,-3"), "c2": cell("1,1")} and conf.min() == 1.0


def test_a_hunter_read_on_his_own_trap_stays():
    """The classifier often misses a standee on a trap of his colour: its low odds there
    do not send him to another player's hunter of a colour like his."""
    probabilities = odds({"-2,2": 1.0, "0,-2": 0.05})
    shown = shown_points({"-2,2": (0, 20, 35), "0,-2": (0, 0, 60)})
    hunters, conf = misplaced_hunters({"c2": cell("0,-2")}, {cell("0,-2"): "c2"}, sure(), CENTRE, probabilities,
                                      shown, LABELS)
    assert hunters == {"c2": cell("0,-2")} and conf.min() == 1.0


# --- a hunter read nowhere ---------------------------------------------------------------------

def test_a_hunter_read_nowhere_stands_unsure_on_the_own_trap_the_classifier_prefers():
    traps = {cell("2,-1"): "c0", cell("-1,3"): "c0", cell("1,1"): "c1"}
    probabilities = odds({"2,-1": 0.25, "-1,3": 0.6, "1,1": 0.9})
    hunters, conf = unplaced_onto_own_traps({"c1": cell("1,1")}, traps, sure(), probabilities, LABELS)
    assert hunters == {"c1": cell("1,1"), "c0": cell("-1,3")}
    assert conf[cell("-1,3")] == 0.0 and conf[cell("2,-1")] == 1.0


def test_a_hunter_stays_off_the_board_when_no_own_trap_leads_or_the_classifier_doubts():
    """Two traps alike to the classifier tell nothing; a lone trap it gives a hunter
    under :data:`UNPLACED_ODDS` keeps a player off the board whose traps are still down
    (the shared sample flat-6900002)."""
    alike = {cell("2,-1"): "c0", cell("-1,3"): "c0"}
    hunters, _ = unplaced_onto_own_traps({}, alike, sure(), odds({"2,-1": 0.5, "-1,3": 0.45}), LABELS)
    assert "c0" not in hunters
    hunters, _ = unplaced_onto_own_traps({}, {cell("2,-1"): "c0"}, sure(), odds({"2,-1": UNPLACED_ODDS - 0.01}),
                                         LABELS)
    assert hunters == {}
