"""The whole-label clue reader: the grammar-constrained decoder, the renderer's character boxes and
the strips and frame targets the model learns from."""
from __future__ import annotations

import numpy as np
import pytest

from solver.puzzle import Cage, Puzzle
from ui.render import clue_glyph_boxes, render
from vision.clues import CELL, MARGIN, combine_texts, label_glyphs, rectify
from vision.label_reader import (BLANK, STRIP_CLASSES, STRIP_H, WINDOW, decode, frame_features, label_strip, split_clue,
                                 without_operators)
from vision.label_training import frame_targets


def _frames(spelling: str, sure: float = 0.9) -> np.ndarray:
    """Frame probabilities spelling ``spelling`` (one frame per character, '_' for blank)."""
    k = len(STRIP_CLASSES)
    probs = np.full((len(spelling), k), (1 - sure) / (k - 1))
    for t, ch in enumerate(spelling):
        probs[t, STRIP_CLASSES.index(ch)] = sure
    return probs


def test_decoder_collapses_repeats_and_needs_a_blank_between_equal_digits():
    assert decode(_frames("__1122__*_"))[0][0] == "12*"
    assert decode(_frames("_11_1_2+"))[0][0] == "112+"


def test_decoder_keeps_to_the_clue_grammar():
    # Nothing follows an operator and no number starts with 0: the '3' after '+' and the leading
    # '0' cannot be read as they look, so every text found is a clue.
    for spelling in ("_1_2_+_3_", "_0_5_*_"):
        texts = [t for t, _ in decode(_frames(spelling))]
        assert texts
        for text in texts:
            assert text[0] in "123456789"
            assert all(ch.isdigit() for ch in text[:-1]) and (text[-1].isdigit() or text[-1] in "+-*/")
    assert decode(_frames("____")) == []


def test_decoder_probabilities_rank_the_alternatives():
    probs = _frames("_3__/_")
    probs[4] = 0.0
    probs[4, STRIP_CLASSES.index("/")] = 0.6
    probs[4, STRIP_CLASSES.index("+")] = 0.4
    texts = dict(decode(probs))
    assert max(texts, key=texts.get) == "3/" and texts["3/"] > texts["3+"] > 0.1
    assert 0.95 < sum(texts.values()) <= 1 + 1e-9


def test_without_operators_a_stroke_read_as_an_operator_is_read_as_its_likeliest_digit():
    # A bare "11" whose second "1" the frames read likelier as "×" (k8383-0264): read as a bare
    # number, the "×" frame gives its share to the classes left, and "11" comes out.
    probs = _frames("_1__*_")
    probs[4] = 0.0
    probs[4, STRIP_CLASSES.index("*")] = 0.7
    probs[4, STRIP_CLASSES.index("1")] = 0.298
    probs[4, STRIP_CLASSES.index(BLANK)] = 0.002
    assert decode(probs)[0][0] == "1*"
    texts = decode(without_operators(probs))
    assert texts[0][0] == "11" and all(t[-1].isdigit() for t, _ in texts)
    assert not without_operators(probs)[:, [STRIP_CLASSES.index(op) for op in "+-*/"]].any()
    assert probs[4, STRIP_CLASSES.index("*")] == 0.7  # the frames given are left as they were


def test_split_clue():
    assert split_clue("12*") == (12, "*") and split_clue("7") == (7, None)


def _rendered_label(text_target: int = 47, op: str = "*", cell_px: int = 80):
    puzzle = Puzzle(4, (Cage(((0, 0), (0, 1)), op, text_target), Cage(((0, 2), (0, 3)), "+", 5),
                        Cage(((1, 0), (1, 1)), "+", 3), Cage(((1, 2), (1, 3)), "+", 7),
                        Cage(((2, 0), (2, 1)), "+", 3), Cage(((2, 2), (2, 3)), "+", 7),
                        Cage(((3, 0), (3, 1)), "+", 7), Cage(((3, 2), (3, 3)), "+", 3)))
    rendering = render(puzzle, "newspaper", seed=5, cell_px=cell_px)
    grid = rectify(rendering.image, rendering.corners, 4)
    return rendering, grid, puzzle.cages[0]


