"""The pieces placed together: the learned models' odds over the whole board, the
colours' reading as a prior (the changes reader's last stage, :func:`place_together`).

The colours' rules (:mod:`vision.changes`) place one hunter at a time, each by what his
colour shows, and mend the cases they know of one by one; on tables whose pieces stand
(a pawn's shaded side, a lamp's tint) a third of hunters were still read on a wrong
cell. The learned models say, of every cell, how likely a hunter stands there (the
classifier, or the fine ``hunter_on_trap`` model where a trap lies, which sees a small
piece on a trap of its colour) and whose piece it is (the owner model, against each
player's hunter as setup saw him). Here each player is placed on the cell those odds
make likeliest, all players at once (one assignment, each further hunter on a cell
half as likely), where the colours' reading counts as a prior: a sure reading :data:`READ_SURE`
times, an unsure one :data:`READ_UNSURE` times as likely; a player the colours read
nowhere stays off the board unless the models are surer than not of him somewhere. Then each grass cell's trap is what the classifier
(the fine ``trap_under_hunter`` model under a hunter) says of it, owned as the colours
read it, else as the owner model names it, else by the hunter standing on it (a
hunter sets his trap on his own cell: FR «Tour de jeu» 2, EN «Flow of play» 2).

Every cell whose contents this changes is unsure: the tracker leaves it to the cells'
changes and the referee, never commits it on this stage's word alone.

>>> import numpy as np
>>> hunter = np.full(37, 0.01); hunter[[4, 9]] = 0.95
>>> owners = lambda cells: np.array([[0.9, 0.1] if c == 9 else [0.1, 0.9] for c in cells])
>>> placed = place_hunters({"c0": 4, "c1": 9}, np.full(37, 0.5), {}, 18, hunter, None, owners, ["c0", "c1"])
>>> placed.hunters, sorted(placed.changed)
({'c0': 9, 'c1': 4}, [4, 9])
"""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import numpy as np
from scipy.optimize import linear_sum_assignment

from engine.hexgrid import CENTRE, NUM_CELLS

from .changes import ChangeReading

#: How much likelier the colours' reading makes a player's cell: read surely (confidence
#: :data:`SURE_READING` and more), or unsure. Set on the development tables
#: (docs/vision.md, *The pieces placed together*).
READ_SURE, READ_UNSURE = np.exp(2.0), np.exp(0.5)
SURE_READING = 0.9
#: The odds of a player the colours read nowhere being off the board, against a hunter
#: of his seen on some cell. The colours know his look from setup: a player they find
#: nowhere is placed only where the models are surer than not (eliminated players are
#: off the board, their traps down: the shared sample flat-6900001, 0.45 for an absent
#: player on one of his traps). A player they read somewhere stays on the board: the
#: models only move him (taken off, he was once taken for having stayed on his cell
#: while he had stepped away, sim.tabletop development game 5,510,007 with a referee).
OFF_BOARD_UNSEEN = 0.5
#: Cells a player may be placed on: where the classifier gives a hunter this much, or
#: where the colours read one (the owner model is asked about these only).
CANDIDATE_ODDS = 0.1
#: On a trap, the fine model's word that a hunter stands on it counts from this much;
#: below, it caps the classifier's (which sees a flat trap as a hunter a third of the
#: time). On a trap of his colour the owner model names the trap's owner whether he
#: stands there or not, so a player off the board, or on a stack, was put on his own
#: trap (the shared sample flat-6900001: 0.45 from the classifier, 0.25 from the fine
#: model on an absent player's trap).
ON_TRAP_ODDS = 0.5
#: A cell no hunter stands on holds a trap when the classifier gives one this much; a
#: trap the colours read there stays down to the second (the classifier misses more
#: lone traps than the colours do).
TRAP_ODDS, READ_TRAP_ODDS = 0.5, 0.05
#: Under a hunter, the fine model's odds that keep a trap the colours read, and that
#: put one they did not.
UNDER_READ_ODDS, UNDER_NEW_ODDS = 0.5, 0.95
#: Each further hunter on a cell is this much less likely than the one before (stacks
#: are rarer than lone hunters: at even odds a hunter read unsure beside a stack
#: joined it, sim.flatart development tables 3,000,007 and 3,000,073).
FURTHER_ON_CELL = 0.5
#: A cost no assignment takes (a place a player may not go).
_NEVER = 1e9


