"""How many processor cores this process may really use.

``os.cpu_count()`` counts the machine's cores, not the ones this process is given: a container
started with ``--cpus=1`` or a ``taskset`` on one core still sees every core of the host. The
second-core helpers (:mod:`vision.helper`, :mod:`vision.forked`) and the model fits' worker pools
ask :func:`usable_cores` instead, so that on one usable core they do not start processes that
would only take turns with this one.

Contract: :func:`usable_cores` is at least 1 and at most ``os.cpu_count()``; it is the smallest of
the cores in this process's affinity mask (``os.sched_getaffinity`` where there is one) and a
CPU quota set by the process's control group (cgroup v2 ``cpu.max`` or v1 ``cpu.cfs_quota_us``
over ``cpu.cfs_period_us``), rounded down. A quota that cannot be read counts as none. The answer
is worked out once per process.
"""
from __future__ import annotations

import functools
import math
import os
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
"""Where the control groups are mounted; inside a container, the container's own group."""


@functools.lru_cache(maxsize=1)
def usable_cores() -> int:
    """The cores this process may use (see the module docstring)."""
    cores = os.cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        cores = min(cores, len(os.sched_getaffinity(0)) or cores)
    quota = quota_cores(CGROUP_ROOT)
    if quota is not None:
        cores = min(cores, quota)
    return max(1, cores)


def quota_cores(root: Path) -> int | None:
    """The whole cores a control group's CPU quota under ``root`` allows, or None without a quota.

    cgroup v2 writes ``cpu.max`` as ``"<quota> <period>"`` in microseconds, or ``"max <period>"``
    without a quota; cgroup v1 writes ``cpu/cpu.cfs_quota_us`` (-1 without a quota) and
    ``cpu/cpu.cfs_period_us``. A quota under one core counts as one.
    """
    v2 = _read(root / "cpu.max")
    if v2 is not None:
        fields = v2.split()
        if len(fields) == 2 and fields[0] != "max":
            return _whole_cores(fields[0], fields[1])
        return None
    for group in ("cpu", "cpu,cpuacct"):
        quota = _read(root / group / "cpu.cfs_quota_us")
        period = _read(root / group / "cpu.cfs_period_us")
        if quota is not None and period is not None:
            return _whole_cores(quota, period)
    return None


def _whole_cores(quota: str, period: str) -> int | None:
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    if q <= 0 or p <= 0:  # v1 writes -1 for no quota
        return None
    return max(1, math.floor(q / p))


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None
