"""Backend layer: Numba kernels of the CPU engine for BatchNorm(+activation) forward/backward, activations
(+residual add) and the Adam/AdamW update, each one or two multi-threaded passes over rows [M, C] (C innermost,
so the channel loop vectorises). Compiled lazily per kernel and cached on disk. Imports numpy, numba, math only.

Reductions split the M rows into a fixed number of chunks (CHUNKS, not the thread count) summed in order in
float64, so results are bit-identical for any thread count."""
import math

import numpy as np
from .cpu_kernel_cache import njit, prange

CHUNKS = 64
# The fused activations are piecewise linear: act(z) = min(z, hi) if z > lo else neg * z, act'(z) = 1 if lo < z < hi
# else neg (branch-free selects, so the channel loop vectorises). name -> (lo, hi, neg(p1)); others: NumPy.
PIECEWISE = {None: (-math.inf, math.inf, lambda p1: 1.0), "relu": (0.0, math.inf, lambda p1: 0.0),
             "leakyRelu": (0.0, math.inf, lambda p1: p1), "relu6": (0.0, 6.0, lambda p1: 0.0)}


@njit(cache=True)
def _act(z, lo, hi, neg, one):
    return min(z, hi) if z > lo else neg * z + 0.0          # + 0.0: relu(-2) is +0.0 as in NumPy, not -0.0


@njit(cache=True)
def _dact(z, lo, hi, neg, one):
    return one if (z > lo and z < hi) else neg


@njit(cache=True)
def bn_act_value(z, mean, inv, gamma, beta, lo, hi, neg, one):
    """One value of batchNorm(+activation): act(((z - mean) * inv) * gamma + beta); the conv epilogues of eval mode
    (epilogue, below) call it too, so the fused and the unfused paths round alike."""
    return _act((z - mean) * inv * gamma + beta, lo, hi, neg, one)


# ep [5, OC] rows: conv bias, BN mean, BN 1/sqrt(var + eps), BN gamma, BN beta. mode: 0 the convolution alone,
# 1 batchNorm(+act) after it, 2 bias then batchNorm(+act) (the bias rounded first, as the unfused conv adds it),
# 3 the bias alone (a biased convolution's training forward).


@njit(cache=True)
def epilogue(rows, ep, mode, lo, hi, neg, one):
    """rows [M, OC] (output pixels' channels) through the chain's epilogue, in place."""
    m, oc = rows.shape
    if mode >= 2:
        for r in range(m):
            for o in range(oc):
                rows[r, o] = rows[r, o] + ep[0, o]
    if mode == 1 or mode == 2:
        for r in range(m):
            for o in range(oc):
                rows[r, o] = bn_act_value(rows[r, o], ep[1, o], ep[2, o], ep[3, o], ep[4, o], lo, hi, neg, one)


@njit(cache=True)
def max4(out, src, a, b, c, d):
    """out[o] = the max of rows a, b (a window's top row), c, d of src [M, OC] in MaxPool2D's order: -inf start, a
    value replaces the max only when greater (NaN never wins), as the unfused maxpool_fwd."""
    for o in range(out.size):
        best = -np.inf
        if src[a, o] > best:
            best = src[a, o]
        if src[b, o] > best:
            best = src[b, o]
        if src[c, o] > best:
            best = src[c, o]
        if src[d, o] > best:
            best = src[d, o]
        out[o] = best


@njit(parallel=True, cache=True)
def col_sums(x2):
    """Per-column sums of x2 [M, C] in float64 (a bias's gradient: gY summed over its rows)."""
    m, c = x2.shape
    nch = max(1, min(CHUNKS, m))
    part = np.zeros((nch, c), np.float64)
    for k in prange(nch):
        r0, r1 = k * m // nch, (k + 1) * m // nch
        for r in range(r0, r1):
            for j in range(c):
                part[k, j] += np.float64(x2[r, j])
    out = np.zeros(c, np.float64)
    for k in range(nch):
        for j in range(c):
            out[j] += part[k, j]
    return out


@njit(parallel=True, cache=True)
def bn_stats(x2):
    """Per-column mean and biased variance of x2 [M, C] (float64), shifted by row 0 for accuracy."""
    m, c = x2.shape
    nch = min(CHUNKS, m)
    part = np.zeros((nch, 2, c), np.float64)
    for k in prange(nch):
        r0, r1 = k * m // nch, (k + 1) * m // nch
        for r in range(r0, r1):
            for j in range(c):
                v = np.float64(x2[r, j]) - np.float64(x2[0, j])
                part[k, 0, j] += v
                part[k, 1, j] += v * v
    mean = np.zeros(c, np.float64)
    var = np.zeros(c, np.float64)
    for k in range(nch):
        for j in range(c):
            mean[j] += part[k, 0, j]
            var[j] += part[k, 1, j]
    for j in range(c):
        d = mean[j] / m
        var[j] = max(var[j] / m - d * d, 0.0)
        mean[j] = d + np.float64(x2[0, j])
    return mean, var


@njit(parallel=True, cache=True)
def bn_act_apply(x2, mean, inv, gamma, beta, lo, hi, neg, one, out):
    """out = act(((x - mean) * inv) * gamma + beta) (gamma 1, beta 0 when not affine)."""
    m, c = x2.shape
    for r in prange(m):
        for j in range(c):
            out[r, j] = bn_act_value(x2[r, j], mean[j], inv[j], gamma[j], beta[j], lo, hi, neg, one)


