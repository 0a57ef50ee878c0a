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


# --- a machine whose models are not fitted yet ------------------------------------------------

def _fake_models(tmp_path, monkeypatch, missing=("b", "c")):
    """Three KenKen models and a Kakuro one ("k") in a cache under tmp_path, those named in ``missing`` absent."""
    from vision import model_cache
    from vision.model_cache import CachedModel

    monkeypatch.setenv("KENSNAP_CACHE", str(tmp_path))
    models = []
    for name, minutes in (("a", 50), ("b", 5), ("c", 10), ("k", 11)):
        path = tmp_path / f"{name}.npz"
        if name not in missing:
            path.write_bytes(b"x")
        else:
            path.unlink(missing_ok=True)
        models.append(CachedModel(name, f"reading {name}", (path,), minutes, lambda: None, kenken=name != "k"))
    monkeypatch.setattr(model_cache, "cached_models", lambda: tuple(models))
    return models


def test_a_model_whose_lock_another_process_holds_is_being_fitted(tmp_path, monkeypatch):
    import fcntl
    import subprocess
    import sys

    from vision.model_cache import being_fitted, missing_models

    models = _fake_models(tmp_path, monkeypatch)
    assert [m.name for m in missing_models()] == ["b", "c"]
    assert not being_fitted(models[1])  # no lock file yet
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time\n"
                               f"f = open({str(tmp_path / 'b.lock')!r}, 'a'); fcntl.flock(f, fcntl.LOCK_EX)\n"
                               "print('held', flush=True); time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert being_fitted(models[1]) and not being_fitted(models[2])
    finally:
        holder.kill()
        holder.wait()
    assert not being_fitted(models[1])  # the lock goes with its process
    with open(tmp_path / "c.lock", "a") as lock:  # this process fitting it counts too
        fcntl.flock(lock, fcntl.LOCK_EX)
        assert being_fitted(models[2])


def test_a_command_says_once_that_the_models_are_fitted_first(tmp_path, monkeypatch, capsys):
    import ui.cli
    import vision.read_any
    from ui.cli import main
    from vision.errors import VisionError
    from vision.glyphs import load_or_fit
    from vision.image_io import ImageError

    def needs_a_model(source, **_):
        """A stand-in reader: a photo that loads needs model "b" (fitted at once here), another is bad."""
        if "bad" in str(source):
            raise ImageError("not an image")
        load_or_fit("b", lambda: "cached" if (tmp_path / "b.npz").exists() else None, lambda: "fitted")
        raise VisionError("not read in this test")

    monkeypatch.setattr(vision.read_any, "read_any", needs_a_model)
    monkeypatch.setattr(ui.cli, "_models_said", False)
    _fake_models(tmp_path, monkeypatch, missing=())
    assert main(["read", "a.jpg"]) == 2
    assert "not fitted" not in capsys.readouterr().err
    monkeypatch.setattr(ui.cli, "_models_said", False)
    _fake_models(tmp_path, monkeypatch)
    assert main(["read", "bad.jpg"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0  # a bad file: its error alone, no word of models
    assert main(["read", "a.jpg"]) == 2 and main(["solve", "b.jpg"]) == 2
    err = capsys.readouterr().err
    assert err.count("not fitted on this machine yet (b, c)") == 1 and "about 15 minutes" in err
    assert "kensnap models --fit" in err


def test_the_app_fits_missing_models_in_the_background_once_and_says_how_far_it_is(tmp_path, monkeypatch):
    import sys

    from ui import app_models

    _fake_models(tmp_path, monkeypatch, missing=())
    monkeypatch.setattr(app_models, "_fit", None)
    assert app_models.preparing() is None and not app_models.start_fitting()
    _fake_models(tmp_path, monkeypatch, missing=("k",))  # the app reads KenKen photos: a Kakuro model is not waited for
    assert app_models.preparing() is None and not app_models.start_fitting()

    _fake_models(tmp_path, monkeypatch)
    # The background fit, here a stand-in that "fits" b then c a moment later, as `kensnap models --fit` does.
    monkeypatch.setattr(app_models, "FIT_COMMAND", (sys.executable, "-c", (
        "import fcntl, pathlib, time, sys\n"
        f"root = pathlib.Path({str(tmp_path)!r})\n"
        "for name in 'bc':\n"
        "    lock = open(root / f'{name}.lock', 'a'); fcntl.flock(lock, fcntl.LOCK_EX)\n"
        "    print('fitting', name, flush=True); time.sleep(0.6); (root / f'{name}.npz').write_bytes(b'x')\n"
        "    fcntl.flock(lock, fcntl.LOCK_UN)\n")))
    first = app_models.preparing()
    assert first.missing == ("reading b", "reading c") and first.current is None and first.minutes_left == 15
    assert "starting the models' fit" in first.message() and "kept" in first.message()
    assert app_models.start_fitting() and app_models.start_fitting()  # one fit, not two
    process = app_models._fit
    seen = set()
    while process.poll() is None:
        now = app_models.preparing()
        if now is not None and now.current:
            seen.add(now.current)
            assert f"fitting the model for {now.current}" in now.message()
    assert process.returncode == 0 and app_models._fit is process
    assert seen and seen <= {"reading b", "reading c"}
    assert app_models.preparing() is None and not app_models.start_fitting()
    assert "fitting c" in app_models.log_path().read_text()


def test_the_app_says_so_when_its_background_fit_fails(tmp_path, monkeypatch):
    import sys

    from ui import app_models

    _fake_models(tmp_path, monkeypatch)
    monkeypatch.setattr(app_models, "_fit", None)
    monkeypatch.setattr(app_models, "FIT_COMMAND", (sys.executable, "-c", "import sys; sys.exit('no space left on device')"))
    assert app_models.start_fitting()
    app_models._fit.wait()
    failed = app_models.preparing()
    assert failed.failed == "no space left on device" and "could not be prepared" in failed.message()
    assert not app_models.start_fitting()  # not retried in a loop; the message says what to run