def test_renderer_boxes_and_frame_targets_line_up_with_the_ink():
    rendering, grid, cage = _rendered_label()
    boxes = clue_glyph_boxes(rendering, cage)
    assert "".join(ch for ch, _ in boxes) == "47" + rendering.look.glyph("*")
    label = label_glyphs(grid, cage.anchor)
    strip = label_strip(label)
    scale = CELL / rendering.cell_px
    patch_boxes = [("*" if i == 2 else ch, MARGIN + (x0 - rendering.lines[0]) * scale,
                    MARGIN + (x1 - rendering.lines[0]) * scale) for i, (ch, (x0, _, x1, _)) in enumerate(boxes)]
    targets = frame_targets(strip, patch_boxes)
    spelled = [STRIP_CLASSES[k] for k in targets]
    collapsed = [ch for i, ch in enumerate(spelled) if ch != BLANK and (i == 0 or spelled[i - 1] != ch)]
    assert collapsed == ["4", "7", "*"]
    # Every column labelled with a character has ink under it in the strip.
    inked = strip.image.max(0) > 0.3
    assert all(inked[i] for i, ch in enumerate(spelled) if ch != BLANK)
    assert frame_features(strip).shape == (strip.image.shape[1], strip.image.shape[0] * WINDOW)


def test_the_label_model_reads_with_a_network_fitted_from_each_seed():
    # Two fits of one network differ by several boards a level: the reader averages fits from
    # SEEDS where the first is unsure. Each is its own fit, each reads a clean label, and the model
    # gives their mean on the frames the first fit reads under SURE_FRAME, its own elsewhere.
    from vision.label_reader import label_frames
    from vision.label_training import SEEDS, SURE_FRAME, label_model

    _, grid, cage = _rendered_label()
    model = label_model()
    assert len(model.members) == len(SEEDS) >= 2
    label = label_glyphs(grid, cage.anchor)
    each = [label_frames([label], member)[0] for member in model.members]
    assert not np.allclose(each[0], each[1])
    assert all(decode(frames)[0][0] == "47*" for frames in each)
    unsure = each[0].max(axis=1) < SURE_FRAME
    assert 0 < unsure.sum() < len(unsure)
    expected = np.where(unsure[:, None], np.mean(each, axis=0), each[0])
    assert np.allclose(label_frames([label], model)[0], expected)


def test_tesseract_adds_to_the_reader_and_no_operator_puzzles_read_question_marks():
    reading = combine_texts((0, 0), [("13+", 0.5), ("18+", 0.4), ("13*", 0.1)], ("18", 0.9), no_ops=False,
                            ocr_weight=0.5)
    assert reading.best[:2] == ("+", 18)
    bare = combine_texts((0, 0), [("13", 0.7), ("18", 0.3)], None, no_ops=True)
    assert [a[0] for a in bare.alternatives] == ["?", "?"]


def test_a_faint_operator_the_finder_missed_is_inside_the_strip():
    # realdev declan 9×9, r1c3: the finder cut out only the "9" of a faint "9÷"; the strip ended half
    # way through the ÷ and the reader saw no operator. Reaching toward the puzzle's widest label
    # end (one label-height at most) keeps the ÷ whole; without that end the strip is as before.
    from vision.clues import Label
    from vision.glyphs import Glyph

    ink = np.zeros((80, 80), np.float32)
    ink[26:35, 13:19] = 0.8   # the digit the finder cut out: 9 px tall
    ink[28:33, 21:28] = 0.3   # the faint operator after it
    label = Label((Glyph((13, 26, 19, 35), ink[26:35, 13:19], 1),), 26.0, 9.0, ink, 1.0, ink)

    def covered(strip):  # patch columns of the strip's last column
        return strip.x0 + strip.image.shape[1] / strip.scale

    assert covered(label_strip(label)) < 28
    assert covered(label_strip(label, right=60)) >= 28 + 4
    assert covered(label_strip(label, right=60)) <= 19 + 1.0 * 9 + 0.5 * 9 + 1
    assert covered(label_strip(label, right=19)) == covered(label_strip(label))


