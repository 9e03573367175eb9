"""The pieces stage for the kit's outlined tokens and for the players' figures.

:class:`TokenReader` reads the pieces once :mod:`vision.reader` has located the board,
read the tiles and measured each cell's light. It works in named steps, each testable on
its own:

1. :meth:`TokenReader.evidence` (:class:`TokenEvidence`): the colours each cell could show
   (:meth:`TokenReader.candidates`), where the tokens lie on it (:func:`where_tokens_lie`),
   the colours of the core and trap rings sampled there, and what matches nothing learnt;
2. :func:`outlines`: which cells show a hunter's dark outline around their token;
3. :func:`token_confidence`: how sure each cell's reading is;
4. the kit's pieces: :meth:`TokenReader.kit_hunters` (core and outline, then
   :meth:`TokenReader.hunters_off_centre`), :meth:`TokenReader.kit_mammoth`,
   :meth:`TokenReader.kit_traps`; or the figures' (:meth:`TokenReader.figures`).

For each cell the reader looks at rings (see ``geometry.ZONES``) and a dense probe grid:
the core and trap rings tell the tokens' colours, and the probe grid tells where the
tokens lie and whether a hunter's dark outline ("rim") surrounds the core, looked for in
every direction around the token (:func:`outline_share`). The kit's tokens are told apart
by layout, not by one set of colours:

========================  ========  =======  ========
token(s) on the cell      core      rim      trap
========================  ========  =======  ========
nothing                   tile      tile     tile
hunter of colour k        k         rim      tile
trap of colour j          j / tile  j / tile j
hunter k on trap j        k         rim      j
mammoth                   mammoth   mammoth  mammoth
========================  ========  =======  ========

The players' own pieces (``calibration.pieces == "figures"``: pawns, meeples, a mammoth
figure, no outline) are read by :meth:`TokenReader.figures` instead: every probe point is
matched with the tile, the mammoth and each hunter colour, and a piece stands on the cell
whose *base disc* shows its colour. A standing piece leans away from the camera's foot on
the board (parallax): its top lands on the neighbouring cell's edge, never in that cell's
base disc (:func:`base_cell`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.hexgrid import CENTRE, NEIGHBOURS, NUM_CELLS

from .calibration import FIGURE_LAB_WEIGHTS, Calibration, median_zones
from .colour import DARK_LAB_WEIGHTS, TILE_CLASSES, lab_distance, margin_confidence, to_lab, trusted_gain_field
from .geometry import CELL_CENTRES, ZONE_OFFSETS, CellSampler, centroid_offsets

#: A zone whose colour is this far from every candidate is something foreign.
UNKNOWN_DISTANCE = 30.0
MAX_TRAPS_PER_COLOUR = 4
#: Share of the directions around a token in which its dark outline must be seen.
RIM_SHARE = 0.25
#: The outline is looked for between these radii around the token (tile circumradii),
#: in this many directions.
RIM_BAND = (0.12, 0.48)
RIM_SECTORS = 12
#: A hunter's core: the probe points this close to his middle (tile circumradii).
CORE_RADIUS = 0.1
#: The farthest a hunter's outline reaches from the cell's centre (its corners, put down
#: off-centre), in tile circumradii.
HUNTER_REACH = 0.55
#: Half-width of the cross printed on the centre tile: not a calibrated colour.
CROSS_HALF_WIDTH = 0.12
#: Share of trap-ring points that must show a player colour for a trap.
TRAP_SHARE = 0.35
#: Figures: a piece stands on the cell whose base disc (this radius, tile circumradii)
#: shows at least FIGURE_SHARE of its colour; the mammoth's base disc is wider.
FIGURE_BASE = 0.38
#: How far towards a neighbour a figure's top must be seen for that neighbour's base
#: disc to show its colour (1.73 between centres, less the base disc's 0.38 and the
#: head's own half-width; tile circumradii).
LEAN_REACH = 1.2
MAMMOTH_BASE = 0.5
FIGURE_SHARE = 0.15
MAMMOTH_SHARE = 0.2
#: Figures' traps: a trap-ring point this far from its tile votes for the nearest hue.
TRAP_UNLIKE_TILE = 15.0
HUE_WEIGHTS = np.array([0.15, 1.0, 1.0], np.float32)
#: A hunter on his own colour's plate: the plate's lightness spread (Lab L, P90 - P10)
#: is at least this, and this many times the other plates' of that colour.
STACK_SPREAD = 12.0
STACK_RATIO = 1.8
#: ... or the base disc (share of his colour) of one of his traps is at least
#: RING_STANDING and STACK_RATIO times his other traps' (counted as RING_BARE at least):
#: a figure standing in the middle of a ring trap (measured: 0.58-0.65, bare rings 0-0.21).
RING_STANDING = 0.3
RING_BARE = 0.1
#: A probe point is of a piece's colour when nearer it than the tile and within this.
FIGURE_MATCH = 30.0
#: Kit hunters beside others on one cell or on the mammoth's token (not centred on
#: their cell): a patch of at least this many probe points of the hunter's colour that
#: fills this share of the points within PATCH_CENTRE of its middle, with the outline
#: around it.
PATCH_POINTS = 5
PATCH_CENTRE = 0.13
PATCH_FILLED = 0.6
#: The mammoth's token under a hunter: this share of its trap ring still shows it.
MAMMOTH_UNDER = 0.45

_PROBE = ZONE_OFFSETS["probe"]
_OFF_CROSS = (np.abs(_PROBE[:, 0]) > CROSS_HALF_WIDTH) & (np.abs(_PROBE[:, 1]) > CROSS_HALF_WIDTH)
_NEAR_MIDDLE = np.hypot(_PROBE[:, 0], _PROBE[:, 1]) <= HUNTER_REACH
_PROBE_RADIUS = np.hypot(_PROBE[:, 0], _PROBE[:, 1])


@dataclass(frozen=True)
class Pieces:
    """What the pieces stage read: cells it could not read (``unreadable``, (37,) bool:
    something of no known colour over them), the mammoth's cell, ``{label: cell}``,
    ``{cell: label}`` and each cell's confidence."""
    unreadable: np.ndarray
    mammoth: int | None
    hunters: dict
    traps: dict
    confidence: np.ndarray


