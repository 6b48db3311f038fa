"""GPU: the kernel caches of a cold start (kernel_prebuild.py, kernel_loader.py, conv_algo.py). Children with fresh
CUPY_CACHE_DIR / ALPHA_CACHE_DIR: a cold engine compiles its set on worker threads and records it; garbage in the
cubins and the record, a stale record and a cleared CuPy cache are rebuilt (with a warning where Alpha owns the
file) and the kernels still compute the right thing; a module compiled on a worker thread runs on the main one;
the shipped algorithm table answers this GPU's known shapes without timing."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cuda_parity import cpu, gpu, require_gpu

pytestmark = pytest.mark.gpu
ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
CHILD = r"""
import json, sys, warnings
warnings.simplefilter("always")
import numpy as np
from alpha_py import alpha
from alpha_py.backend import kernel_loader as kl, kernel_prebuild as kp
eg = alpha.engine.cuda_float32(0)
b = eg.backend
b.prebuild_kernels(wait=True)
rng = np.random.RandomState(0)
x = rng.randn(4, 10, 10, 8).astype(np.float32); w = rng.randn(16, 3, 3, 8).astype(np.float32)
y = b.to_host(b.conv_fwd(b.from_host(x), b.from_host(w), (1, 1), (1, 1)))
ref = alpha.engine.cpu_float32().backend.conv_fwd(x, w, (1, 1), (1, 1))
print(json.dumps({"compiled": kl.stats["compiled"], "errors": len(kp.pool().errors), "threads": kp.pool().threads,
                  "err": float(np.linalg.norm(y - ref) / np.linalg.norm(ref))}))
