"""A second Python process, started once, that works out half of a map on the machine's other core.

The grid finder probes ten or so candidate outlines a photo, one after the other, each a few dozen
small numpy and OpenCV steps: threads gain nothing (they take turns on the interpreter lock) and a
child forked for each photo (:mod:`vision.forked`) costs the reader thousands of copy-on-write page
faults afterwards. A helper process started once and fed by pipe costs neither: it has its own
memory, imports what it needs once, and waits on its pipe between calls.

Contract:

- :func:`start` starts the helper (in the background: it is ready about 0.7 s later, once it has
  imported ``PRELOAD``). Nothing starts it by itself: callers that read many images (``kensnap
  eval``, several images on the command line, the app) start it; a single reading does not pay for
  a second interpreter's start. Measured again in the fifty-second round, the helper started first
  thing by ``kensnap solve`` for one photo: it was ready 1.0 s after its start (not the 0.7 s
  above), while this process had imported the reading code after 0.47 s and gone on to load and
  read the photo, and its first maps load the models it reads with; ten 12-megapixel photos read in
  a median 1,081 ms without it and 1,083 ms with it (the command 2.11 and 2.20 s, its start included).
  Again in the fifty-third round, with our modules' bytecode written (imports twice as fast): twelve
  other 12-megapixel photos, the command 1.70 s without and 1.69 s with it (median), the reading
  faster on the slow photos and slower on the quick ones; every output the same.
- :func:`two_core_map` is ``[func(*args) for args in items]``, the same list in the same order. When
  the helper is ready and not busy with another thread's map, it works out the later half while
  this process works out the first; otherwise, and whenever the helper fails (it died, raised, or
  gave no answer within ``ANSWER_TIMEOUT_S``), this process works out everything itself. ``func``
  must be a module-level function (it is sent by name) of pure computation, and ``items`` and its
  answers must pickle.
- A helper that failed is stopped; :func:`start` may start another, at most ``MAX_STARTS`` in all.
  The helper ends when this process ends (it reads the end of its pipe); a forked child of this
  process never uses its parent's helper.
"""
from __future__ import annotations

import atexit
import importlib
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .cores import usable_cores

ENABLED = True
"""Whether :func:`start` starts a helper at all (False: every map is worked out here)."""
ENABLED_CORES = 2
"""Fewest usable cores (:func:`vision.cores.usable_cores`) for which a helper pays: on one core the
two halves would take turns."""
PRELOAD = ("vision.grid", "vision.cages", "vision.clues", "vision.clue_candidates", "vision.convnet", "vision.kakuro_grid")
"""Modules the helper imports before it says it is ready (the maps' functions live there)."""
ANSWER_TIMEOUT_S = 30.0
"""How long a map waits for the helper's half before it stops the helper and works it out itself."""
MAX_STARTS = 3
"""How many helpers one process starts at most (a helper that keeps failing is not restarted for ever)."""

_HEADER = struct.Struct("<Q")
_READY = b"R"


class HelperFailed(RuntimeError):
    """The helper gave no answer (it died, raised, or timed out)."""


