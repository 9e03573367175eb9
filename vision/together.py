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
nowhere stays off the board unless the models are surer than not of him somewhere,
and so may one they read only on a trap of his own where the models see the trap and
no hunter. Then each grass cell's trap is what the classifier (the fine
``trap_under_hunter`` model under a hunter) says of it, owned as the colours
read it, else as the owner model names it, else by the hunter standing on it (a
hunter sets his trap on his own cell: FR «Tour de jeu» 2, EN «Flow of play» 2).
Last, a mammoth the colours keep on the cross (whose empty look holds him) or find
nowhere goes where the classifier sees a piece nothing placed explains and some of him.

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
from scipy.sparse.csgraph import connected_components

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
#: A player the colours read only on a trap of his own, alone, may be off the board
#: (his reading no prior) when the models give a hunter there less than the first
#: while the fine ``trap_under_hunter`` model sees the trap (:data:`UNDER_READ_ODDS`): his trap shows his colour as he would. The shared samples
#: leave a player off the board in 30 % of their frames, our generators in 2 %: with one
#: player taken off in 30 % of the development frames (his traps kept), that player
#: was read on one of his traps in 25 of the 45 sim.flatart frames otherwise right. The
#: bar set on those frames (docs/vision.md, session 27): hunters rightly on their own
#: trap showed 0.03-0.10 on sim.flatart's small pieces and 0.17-0.46 on sim.tabletop's,
#: absent players 0.001-0.28 (sim.tabletop under 0.1); a hunter read with a trap under
#: him that is not there (the trap model under 0.5) is never taken off. Such a player's
#: odds of being off the board, against a hunter of his seen elsewhere, are the second
#: (the colours did find his colour): at 0.5 a hunter that had stepped off his trap was
#: read nowhere rather than where the classifier saw him, and sim.tabletop development
#: game 5,500,011 was reported unexplained; at 0.2 it is tracked, and the frames read as
#: well or better (0.1: 4 fewer sim.flatart frames with a player off the board).
OFF_OWN_TRAP_ODDS, OFF_BOARD_ON_OWN_TRAP = 0.15, 0.2
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
#: put one they did not (0.95 for the first fine model; for the one retrained wider in
#: session 23, 0.6 to 0.85 read 7 to 11 more sim.tabletop development frames right,
#: sim.flatart's the same; the shared samples' bare grass cells under a hunter show
#: 0.64 at most, photo-9100002).
UNDER_READ_ODDS, UNDER_NEW_ODDS = 0.5, 0.8
#: Each further hunter on a cell is this much less likely than the one before (stacks
#: are rarer than lone hunters: at even odds a hunter read unsure beside a stack
#: joined it, sim.flatart development tables 3,000,007 and 3,000,073).
FURTHER_ON_CELL = 0.5
#: A mammoth the colours keep on the cross, or find nowhere, moves to the cell where the
#: classifier sees a piece this surely (:data:`UNEXPLAINED_PIECE`) that no hunter and
#: no trap placed explains, when it gives the mammoth there this much
#: (:func:`place_mammoth`). The cross's empty look holds the mammoth (he stands there at
#: setup), so nothing tells him gone from a dark cross like his figure: on the
#: sim.tabletop development frames 45 mammoths were kept on the cross after leaving it;
#: those the classifier gave 0.4 or more on an unexplained piece were all there (18 of 19,
#: the 19th not on the cross either), while those rightly on the cross had 0.36 at most.
UNEXPLAINED_PIECE, UNEXPLAINED_MAMMOTH = 0.9, 0.4
#: The owner model's odds are sharpened to this power to place the hunters (each row
#: renormalised, :func:`sharpened`; a stack's left as they are): as trained
#: (:data:`vision.cell_model.OWNER_SHARPNESS`) they are too even against the classifier's
#: presence odds and the colours' prior. Replayed offline on the development frames
#: (session 24), frames fully right at powers 1, 1.5 and 2: sim.tabletop 189, 192, 195 of
#: 568, sim.flatart 377, 378, 383 (at 3 and 4 no better; sharpened for the lone traps'
#: names too, no better either, and two players' traps alike to the model, sim.tabletop
#: 5,000,150, were named one player's).
OWNER_ODDS_POWER = 2.0
#: A cost no assignment takes (a place a player may not go).
_NEVER = 1e9