def test_tesseract_is_given_the_number_without_its_operator():
    # The stock Tesseract model cannot read × ÷ −: an operator in its crop dragged the whole word's
    # confidence to 0 (realdev vivaansinghvi07 "6−" at 0.00, so five right clues read unsure) or
    # joined the number ("13+" read as "134"). The operator's first frame marks where the number
    # ends, and the crop stops before it.
    from vision.clues import label_crop, number_glyphs
    from vision.label_reader import label_frames, operator_start
    from vision.label_training import label_model
    from vision.tesseract import TesseractEngine

    rendering, grid, cage = _rendered_label(47, "-")
    boxes = clue_glyph_boxes(rendering, cage)
    scale = CELL / rendering.cell_px
    patch_x = [(MARGIN + (x0 - rendering.lines[0]) * scale, MARGIN + (x1 - rendering.lines[0]) * scale)
               for _, (x0, _, x1, _) in boxes]
    label = label_glyphs(grid, cage.anchor)
    frames = label_frames([label], label_model())[0]
    assert decode(frames)[0][0] == "47-"
    end = operator_start(label, frames)
    assert patch_x[1][1] < end < patch_x[2][1]          # after the 7, inside the operator
    glyphs, right = number_glyphs(label, end)
    assert len(glyphs) == 2 and right <= patch_x[1][1] + 1
    number, whole = TesseractEngine().read_lines([label_crop(label, end), label_crop(label)], whitelist="0123456789+-x*/:")
    assert number.text == "47" and number.confidence > 0.8
    # The whole label is what Tesseract had before: its operator costs the reading's confidence.
    assert whole.confidence < number.confidence
    # Frames that read no operator give no end: the label is given whole.
    bare = frames.copy()
    bare[:, [STRIP_CLASSES.index(op) for op in "+-*/"]] = 0
    assert operator_start(label, bare) is None


def test_a_tesseract_number_short_of_the_labels_glyphs_or_none_does_not_count():
    # Tesseract drops a "1" beside another: "11" read as "1" at 0.8 outweighed the reader's sure
    # "11+" (k7474-0037, 17 px). A number with fewer digits than its crop has separate glyphs, or no
    # number at all (a lone clean "5" often comes back empty), is no evidence: the reader's reading
    # stands alone, as sure as it is. Before, either left a sure clean label at 0.4: unsure.
    from vision.clues import label_height_px, read_clues
    from vision.tesseract import FakeEngine

    rendering, grid, cage = _rendered_label(11, "+", cell_px=120)
    assert label_height_px(label_glyphs(grid, cage.anchor), grid) > 16  # Tesseract's share is 0.6
    reading = read_clues(grid, [cage.anchor], engine=FakeEngine((("1", 0.8),)))[cage.anchor]
    assert reading.best[:2] == ("+", 11) and reading.best[2] > 0.9
    agreeing = read_clues(grid, [cage.anchor], engine=FakeEngine((("11", 0.9),)))[cage.anchor]
    assert agreeing.best[:2] == ("+", 11) and agreeing.best[2] > 0.9
    for silent in ("", "+"):
        alone = read_clues(grid, [cage.anchor], engine=FakeEngine(((silent, 0.0),)))[cage.anchor]
        assert alone.best[:2] == ("+", 11) and alone.best[2] > 0.9
    other = read_clues(grid, [cage.anchor], engine=FakeEngine((("17", 0.9),)))[cage.anchor]
    assert other.best[:2] == ("+", 17)


