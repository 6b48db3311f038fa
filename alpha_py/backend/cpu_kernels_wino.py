"""Backend layer: Numba kernels of the CPU engine's Winograd F(2x2, 3x3) convolution (stride 1): per thread, blocks
of 2x2 output tiles: input transform B^T d B into the thread's buffer, 16 single-threaded BLAS GEMMs with the
transformed filter G g G^T, output transform A^T m A; the grad-filter pairs the input transform with A g A^T of the
output gradient and ends with G^T dU G. 2.25x fewer multiplies than im2col + GEMM. Imports numpy, numba."""
import numpy as np
from .cpu_kernel_cache import njit, prange

from .cpu_kernels_gemm import _add_into, _span
from .cpu_kernels_norm import epilogue, max4


@njit(cache=True)
def _grid(y):
    """(tile rows, tile columns, tiles) of the 2x2 output tiles of y [N, OH, OW, OC]."""
    return _grid_of(y.shape[0], y.shape[1], y.shape[2])


@njit(cache=True)
def _grid_of(n, oh, ow):
    th, tw = (oh + 1) // 2, (ow + 1) // 2
    return th, tw, n * th * tw


@njit(cache=True)
def _tile_in(x, img, y0, x0, win, v, col):
    """v[e, col, :] = (B^T d B)[e // 4, e % 4] of the 4x4 window of x[img] at (y0, x0) (0 outside the image)."""
    _, h, w, c = x.shape
    for a in range(4):
        yy = y0 + a
        for b in range(4):
            xx = x0 + b
            if 0 <= yy < h and 0 <= xx < w:
                for k in range(c):
                    win[a * 4 + b, k] = x[img, yy, xx, k]
            else:
                for k in range(c):
                    win[a * 4 + b, k] = 0
    for b in range(4):                          # columns: rows of B^T d (channels innermost: SIMD)
        for k in range(c):
            d0, d1, d2, d3 = win[b, k], win[4 + b, k], win[8 + b, k], win[12 + b, k]
            win[b, k], win[4 + b, k], win[8 + b, k], win[12 + b, k] = d0 - d2, d1 + d2, d2 - d1, d1 - d3
    for a in range(4):                          # then (B^T d) B along each row
        for k in range(c):
            t0, t1, t2, t3 = win[a * 4, k], win[a * 4 + 1, k], win[a * 4 + 2, k], win[a * 4 + 3, k]
            v[a * 4, col, k] = t0 - t2
            v[a * 4 + 1, col, k] = t1 + t2
            v[a * 4 + 2, col, k] = t2 - t1
            v[a * 4 + 3, col, k] = t1 - t3


