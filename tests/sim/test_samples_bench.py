"""The bench's frame times by piece model (sim/samples_bench.py): ``maamut bench vision``
reports the time of the frames read by their changes beside the kit's own."""
from pathlib import Path

from sim.samples_bench import frame_time_figures, read_tables

SAMPLES = Path(__file__).parents[1] / "vision" / "data" / "samples"


def test_every_read_frame_is_timed_under_its_tables_piece_model(tmp_path):
    """One shared flat-art table: its four frames are read, and each read's time is kept
    under the model its calibration chose, none elsewhere."""
    table = sorted(p for p in SAMPLES.iterdir() if p.name.startswith("flat"))[0]
    (tmp_path / table.name).symlink_to(table)
    timings: dict = {}
    frames, right, _ = read_tables(tmp_path, timings)
    assert frames == 4 and right == 4
    assert [len(v) for v in timings.values()] == [4]
    model, times = next(iter(timings.items()))
    assert model in ("changes", "kit", "figures") and all(t > 0 for t in times)
    figures = frame_time_figures(timings, model)
    assert figures[f"{model}_frames_timed"] == 4
    assert min(times) <= figures[f"{model}_ms_per_frame"] <= figures[f"{model}_ms_p95"] <= max(times)
