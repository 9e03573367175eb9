"""The map validator: every reason a map file is not a playable valley, each named.

A map that reads (:func:`vallee.board.read_map_file`) may still be wrong: a region split
in two, a letter missing, a river edge between cells that do not touch, a compass with
one direction twice. :func:`map_problems` lists them all, in the order of the map
file's fields, so that a group entering its own board fixes everything in one pass.
What each check stands for is in docs/vallee-api.md, «What the validator checks».

>>> from vallee.board import shipped_map_json
>>> map_problems(shipped_map_json("sample"))
[]
>>> broken = shipped_map_json("sample")
>>> broken["cells"][0]["letter"] = None
>>> [(p.code, p.where) for p in map_problems(broken)]
[('letter_missing', 'letters.A'), ('letter_tokens', 'letters.A')]
"""

from __future__ import annotations

from collections import Counter

from .board import MapReading, Valley, edge, read_map_file
from .core import (
    FOREST,
    LAKE,
    MOUNTAIN,
    PLAIN,
    REGION_TERRAIN,
    SPECIES,
    TERRAIN_FR,
    VOLCANO,
    Cell,
    cell_name,
    neighbours_of,
    reading_key,
)
from .problems import Problem
from .tokens import DEFAULT_TOKENS, LETTERS, LOWLAND_LETTERS, MOUNTAIN_LETTERS, letter_counts


def map_problems(obj, tokens=DEFAULT_TOKENS) -> list[Problem]:
    """Every problem of a map file's JSON; raises :class:`~vallee.core.BadRequest` if malformed."""
    reading = read_map_file(obj)
    valley = reading.valley
    found: list[Problem] = []
    for check in (_cells, _connected, _regions, _letters, _rivers, _lake, _volcanoes, _compass, _halves):
        found.extend(check(valley, reading))
    found.extend(_tokens(valley, tokens))
    return found


def _connected_parts(cells: set) -> list[set]:
    parts, seen = [], set()
    for start in sorted(cells, key=reading_key):
        if start in seen:
            continue
        part, todo = set(), [start]
        while todo:
            c = todo.pop()
            if c in part:
                continue
            part.add(c)
            todo.extend(n for n in neighbours_of(c) if n in cells and n not in part)
        seen |= part
        parts.append(part)
    return parts


def _names(cells) -> str:
    return ", ".join(cell_name(c) for c in sorted(cells, key=reading_key))


def _cells(valley: Valley, reading: MapReading):
    for cell in dict.fromkeys(reading.duplicate_cells):
        yield Problem("cell_duplicate", f"cells.{cell_name(cell)}", f"cell {cell_name(cell)} is listed more than once",
                      f"la case {cell_name(cell)} figure plusieurs fois")


def _connected(valley: Valley, reading: MapReading):
    parts = _connected_parts(set(valley.terrain))
    if len(parts) > 1:
        yield Problem("board_disconnected", "cells",
                      f"the board falls into {len(parts)} separate pieces; cells {_names(parts[1])} are cut off",
                      f"le plateau est en {len(parts)} morceaux ; les cases {_names(parts[1])} sont isolées")


def _regions(valley: Valley, reading: MapReading):
    by_region: dict[tuple[str, int], set] = {}
    for cell in valley.cells:
        terrain = valley.terrain[cell]
        number = valley.region.get(cell)
        name = cell_name(cell)
        if terrain == LAKE:
            if number is not None:
                yield Problem("region_on_lake", f"cells.{name}.region", f"lake cell {name} has a region number",
                              f"la case de lac {name} porte un numéro de région")
            continue
        if number is None:
            yield Problem("region_missing", f"cells.{name}.region",
                          f"{terrain} cell {name} belongs to no region (every land cell needs one, 1 to 6)",
                          f"la case de {TERRAIN_FR[terrain]} {name} n'appartient à aucune région (1 à 6)")
        elif not 1 <= number <= 6:
            yield Problem("region_range", f"cells.{name}.region", f"cell {name}: region {number} is not 1 to 6",
                          f"case {name} : la région {number} n'est pas entre 1 et 6")
        else:
            by_region.setdefault((REGION_TERRAIN[terrain], number), set()).add(cell)
    for kind in (PLAIN, FOREST, MOUNTAIN):
        for number in range(1, 7):
            cells = by_region.get((kind, number))
            where = f"regions.{kind}.{number}"
            if not cells:
                yield Problem("region_absent", where, f"no {kind} region number {number} (the die needs all six)",
                              f"pas de région de {TERRAIN_FR[kind]} numéro {number} (le dé les demande toutes)")
            elif len(_connected_parts(cells)) > 1:
                yield Problem("region_split", where, f"{kind} region {number} is not in one piece: {_names(cells)}",
                              f"la région de {TERRAIN_FR[kind]} {number} n'est pas d'un seul tenant : {_names(cells)}")