def place_together(reading: ChangeReading, grass: np.ndarray, labels: list[str], hunter_odds=None, trap_odds=None,
                   hunter_on_trap_odds=None, trap_under_hunter_odds=None, owner_odds=None, owner_likeness=None,
                   mammoth_odds=None, piece_odds=None, piece_lab=None, **_) -> ChangeReading:
    """``reading`` (:func:`vision.changes.read_changes`) placed again by the learned
    models' odds (the classifier's ``hunter_odds`` and ``trap_odds``, (37,); the fine and
    owner models' cells -> odds; ``owner_likeness``, cells -> how alike their pieces
    are, with ``piece_lab`` (:func:`vision.changes.piece_colours`), names the lone traps
    together; the classifier's ``mammoth_odds`` and
    ``piece_odds`` find a mammoth gone from the cross, :func:`place_mammoth`), each cell
    that changed unsure; as read without the owner model or the classifier (a
    calibration saved before their crops were kept). ``grass``: the grass cells."""
    if owner_odds is None or hunter_odds is None or trap_odds is None:
        return reading
    by_hunters = place_hunters(reading.hunters, reading.confidence, reading.traps, reading.mammoth, hunter_odds,
                               hunter_on_trap_odds, owner_odds, labels, trap_under_hunter_odds)
    by_traps = place_traps(reading.traps, by_hunters.hunters, grass, reading.mammoth, trap_odds,
                           trap_under_hunter_odds, owner_odds, labels)
    changed = by_hunters.changed | by_traps.changed
    traps = by_traps.traps
    if owner_likeness is not None:
        named = name_lone_traps(traps, by_hunters.hunters, reading.confidence, reading.mammoth, owner_odds,
                                owner_likeness, labels, piece_lab)
        traps, changed = named.traps, changed | named.changed
    mammoth = reading.mammoth
    if mammoth_odds is not None and piece_odds is not None:
        mammoth = place_mammoth(mammoth, by_hunters.hunters, traps, mammoth_odds, piece_odds)
        changed |= {c for c in (reading.mammoth, mammoth) if c is not None and mammoth != reading.mammoth}
    confidence = reading.confidence.copy()
    confidence[sorted(changed)] = 0.0
    return replace(reading, mammoth=mammoth, hunters=by_hunters.hunters, traps=traps, confidence=confidence)


def sharpened(odds: np.ndarray, power: float | None = None) -> np.ndarray:
    """Owner odds ``(n, seats)`` raised to ``power`` (by default :data:`OWNER_ODDS_POWER`),
    each row summing to one.

    >>> sharpened(np.array([[0.6, 0.2, 0.2]])).round(3).tolist()
    [[0.818, 0.091, 0.091]]
    """
    raised = np.clip(np.asarray(odds, float), 0.0, 1.0) ** (OWNER_ODDS_POWER if power is None else power)
    return raised / np.maximum(raised.sum(axis=1, keepdims=True), 1e-12)


def place_mammoth(mammoth, hunters: dict, traps: dict, mammoth_odds, piece_odds):
    """The mammoth's cell: as read, unless read on the cross or nowhere while the
    classifier sees a piece (``piece_odds`` (37,) from :data:`UNEXPLAINED_PIECE`) on a
    cell where no hunter stands and no trap lies, and gives the mammoth there
    (``mammoth_odds`` (37,)) :data:`UNEXPLAINED_MAMMOTH` or more: the likeliest such cell.

    >>> piece, mam = np.zeros(37), np.zeros(37)
    >>> piece[[4, 9]], mam[[4, 9]] = 1.0, (0.6, 0.7)
    >>> place_mammoth(CENTRE, {"c0": 9}, {}, mam, piece), place_mammoth(5, {"c0": 9}, {}, mam, piece)
    (4, 5)
    """
    if mammoth not in (CENTRE, None):
        return mammoth
    explained = set(hunters.values()) | set(traps) | {CENTRE}
    unexplained = [c for c in range(NUM_CELLS) if c not in explained and piece_odds[c] >= UNEXPLAINED_PIECE]
    if not unexplained:
        return mammoth
    likeliest = max(unexplained, key=lambda c: mammoth_odds[c])
    return likeliest if mammoth_odds[likeliest] >= UNEXPLAINED_MAMMOTH else mammoth


