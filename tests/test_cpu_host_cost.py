"""The CPU engine's per-call host path (backend/cpu.py quiet, backend/cpu_fused.py _k / _piecewise): NumPy's
warnings stay off inside a primitive and the caller's error state is left as it was, also after a failure; Numba's
pool follows each engine's thread count in the calling thread; the activation constants are the kernels'."""
import math
import threading
import warnings

import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.backend import cpu


def test_a_primitive_runs_quiet_and_leaves_the_callers_error_state():
    b = alpha.engine.cpu_float32().backend
    a = np.array([1.0, 0.0, -1.0], np.float32)
    with np.errstate(all="raise"):
        before = np.geterr()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = b.div(a, np.zeros(3, np.float32))            # 1/0, 0/0: no warning, no raise
        assert np.geterr() == before
        with pytest.raises(FloatingPointError):
            np.float32(1.0) / np.zeros(1, np.float32)       # the caller's own state still holds
    assert math.isinf(out[0]) and math.isnan(out[1])


def test_a_failing_primitive_does_not_leave_the_thread_quiet():
    b = alpha.engine.cpu_float32().backend
    with pytest.raises(Exception):
        b.matmul(np.ones((2, 3), np.float32), np.ones((4, 5), np.float32))
    assert not getattr(cpu._QUIET, "on", False)
    with np.errstate(all="raise"), pytest.raises(FloatingPointError):
        np.float32(1.0) / np.zeros(1, np.float32)


def test_numba_threads_follow_each_engine_in_each_thread():
    numba = pytest.importorskip("numba")
    one, two = alpha.engine.cpu_float32(threads=1), alpha.engine.cpu_float32(threads=2)
    cap = numba.config.NUMBA_NUM_THREADS
    x = np.ones((64, 8), np.float32)
    got = []

    def run():
        for eg in (two, one, two):
            nn.relu().init(eg).forward(eg.tensor(x))
            got.append(numba.get_num_threads())
    run()
    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert got == [min(2, cap), 1, min(2, cap)] * 2


@pytest.mark.parametrize("name,p1", [("relu", 0.0), ("leakyRelu", 0.1), (None, 0.0), ("gelu", 0.0)])
def test_the_activation_constants_are_the_kernels_table(name, p1):
    from alpha_py.backend.cpu_kernels_norm import PIECEWISE
    b = alpha.engine.cpu_float32().backend
    row = PIECEWISE.get(name)
    got = b._piecewise(name, p1)
    if row is None:
        assert got is None and b._piecewise(name, p1) is None
        return
    assert got == (np.float32(row[0]), np.float32(row[1]), np.float32(row[2](p1)), np.float32(1))
    assert all(type(v) is np.float32 for v in got) and b._piecewise(name, p1) is got