def _letters(valley: Valley, reading: MapReading):
    seen: dict[str, list[Cell]] = {}
    for cell, letter in valley.letter.items():
        seen.setdefault(letter, []).append(cell)
    for letter, cells in sorted(seen.items()):
        names = _names(cells)
        where = f"letters.{letter}"
        if letter not in LETTERS:
            yield Problem("letter_unknown", where, f"letter {letter!r} on {names} is not one of A-F, a-l",
                          f"la lettre {letter!r} en {names} n'est pas l'une de A-F, a-l")
            continue
        if len(cells) > 1:
            yield Problem("letter_duplicate", where, f"letter {letter} is on several cells: {names}",
                          f"la lettre {letter} est sur plusieurs cases : {names}")
        for cell in cells:
            name, terrain = cell_name(cell), valley.terrain[cell]
            if not valley.on_perimeter(cell):
                yield Problem("letter_not_edge", where, f"letter {letter} is on {name}, not on the board's edge",
                              f"la lettre {letter} est en {name}, pas au bord du plateau")
            wanted = (MOUNTAIN, VOLCANO) if letter in MOUNTAIN_LETTERS else (PLAIN, FOREST)
            if terrain not in wanted:
                yield Problem("letter_terrain", where,
                              f"letter {letter} is on {terrain} cell {name}; "
                              + ("capitals go on mountains" if letter in MOUNTAIN_LETTERS else
                                 "lowercase letters go on plains or forests"),
                              f"la lettre {letter} est sur la case de {TERRAIN_FR[terrain]} {name} ; "
                              + ("les majuscules vont en montagne" if letter in MOUNTAIN_LETTERS else
                                 "les minuscules vont en plaine ou en forêt"))
    for letter in LETTERS:
        if letter not in seen:
            yield Problem("letter_missing", f"letters.{letter}", f"no cell carries the letter {letter}",
                          f"aucune case ne porte la lettre {letter}")


def _vertices(a: Cell, b: Cell) -> list[frozenset]:
    """The two corners of the edge between adjacent cells, each named by its three cells."""
    common = set(neighbours_of(a)) & set(neighbours_of(b))
    return [frozenset((a, b, c)) for c in common]


def _rivers(valley: Valley, reading: MapReading):
    numbers = Counter(number for number, _, _ in reading.raw_rivers)
    for number, count in sorted(numbers.items()):
        if count > 1:
            yield Problem("river_number_duplicate", f"rivers.{number}", f"river number {number} is used {count} times",
                          f"le numéro de rivière {number} est utilisé {count} fois")
    if sorted(numbers) != list(range(1, len(numbers) + 1)) or not 1 <= len(numbers) <= 6:
        yield Problem("river_numbers", "rivers",
                      f"rivers must be numbered 1, 2, … up to at most 6 (the die picks them); got {sorted(numbers)}",
                      f"les rivières doivent être numérotées 1, 2, … jusqu'à 6 au plus (le dé les désigne) ; "
                      f"trouvé {sorted(numbers)}")
    owner: dict[frozenset, int] = {}
    for i, (number, edges, joins) in enumerate(reading.raw_rivers):
        where = f"rivers.{i}"
        good = []
        for j, (a, b) in enumerate(edges):
            spot, pair = f"{where}.edges.{j}", f"{cell_name(a)}|{cell_name(b)}"
            if a not in valley.terrain or b not in valley.terrain:
                yield Problem("river_edge_off_board", spot, f"river {number}: edge {pair} names a cell not on the board",
                              f"rivière {number} : le bord {pair} nomme une case hors du plateau")
            elif b not in neighbours_of(a):
                yield Problem("river_edge_not_adjacent", spot, f"river {number}: cells {pair} do not touch",
                              f"rivière {number} : les cases {pair} ne se touchent pas")
            elif LAKE in (valley.terrain[a], valley.terrain[b]):
                yield Problem("river_edge_lake", spot, f"river {number}: edge {pair} runs along the lake shore",
                              f"rivière {number} : le bord {pair} longe la rive du lac")
            elif edge(a, b) in owner:
                yield Problem("river_edge_duplicate", spot,
                              f"river {number}: edge {pair} is already on river {owner[edge(a, b)]}",
                              f"rivière {number} : le bord {pair} est déjà sur la rivière {owner[edge(a, b)]}")
            else:
                owner[edge(a, b)] = number
                good.append((a, b))
        yield from _river_shape(valley, number, where, good, joins)


def _river_shape(valley: Valley, number: int, where: str, edges, joins: bool):
    if not edges:
        yield Problem("river_empty", where, f"river {number} has no edge", f"la rivière {number} n'a aucun bord")
        return
    corners = [set(_vertices(a, b)) for a, b in edges]
    groups: list[set] = []
    for i in range(len(edges)):
        linked = [g for g in groups if any(corners[i] & corners[j] for j in g)]
        merged = {i}.union(*linked) if linked else {i}
        groups = [g for g in groups if g not in linked] + [merged]
    if len(groups) > 1:
        yield Problem("river_broken", where, f"river {number} is in {len(groups)} pieces that do not meet at a corner",
                      f"la rivière {number} est en {len(groups)} morceaux qui ne se rejoignent pas")
    touches = any(any(c in valley.lake for c in corner) for cs in corners for corner in cs)
    if joins and not touches:
        yield Problem("river_lake_claim", f"{where}.joins_lake", f"river {number} is said to join the lake but never reaches it",
                      f"la rivière {number} est censée rejoindre le lac mais ne l'atteint pas")
    if touches and not joins:
        yield Problem("river_lake_claim", f"{where}.joins_lake", f"river {number} reaches the lake: set joins_lake to true",
                      f"la rivière {number} atteint le lac : mettez joins_lake à true")


