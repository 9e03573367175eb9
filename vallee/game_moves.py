"""Phase 4, the tribes: the first player, then each player's moves, camps and fire.

Each move is checked by :func:`vallee.tribes.check_move` (rules §4) and each camp by
:func:`vallee.camps.found_camp_problem`; a pawn moves once a phase, so the pawns that
arrived on a cell (or stayed there to found a camp or take fire) are kept per step in
``moved``. Movement cards ride on the move entry (:mod:`vallee.game_tricks`).
"""

from __future__ import annotations

from .camps import camp_kind, found_camp_problem
from .core import VOLCANO, BadRequest, IllegalRequest, cell_name, reading_key
from .game import _fail
from .game_setup import lot
from .game_turn import conditions, names, read_cell, step
from .standing import Standing, first_player
from .tribes import Board, Limits, Move, check_move


def standings(game) -> dict:
    return {p: Standing(len(t.camps), t.count, t.food, t.fire) for p, t in game.tribes.items()}


@step("order")
def order(game, s, entry):
    seats = [p for p in game.seats if game.tribes[p].count]
    if not seats:
        game.order = ()
        return True
    drawn = None
    if entry is not None:
        drawn = lot(game, s["tied"], entry)
    result = first_player(
        seats, standings(game), game.turn, game.first_setup if game.first_setup in seats else None, drawn
    )
    if not result.order:
        s["tied"] = list(result.tied)
        return {
            "kind": "lot",
            "options": list(result.tied),
            "random": game.modes["dice"],
            "en": "A tie for first player: draw lots",
            "fr": "Égalité pour le premier joueur : tirez au sort",
        }
    game.order = result.order
    game.emit("order", "standing.first_player", order=list(result.order), decided_by=result.decided_by)
    game.then(*({"step": "movement", "phase": "tribes", "player": p, "moved": {}} for p in result.order))
    return True


def moved_here(s, cell) -> tuple[int, int]:
    w, f = s["moved"].get(cell_name(cell), (0, 0))
    return w, f


def mark_moved(s, cell, w: int, f: int) -> None:
    mw, mf = moved_here(s, cell)
    s["moved"][cell_name(cell)] = [mw + w, mf + f]


def board(game, tribe_name: str = "", hide=()) -> Board:
    pawns = {}
    for name, t in game.tribes.items():
        for cell, (w, f) in t.pawns.items():
            if cell in hide and name != tribe_name:
                continue
            pawns.setdefault(cell, {})[name] = (w, f)
    beasts = {}
    for a in game.animals.values():
        if a.cell not in hide:
            beasts[a.cell] = beasts.get(a.cell, 0) + a.count
    return Board(pawns, beasts)


def movable(game, s, player) -> dict:
    """Cell → (warriors, women) of the player's pawns that have not moved this phase."""
    out = {}
    for cell, (w, f) in game.tribes[player].pawns.items():
        if cell in game.markers.frozen_cells:
            continue
        mw, mf = moved_here(s, cell)
        if w - mw > 0 or f - mf > 0:
            out[cell] = (w - mw, f - mf)
    return out


def camp_cells(game, s, player) -> list:
    """Cells where the player may found a camp now (rules §4; gaps V40, V43)."""
    tribe = game.tribes[player]
    out = []
    for cell, (w, f) in tribe.pawns.items():
        if not game.variants.camp_after_move:
            mw, mf = moved_here(s, cell)
            w, f = w - mw, f - mf
        opponents = board(game).opponents(cell, player)
        if (
            found_camp_problem(game.valley, cell, w, f, opponents, game.camp_owner(cell) is not None, len(tribe.camps))
            is None
        ):
            out.append(cell)
    return out


def fire_cells(game, s, player) -> list:
    """Cells where the player may take fire now (rules «Règles évoluées : le feu»)."""
    if not game.may_take_fire(player):
        return []
    out = []
    burning = game.markers.burning
    for cell, (w, f) in game.tribes[player].pawns.items():
        if board(game).opponents(cell, player):
            continue
        near_fire = cell in game.markers.lava or any(n in burning for n in game.valley.neighbours(cell))
        still = sum(moved_here(s, cell)) < w + f
        if near_fire or (game.valley.terrain[cell] == VOLCANO and still):
            out.append(cell)
    return out


