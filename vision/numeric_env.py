"""Pin the numeric libraries so that fitted models come out the same on every x86-64 machine.

Importing this module (``vision`` and ``ui`` do it before anything loads numpy) sets, unless the
caller already chose:

- ``OPENBLAS_NUM_THREADS=1``: our matrices are small; on a 2-core machine a second BLAS thread made
  them up to 30 times slower whenever other work was running.
- ``OPENBLAS_CORETYPE=Haswell`` (when the CPU has AVX2): OpenBLAS otherwise picks its kernels by
  CPU (SkylakeX on AVX-512 machines, Zen, Haswell...), and kernels add up in different orders. The
  models are fitted on first use (no downloaded weights), and a few thousand Adam steps turn those
  last-bit differences into visibly different models: one fit read 47 hard KenKen photos of 99,
  another 42. With one kernel everywhere a fit is the same on every machine.
- ``NPY_DISABLE_CPU_FEATURES`` to numpy's AVX-512 levels, for the same reason (numpy's ``exp`` and
  friends have AVX-512 variants), and, on a CPU with AVX-512, ``OPENCV_CPU_DISABLE`` to OpenCV's
  AVX-512 code paths (the training drawings are warped and resized by OpenCV). Elsewhere OpenCV
  would warn about disabling what the CPU lacks, so it is left alone.

Setting these after numpy is loaded does nothing; the contract is "import me first".
"""
from __future__ import annotations

import os
from pathlib import Path

BLAS_CORE = "Haswell"
NUMPY_FEATURES_OFF = "X86_V4 AVX512_ICL AVX512_SPR"


OPENCV_FEATURES_OFF = "AVX512F,AVX512-SKX"


def _cpu_flags() -> set[str]:
    """The CPU's feature flags as Linux lists them (empty where there is no /proc/cpuinfo)."""
    try:
        text = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return set()
    line = next((line for line in text.splitlines() if line.startswith("flags")), "")
    return set(line.partition(":")[2].split())


_flags = _cpu_flags()
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
if {"avx2", "fma"} <= _flags:  # what OpenBLAS's Haswell kernels need
    os.environ.setdefault("OPENBLAS_CORETYPE", BLAS_CORE)
os.environ.setdefault("NPY_DISABLE_CPU_FEATURES", NUMPY_FEATURES_OFF)
if "avx512f" in _flags:
    os.environ.setdefault("OPENCV_CPU_DISABLE", OPENCV_FEATURES_OFF)
