"""``maamut bench vision``: read rendered scenes nobody tuned for, and time it.

Each scene is a new set (palette, token shapes, camera, lamp): it is calibrated from its
own setup frames, then a random position is rendered under a changed light and read.
Seeds start at 1 000 000; the tests use seeds below 100 000.

``false_commits`` counts boards committed by the tracker's stability filter
(:mod:`vision.stability`) that differ from the truth, over sequences where a hand rests
on and moves over the board between clean frames.
"""
from __future__ import annotations

import platform
import time
from dataclasses import replace

import cv2
import numpy as np

from vision.calibration import learn
from vision.observation import Observation
from vision.reader import BoardReader
from .render import Kit, Scene, own_colour_stacks, random_hand, random_layout, random_scene, render_frame, setup_scenes
from .render_palette import (HELD_OUT_HUNTER_SHAPES, HELD_OUT_TRAP_SHAPES, HUNTER_SHAPES, TRAP_SHAPES,
                             random_look)


def wrong_cells(obs: Observation, scene: Scene) -> list[int]:
    """Cells whose reading differs from the truth (an unread cell counts as wrong)."""
    if not obs.board_found or obs.tiles is None:
        return list(range(len(scene.tiles)))
    hunters_at = {c: k for k, c in scene.hunters.items()}
    seen_at = {c: k for k, c in obs.hunters.items()}
    bad = []
    for cell, tile in enumerate(scene.tiles):
        if (obs.tiles[cell] != tile or (obs.mammoth == cell) != (scene.mammoth == cell)
                or seen_at.get(cell) != hunters_at.get(cell) or obs.traps.get(cell) != scene.traps.get(cell)
                or cell in obs.occluded_cells):
            bad.append(cell)
    return bad


def relit(kit: Kit, rng: np.random.Generator):
    """The same set and camera under another lamp (gradient, cast, maybe a shadow)."""
    other = random_look(rng)
    return replace(kit.nudged(rng), gradient=other.gradient, cast=other.cast, shadow=other.shadow,
                   blur=other.blur)


def truth_key(scene: Scene) -> tuple:
    return (scene.mammoth, tuple(sorted(scene.hunters.items())), tuple(sorted(scene.traps.items())))


def occlusion_sequence(kit: Kit, scene: Scene, reader: BoardReader, rng, stability_cls):
    """Clean frames, a hand resting then moving over the board, clean frames again.

    Returns ``(false_commits, hand_frames, missed)`` where ``missed`` counts hand frames
    the reader did not flag as occluded although a cell read wrong.
    """
    stable = stability_cls(frames=3)
    hand = random_hand(rng)
    plan = [None] * 3 + [hand] * 5 + [replace(hand, target=tuple(np.add(hand.target, rng.normal(0, 1.0, 2))))
                                      for _ in range(3)] + [None] * 3
    false_commits = hand_frames = missed = 0
    t = 0.0
    for step in plan:
        image, info = render_frame(scene, kit.palette, kit.nudged(rng), rng, hand=step)
        obs = reader.read(image, timestamp=t)
        t += 1 / 30
        if step is not None and info["occluded_cells"]:
            hand_frames += 1
            if not obs.occluded and wrong_cells(obs, scene):
                missed += 1
        committed = stable.feed(obs)
        if committed is not None:
            key = (committed.mammoth, tuple(sorted(committed.hunters.items())), tuple(sorted(committed.traps.items())))
            if key != truth_key(scene):
                false_commits += 1
    return false_commits, hand_frames, missed


def run_vision_bench(n_scenes: int = 200, seed: int = 1_000_000, n_sequences: int = 100) -> dict:
    cv2.setNumThreads(1)   # the target is one core
    try:
        from vision.stability import StabilityFilter
    except ImportError:     # the tracker's filter is not there: report raw false accepts
        StabilityFilter = None
    cells = boards_ok = wrong = 0
    timings, failures = [], []
    false_commits = hand_frames = missed = 0
    for i in range(n_scenes):
        rng = np.random.default_rng(seed + i)
        kit = Kit.random(rng)
        tiles = random_layout(rng)
        n_hunters = int(rng.integers(2, 5))
        calibration = learn([render_frame(s, kit.palette, kit.nudged(rng), rng)[0]
                             for s in setup_scenes(tiles, rng, n_hunters)])
        reader = BoardReader(calibration)
        scene = random_scene(rng, tiles=tiles, n_hunters=n_hunters)
        image, _ = render_frame(scene, kit.palette, relit(kit, rng), rng)
        start = time.perf_counter()
        obs = reader.read(image, timestamp=0.0)
        timings.append(time.perf_counter() - start)
        bad = wrong_cells(obs, scene)
        cells += len(scene.tiles)
        wrong += len(bad)
        boards_ok += not bad
        if bad:
            failures.append(seed + i)
        if i < n_sequences:
            if StabilityFilter is not None:
                fc, hf, ms = occlusion_sequence(kit, scene, reader, rng, StabilityFilter)
            else:
                fc, hf, ms = 0, 0, 0
            false_commits += fc
            hand_frames += hf
            missed += ms
    ms = 1000 * np.array(timings)
    return {
        "scenes": n_scenes,
        "cell_error": round(wrong / max(cells, 1), 6),
        "boards_correct": round(boards_ok / max(n_scenes, 1), 4),
        "ms_per_frame": round(float(ms.mean()), 2),
        "ms_per_frame_p95": round(float(np.percentile(ms, 95)), 2),
        "false_commits": false_commits if StabilityFilter is not None else None,
        "occlusion_sequences": min(n_sequences, n_scenes),
        "hand_frames": hand_frames,
        "hand_frames_missed": missed,
        "failed_seeds": failures[:20],
        "cpu": platform.processor() or platform.machine(),
        "threads": 1,
    }


def run_stack_bench(n_scenes: int = 50, seed: int = 1_500_000) -> dict:
    """Own-colour stacks (:func:`~sim.render.own_colour_stacks`) on new sets, with the
    held-out outlines too: hunters missed and hunters seen where there is none."""
    boards_ok = missed = phantoms = stacks = 0
    failures = []
    for i in range(n_scenes):
        rng = np.random.default_rng(seed + i)
        kit = Kit.random(rng, hunter_shapes=HUNTER_SHAPES + HELD_OUT_HUNTER_SHAPES,
                         trap_shapes=TRAP_SHAPES + HELD_OUT_TRAP_SHAPES)
        tiles = random_layout(rng)
        n_hunters = int(rng.integers(2, 5))
        calibration = learn([render_frame(s, kit.palette, kit.nudged(rng), rng)[0]
                             for s in setup_scenes(tiles, rng, n_hunters)])
        scene = own_colour_stacks(rng, tiles, n_hunters)
        image, _ = render_frame(scene, kit.palette, relit(kit, rng), rng)
        obs = BoardReader(calibration).read(image, timestamp=0.0)
        stacks += n_hunters
        missed += sum(obs.hunters.get(label) != cell for label, cell in scene.hunters.items())
        phantoms += sum(scene.hunters.get(label) != cell for label, cell in obs.hunters.items())
        bad = wrong_cells(obs, scene)
        boards_ok += not bad
        if bad:
            failures.append(seed + i)
    return {"stacked_scenes": n_scenes, "stacked_hunters": stacks,
            "stacked_boards_correct": round(boards_ok / max(n_scenes, 1), 4),
            "stacked_hunters_missed": missed, "stacked_phantom_hunters": phantoms,
            "stacked_failed_seeds": failures[:20]}