@dataclass(frozen=True)
class TokenEvidence:
    """What the kit's and the figures' pieces are read from, per cell (37 rows).

    Colours are CIE Lab. ``cands`` (37, 2+H, 3): tile, mammoth, each hunter colour under
    the cell's light; ``trap_cands`` the same with each player's trap colour; ``rim`` the
    outline's colour. ``probe`` (37, P, 3) the probe grid; ``d_dark`` its distances to the
    tile, mammoth, hunters and rim, lightness counting most. ``token_shift`` is where
    everything unlike the tile lies, ``hunter_shift`` where the outline's points do
    (board units from the cell's centre). ``core`` / ``trap`` are the rings' points
    sampled there (``core_median`` their median), ``d_core`` / ``d_trap`` the medians'
    distances to the candidates, ``k_core`` / ``k_trap`` the nearest. ``trap_pts`` are
    the trap ring's points' distances to the trap candidates, ``trap_votes`` (37, K) the
    share of them nearest each, ``plate_votes`` the same with the rim competing.
    ``unknown``: the core or trap ring shows something of no known colour.
    """
    cands: np.ndarray
    trap_cands: np.ndarray
    rim: np.ndarray
    probe: np.ndarray
    d_dark: np.ndarray
    token_shift: np.ndarray
    hunter_shift: np.ndarray
    core: np.ndarray
    core_median: np.ndarray
    trap: np.ndarray
    d_core: np.ndarray
    d_trap: np.ndarray
    k_core: np.ndarray
    k_trap: np.ndarray
    trap_pts: np.ndarray
    trap_votes: np.ndarray
    plate_votes: np.ndarray
    unknown: np.ndarray


