"""Backend layer: Numba kernels of the CPU engine that run their GEMMs inside Numba's own thread pool (one pool for
the whole step; each BLAS call single-threaded, on a slice of rows): row-split GEMMs, A^T@B over row ranges, and the
convolutions as tile-wise im2col + GEMM (the tile's columns stay in L2). Imports numpy, numba (np.dot needs scipy)."""
import numpy as np
from .cpu_kernel_cache import njit, prange

from .cpu_kernels_norm import epilogue, max4


@njit(cache=True)
def _span(n, parts, p):
    """Rows lo..hi-1 of part p when n rows are cut into `parts` contiguous ranges (the first n % parts one longer)."""
    q, r = n // parts, n % parts
    lo = p * q + min(p, r)
    return lo, lo + q + (1 if p < r else 0)


@njit(cache=True)
def _gather(x, r0, r1, fh, fw, sh, sw, ph, pw, oh, ow, buf):
    """buf[r - r0, (a*FW + b)*C + c] = x[n, i*sh - ph + a, j*sw - pw + b, c] for output rows r0..r1-1 (row =
    (n*OH + i)*OW + j), 0 outside the image."""
    _, h, w, c = x.shape
    for row in range(r0, r1):
        img, rem = row // (oh * ow), row % (oh * ow)
        i, j = rem // ow, rem % ow
        rr = row - r0
        for a in range(fh):
            y = i * sh - ph + a
            for b in range(fw):
                xx = j * sw - pw + b
                base = (a * fw + b) * c
                if 0 <= y < h and 0 <= xx < w:
                    for k in range(c):
                        buf[rr, base + k] = x[img, y, xx, k]
                else:
                    for k in range(c):
                        buf[rr, base + k] = 0


@njit(parallel=True, cache=True)
def gemm_rows(a, b, parts, out):
    """out = a @ b with a's rows cut into `parts` ranges, one single-threaded BLAS call per range."""
    for p in prange(parts):
        lo, hi = _span(a.shape[0], parts, p)
        if hi > lo:
            np.dot(a[lo:hi], b, out[lo:hi])


@njit(cache=True)
def _add_into(a, b):
    """a += b for same-shape 2-D C-order arrays (a plain loop: no array expression for parfors to analyse)."""
    fa, fb = a.reshape(-1), b.reshape(-1)
    for i in range(fa.size):
        fa[i] += fb[i]


@njit(cache=True)
def _sum_parts(acc, out):
    """out = acc[0] + acc[1] + ... in that order (deterministic for a fixed part count)."""
    fo, f0 = out.reshape(-1), acc[0].reshape(-1)
    for i in range(fo.size):
        fo[i] = f0[i]
    for p in range(1, acc.shape[0]):
        _add_into(out, acc[p])


@njit(parallel=True, cache=True)
def atb_rows(a, b, acc, out):
    """out = a.T @ b with the shared rows (the reduction) cut into acc.shape[0] ranges, one single-threaded BLAS
    call per range into acc[p]; the parts are then summed in order."""
    parts = acc.shape[0]
    for p in prange(parts):
        lo, hi = _span(a.shape[0], parts, p)
        if hi > lo:
            np.dot(a[lo:hi].T, b[lo:hi], acc[p])
        else:
            acc[p].reshape(-1).fill(0)
    _sum_parts(acc, out)


@njit(parallel=True, cache=True)
def gemm_ksplit(a, b, acc, out):
    """out = a @ b with the reduction (a's columns, b's rows) cut into acc.shape[0] ranges: for few rows and a long
    reduction (a classifier's first layer), where a row split would have each thread pack all of b; each range's
    columns of a copied to a C-order block, one single-threaded BLAS call into acc[p]; the parts summed in order."""
    parts = acc.shape[0]
    for p in prange(parts):
        lo, hi = _span(a.shape[1], parts, p)
        if hi > lo:
            np.dot(np.ascontiguousarray(a[:, lo:hi]), b[lo:hi], acc[p])
        else:
            acc[p].reshape(-1).fill(0)
    _sum_parts(acc, out)


@njit(parallel=True, cache=True)
def conv_fwd(x, w2, fh, fw, sh, sw, ph, pw, oh, ow, tile, parts, ep, mode, lo, hi, neg, one, y2):
    """y2[N*OH*OW, OC] = im2col(x) @ w2.T (w2: [OC, FH*FW*C], BLAS reads it transposed), gathered and multiplied
    `tile` rows at a time, each tile's rows through the epilogue (cpu_kernels_norm.epilogue; mode 0: none) while
    in cache."""
    rows = x.shape[0] * oh * ow
    for p in prange(parts):
        r_lo, r_hi = _span(rows, parts, p)
        buf = np.empty((tile, w2.shape[1]), dtype=x.dtype)
        for r0 in range(r_lo, r_hi, tile):
            r1 = min(r_hi, r0 + tile)
            _gather(x, r0, r1, fh, fw, sh, sw, ph, pw, oh, ow, buf)
            np.dot(buf[:r1 - r0], w2.T, y2[r0:r1])
            if mode:
                epilogue(y2[r0:r1], ep, mode, lo, hi, neg, one)