@njit(parallel=True, cache=True)
def bn_act_bwd_sums(gy2, x2, mean, inv, gamma, beta, lo, hi, neg, one):
    """Per column (float64): sum(gz), sum(gz * xhat) with gz = gy * act'(z), z = xhat*gamma + beta."""
    m, c = x2.shape
    nch = min(CHUNKS, m)
    part = np.zeros((nch, 2, c), np.float64)
    for k in prange(nch):
        r0, r1 = k * m // nch, (k + 1) * m // nch
        for r in range(r0, r1):
            for j in range(c):
                xh = (x2[r, j] - mean[j]) * inv[j]
                g = gy2[r, j] * _dact(xh * gamma[j] + beta[j], lo, hi, neg, one)
                part[k, 0, j] += g
                part[k, 1, j] += np.float64(g) * xh
    sums = np.zeros((2, c), np.float64)
    for k in range(nch):
        for j in range(c):
            sums[0, j] += part[k, 0, j]
            sums[1, j] += part[k, 1, j]
    return sums


@njit(parallel=True, cache=True)
def bn_act_bwd_apply(gy2, x2, mean, inv, gamma, beta, lo, hi, neg, one, a, b, out):
    """gx = inv*gamma * (gz - (a + xhat*b)); with batch stats a = mean(gz), b = mean(gz*xhat), else a = b = 0."""
    m, c = x2.shape
    for r in prange(m):
        for j in range(c):
            xh = (x2[r, j] - mean[j]) * inv[j]
            g = gy2[r, j] * _dact(xh * gamma[j] + beta[j], lo, hi, neg, one)
            out[r, j] = (inv[j] * gamma[j]) * (g - (a[j] + xh * b[j]))


@njit(parallel=True, cache=True)
def act_fwd_flat(x, lo, hi, neg, one, out):
    for i in prange(x.size):
        out[i] = _act(x[i], lo, hi, neg, one)


@njit(parallel=True, cache=True)
def add_act_flat(a, b, lo, hi, neg, one, out):
    for i in prange(a.size):
        out[i] = _act(a[i] + b[i], lo, hi, neg, one)


@njit(parallel=True, cache=True)
def act_bwd_flat(gy, x, lo, hi, neg, one, out):
    for i in prange(x.size):
        out[i] = gy[i] * _dact(x[i], lo, hi, neg, one)


# One-thread twins of the three kernels above, for arrays below cpu_fused.PARALLEL_MIN: a parallel region costs a
# pool wake-up (~5 us on the main thread, 60-400 us on another thread once two threads own OpenMP pools;
# bench/NOTES-cpu.md) for a few microseconds of work. The same formulas, so the same bits.
@njit(cache=True)
def act_fwd_flat_1(x, lo, hi, neg, one, out):
    for i in range(x.size):
        out[i] = _act(x[i], lo, hi, neg, one)


@njit(cache=True)
def add_act_flat_1(a, b, lo, hi, neg, one, out):
    for i in range(a.size):
        out[i] = _act(a[i] + b[i], lo, hi, neg, one)


@njit(cache=True)
def act_bwd_flat_1(gy, x, lo, hi, neg, one, out):
    for i in range(x.size):
        out[i] = gy[i] * _dact(x[i], lo, hi, neg, one)


@njit(cache=True)
def _regularised(gi, wi, l1, l2):
    """g' = g + l1*sign(w) + l2*w in the NumPy reference's order (a zero term is skipped)."""
    if l1 != 0:
        gi = gi + l1 * np.sign(wi)
    if l2 != 0:
        gi = gi + l2 * wi
    return gi


@njit(parallel=True, cache=True)
def adam_flat(w, g, m, s, b1, k1, b2, k2, lr_t, eps_t, l1, l2, decoupled_l1, decoupled_l2):
    """One Adam (or AdamW: decoupled_* != 0) update in place, in the NumPy reference's operation order:
    g' = g + l1*sign(w) + l2*w; m = m*b1 + k1*g'; s = s*b2 + k2*g'^2; w -= lr_t*m / (sqrt(s) + eps_t)
    [+ decoupled_l1*sign(w) + decoupled_l2*w from the old w]."""
    for i in prange(w.size):
        wi = w[i]
        gi = _regularised(g[i], wi, l1, l2)
        mi = m[i] * b1 + k1 * gi
        si = s[i] * b2 + k2 * (gi * gi)
        m[i] = mi
        s[i] = si
        upd = lr_t * mi / (np.sqrt(si) + eps_t)
        if decoupled_l1 != 0:
            upd = upd + decoupled_l1 * np.sign(wi)
        if decoupled_l2 != 0:
            upd = upd + decoupled_l2 * wi
        w[i] = wi - upd


@njit(parallel=True, cache=True)
def sgd_family_flat(code, w, g, v, lr, l1, l2, h, k, eps, nesterov):
    """One update in place, in the NumPy reference's operation order, with g' = g + l1*sign(w) + l2*w:
    code 0 sgd: w -= lr*g'; 1 momentum: v = v*h + k*g', w -= lr*v; 2 sgdmn: v = v*h + k*g',
    w -= lr*(g' + h*v if nesterov else v); 3 rmsprop (v = s): s = s*h + k*g'^2, w -= lr*g' / (sqrt(s) + eps)."""
    for i in prange(w.size):
        wi = w[i]
        gi = _regularised(g[i], wi, l1, l2)
        if code == 0:
            w[i] = wi - lr * gi
        elif code == 3:
            si = v[i] * h + k * (gi * gi)
            v[i] = si
            w[i] = wi - lr * gi / (np.sqrt(si) + eps)
        else:
            vi = v[i] * h + k * gi
            v[i] = vi
            w[i] = wi - lr * ((gi + h * vi) if (code == 2 and nesterov) else vi)
