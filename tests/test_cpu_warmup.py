"""Tests: `alpha warmup --cpu` fills Numba's disk cache so that a later process's MNIST CNN training and inference
steps (float32) and a float64 engine load every kernel from the cache and compile none (subprocesses with their own
empty NUMBA_CACHE_DIR)."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STEP = r"""
import json, numpy as np
from alpha_py import alpha
from alpha_py.zoo import get_model
from alpha_py.backend import cpu_kernels_act, cpu_kernels_conv, cpu_kernels_gemm, cpu_kernels_norm, cpu_kernels_wino
from alpha_py.backend import cpu_kernels_wino4
for name, dt in (("cpu_float32", np.float32), ("cpu_float64", np.float64)):
    eg = getattr(alpha.engine, name)().set_seed(0)
    net = get_model("mnist_cnn", 1, 10, 28, width=4, hidden=8).init(eg)
    opt, ce = alpha.optim.Adam(net.params(), 1e-3), alpha.loss.softmax_crossEntropy()
    x = eg.images(np.random.default_rng(0).integers(0, 256, (3, 28, 28, 1), dtype=np.uint8))
    y = eg.onehot(np.arange(3), 10)
    yh = net(x)[0]
    net.backward(ce.gradient(yh, y))
    opt.update().clear_grads()
    net.gc().eval()
    net(x)[0].numpy()
    b, z = eg.backend, x.data
    b.act_bwd("sigmoid", z, z, b.act_fwd("sigmoid", b.add_act("relu", z, z)))
    wide = np.ones(1 << 15, dt)                     # cpu_fused.PARALLEL_MIN: the pool's activation kernels
    b.act_bwd("relu", wide, wide, b.add_act("relu", b.act_fwd("relu", wide), wide))
misses = {}
for mod in (cpu_kernels_act, cpu_kernels_conv, cpu_kernels_gemm, cpu_kernels_norm, cpu_kernels_wino, cpu_kernels_wino4):
    for k, v in vars(mod).items():
        stats = getattr(v, "stats", None)
        if stats is not None and hasattr(stats, "cache_misses"):
            misses[k] = (sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
print(json.dumps(misses))
"""


def test_warmup_cpu_fills_the_kernel_cache(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    r = subprocess.run([sys.executable, "-m", "alpha_py", "warmup", "--cpu"], env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "alpha warmup --cpu" in r.stdout and str(tmp_path / "numba") in r.stdout
    r = subprocess.run([sys.executable, "-c", STEP], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    stats = json.loads(r.stdout.strip().splitlines()[-1])
    used = {k: v for k, v in stats.items() if v != [0, 0]}
    assert {"wino4_fwd", "wino4_filter", "conv_fwd_narrow", "conv_bwd_filter", "conv_rows_t", "gemm_ksplit",
            "maxpool_fwd", "maxpool_bwd", "bn_stats", "bn_act_apply", "bn_act_bwd_sums", "bn_act_bwd_apply",
            "adam_flat", "smooth_fwd_flat", "smooth_bwd_flat", "act_fwd_flat", "act_fwd_flat_1", "act_bwd_flat",
            "act_bwd_flat_1", "add_act_flat", "add_act_flat_1"} <= set(used), stats
    assert all(miss == 0 for _, miss in used.values()), {k: v for k, v in used.items() if v[1]}
