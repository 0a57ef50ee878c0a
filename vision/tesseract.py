"""The one module that runs the ``tesseract`` program: batched line reading with confidences.

Algorithm: the caller hands a list of small text images (e.g. every clue number of a puzzle). Each
is converted to black ink on white, scaled to a common text height and pasted, one per row with
generous white gaps, into a single *mosaic* image whose row slots are known. One tesseract process
(``--psm 6``, a uniform block of text, TSV output, an optional character whitelist) reads the
mosaic from stdin; every recognised word is mapped back to the slot its box centre falls in.
So a whole puzzle costs one process start, not one per cage. Most of a run is that start (tesseract
loads its model before it reads its stdin: about 0.22 of 0.25 s here), so the process is started
ahead (:class:`WarmProcesses`): :meth:`TesseractEngine.prepare` starts one while the caller still
finds its crops, and every run starts the next run's at once; a run that finds its process ready
waits about 0.035 s for the same output.

Engines implement :class:`OcrEngine`; :class:`TesseractEngine` is the real one and
:class:`NullEngine` (reads nothing) / :class:`FakeEngine` (scripted answers) serve tests.

Failures: a missing program raises :class:`~vision.errors.TesseractMissing` with an install hint;
a crash, timeout or unreadable output raises :class:`~vision.errors.TesseractFailed`.

Example::

    engine = TesseractEngine()
    readings = engine.read_lines([crop_12, crop_7], whitelist="0123456789")
    readings[0].text, readings[0].confidence   # '12', 0.96
"""
from __future__ import annotations

import atexit
import os
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from .errors import TesseractFailed, TesseractMissing
from .grey import to_grey

DIGITS = "0123456789"
TESSERACT_ENV = {**os.environ, "OMP_THREAD_LIMIT": "1"}
"""Tesseract's environment: one OpenMP thread. Its threads only pay off on big pages; on a
mosaic of clue labels on a busy 2-core machine they made the run several times slower."""
INSTALL_HINT = "install it with: sudo apt-get install tesseract-ocr tesseract-ocr-eng"


@dataclass(frozen=True)
class OcrWord:
    """One word tesseract saw, in the coordinates of the caller's crop."""

    text: str
    box: tuple[int, int, int, int]
    """``(x0, y0, x1, y1)`` in the crop's pixels."""
    confidence: float
    """0..1 (tesseract's word confidence / 100)."""


@dataclass(frozen=True)
class LineReading:
    """What was read in one crop: its words left to right; empty when nothing was read."""

    words: tuple[OcrWord, ...] = ()

    @property
    def text(self) -> str:
        """The words joined without spaces (numbers are one token even when tesseract splits them)."""
        return "".join(w.text for w in self.words)

    @property
    def confidence(self) -> float:
        """The least confident word's confidence; 0.0 when nothing was read."""
        return min((w.confidence for w in self.words), default=0.0)


class OcrEngine(Protocol):
    """Reads one line of text in each crop, all crops in one go."""

    def read_lines(self, crops: Sequence[np.ndarray], whitelist: str = DIGITS) -> list[LineReading]:
        """One :class:`LineReading` per crop (grey or RGB uint8, dark text on light), in order."""
        ...

    def prepare(self, whitelist: str = DIGITS) -> None:
        """Get ready for a later :meth:`read_lines` with ``whitelist`` (may do nothing; never raises)."""
        ...


@dataclass(frozen=True)
class NullEngine:
    """An engine that reads nothing: every crop gives an empty reading."""

    def read_lines(self, crops: Sequence[np.ndarray], whitelist: str = DIGITS) -> list[LineReading]:
        """Empty readings, one per crop."""
        return [LineReading() for _ in crops]

    def prepare(self, whitelist: str = DIGITS) -> None:
        """Nothing to get ready."""


