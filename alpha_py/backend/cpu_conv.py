"""Backend layer: FusedConvOps, the CPU engine's convolutions and matmuls as GEMMs run inside Numba's thread pool
(cpu_kernels_gemm.py: each thread gathers a tile of im2col rows into its own L2-sized buffer and calls BLAS
single-threaded, so one pool owns the cores for the whole step) and Winograd F(2x2, 3x3) for 3x3 stride 1."""
import contextlib

import numpy as np

from .base import out_size
from .cpu_fused import _one_blas

TILE_BYTES = 512 << 10  # im2col rows per tile: about this many bytes of columns (bench/NOTES-cpu.md)
MIN_TILE = 512          # ... but at least this many rows (BLAS packs the weights once per call)
TAP_MAX = 27            # FH*FW*IC up to which the forward gathers tap-major columns with NumPy slices
ROW_BLOCK = 1024        # ... and multiplies them about this many output rows per BLAS call (the block stays in L2)
SMALL_GEMM = 1 << 15    # M*N*K below which a matmul runs as one NumPy call
ROWS_PER_PART = 256     # GEMM rows (im2col rows, a reduction's rows) a thread gets at least
TILES_PER_PART = 64     # Winograd tiles a thread gets at least
WINO_FILTER_BLOCK = 512  # tiles per block of the Winograd grad-filter (its GEMMs' reduction)
WINO_FILTER_MIN_TILES = 512  # fewer 2x2 tiles (ResNet18-CIFAR's 4x4 layer4: 128): grad-filter by im2col tiles
WINO_FILTER_MIN_CHANNELS = 128  # ... and fewer OC + C (MNIST's conv2: 96): the transforms outweigh the GEMMs saved
MATMUL_ROWS_PER_PART = 32  # output rows of a row-split matmul a thread gets at least
KSPLIT_MIN = 1024       # fewer rows than 2 such parts per thread, and a reduction this long: split the reduction
WINOGRAD = True         # 3x3 stride 1 by Winograd F(2x2, 3x3) (cpu_kernels_wino.py); False: im2col tiles
WINO4 = True            # eval-mode 3x3 stride-1 forwards by F(4x4, 3x3) (cpu_kernels_wino4.py) where _use_winograd4 says so
WINO4_BLOCK = 128       # 4x4 tiles per block of the F(4x4, 3x3) forward
WINO4_MAX_FILTER = 1 << 14  # C*OC up to which it pays: its [36, C, OC] filter is read once per block (bench/NOTES-cpu)
WINO4_MIN_PIXELS = 64   # ... and OH*OW from which (smaller maps: tiles cut by the edge, few tiles to share the filter)
NARROW_MAX = 4          # input channels up to which stride-1 grad-data is the direct kernel, not GEMMs
WINO_TRANSPOSE_MAX = 1 << 20  # transformed-filter values up to which the forward copies it to [16, C, OC]


