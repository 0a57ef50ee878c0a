"""The numpy convolutional network: exact gradients, learning, determinism, saving."""
import numpy as np
import pytest

from vision.convnet import ConvNet, fit_convnet


def _tiny(seed=0):
    rng = np.random.default_rng(seed)
    rows = rng.random((6, 64)).astype(np.float32)
    labels = rng.integers(0, 3, 6)
    net = fit_convnet(rows, labels, ("a", "b", "c"), shape=(8, 8), channels=(3, 4), hidden=5, epochs=0, seed=seed)
    return rows, labels, net


def _loss(net, rows, labels):
    p = net.probabilities(rows)
    return -np.log(p[np.arange(len(labels)), labels]).mean()


@pytest.mark.parametrize("name", ["w1", "b1", "w2", "b2", "w3", "w4", "b4"])
def test_gradients_match_finite_differences(name):
    rows, labels, net = _tiny()
    params = {k: v.astype(np.float64) for k, v in net.params.items()}
    net = ConvNet(net.classes, net.shape, net.mean, net.scale, params)
    rows = rows.astype(np.float64)
    grads = net.gradients(rows, labels, 0.0)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(6):
        i = tuple(int(rng.integers(0, s)) for s in params[name].shape)
        old = params[name][i]
        params[name][i] = old + 1e-6
        up = _loss(net, rows, labels)
        params[name][i] = old - 1e-6
        down = _loss(net, rows, labels)
        params[name][i] = old
        numeric = (up - down) / 2e-6
        assert grads[name][i] == pytest.approx(numeric, rel=1e-4, abs=1e-7)
        checked += abs(numeric) > 1e-6
    assert checked or name.startswith("b")  # at least one weight with a gradient was checked


def test_prediction_pass_equals_training_pass():
    """``logits`` builds its convolution rows in another order (and in small batches) than the
    training pass; the scores must be the same."""
    rng = np.random.default_rng(5)
    rows = rng.random((150, 64)).astype(np.float32)
    net = fit_convnet(rows, rng.integers(0, 3, 150), ("a", "b", "c"), shape=(8, 8), channels=(3, 5), hidden=7,
                      epochs=0, seed=1)
    assert np.allclose(net.logits(rows), net._forward(rows)[0], rtol=1e-5, atol=1e-5)
    assert np.allclose(net.probabilities(rows).sum(1), 1, atol=1e-5)


def _bars(n, rng):
    """8×8 images with a vertical (class 0) or horizontal (class 1) bar somewhere, plus noise."""
    rows = rng.normal(0, 0.2, (n, 8, 8)).astype(np.float32)
    labels = rng.integers(0, 2, n)
    at = rng.integers(1, 7, n)
    for k in range(n):
        if labels[k]:
            rows[k, at[k], :] += 1
        else:
            rows[k, :, at[k]] += 1
    return rows.reshape(n, 64), labels


def test_learns_a_shape_wherever_it_is_and_is_deterministic():
    rng = np.random.default_rng(4)
    rows, labels = _bars(1200, rng)
    test_rows, test_labels = _bars(300, rng)
    net = fit_convnet(rows, labels, ("v", "h"), shape=(8, 8), channels=(4, 8), hidden=16, epochs=4, seed=2)
    again = fit_convnet(rows, labels, ("v", "h"), shape=(8, 8), channels=(4, 8), hidden=16, epochs=4, seed=2)
    probs = net.probabilities(test_rows)
    assert np.allclose(probs.sum(1), 1, atol=1e-5)
    assert (probs.argmax(1) == test_labels).mean() > 0.95
    assert np.array_equal(probs, again.probabilities(test_rows))


def test_annealing_settles_a_fit_that_ended_at_a_high_rate_and_leaves_it_unchanged():
    # A fit of few epochs at a high rate ends with its weights still jumping; a last pass at a rate
    # falling to nothing lowers the loss on the rows it saw, without touching the network it got.
    from vision.convnet import anneal_convnet

    rng = np.random.default_rng(5)
    rows, labels = _bars(1200, rng)
    labels = np.where(rng.random(len(labels)) < 0.15, 1 - labels, labels)  # noisy: no loss of zero
    net = fit_convnet(rows, labels, ("v", "h"), shape=(8, 8), channels=(4, 8), hidden=16, epochs=1, rate=3e-2,
                      seed=2)
    before = {name: value.copy() for name, value in net.params.items()}

    def loss(model):
        return -np.log(model.probabilities(rows)[np.arange(len(labels)), labels]).mean()

    tuned = anneal_convnet(net, rows, labels, rate=3e-3, epochs=2, seed=1)
    again = anneal_convnet(net, rows, labels, rate=3e-3, epochs=2, seed=1)
    assert loss(tuned) < loss(net) - 0.01
    assert all(np.array_equal(net.params[name], value) for name, value in before.items())
    assert np.array_equal(tuned.probabilities(rows), again.probabilities(rows))