@step("movement")
def movement(game, s, entry):
    player = s["player"]
    if not game.tribes[player].count:
        return True
    if entry is None:
        return {
            "kind": "move",
            "kinds": ["move", "found_camp", "take_fire", "done"],
            "player": player,
            "options": {
                "groups": {
                    cell_name(c): list(v)
                    for c, v in sorted(movable(game, s, player).items(), key=lambda kv: reading_key(kv[0]))
                },
                "camps": names(camp_cells(game, s, player)),
                "fire": names(fire_cells(game, s, player)),
                "max_cells": game.markers.move_limit,
            },
            "en": f"{player}: move your pawns, found camps, then say done",
            "fr": f"{player} : déplacez vos pions, installez des camps, puis terminez",
        }
    kind = entry["kind"]
    if kind == "done":
        game.emit("moves_done", "phase.tribes", player=player)
        return True
    if kind == "found_camp":
        found_camp(game, s, player, entry)
    elif kind == "take_fire":
        cell = read_cell(game, entry.get("cell"), "cell")
        if cell not in fire_cells(game, s, player):
            _fail(
                f"{player} cannot take fire on {cell_name(cell)}",
                f"{player} ne peut pas prendre le feu en {cell_name(cell)}",
                "fire.take",
            )
        if game.valley.terrain[cell] == VOLCANO and cell not in game.markers.lava:
            w, f = game.tribes[player].at(cell)
            mw, mf = moved_here(s, cell)
            mark_moved(s, cell, w - mw, f - mf)  # the pawns that take fire on a volcano stay
        game.set_fire(player, True, "taken", "fire.take")
    else:
        move_group(game, s, player, entry)
    return False


def destinations(game, s, start, warriors: int, women: int, cards=()) -> dict:
    """Where a group of the player to move may go from ``start`` now, without leaving pawns
    on the way: end cell → the shortest legal path (each checked by
    :func:`vallee.tribes.check_move`, cards included)."""
    player = s["player"]
    free = movable(game, s, player).get(start, (0, 0))
    if warriors > free[0] or women > free[1] or warriors + women == 0:
        return {}
    limits = Limits(season=game.info.season, max_cells=game.markers.move_limit, cards=tuple(cards),
                    frozen=frozenset(game.markers.frozen_cells))
    here = board(game, player, {start} if "fuite" in cards else set())
    # one more cell for a long march; the raft's lake cells are not counted as steps
    longest = game.markers.move_limit + 1 + (len(game.valley.lake) if "radeau" in cards else 0)
    found: dict = {}
    frontier = [(start,)]
    for _ in range(longest):
        grown = []
        for path in (p + (n,) for p in frontier for n in game.valley.neighbours(p[-1]) if n not in p):
            afloat = "radeau" in cards and path[-1] in game.valley.lake
            try:
                checked = check_move(game.valley, here, Move(player, start, path[1:], warriors, women),
                                     conditions(game, ()), limits, game.variants)
            except IllegalRequest:
                if afloat:
                    grown.append(path)  # on the raft: it lands further on
                continue
            found.setdefault(checked.end, path[1:])
            if checked.stops[-1][1] == "end":  # a cell where the group may go on
                grown.append(path)
        frontier = grown
    return found


def read_group(entry) -> tuple[int, int]:
    from . import requests as rq

    return rq.count(entry, "warriors", 0, 10, 0), rq.count(entry, "women", 0, 6, 0)