class FusedConvOps:
    """Overrides of ArrayBackend's conv_fwd / conv_bwd_data / conv_bwd_filter / matmul (float32 and float64)."""

    @contextlib.contextmanager
    def _gemm(self):
        """(kernel module, parts) with BLAS single-threaded for the block: parts = this engine's Numba threads."""
        import numba
        k = self._k()[3]
        with _one_blas():
            yield k, numba.get_num_threads()

    @staticmethod
    def _cap(parts, work, per):
        """Parts for `work` rows/tiles: no more than the threads, and each part at least `per` of them (a thread
        with a few rows makes BLAS calls too small to pay for packing the weights; measured on 16 cores)."""
        return max(1, min(parts, work // per))

    @staticmethod
    def _block(limit, work, parts):
        """Rows (tiles) a thread takes at a time: `limit`, but no more than its share of `work`."""
        return max(1, min(limit, -(-work // parts)))

    def _tile(self, rows, k, parts):
        return self._block(max(MIN_TILE, TILE_BYTES // max(1, k * self.dtype.itemsize)), rows, parts)

    @staticmethod
    def _geometry(x_shape, fh, fw, stride, pad):
        (sh, sw), (ph, pw) = stride, pad
        return x_shape[0], out_size(x_shape[1], fh, sh, ph), out_size(x_shape[2], fw, sw, pw)

    @staticmethod
    def _wino_tiles(y_shape):
        """2x2 output tiles of a [N, OH, OW, C] output."""
        return y_shape[0] * ((y_shape[1] + 1) // 2) * ((y_shape[2] + 1) // 2)

    @staticmethod
    def _pointwise(fh, fw, stride, pad):
        return (fh, fw) + tuple(stride) + tuple(pad) == (1, 1, 1, 1, 0, 0)

    @staticmethod
    def _cols_t(x, fh, fw, stride, pad):
        """Tap-major columns [FH*FW*C, N*OH*OW] by FH*FW strided NumPy copies (no per-pixel loop): for windows of
        few values (the first layer on 1-3 channel images), where a gather of FH*FW*C values per row is slow."""
        (sh, sw), (ph, pw) = stride, pad
        n, h, w, c = x.shape
        _, oh, ow = FusedConvOps._geometry(x.shape, fh, fw, stride, pad)
        if ph or pw:
            xp = np.zeros((n, h + 2 * ph, w + 2 * pw, c), dtype=x.dtype)
            xp[:, ph:ph + h, pw:pw + w] = x
        else:
            xp = x
        ct = np.empty((fh, fw, c, n, oh, ow), dtype=x.dtype)
        for a in range(fh):
            for b in range(fw):
                ct[a, b] = xp[:, a:a + (oh - 1) * sh + 1:sh, b:b + (ow - 1) * sw + 1:sw].transpose(3, 0, 1, 2)
        return ct.reshape(fh * fw * c, n * oh * ow), (n, oh, ow)

    def _no_ep(self):
        """Epilogue arguments of the conv kernels that apply none (cpu_kernels_norm.epilogue, mode 0)."""
        t = self.dtype.type
        return np.zeros((5, 1), dtype=self.dtype), 0, t(0), t(0), t(0), t(1)

    def _tap_major(self, fh, fw, ic, stride, pad):
        return fh * fw * ic <= TAP_MAX and not self._pointwise(fh, fw, stride, pad)

    def _conv_rows(self, x, w, stride, pad, ep=None, pool=False):
        """The forward of a first layer (few values per window) from tap-major columns, blocks of whole output rows
        per BLAS call, through the epilogue `ep`; pool: the 2x2 max of each row pair, [N, OH//2, OW//2, OC]."""
        oc, fh, fw, _ = w.shape
        ct, (n, oh, ow) = self._cols_t(x, fh, fw, stride, pad)
        unit = 2 if pool else 1
        y = np.empty((n, oh // 2, ow // 2, oc) if pool else (n, oh, ow, oc), dtype=self.dtype)
        if y.size:
            rows = unit * ow
            with self._gemm() as (k, parts):
                parts = self._cap(parts, ct.shape[1], ROWS_PER_PART)
                per_block = self._block(max(1, ROW_BLOCK // rows), n * (oh // unit), parts)
                k.conv_rows_t(ct, np.ascontiguousarray(w.reshape(oc, -1).T), n, oh, ow, unit, per_block, parts,
                              *(ep or self._no_ep()), y)
        return y

    def _conv_tiles(self, x, w2, fh, fw, stride, pad, ep=None):
        """[N*OH*OW, OC] = im2col(x) @ w2.T (w2: [OC, FH*FW*C], C- or F-order), tile by tile in the pool, through
        the epilogue `ep` (None: none)."""
        (sh, sw), (ph, pw) = stride, pad
        n, oh, ow = self._geometry(x.shape, fh, fw, stride, pad)
        y2 = np.empty((n * oh * ow, w2.shape[0]), dtype=self.dtype)
        if y2.size == 0:
            return y2, (n, oh, ow)
        x = np.ascontiguousarray(x)
        with self._gemm() as (k, parts):
            parts = self._cap(parts, y2.shape[0], ROWS_PER_PART)
            if self._pointwise(fh, fw, stride, pad):
                k.gemm_rows(x.reshape(-1, x.shape[3]), w2.T, parts, y2)
            else:
                tile = self._tile(y2.shape[0], w2.shape[1], parts)
                k.conv_fwd(x, w2, fh, fw, sh, sw, ph, pw, oh, ow, tile, parts, *(ep or self._no_ep()), y2)
        return y2, (n, oh, ow)

    def _winograd(self, x, w, pad, flip, ep=None, pool=False):
        """The 3x3 stride-1 convolution of x with w [OC, 3, 3, C] (flip: grad-data's, of gy with the flipped,
        transposed w; pad is then 2 - the forward's) by Winograd F(2x2, 3x3), through the epilogue `ep` (None:
        none); pool: the 2x2 max of each output tile, [N, OH//2, OW//2, OC]."""
        n, h, wd, c = x.shape
        oc = w.shape[3] if flip else w.shape[0]
        (ph, pw) = pad
        oh, ow = h + 2 * ph - 2, wd + 2 * pw - 2
        y = np.empty((n, oh // 2, ow // 2, oc) if pool else (n, oh, ow, oc), dtype=self.dtype)
        if y.size == 0:
            return y
        u = np.empty((16,) + (w.shape[0], w.shape[3]), dtype=self.dtype)     # [16, OC, C] of w's layout
        with self._gemm() as (k, parts):
            kw = self._k()[4]
            kw.wino_filter(np.ascontiguousarray(w), flip, u)
            tiles = self._wino_tiles((n, oh, ow))
            parts = self._cap(parts, tiles, TILES_PER_PART)
            tb = self._block(128 if c + oc <= 128 else 256, tiles, parts)
            trans = not flip and u.size > WINO_TRANSPOSE_MAX
            if not flip and not trans:      # [16, C, OC]: BLAS is faster on it than on the transposed view
                u = np.ascontiguousarray(u.transpose(0, 2, 1))
            kw.wino_fwd(np.ascontiguousarray(x), u, trans, ph, pw, tb, parts, oh, ow, *(ep or self._no_ep()), pool,
                        y)
        return y

    def _winograd4(self, x, w, pad, ep=None, pool=False):
        """The 3x3 stride-1 forward of x with w [OC, 3, 3, C] by Winograd F(4x4, 3x3) (cpu_kernels_wino4.py), through
        the epilogue `ep`; pool: the 2x2 max, [N, OH//2, OW//2, OC]."""
        n, h, wd, c = x.shape
        oc, (ph, pw) = w.shape[0], pad
        oh, ow = h + 2 * ph - 2, wd + 2 * pw - 2
        y = np.empty((n, oh // 2, ow // 2, oc) if pool else (n, oh, ow, oc), dtype=self.dtype)
        if y.size == 0:
            return y
        u = np.empty((36, c, oc), dtype=self.dtype)
        with self._gemm() as (_, parts):
            k4 = self._k()[5]
            k4.wino4_filter(np.ascontiguousarray(w), u)
            tiles = n * ((oh + 3) // 4) * ((ow + 3) // 4)
            parts = self._cap(parts, tiles, max(1, TILES_PER_PART // 4))
            tb = self._block(WINO4_BLOCK, tiles, parts)
            k4.wino4_fwd(np.ascontiguousarray(x), u, ph, pw, tb, parts, oh, ow, *(ep or self._no_ep()), pool, y)
        return y

    def _winograd_filter(self, x, gy, w_shape, pad, tiles):
        """The 3x3 stride-1 grad-filter by Winograd F(2x2, 3x3) over gy's `tiles` 2x2 tiles: per-thread sums of 16
        GEMMs over tile blocks, summed in order and transformed back to [OC, 3, 3, C]."""
        oc, _, _, c = w_shape
        gw = np.empty(w_shape, dtype=self.dtype)
        with self._gemm() as (k, parts):
            kw = self._k()[4]
            parts = self._cap(parts, tiles, TILES_PER_PART)
            acc = np.empty((parts, 16, oc, c), dtype=self.dtype)
            tb = self._block(WINO_FILTER_BLOCK, tiles, parts)
            kw.wino_bwd_filter(x, gy, pad[0], pad[1], tb, acc)
            kw.wino_filter_grad(acc, gw)
        return gw

    def _use_winograd(self, fh, fw, stride, pad):
        return WINOGRAD and (fh, fw) + tuple(stride) == (3, 3, 1, 1) and max(pad) <= 2

    @staticmethod
    def _use_winograd4(x_shape, w_shape, pad):
        """F(4x4, 3x3) for a Winograd-able forward (4x fewer multiplies than im2col, errors ~1e-5 relative instead of
        F(2x2)'s ~5e-7): where its larger transformed filter is shared by enough tiles."""
        oh, ow = x_shape[1] + 2 * pad[0] - 2, x_shape[2] + 2 * pad[1] - 2
        return WINO4 and w_shape[0] * w_shape[3] <= WINO4_MAX_FILTER and oh * ow >= WINO4_MIN_PIXELS

    def conv_fwd(self, x, w, stride, pad, infer=False, ep=None):
        """The forward convolution; infer (conv_fwd_eval): an eval-mode forward, which may take F(4x4, 3x3); ep: the
        kernels' epilogue (conv_fwd_biased's bias; not for 1x1 convolutions, whose GEMM has none)."""
        if not self.fused:
            return super().conv_fwd(x, w, stride, pad)
        oc, fh, fw, ic = w.shape
        if self._use_winograd(fh, fw, stride, pad) and ic > 1:
            if infer and self._use_winograd4(x.shape, w.shape, pad):
                return self._winograd4(x, w, pad, ep)
            return self._winograd(x, w, pad, False, ep)
        if self._tap_major(fh, fw, ic, stride, pad):
            return self._conv_rows(x, w, stride, pad, ep)
        y2, (n, oh, ow) = self._conv_tiles(x, np.ascontiguousarray(w).reshape(oc, -1), fh, fw, stride, pad, ep)
        return y2.reshape(n, oh, ow, oc)

    def conv_fwd_biased(self, x, w, bias, stride, pad, infer=False):
        """conv_fwd + bias with the bias added in the kernels' epilogue as each output tile is written (the same
        bits as the separate add); a 1x1 convolution (plain GEMM) adds it after."""
        oc, fh, fw, _ = w.shape
        if not self.fused or self._pointwise(fh, fw, stride, pad):
            return super().conv_fwd_biased(x, w, bias, stride, pad, infer)
        rows = np.zeros((5, oc), dtype=self.dtype)
        rows[0] = bias
        return self.conv_fwd(x, w, stride, pad, infer, (rows, 3) + self._no_ep()[2:])

    def conv_fwd_eval(self, x, w, stride, pad):
        """Conv3D's forward in eval mode: F(4x4, 3x3) where it pays (inference only: its ~1e-5 errors cost the
        MNIST CNN's training 0.15 points of test accuracy over 4 seeds, bench/NOTES-cpu.md), else conv_fwd's."""
        return self.conv_fwd(x, w, stride, pad, True)

    @property
    def eval_chains(self):
        """True: conv_eval below runs conv -> BN(+act) (-> 2x2 max pool) in one pass (nn/sequence.py uses it)."""
        return self.fused

    def conv_eval(self, x, w, stride, pad, bias=None, bn=None, pool=False):
        """Eval-mode chain conv(x, w) (+ bias) -> batchNorm(+act) -> 2x2 stride-2 max pool in one pass where a kernel
        has the epilogue (Winograd, first-layer and im2col-tile forwards), else primitive by primitive; the same
        values, bit for bit, as conv_fwd, add, bn_act_fwd and pool_fwd one after the other. bn: None or (gamma,
        beta, eps, run_mean, run_var, act name or None, p1, p2); an act that is not piecewise linear, a 1x1
        convolution or no bn: primitive by primitive."""
        oc, fh, fw, ic = w.shape
        pw_act = None if bn is None else self._piecewise(bn[5], bn[6])
        if not self.fused or pw_act is None or self._pointwise(fh, fw, stride, pad):
            return self._eval_unfused(x, w, stride, pad, bias, bn, pool)
        gamma, beta, eps, mean, var = bn[:5]
        mean, _, inv = self._bn_stats(None, eps, mean, var)
        b0 = np.zeros(oc, self.dtype) if bias is None else bias
        ep = (np.stack([b0, mean, inv, *self._affine(gamma, beta, oc)]).astype(self.dtype, copy=False),
              1 if bias is None else 2) + pw_act
        if self._use_winograd(fh, fw, stride, pad) and ic > 1:
            if self._use_winograd4(x.shape, w.shape, pad):
                return self._winograd4(x, w, pad, ep, pool)
            return self._winograd(x, w, pad, False, ep, pool)
        if self._tap_major(fh, fw, ic, stride, pad):
            return self._conv_rows(x, w, stride, pad, ep, pool)
        y2, (n, oh, ow) = self._conv_tiles(x, np.ascontiguousarray(w).reshape(oc, -1), fh, fw, stride, pad, ep)
        y = y2.reshape(n, oh, ow, oc)
        return self.pool_fwd("max", y, (2, 2), (2, 2), (0, 0))[0] if pool else y

    def _eval_unfused(self, x, w, stride, pad, bias, bn, pool):
        y = self.conv_fwd_eval(x, w, stride, pad)
        if bias is not None:
            y = self.add(y, bias)
        if bn is not None:
            gamma, beta, eps, mean, var, act, p1, p2 = bn
            y2 = y.reshape(-1, y.shape[-1])
            y2 = (self.bn_fwd(y2, gamma, beta, eps, mean, var) if act is None else
                  self.bn_act_fwd(act, y2, gamma, beta, eps, mean, var, p1, p2))[0]
            y = y2.reshape(y.shape)
        return self.pool_fwd("max", y, (2, 2), (2, 2), (0, 0))[0] if pool else y

    def conv_bwd_data(self, gy, w, x_shape, stride, pad):
        if not self.fused:
            return super().conv_bwd_data(gy, w, x_shape, stride, pad)
        oc, fh, fw, ic = w.shape
        (sh, sw), (ph, pw) = stride, pad
        gy = np.ascontiguousarray(gy)
        if self._pointwise(fh, fw, stride, pad):
            return self.matmul(gy.reshape(-1, oc), w.reshape(oc, ic)).reshape(x_shape)
        flipped = (sh, sw) == (1, 1) and ph < fh and pw < fw    # grad-data = a convolution with the flipped filter
        if flipped and ic <= NARROW_MAX:
            # few input channels (a first layer): that convolution computed directly (no BLAS)
            gx = np.empty(x_shape, dtype=self.dtype)
            wf = np.ascontiguousarray(w[:, ::-1, ::-1, :].transpose(3, 1, 2, 0))
            self._k()[3].conv_fwd_narrow(gy, wf, fh - 1 - ph, fw - 1 - pw, self.dtype.type(0), gx)
            return gx
        if self._use_winograd(fh, fw, stride, pad):
            return self._winograd(gy, w, (2 - ph, 2 - pw), True)
        if flipped:
            # stride 1: grad-data is the forward convolution of gy with the flipped, transposed filter
            # ([FH*FW*OC, IC] copied with IC innermost, the cheap order; passed as its F-order transpose)
            wt = np.ascontiguousarray(w[:, ::-1, ::-1, :].transpose(1, 2, 0, 3)).reshape(fh * fw * oc, ic)
            y2, _ = self._conv_tiles(gy, wt.T, fh, fw, (1, 1), (fh - 1 - ph, fw - 1 - pw))
            return y2.reshape(x_shape)
        if ic == 1:       # FH*FW strided adds beat the per-pixel gather when a pixel has one channel
            g_win = self.matmul(gy.reshape(-1, oc), w.reshape(oc, -1)).reshape(*gy.shape[:3], fh, fw, ic)
            return np.ascontiguousarray(self._scatter_windows(g_win, x_shape, stride, pad, self.dtype))
        gx = np.empty(x_shape, dtype=self.dtype)
        if gx.size == 0 or gy.size == 0:
            gx[...] = 0
            return gx
        n, oh, ow, _ = gy.shape
        with self._gemm() as (k, parts):
            k.conv_bwd_data_images(gy.reshape(-1, oc), np.ascontiguousarray(w.reshape(oc, -1)), fh, fw, sh, sw,
                                   ph, pw, oh, ow, parts, gx)
        return gx

    def conv_bwd_filter(self, x, gy, w_shape, stride, pad):
        if not self.fused:
            return super().conv_bwd_filter(x, gy, w_shape, stride, pad)
        oc, fh, fw, ic = w_shape
        gy2 = np.ascontiguousarray(gy).reshape(-1, oc)
        if self._tap_major(fh, fw, ic, stride, pad) and gy2.shape[0]:
            # out^T [FH*FW*IC, OC] = ct @ gy2 with the long reduction split over the pool (each thread copies its
            # columns of the tap-major ct: no serial transpose of it)
            ct, _ = self._cols_t(x, fh, fw, stride, pad)
            out_t = np.empty((ct.shape[0], oc), dtype=self.dtype)
            with self._gemm() as (k, parts):
                parts = self._cap(parts, ct.shape[1], ROWS_PER_PART)
                k.gemm_ksplit(ct, gy2, np.empty((parts,) + out_t.shape, dtype=self.dtype), out_t)
            return np.ascontiguousarray(out_t.T).reshape(w_shape)
        x = np.ascontiguousarray(x)
        if self._pointwise(fh, fw, stride, pad):
            return self.matmul(gy2, x.reshape(-1, ic), ta=True).reshape(w_shape)
        tiles = self._wino_tiles(gy.shape)
        if (self._use_winograd(fh, fw, stride, pad) and tiles >= WINO_FILTER_MIN_TILES
                and oc + ic >= WINO_FILTER_MIN_CHANNELS):
            return self._winograd_filter(x, np.ascontiguousarray(gy), w_shape, pad, tiles)
        n, oh, ow = self._geometry(x.shape, fh, fw, stride, pad)
        (sh, sw), (ph, pw) = stride, pad
        out = np.empty((oc, fh * fw * ic), dtype=self.dtype)
        if gy2.shape[0] == 0:
            out[...] = 0
            return out.reshape(w_shape)
        with self._gemm() as (k, parts):
            parts = self._cap(parts, gy2.shape[0], ROWS_PER_PART)
            acc = np.empty((parts, oc, fh * fw * ic), dtype=self.dtype)
            tile = self._tile(gy2.shape[0], fh * fw * ic, parts)
            k.conv_bwd_filter(x, gy2, fh, fw, sh, sw, ph, pw, oh, ow, tile, acc, out)
        return out.reshape(w_shape)

    @staticmethod
    def _ksplit(a, b, A, ta, tb, parts):
        """Few output rows for the pool and a long reduction: split the reduction (gemm_ksplit)."""
        return (not ta and not tb and a.flags.c_contiguous and b.flags.c_contiguous and parts > 1
                and A.shape[0] < 2 * MATMUL_ROWS_PER_PART * parts and A.shape[1] >= KSPLIT_MIN)

    def _one_part(self, a, b, A, ta, tb):
        """Would the pool get one part only (few rows; the engine's thread count)? Then one NumPy call does the same
        single BLAS product without the pool's launch and the BLAS thread pinning around it (a batch-16 MLP's
        layers: 7-10 us each)."""
        n = self.threads
        if ta and a.flags.c_contiguous and a.shape[0] >= 2 * A.shape[0]:
            return self._cap(n, a.shape[0], ROWS_PER_PART) == 1
        return not self._ksplit(a, b, A, ta, tb, n) and self._cap(n, A.shape[0], MATMUL_ROWS_PER_PART) == 1

    def matmul(self, a, b, ta=False, tb=False):
        """(a.T if ta else a) @ (b.T if tb else b) for 2-D float arrays of the engine's dtype: rows split over the
        pool (ta: the shared rows, summed part by part in order); anything else, a tiny product or one the pool would
        not split: NumPy."""
        if (not self.fused or a.ndim != 2 or b.ndim != 2 or a.dtype != self.dtype or b.dtype != self.dtype):
            return super().matmul(a, b, ta, tb)
        A, B = (a.T if ta else a), (b.T if tb else b)
        if (A.shape[1] != B.shape[0] or A.shape[0] * A.shape[1] * B.shape[1] < SMALL_GEMM
                or self._one_part(a, b, A, ta, tb)):
            return super().matmul(a, b, ta, tb)            # NumPy's own error for mismatched shapes
        out = np.empty((A.shape[0], B.shape[1]), dtype=self.dtype)
        with self._gemm() as (k, parts):
            if ta and a.flags.c_contiguous and a.shape[0] >= 2 * A.shape[0]:
                # a reduction longer than the output (weight gradients): split it, sum the parts in order
                parts = self._cap(parts, a.shape[0], ROWS_PER_PART)
                acc = np.empty((parts,) + out.shape, dtype=self.dtype)
                k.atb_rows(a, np.ascontiguousarray(B), acc, out)
            elif self._ksplit(a, b, A, ta, tb, parts):
                parts = self._cap(parts, A.shape[1], KSPLIT_MIN // 2)
                acc = np.empty((parts,) + out.shape, dtype=self.dtype)
                k.gemm_ksplit(a, b, acc, out)
            else:
                parts = self._cap(parts, A.shape[0], MATMUL_ROWS_PER_PART)
                k.gemm_rows(np.ascontiguousarray(A), B if B.flags.c_contiguous or B.flags.f_contiguous
                            else np.ascontiguousarray(B), parts, out)
        return out