def test_tesseract_gets_room_around_a_labels_number():
    # A tight crop of a bold "15" read "415" at 0.8 and "36" read "26" (realdev): with a crop height of
    # white on each side and taller mosaic text, every realdev number Tesseract reads at 0.6 or more
    # is right (CROP_SIDE). The ink itself is unchanged.
    from vision.clues import CROP_SIDE, label_crop

    _, grid, cage = _rendered_label(15, "+")
    label = label_glyphs(grid, cage.anchor)
    crop = label_crop(label)
    ink_columns = np.flatnonzero((crop < 128).any(axis=0))
    assert ink_columns[0] >= CROP_SIDE * crop.shape[0] and crop.shape[1] - 1 - ink_columns[-1] >= CROP_SIDE * crop.shape[0]
    rows = np.flatnonzero((crop < 128).any(axis=1))
    assert rows[0] >= 2 and crop.shape[0] - 1 - rows[-1] >= 2


def test_tesseracts_share_is_its_weight_times_its_confidence():
    # k7474-0207: Tesseract read a clean "5" right at confidence 0.0, and the linear mix cut the
    # reader's sure "5×" to 0.48 (unsure). Now an agreeing reading never lowers the reader's ...
    agree = combine_texts((0, 0), [("5*", 0.997)], ("5", 0.0), no_ops=False, ocr_weight=0.52)
    assert agree.best[:2] == ("*", 5) and agree.best[2] > 0.99
    # ... one it is unsure of moves the reader little (k7474-0271: "15+" at 0.997, Tesseract "18" at 0.67) ...
    unsure = combine_texts((0, 0), [("15+", 0.997)], ("18", 0.67), no_ops=False, ocr_weight=0.6)
    assert unsure.best[:2] == ("+", 15) and unsure.best[2] >= 0.5
    # ... and one it is sure of overrules a reader misled by an unfamiliar font (realdev: "3" read "5").
    sure = combine_texts((0, 0), [("5-", 0.99)], ("3", 0.96), no_ops=False, ocr_weight=0.6)
    assert sure.best[:2] == ("-", 3) and sure.best[2] >= 0.5
    # Without a Tesseract reading the reader keeps 1 - weight (a label too small to ask).
    alone = combine_texts((0, 0), [("7+", 1.0)], None, no_ops=False, ocr_weight=0.15)
    assert abs(alone.best[2] - 0.85) < 1e-3


def test_the_unlikely_alternatives_keep_the_readers_order():
    # Hard k5252-0087: "5÷" on two cells read "5+" at 0.85, and the solver in the loop had to change
    # it. "5÷" was an alternative at 0.000005, "5×" only as the bare "5" (0.00000003, any operator).
    # Rounded to four places both were 0: the search weighed them alike and took "5×". Unrounded,
    # "5÷" is the cheaper change.
    reading = combine_texts((0, 0), [("5+", 0.85), ("55+", 0.0041), ("5/", 5e-6), ("5", 3e-8)], None, no_ops=False)
    p = {(op, n): q for op, n, q in reading.alternatives}
    assert p[("/", 5)] > 100 * p[("=", 5)] > 0


def test_label_networks_fitted_side_by_side_are_the_networks_fitted_alone(tmp_path, monkeypatch):
    # A fresh machine fits the label network once per seed; the fits run one per core, each in a
    # process of its own reading the frames from one file, and must be the very fits made alone.
    from vision import label_training as T
    from vision.convnet import ConvNet, fit_convnet

    monkeypatch.setattr(T, "CHANNELS", (2, 3))
    monkeypatch.setattr(T, "HIDDEN", 8)
    monkeypatch.setattr(T, "EPOCHS", 1)
    rng = np.random.default_rng(7)
    frames = rng.random((300, STRIP_H * WINDOW)).astype(np.float16)
    classes = rng.integers(0, len(STRIP_CLASSES), 300).astype(np.int32)
    np.save(tmp_path / "frames.npy", frames)
    np.save(tmp_path / "targets.npy", classes)
    members = [(3, tmp_path / "a.npz"), (4, tmp_path / "b.npz")]
    T.fit_members(tmp_path / "frames.npy", tmp_path / "targets.npy", members, workers=2)
    for seed, path in members:
        alone = fit_convnet(frames, classes, STRIP_CLASSES, shape=(STRIP_H, WINDOW), channels=(2, 3), hidden=8,
                            epochs=1, seed=seed)
        fitted = ConvNet.load(path)
        assert fitted is not None and fitted.shape == (STRIP_H, WINDOW)
        for name, value in alone.params.items():
            assert np.allclose(fitted.params[name], value, atol=1e-6), name
    assert not np.allclose(ConvNet.load(members[0][1]).params["w4"], ConvNet.load(members[1][1]).params["w4"])