"""


def child(tmp_path, **env):
    e = dict(os.environ, CUPY_CACHE_DIR=str(tmp_path / "cupy"), ALPHA_CACHE_DIR=str(tmp_path / "alpha"),
             PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), **env)
    p = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=e, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["errors"] == 0 and out["err"] < 1e-5, out
    return out, p.stderr


def cubins(tmp_path):
    return sorted((tmp_path / "cupy").glob("*.cubin"))


def test_cold_warm_corrupt_stale(tmp_path):
    require_gpu()
    from alpha_py.backend import kernel_prebuild as kp
    record = tmp_path / "alpha" / kp.RECORD
    cold, _ = child(tmp_path)                                              # cold: the set compiled, recorded
    assert cold["compiled"] >= 60 and cold["threads"] >= 1, cold
    assert record.exists() and len(json.loads(record.read_text())["sets"]) == 1
    n = len(cubins(tmp_path))
    assert n >= cold["compiled"]
    warm, _ = child(tmp_path)                                              # warm: nothing prebuilt again
    assert warm["compiled"] < 20, warm
    for f in cubins(tmp_path):                                             # corrupt cubins: CuPy's hash check
        f.write_bytes(b"garbage" * 10)
    record.write_text("{not json")                                         # corrupt record: warning, rebuilt
    again, err = child(tmp_path)
    assert "prebuild record" in err and "unreadable" in err, err
    assert again["compiled"] >= cold["compiled"] - 5, again
    assert all(not f.read_bytes().startswith(b"garbage") for f in cubins(tmp_path))
    record.write_text(json.dumps({"format": 0, "sets": {}}))              # stale format: warning, rebuilt
    _, err = child(tmp_path)
    assert "unreadable" in err and len(json.loads(record.read_text())["sets"]) == 1
    for f in cubins(tmp_path):                                             # cleared CuPy cache: noticed
        f.unlink()
    cleared, err = child(tmp_path)
    assert "fewer than" in err and cleared["compiled"] >= cold["compiled"] - 5, (cleared, err)


def test_module_built_on_a_worker_thread_runs_on_the_main_thread():
    require_gpu()
    import cupy
    from alpha_py.backend import kernel_loader as kl
    from alpha_py.backend import kernel_prebuild as kp
    eg = gpu()
    key = kl.module_key("reduce", None, None, eg.backend.device_id)
    kl._modules.pop(key, None)
    kl._builds.pop(key, None)
    p = kp.Prebuilder(2)
    p.submit([key])
    p.wait()
    assert not p.errors and key in kl._modules
    x = cupy.arange(1000, dtype=cupy.float32)
    out = cupy.zeros(1, dtype=cupy.float32)
    part = cupy.zeros(4, dtype=cupy.float32)
    k1, k2 = kl._modules[key].get_function("sum_partial"), kl._modules[key].get_function("sum_finish")
    k1((4,), (256,), (x, np.int64(1000), part))
    k2((1,), (256,), (part, np.int32(4), out, np.float32(1.0)))
    assert float(out.get()[0]) == pytest.approx(499500.0)


def test_shipped_table_answers_known_shapes(tmp_path, monkeypatch):
    require_gpu()
    monkeypatch.setenv("ALPHA_CACHE_DIR", str(tmp_path))
    bg = gpu().backend
    saved = getattr(bg, "_algos", None)
    bg._algos = None
    try:
        cache = bg._algo_cache()
        fwd = [k for k in cache.known if "|fwd|(128, 28, 28, 1)|(32, 3, 3, 1)|" in k and k.endswith("|fp32")]
        if not fwd:
            pytest.skip(f"the shipped table has no Fashion CNN entry for {cache.device_name}")
        x = np.random.RandomState(1).randn(128, 28, 28, 1).astype(np.float32)
        w = np.random.RandomState(2).randn(32, 3, 3, 1).astype(np.float32)
        y = bg.conv_fwd(bg.from_host(x), bg.from_host(w), (1, 1), (1, 1))
        assert cache.table_hits == 1 and cache.timings == {} and bg.last_conv_algo == cache.known[fwd[0]]
        ref = cpu().backend.conv_fwd(x, w, (1, 1), (1, 1))
        assert np.linalg.norm(bg.to_host(y) - ref) / np.linalg.norm(ref) < 1e-5
    finally:
        bg._algos = saved


BF16_CHILD = r"""
import json
import numpy as np
from alpha_py import alpha
from alpha_py.backend import kernel_loader as kl, kernel_prebuild as kp
eg = alpha.engine.cuda_float32(0, precision="bf16")      # queues the bf16 set beside the fp32 one
b = eg.backend
b.prebuild_kernels(wait=True)
built, mods = kl.stats["compiled"], set(kl._modules)
rng = np.random.RandomState(0)
x, w = (b.from_host(rng.randn(*s).astype(np.float32)) for s in ((8, 16, 16, 64), (64, 3, 3, 64)))
gy = b.from_host(rng.randn(8, 16, 16, 64).astype(np.float32))
b.conv_fwd(x, w, (1, 1), (1, 1)); b.conv_bwd_data(gy, w, x.shape, (1, 1), (1, 1))
b.conv_bwd_filter(x, gy, w.shape, (1, 1), (1, 1)); b.synchronize()
print(json.dumps({"built": built, "after": kl.stats["compiled"], "errors": len(kp.pool().errors),
                  "new": sorted(f"{k[1]} {k[3]}" for k in set(kl._modules) - mods),
                  "timed": sorted(n for t in b._algo_cache().timings.values() for n in t)}))
"""


def test_a_bf16_engine_compiles_its_kernels_ahead(tmp_path):
    """precision='bf16' queues the bf16 families (and Hopper's wgmma ones) on the worker threads: a cold bf16
    convolution's every candidate, timed in all three passes, then compiles nothing on the main thread."""
    require_gpu()
    if int(gpu().backend.device.compute_capability) < 80:
        pytest.skip("bf16 needs compute capability >= 8.0")
    from alpha_py.backend import kernel_prebuild as kp
    e = dict(os.environ, CUPY_CACHE_DIR=str(tmp_path / "cupy"), ALPHA_CACHE_DIR=str(tmp_path / "alpha"),
             PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", BF16_CHILD], cwd=ROOT, env=e, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["errors"] == 0 and out["after"] == out["built"] and "bf16mma" in out["timed"], out
    assert len(json.loads((tmp_path / "alpha" / kp.RECORD).read_text())["sets"]) == 1      # bf16's (fp32's in it)