def _maybe_off_board(hunters: dict, traps: dict, presence: np.ndarray, trap_under_hunter_odds=None) -> set:
    """The players the colours read alone on a trap of their own where the models see a
    trap (``trap_under_hunter_odds``, :data:`UNDER_READ_ODDS`) and no hunter
    (``presence``, :data:`OFF_OWN_TRAP_ODDS`): a bare trap of his colour is all the
    colours saw there, so he may be off the board (:data:`OFF_BOARD_ON_OWN_TRAP`).

    >>> presence = np.full(37, 0.9); presence[[5, 6]] = 0.05
    >>> trap_there = lambda cells: np.array([0.95 if c == 5 else 0.1 for c in cells])
    >>> sorted(_maybe_off_board({"c0": 5, "c1": 6, "c2": 7}, {5: "c0", 6: "c1", 7: "c2"}, presence, trap_there))
    ['c0']
    """
    count: dict = {}
    for at in hunters.values():
        count[at] = count.get(at, 0) + 1
    alone = [(label, at) for label, at in hunters.items()
             if traps.get(at) == label and count[at] == 1 and presence[at] < OFF_OWN_TRAP_ODDS]
    if not alone or trap_under_hunter_odds is None:
        return set()
    trap_seen = np.asarray(trap_under_hunter_odds([at for _, at in alone]), float) >= UNDER_READ_ODDS
    return {label for (label, _), seen in zip(alone, trap_seen) if seen}


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
    """Each of ``cells``' odds of being each player's ``(n, players)``: the owner model's
    (:func:`sharpened`, but not on a stack the colours read: the lower hunter, whose
    colour shows least, was moved onto his own trap, the shared sample flat-6900001);
    a hunter read on another player's trap shows two colours, and the owner model
    (trained on one piece's, or one colour's) does not tell whose he is: the colours do."""
    odds = np.asarray(owner_odds(cells), float)[:, :len(labels)]
    stack = np.array([sum(at == c for at in hunters.values()) > 1 for c in cells])
    odds = np.where(stack[:, None], odds, sharpened(odds))
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
                  owner_odds, labels: list[str], trap_under_hunter_odds=None) -> Placed:
    """Each player on the cell the models and the colours' reading (``hunters``,
    ``conf``) make likeliest, all at once. ``hunter_odds`` (37,) are the classifier's;
    ``hunter_on_trap_odds`` and ``owner_odds`` (cells -> odds; ``None`` when not shipped)
    the fine and owner models'. Every cell is read, a covered one too: what is read
    there stays hidden from the tracker (the observation's occluded cells), and a
    player read nowhere may be placed elsewhere even so, unsure. The ``mammoth``'s cell
    and the cross hold only the players the colours read there, whatever the classifier
    gives: it sees a hunter in a mammoth's figure (an absent player was put there in
    the shared samples flat-6900001 and 6900002), and its empty reference of the cross
    holds the mammoth (a hunter read rightly there was moved off, sim.flatart 3,000,137).
    A player read only on a bare trap of his own (``trap_under_hunter_odds``, the fine
    model's cells -> odds of a trap there; :func:`_maybe_off_board`) may be off the board.
    No hunter stands on the mammoth's cell: one he reaches flees, or is eliminated
    (:func:`hunters_off_the_mammoth`)."""
    read, hunters = hunters, hunters_off_the_mammoth(hunters, mammoth)
    colours_only = {c for c in (mammoth, CENTRE) if c is not None}
    presence = _presence(hunter_odds, traps, hunter_on_trap_odds, colours_only)
    cells = sorted(set(np.flatnonzero(presence >= CANDIDATE_ODDS).tolist()) - colours_only | set(hunters.values()))
    if not cells:
        return Placed(dict(hunters), traps, {mammoth} if len(hunters) < len(read) else set())
    odds = _owners(owner_odds, cells, hunters, traps, labels)
    cost = -np.log(np.clip(presence[cells][:, None] * odds, 1e-6, 1.0)).T     # players x cells
    maybe_off = _maybe_off_board(hunters, traps, presence, trap_under_hunter_odds)
    for k, label in enumerate(labels):
        if label in hunters and label not in maybe_off:
            at = hunters[label]
            cost[k, cells.index(at)] -= np.log(READ_SURE if conf[at] >= SURE_READING else READ_UNSURE)
        for c in colours_only & (set(cells) - {hunters.get(label)}):
            cost[k, cells.index(c)] = _NEVER
    # Each cell once for each hunter it may hold (every player's), then each player's own
    # "off the board".
    off = np.full((len(labels), len(labels)), _NEVER)
    np.fill_diagonal(off, [-np.log(OFF_BOARD_ON_OWN_TRAP) if label in maybe_off
                           else _NEVER if label in hunters else -np.log(OFF_BOARD_UNSEEN) for label in labels])
    slots = [cost - k * np.log(FURTHER_ON_CELL) for k in range(len(labels))]
    rows, cols = linear_sum_assignment(np.hstack(slots + [off]))
    placed = {labels[k]: cells[col % len(cells)] for k, col in zip(rows, cols) if col < len(slots) * len(cells)}
    changed = {c for label in labels for c in (read.get(label), placed.get(label))
               if c is not None and read.get(label) != placed.get(label)}
    return Placed(placed, traps, changed)


