"""The fast quantiles equal numpy's, bit for bit."""
import numpy as np
import pytest

from vision.quantiles import median, percentile, quantile


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8])
def test_quantile_equals_numpy_on_random_arrays(dtype):
    rng = np.random.default_rng(7)
    for _ in range(300):
        shape = (int(rng.integers(1, 50)), int(rng.integers(1, 30)))
        values = (rng.random(shape) * 200).astype(dtype)
        q = float(rng.choice([0.0, 0.2, 0.25, 0.5, 0.8, 0.995, 1.0, rng.random()]))
        for axis in (None, 0, 1):
            want, got = np.quantile(values, q, axis=axis), quantile(values, q, axis=axis)
            assert np.array_equal(want, got) and np.asarray(want).dtype == np.asarray(got).dtype


def test_median_equals_numpy():
    rng = np.random.default_rng(3)
    for n in range(1, 25):
        values = list(rng.random(n) * 100)
        assert median(values) == float(np.median(values))
    assert median([3, 1, 2]) == 2.0 and median([4, 1]) == 2.5


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8])
def test_percentile_equals_numpy_on_the_percentiles_the_readers_take(dtype):
    rng = np.random.default_rng(11)
    for _ in range(200):
        shape = (int(rng.integers(1, 40)), int(rng.integers(1, 20)), int(rng.integers(1, 8)))
        values = (rng.random(shape) * 200).astype(dtype)
        for p in (1, 5, 50, 60, 75, 90, 95, 99, 99.5, float(rng.random() * 100)):
            for axis in (None, 1, 2):
                want, got = np.percentile(values, p, axis=axis), percentile(values, p, axis=axis)
                assert np.array_equal(want, got) and np.asarray(want).dtype == np.asarray(got).dtype
