"""The board SVG: engine geometry (north up, never mirrored), pieces and overlays."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import engine
from engine import api as contract
from companion_web.board_svg import render_board
from engine.hexgrid import CELL_NAMES, parse_cell, pixel_of
from web_fixtures import FIGURE

NS = {"svg": "http://www.w3.org/2000/svg"}


def _figure():
    return engine.position_to_json(engine.notation.position_from_text(FIGURE))


def _centre(root, cell):
    """Where the cell's hexagon is placed (the hexagon itself is centred on 0,0)."""
    placed = root.find(f".//svg:g[@data-cell='{cell}']/svg:use", NS)
    return float(placed.get("x")), float(placed.get("y"))


def test_the_board_has_37_cells_at_the_engine_pixel_positions():
    root = ET.fromstring(render_board(_figure()))
    hexagon = root.find(".//svg:defs/svg:polygon[@id='hx']", NS)
    xs, ys = zip(*(map(float, p.split(",")) for p in hexagon.get("points").split()))
    assert abs(sum(xs)) < 0.5 and abs(sum(ys)) < 0.5 and min(ys) < -38  # pointy top, centred
    cells = root.findall(".//svg:g[@class='cell']", NS)
    assert sorted(c.get("data-cell") for c in cells) == sorted(CELL_NAMES)
    for name in ("0,0", "3,-3", "-3,3", "0,2"):
        x, y = _centre(root, name)
        ex, ey = pixel_of(parse_cell(name), 40.0)
        assert abs(x - ex) < 0.2 and abs(y - ey) < 0.2


def test_north_is_up_and_east_is_right_seen_from_above():
    root = ET.fromstring(render_board(_figure()))
    cx, cy = _centre(root, "0,0")
    east, ne, nw, sw = (_centre(root, c) for c in ("1,0", "1,-1", "0,-1", "-1,1"))
    assert east[0] > cx and abs(east[1] - cy) < 0.2
    assert ne[1] < cy and ne[0] > cx and nw[1] < cy and nw[0] < cx  # NE and NW are above
    assert sw[1] > cy and sw[0] < cx


def test_tiles_pieces_and_traps_are_drawn_where_the_position_says():
    pos = _figure()
    pos["traps"] = {"1,1": "B"}
    svg = render_board(pos)
    assert 'data-cell="0,1" data-tile="rock"' in svg and 'data-cell="0,0" data-tile="cross"' in svg
    root = ET.fromstring(svg)
    assert root.find(".//svg:g[@class='mammoth']", NS).get("data-cell") == "0,2"
    hunters = {g.get("data-hunter"): g.get("data-cell") for g in root.findall(".//svg:g[@class='hunter']", NS)}
    assert hunters == {"A": "-2,2", "B": "3,-3"}
    trap = root.find(".//svg:g[@class='trap']", NS)
    assert (trap.get("data-cell"), trap.get("data-owner")) == ("1,1", "B")


def test_the_last_move_flight_flee_options_and_illegal_marks_are_overlaid():
    pos = _figure()
    _, response = contract.resolve_request({"position": pos, "action": {"type": "move", "hunter": "A",
                                                                          "direction": "E", "distance": 2}})
    svg = render_board(response["position"], events=response["events"],
                       flee={"hunter": "B", "options": ["2,-3", "3,-2"]},
                       illegal=[{"cell": "1,1", "reason": "hunter on <rock>"}])
    root = ET.fromstring(svg)
    flight = root.find(".//svg:polyline[@class='flight']", NS)
    points = [tuple(map(float, p.split(","))) for p in flight.get("points").split()]
    assert len(points) == 3  # 0,2 -> 1,1 -> 2,0
    assert root.find(".//svg:polyline[@class='last-move']", NS) is not None
    assert sorted(c.get("data-cell") for c in root.findall(".//svg:circle[@class='flee-option']", NS)) == ["2,-3", "3,-2"]
    assert root.find(".//svg:g[@class='illegal']/svg:title", NS).text == "hunter on <rock>"
    assert "&lt;rock&gt;" in svg


def test_bad_colours_and_cells_never_reach_the_drawing():
    pos = _figure()
    svg = render_board(pos, players_info={"A": {"colour": '"/><script>', "name": "<Ann>"}},
                       marks=[{"cell": "9,9", "text": "x"}, {"cell": "0,0", "text": "<b>"}],
                       illegal=[{"cell": "nowhere"}])
    ET.fromstring(svg)  # still well-formed XML
    assert "<script" not in svg and "<b>" not in svg and "&lt;b&gt;" in svg
    assert re.findall(r'fill="(#[0-9a-f]{6})" stroke="#111" stroke-width="2.5"', svg)[0] == "#d7263d"


def test_an_empty_or_broken_position_still_draws_an_empty_board():
    for broken in ({}, {"tiles": "x", "hunters": [1], "traps": 3, "mammoth": 5}, None):
        svg = render_board(broken)
        assert svg.count('class="cell"') == 37 and 'class="hunter"' not in svg


def test_only_a_finished_flight_is_animated():
    pos = _figure()
    flight = {"type": "mammoth_fled", "from": "0,2", "to": "2,0", "path": ["1,1", "2,0"]}
    assert "animateMotion" not in render_board(pos, events=[flight])  # mammoth still at 0,2
    assert "animateMotion" in render_board({**pos, "mammoth": "2,0"}, events=[flight])
    assert "animateMotion" not in render_board({**pos, "mammoth": "2,0"}, events=[flight], animate=False)


def test_pieces_sharing_a_cell_all_stay_visible_and_the_last_move_is_highlighted():
    from companion_web.board_svg import render_board
    from engine.hexgrid import CELL_NAMES

    tiles = {name: "grass" for name in CELL_NAMES}
    tiles["0,0"] = "cross"
    position = {"tiles": tiles, "mammoth": "1,0", "players": ["A", "B", "C", "D"],
                "hunters": {"A": "1,0", "B": "-2,0", "C": "-2,0", "D": "0,2"}, "traps": {"0,2": "D"}}
    events = [{"type": "hunter_moved", "hunter": "A", "from": "-1,0", "to": "1,0", "path": ["0,0", "1,0"]}]
    svg = render_board(position, events=events)
    root = ET.fromstring(svg)
    # The hunter on the mammoth's cell is drawn after (in front of) the mammoth.
    order = [g.get("class") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") in ("mammoth", "hunter")]
    assert order.index("mammoth") < order.index("hunter", order.index("mammoth"))
    stacked = {g.get("data-hunter"): g.get("data-stacked") for g in root.iter("{http://www.w3.org/2000/svg}g")
               if g.get("class") == "hunter"}
    assert stacked == {"A": "mammoth", "B": "hunters", "C": "hunters", "D": None}
    # Two hunters on one cell sit apart; a hunter on his trap leaves the trap's ring showing.
    circles = {g.get("data-hunter"): g.find("{http://www.w3.org/2000/svg}circle") for g in
               root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "hunter"}
    assert (circles["B"].get("cx"), circles["B"].get("cy")) != (circles["C"].get("cx"), circles["C"].get("cy"))
    trap_r = float(root.find(".//{http://www.w3.org/2000/svg}g[@class='trap']/{http://www.w3.org/2000/svg}circle").get("r"))
    assert trap_r > float(circles["D"].get("r"))
    assert 'class="last-from" data-cell="-1,0"' in svg and 'class="last-to" data-cell="1,0"' in svg
