"""The printable marker files match the geometry the reader assumes."""
import math
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from vision.geometry import BOARD_RADIUS, MARKER_QUIET, MARKER_SIZE, marker_centre
from vision.render_kit import TILE_MM, board_layout_svg, marker_bits, marker_card_sheets, marker_cards_svg

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


def _markers_of(svg_text):
    """{marker id: (x0, y0, side of the black square)} of one SVG sheet, in millimetres."""
    ns = {"s": "http://www.w3.org/2000/svg"}
    out = {}
    for g in ET.fromstring(svg_text).findall("s:g", ns):
        rects = g.findall("s:rect", ns)
        border = rects[0]
        x0, y0 = float(border.get("x")), float(border.get("y"))
        out[int(g.get("data-id"))] = (x0, y0, float(border.get("width")))
    return out


@pytest.mark.parametrize("tile_mm", [25, 40, 52, 66, 70, 95, 120])
def test_kit_for_any_tile_size_has_six_cards_of_the_right_size_inside_a4_without_overlap(tile_mm):
    """The cards scale with the measured tile (marker side = 1.3 circumradii) and each
    sheet keeps them inside A4, apart from one another."""
    sheets = marker_card_sheets(tile_mm)
    seen = {}
    for sheet in sheets:
        assert f"for tiles {tile_mm:g} mm across flats" in sheet
        boxes = _markers_of(sheet)
        for marker, (x, y, w) in boxes.items():
            assert w == pytest.approx((MARKER_SIZE + 2 * MARKER_QUIET) * tile_mm / math.sqrt(3), abs=0.01)
            assert 0 <= x and x + w <= 210 and 20 <= y and y + w <= 297
        items = list(boxes.values())
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                (xa, ya, wa), (xb, yb, _) = items[i], items[j]
                assert abs(xa - xb) >= wa or abs(ya - yb) >= wa + 5
        seen.update(boxes)
    assert sorted(seen) == list(range(6))
    assert f"for tiles {tile_mm:g} mm across flats" in board_layout_svg(tile_mm)


def test_maamut_kit_writes_the_scaled_files_and_refuses_absurd_sizes(tmp_path, capsys):
    """`maamut kit --tile-mm N` writes the sheets and the mat for N mm across flats;
    a size outside 25-120 mm is refused with exit 2 and a reason, writing nothing."""
    from maamut.cli import main

    assert main(["kit", "--tile-mm", "60", "--out", str(tmp_path / "kit")]) == 0
    files = sorted(os.listdir(tmp_path / "kit"))
    assert files == ["board_layout.svg", "markers.svg"]
    root = ET.fromstring((tmp_path / "kit" / "board_layout.svg").read_text(encoding="utf-8"))
    size = float(root.get("viewBox").split()[2])
    assert size == pytest.approx(2 * BOARD_RADIUS * 60 / math.sqrt(3) + 10, abs=0.1)
    # Redrawn at another size into the same folder: no sheet of the old size is left.
    assert main(["kit", "--tile-mm", "100", "--out", str(tmp_path / "kit")]) == 0
    assert sorted(os.listdir(tmp_path / "kit")) == ["board_layout.svg"] + [f"markers-{k}.svg" for k in range(1, 4)]
    assert main(["kit", "--tile-mm", "52", "--out", str(tmp_path / "kit")]) == 0
    assert sorted(os.listdir(tmp_path / "kit")) == ["board_layout.svg", "markers.svg"]
    for bad in ("300", "0", "-52", "nan"):
        assert main(["kit", "--tile-mm", bad, "--out", str(tmp_path / bad)]) == 2
        assert "across flats" in capsys.readouterr().err
        assert not (tmp_path / bad).exists()


def test_maamut_kit_takes_the_size_from_the_configuration(tmp_path, capsys):
    """Without --tile-mm the configuration's [camera] tile_mm is used; a bad one is a
    configuration error naming the key."""
    from maamut.cli import main

    cfg = tmp_path / "m.toml"
    cfg.write_text("[camera]\ntile_mm = 45\n", encoding="utf-8")
    assert main(["kit", "--config", str(cfg), "--out", str(tmp_path / "kit")]) == 0
    assert "for tiles 45 mm across flats" in (tmp_path / "kit" / "markers.svg").read_text(encoding="utf-8")
    cfg.write_text("[camera]\ntile_mm = 5\n", encoding="utf-8")
    assert main(["kit", "--config", str(cfg), "--out", str(tmp_path / "kit2")]) == 2
    assert "[camera] tile_mm" in capsys.readouterr().err
