"""The numeric pin: importing ``ui`` or ``vision`` fixes OpenBLAS's kernel and threads before numpy loads,
so that models fitted on first use are the same on every machine (see vision/numeric_env.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from vision.numeric_env import _cpu_flags

PROBE = """
import ctypes, glob, json, os, sys
import {package}
import numpy
lib = glob.glob(os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs", "libscipy_openblas*.so"))
core = None
if lib:
    blas = ctypes.CDLL(lib[0])
    for name in ("scipy_openblas_get_corename64_", "openblas_get_corename"):
        if hasattr(blas, name):
            getattr(blas, name).restype = ctypes.c_char_p
            core = getattr(blas, name)().decode()
            break
print(json.dumps({{"core": core, "threads": os.environ.get("OPENBLAS_NUM_THREADS"),
                  "numpy_off": os.environ.get("NPY_DISABLE_CPU_FEATURES")}}))
"""


@pytest.mark.parametrize("package", ["ui", "vision"])
def test_importing_the_package_pins_blas_before_numpy_loads(package):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENBLAS", "NPY_"))}
    out = subprocess.run([sys.executable, "-c", PROBE.format(package=package)], env=env,
                         capture_output=True, text=True, check=True).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["threads"] == "1"
    assert "X86_V4" in seen["numpy_off"]
    if {"avx2", "fma"} <= _cpu_flags() and seen["core"] is not None:
        assert seen["core"] == "Haswell"


def test_a_choice_of_the_caller_is_kept():
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", "import ui, os; print(os.environ['OPENBLAS_NUM_THREADS'])"],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "2"