@njit(cache=True)
def _tile_out(m, col, y, img, i0, j0, oh, ow, s, ep, mode, lo, hi, neg, one, pool):
    """The 2x2 outputs A^T m A of tile col into s[8:12] (rows of A^T m first, in s[0:8]: two stages, each a plain
    loop over the channels: SIMD, no per-channel branch), through the epilogue (cpu_kernels_norm.py); then written
    to y[img, i0:i0+2, j0:j0+2] clipped at the output's edge, or (pool) their 2x2 max to y[img, i0//2, j0//2] when
    the tile lies inside the output (MaxPool2D's floor drops an odd last row or column)."""
    oc = y.shape[3]
    for b in range(4):
        for o in range(oc):
            m1, m2 = m[4 + b, col, o], m[8 + b, col, o]
            s[b, o] = m[b, col, o] + m1 + m2
            s[4 + b, o] = m1 - m2 - m[12 + b, col, o]
    for u in range(2):
        for o in range(oc):
            s[8 + 2 * u, o] = s[4 * u, o] + s[4 * u + 1, o] + s[4 * u + 2, o]
            s[9 + 2 * u, o] = s[4 * u + 1, o] - s[4 * u + 2, o] - s[4 * u + 3, o]
    if mode:
        epilogue(s[8:12], ep, mode, lo, hi, neg, one)
    if pool:
        if i0 + 1 < oh and j0 + 1 < ow:
            max4(y[img, i0 // 2, j0 // 2], s, 8, 9, 10, 11)
        return
    for u in range(2):
        if i0 + u >= oh:
            break
        for o in range(oc):
            y[img, i0 + u, j0, o] = s[8 + 2 * u, o]
        if j0 + 1 < ow:
            for o in range(oc):
                y[img, i0 + u, j0 + 1, o] = s[9 + 2 * u, o]


@njit(parallel=True, cache=True)
def wino_fwd(x, u, trans, ph, pw, tb, parts, oh, ow, ep, mode, lo, hi, neg, one, pool, y):
    """y = the 3x3 stride-1 convolution [N, OH, OW, OC] of x (padding ph, pw) with the transformed filter u
    ([16, C, OC]; trans: [16, OC, C], read transposed by BLAS), `tb` tiles per block, each output through the
    epilogue (ep, mode: cpu_kernels_norm.epilogue; mode 0: none); pool: y is [N, OH//2, OW//2, OC], the 2x2 max."""
    c, oc = x.shape[3], y.shape[3]
    th, tw, tiles = _grid_of(x.shape[0], oh, ow)
    for p in prange(parts):
        lo_t, hi_t = _span(tiles, parts, p)
        win = np.empty((16, c), dtype=x.dtype)
        v = np.empty((16, tb, c), dtype=x.dtype)
        m = np.empty((16, tb, oc), dtype=x.dtype)
        s = np.empty((12, oc), dtype=x.dtype)
        for t0 in range(lo_t, hi_t, tb):
            t1 = min(hi_t, t0 + tb)
            for t in range(t0, t1):
                img, r = t // (th * tw), t % (th * tw)
                _tile_in(x, img, 2 * (r // tw) - ph, 2 * (r % tw) - pw, win, v, t - t0)
            for e in range(16):
                if trans:
                    np.dot(v[e][:t1 - t0], u[e].T, m[e][:t1 - t0])
                else:
                    np.dot(v[e][:t1 - t0], u[e], m[e][:t1 - t0])
            for t in range(t0, t1):
                img, r = t // (th * tw), t % (th * tw)
                _tile_out(m, t - t0, y, img, 2 * (r // tw), 2 * (r % tw), oh, ow, s, ep, mode, lo, hi, neg, one,
                          pool)


@njit(parallel=True, cache=True)
def wino_filter(w, flip, u):
    """u[e, o, k] = (G g G^T)[e // 4, e % 4] for each 3x3 filter g = w[o, :, :, k] of w [OC, 3, 3, C] (flip: g =
    w[o, ::-1, ::-1, k], grad-data's filter): u [16, OC, C]. Reads and writes run along k (C-order both)."""
    oc, _, _, c = w.shape
    for o in prange(oc):
        t = np.empty((4, 3, c), dtype=w.dtype)
        for j in range(3):              # G g over the filter's rows: g0, (g0+g1+g2)/2, (g0-g1+g2)/2, g2
            jj = 2 - j if flip else j
            r0, r2 = (2, 0) if flip else (0, 2)
            for k in range(c):
                g0, g1, g2 = w[o, r0, jj, k], w[o, 1, jj, k], w[o, r2, jj, k]
                t[0, j, k] = g0
                t[1, j, k] = (g0 + g1 + g2) * 0.5
                t[2, j, k] = (g0 - g1 + g2) * 0.5
                t[3, j, k] = g2
        for a in range(4):              # (G g) G^T: the same along each row
            for k in range(c):
                t0, t1, t2 = t[a, 0, k], t[a, 1, k], t[a, 2, k]
                u[a * 4, o, k] = t0
                u[a * 4 + 1, o, k] = (t0 + t1 + t2) * 0.5
                u[a * 4 + 2, o, k] = (t0 - t1 + t2) * 0.5
                u[a * 4 + 3, o, k] = t2


@njit(cache=True)
def _grad_in(gy, img, i0, j0, gs, gm, col):
    """gm[e, col, :] = (A g A^T)[e // 4, e % 4] of the 2x2 output-gradient tile of gy[img] at (i0, j0) (0 past the
    output's edge); gs [8, OC] scratch: the tile, then the rows of A g (g0, g0 + g1, g0 - g1, -g1)."""
    _, oh, ow, oc = gy.shape
    for u in range(2):
        for v in range(2):
            if i0 + u < oh and j0 + v < ow:
                for o in range(oc):
                    gs[2 * u + v, o] = gy[img, i0 + u, j0 + v, o]
            else:
                for o in range(oc):
                    gs[2 * u + v, o] = 0
    for v in range(2):
        for o in range(oc):
            g0, g1 = gs[v, o], gs[2 + v, o]
            gs[4 + v, o] = g0 + g1
            gs[6 + v, o] = g0 - g1
    for a in range(4):                            # then the same along each row: r0, r0 + r1, r0 - r1, -r1
        sa, sign = (0, 1.0) if a == 0 else ((4, 1.0) if a == 1 else ((6, 1.0) if a == 2 else (2, -1.0)))
        for o in range(oc):
            r0, r1 = gs[sa, o] * sign, gs[sa + 1, o] * sign
            gm[4 * a, col, o] = r0
            gm[4 * a + 1, col, o] = r0 + r1
            gm[4 * a + 2, col, o] = r0 - r1
            gm[4 * a + 3, col, o] = -r1


@njit(parallel=True, cache=True)
def wino_bwd_filter(x, gy, ph, pw, tb, acc):
    """acc[p, e] (each [OC, C]) = part p's sum over its 2x2 tiles of (A g A^T)_e^T (B^T d B)_e: the Winograd
    F(2x2, 3x3) grad-filter before its final transform (wino_filter_grad); `tb` tiles per block."""
    c, oc, parts = x.shape[3], gy.shape[3], acc.shape[0]
    th, tw, tiles = _grid(gy)
    for p in prange(parts):
        lo, hi = _span(tiles, parts, p)
        win = np.empty((16, c), dtype=x.dtype)
        v = np.empty((16, tb, c), dtype=x.dtype)
        gm = np.empty((16, tb, oc), dtype=x.dtype)
        gs = np.empty((8, oc), dtype=x.dtype)
        tmp = np.empty((oc, c), dtype=x.dtype)
        acc[p].reshape(-1).fill(0)
        for t0 in range(lo, hi, tb):
            t1 = min(hi, t0 + tb)
            for t in range(t0, t1):
                img, r = t // (th * tw), t % (th * tw)
                _tile_in(x, img, 2 * (r // tw) - ph, 2 * (r % tw) - pw, win, v, t - t0)
                _grad_in(gy, img, 2 * (r // tw), 2 * (r % tw), gs, gm, t - t0)
            for e in range(16):
                np.dot(gm[e][:t1 - t0].T, v[e][:t1 - t0], tmp)
                _add_into(acc[p, e], tmp)


@njit(parallel=True, cache=True)
def wino_filter_grad(acc, gw):
    """gw[o, i, j, c] = (G^T dU G)[i, j] with dU = acc[0] + acc[1] + ... (in that order) per (o, c): the 3x3
    filter gradient from the parts of wino_bwd_filter."""
    parts, _, oc, c = acc.shape
    for o in prange(oc):
        du = np.empty((16, c), dtype=gw.dtype)
        t = np.empty((3, 4, c), dtype=gw.dtype)
        for e in range(16):
            for k in range(c):
                du[e, k] = acc[0, e, o, k]
            for p in range(1, parts):
                for k in range(c):
                    du[e, k] += acc[p, e, o, k]
        for b in range(4):                        # G^T X: rows X0 + X1/2 + X2/2, X1/2 - X2/2, X1/2 + X2/2 + X3
            for k in range(c):
                x0, x1, x2, x3 = du[b, k], du[4 + b, k], du[8 + b, k], du[12 + b, k]
                t[0, b, k] = x0 + (x1 + x2) * 0.5
                t[1, b, k] = (x1 - x2) * 0.5
                t[2, b, k] = (x1 + x2) * 0.5 + x3
        for i in range(3):                        # ... then X G along each row
            for k in range(c):
                x0, x1, x2, x3 = t[i, 0, k], t[i, 1, k], t[i, 2, k], t[i, 3, k]
                gw[o, i, 0, k] = x0 + (x1 + x2) * 0.5
                gw[o, i, 1, k] = (x1 - x2) * 0.5
                gw[o, i, 2, k] = (x1 + x2) * 0.5 + x3