@dataclass(frozen=True)
class FakeEngine:
    """A scripted engine for tests: reading ``i`` is ``answers[i]`` (text, confidence); crops past
    the script read nothing. Records nothing, spawns nothing."""

    answers: tuple[tuple[str, float], ...] = ()

    def read_lines(self, crops: Sequence[np.ndarray], whitelist: str = DIGITS) -> list[LineReading]:
        """The scripted answers, one per crop."""
        out = []
        for i, crop in enumerate(crops):
            if i < len(self.answers) and self.answers[i][0]:
                text, conf = self.answers[i]
                out.append(LineReading((OcrWord(text, (0, 0, crop.shape[1], crop.shape[0]), conf),)))
            else:
                out.append(LineReading())
        return out

    def prepare(self, whitelist: str = DIGITS) -> None:
        """Nothing to get ready."""


@dataclass(frozen=True)
class Mosaic:
    """Crops pasted one per row into a single white image, and where each row slot is."""

    image: np.ndarray
    slots: tuple[tuple[int, int, int, float], ...]
    """Per crop: ``(x0, y0, y1, scale)``: its left edge, top and bottom row, and the factor it was scaled by."""


def build_mosaic(crops: Sequence[np.ndarray], text_height: int = 48, gap: int = 30, margin: int = 20) -> Mosaic:
    """Stack the crops (each scaled so its height is ``text_height``) on white, one per row.
    Crops are taken as grey, dark ink on light; empty crops get an empty slot."""
    rows, slots, y, width = [], [], margin, 2 * margin + 1
    for crop in crops:
        grey = to_grey(crop)
        if grey.size == 0 or grey.shape[0] < 2:
            slots.append((margin, y, y, 1.0))
            continue
        scale = text_height / grey.shape[0]
        scaled = cv2.resize(grey, (max(1, round(grey.shape[1] * scale)), text_height), interpolation=cv2.INTER_CUBIC)
        rows.append((y, scaled))
        slots.append((margin, y, y + text_height, scale))
        width = max(width, 2 * margin + scaled.shape[1])
        y += text_height + gap
    image = np.full((max(y, 2 * margin) + margin, width), 255, np.uint8)
    for top, scaled in rows:
        image[top:top + scaled.shape[0], margin:margin + scaled.shape[1]] = scaled
    return Mosaic(image, tuple(slots))


@dataclass(frozen=True)
class TesseractEngine:
    """The real engine: one ``tesseract`` process per call to :meth:`read_lines`."""

    command: str = "tesseract"
    timeout: float = 20.0
    """Seconds before the process is killed (TesseractFailed)."""
    language: str = "eng"
    extra: tuple[str, ...] = field(default=())
    """More ``-c name=value`` settings."""

    def read_lines(self, crops: Sequence[np.ndarray], whitelist: str = DIGITS) -> list[LineReading]:
        """Read every crop with one tesseract run; see the module docstring. Raises
        TesseractMissing / TesseractFailed."""
        if not crops:
            return []
        mosaic = build_mosaic(crops)
        tsv = self.run_tsv(mosaic.image, whitelist)
        return assign_words(parse_tsv(tsv), mosaic)

    def arguments(self, whitelist: str) -> list[str]:
        """The command line: read PNG from stdin, write TSV to stdout, one block of text."""
        args = [self.command, "stdin", "stdout", "-l", self.language, "--psm", "6", "--oem", "1"]
        if whitelist:
            args += ["-c", f"tessedit_char_whitelist={whitelist}"]
        for setting in self.extra:
            args += ["-c", setting]
        return args + ["tsv"]

    def prepare(self, whitelist: str = DIGITS) -> None:
        """Start the process a later :meth:`read_lines` with ``whitelist`` will use, so that it
        loads its model meanwhile (nothing when one is ready; a missing program is reported by
        that call, not here)."""
        WARM.start(tuple(self.arguments(whitelist)))

    def run_tsv(self, image: np.ndarray, whitelist: str) -> str:
        """Tesseract's TSV for one grey image, read by a process started ahead when one is ready
        (and the next one started). Raises TesseractMissing / TesseractFailed."""
        ok, png = cv2.imencode(".png", image)
        if not ok:
            raise TesseractFailed("could not encode the image for tesseract")
        args = tuple(self.arguments(whitelist))
        process = WARM.take(args) or self._started(args)
        try:
            out, err = process.communicate(png.tobytes(), timeout=self.timeout)
        except subprocess.TimeoutExpired as error:
            process.kill()
            process.communicate()
            raise TesseractFailed(f"tesseract took longer than {self.timeout:g} s and was stopped") from error
        finally:
            WARM.start(args)
        if process.returncode != 0:
            message = err.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
            raise TesseractFailed(f"tesseract failed (exit {process.returncode}): {message[0]}")
        return out.decode(errors="replace")

    def _started(self, args: tuple[str, ...]) -> subprocess.Popen:
        """A new tesseract process for ``args``. Raises TesseractMissing."""
        try:
            return _popen(args)
        except FileNotFoundError as error:
            raise TesseractMissing(f"the OCR program '{self.command}' was not found; {INSTALL_HINT}") from error
        except PermissionError as error:
            raise TesseractMissing(f"the OCR program '{self.command}' cannot be run; {INSTALL_HINT}") from error