@njit(parallel=True, cache=True)
def conv_bwd_filter(x, gy2, fh, fw, sh, sw, ph, pw, oh, ow, tile, acc, out):
    """out[OC, FH*FW*C] = gy2.T @ im2col(x): each part's rows in tiles of `tile`, summed into acc[p], parts summed
    in order."""
    rows = x.shape[0] * oh * ow
    parts = acc.shape[0]
    for p in prange(parts):
        lo, hi = _span(rows, parts, p)
        buf = np.empty((tile, acc.shape[2]), dtype=x.dtype)
        tmp = np.empty((acc.shape[1], acc.shape[2]), dtype=x.dtype)
        acc[p].reshape(-1).fill(0)
        for r0 in range(lo, hi, tile):
            r1 = min(hi, r0 + tile)
            _gather(x, r0, r1, fh, fw, sh, sw, ph, pw, oh, ow, buf)
            np.dot(gy2[r0:r1].T, buf[:r1 - r0], tmp)
            _add_into(acc[p], tmp)
    _sum_parts(acc, out)


@njit(cache=True)
def _col2im_image(gcols, fh, fw, sh, sw, ph, pw, oh, ow, gx):
    """gx[y, x, c] (one image) = sum of the columns gcols[(i*OW + j), (a*FW + b)*C + c] whose window covers (y, x)."""
    h, w, c = gx.shape
    gx[:] = 0
    for i in range(oh):
        for j in range(ow):
            row = i * ow + j
            for a in range(fh):
                y = i * sh - ph + a
                if y < 0 or y >= h:
                    continue
                for b in range(fw):
                    xx = j * sw - pw + b
                    if xx < 0 or xx >= w:
                        continue
                    base = (a * fw + b) * c
                    for k in range(c):
                        gx[y, xx, k] += gcols[row, base + k]


@njit(parallel=True, cache=True)
def conv_bwd_data_images(gy2, w2, fh, fw, sh, sw, ph, pw, oh, ow, parts, gx):
    """gx = col2im(gy2 @ w2) image by image (the image's columns stay in cache): for strided convolutions, whose
    grad-data is not a stride-1 convolution of gy."""
    n = gx.shape[0]
    for p in prange(parts):
        lo, hi = _span(n, parts, p)
        buf = np.empty((oh * ow, w2.shape[1]), dtype=gx.dtype)
        for img in range(lo, hi):
            np.dot(gy2[img * oh * ow:(img + 1) * oh * ow], w2, buf)
            _col2im_image(buf, fh, fw, sh, sw, ph, pw, oh, ow, gx[img])


@njit(parallel=True, cache=True, fastmath={"reassoc", "contract"})
def conv_fwd_narrow(x, wf, ph, pw, zero, y):
    """y[n, i, j, c] = sum over (a, b, k) of x[n, i - ph + a, j - pw + b, k] * wf[c, a, b, k] (stride 1), directly:
    for few output channels (a first layer's grad-data), where a GEMM with N = 1-3 columns is slow. The sum's order
    is fixed at compile time (reassociated only to vectorise over k)."""
    n, h, w, ci = x.shape
    co, fh, fw, _ = wf.shape
    _, oh, ow, _ = y.shape
    for t in prange(n * oh):
        img, i = t // oh, t % oh
        for j in range(ow):
            for c in range(co):
                acc = zero
                for a in range(fh):
                    yy = i - ph + a
                    if yy < 0 or yy >= h:
                        continue
                    for b in range(fw):
                        xx = j - pw + b
                        if xx < 0 or xx >= w:
                            continue
                        for k in range(ci):
                            acc += x[img, yy, xx, k] * wf[c, a, b, k]
                y[img, i, j, c] = acc


@njit(parallel=True, cache=True)
def conv_rows_t(at, b, n, oh, ow, unit_h, per_block, parts, ep, mode, lo, hi, neg, one, out):
    """The tap-major first-layer convolution (at [K, N*OH*OW] columns, b [K, OC]) in units of `unit_h` output rows
    of one image, `per_block` units per single-threaded BLAS call, each block's [rows, OC] product run through the
    epilogue while in cache; unit_h 1: out [N, OH, OW, OC]; unit_h 2: out [N, OH//2, OW//2, OC], the 2x2 max of each
    row pair (an odd last row or column is dropped, as MaxPool2D's floor)."""
    k, oc = at.shape[0], b.shape[1]
    uh = oh // unit_h
    units, rows = n * uh, unit_h * ow
    for p in prange(parts):
        u_lo, u_hi = _span(units, parts, p)
        cols = np.empty((per_block * rows, k), dtype=at.dtype)
        buf = np.empty((per_block * rows, oc), dtype=at.dtype)
        for u0 in range(u_lo, u_hi, per_block):
            u1 = min(u_hi, u0 + per_block)
            for u in range(u0, u1):
                img, q = u // uh, u % uh
                r = (img * oh + q * unit_h) * ow
                base = (u - u0) * rows
                for kk in range(k):
                    for rr in range(rows):
                        cols[base + rr, kk] = at[kk, r + rr]
            m = (u1 - u0) * rows
            if unit_h == 1:
                dst = out.reshape(-1, oc)[u0 * rows:u1 * rows]
                np.dot(cols[:m], b, dst)
                if mode:
                    epilogue(dst, ep, mode, lo, hi, neg, one)
                continue
            np.dot(cols[:m], b, buf[:m])
            epilogue(buf[:m], ep, mode, lo, hi, neg, one)
            for u in range(u0, u1):
                img, q = u // uh, u % uh
                base = (u - u0) * rows
                for j in range(ow // 2):
                    top = base + 2 * j
                    max4(out[img, q, j], buf, top, top + 1, top + ow, top + ow + 1)
