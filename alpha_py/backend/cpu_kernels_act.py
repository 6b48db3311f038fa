"""Backend layer: Numba kernels of the CPU engine for the smooth activations (elu, softplus, gelu, sigmoid, tanh,
hard_sigmoid) forward and backward: one multi-threaded pass each instead of NumPy's chain of 3-10 passes, in the
NumPy reference's formulas (act_ops.py). Imports numpy, numba only."""
import numpy as np
from numba import njit, prange

SMOOTH = {"elu": 0, "softplus": 1, "gelu": 2, "sigmoid": 3, "tanh": 4, "hard_sigmoid": 5}     # name -> code
# k (constants in the data's dtype, built by cpu_fused.py): 0.5, 1, GELU_C, 0.044715, 3*0.044715, 1/6, 0, -3, 3,
# then p1, p2, p2*p1 (the unit's parameters: elu alpha and scale)


@njit(cache=True)
def _sigmoid(v, k):
    e = np.exp(-np.abs(v))
    return k[1] / (k[1] + e) if v >= k[6] else e / (k[1] + e)


@njit(parallel=True, cache=True)
def smooth_fwd_flat(code, x, k, out):
    """out = act(x): elu p2*(x if x > 0 else p1*(exp(min(x, 0)) - 1)); softplus log(1 + e^x); gelu (tanh form);
    sigmoid; tanh; hard_sigmoid clip(x/6 + 1/2, 0, 1)."""
    n = x.size
    if code == 0:
        for i in prange(n):
            v = x[i]
            out[i] = (v if v > k[6] else k[9] * (np.exp(min(v, k[6])) - k[1])) * k[10]
    elif code == 1:
        for i in prange(n):
            v = x[i]
            out[i] = max(v, k[6]) + np.log1p(np.exp(-np.abs(v)))
    elif code == 2:
        for i in prange(n):
            v = x[i]
            out[i] = k[0] * v * (k[1] + np.tanh(k[2] * (v + k[3] * v * v * v)))
    elif code == 3:
        for i in prange(n):
            out[i] = _sigmoid(x[i], k)
    elif code == 4:
        for i in prange(n):
            out[i] = np.tanh(x[i])
    else:
        for i in prange(n):
            out[i] = min(max(x[i] * k[5] + k[0], k[6]), k[1])


@njit(parallel=True, cache=True)
def smooth_bwd_flat(code, gy, x, y, k, out):
    """out = gy * act'(x) (sigmoid and tanh from the forward's output y, as the NumPy reference)."""
    n = x.size
    if code == 0:
        for i in prange(n):
            v = x[i]
            out[i] = gy[i] * (k[10] if v > k[6] else k[11] * np.exp(min(v, k[6])))
    elif code == 1:
        for i in prange(n):
            out[i] = gy[i] * _sigmoid(x[i], k)
    elif code == 2:
        for i in prange(n):
            v = x[i]
            th = np.tanh(k[2] * (v + k[3] * v * v * v))
            du = k[2] * (k[1] + k[4] * v * v)
            out[i] = gy[i] * (k[0] * (k[1] + th) + k[0] * v * (k[1] - th * th) * du)
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