def outline_share(rimness: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Share of directions around each token in which some probe point looks like the rim.

    ``rimness`` (37, n) is, per probe point, how much nearer it is to the rim colour than
    to anything else the token could show there; ``centres`` (37, 2) is where the token
    lies. A hunter's outline is a closed band, so it shows in every direction whatever
    its shape and wherever it was put down; a sample ring at fixed radii misses a
    square's sides or an off-centre token. Looking in directions rather than counting
    points keeps blur (which eats a thin band's points) from hiding it.

    >>> rim = np.full((NUM_CELLS, len(_PROBE)), -1.0)
    >>> ring = np.abs(np.hypot(*_PROBE.T) - 0.3) < 0.05
    >>> rim[5, ring] = 1.0
    >>> share = outline_share(rim, np.zeros((NUM_CELLS, 2)))
    >>> float(share[5]), float(share[6])
    (1.0, 0.0)
    """
    rel = _PROBE[None, :, :] - centres[:, None, :]
    radius = np.hypot(rel[..., 0], rel[..., 1])
    band = (radius >= RIM_BAND[0]) & (radius <= RIM_BAND[1])
    band[CENTRE] &= _OFF_CROSS
    sector = ((np.arctan2(rel[..., 1], rel[..., 0]) + np.pi) * (RIM_SECTORS / (2 * np.pi))).astype(int) % RIM_SECTORS
    onehot = (sector[..., None] == np.arange(RIM_SECTORS)) & band[..., None]          # (37, n, S)
    looked = onehot.any(axis=1)
    seen = (onehot & (rimness[..., None] > 0)).any(axis=1)
    return seen.sum(axis=1) / np.maximum(looked.sum(axis=1), 1)


def base_cell(cell: int, score: np.ndarray, leans: np.ndarray | None) -> int:
    """The cell a figure stands on, given the cell whose base disc shows most of his
    colour (``score``, per cell): a neighbour that also shows it, and whose figure's top
    would be seen over ``cell`` (the camera looks at it from that side), is where he stands.

    >>> top, foot = CENTRE, NEIGHBOURS[CENTRE][0]
    >>> score = np.zeros(NUM_CELLS); score[[top, foot]] = 0.4, 0.3
    >>> leans = np.zeros((NUM_CELLS, 2)); leans[foot] = CELL_CENTRES[top] - CELL_CENTRES[foot]
    >>> base_cell(top, score, leans) == foot, base_cell(top, score, None), base_cell(top, score, -leans) == top
    (True, 18, True)
    """
    if leans is None:
        return cell
    for n in NEIGHBOURS[cell]:
        if n is None or score[n] < FIGURE_SHARE / 2:
            continue
        step = CELL_CENTRES[cell] - CELL_CENTRES[n]
        lean = leans[n]
        reach = float(np.dot(lean, step) / np.linalg.norm(step))
        if reach >= LEAN_REACH and reach >= 0.8 * np.linalg.norm(lean):
            return int(n)
    return cell


def densest_middle(points: np.ndarray, radius: float = 0.18) -> np.ndarray:
    """The middle of the densest patch among ``points`` (n, 2): a token's colour is packed
    where it lies, while the same colour's odd points in textured tile art are scattered
    (a median of them all would land between the two).

    >>> pts = np.array([[0.4, 0.1], [0.45, 0.15], [0.5, 0.1], [0.45, 0.05], [-0.5, -0.4], [0.0, -0.6]])
    >>> densest_middle(pts).round(2).tolist()
    [0.45, 0.1]
    """
    gap = np.hypot(points[:, None, 0] - points[None, :, 0], points[:, None, 1] - points[None, :, 1])
    seed = points[int(np.argmax((gap <= radius).sum(axis=1)))]
    return points[np.hypot(*(points - seed).T) <= radius].mean(axis=0)


def _outline_around(rimness_cell: np.ndarray, middle: np.ndarray, cell: int) -> float:
    """:func:`outline_share` of one cell's probe points around ``middle``."""
    rel = _PROBE - middle
    radius = np.hypot(rel[:, 0], rel[:, 1])
    band = (radius >= RIM_BAND[0]) & (radius <= RIM_BAND[1])
    if cell == CENTRE:
        band &= _OFF_CROSS
    sector = ((np.arctan2(rel[:, 1], rel[:, 0]) + np.pi) * (RIM_SECTORS / (2 * np.pi))).astype(int) % RIM_SECTORS
    looked = np.unique(sector[band])
    seen = np.unique(sector[band & (rimness_cell > 0)])
    return seen.size / max(looked.size, 1)


def where_tokens_lie(probe: np.ndarray, cands: np.ndarray, rim: np.ndarray):
    """``(token_shift, hunter_shift, d_dark)``: where on each cell everything unlike the
    tile lies (it pulls the trap and mammoth rings), where the hunter's core and outline
    lie (rim-coloured points alone place them), and the probe points' distances to tile,
    mammoth, hunters and rim, lightness first (blur lightens a thin dark band and tints
    it). ``probe`` (37, P, 3), ``cands`` (37, K, 3) and ``rim`` (37, 3) are Lab.

    >>> cands = np.zeros((NUM_CELLS, 3, 3)); cands[:, :, 0] = [60, 40, 50]
    >>> probe = np.repeat(cands[:, :1], len(_PROBE), axis=1)
    >>> probe[5, np.hypot(*(_PROBE - [0.2, 0.0]).T) <= 0.15] = [50, 60, 40]   # a red token
    >>> token, _, d_dark = where_tokens_lie(probe, cands, np.full((NUM_CELLS, 3), 10.0))
    >>> bool(token[5, 0] > 0.1), float(np.abs(token[6]).max()), d_dark.shape[2]
    (True, 0.0, 4)
    """
    tile_here = cands[:, :1, :]
    token_shift = centroid_offsets(np.clip(lab_distance(probe, tile_here) - 12, 0, 30), 30 * 6)
    d_dark = lab_distance(probe[:, :, None, :], np.concatenate([cands, rim[:, None, :]], axis=1)[:, None],
                          DARK_LAB_WEIGHTS)
    # A point of the outline is more like the rim than like the tile or any hunter
    # colour. The mammoth does not compete: a dark mammoth would win the blurred
    # outline's points. Only near the middle: a hunter's outline lies within
    # HUNTER_REACH of the cell's centre, dark tile gaps and the board's edge further out.
    contest = d_dark.copy()
    contest[:, :, 1] = np.inf
    rim_votes = ((contest.argmin(axis=2) == d_dark.shape[2] - 1) & _NEAR_MIDDLE).astype(np.float32)
    hunter_shift = centroid_offsets(rim_votes, 6)
    few = rim_votes.sum(axis=1) < 6
    hunter_shift[few] = token_shift[few]
    return token_shift, hunter_shift, d_dark


def outlines(ev: TokenEvidence) -> tuple[np.ndarray, np.ndarray]:
    """``(rim_share, has_rim)``: the share of directions around each cell's token in which
    a hunter's outline is seen, and whether that is enough for one.

    A probe point looks like the rim when it is nearer the rim colour than both the tile
    and the colour seen in the core (which is also what a trap plate of that colour shows
    around a hunter standing on it, so a hunter on his own trap is told from the trap
    alone by his outline only). Directions are taken around the centre of everything on
    the cell, which for a lone trap is the plate's centre: no outline can be found on a
    plain plate.
    """
    d_core_colour = np.take_along_axis(ev.d_dark, ev.k_core[:, None, None], axis=2)[..., 0]
    rimness = np.minimum(ev.d_dark[:, :, 0], d_core_colour) - ev.d_dark[:, :, -1]
    rim_share = outline_share(rimness, ev.token_shift)
    has_rim = rim_share >= RIM_SHARE
    # The cross's print in a dark colour shows outline-like points all over its cell;
    # a hunter's outline surrounds a core of his colour, never itself. (Only there:
    # beside a near-black hunter, another's core may well look like an outline.)
    mid = np.hypot(*(_PROBE - ev.hunter_shift[CENTRE]).T) <= CORE_RADIUS
    if (rimness[CENTRE, mid] > 0).mean() >= 0.5:
        has_rim[CENTRE] = False
    return rim_share, has_rim


def token_confidence(ev: TokenEvidence, rim_share: np.ndarray, readable: np.ndarray) -> np.ndarray:
    """Each cell's confidence (0..1): the smallest of the core's and the trap ring's
    colour margins, the outline's share against :data:`RIM_SHARE` (only where the core
    shows a hunter's colour does the outline decide anything) and the trap ring's player
    share against :data:`TRAP_SHARE`; 0 where the cell is not readable."""
    def conf_of(d):
        part = np.sort(d, axis=1)
        return margin_confidence(part[:, 0], part[:, 1])

    rim_conf = np.where(ev.k_core >= 2, np.clip(np.abs(rim_share - RIM_SHARE) * 3, 0, 1), 1.0)
    trap_share = ev.trap_votes[:, 2:].max(axis=1) if ev.trap_votes.shape[1] > 2 else np.zeros(NUM_CELLS)
    trap_conf = np.clip(np.abs(trap_share - TRAP_SHARE) * 4, 0, 1)
    cell_conf = np.minimum(np.minimum(conf_of(ev.d_core), rim_conf), np.minimum(conf_of(ev.d_trap), trap_conf))
    return np.where(readable, cell_conf, 0.0)


def lightness_spread(probe_cell, cands_cell, idx) -> float:
    """P90 - P10 of the lightness of a cell's points of hue ``idx`` (0 if few)."""
    near = probe_cell[_PROBE_RADIUS <= 0.6]
    hue = lab_distance(near[:, None, :], cands_cell[None, 1:, :], HUE_WEIGHTS).argmin(axis=1) + 1
    lightness = near[hue == idx, 0]
    if lightness.size < 12:
        return 0.0
    lo, hi = np.percentile(lightness, [10, 90])
    return float(hi - lo)


def figure_mammoth(probe, cands, readable, share_wide=None) -> int | None:
    """The cell whose wide base disc shows most of the mammoth's colour, if enough."""
    if share_wide is None:
        # Against the hunters' colours too: a trap plate, flat and lit unlike the
        # kit's disc its colour was learnt from, may still be nearer the mammoth's
        # than the tile's, but not nearer than its own player's.
        d = lab_distance(probe[:, :, None, :], cands[:, None, :, :], FIGURE_LAB_WEIGHTS)
        wide = _PROBE_RADIUS <= MAMMOTH_BASE
        mine = (d.argmin(axis=2) == 1) & (d[:, :, 1] < FIGURE_MATCH) & wide
        share = mine.sum(axis=1) / wide.sum()
    else:
        share = share_wide[:, 1]
    score = np.where(readable, share, 0.0)
    return int(np.argmax(score)) if score.max() >= MAMMOTH_SHARE else None


class TokenReader:
    """Reads the kit's tokens or the players' figures with one set's calibration."""

    def __init__(self, calibration: Calibration, sampler: CellSampler | None = None):
        self.calibration = calibration
        self.sampler = sampler or CellSampler()
        self.labels = list(calibration.hunters)
        # Candidate reflectances for tokens: mammoth, then each hunter colour.
        self._token_refl = np.array([calibration.mammoth] + [calibration.hunters[k] for k in self.labels])
        self._rim_refl = np.array(calibration.rim)
        self._tile_refl = np.array([calibration.tile_colours[k] for k in TILE_CLASSES])
        # Traps: each player's own colour when setup showed one, else the hunter's.
        self._trap_refl = np.array([calibration.mammoth] + [calibration.traps.get(k, calibration.hunters[k])
                                                            for k in self.labels])

    def piece_light(self, gain: np.ndarray, occluded: np.ndarray, classes: np.ndarray) -> np.ndarray:
        """(37, 3) the light the pieces on each cell are seen under, from each cell's light
        ``gain`` measured on its tile ring (:meth:`vision.reader.BoardReader.light`).

        How bright the light is, a cell's ring says well; its colour less so where its
        tile reflects little of a channel (grass's red and blue): there a small difference
        in the print (a lighter, yellower patch of grass) is a large change of gain, and
        relit with it a piece's colour strays far from what the camera sees. Each channel
        keeps the cell's own departure from the light over the board
        (:func:`vision.colour.fit_gain_field`) in proportion to how much of it the tile
        reflects; the rest of its departure is the cell's overall brightness.

        >>> reader = TokenReader.__new__(TokenReader)
        >>> reader._tile_refl = np.array([[0.2, 0.45, 0.2], [0.75, 0.8, 0.85], [0.43, 0.4, 0.42]])
        >>> gain = np.ones((NUM_CELLS, 3)); gain[5] = [1.4, 1.1, 1.1]     # a yellower patch
        >>> gain[6] = [0.5, 0.5, 0.5]                                    # a shadow
        >>> light = reader.piece_light(gain, np.zeros(NUM_CELLS, bool), np.zeros(NUM_CELLS, int))
        >>> light[5].round(2).tolist(), light[6].round(2).tolist(), light[7].round(2).tolist()
        ([1.21, 1.1, 1.13], [0.51, 0.5, 0.5], [1.01, 1.0, 1.0])
        """
        refl = self._tile_refl[classes]
        trust = (refl / refl.max(axis=1, keepdims=True)) ** 2
        field = trusted_gain_field(gain, ~occluded, trust)
        departure = np.log(gain / field)
        brightness = (departure * trust).sum(axis=1, keepdims=True) / trust.sum(axis=1, keepdims=True)
        return field * np.exp(brightness + (departure - brightness) * trust)

    def pieces_lab(self, gain: np.ndarray) -> np.ndarray:
        """(37, 1+H, 3) Lab: the mammoth's and each hunter's colour under each cell's light."""
        return to_lab(np.clip(self._token_refl[None, :, :] * gain[:, None, :], 0, 1))

    def candidates(self, tile_lab: np.ndarray, gain: np.ndarray):
        """``(cands, trap_cands, rim)``: what each cell could show (Lab, see
        :class:`TokenEvidence`) under its light ``gain`` (37, 3), its tile being ``tile_lab``."""
        tile_here = tile_lab[:, None, :]
        cands = np.concatenate([tile_here, self.pieces_lab(gain)], axis=1)                 # tile, mammoth, hunters
        rim = to_lab(np.clip(self._rim_refl[None, :] * gain, 0, 1))                         # (37, 3)
        if self.calibration.traps:
            trap_cands = np.concatenate(
                [tile_here, to_lab(np.clip(self._trap_refl[None, :, :] * gain[:, None, :], 0, 1))], axis=1)
        else:
            trap_cands = cands
        return cands, trap_cands, rim

    def evidence(self, frame, homography, probe_rgb, tile_lab, gain) -> TokenEvidence:
        """Everything the pieces are read from (:class:`TokenEvidence`): the candidates,
        where the tokens lie (from the probe grid ``probe_rgb``, (37, P, 3) RGB), and the
        core and trap rings sampled there from ``frame``."""
        cands, trap_cands, rim = self.candidates(tile_lab, gain)
        probe = to_lab(probe_rgb)
        token_shift, hunter_shift, d_dark = where_tokens_lie(probe, cands, rim)
        second, _ = self.sampler.sample(frame, homography, ("core", "trap"),
                                        {"core": hunter_shift, "trap": token_shift})
        med = median_zones(second)
        core, trap, core_median = to_lab(second["core"]), to_lab(second["trap"]), to_lab(med["core"])
        d_core = lab_distance(core_median[:, None, :], cands)
        d_trap = lab_distance(to_lab(med["trap"])[:, None, :], trap_cands)
        # Trap ring, point by point: a ring trap shows the tile through its hole and a
        # hunter on it may lean over part of the ring, so a median would blend them.
        trap_pts = lab_distance(trap[:, :, None, :], trap_cands[:, None, :, :])            # (37, n, K)
        n_k = cands.shape[1]
        trap_votes = np.stack([(trap_pts.argmin(axis=2) == k).mean(axis=1) for k in range(n_k)], axis=1)
        trap_rim = lab_distance(trap, rim[:, None, :])
        # Hunters' outlines reach the trap ring when they stand off the middle; a plate
        # is only what shows there beyond them (a near-black plate is not the outline).
        nearest_or_rim = np.concatenate([trap_pts, trap_rim[:, :, None]], axis=2).argmin(axis=2)
        plate_votes = np.stack([(nearest_or_rim == k).mean(axis=1) for k in range(n_k)], axis=1)
        unknown = self._unknown(core, core_median, trap_pts, trap_rim, cands, trap_cands, rim)
        return TokenEvidence(cands, trap_cands, rim, probe, d_dark, token_shift, hunter_shift, core, core_median,
                             trap, d_core, d_trap, d_core.argmin(1), d_trap.argmin(1), trap_pts, trap_votes,
                             plate_votes, unknown)

    def _unknown(self, core, core_median, trap_pts, trap_rim, cands, trap_cands, rim) -> np.ndarray:
        """Cells whose core or trap ring shows something matching nothing known (a finger
        tip, a die...). The thin rim ring blends colours, so it is left out. The outline
        is known too: between two hunters side by side the core shows it. Between three of
        them the core's median blends colours: it is unknown only if its points are too.
        A plate of a player's own trap colour fills the core too."""
        trap_unknown = (np.minimum(trap_pts.min(axis=2), trap_rim) > UNKNOWN_DISTANCE).mean(axis=1) > 0.5
        known = np.concatenate([cands, rim[:, None, :]] + ([trap_cands[:, 2:]] if self.calibration.traps else []),
                               axis=1)
        d_core_known = lab_distance(core_median[:, None, :], known).min(axis=1)
        core_pts = lab_distance(core[:, :, None, :], known[:, None, :, :]).min(axis=2)
        core_unknown = (d_core_known > UNKNOWN_DISTANCE) & ((core_pts > UNKNOWN_DISTANCE).mean(axis=1) > 0.5)
        return core_unknown | trap_unknown

    # -- the kit's tokens -----------------------------------------------------------------
    def kit(self, ev: TokenEvidence, occluded: np.ndarray, classes: np.ndarray) -> Pieces:
        """The kit's tokens (a standing mammoth figure among them when setup learnt one)."""
        unreadable = ev.unknown.copy()
        # The cross's printed mark is not a calibrated colour: only its tile ring counts.
        unreadable[CENTRE] = False
        readable = ~(occluded | unreadable)
        rim_share, has_rim = outlines(ev)
        confidence = token_confidence(ev, rim_share, readable)
        figure = self.calibration.mammoth_kind == "figure"
        # A standing figure among the kit's tokens does not cover its cell.
        mammoth = figure_mammoth(ev.probe, ev.cands, readable) if figure else None
        hunters, patches = self.kit_hunters(ev, readable, rim_share, has_rim, mammoth if figure else None)
        if not figure:
            mammoth = self.kit_mammoth(ev, readable, has_rim, hunters)
        traps = self.kit_traps(ev, readable, classes, mammoth, hunters, patches, has_rim)
        return Pieces(unreadable, mammoth, hunters, traps, confidence)

    def kit_hunters(self, ev: TokenEvidence, readable, rim_share, has_rim, figure_mammoth_cell=None):
        """``(hunters, patches)``: a hunter colour in the core inside an outline, one cell
        per colour (never the standing mammoth figure's cell); then those not found so,
        off the middle of their cell (:meth:`hunters_off_centre`, ``patches``)."""
        hunters: dict[str, int] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            cells = np.flatnonzero(readable & (ev.k_core == idx) & has_rim)
            if self.calibration.mammoth_kind == "figure":
                cells = cells[cells != (figure_mammoth_cell if figure_mammoth_cell is not None else -1)]
            if cells.size:
                hunters[label] = int(cells[np.argmin(ev.d_core[cells, idx] - rim_share[cells] * 20)])
        patches = {}
        if len(hunters) < len(self.labels):
            patches = self.hunters_off_centre(ev.d_dark, readable, hunters, ev.plate_votes)
            hunters.update({label: cell for label, (cell, _) in patches.items()})
        return hunters, patches

    def kit_mammoth(self, ev: TokenEvidence, readable, has_rim, hunters) -> int | None:
        """The kit's mammoth token covers its cell's trap ring; its core shows the mammoth,
        or a hunter standing on the token. Hunters side by side show their outline between
        them, dark like some mammoths, but hide the trap ring's."""
        with_hunter = np.isin(np.arange(NUM_CELLS), list(hunters.values()))
        alone = (ev.k_core == 1) & (ev.k_trap == 1)
        cells = np.flatnonzero(readable & (ev.trap_votes[:, 1] >= MAMMOTH_UNDER)
                               & (alone | with_hunter | ((ev.k_core >= 2) & has_rim)))
        if not cells.size:
            return None
        score = ev.trap_votes[cells, 1] - 0.002 * (ev.d_core[cells, 1] + ev.d_trap[cells, 1])
        return int(cells[np.argmax(score)])

    def kit_traps(self, ev: TokenEvidence, readable, classes, mammoth, hunters, patches, has_rim) -> dict[int, str]:
        """A player colour on enough of the trap ring, at most 4 per colour, on grass only
        (the rules): on snow or the cross, a player colour there is a hunter's (two side
        by side reach it). Where hunters stand off the middle (side by side, on the
        mammoth) only the ring's points beyond them can show a trap under them. A plate
        smaller than the trap ring (``has_rim``: the outlines seen) shows its colour in
        the core where no hunter stands, with no outline around it (a kit hunter always
        has his), or with one while that player's hunter is read on another cell (a
        player has one hunter; a plate in a colour near the outline's looks outlined)."""
        trap_votes = self._votes_beyond_hunters(ev, hunters, patches)
        best_colour = 2 + trap_votes[:, 2:].argmax(axis=1) if trap_votes.shape[1] > 2 else np.zeros(NUM_CELLS, int)
        grass = classes == TILE_CLASSES.index("grass")
        not_mammoth = np.arange(NUM_CELLS) != (mammoth if mammoth is not None else -1)
        # (Only where no colour holds the trap ring: a printed trap's core shows its print.)
        ringed_any = trap_votes[np.arange(NUM_CELLS), best_colour] >= TRAP_SHARE
        plate = ~ringed_any & ~np.isin(np.arange(NUM_CELLS), list(hunters.values()))
        traps: dict[int, str] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            ringed = (best_colour == idx) & (trap_votes[:, idx] >= TRAP_SHARE)
            core_plate = plate & (ev.k_core == idx) & (~has_rim | (label in hunters))
            cells = np.flatnonzero(readable & grass & not_mammoth & (ringed | core_plate))
            cells = cells[np.argsort(-trap_votes[cells, idx])][:MAX_TRAPS_PER_COLOUR]
            for c in cells:
                traps[int(c)] = label
        return traps

    def _votes_beyond_hunters(self, ev: TokenEvidence, hunters, patches) -> np.ndarray:
        """The trap ring's votes, counted on cells with hunters off the middle only beyond
        them (each lies where the points of his colour are)."""
        trap_votes = ev.trap_votes.copy()
        off_middle = {cell for cell in hunters.values() if list(hunters.values()).count(cell) > 1}
        off_middle |= {cell for cell, _ in patches.values()}
        if not off_middle:
            return trap_votes
        near = ev.d_dark.argmin(axis=2)
        ring = ZONE_OFFSETS["trap"]
        beyond = {}
        for label, cell in hunters.items():
            if cell not in off_middle:
                continue
            mine = (near[cell] == 2 + self.labels.index(label)) & _NEAR_MIDDLE
            middle = patches[label][1] if label in patches else (
                np.median(_PROBE[mine], axis=0) if mine.any() else ev.hunter_shift[cell])
            away = np.hypot(*(ring + ev.token_shift[cell] - middle).T) > HUNTER_REACH - 0.1
            beyond[cell] = beyond.get(cell, True) & away
        for cell, keep in beyond.items():
            nearest = ev.trap_pts[cell].argmin(axis=1)
            trap_votes[cell] = [(nearest[keep] == k).mean() if keep.sum() >= 6 else 0.0
                                for k in range(trap_votes.shape[1])]
        return trap_votes

    def hunters_off_centre(self, d_dark, readable, found, trap_votes) -> dict[str, tuple]:
        """Kit hunters the core rings missed, ``{label: (cell, middle)}``: two or three
        side by side on one cell, or one standing off the middle of the mammoth's token
        (``middle``: where his patch lies, board units from the cell's centre).

        Each is a compact patch of his colour, wherever it lies on the cell, with the dark
        outline seen around the patch's middle. A trap plate of that colour (under another
        hunter or alone) is not compact: its colour surrounds the middle instead.
        ``d_dark`` (37, P, K+1) are the probe points' distances to tile, mammoth, hunter
        colours and rim, lightness counting most. A cell whose trap ring shows his colour
        holds his plate: his colour there is the plate's (standing on it, centred, he is
        found by the core rings).
        """
        near = d_dark.argmin(axis=2)
        within = _PROBE_RADIUS <= HUNTER_REACH + 0.2
        out: dict[str, tuple] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            if label in found:
                continue
            mine = (near == idx) & (d_dark[:, :, idx] < UNKNOWN_DISTANCE) & within        # (37, P)
            count = mine.sum(axis=1)
            cells = np.flatnonzero(readable & (count >= PATCH_POINTS) & (trap_votes[:, idx] < TRAP_SHARE))
            best, best_score = None, 0.0
            for cell in cells:
                # (The cross's print can pack a hunter's colour on its arms: there the
                # patch is taken whole.)
                pts = _PROBE[mine[cell]]
                middle = np.median(pts, axis=0) if cell == CENTRE else densest_middle(pts)
                # A hunter's colour fills the middle of his patch; a plate's colour around
                # another hunter leaves it to him.
                centre = np.hypot(*(_PROBE - middle).T) <= PATCH_CENTRE
                if not centre.any() or mine[cell, centre].mean() < PATCH_FILLED:
                    continue
                rimness = (np.minimum(d_dark[cell, :, 0], d_dark[cell, :, idx]) - d_dark[cell, :, -1])
                share = float(_outline_around(rimness, middle, cell))
                if share >= RIM_SHARE and share * count[cell] > best_score:
                    best, best_score = (int(cell), middle), share * count[cell]
            if best is not None:
                out[label] = best
        return out

    # -- the players' figures -------------------------------------------------------------
    def figures(self, ev: TokenEvidence, occluded: np.ndarray, leans: np.ndarray | None = None) -> Pieces:
        """Pieces of any shape (pawns, meeples, a mammoth figure): each on the cell whose
        base disc shows its colour; ``leans`` (37, 2) where a tall figure's top is seen
        from its base (board units, :func:`vision.reader.figure_leans`). Shading on a
        piece in relief changes lightness most, so lightness counts little
        (``FIGURE_LAB_WEIGHTS``)."""
        probe, cands = ev.probe, ev.cands
        d = lab_distance(probe[:, :, None, :], cands[:, None, :, :], FIGURE_LAB_WEIGHTS)   # (37, P, K)
        best = d.argmin(axis=2)
        match = d.min(axis=2) < FIGURE_MATCH
        n_k = cands.shape[1]
        base = _PROBE_RADIUS <= FIGURE_BASE
        wide = _PROBE_RADIUS <= MAMMOTH_BASE
        share_base = np.stack([((best == k) & match & base).sum(axis=1) for k in range(n_k)], axis=1) / base.sum()
        share_wide = np.stack([((best == k) & match & wide).sum(axis=1) for k in range(n_k)], axis=1) / wide.sum()
        # Something of no known colour over much of the cell (a hand, a die). (A piece
        # of a colour not learnt yet, put down at setup, is found by what changed:
        # :func:`vision.calibration.moved_between`.)
        unknown = ((~match) & wide).sum(axis=1) / wide.sum() > 0.5
        unknown[CENTRE] = False
        readable = ~(occluded | unknown)
        mammoth = figure_mammoth(probe, cands, readable, share_wide)
        trap_votes = self.figure_trap_votes(ev)
        trap_colour = 2 + trap_votes[:, 2:].argmax(axis=1) if n_k > 2 else np.zeros(NUM_CELLS, int)
        trap_share = trap_votes[:, 2:].max(axis=1) if n_k > 2 else np.zeros(NUM_CELLS)
        has_trap = trap_share >= TRAP_SHARE
        hunters = self.figure_hunters(share_base, readable, mammoth, has_trap, trap_colour, leans)
        traps = self.figure_traps(ev, share_base, readable, mammoth, has_trap, trap_colour, trap_votes, hunters)
        piece = share_base[:, 2:].max(axis=1) if n_k > 2 else np.zeros(NUM_CELLS)
        confidence = np.minimum(np.clip(np.abs(trap_share - TRAP_SHARE) * 4, 0, 1),
                                np.clip(np.abs(piece - FIGURE_SHARE) * 6, 0, 1))
        return Pieces(unknown, mammoth, hunters, traps, np.where(readable, confidence, 0.0))

    @staticmethod
    def figure_trap_votes(ev: TokenEvidence) -> np.ndarray:
        """(37, K) traps by hue: a trap-ring point unlike the tile votes for the piece
        colour of nearest hue. The colour was learnt from a hunter in relief, whose
        shading pulls its lightness (and a little its saturation) from the flat plate's."""
        n_k = ev.cands.shape[1]
        unlike_tile = lab_distance(ev.trap, ev.cands[:, None, 0, :]) > TRAP_UNLIKE_TILE
        hue = lab_distance(ev.trap[:, :, None, :], ev.trap_cands[:, None, 1:, :], HUE_WEIGHTS).argmin(axis=2) + 1
        return np.stack([np.zeros(NUM_CELLS)] + [(unlike_tile & (hue == k)).mean(axis=1) for k in range(1, n_k)],
                        axis=1)

    def figure_hunters(self, share_base, readable, mammoth, has_trap, trap_colour, leans) -> dict[str, int]:
        """Each hunter on the cell whose base disc shows most of his colour, if enough
        (:func:`base_cell` for a tall one seen over a neighbour). A plate of the hunter's
        own colour fills the base disc and the trap ring alike: that is a trap (a hunter
        on his own trap is found by :meth:`figure_traps`)."""
        hunters: dict[str, int] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            own_plate = has_trap & (trap_colour == idx)
            score = np.where(readable & ~own_plate, share_base[:, idx], 0.0)
            if mammoth is not None:
                score[mammoth] = 0.0
            if score.max() >= FIGURE_SHARE:
                hunters[label] = base_cell(int(np.argmax(score)), score, leans)
        return hunters

    def figure_traps(self, ev, share_base, readable, mammoth, has_trap, trap_colour, trap_votes,
                     hunters) -> dict[int, str]:
        """Traps by the hue of their trap ring (at most 4 per colour); a hunter seen nowhere
        else is looked for on his own plates (added to ``hunters``)."""
        traps: dict[int, str] = {}
        for h, label in enumerate(self.labels):
            idx = 2 + h
            cells = np.flatnonzero(readable & (trap_colour == idx) & has_trap
                                   & (np.arange(NUM_CELLS) != (mammoth if mammoth is not None else -1)))
            cells = cells[np.argsort(-trap_votes[cells, idx])][:MAX_TRAPS_PER_COLOUR]
            for c in cells:
                traps[int(c)] = label
            if label not in hunters and cells.size:
                on_plate = self.figure_on_own_plate(ev, share_base, cells, idx)
                if on_plate is not None:
                    hunters[label] = on_plate
        return traps

    @staticmethod
    def figure_on_own_plate(ev: TokenEvidence, share_base, cells, idx) -> int | None:
        """The plate among ``cells`` (of colour ``idx``) a figure stands on, if one shows
        him. A piece in relief shades its sides and casts a shadow on the plate, so that
        plate's colour varies in lightness far more than a lone one's; and a ring trap
        leaves its middle bare: a base disc there full of his colour, where his other
        rings show little, is him standing in one."""
        spread = np.array([lightness_spread(ev.probe[c], ev.cands[c], idx) for c in cells])
        best = int(np.argmax(spread))
        others = np.delete(spread, best)
        if spread[best] >= STACK_SPREAD and (not others.size or spread[best] >= STACK_RATIO * np.median(others)):
            return int(cells[best])
        base = share_base[cells, idx]
        best = int(np.argmax(base))
        others = np.delete(base, best)
        if (others.size and base[best] >= RING_STANDING
                and base[best] >= STACK_RATIO * max(float(np.median(others)), RING_BARE)):
            return int(cells[best])
        return None