class _Helper:
    """The running helper process and the pipes to it (raw file descriptors)."""

    def __init__(self) -> None:
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = "1"  # it is the second core's
        code = "import sys; from vision.helper import serve; serve(sys.argv[1:])"
        self.process = subprocess.Popen([sys.executable, "-c", code, *PRELOAD], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                        bufsize=0, close_fds=True)
        self.owner = os.getpid()
        self.ready = False

    def is_ready(self) -> bool:
        """Whether the helper has said it is ready (without waiting)."""
        if not self.ready and self.process.poll() is None:
            readable, _, _ = select.select([self.process.stdout], [], [], 0)
            if readable:
                self.ready = os.read(self.process.stdout.fileno(), 1) == _READY
        return self.ready

    def send(self, func: Callable[..., Any], batch: list[tuple]) -> None:
        payload = pickle.dumps((func, batch), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            _write_all(self.process.stdin.fileno(), _HEADER.pack(len(payload)) + payload)
        except (OSError, ValueError) as err:  # a pipe closed at the other end or here
            raise HelperFailed(f"the helper took no request ({err})") from None

    def receive(self) -> list:
        fd = self.process.stdout.fileno()
        size = _HEADER.unpack(_read_exactly(fd, _HEADER.size, ANSWER_TIMEOUT_S))[0]
        status, value = pickle.loads(_read_exactly(fd, size, ANSWER_TIMEOUT_S))
        if status != "ok":
            raise HelperFailed(value)
        return value

    def stop(self) -> None:
        """End the helper: close its pipe (it leaves), kill it if it does not leave at once."""
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_lock = threading.Lock()
_helper: _Helper | None = None
_starts = 0


def start() -> bool:
    """Start the helper if none runs (see the module docstring); True when one runs or starts."""
    global _helper, _starts
    if not ENABLED or usable_cores() < ENABLED_CORES:
        return False
    with _lock:
        if _helper is not None and _helper.owner == os.getpid() and _helper.process.poll() is None:
            return True
        if _starts >= MAX_STARTS:
            return False
        _starts += 1
        try:
            _helper = _Helper()
        except OSError:  # no interpreter to start or no processes left: maps are worked out here
            _helper = None
            return False
        return True


def stop() -> None:
    """Stop the helper if one runs (the next :func:`start` may start another)."""
    global _helper
    with _lock:
        if _helper is not None and _helper.owner == os.getpid():
            _helper.stop()
        _helper = None


atexit.register(stop)


def two_core_map(func: Callable[..., Any], items: Iterable[tuple]) -> list:
    """``[func(*args) for args in items]``, the later half worked out by the helper when it is ready
    (see the module docstring)."""
    items = list(items)
    helper = _claimed() if len(items) >= 2 else None
    if helper is None:
        return [func(*args) for args in items]
    try:
        return _shared(helper, func, items)
    finally:
        _lock.release()


def call(func: Callable[..., Any], *args: Any) -> Any:
    """``func(*args)``: for :func:`two_core_map` over different calls, run side by side
    (``two_core_map(call, [(f, x), (g, y)])`` is ``[f(x), g(y)]``, ``g(y)`` by the helper)."""
    return func(*args)


def _claimed() -> _Helper | None:
    """The helper, ready and now this thread's (the lock held: release it after the map), or None
    (nothing held) when there is none, it is not ready, or another thread's map is using it."""
    if _helper is None or not _lock.acquire(blocking=False):
        return None
    helper = _helper  # read again under the lock: another thread may have stopped it
    if helper is None or helper.owner != os.getpid() or not helper.is_ready():
        _lock.release()
        return None
    return helper


def _shared(helper: _Helper, func: Callable[..., Any], items: list[tuple]) -> list:
    """:func:`two_core_map` with the claimed ``helper``: it is stopped when it fails (or when this
    half raises: its answer would be left in the pipe), and its half is worked out here."""
    half = len(items) // 2
    try:
        helper.send(func, items[half:])
    except HelperFailed:
        _drop(helper)
        return [func(*args) for args in items]
    try:
        own = [func(*args) for args in items[:half]]
    except BaseException:
        _drop(helper)
        raise
    try:
        theirs = helper.receive()
    except HelperFailed:
        _drop(helper)
        theirs = [func(*args) for args in items[half:]]
    return own + theirs


def _drop(helper: _Helper) -> None:
    """Stop a ``helper`` that failed (the lock held by the caller); the next :func:`start` may start another."""
    global _helper
    _helper = None
    helper.stop()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_exactly(fd: int, size: int, timeout: float | None) -> bytes:
    """``size`` bytes from ``fd``; HelperFailed when the other side ends first or sends nothing for
    ``timeout`` seconds (None: wait as long as it takes)."""
    chunks, left = [], size
    while left:
        readable, _, _ = select.select([fd], [], [], timeout)
        if not readable:
            raise HelperFailed(f"the helper gave no answer in {timeout:g} s")
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise HelperFailed("the helper ended without an answer")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def serve(modules: list[str]) -> None:
    """The helper's side: import ``modules``, say ready, then answer maps until the pipe ends.
    OpenCV keeps to one thread here: this process is the second core's."""
    import cv2

    cv2.setNumThreads(1)
    for name in modules:
        importlib.import_module(name)
    requests, answers = sys.stdin.fileno(), sys.stdout.fileno()
    _write_all(answers, _READY)
    while True:
        try:
            header = _read_exactly(requests, _HEADER.size, timeout=None)
        except HelperFailed:  # the parent closed the pipe (or went away): leave
            return
        request = _read_exactly(requests, _HEADER.unpack(header)[0], timeout=None)
        try:
            func, batch = pickle.loads(request)
            answer = pickle.dumps(("ok", [func(*args) for args in batch]), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # noqa: BLE001 - the parent works the half out itself and sees it
            answer = pickle.dumps(("error", f"{type(err).__name__}: {err}"))
        _write_all(answers, _HEADER.pack(len(answer)) + answer)