def test_label_networks_annealed_side_by_side_are_the_networks_annealed_alone(tmp_path, monkeypatch):
    # The second stage of a fresh machine's fit: each saved network is annealed on the first rows of
    # the frames in a process of its own, and must be the very network annealed alone.
    from vision import label_training as T
    from vision.convnet import ConvNet, anneal_convnet, fit_convnet

    monkeypatch.setattr(T, "ANNEAL_RATE", 1e-3)
    rng = np.random.default_rng(8)
    frames = rng.random((300, STRIP_H * WINDOW)).astype(np.float16)
    classes = rng.integers(0, len(STRIP_CLASSES), 300).astype(np.int32)
    np.save(tmp_path / "frames.npy", frames)
    np.save(tmp_path / "targets.npy", classes)
    start = {}
    for seed in (3, 4):
        first = fit_convnet(frames, classes, STRIP_CLASSES, shape=(STRIP_H, WINDOW), channels=(2, 3), hidden=8,
                            epochs=1, seed=seed)
        first.save(tmp_path / f"first{seed}.npz")
        start[tmp_path / f"tuned{seed}.npz"] = tmp_path / f"first{seed}.npz"
    T.fit_members(tmp_path / "frames.npy", tmp_path / "targets.npy", [(3, tmp_path / "tuned3.npz"),
                  (4, tmp_path / "tuned4.npz")], workers=2, start=start, rows=200)
    for seed in (3, 4):
        first = ConvNet.load(tmp_path / f"first{seed}.npz")
        alone = anneal_convnet(first, frames[:200], classes[:200], rate=1e-3, epochs=T.ANNEAL_EPOCHS, seed=seed)
        tuned = ConvNet.load(tmp_path / f"tuned{seed}.npz")
        assert not np.allclose(tuned.params["w4"], first.params["w4"])
        for name, value in alone.params.items():
            assert np.allclose(tuned.params[name], value, atol=1e-6), name