def move_group(game, s, player, entry) -> None:
    """One group's move, checked by :func:`vallee.tribes.check_move`, then made."""
    from . import requests as rq
    from .game_tricks import use_cards

    rq.only_fields(entry, ("kind", "player", "from", "path", "warriors", "women", "leave", "cards", "wolf"), "")
    start = read_cell(game, entry.get("from"), "from")
    path = tuple(read_cell(game, c, f"path.{i}") for i, c in enumerate(rq.items(entry.get("path"), "path", 8)))
    w, f = read_group(entry)
    leave = {}
    for key, value in rq.obj(entry.get("leave", {}), "leave").items():
        cell = read_cell(game, key, f"leave.{key}")
        pair = rq.items(value, f"leave.{key}", 2)
        if len(pair) != 2:
            raise BadRequest(f"leave.{key}", "must be [warriors, women]")
        leave[cell] = (
            rq.count({0: pair[0]}, 0, 0, 10, parent=f"leave.{key}"),
            rq.count({1: pair[1]}, 1, 0, 6, parent=f"leave.{key}"),
        )
    cards = tuple(rq.items(entry.get("cards", []), "cards", 4))
    free = movable(game, s, player).get(start, (0, 0))
    if w > free[0] or f > free[1]:
        _fail(
            f"{player} has not {w} warriors and {f} women free to move on {cell_name(start)}",
            f"{player} n'a pas {w} guerriers et {f} femmes libres de bouger en {cell_name(start)}",
            "tribes.pieces",
        )
    hide = set(path[:-1]) if "camouflage" in cards else set()
    if "fuite" in cards:
        hide.add(start)
    if "tambour_de_guerre" in cards and path:
        from .game_tricks import drum_push

        drum_push(game, player, path[0], (path[0][0] - start[0], path[0][1] - start[1]), check_only=True)
    limits = Limits(
        season=game.info.season,
        max_cells=game.markers.move_limit,
        cards=cards,
        frozen=frozenset(game.markers.frozen_cells),
    )
    checked = check_move(
        game.valley,
        board(game, player, hide),
        Move(player, start, path, w, f, leave),
        conditions(game, ()),
        limits,
        game.variants,
    )
    use_cards(game, player, cards, "movement")
    if "tambour_de_guerre" in cards:
        drum_push(game, player, path[0], (path[0][0] - start[0], path[0][1] - start[1]))
    game.change_pawns(player, start, -w, -f, "move", "phase.tribes")
    rest = (w, f)
    for cell, _why in checked.stops:
        if cell in leave and cell != checked.end:
            lw, lf = leave[cell]
            game.change_pawns(player, cell, lw, lf, "move", "tribes.contact")
            mark_moved(s, cell, lw, lf)
            rest = (rest[0] - lw, rest[1] - lf)
    game.change_pawns(player, checked.end, rest[0], rest[1], "move", "phase.tribes")
    mark_moved(s, checked.end, *rest)
    tribe = game.tribes[player]
    if entry.get("wolf") and tribe.wolf == start:
        tribe.wolf = checked.end
    game.emit(
        "moved",
        "phase.tribes",
        player=player,
        start=cell_name(start),
        path=[cell_name(c) for c in path],
        end=cell_name(checked.end),
        warriors=w,
        women=f,
        stops=[[cell_name(c), why] for c, why in checked.stops],
    )
    if game.neutrals:
        from .game_events import solitaire_meets

        for cell in path:
            solitaire_meets(game, cell, player)
    abandoned = [c for c in tribe.camps if tribe.at(c)[1] == 0 and c not in tribe.pacs]
    if abandoned:
        game.emit("warning", "camps.abandoned", player=player, cells=names(abandoned))
    game.check_camps()


def found_camp(game, s, player, entry) -> None:
    from .game_tricks import use_cards

    cell = read_cell(game, entry.get("cell"), "cell")
    pacs = entry.get("card") == "pacs"
    tribe = game.tribes[player]
    w, f = tribe.at(cell)
    if not game.variants.camp_after_move:
        mw, mf = moved_here(s, cell)
        w, f = w - mw, f - mf
    problem = found_camp_problem(
        game.valley,
        cell,
        w,
        f,
        board(game).opponents(cell, player),
        game.camp_owner(cell) is not None,
        len(tribe.camps),
        pacs,
    )
    if problem:
        _fail(
            f"{player} cannot found a camp on {cell_name(cell)}",
            f"{player} ne peut pas installer de camp en {cell_name(cell)}",
            problem,
        )
    if pacs:
        use_cards(game, player, ("pacs",), "movement")
        pair = (2, 0) if w >= 2 and not (w and f) else (0, 2) if f >= 2 and not (w and f) else (1, 1)
        if f == 0:
            tribe.pacs[cell] = game.turn
    else:
        pair = (1, 1)
    mark_moved(s, cell, *pair)
    tribe.camps[cell] = camp_kind(game.valley, cell)
    game.emit("camp_founded", "camps.couple", player=player, cell=cell_name(cell), camp=tribe.camps[cell])


