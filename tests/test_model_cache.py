"""The on-disk model cache (vision.glyphs): a model is fitted once, by one process, and never by its
own training."""
import numpy as np
import pytest


def test_a_model_asked_for_by_its_own_training_is_a_clear_error(tmp_path, monkeypatch):
    from vision.glyphs import fitting

    monkeypatch.setenv("KENSNAP_CACHE", str(tmp_path))

    with fitting("some-model-v1"):
        with pytest.raises(RuntimeError, match="its own training"):
            with fitting("some-model-v1"):
                pass
        with fitting("another-model-v1"):
            pass
    with fitting("some-model-v1"):  # marked again once the first fit is done
        pass


def _slow_fit():
    import time

    from vision.glyphs import fit_model
    time.sleep(3.0)
    return fit_model(np.eye(3, dtype=np.float32), np.arange(3), ("a", "b", "c"), k=1)


def _fit_in_another_process(cache):
    import os

    os.environ["KENSNAP_CACHE"] = str(cache)
    from vision.glyphs import cached_model
    cached_model("tiny-v1", _slow_fit)


def test_a_model_another_process_is_fitting_is_waited_for_not_fitted_again(tmp_path, monkeypatch):
    # Two readers on a fresh machine (the app and a command, or tests beside a fit) fitted the same
    # model side by side, each taking the whole machine for hours; now the second waits and loads.
    import multiprocessing
    import time

    from vision.glyphs import cached_model

    monkeypatch.setenv("KENSNAP_CACHE", str(tmp_path))
    other = multiprocessing.get_context("fork").Process(target=_fit_in_another_process, args=(tmp_path,))
    other.start()
    started = time.monotonic()
    while not (tmp_path / "tiny-v1.lock").exists() and time.monotonic() - started < 1.0:
        time.sleep(0.02)
    time.sleep(0.2)  # the lock is taken right after its file is opened

    def fit_again():
        raise AssertionError("fitted a second time while another process was fitting it")

    model = cached_model("tiny-v1", fit_again)
    other.join()
    assert model.classes == ("a", "b", "c") and other.exitcode == 0


def test_load_or_fit_loads_again_under_the_lock_and_fits_only_what_is_missing(tmp_path, monkeypatch):
    from vision.glyphs import load_or_fit

    monkeypatch.setenv("KENSNAP_CACHE", str(tmp_path))
    calls = []
    saved = {}

    def load():
        calls.append("load")
        return saved.get("model")

    def fit():
        calls.append("fit")
        saved["model"] = "fitted"
        return "fitted"

    assert load_or_fit("m-v1", load, fit) == "fitted"
    assert calls == ["load", "load", "fit"]  # tried again under the lock before fitting
    calls.clear()
    assert load_or_fit("m-v1", load, fit) == "fitted"
    assert calls == ["load"]
    assert (tmp_path / "m-v1.lock").exists()


def test_kensnap_models_lists_every_model_and_fits_none_without_asking(tmp_path, monkeypatch, capsys):
    import json

    from ui.cli import main
    from vision import digits, kakuro_cells, label_training

    monkeypatch.setenv("KENSNAP_CACHE", str(tmp_path))
    assert main(["models", "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {m["name"] for m in listed} >= {label_training.MODEL_VERSION, digits.MODEL_VERSION, kakuro_cells.MODEL_VERSION}
    assert not any(m["present"] for m in listed)
    assert all(f.startswith(str(tmp_path)) for m in listed for f in m["files"])
    assert list(tmp_path.glob("*.npz")) == []  # listing fitted nothing


def test_fit_missing_fits_only_the_missing_models_in_order_and_says_so(tmp_path, monkeypatch):
    from vision import model_cache
    from vision.model_cache import CachedModel, fit_missing

    made = []

    def maker(path):
        def load():
            made.append(path.name)
            path.write_bytes(b"x")
        return load

    there = tmp_path / "a.npz"
    there.write_bytes(b"x")
    models = (CachedModel("a", "A", (there,), 1, maker(there)),
              CachedModel("b", "B", (tmp_path / "b.npz",), 2, maker(tmp_path / "b.npz")),
              CachedModel("c", "C", (tmp_path / "c.npz", tmp_path / "c2.npz"), 3, maker(tmp_path / "c.npz")))
    monkeypatch.setattr(model_cache, "cached_models", lambda: models)
    said = []
    assert fit_missing(said.append) == ["b", "c"]
    assert made == ["b.npz", "c.npz"]
    assert said[0].startswith("fitting b (B): about 2 minutes") and said[2].startswith("fitting c")