def _popen(args: tuple[str, ...]) -> subprocess.Popen:
    """Tesseract started with ``args``, its stdin, stdout and stderr piped (it waits for its image)."""
    return subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=TESSERACT_ENV)


class WarmProcesses:
    """Tesseract processes started ahead, at most one per command line, each waiting for its image
    on stdin. Thread-safe (the app reads in threads); a process is handed only to the process that
    started it (a forked worker does not share its parent's pipes); all are stopped at exit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready: dict[tuple[str, ...], tuple[int, subprocess.Popen]] = {}

    def take(self, args: tuple[str, ...]) -> subprocess.Popen | None:
        """The ready process for ``args`` (no longer held here), or None."""
        with self._lock:
            owner, process = self._ready.pop(args, (None, None))
        if process is None or owner != os.getpid():
            return None
        if process.poll() is not None:  # ended meanwhile (killed): reaped, and a new one is started
            process.communicate()
            return None
        return process

    def start(self, args: tuple[str, ...]) -> None:
        """Start a process for ``args`` unless one is ready (a program that cannot run: nothing)."""
        with self._lock:
            owner, process = self._ready.get(args, (None, None))
            if process is not None and owner == os.getpid() and process.poll() is None:
                return
            try:
                self._ready[args] = (os.getpid(), _popen(args))
            except OSError:
                self._ready.pop(args, None)

    def stop(self) -> None:
        """Stop every ready process of this process."""
        with self._lock:
            ready, self._ready = self._ready, {}
        for owner, process in ready.values():
            if owner == os.getpid():
                process.kill()
                process.communicate()


WARM = WarmProcesses()
"""The processes started ahead (see :class:`WarmProcesses`)."""
atexit.register(WARM.stop)


def parse_tsv(tsv: str) -> list[OcrWord]:
    """The words (level 5 rows with text) of tesseract's TSV output, in mosaic pixels.
    Raises TesseractFailed when the header is missing."""
    lines = tsv.splitlines()
    if not lines or not lines[0].startswith("level"):
        if not tsv.strip():
            return []
        raise TesseractFailed("tesseract's TSV output has no header")
    words = []
    for line in lines[1:]:
        parts = line.split("\t")
        if len(parts) < 12 or parts[0] != "5" or not parts[11].strip():
            continue
        left, top, width, height = map(int, parts[6:10])
        conf = max(0.0, float(parts[10])) / 100
        words.append(OcrWord(parts[11].strip(), (left, top, left + width, top + height), conf))
    return words


def assign_words(words: Sequence[OcrWord], mosaic: Mosaic) -> list[LineReading]:
    """Each word given to the slot whose rows hold its box centre, in crop coordinates, sorted
    left to right; words between slots are dropped."""
    found: list[list[OcrWord]] = [[] for _ in mosaic.slots]
    for word in words:
        cy = (word.box[1] + word.box[3]) / 2
        for i, (x0, y0, y1, scale) in enumerate(mosaic.slots):
            if y0 - 10 <= cy <= y1 + 10 and y1 > y0:
                box = tuple(int(round(v)) for v in ((word.box[0] - x0) / scale, (word.box[1] - y0) / scale,
                                                     (word.box[2] - x0) / scale, (word.box[3] - y0) / scale))
                found[i].append(OcrWord(word.text, box, word.confidence))
                break
    return [LineReading(tuple(sorted(ws, key=lambda w: w.box[0]))) for ws in found]
