"""Run one call in a forked copy of this process, on the machine's other core, while this one goes on.

The solver in the loop (:mod:`vision.reconcile`) has two searches that do not depend on each other;
on a photo it cannot settle quickly each spends up to half a second of work, one after the other.
:func:`forked` starts the second in a child process made by ``os.fork`` (it sees the caller's data
as it is: nothing is sent to it) and the caller runs the first meanwhile; the child's answer comes
back pickled through a pipe, or the child is killed when its answer is not needed.

Contract:

- The call must be pure computation: the child closes every file descriptor but its pipe and the
  standard streams, imports nothing new, writes nothing, and ends with ``os._exit`` (no ``atexit``
  handler runs, so the parent's warm tesseract processes and open files are not touched). Its answer
  must pickle.
- The answer is the same as the call made in this process: the child starts from a copy of it.
  :meth:`ForkedCall.result` raises :class:`ForkedCallFailed` when the child could not give one (it
  raised, was killed, or its answer did not pickle); the caller then makes the call itself.
- :func:`forked` yields None (the caller runs everything itself) where forking does not pay or is
  not possible: one core (ENABLED_CORES), no ``os.fork``, or ENABLED set False (tests that watch
  the call from the parent). A call not collected is killed when the ``with`` block ends.
- Forking from a process with other threads (the Streamlit app's) copies only the calling thread;
  the child takes no lock another thread may hold (no imports, no logging, no output).

Example::

    with forked(slow_search, options) as beside:
        first = quick_search(options)
        if not first.found:
            try:
                second = beside.result() if beside else slow_search(options)
            except ForkedCallFailed:
                second = slow_search(options)
"""
from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .cores import usable_cores

ENABLED = True
"""Whether :func:`forked` forks at all (False: every call is left to the caller)."""
ENABLED_CORES = 2
"""Fewest usable cores (:func:`vision.cores.usable_cores`) for which forking pays: on one core the
two calls would take turns."""


class ForkedCallFailed(RuntimeError):
    """The child gave no answer (it raised, was killed, or its answer did not pickle)."""


class ForkedCall:
    """A call running in a forked child: its answer collected once, or the child killed."""

    def __init__(self, pid: int, pipe: int) -> None:
        self._pid: int | None = pid
        self._pipe = pipe

    def result(self) -> Any:
        """Wait for the child's answer and return it; raises ForkedCallFailed (see the module
        docstring). Once only: the child is gone afterwards."""
        if self._pid is None:
            raise ForkedCallFailed("the call was already collected or cancelled")
        chunks = []
        try:
            while chunk := os.read(self._pipe, 1 << 16):
                chunks.append(chunk)
        finally:
            self._end(kill=False)
        try:
            status, value = pickle.loads(b"".join(chunks))
        except Exception as err:  # nothing or a cut answer: the child died before it finished
            raise ForkedCallFailed(f"the forked call ended without an answer ({type(err).__name__})") from None
        if status != "ok":
            raise ForkedCallFailed(value)
        return value

    def cancel(self) -> None:
        """Kill the child if it still runs (its answer is not wanted). Safe to call twice."""
        if self._pid is not None:
            self._end(kill=True)

    def _end(self, kill: bool) -> None:
        pid, self._pid = self._pid, None
        os.close(self._pipe)
        if kill:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.waitpid(pid, 0)


@contextmanager
def forked(call: Callable[..., Any], *args: Any) -> Iterator[ForkedCall | None]:
    """``call(*args)`` started in a forked child (see the module docstring), or None when forking
    is off or not possible here; the child is killed on leaving the block if its answer was not
    collected."""
    child = _start(call, args) if _can_fork() else None
    try:
        yield child
    finally:
        if child is not None:
            child.cancel()


def _can_fork() -> bool:
    return ENABLED and hasattr(os, "fork") and usable_cores() >= ENABLED_CORES


def _start(call: Callable[..., Any], args: tuple) -> ForkedCall | None:
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # out of processes or memory: the caller runs the call itself
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: compute, answer, leave without running any of the parent's exit handlers
        code = 1
        try:
            os.close(read_end)
            os.closerange(3, write_end)
            os.closerange(write_end + 1, 1 << 16)
            try:
                answer = pickle.dumps(("ok", call(*args)))
            except BaseException as err:  # noqa: BLE001 - the parent makes the call itself and sees it
                answer = pickle.dumps(("error", f"{type(err).__name__}: {err}"))
            view = memoryview(answer)
            while view:
                view = view[os.write(write_end, view):]
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return ForkedCall(pid, read_end)
