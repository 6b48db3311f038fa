"""Backend layer: Numba kernels of the CPU engine for max/avg pooling forward/backward (max keeps the window index,
not an argmax scatter; backward is a gather per input pixel: no scatter, no atomics). NHWC, channels innermost;
parallel over (image, row). The convolutions' kernels are in cpu_kernels_gemm.py. Imports numpy, numba only."""
import numpy as np
from .cpu_kernel_cache import njit, prange


@njit(cache=True)
def _range(p, pad, f, s, o):
    """Output positions o0..o1-1 whose window (start o*s - pad, size f) covers input position p."""
    lo = p + pad - f + 1
    o0 = (lo + s - 1) // s if lo > 0 else 0
    o1 = (p + pad) // s + 1
    return o0, min(o1, o)


@njit(parallel=True, cache=True)
def maxpool_fwd(x, kh, kw, sh, sw, ph, pw, y, idx):
    """y = max over each window (padding never wins); idx = the first maximum's a*kw + b in its window."""
    n, h, w, c = x.shape
    _, oh, ow, _ = y.shape
    for t in prange(n * oh):
        b_, i = t // oh, t % oh
        for j in range(ow):
            for k in range(c):
                y[b_, i, j, k] = -np.inf
                idx[b_, i, j, k] = 0
            for a in range(kh):
                yy = i * sh - ph + a
                if yy < 0 or yy >= h:
                    continue
                for b in range(kw):
                    xx = j * sw - pw + b
                    if xx < 0 or xx >= w:
                        continue
                    for k in range(c):
                        v = x[b_, yy, xx, k]
                        if v > y[b_, i, j, k]:
                            y[b_, i, j, k] = v
                            idx[b_, i, j, k] = a * kw + b


@njit(parallel=True, cache=True)
def maxpool_bwd(gy, idx, kh, kw, sh, sw, ph, pw, gx):
    """gx[n, y, x, c] = sum of gy over the windows whose maximum was (y, x)."""
    n, h, w, c = gx.shape
    _, oh, ow, _ = gy.shape
    for t in prange(n * h):
        b_, yy = t // h, t % h
        i0, i1 = _range(yy, ph, kh, sh, oh)
        for xx in range(w):
            for k in range(c):
                gx[b_, yy, xx, k] = 0
            j0, j1 = _range(xx, pw, kw, sw, ow)
            for i in range(i0, i1):
                for j in range(j0, j1):
                    pos = (yy + ph - i * sh) * kw + xx + pw - j * sw
                    for k in range(c):
                        if idx[b_, i, j, k] == pos:
                            gx[b_, yy, xx, k] += gy[b_, i, j, k]


@njit(cache=True)
def _count(i, j, kh, kw, sh, sw, ph, pw, h, w):
    """Non-padding elements of window (i, j)."""
    y0, x0 = i * sh - ph, j * sw - pw
    return (min(y0 + kh, h) - max(y0, 0)) * (min(x0 + kw, w) - max(x0, 0))


@njit(parallel=True, cache=True)
def avgpool_fwd(x, kh, kw, sh, sw, ph, pw, y):
    """y = mean of each window over its non-padding elements."""
    n, h, w, c = x.shape
    _, oh, ow, _ = y.shape
    for t in prange(n * oh):
        b_, i = t // oh, t % oh
        for j in range(ow):
            for k in range(c):
                y[b_, i, j, k] = 0
            for a in range(kh):
                yy = i * sh - ph + a
                if yy < 0 or yy >= h:
                    continue
                for b in range(kw):
                    xx = j * sw - pw + b
                    if xx < 0 or xx >= w:
                        continue
                    for k in range(c):
                        y[b_, i, j, k] += x[b_, yy, xx, k]
            cnt = _count(i, j, kh, kw, sh, sw, ph, pw, h, w)
            for k in range(c):
                y[b_, i, j, k] /= cnt


@njit(parallel=True, cache=True)
def avgpool_bwd(gy, kh, kw, sh, sw, ph, pw, gx):
    """gx[n, y, x, c] = sum of gy / count over the windows covering (y, x)."""
    n, h, w, c = gx.shape
    _, oh, ow, _ = gy.shape
    for t in prange(n * h):
        b_, yy = t // h, t % h
        i0, i1 = _range(yy, ph, kh, sh, oh)
        for xx in range(w):
            for k in range(c):
                gx[b_, yy, xx, k] = 0
            j0, j1 = _range(xx, pw, kw, sw, ow)
            for i in range(i0, i1):
                for j in range(j0, j1):
                    cnt = _count(i, j, kh, kw, sh, sw, ph, pw, h, w)
                    for k in range(c):
                        gx[b_, yy, xx, k] += gy[b_, i, j, k] / cnt
