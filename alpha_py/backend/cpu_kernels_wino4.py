"""Backend layer: Numba kernels of the CPU engine's Winograd F(4x4, 3x3) forward (stride 1): per thread, blocks of 4x4
output tiles: input transform B^T d B of each 6x6 window into the thread's buffer, 36 single-threaded BLAS GEMMs with
the transformed filter G g G^T, output transform A^T m A (with the eval chains' epilogue and 2x2 max pool). 4x fewer
multiplies than im2col (F(2x2, 3x3): 2.25x), error a few times F(2x2)'s. Imports numpy, numba, sibling kernels."""
import numpy as np
from .cpu_kernel_cache import njit, prange

from .cpu_kernels_gemm import _span
from .cpu_kernels_norm import epilogue, max4

# the transforms' constants as float32: float32 data stays float32 (a Python int would widen it to float64), float64
# data stays float64
F2, F4, F5, F6, F8, F12, F24 = (np.float32(v) for v in (2, 4, 5, 6, 8, 12, 24))


@njit(cache=True)
def _bt6(d0, d1, d2, d3, d4, d5):
    """B^T of F(4x4, 3x3) applied to 6 values (interpolation points 0, 1, -1, 2, -2, infinity)."""
    return (F4 * d0 - F5 * d2 + d4, d3 + d4 - F4 * (d1 + d2), F4 * (d1 - d2) + d4 - d3, F2 * (d3 - d1) + d4 - d2,
            F2 * (d1 - d3) + d4 - d2, F4 * d1 - F5 * d3 + d5)


@njit(cache=True)
def _tile_in(x, img, y0, x0, win, v, col):
    """v[e, col, :] = (B^T d B)[e // 6, e % 6] of the 6x6 window of x[img] at (y0, x0) (0 outside the image);
    win [36, C] scratch: the window, then B^T d in place (channels innermost in every loop: SIMD)."""
    _, h, w, c = x.shape
    for a in range(6):
        yy = y0 + a
        for b in range(6):
            xx = x0 + b
            if 0 <= yy < h and 0 <= xx < w:
                for k in range(c):
                    win[a * 6 + b, k] = x[img, yy, xx, k]
            else:
                for k in range(c):
                    win[a * 6 + b, k] = 0
    for b in range(6):                          # columns: B^T d
        for k in range(c):
            t = _bt6(win[b, k], win[6 + b, k], win[12 + b, k], win[18 + b, k], win[24 + b, k], win[30 + b, k])
            win[b, k], win[6 + b, k], win[12 + b, k], win[18 + b, k], win[24 + b, k], win[30 + b, k] = t
    for a in range(6):                          # then (B^T d) B along each row
        for k in range(c):
            t = _bt6(win[a * 6, k], win[a * 6 + 1, k], win[a * 6 + 2, k], win[a * 6 + 3, k], win[a * 6 + 4, k],
                     win[a * 6 + 5, k])
            v[a * 6, col, k], v[a * 6 + 1, col, k], v[a * 6 + 2, col, k] = t[0], t[1], t[2]
            v[a * 6 + 3, col, k], v[a * 6 + 4, col, k], v[a * 6 + 5, col, k] = t[3], t[4], t[5]


@njit(cache=True)
def _at6(m0, m1, m2, m3, m4, m5):
    """A^T of F(4x4, 3x3) applied to 6 values: the 4 outputs."""
    p, q = m1 + m2, m1 - m2
    r, s = m3 + m4, m3 - m4
    return m0 + p + r, q + F2 * s, p + F4 * r, q + F8 * s + m5