def test_a_script_without_a_main_guard_fits_the_label_networks_side_by_side(tmp_path):
    # The fits run as `python -m vision.label_training JOB`, not as copies of the caller's script: a
    # script that reads a photo on a fresh machine needs no `if __name__ == "__main__":` guard.
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text(
        "import numpy as np\n"
        "from vision import label_training as T\n"
        "from vision.label_reader import STRIP_CLASSES, STRIP_H, WINDOW\n"
        "T.CHANNELS, T.HIDDEN, T.EPOCHS = (2, 3), 8, 1\n"
        "rng = np.random.default_rng(7)\n"
        f"folder = {str(tmp_path)!r}\n"
        "np.save(folder + '/frames.npy', rng.random((200, STRIP_H * WINDOW)).astype(np.float16))\n"
        "np.save(folder + '/targets.npy', rng.integers(0, len(STRIP_CLASSES), 200).astype(np.int32))\n"
        "T.fit_members(folder + '/frames.npy', folder + '/targets.npy', [(3, folder + '/a.npz'), (4, folder + '/b.npz')], workers=2)\n"
        "print('fitted once')\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("fitted once") == 1
    assert (tmp_path / "a.npz").exists() and (tmp_path / "b.npz").exists()


def test_a_failed_fit_says_so():
    from pathlib import Path

    from vision import label_training as T

    with pytest.raises(RuntimeError, match="fitting the label networks failed"):
        T.fit_members(Path("/nonexistent/frames.npy"), Path("/nonexistent/targets.npy"),
                      [(3, Path("/nonexistent/a.npz")), (4, Path("/nonexistent/b.npz"))], workers=2)


def test_a_phone_photos_labels_are_read_at_the_photos_own_resolution():
    """A 12-megapixel clean newspaper photo (``kensnap corpus --count 150 --seed 1313
    --megapixels 12``, item 72): cells about 300 px, labels about 37 px tall, 8 px in the 64-px
    patch, where "8+" read as "4/" and "9+" as "9/". Cut again from the photo at four times the
    patch's resolution (with_fine_ink), the strip lines up with the patch's and every label reads
    right (without FINE_BLUR the crisp thin "+" of "17+" and "23+" read as "/")."""
    from ui.corpus import make_item, plan
    from vision.clues import read_clues, with_fine_ink
    from vision.grid import grid_from_corners

    image, truth = make_item(plan(150, 1313, 12)[72])
    grid = grid_from_corners(image, np.array(truth["corners"]), truth["truth"]["size"])
    cells = {(1, 1): "8+", (3, 4): "9+", (3, 3): "17+", (1, 5): "23+"}
    for cell in cells:
        label = label_glyphs(grid, cell)
        fine = with_fine_ink(grid, cell, label)
        assert fine.fine is not None and fine.fine[1] == 4
        coarse, sharp = label_strip(label).image, label_strip(fine).image
        assert coarse.shape == sharp.shape
        assert np.corrcoef(coarse.ravel(), sharp.ravel())[0, 1] > 0.8
    readings = read_clues(grid, list(cells), ocr="never")
    assert {cell: "%d%s" % (r.alternatives[0][1], r.alternatives[0][0]) for cell, r in readings.items()} == cells


def test_a_small_photos_labels_are_read_from_the_patch():
    """Below twice the patch's resolution (every photo of the small-photo corpora) the label is
    read from the patch as before."""
    from solver.generator import GeneratorOptions, generate
    from vision.clues import with_fine_ink
    from vision.grid import grid_from_corners

    made = generate(GeneratorOptions(size=4), 5)
    rendering = render(made.puzzle, "newspaper", seed=5, cell_px=100)
    grid = grid_from_corners(rendering.image, np.array(rendering.corners), 4)
    label = label_glyphs(grid, made.puzzle.cages[0].anchor)
    assert label is not None and with_fine_ink(grid, made.puzzle.cages[0].anchor, label) is label


def test_what_may_follow_a_prefix_depends_only_on_its_kind():
    """decode sifts the likely characters once per kind of prefix: that is exact only if _allowed
    answers every prefix as it answers its kind's example."""
    import itertools

    from vision.label_reader import _PREFIX_KINDS, _allowed, _prefix_kind

    chars = [c for c in STRIP_CLASSES if c != BLANK]
    prefixes = {""} | {"".join(p) for n in range(1, 4) for p in itertools.product("107+/", repeat=n)}
    prefixes |= {"1" * n for n in range(4, 10)} | {"1" * n + "*" for n in range(4, 9)}
    for prefix in prefixes:
        example = _PREFIX_KINDS[_prefix_kind(prefix)]
        assert [_allowed(prefix, c) for c in chars] == [_allowed(example, c) for c in chars], prefix


def test_a_strip_read_is_sharpened_but_keeps_its_place_and_range(monkeypatch):
    """A blurred bar spreads less ink beside it, the strip still peaks at 1 and maps patch columns as
    before; with SHARPEN at 0 the strip is read as cut."""
    import cv2

    from vision import label_reader
    from vision.label_reader import Strip, sharpened

    image = np.zeros((STRIP_H, 40), np.float32)
    image[6:18, 15:25] = 1.0
    blurred = cv2.GaussianBlur(image, (0, 0), 1.5)
    strip = Strip(blurred / blurred.max(), 3.5, 2.0)
    sharp = sharpened(strip)
    assert (sharp.x0, sharp.scale) == (3.5, 2.0) and sharp.image.shape == strip.image.shape
    assert 0.0 <= sharp.image.min() and np.isclose(np.percentile(sharp.image, 99), 1.0, atol=0.05)
    tails = lambda s: float(s.image[:, :14].sum() + s.image[:, 26:].sum())  # the blur beside the bar
    assert tails(sharp) < 0.85 * tails(strip)
    monkeypatch.setattr(label_reader, "SHARPEN", 0.0)
    assert sharpened(strip) is strip
