"""The app on a machine whose photo-reading models are not fitted yet.

On a fresh machine the models kensnap reads photos with are fitted from our own drawings (no
downloaded weights; :mod:`vision.model_cache`): an hour and a half to three hours on two cores. The
app does not wait for them: it starts at once, fits them in a background ``kensnap models --fit``
process, and says how far that is; typed puzzles, puzzle files and the solver work meanwhile, and a
photo given meanwhile is kept (the last one, if several) and read once the models are ready.

Contract:

- :func:`preparing` is None when the models the app reads photos with (the KenKen ones: the app
  reads KenKen photos with :func:`vision.read`) are in the cache (the usual case: one file check per
  model), else a :class:`Preparing` that says what is missing and what is being done about it. The
  background fit goes on to the Kakuro models after them (``kensnap models --fit`` fits every one),
  but the app does not wait for those.
- :func:`start_fitting` starts one background fit from this process when those models are missing and
  no fit is under way (none of ours alive, and no missing model's lock held by another process: a
  ``.ci/setup``, a command or another app). The fit writes to :func:`log_path`; it is this process's
  child, so stopping the app (Ctrl+C) stops it, and the next start goes on from the models already
  saved.
- :func:`keep_photo` keeps the photo given while the models are fitted on disk too (one photo, the
  last), so that closing the page does not lose it: :func:`kept_photo` gives it back to the next
  page opened (the app reads it then, or keeps it again until the models are ready), and
  :func:`forget_kept_photo` drops it once it is read. The app runs on the person's own machine, so
  "the next page" is theirs.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

FIT_COMMAND = (sys.executable, "-m", "ui.cli", "models", "--fit")
"""The background fit: ``kensnap models --fit`` run by this interpreter."""

_lock = threading.Lock()
_fit: subprocess.Popen | None = None


@dataclass(frozen=True)
class Preparing:
    """Photo reading is not ready: the models still missing and how their fit is going."""

    missing: tuple[str, ...]
    """What each missing model reads, in the order they are fitted."""
    current: str | None
    """What the model being fitted now reads (None when no fit is under way)."""
    minutes_left: int
    """About how many minutes the missing models take on two cores (the one under way counted whole)."""
    failed: str | None = None
    """The last line of our background fit's log when it ended without fitting every model."""

    def message(self) -> str:
        """One paragraph for people."""
        if self.failed:
            return (f"Photo reading could not be prepared: the models' fit stopped ({self.failed}). Run "
                    f"`kensnap models --fit` in a terminal to see why. Typed puzzles and puzzle files still work.")
        doing = (f"fitting the model for {self.current}" if self.current else "starting the models' fit")
        return (f"Photo reading is being prepared on this machine, once: {doing} "
                f"({len(self.missing)} model{'s' if len(self.missing) != 1 else ''} to go: about "
                f"{_duration(self.minutes_left)} on two cores doing nothing else, up to twice that on a slower or "
                "busy machine). Meanwhile you can type a puzzle or open a "
                "puzzle file; a photo you give now is kept and read as soon as this is done.")


def preparing() -> Preparing | None:
    """None when photo reading is ready; else what is missing and how its fit goes (see the module)."""
    from vision.model_cache import being_fitted, missing_models

    missing = missing_models(kenken_only=True)
    if not missing:
        return None
    current = next((m.reads for m in missing if being_fitted(m)), None)
    failed = None
    with _lock:
        if _fit is not None and _fit.poll() is not None and current is None:
            failed = _last_line(log_path()) or f"exit code {_fit.returncode}"
    return Preparing(tuple(m.reads for m in missing), current, sum(m.minutes for m in missing), failed)


def start_fitting() -> bool:
    """Start the background fit unless it is not needed or already under way; True when one runs."""
    global _fit
    from vision.model_cache import being_fitted, missing_models

    with _lock:
        if _fit is not None and _fit.poll() is None:
            return True
        missing = missing_models(kenken_only=True)
        if not missing:
            return False
        if any(being_fitted(m) for m in missing):
            return True  # another process fits them; ours would only wait on its lock
        if _fit is not None:
            return False  # ours ended without fitting them all: preparing() says so, no retry loop
        with open(log_path(), "a") as log:
            _fit = subprocess.Popen(FIT_COMMAND, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                    cwd=Path(__file__).resolve().parents[1])
        return True


def log_path() -> Path:
    """Where the background fit writes what it is doing."""
    from vision.glyphs import cache_dir

    return cache_dir() / "app-fit.log"


def kept_folder() -> Path:
    """Where the photo given while the models are fitted is kept (:func:`keep_photo`):
    ``$KENSNAP_APP_KEPT`` when set (the test suite sets it, so that running the tests neither reads
    nor drops a photo a person left there), else ``app-kept-photo`` in the models' cache."""
    from vision.glyphs import cache_dir

    return Path(os.environ.get("KENSNAP_APP_KEPT") or cache_dir() / "app-kept-photo")


def keep_photo(data: bytes, name: str, kind: str) -> None:
    """Keep ``data`` (a photo's bytes, ``name`` and ``kind`` as the page shows them) in place of any
    photo kept before. Its bytes are written whole before they replace the old ones, so a page
    closed meanwhile leaves one photo or the other, never a part. Raises OSError when the cache
    cannot be written (the session still keeps the photo)."""
    folder = kept_folder()
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / "photo.part"
    part.write_bytes(data)
    (folder / "about.json").write_text(json.dumps({"name": name, "kind": kind, "sha256": _digest(data)}))
    part.replace(folder / "photo")


def kept_photo() -> tuple[bytes, str, str] | None:
    """The kept photo as ``(data, name, kind)``, or None when there is none (or it cannot be read
    whole: a photo and its description that do not belong together are not given)."""
    folder = kept_folder()
    try:
        about = json.loads((folder / "about.json").read_text())
        data = (folder / "photo").read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(about, dict) or about.get("sha256") != _digest(data):
        return None
    return data, str(about.get("name", "photo")), str(about.get("kind", "photo"))


def _digest(data: bytes) -> str:
    """What ties a kept photo's description to its bytes (a page closed between the two writes of
    :func:`keep_photo` leaves the new description beside the old photo)."""
    return hashlib.sha256(data).hexdigest()


def forget_kept_photo() -> None:
    """Drop the kept photo (once it is read); nothing happens when there is none."""
    for name in ("photo", "about.json", "photo.part"):
        try:
            (kept_folder() / name).unlink()
        except FileNotFoundError:
            pass


def _last_line(path: Path) -> str | None:
    try:
        lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return None
    return lines[-1][:300] if lines else None


def _duration(minutes: int) -> str:
    return f"{minutes} minutes" if minutes < 90 else f"{minutes / 60:.1f} hours".replace(".0 ", " ")