def place_together(reading: ChangeReading, grass: np.ndarray, labels: list[str], hunter_odds=None, trap_odds=None,
                   hunter_on_trap_odds=None, trap_under_hunter_odds=None, owner_odds=None, **_) -> ChangeReading:
    """``reading`` (:func:`vision.changes.read_changes`) placed again by the learned
    models' odds (the classifier's ``hunter_odds`` and ``trap_odds``, (37,); the fine and
    owner models' cells -> odds), each cell that changed unsure; as read without the
    owner model or the classifier (a calibration saved before their crops were kept).
    ``grass``: the grass cells."""
    if owner_odds is None or hunter_odds is None or trap_odds is None:
        return reading
    by_hunters = place_hunters(reading.hunters, reading.confidence, reading.traps, reading.mammoth, hunter_odds,
                               hunter_on_trap_odds, owner_odds, labels)
    by_traps = place_traps(reading.traps, by_hunters.hunters, grass, reading.mammoth, trap_odds,
                           trap_under_hunter_odds, owner_odds, labels)
    confidence = reading.confidence.copy()
    confidence[sorted(by_hunters.changed | by_traps.changed)] = 0.0
    return replace(reading, hunters=by_hunters.hunters, traps=by_traps.traps, confidence=confidence)


def _presence(hunter_odds, traps: dict, hunter_on_trap_odds, colours_only: set) -> np.ndarray:
    """Each cell's odds of a hunter (37,): the classifier's, on a trap the fine model's
    (:data:`ON_TRAP_ODDS`), and certain on the cells the colours alone read."""
    presence = np.asarray(hunter_odds, float).copy()
    on_traps = sorted(traps)
    if hunter_on_trap_odds is not None and on_traps:
        on_trap = hunter_on_trap_odds(on_traps)
        presence[on_traps] = np.where(on_trap >= ON_TRAP_ODDS, np.maximum(presence[on_traps], on_trap),
                                      np.minimum(presence[on_traps], on_trap))
    presence[sorted(colours_only)] = 1.0
    return presence


def _owners(owner_odds, cells: list[int], hunters: dict, traps: dict, labels: list[str]) -> np.ndarray:
    """Each of ``cells``' odds of being each player's ``(n, players)``: the owner model's,
    but a hunter read on another player's trap shows two colours, and the owner model
    (trained on one piece's, or one colour's) does not tell whose he is: the colours do."""
    odds = np.asarray(owner_odds(cells), float)[:, :len(labels)]
    for j, c in enumerate(cells):
        rivals = [label for label, at in hunters.items() if at == c and traps.get(c, label) != label]
        if rivals:
            odds[j] = [float(label in rivals) for label in labels]
    return odds


class Placed(NamedTuple):
    """What :func:`place_hunters` or :func:`place_traps` read, and the cells they changed."""
    hunters: dict
    traps: dict
    changed: set


