"""Backend layer: Numba kernels of the CPU engine for smooth activations, one multi-threaded pass instead of NumPy's
chain of passes, in the NumPy reference's formulas (act_ops.py), only where measured faster (bench/NOTES-cpu.md):
Numba's scalar libm tanh/exp lose to NumPy's SIMD ones for tanh and gelu forward, gelu and elu backward.
Imports numpy, numba only."""
import numpy as np
from .cpu_kernel_cache import njit, prange

SMOOTH_FWD = {"softplus": 1, "sigmoid": 3, "hard_sigmoid": 5}                  # name -> kernel code
SMOOTH_BWD = {"softplus": 1, "sigmoid": 3, "tanh": 4, "hard_sigmoid": 5}
# k (constants in the data's dtype, built by cpu_fused.py): 0.5, 1, GELU_C, 0.044715, 3*0.044715, 1/6, 0, -3, 3,
# then the unit's p1, p2, p2*p1 (unused by these activations; kept so the table has one layout)


@njit(cache=True)
def _sigmoid(v, k):
    e = np.exp(-np.abs(v))
    return k[1] / (k[1] + e) if v >= k[6] else e / (k[1] + e)


@njit(parallel=True, cache=True)
def smooth_fwd_flat(code, x, k, out):
    """out = act(x): code 1 softplus log(1 + e^x); 3 sigmoid; 5 hard_sigmoid clip(x/6 + 1/2, 0, 1)."""
    n = x.size
    if code == 1:
        for i in prange(n):
            v = x[i]
            out[i] = max(v, k[6]) + np.log1p(np.exp(-np.abs(v)))
    elif code == 3:
        for i in prange(n):
            out[i] = _sigmoid(x[i], k)
    else:
        for i in prange(n):
            out[i] = min(max(x[i] * k[5] + k[0], k[6]), k[1])


@njit(parallel=True, cache=True)
def smooth_bwd_flat(code, gy, x, y, k, out):
    """out = gy * act'(x): code 1 softplus (sigmoid(x)); 3 sigmoid and 4 tanh from the forward's output y, as the
    NumPy reference; 5 hard_sigmoid."""
    n = x.size
    if code == 1:
        for i in prange(n):
            out[i] = gy[i] * _sigmoid(x[i], k)
    elif code == 3:
        for i in prange(n):
            out[i] = gy[i] * y[i] * (k[1] - y[i])
    elif code == 4:
        for i in prange(n):
            out[i] = gy[i] * (k[1] - y[i] * y[i])
    else:
        for i in prange(n):
            v = x[i]
            out[i] = gy[i] * k[5] if (v > k[7] and v < k[8]) else gy[i] * k[6]
