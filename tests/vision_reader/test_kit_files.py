"""The printable marker files match the geometry the reader assumes."""
import os
import xml.etree.ElementTree as ET

import numpy as np

from vision.geometry import MARKER_SIZE, marker_centre
from vision.render_kit import TILE_MM, board_layout_svg, marker_bits, marker_cards_svg

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDER = os.path.join(ROOT, "hardware", "fiducials")


def test_committed_svgs_are_the_generated_ones():
    for name, text in (("markers.svg", marker_cards_svg()), ("board_layout.svg", board_layout_svg())):
        with open(os.path.join(FOLDER, name), encoding="utf-8") as fh:
            assert fh.read() == text + "\n", f"{name} is stale: regenerate with vision.render_kit.write_kit"


def test_board_layout_puts_each_marker_code_at_its_board_position():
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(board_layout_svg())
    centre = float(root.get("viewBox").split()[2]) / 2
    groups = root.findall("s:g", ns)
    assert sorted(int(g.get("data-id")) for g in groups) == list(range(6))
    side = MARKER_SIZE * TILE_MM
    step = side / 6
    for g in groups:
        marker = int(g.get("data-id"))
        mx, my = marker_centre(marker)
        x0, y0 = centre + mx * TILE_MM - side / 2, centre + my * TILE_MM - side / 2
        bits = np.zeros((6, 6), bool)
        for rect in g.findall("s:rect", ns)[1:]:       # the first rect is the white border
            col = round((float(rect.get("x")) - x0) / step)
            row = round((float(rect.get("y")) - y0) / step)
            bits[row, col] = True
        assert np.array_equal(bits, marker_bits(marker))