def place_hunters(hunters: dict, conf: np.ndarray, traps: dict, mammoth, hunter_odds, hunter_on_trap_odds,
                  owner_odds, labels: list[str]) -> Placed:
    """Each player on the cell the models and the colours' reading (``hunters``,
    ``conf``) make likeliest, all at once. ``hunter_odds`` (37,) are the classifier's;
    ``hunter_on_trap_odds`` and ``owner_odds`` (cells -> odds; ``None`` when not shipped)
    the fine and owner models'. Every cell is read, a covered one too: what is read
    there stays hidden from the tracker (the observation's occluded cells), and a
    player read nowhere may be placed elsewhere even so, unsure. The ``mammoth``'s cell
    and the cross hold only the players the colours read there, whatever the classifier
    gives: it sees a hunter in a mammoth's figure (an absent player was put there in
    the shared samples flat-6900001 and 6900002), and its empty reference of the cross
    holds the mammoth (a hunter read rightly there was moved off, sim.flatart 3,000,137)."""
    colours_only = {c for c in (mammoth, CENTRE) if c is not None}
    presence = _presence(hunter_odds, traps, hunter_on_trap_odds, colours_only)
    cells = sorted(set(np.flatnonzero(presence >= CANDIDATE_ODDS).tolist()) - colours_only | set(hunters.values()))
    if not cells:
        return Placed(dict(hunters), traps, set())
    odds = _owners(owner_odds, cells, hunters, traps, labels)
    cost = -np.log(np.clip(presence[cells][:, None] * odds, 1e-6, 1.0)).T     # players x cells
    for k, label in enumerate(labels):
        if label in hunters:
            at = hunters[label]
            cost[k, cells.index(at)] -= np.log(READ_SURE if conf[at] >= SURE_READING else READ_UNSURE)
        for c in colours_only & (set(cells) - {hunters.get(label)}):
            cost[k, cells.index(c)] = _NEVER
    # Each cell once for each hunter it may hold (every player's), then each player's own
    # "off the board".
    off = np.full((len(labels), len(labels)), _NEVER)
    np.fill_diagonal(off, [_NEVER if label in hunters else -np.log(OFF_BOARD_UNSEEN) for label in labels])
    slots = [cost - k * np.log(FURTHER_ON_CELL) for k in range(len(labels))]
    rows, cols = linear_sum_assignment(np.hstack(slots + [off]))
    placed = {labels[k]: cells[col % len(cells)] for k, col in zip(rows, cols) if col < len(slots) * len(cells)}
    changed = {c for label in labels for c in (hunters.get(label), placed.get(label))
               if c is not None and hunters.get(label) != placed.get(label)}
    return Placed(placed, traps, changed)


def place_traps(traps: dict, hunters: dict, grass: np.ndarray, mammoth, trap_odds, trap_under_hunter_odds,
                owner_odds, labels: list[str]) -> Placed:
    """Each grass cell's trap (``grass``, the mammoth's cell aside) as the models say:
    the classifier's ``trap_odds`` (37,) on a cell no hunter stands on, at
    :data:`TRAP_ODDS` (one the colours read, at :data:`READ_TRAP_ODDS`); under a hunter,
    ``trap_under_hunter_odds`` (cells -> odds), at :data:`UNDER_NEW_ODDS` (one the
    colours read, at :data:`UNDER_READ_ODDS`). A trap kept is owned as read (``traps``),
    a new one as the owner model names it, or under a lone hunter, his."""
    standing = {}
    for label, cell in hunters.items():
        standing.setdefault(cell, []).append(label)
    cells = [c for c in range(NUM_CELLS) if grass[c] and c != mammoth]
    under = [c for c in cells if c in standing]
    odds = np.asarray(trap_odds, float).copy()
    if trap_under_hunter_odds is not None and under:
        odds[under] = trap_under_hunter_odds(under)
    placed = {c: owner for c, owner in traps.items() if c not in cells}
    stood_on = np.array([c in standing for c in range(NUM_CELLS)])
    keep = np.where(stood_on, UNDER_READ_ODDS, READ_TRAP_ODDS)
    put = np.where(stood_on, UNDER_NEW_ODDS, TRAP_ODDS)
    new = [c for c in cells if odds[c] >= put[c] and c not in traps and c not in standing]
    named = dict(zip(new, np.asarray(owner_odds(new), float).argmax(axis=1))) if new else {}
    for c in cells:
        if c in traps:
            if odds[c] >= keep[c]:
                placed[c] = traps[c]
        elif c in named:
            placed[c] = labels[int(named[c])]
        elif odds[c] >= put[c] and len(standing.get(c, ())) == 1:
            placed[c] = standing[c][0]
    changed = {c for c in set(traps) | set(placed) if traps.get(c) != placed.get(c)}
    return Placed(hunters, placed, changed)
