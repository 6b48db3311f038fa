"""The CPU engine's per-call host path (backend/cpu.py quiet, backend/cpu_fused.py _k / _piecewise): NumPy's
warnings stay off inside a primitive and the caller's error state is left as it was, also after a failure; Numba's
pool follows each engine's thread count in the calling thread; the activation constants are the kernels'; with one
malloc arena (the bridges' processes), a thread's arrays come from the main heap; a matmul the pool would not
split skips the pool."""
import math
import platform
import subprocess
import sys
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


_ARENA_PROBE = """
import sys, threading
import numpy as np
from alpha_py.backend.cpu_fused import keep_freed_memory, one_malloc_arena
keep_freed_memory()
if sys.argv[1] == "1":
    assert one_malloc_arena()
out = []
def work():
    out.append(np.empty(1 << 18, np.float32).ctypes.data)     # 1 MB: below the raised mmap threshold
t = threading.Thread(target=work)
t.start()
t.join()
for line in open("/proc/self/maps"):
    if line.rstrip().endswith("[heap]"):
        lo, hi = (int(v, 16) for v in line.split()[0].split("-"))
        print(lo <= out[0] < hi)
"""


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's mallopt")
def test_one_malloc_arena_serves_other_threads_from_the_main_heap():
    """one_malloc_arena (the Py4J server and the JPype launcher call it): a thread other than the main one allocates
    from the main arena, whose freed pages keep_freed_memory keeps, not from an arena of its own (which deleted its
    heaps as they emptied: page faults every step). Run in fresh processes: the setting lasts a process's life."""
    def probe(flag):
        r = subprocess.run([sys.executable, "-c", _ARENA_PROBE, flag], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()
    assert probe("0") == "False" and probe("1") == "True"


@pytest.mark.parametrize("m,pool", [(16, False), (40, False), (700, True)])
def test_matmul_the_pool_would_not_split_is_one_numpy_call(monkeypatch, m, pool):
    """A product the pool would give one part (fewer than 2 x MATMUL_ROWS_PER_PART rows on 2 threads: a small
    batch's layers) is one NumPy call, without the pool's launch; more rows go to the pool. Same sums either way."""
    from alpha_py.backend.cpu import CpuBackend
    f = CpuBackend(np.float32, threads=2)
    rng = np.random.default_rng(m)
    a, b = rng.standard_normal((m, 64)).astype(np.float32), rng.standard_normal((64, 64)).astype(np.float32)
    entered = []
    gemm = f._gemm
    monkeypatch.setattr(f, "_gemm", lambda: entered.append(1) or gemm())
    for ta in (False, True):
        x = np.ascontiguousarray(a.T) if ta else a
        np.testing.assert_allclose(f.matmul(x, b, ta), a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                                   atol=1e-4)
    assert bool(entered) == (pool and f.threads > 1)       # (a 1-core host: every product is one part)
