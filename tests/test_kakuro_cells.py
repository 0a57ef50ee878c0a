"""Kakuro cell reading pieces on known truth: the minimum cut finds the cheapest labelling, boundary
steps tell white cells from dark ones under a hard shadow, dark figures on a shaded grey fill are
ink, and the solver in the loop reports a close rival reading."""
import itertools

import numpy as np
import pytest

from solver.kakuro.model import BLOCK, WHITE, Clue, KakuroPuzzle
from vision.kakuro_cells import (CELL, boundary_steps, clue_glyphs, ink_map, min_cut_labels, step_costs,
                                 white_by_steps)
from vision.kakuro_reconcile import ReadingSolver


def _energy(labels, unary, pair):
    return sum(unary[c][labels[c]] for c in unary) + sum(v[2 * labels[a] + labels[b]] for (a, b), v in pair.items())


def test_min_cut_finds_the_cheapest_labelling_of_small_grids():
    rng = np.random.default_rng(5)
    cells = [(r, c) for r in range(3) for c in range(3)]
    for _ in range(20):
        unary = {cell: list(rng.uniform(0, 3, 2)) for cell in cells}
        pair = {}
        for (r, c) in cells:
            for q in ((r, c + 1), (r + 1, c)):
                if q in unary:
                    pair[((r, c), q)] = step_costs(float(rng.normal(0, 0.4)))
        labels = min_cut_labels(cells, unary, pair)
        best = min(_energy(dict(zip(cells, bits)), unary, pair) for bits in itertools.product((0, 1), repeat=len(cells)))
        assert abs(_energy(labels, unary, pair) - best) < 1e-6


def _shadowed_patches(whites: set, rows: int, cols: int, fill: float = 170.0):
    """Flat patches: white cells 230 grey, grey blocks ``fill``, a dark grid line along each cell's
    edges, and a hard shadow (half the light) right of a line through the middle of the fourth
    column (a shadow's edge crosses cells; the steps across boundaries it does not follow hold)."""
    ys, xs = np.mgrid[0:CELL, 0:CELL]
    patches = {}
    for r in range(rows):
        for c in range(cols):
            tone = 230.0 if (r, c) in whites else fill
            shade = np.where(c * CELL + xs > 3.4 * CELL + 0.05 * (r * CELL + ys), 0.5, 1.0)
            p = (tone * shade).astype(np.float32)
            p[:2], p[-2:], p[:, :2], p[:, -2:] = 40, 40, 40, 40
            patches[(r, c)] = p
    return patches


def test_boundary_steps_find_white_cells_under_a_shadow_their_tone_calls_dark():
    rows, cols = 4, 6
    whites = {(r, c) for r in range(1, 4) for c in range(1, 6) if (r, c) not in ((2, 3), (3, 1))}
    patches = _shadowed_patches(whites, rows, cols)
    level = {cell: 230.0 for cell in patches}
    tone_says = {cell: 0.95 if np.percentile(p, 75) > 200 else 0.05 for cell, p in patches.items()}
    assert sum(tone_says[cell] < 0.5 for cell in whites) >= 4  # whites in the shadow: dark by their tone
    edge = frozenset(cell for cell in patches if 0 in cell)
    white = white_by_steps(tone_says, boundary_steps(patches, level), edge)
    assert {cell for cell, p in white.items() if p > 0.5} == whites


def test_dark_figures_on_a_shaded_grey_fill_are_ink():
    patch = np.full((CELL, CELL), 80.0, np.float32)  # a grey clue cell in a shadow: darker than half the white level
    for k in range(CELL):
        patch[k, max(0, k - 1):k + 2] = 20.0  # the diagonal
    patch[14:26, 40:43] = 20.0  # a "1" in the across half, dark as printed
    where = np.zeros_like(patch, bool)
    where[8:30, 34:58] = True
    ink = ink_map(patch, 80.0, 230.0, where)
    assert ink[20, 41] > 0.9 and ink[10, 50] < 0.1
    number = clue_glyphs(patch, 230.0, "across")
    assert number is not None and len(number.glyphs) == 1


