"""The helper process that works out half of a map on the other core: same answers, its failures."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

import vision.helper as helper_module
from solver.generator import GeneratorOptions, generate
from ui.photo import simulate
from ui.render import render
from vision.clues import cell_patch, closed_patch, clue_presence, label_glyphs
from vision.grid import find_grid
from vision.helper import start, stop, two_core_map


def helped() -> bool:
    """Whether the helper works out half of a map now (waits up to 20 s for it to be ready)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if len(set(two_core_map(os.getpid, [(), ()]))) == 2:
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def helper(monkeypatch):
    monkeypatch.setattr(helper_module, "_starts", 0)
    assert start()
    assert helped(), "the helper did not get ready"
    yield
    stop()


def test_without_a_helper_the_map_is_worked_out_here():
    stop()
    assert two_core_map(os.getpid, [(), (), ()]) == [os.getpid()] * 3
    assert two_core_map(divmod, [(7, 2), (9, 4)]) == [(3, 1), (2, 1)]


def test_the_helper_works_out_the_later_half_in_order(helper):
    pids = two_core_map(os.getpid, [()] * 5)
    assert pids[:2] == [os.getpid()] * 2 and len(set(pids[2:])) == 1 and pids[2] != os.getpid()
    assert two_core_map(divmod, [(n, 3) for n in range(9)]) == [divmod(n, 3) for n in range(9)]


def test_an_error_in_the_helpers_half_is_raised_here_as_without_a_helper(helper):
    with pytest.raises(ValueError, match="invalid literal"):
        two_core_map(int, [("1",), ("x",)])
    assert helper_module._helper is None  # a helper that failed is stopped; another can be started
    assert start() and helped()
    assert two_core_map(int, [("1",), ("2",)]) == [1, 2]


def test_a_helper_that_died_leaves_the_map_to_this_process(helper):
    os.kill(helper_module._helper.process.pid, 9)
    helper_module._helper.process.wait()
    assert two_core_map(divmod, [(7, 2), (9, 4)]) == [(3, 1), (2, 1)]


def test_nothing_starts_when_the_helper_is_off(monkeypatch):
    stop()
    monkeypatch.setattr(helper_module, "ENABLED", False)
    assert not start()
    monkeypatch.setattr(helper_module, "ENABLED", True)
    monkeypatch.setattr(helper_module, "usable_cores", lambda: 1)
    assert not start()


def test_the_grid_and_labels_found_with_the_helper_are_those_found_without(helper):
    for size, style, level, seed in ((6, "newspaper", "handheld", 2), (7, "app", "hard", 5)):
        puzzle = generate(GeneratorOptions(size=size), seed).puzzle
        image = simulate(render(puzzle, style, seed=seed, cell_px=64), level, seed=seed).image
        with_helper = find_grid(image)
        presence = clue_presence(with_helper)
        saved, helper_module._helper = helper_module._helper, None
        try:
            alone = find_grid(image)
            presence_alone = clue_presence(alone)
        finally:
            helper_module._helper = saved
        assert with_helper.size == alone.size == size
        assert np.array_equal(with_helper.corners, alone.corners)
        assert np.array_equal(with_helper.rectified, alone.rectified)
        assert presence == presence_alone
        assert sum(p > 0.5 for p in presence.values()) == len(puzzle.cages)
        for cell in presence:  # what the readers after use: the same patches and labels, read-only
            patch, label = cell_patch(with_helper, cell), label_glyphs(with_helper, cell)
            assert not patch.flags.writeable and np.array_equal(patch, cell_patch(alone, cell))
            assert (label is None) == (label_glyphs(alone, cell) is None)
            if label is not None:
                assert label.dark is patch or label.dark is closed_patch(with_helper, cell)
                assert [g.box for g in label.glyphs] == [g.box for g in label_glyphs(alone, cell).glyphs]


def test_the_command_line_starts_the_helper_only_for_several_images(monkeypatch, capsys):
    import vision.read_any
    from ui.cli import main
    from vision.errors import VisionError

    started = []
    monkeypatch.setattr(helper_module, "start", lambda: started.append(True) or True)

    def unreadable(source, **_):
        raise VisionError("not read in this test")

    monkeypatch.setattr(vision.read_any, "read_any", unreadable)
    assert main(["read", "a.jpg"]) == 2 and not started
    assert main(["read", "a.jpg", "b.jpg"]) == 2 and len(started) == 1
    capsys.readouterr()


def test_a_network_shares_whole_batches_with_the_helper_and_gives_the_same_numbers(helper):
    from vision.convnet import BATCH_ROWS, fit_convnet

    rng = np.random.default_rng(3)
    rows, labels = rng.random((40, 64)).astype(np.float32), rng.integers(0, 3, 40)
    net = fit_convnet(rows, labels, ("a", "b", "c"), shape=(8, 8), channels=(3, 4), hidden=5, epochs=1, seed=1)
    many = rng.random((5 * BATCH_ROWS + 7, 64)).astype(np.float32)
    shared = net.probabilities(many)
    saved, helper_module._helper = helper_module._helper, None
    try:
        alone = net.probabilities(many)
    finally:
        helper_module._helper = saved
    assert np.array_equal(shared, alone)
