"""Every model kensnap reads photos with, where it is cached, and fitting the missing ones ahead of
time (``kensnap models``).

The models are fitted on this machine from drawings of our own renderer — no downloaded weights —
the first time one is needed, and kept in :func:`vision.glyphs.cache_dir`. On a fresh machine that
takes an hour and a half to three hours on two cores, by the machine (the clue-label network alone
50 to 130 minutes), so the first photo would wait that long without a word; :func:`fit_missing`
fits them one by one up front and says which it is fitting. A model another process is fitting is
waited for, not fitted twice (:func:`vision.glyphs.load_or_fit`).

Example::

    [m.name for m in cached_models() if not m.present]    # ['clue-strips-v7', ...]
    fit_missing(print)
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import digits, kakuro_cells, label_training
from .glyphs import lock_path


@dataclass(frozen=True)
class CachedModel:
    """One model: its cache name, what it reads, its files, and about how long a fit takes here."""

    name: str
    reads: str
    files: tuple[Path, ...]
    minutes: int
    """Rough minutes to fit on a 2-core machine doing nothing else (drawing its training set included;
    measured on a fresh machine on 2026-11-28)."""
    load: Callable[[], object]
    """Returns the model, fitting and saving it first when it is missing."""
    kenken: bool = False
    """Whether :func:`vision.read` (a KenKen photo, what the app reads) needs it; the Kakuro models
    are needed only by :func:`vision.read_any.read_any` (the command line's photos)."""

    @property
    def present(self) -> bool:
        """Whether every file of the model is in the cache."""
        return all(path.exists() for path in self.files)


def cached_models() -> tuple[CachedModel, ...]:
    """Every model, in the order :func:`fit_missing` fits them (the ones the most photos need first)."""
    kc = kakuro_cells
    return (
        CachedModel(label_training.MODEL_VERSION, "KenKen clue labels ('12×', '3−')", label_training.model_files(),
                    50, label_training.label_model, kenken=True),
        CachedModel(digits.MODEL_VERSION, "digits written in KenKen cells", digits.model_files(), 10,
                    digits.big_digit_model, kenken=True),
        CachedModel(kc.MODEL_VERSION, "Kakuro clue digits and written digits", kc.digit_model_files(), 10,
                    kc.digit_model),
        CachedModel(kc.NUMBER_MODEL_VERSION, "Kakuro clue totals read whole", kc.number_model_files(), 11,
                    kc.number_model),
        CachedModel(kc.LOCAL_MODEL_VERSION, "Kakuro clue digits over the local fill", kc.digit_model_files(True),
                    11, lambda: kc.digit_model(local=True)),
        CachedModel(kc.LOCAL_NUMBER_MODEL_VERSION, "Kakuro clue totals over the local fill",
                    kc.number_model_files(True), 10, lambda: kc.number_model(local=True)),
    )


def fit_missing(say: Callable[[str], None]) -> list[str]:
    """Fit (or wait for another process fitting) every model not yet in the cache, in order, telling
    ``say`` before and after each; returns the names fitted. Models present are only checked."""
    fitted = []
    for model in missing_models():
        say(f"fitting {model.name} ({model.reads}): about {model.minutes} minutes on two cores, once")
        started = time.monotonic()
        model.load()
        say(f"{model.name} ready after {(time.monotonic() - started) / 60:.0f} min")
        fitted.append(model.name)
    return fitted


def missing_models(kenken_only: bool = False) -> tuple[CachedModel, ...]:
    """The models not (wholly) in the cache, in the order :func:`fit_missing` fits them; with
    ``kenken_only``, only those :func:`vision.read` needs."""
    return tuple(model for model in cached_models() if not model.present and (model.kenken or not kenken_only))


def being_fitted(model: CachedModel) -> bool:
    """Whether some process holds ``model``'s fitting lock now (:func:`vision.glyphs.fitting`): a fit
    of it is under way, in this process or another. Asked without waiting."""
    import fcntl

    path = lock_path(model.name)
    if not path.exists():
        return False
    with open(path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(lock, fcntl.LOCK_UN)
    return False