def test_a_close_rival_reading_is_reported():
    # two one-cell down runs and one across run over both: each reading below is the digits' sums
    puzzle = KakuroPuzzle(2, 3, ((BLOCK, Clue(3, None), Clue(4, None)), (Clue(None, 3), WHITE, WHITE)))
    sure = {((0, 1), "down"): ((1, 0.99),), ((0, 2), "down"): ((2, 0.99),)}
    close = {**sure, ((1, 0), "across"): ((3, 0.55), (4, 0.45))}
    with ReadingSolver(puzzle, close) as search:
        settled = search.settle()
    assert settled.status == "unique" and settled.reading[((1, 0), "across")] == 3 and settled.rival is None
    close = {((0, 1), "down"): ((1, 0.6), (3, 0.4)), ((0, 2), "down"): ((2, 0.99),),
             ((1, 0), "across"): ((3, 0.55), (5, 0.45))}
    with ReadingSolver(puzzle, close) as search:
        settled = search.settle()
    assert settled.status == "unique" and settled.reading == {((0, 1), "down"): 1, ((0, 2), "down"): 2,
                                                              ((1, 0), "across"): 3}
    assert settled.rival == {((0, 1), "down"): 3, ((0, 2), "down"): 2, ((1, 0), "across"): 5}


@pytest.mark.parametrize("local", [False, True])
def test_the_digit_model_reads_the_digits_of_a_photographed_kakuro_it_never_saw(local):
    # Seeds 10 001..10 004 are far outside the training seeds (0..1199): photos of random Kakuro,
    # its clue and written digits cut by the reading code itself (with ``local``, clue digits over
    # the local fill, read by the model fitted on those), labelled by the renderer.
    from vision.kakuro_cells import DIGITS, _training_chunk, digit_model
    rows, labels = _training_chunk([10_001, 10_002, 10_003, 10_004], local=local)
    assert len(labels) >= 40
    probs = digit_model(local).probabilities(np.stack(rows))
    assert probs.shape == (len(labels), len(DIGITS))
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert np.mean(probs.argmax(axis=1) == np.array(labels)) >= 0.97


@pytest.mark.parametrize("local", [False, True])
def test_the_number_model_reads_whole_clue_numbers_of_a_photographed_kakuro_it_never_saw(local):
    # The same unseen photos as above; each clue number's whole ink, labelled by the renderer.
    from vision.kakuro_cells import NUMBERS, _numbers_chunk, number_model
    rows, labels = _numbers_chunk([10_001, 10_002, 10_003, 10_004], local=local)
    assert len(labels) >= 20 and max(labels) >= 9  # two-digit numbers among them
    probs = number_model(local).probabilities(np.stack(rows))
    assert probs.shape == (len(labels), len(NUMBERS))
    assert np.mean(probs.argmax(axis=1) == np.array(labels)) >= 0.95


def test_whole_features_centre_a_number_in_a_box_twice_as_wide_as_tall():
    from vision.kakuro_cells import WHOLE_SHAPE, whole_features
    ink = np.zeros((10, 6), np.float32)
    ink[:, 2:4] = 0.5  # a "1": narrow, so padded on both sides
    image = whole_features(ink).reshape(WHOLE_SHAPE)
    assert image.max() == 1.0
    columns = np.nonzero(image.max(axis=0))[0]
    assert columns.min() > 8 and columns.max() < 23 and abs((columns.min() + columns.max()) / 2 - 15.5) <= 1
    wide = whole_features(np.ones((4, 40), np.float32)).reshape(WHOLE_SHAPE)
    assert wide[:, 0].max() > 0 and wide[0].max() == 0  # wider than twice its height: padded above and below


def test_a_number_read_digit_by_digit_is_averaged_with_its_whole_reading():
    from vision.kakuro import WHOLE_WEIGHT, with_whole_reading
    p_whole = np.zeros(45)
    p_whole[34 - 1], p_whole[31 - 1] = 0.99, 0.01
    mixed = with_whole_reading({31: 0.8, 37: 0.03}, p_whole, (10, 39))
    assert mixed[34] == WHOLE_WEIGHT * 0.99  # only the whole reading saw 34
    assert mixed[31] == (1 - WHOLE_WEIGHT) * 0.8 + WHOLE_WEIGHT * 0.01
    assert max(mixed, key=mixed.get) == 34  # a sure whole reading outweighs an unsure cut
    assert set(with_whole_reading({5: 1.0}, p_whole, (3, 17))) == {5}  # 31 and 34: more than a two-cell run makes


def test_training_photos_are_cut_without_asking_the_model_being_fitted(monkeypatch):
    # The grid finder's keypad check reads figures with the Kakuro digit model. Cutting that model's
    # own training photos with it made every fit on an empty cache start another fit in each of its
    # two worker processes, until memory ran out (a fresh machine in the nineteenth round). Seed 0's
    # photo reaches the first keypad check, seed 66's the one after lines were added at the bottom.
    import vision.kakuro_cells as cells

    def asked(*_args, **_kwargs):
        raise AssertionError("the digit model was asked for while cutting its training photos")

    monkeypatch.setattr(cells, "digit_model", asked)
    rows, labels = cells._training_chunk([0, 66])
    assert len(rows) == len(labels) > 40