def hunters_off_the_mammoth(hunters: dict, mammoth) -> dict:
    """``hunters`` without those read on the mammoth's cell: a hunter who reaches it makes
    him flee, and those the mammoth runs onto flee in turn, or are eliminated when he
    cannot (RULINGS «Mammoth flight» 4-5, FR/EN mammoth rules ¶4). What shows a
    player's colour there is the mammoth's own print or shadow (a light grey player's
    colour in a figure's shade on snow: sim.flatart development table 3,000,050). The
    game's end by the mammoth falling into a trap, with the hunters there, is no board
    the camera reads: the game is over.

    >>> hunters_off_the_mammoth({"c0": 4, "c1": 9}, 9), hunters_off_the_mammoth({"c0": 4}, None)
    ({'c0': 4}, {'c0': 4})
    """
    return {label: cell for label, cell in hunters.items() if cell != mammoth}


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


#: Two lone traps whose pieces the owner model finds this alike (a cosine) are one
#: player's: one player's traps are one print, while his traps and his hunter often are
#: not (a shade lighter or darker, a token with his colour on its rim only). On the
#: sim.tabletop development frames the traps of one player were that alike in 91 % of
#: pairs, those of two players in 3 %.
SAME_SET_LIKENESS = 0.95
#: How much likelier the owner read so far (the colours' and the rules' word before
#: this step) makes a lone trap his, read surely or not (:data:`SURE_READING`).
NAMED_SURELY, NAMED_UNSURE = np.exp(2.0), np.exp(0.5)
#: How much less likely each further set of traps is to be one player's (two sets that
#: are not alike are most often two players').
FURTHER_SET = np.exp(-4.0)
#: The owners change only when the new naming of every lone trap together is this much
#: likelier than the one read (each naming charged :data:`FURTHER_SET` for each further
#: set it gives one player): two players' traps alike to the model (sim.tabletop
#: 5,000,150) are not told apart by it, and then the colours' reading stands.
RENAME_LIKELIER = np.exp(1.0)
#: Two lone traps whose prints' colours (:func:`vision.changes.piece_colours`) lie this
#: far apart (ΔE) are never one set, however alike to the owner model: on the
#: sim.tabletop development frames it found a grey ring as alike to a white player's
#: rings as they were to each other (5,000,063: 0.985). Of the pairs of lone traps there,
#: 5 % of one player's lay this far apart, and 91 % of two players'.
SET_COLOUR_APART = 25.0


def same_sets(likeness: np.ndarray, threshold: float = SAME_SET_LIKENESS) -> list[list[int]]:
    """Indices grouped by pieces alike (``likeness`` (n, n), linked at ``threshold``:
    two pieces alike, or alike to one alike to the other), in order of their first.

    >>> same_sets(np.array([[1.0, 0.97, 0.2], [0.97, 1.0, 0.1], [0.2, 0.1, 1.0]]))
    [[0, 1], [2]]
    """
    _, group = connected_components(np.asarray(likeness) >= threshold, directed=False)
    return [np.flatnonzero(group == g).tolist() for g in dict.fromkeys(group.tolist())]


