"""A call run in a forked child beside this process: its answer, its failures, its cancelling."""
import os
import time

import pytest

import vision.forked as forked_module
from vision.forked import ForkedCallFailed, forked


def test_the_answer_of_a_forked_call_is_the_calls_and_sees_the_parents_data():
    data = {"numbers": list(range(10))}
    with forked(lambda: (sum(data["numbers"]), os.getpid())) as child:
        assert child is not None
        total, pid = child.result()
    assert total == 45 and pid != os.getpid()


def test_a_call_that_raises_gives_its_error_to_the_parent():
    with forked(lambda: 1 / 0) as child:
        with pytest.raises(ForkedCallFailed, match="ZeroDivisionError"):
            child.result()


def test_an_answer_that_does_not_pickle_is_a_failure_not_a_hang():
    with forked(lambda: (lambda: None)) as child:
        with pytest.raises(ForkedCallFailed):
            child.result()


def test_a_call_not_collected_is_killed_when_the_block_ends():
    started = time.perf_counter()
    with forked(time.sleep, 30) as child:
        pid = child._pid
    assert time.perf_counter() - started < 5
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no child of that number is left


def test_an_answer_is_collected_once():
    with forked(int, "7") as child:
        assert child.result() == 7
        with pytest.raises(ForkedCallFailed):
            child.result()


def test_the_child_holds_none_of_the_parents_files():
    # A warm tesseract's stdin left open in a child would keep it waiting for input after the parent closed it.
    read_end, write_end = os.pipe()
    try:
        def open_in_child(fd):
            try:
                os.fstat(fd)
                return True
            except OSError:
                return False

        with forked(open_in_child, write_end) as child:
            assert child.result() is False
    finally:
        os.close(read_end)
        os.close(write_end)


def test_nothing_is_forked_when_forking_is_off(monkeypatch):
    monkeypatch.setattr(forked_module, "ENABLED", False)
    with forked(int, "7") as child:
        assert child is None
    monkeypatch.setattr(forked_module, "ENABLED", True)
    monkeypatch.setattr(forked_module, "usable_cores", lambda: 1)
    with forked(int, "7") as child:
        assert child is None