def _lake(valley: Valley, reading: MapReading):
    if not valley.lake:
        yield Problem("lake_missing", "cells", "the valley has no lake cell", "la vallée n'a aucune case de lac")
    elif len(_connected_parts(set(valley.lake))) > 1:
        yield Problem("lake_split", "cells", f"the lake is not in one piece: {_names(valley.lake)}",
                      f"le lac n'est pas d'un seul tenant : {_names(valley.lake)}")


def _volcanoes(valley: Valley, reading: MapReading):
    listed = Counter(cell for cell, _ in reading.raw_volcanoes)
    for i, (cell, lava) in enumerate(reading.raw_volcanoes):
        where, name = f"volcanoes.{i}", cell_name(cell)
        if listed[cell] > 1:
            yield Problem("volcano_duplicate", where, f"volcano {name} is listed {listed[cell]} times",
                          f"le volcan {name} figure {listed[cell]} fois")
        if valley.terrain.get(cell) != VOLCANO:
            yield Problem("volcano_terrain", where, f"{name} is listed as a volcano but its cell is not volcano terrain",
                          f"{name} est listé comme volcan mais sa case n'est pas un volcan")
            continue
        bad = [c for c in lava if c not in valley.terrain or valley.terrain[c] in (LAKE, VOLCANO)]
        for c in bad:
            yield Problem("lava_cell", where, f"volcano {name}: lava cell {cell_name(c)} is off the board, lake or a volcano",
                          f"volcan {name} : la case de lave {cell_name(c)} est hors plateau, lac ou volcan")
        flow = {cell} | {c for c in lava if c not in bad}
        parts = _connected_parts(flow)
        if len(parts) > 1:
            cut = set().union(*(p for p in parts if cell not in p))
            yield Problem("lava_cut_off", where, f"volcano {name}: lava cells {_names(cut)} do not flow from it",
                          f"volcan {name} : les cases de lave {_names(cut)} ne partent pas de lui")
    for cell in valley.cells:
        if valley.terrain[cell] == VOLCANO and cell not in listed:
            yield Problem("volcano_unlisted", f"cells.{cell_name(cell)}",
                          f"volcano cell {cell_name(cell)} has no entry in volcanoes (its lava cells)",
                          f"la case de volcan {cell_name(cell)} n'a pas d'entrée dans volcanoes (ses cases de lave)")


def _compass(valley: Valley, reading: MapReading):
    faces: dict[str, list[int]] = {}
    for face, direction in valley.compass.items():
        faces.setdefault(direction, []).append(face)
    for direction, which in faces.items():
        if len(which) > 1:
            yield Problem("compass_duplicate", "compass", f"faces {which} all point {direction}: the rose has six different directions",
                          f"les faces {which} indiquent toutes {direction} : la rose a six directions différentes")


def _halves(valley: Valley, reading: MapReading):
    if not valley.half and not valley.halves:
        return
    missing = [c for c in valley.cells if c not in valley.half]
    if missing:
        yield Problem("half_missing", "cells", f"cells {_names(missing)} name no half-board",
                      f"les cases {_names(missing)} ne nomment aucun demi-plateau")
    for key in sorted(set(valley.half.values()) - set(valley.halves)):
        yield Problem("half_unknown", f"halves.{key}", f"half-board {key!r} is used by cells but not declared in halves",
                      f"le demi-plateau {key!r} est utilisé mais n'est pas déclaré dans halves")


def _tokens(valley: Valley, tokens):
    counts = letter_counts(tokens)
    for species, letters in sorted(tokens.items()):
        if species not in SPECIES:
            yield Problem("token_species", f"tokens.{species}", f"{species!r} is not a species",
                          f"{species!r} n'est pas une espèce")
            continue
        for letter in letters:
            if letter in MOUNTAIN_LETTERS and not SPECIES[species].enters_mountains:
                yield Problem("token_mountain", f"tokens.{species}",
                              f"a {species} token carries the mountain letter {letter}, but {species}s never enter mountains",
                              f"un pion {SPECIES[species].fr} porte la lettre de montagne {letter}, "
                              f"mais cette espèce n'entre pas en montagne")
    on_map = set(valley.letter.values())
    for letter in sorted(set(LETTERS) | set(counts)):
        if counts[letter] and letter not in on_map:
            yield Problem("letter_tokens", f"letters.{letter}",
                          f"{counts[letter]} animal tokens carry the letter {letter} but no cell does",
                          f"{counts[letter]} pions animaux portent la lettre {letter} mais aucune case")
        elif letter in on_map and not counts[letter] and letter in LOWLAND_LETTERS + MOUNTAIN_LETTERS:
            yield Problem("letter_tokens", f"letters.{letter}",
                          f"the cell lettered {letter} matches no animal token",
                          f"la case de lettre {letter} ne correspond à aucun pion animal")