def name_lone_traps(traps: dict, hunters: dict, conf: np.ndarray, mammoth, owner_odds, owner_likeness,
                    labels: list[str], piece_lab: np.ndarray | None = None) -> Placed:
    """The traps no hunter stands on named by set: traps alike (:func:`same_sets`, and
    not of colours :data:`SET_COLOUR_APART` apart in ``piece_lab``, (37, 3)) are one
    player's, the one the owner model's odds of them all and the owner each was read
    with (``conf``: the reading's confidence, :data:`NAMED_SURELY`) make likeliest, each
    further set of one player :data:`FURTHER_SET` as likely. The new naming replaces
    the one read when it is :data:`RENAME_LIKELIER` than that, all sets together, each
    naming charged :data:`FURTHER_SET` for each set it gives a player beside one of
    another colour (:func:`_naming_score`): a grey trap read as the white player's, who
    owns white ones, is renamed on less evidence of its own. The owner model tells a
    trap from its player's hunter less well than from his other traps: a set's odds
    together, and the other sets' owners, say more than each trap's alone.

    >>> odds = lambda cells: np.array([[0.9, 0.1] if c == 5 else [0.8, 0.2] for c in cells])
    >>> alike = lambda cells: np.array([[1.0 if (a < 9) == (b < 9) else 0.1 for b in cells] for a in cells])
    >>> traps = {5: "c0", 6: "c1", 7: "c1", 12: "c1"}
    >>> named = name_lone_traps(traps, {"c1": 12}, np.zeros(37), None, odds, alike, ["c0", "c1"])
    >>> named.traps, sorted(named.changed)
    ({5: 'c0', 6: 'c0', 7: 'c0', 12: 'c1'}, [6, 7])
    """
    standing = set(hunters.values())
    lone = sorted(c for c in traps if c not in standing and c != mammoth)
    if not lone:
        return Placed(hunters, traps, set())
    score = np.log(np.clip(np.asarray(owner_odds(lone), float)[:, :len(labels)], 1e-6, 1.0))
    read = np.array([labels.index(traps[c]) for c in lone])
    score[np.arange(len(lone)), read] += np.log(np.where(conf[lone] >= SURE_READING, NAMED_SURELY, NAMED_UNSURE))
    likeness = np.array(owner_likeness(lone), float)
    apart = np.zeros(likeness.shape, bool) if piece_lab is None else colours_apart(piece_lab[lone])
    likeness[apart] = 0.0
    sets = same_sets(likeness)
    by_set = np.array([score[members].sum(axis=0) for members in sets])
    # Each player once for each set (every set may be his), each further time less likely.
    slots = np.hstack([-by_set - k * np.log(FURTHER_SET) for k in range(len(sets))])
    rows, cols = linear_sum_assignment(slots)
    new = read.copy()
    for s, col in zip(rows.tolist(), cols.tolist()):
        new[sets[s]] = col % len(labels)
    named = dict(traps)
    if _naming_score(score, apart, new) - _naming_score(score, apart, read) >= np.log(RENAME_LIKELIER):
        named.update((c, labels[k]) for c, k in zip(lone, new.tolist()))
    return Placed(hunters, named, {c for c in lone if named[c] != traps[c]})


def _naming_score(score: np.ndarray, apart: np.ndarray, owners: np.ndarray) -> float:
    """The log odds of one naming of the lone traps (``owners``, a seat for each): each
    trap's ``score`` as that player's, less :data:`FURTHER_SET` for each group of a
    player's traps beyond his first, traps being of one group unless their colours lie
    apart (``apart``, (n, n) :func:`colours_apart`).

    >>> score = np.log(np.array([[0.9, 0.1], [0.2, 0.8]]))
    >>> apart = np.array([[False, True], [True, False]])
    >>> round(_naming_score(score, apart, np.array([0, 1])), 3), round(_naming_score(score, apart, np.array([0, 0])), 3)
    (-0.329, -5.715)
    >>> round(_naming_score(score, ~apart, np.array([0, 0])), 3)
    -1.715
    """
    further = 0
    for k in set(owners.tolist()):
        mine = np.flatnonzero(owners == k)
        further += connected_components(~apart[np.ix_(mine, mine)], directed=False)[0] - 1
    return float(score[np.arange(len(owners)), owners].sum() + further * np.log(FURTHER_SET))


def colours_apart(lab: np.ndarray) -> np.ndarray:
    """(n, n) which pairs of pieces' colours (Lab, NaN: unknown) lie
    :data:`SET_COLOUR_APART` or more apart; an unknown colour is apart from none.

    >>> colours_apart(np.array([[90.0, 0, 0], [60.0, 0, 0], [np.nan] * 3])).tolist()
    [[False, True, False], [True, False, False], [False, False, False]]
    """
    distance = np.linalg.norm(lab[:, None, :] - lab[None, :, :], axis=-1)
    return np.nan_to_num(distance, nan=0.0) >= SET_COLOUR_APART
