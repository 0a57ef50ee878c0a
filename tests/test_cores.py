"""The cores a process may use: its affinity mask and its control group's CPU quota, not the host's count."""
import os

import pytest

from vision import cores
from vision.cores import quota_cores, usable_cores


def _write(root, name, text):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize("cpu_max, expected", [
    ("max 100000\n", None),          # no quota
    ("100000 100000\n", 1),          # --cpus=1
    ("50000 100000\n", 1),           # half a core still counts as one
    ("150000 100000\n", 1),          # a core and a half: one whole core
    ("400000 100000\n", 4),
    ("garbage\n", None),
])
def test_a_cgroup_v2_quota_is_read_in_whole_cores(tmp_path, cpu_max, expected):
    _write(tmp_path, "cpu.max", cpu_max)
    assert quota_cores(tmp_path) == expected


@pytest.mark.parametrize("group", ["cpu", "cpu,cpuacct"])
def test_a_cgroup_v1_quota_is_read_in_whole_cores(tmp_path, group):
    _write(tmp_path, f"{group}/cpu.cfs_period_us", "100000\n")
    _write(tmp_path, f"{group}/cpu.cfs_quota_us", "-1\n")
    assert quota_cores(tmp_path) is None
    _write(tmp_path, f"{group}/cpu.cfs_quota_us", "200000\n")
    assert quota_cores(tmp_path) == 2


def test_no_control_group_files_mean_no_quota(tmp_path):
    assert quota_cores(tmp_path) is None


@pytest.fixture
def uncached():
    """usable_cores worked out afresh in the test, and its answer under the test's patches forgotten after."""
    usable_cores.cache_clear()
    yield
    usable_cores.cache_clear()


def test_the_usable_cores_are_the_fewest_of_the_host_the_mask_and_the_quota(tmp_path, monkeypatch, uncached):
    monkeypatch.setattr(cores.os, "cpu_count", lambda: 8)
    monkeypatch.setattr(cores.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    monkeypatch.setattr(cores, "CGROUP_ROOT", tmp_path)
    assert usable_cores() == 3
    _write(tmp_path, "cpu.max", "100000 100000\n")
    usable_cores.cache_clear()
    assert usable_cores() == 1


def test_this_machine_has_at_least_one_usable_core(uncached):
    assert 1 <= usable_cores() <= (os.cpu_count() or 1)