@njit(cache=True)
def _tile_out(m, col, y, img, i0, j0, oh, ow, s, ep, mode, lo, hi, neg, one, pool):
    """The 4x4 outputs A^T m A of tile col into s[24:40] (row u*4 + v; A^T m first, in s[0:24]), through the
    epilogue; then written to y[img, i0:i0+4, j0:j0+4] clipped at the output's edge, or (pool) each 2x2 block's max
    to y[img, (i0+2p)//2, (j0+2q)//2] where the block lies inside the output (MaxPool2D's floor)."""
    oc = y.shape[3]
    for b in range(6):
        for o in range(oc):
            t = _at6(m[b, col, o], m[6 + b, col, o], m[12 + b, col, o], m[18 + b, col, o], m[24 + b, col, o],
                     m[30 + b, col, o])
            s[b, o], s[6 + b, o], s[12 + b, o], s[18 + b, o] = t
    for u in range(4):
        for o in range(oc):
            t = _at6(s[6 * u, o], s[6 * u + 1, o], s[6 * u + 2, o], s[6 * u + 3, o], s[6 * u + 4, o],
                     s[6 * u + 5, o])
            s[24 + 4 * u, o], s[25 + 4 * u, o], s[26 + 4 * u, o], s[27 + 4 * u, o] = t
    if mode:
        epilogue(s[24:40], ep, mode, lo, hi, neg, one)
    if pool:
        for p in range(2):
            for q in range(2):
                if i0 + 2 * p + 1 < oh and j0 + 2 * q + 1 < ow:
                    r = 24 + 8 * p + 2 * q
                    max4(y[img, i0 // 2 + p, j0 // 2 + q], s, r, r + 1, r + 4, r + 5)
        return
    for u in range(4):
        if i0 + u >= oh:
            break
        for v in range(4):
            if j0 + v >= ow:
                break
            for o in range(oc):
                y[img, i0 + u, j0 + v, o] = s[24 + 4 * u + v, o]


@njit(parallel=True, cache=True)
def wino4_fwd(x, u, ph, pw, tb, parts, oh, ow, ep, mode, lo, hi, neg, one, pool, y):
    """y = the 3x3 stride-1 convolution [N, OH, OW, OC] of x (padding ph, pw) with the transformed filter u
    [36, C, OC], `tb` 4x4 tiles per block, each output through the epilogue (mode 0: none); pool: y is
    [N, OH//2, OW//2, OC], the 2x2 max."""
    c, oc = x.shape[3], y.shape[3]
    th, tw = (oh + 3) // 4, (ow + 3) // 4
    tiles = x.shape[0] * th * tw
    for p in prange(parts):
        lo_t, hi_t = _span(tiles, parts, p)
        win = np.empty((36, c), dtype=x.dtype)
        v = np.empty((36, tb, c), dtype=x.dtype)
        m = np.empty((36, tb, oc), dtype=x.dtype)
        s = np.empty((40, oc), dtype=x.dtype)
        for t0 in range(lo_t, hi_t, tb):
            t1 = min(hi_t, t0 + tb)
            for t in range(t0, t1):
                img, r = t // (th * tw), t % (th * tw)
                _tile_in(x, img, 4 * (r // tw) - ph, 4 * (r % tw) - pw, win, v, t - t0)
            for e in range(36):
                np.dot(v[e][:t1 - t0], u[e], m[e][:t1 - t0])
            for t in range(t0, t1):
                img, r = t // (th * tw), t % (th * tw)
                _tile_out(m, t - t0, y, img, 4 * (r // tw), 4 * (r % tw), oh, ow, s, ep, mode, lo, hi, neg, one,
                          pool)


@njit(parallel=True, cache=True)
def wino4_filter(w, u):
    """u[e, k, o] = (G g G^T)[e // 6, e % 6] for each 3x3 filter g = w[o, :, :, k] of w [OC, 3, 3, C]: u [36, C, OC]
    (G's rows: g0/4, -(g0+g1+g2)/6, -(g0-g1+g2)/6, g0/24 + g1/12 + g2/6, g0/24 - g1/12 + g2/6, g2)."""
    oc, _, _, c = w.shape
    for k in prange(c):
        t = np.empty((6, 3), dtype=w.dtype)
        for o in range(oc):
            for j in range(3):
                g0, g1, g2 = w[o, 0, j, k], w[o, 1, j, k], w[o, 2, j, k]
                t[0, j], t[1, j], t[2, j] = g0 / F4, -(g0 + g1 + g2) / F6, -(g0 - g1 + g2) / F6
                t[3, j], t[4, j], t[5, j] = g0 / F24 + g1 / F12 + g2 / F6, g0 / F24 - g1 / F12 + g2 / F6, g2
            for a in range(6):
                g0, g1, g2 = t[a, 0], t[a, 1], t[a, 2]
                u[a * 6, k, o], u[a * 6 + 1, k, o], u[a * 6 + 2, k, o] = g0 / F4, -(g0 + g1 + g2) / F6, \
                    -(g0 - g1 + g2) / F6
                u[a * 6 + 3, k, o], u[a * 6 + 4, k, o], u[a * 6 + 5, k, o] = g0 / F24 + g1 / F12 + g2 / F6, \
                    g0 / F24 - g1 / F12 + g2 / F6, g2
