"""Where the app's puzzle comes from: a photo (upload or camera), a bundled sample, or typed text.

:func:`load_photo` and :func:`load_typed` turn one input into a :class:`Loaded`: the draft to
correct, the photo and the reading when there was one, stage timings, and — instead of a traceback —
one friendly :attr:`Loaded.error` that says what to try. HEIC photos (iPhones) open when
``pillow-heif`` is installed (:func:`vision.image_io.load_image` registers it).
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .app_state import CorrectionError, Draft, draft_from_puzzle, draft_from_text

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
"""The bundled samples (absent when kensnap is installed without its repository)."""
PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
MAX_UPLOAD_MB = 20
MAX_SHOWN = 1600
"""Photos are kept and drawn on at most this many pixels on their long side."""
TRY_PHOTO = ("Try again with the whole grid in the picture, flat and square-on, in even light, "
             "with the outer border visible — or type the puzzle instead.")


@dataclass(frozen=True, eq=False)
class Loaded:
    """One input, loaded. ``draft`` is None exactly when ``error`` says why."""

    source: str
    """What the person gave, for people: 'photo kenken.jpg', 'sample app-4x4-clean.jpg', 'typed puzzle'."""
    key: str
    """Identifies the input's content (kind + digest): the same input gives the same key."""
    draft: Draft | None
    photo: np.ndarray | None = None
    """The photo, shrunk for showing (at most ``MAX_SHOWN`` pixels on its long side)."""
    reading: object | None = None
    """The :class:`vision.Reading` of a photo."""
    seconds: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    photo_scale: float = 1.0
    """``photo``'s size relative to the image that was read (multiply the reading's points by it)."""


def digest(data: bytes) -> str:
    """A short content digest (the same bytes give the same text)."""
    return hashlib.sha1(data).hexdigest()[:16]


def load_photo(data: bytes, name: str, kind: str = "photo") -> Loaded:
    """Read the puzzle in a photo or screenshot (``data``: the file's bytes). Never raises."""
    from vision import read
    from vision.errors import NoPuzzleFound, VisionError
    from vision.helper import start as start_helper
    from vision.image_io import load_image

    source, key = f"{kind} {name}", f"{kind}:{digest(data)}"
    seconds: dict[str, float] = {}
    if len(data) > MAX_UPLOAD_MB * 1_000_000:
        return Loaded(source, key, None, error=f"The file is {len(data) // 1_000_000} MB; kensnap takes photos "
                                               f"up to {MAX_UPLOAD_MB} MB. Send a smaller photo or a screenshot.")
    start_helper()  # the app reads photo after photo: the second core helps from the next one on
    start = time.perf_counter()
    try:
        pixels = load_image(data)
    except VisionError as err:
        return Loaded(source, key, None, error=f"This file cannot be opened as a photo: {err}. "
                                               "Use a JPEG, PNG, WebP or HEIC picture.")
    seconds["open"] = round(time.perf_counter() - start, 4)
    try:
        reading = read(pixels)
    except NoPuzzleFound as err:
        return Loaded(source, key, None, pixels, seconds=seconds, error=f"No puzzle found in this picture ({err}). {TRY_PHOTO}")
    except VisionError as err:
        return Loaded(source, key, None, pixels, seconds=seconds, error=f"The puzzle could not be read: {err}. {TRY_PHOTO}")
    except Exception as err:  # a reader bug must not show a traceback to the person
        return Loaded(source, key, None, pixels, seconds=seconds,
                      error=f"kensnap failed while reading this picture ({type(err).__name__}: {err}). {TRY_PHOTO}")
    seconds.update(reading.seconds)
    shown = _shrunk(pixels)  # a session keeps this, not a 12 MP array
    return Loaded(source, key, draft_from_puzzle(reading.puzzle), shown, reading, seconds,
                  photo_scale=shown.shape[1] / pixels.shape[1])


def _shrunk(pixels: np.ndarray) -> np.ndarray:
    """The photo at most MAX_SHOWN pixels on its long side."""
    height, width = pixels.shape[:2]
    scale = MAX_SHOWN / max(height, width)
    if scale >= 1:
        return pixels
    return cv2.resize(pixels, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA)


def load_typed(text: str, source: str = "typed puzzle") -> Loaded:
    """A puzzle typed in kensnap's text format, the JSON schema or a Keen game ID. Never raises."""
    key = f"text:{digest(text.encode())}"
    start = time.perf_counter()
    try:
        draft = draft_from_text(text)
    except CorrectionError as err:
        return Loaded(source, key, None, error=f"The typed puzzle cannot be read: {err}")
    return Loaded(source, key, draft, seconds={"parse": round(time.perf_counter() - start, 4)})


def sample_names() -> list[str]:
    """The bundled sample photos and puzzle files, photos first (sorted), none when not bundled."""
    if not SAMPLES.is_dir():
        return []
    photos = sorted(p.name for p in SAMPLES.iterdir() if is_photo(p)
                    and not p.name.startswith("solved-"))
    texts = sorted(p.name for p in SAMPLES.glob("*.txt") if _is_kenken_text(p))
    return photos + texts


def _is_kenken_text(path: Path) -> bool:
    """True when the file holds a KenKen in one of the text formats (other puzzles are left out)."""
    try:
        draft_from_text(path.read_text(encoding="utf-8"))
    except (CorrectionError, OSError, UnicodeDecodeError):
        return False
    return True


def sample_path(name: str) -> Path | None:
    """The file of a sample given by name (``app-4x4-clean.jpg``, ``app-4x4-clean``) or by a path
    (``samples/app-4x4-clean.jpg``); None when there is no such file."""
    direct = Path(name)
    if direct.is_file():
        return direct
    for candidate in (SAMPLES / name, *(SAMPLES / f"{name}{suffix}" for suffix in (".jpg", ".png", ".txt"))):
        if candidate.is_file():
            return candidate
    return None


def is_photo(path: Path) -> bool:
    """Whether a file is taken for a photo (by its suffix) rather than puzzle text."""
    return path.suffix.lower().lstrip(".") in PHOTO_TYPES


def load_file(path: Path, kind: str = "sample") -> Loaded:
    """A sample or other file: a photo by its suffix, else puzzle text. Never raises."""
    try:
        data = path.read_bytes()
    except OSError as err:
        return Loaded(f"{kind} {path.name}", f"{kind}:{path}", None, error=f"Cannot open {path}: {err.strerror}")
    if is_photo(path):
        return load_photo(data, path.name, kind)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Loaded(f"{kind} {path.name}", f"{kind}:{path}", None, error=f"{path.name} is neither a photo nor puzzle text")
    return load_typed(text, f"{kind} {path.name}")