def test_save_and_load_round_trip(tmp_path):
    rows, _, net = _tiny()
    net.save(tmp_path / "net.npz")
    back = ConvNet.load(tmp_path / "net.npz")
    assert back.classes == net.classes and back.shape == net.shape
    assert np.allclose(back.probabilities(rows), net.probabilities(rows))
    assert ConvNet.load(tmp_path / "missing.npz") is None
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    assert ConvNet.load(tmp_path / "junk.npz") is None


def test_shape_must_pool_twice():
    with pytest.raises(ValueError, match="divisible by 4"):
        fit_convnet(np.zeros((2, 30), np.float32), np.zeros(2, int), ("a",), shape=(6, 5))


def test_moments_of_a_large_float16_memory_map_do_not_overflow(tmp_path):
    # numpy sums float16 in float16: the std of the label network's 2-billion-value training set
    # (saved as float16) came out infinite, and a network fitted with it reads nothing.
    from vision.convnet import feature_moments

    rows = np.full((40_000, 64), 40.0, np.float16)  # a sum of 1.6 million per 64-value column
    rows[::2] = 20.0
    np.save(tmp_path / "rows.npy", rows)
    mapped = np.load(tmp_path / "rows.npy", mmap_mode="r")
    with np.errstate(over="ignore"):
        assert not np.isfinite(np.sum(mapped[:, 0]))
    mean, std = feature_moments(mapped, block=3000)
    assert mean == pytest.approx(30.0) and std == pytest.approx(10.0)
    small = np.random.default_rng(1).normal(2, 3, (500, 8)).astype(np.float32)
    assert feature_moments(small, block=7) == pytest.approx((float(small.mean()), float(small.std())), rel=1e-5)


def test_pooling_before_the_activation_gives_the_same_numbers_bit_for_bit():
    from vision.convnet import _by_shift, _pool, _pooled_activation, _shifted_rows

    rng = np.random.default_rng(9)
    y = rng.normal(0, 1, (7, 12, 8, 5)).astype(np.float32)
    y[0, :2, :2, 0] = 0.25  # a tie
    bias = rng.normal(0, 1, 5).astype(np.float32)
    assert np.array_equal(_pooled_activation(y.copy(), bias), _pool(np.maximum(y + bias, 0)))
    # and a whole prediction as it was computed before: ReLU(conv + bias), then pooled
    rows = rng.random((40, 64)).astype(np.float32)
    net = fit_convnet(rows, rng.integers(0, 3, 40), ("a", "b", "c"), shape=(8, 8), channels=(3, 5), hidden=7,
                      epochs=0, seed=2)
    p = net.params
    a0 = ((rows.reshape(40, 8, 8, 1) - net.mean) / net.scale).astype(np.float32)
    z1 = np.maximum(_shifted_rows(a0) @ _by_shift(p["w1"]) + p["b1"], 0).reshape(40, 8, 8, -1)
    z2 = np.maximum(_shifted_rows(_pool(z1)) @ _by_shift(p["w2"]) + p["b2"], 0).reshape(40, 4, 4, -1)
    z3 = np.maximum(_pool(z2).reshape(40, -1) @ p["w3"] + p["b3"], 0)
    assert np.array_equal(net.logits(rows), z3 @ p["w4"] + p["b4"])


@pytest.mark.parametrize("shape", [(8, 8), (24, 24), (12, 16)])
def test_a_strips_frames_worked_out_over_the_strip_give_the_same_numbers_bit_for_bit(shape):
    """ConvNet.strip_probabilities (the convolutions once over each strip, the frames' edge columns
    apart) against probabilities of every frame (strip_frames), on strips of many widths: narrower
    than a frame, as wide, wider, and several together, so that the last batch of the dense layers
    holds a few rows."""
    from vision.convnet import strip_frames

    h, w = shape
    rng = np.random.default_rng(5)
    rows = rng.random((6, h * w)).astype(np.float32)
    net = fit_convnet(rows, rng.integers(0, 3, 6), ("a", "b", "c"), shape=shape, channels=(3, 4), hidden=5,
                      epochs=0, seed=2)
    strips = [rng.random((h, width)).astype(np.float32) for width in (1, 5, w - 1, w, w + 3, 40, 97)]
    strips[2][:, :2] = 0  # a strip with blank columns, as a label's margins are
    frames = np.concatenate([strip_frames(strip, w) for strip in strips])
    got = net.strip_probabilities(strips)
    assert got.shape == (sum(s.shape[1] for s in strips), 3)
    assert np.array_equal(got, net.probabilities(frames))
    assert np.array_equal(net.strip_probabilities(strips[3:4]), net.probabilities(strip_frames(strips[3], w)))
