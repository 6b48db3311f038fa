"""Backend layer (CUDA): convolution (implicit GEMM, kernels/conv_*.cu; Winograd, cuda_winograd.py) with a
per-shape algorithm choice (conv_algo.py), depthwise convolution (kernels/dwconv.cu) and pooling
(kernels/pool.cu) primitives, mixed into CudaBackend. No cuDNN. Imports cupy, numpy and its sibling modules."""
import cupy
import numpy as np

from .conv_algo import ConvAlgoCache, default_cache_path, load_known
from .kernel_loader import get_kernel
from .kernel_prebuild import prebuild
from .cuda_conv_tc import CudaTensorCoreConvOps, aligned
from .cuda_tma import TMA_TILES, CudaTmaConvOps
from .cuda_winograd import CudaWinogradOps, winograd_applicable

i32, i64 = np.int32, np.int64
THREADS = 256
GEMM_TILES = ((128, 128), (128, 64), (64, 128), (64, 64))
MATMUL_SPLIT_MIN = 2      # matmul: slices of k below which A@B keeps the one-pass bwd-data GEMM (matmul_splits)
MATMUL_SPLIT_ROWS = 128   # ... and _split_k's min_rows for it (one slice per 128 rows of k, rounded up)


def _parsed(name):
    """An algorithm name as (kind, bm, bn): gemm128x64 -> ("gemm", 128, 64), winograd -> ("wino", 0, 0), tc64x128,
    wg128x64 (wgmma), tma256x64 (wgmma, tiles by the TMA)."""
    if name == "winograd":
        return "wino", 0, 0
    kind = next((k for k in ("gemm", "tma") if name.startswith(k)), name[:2])
    bm, bn = name[len(kind):].split("x")
    return kind, int(bm), int(bn)


def _time_round_ms(fns, reps):
    """Mean device time of each fn() over `reps` runs (after one warm-up run each, which also compiles it), all of
    them queued behind one GPU wait long enough for their launches (kernels/timing.cu): each is timed by its kernels,
    back to back with the others (ConvAlgoCache runs rounds of this in rotated orders)."""
    for fn in fns:
        fn()
    events = [(cupy.cuda.Event(), cupy.cuda.Event()) for _ in fns]
    get_kernel("timing", "gpu_wait")((1,), (1,), (np.int64(max(2_000_000, 80_000 * reps * len(fns))),))
    for (start, end), fn in zip(events, fns):
        start.record()
        for _ in range(reps):
            fn()
        end.record()
    events[-1][1].synchronize()
    return [cupy.cuda.get_elapsed_time(start, end) / reps for start, end in events]


def out_size(i, f, s, p):
    return (i + 2 * p - f) // s + 1


class CudaConvOps(CudaWinogradOps, CudaTensorCoreConvOps, CudaTmaConvOps):
    """conv_fwd / conv_bwd_data / conv_bwd_filter / dwconv_* / pool_fwd / pool_bwd on the GPU.
    `tf32` (backend attribute, default False): dense convolutions may multiply on the tensor cores in TF32
    (fp32 accumulate; ~1e-3 relative error) instead of fp32 FFMA: the pipelined kernels of conv_tc.cu join
    the candidates, beside the older mma.sync path of gemm_core.cuh. `tf32_ks` (1 or 2): k-tiles of 8 per
    shared-memory stage in the TF32 kernels (kernels/gemm_core.cuh)."""

    tf32 = False
    tf32_ks = 2
    conv_autotune = True        # time the candidate algorithms on first use of a shape (conv_algo.py)
    last_conv_algo = None       # the algorithm the last convolution ran (benchmarks, tests)
    pool_tiles = True           # False: max pooling always on the one-element-per-thread kernels (tests compare)

    def _mma(self):
        return int(self.tf32_ks) if self.tf32 else 0

    # ---------------------------------------------------------------- tiling
    def _tiles(self, m, n):
        """Tile (BM, BN) of the output matrix [m, n]: wide tiles when there are enough blocks to fill
        the GPU twice over, narrower ones otherwise."""
        bn = 128 if n > 64 else 64
        bm = 128 if -(-m // 128) * -(-n // bn) >= 2 * self.sm_count else 64
        return bm, bn

    def _geom(self, x_shape, w_hw, oc, y_hw, stride, pad):
        """The implicit-GEMM kernels' 13 int32 geometry arguments (memoised per shapes: a step repeats them)."""
        memo = self.__dict__.setdefault("_geoms", {})
        try:
            key = (tuple(x_shape), tuple(w_hw), int(oc), tuple(y_hw), tuple(stride), tuple(pad))
        except TypeError:
            key = None
        got = memo.get(key)
        if got is None:
            n, h, w, ic = x_shape
            got = (i32(n), i32(h), i32(w), i32(ic), i32(oc), i32(w_hw[0]), i32(w_hw[1]), i32(y_hw[0]), i32(y_hw[1]),
                   i32(stride[0]), i32(stride[1]), i32(pad[0]), i32(pad[1]))
            if key is not None and len(memo) < 4096:
                memo[key] = got
        return got

    # ---------------------------------------------------------------- algorithm choice
    def _algo_cache(self):
        cache = getattr(self, "_algos", None)
        if cache is None:
            name = cupy.cuda.runtime.getDeviceProperties(self.device_id)["name"]
            name = name.decode() if isinstance(name, bytes) else str(name)
            cache = self._algos = ConvAlgoCache(name, lambda fn, reps: _time_round_ms([fn], reps)[0],
                                                default_cache_path(), known=load_known(name),
                                                round_timer=_time_round_ms)
        cache.enabled = bool(self.conv_autotune)
        return cache

    def prebuild_kernels(self, wait=False, rare=False):
        """Compiles the kernel modules of the current mode (strict fp32, TF32 with tf32_ks, or bf16) ahead of
        their first use on worker threads (kernel_prebuild.py); once per mode. rare=True: also the instances of
        the less common activations and optimizers. Returns the number queued."""
        bf16 = bool(self._bf16)
        ks = 0 if bf16 or not self.tf32 else int(self.tf32_ks)
        done = self.__dict__.setdefault("_prebuilt", set())
        mode = "bf16" if bf16 else ks
        if mode in done and not wait:
            return 0
        done.add(mode)
        return prebuild(self.device_id, self.device.compute_capability, ks, wait=wait, rare=rare, bf16=bf16)

    def _mode(self):
        return f"tf32ks{int(self.tf32_ks)}" if self.tf32 else "fp32"

    def _run_conv(self, pass_name, key, gemm, tiles, wino, tc=None, tma=False):
        """Run the chosen algorithm: `gemm(bm, bn)` for each implicit-GEMM tile shape, `wino()` when the
        layer suits Winograd, `tc(bm, bn[, wgmma[, tma]])` (pipelined TF32 tensor cores; wgmma on Hopper; with
        tma=True here too, the wgmma kernels whose tiles the TMA brings) when TF32 is allowed and the layout suits
        it. The default (no timing) is TF32 tensor cores when allowed, else Winograd where it applies, else the
        heuristic tiles. A choice made outside a capture is memoised per shapes and
        mode (on the algorithm cache, so a new cache forgets it): a repeated layer skips the candidates."""
        if self.tf32 and int(self.tf32_ks) not in self.__dict__.get("_prebuilt", ()):
            self.prebuild_kernels()
        cache = self._algo_cache()
        try:
            mkey = (pass_name, key, self._mode(), cache.enabled)
            hit = cache.memo.get(mkey)
        except TypeError:                     # an unhashable key part (a list): the full path
            mkey = hit = None
        if hit is not None:
            name, kind, bm, bn = hit
            if (kind == "gemm" or (kind == "wino" and wino is not None) or (kind in ("tc", "wg") and tc is not None)
                    or (kind == "tma" and tma and tc is not None)):
                self.last_conv_algo = name
                return (gemm(bm, bn) if kind == "gemm" else wino() if kind == "wino" else tc(bm, bn) if kind == "tc"
                        else tc(bm, bn, True) if kind == "wg" else tc(bm, bn, True, True))
        cands = {f"gemm{bm}x{bn}": (lambda bm=bm, bn=bn: gemm(bm, bn)) for bm, bn in GEMM_TILES}
        default = "gemm%dx%d" % tiles
        if wino is not None:
            cands["winograd"] = wino
            default = "winograd"
        if tc is not None and self.tf32:
            cands.update({f"tc{bm}x{bn}": (lambda bm=bm, bn=bn: tc(bm, bn)) for bm, bn in GEMM_TILES})
            default = "tc%dx%d" % tiles
            if self.wgmma_ok():
                cands.update({f"wg128x{bn}": (lambda bn=bn: tc(128, bn, True)) for bn in (128, 64)})
                if tma:
                    cands.update({f"tma{bm}x{bn}": (lambda bm=bm, bn=bn: tc(bm, bn, True, True))
                                  for bm, bn in TMA_TILES})
        file_key = (pass_name,) + tuple(tuple(int(v) for v in k) for k in key) + (self._mode(),)
        capturing = cupy.cuda.get_current_stream().is_capturing()
        name = self.last_conv_algo = cache.pick(file_key, cands, default, can_time=not capturing)
        if mkey is not None and not capturing:
            cache.memo[mkey] = (name,) + _parsed(name)
        return cands[name]()

    # ---------------------------------------------------------------- dense convolution
    def conv_fwd(self, x, w, stride, pad, keep=None, x_bf16=None, y_bits=False):
        """keep (bf16 only): a list that receives x's bf16 cast when the wgmma kernels ran (for conv_bwd_filter's
        x_bf16); x_bf16 (bf16 on Hopper only): x's bf16 bits made already (a twin), read by the wgmma kernels;
        y_bits (bf16 only): y may come back as its bf16 bits (uint16, nearest even) where a wgmma kernel runs."""
        if self._bf16:
            return self.bf16_conv_fwd(x, w, stride, pad, keep, x_bf16, y_bits)
        x, w = self.c(x), self.c(w)
        n, h, wd, ic = x.shape
        oc, fh, fw, _ = w.shape
        oh, ow = out_size(h, fh, stride[0], pad[0]), out_size(wd, fw, stride[1], pad[1])
        wino = (lambda: self.wino_fwd(x, w, pad)) if winograd_applicable((fh, fw), stride, pad) else None
        tc = ((lambda bm, bn, wg=False, tma=False: self.tc_fwd(x, w, stride, pad, bm, bn, wg, tma=tma))
              if self.tc_fwd_ok(x, w) else None)
        tma = self.tf32 and self.tma_fwd_ok(x.shape, w.shape, (oh, ow), stride, x, w, bf16=False)
        return self._run_conv("fwd", (x.shape, w.shape, stride, pad),
                              lambda bm, bn: self._gemm_fwd(x, w, stride, pad, (oh, ow), bm, bn),
                              self._tiles(n * oh * ow, oc), wino, tc, tma)

    def _gemm_fwd(self, x, w, stride, pad, y_hw, bm, bn, mma=None):
        n, h, wd, ic = x.shape
        oc, fh, fw, _ = w.shape
        y = cupy.empty((n,) + tuple(y_hw) + (oc,), dtype=self.dtype)
        m = n * y_hw[0] * y_hw[1]
        vec = int(ic % 4 == 0 and aligned(x, w))
        mma = self._mma() if mma is None else mma
        self.kernel("conv_fwd", f"conv_fwd<{bm},{bn},{vec},{mma}>")(
            (-(-m // bm), -(-oc // bn)), (THREADS,),
            (x, w, y) + self._geom(x.shape, (fh, fw), oc, y_hw, stride, pad))
        return y

    def conv_bwd_data(self, gy, w, x_shape, stride, pad, gx_bits=False):
        """gx_bits (bf16 only): gX may come back as its bf16 bits (uint16, nearest even; bf16_conv_bwd_data)."""
        if self._bf16:
            return self.bf16_conv_bwd_data(gy, w, x_shape, stride, pad, gx_bits)
        gy, w = self.c(gy), self.c(w)
        n, h, wd, ic = x_shape
        sh, sw = stride
        m = n * -(-h // sh) * -(-wd // sw)                 # rows of the largest stride class
        wino = ((lambda: self.wino_bwd_data(gy, w, x_shape, pad))
                if winograd_applicable(w.shape[1:3], stride, pad, bwd_data=True) else None)
        tc = ((lambda bm, bn, wg=False, tma=False: self.tc_bwd_data(gy, w, x_shape, pad, bm, bn, wg, stride=stride,
                                                                    tma=tma))
              if self.tc_bwd_data_ok(gy, w, stride, pad) else None)
        tma = (self.tf32 and tuple(stride) == (1, 1)            # the forward of gY with the flipped filter
               and self.tma_fwd_ok(gy.shape, (ic, *w.shape[1:3], w.shape[0]), (h, wd), (1, 1), gy, bf16=False))
        return self._run_conv("bwd_data", (tuple(x_shape), w.shape, stride, pad),
                              lambda bm, bn: self._gemm_bwd_data(gy, w, x_shape, stride, pad, bm, bn),
                              self._tiles(m * sh * sw, ic), wino, tc, tma)

    def _gemm_bwd_data(self, gy, w, x_shape, stride, pad, bm, bn, mma=None):
        n, h, wd, ic = x_shape
        oc, fh, fw, _ = w.shape
        _, oh, ow, _ = gy.shape
        gx = cupy.empty((n, h, wd, ic), dtype=self.dtype)
        sh, sw = stride
        m = n * -(-h // sh) * -(-wd // sw)
        vec = int(ic % 4 == 0 and oc % 4 == 0 and aligned(gy, w))
        mma = self._mma() if mma is None else mma
        self.kernel("conv_bwd_data", f"conv_bwd_data<{bm},{bn},{vec},{mma}>")(
            (-(-m // bm), -(-ic // bn), sh * sw), (THREADS,),
            (gy, w, gx) + self._geom(x_shape, (fh, fw), oc, (oh, ow), stride, pad))
        return gx

    def _split_k(self, rows, tiles, min_rows=256, align=8):
        """(S, chunk): slices of a reduction over `rows` so that tiles*S blocks fill the GPU about 4 times, at most
        one per `min_rows` rows (ceil), each `chunk` rows long, a multiple of `align`."""
        s = max(1, min(-(-4 * self.sm_count // tiles), -(-rows // min_rows)))
        chunk = -(-(-(-rows // s)) // align) * align
        return -(-rows // chunk), chunk

    def conv_bwd_filter(self, x, gy, w_shape, stride, pad, x_bf16=None):
        """x_bf16 (bf16 only): x's bf16 cast kept by conv_fwd(keep=...), reused by the wgmma kernels."""
        if self._bf16:
            return self.bf16_conv_bwd_filter(x, gy, w_shape, stride, pad, x_bf16)
        x, gy = self.c(x), self.c(gy)
        oc, fh, fw, ic = w_shape
        kw = fh * fw * ic
        wino = ((lambda: self.wino_bwd_filter(x, gy, w_shape, pad))
                if winograd_applicable((fh, fw), stride, pad) else None)
        tc = ((lambda bm, bn, wg=False: self.tc_bwd_filter(x, gy, w_shape, stride, pad, bm, bn, wg))
              if self.tc_bwd_filter_ok(x, gy) else None)
        return self._run_conv("bwd_filter", (x.shape, tuple(w_shape), stride, pad),
                              lambda bm, bn: self._gemm_bwd_filter(x, gy, w_shape, stride, pad, bm, bn),
                              (128 if oc > 64 else 64, 128 if kw > 64 else 64), wino, tc)

    def _gemm_bwd_filter(self, x, gy, w_shape, stride, pad, bm, bn, mma=None, min_rows=256):
        oc, fh, fw, ic = w_shape
        _, oh, ow, _ = gy.shape
        kw = fh * fw * ic
        rows = gy.shape[0] * oh * ow
        tiles = -(-oc // bm) * -(-kw // bn)
        s, chunk = self._split_k(rows, tiles, min_rows)
        gw = cupy.empty(tuple(w_shape), dtype=self.dtype)
        ws = gw if s == 1 else cupy.empty((s, oc, kw), dtype=self.dtype)
        vec = int(ic % 4 == 0 and oc % 4 == 0 and aligned(x, gy))
        mma = self._mma() if mma is None else mma
        self.kernel("conv_bwd_filter", f"conv_bwd_filter<{bm},{bn},{vec},{mma}>")(
            (-(-kw // bn), -(-oc // bm), s), (THREADS,),
            (x, gy, ws) + self._geom(x.shape, (fh, fw), oc, (oh, ow), stride, pad) + (i32(chunk),))
        if s > 1:
            self._sum_slices(ws, s, oc * kw, gw)
        return gw

    def _sum_slices(self, ws, s, length, out):
        self.launch_flat("conv_bwd_filter", "sum_slices", length, (ws, i32(s), i64(length), out))

    # ---------------------------------------------------------------- matmul on the same GEMM kernels
    def matmul(self, a, b, ta=False, tb=False):
        """op(a) @ op(b) on our strict-fp32 implicit-GEMM kernels, as 1x1 convolutions over [rows,1,1,cols]
        views (no copies): A@B is a bwd-data, A^T@B a bwd-filter, A@B^T a forward. Not cuBLAS: CuPy refuses
        cuBLAS inside CUDA graph capture, and a captured step must compute what the op-by-op step computes.
        In bf16 precision: the bf16 tensor-core GEMM (cuda_bf16.py)."""
        if self._bf16:
            return self.matmul_bf16(a, b, ta, tb)
        a, b = self.c(a), self.c(b)
        if ta and tb:
            a, ta = cupy.ascontiguousarray(a.T), False
        m, k = (a.shape[1], a.shape[0]) if ta else a.shape
        kb, n = (b.shape[1], b.shape[0]) if tb else b.shape
        if k != kb:
            raise ValueError(f"matmul: inner sizes differ ({k} vs {kb})")
        if m == 0 or n == 0 or k == 0:
            return cupy.zeros((m, n), dtype=self.dtype)
        one, zero = (1, 1), (0, 0)
        if ta:                      # C[m, n] = sum_r A[r, m] B[r, n]
            r = a.shape[0]
            c = self._gemm_bwd_filter(b.reshape(r, 1, 1, n), a.reshape(r, 1, 1, m), (m, 1, 1, n), one, zero,
                                      *self._fc_tiles(m, n), mma=0)
        elif tb:                    # C[m, n] = sum_k A[m, k] B[n, k]
            c = self._gemm_fwd(a.reshape(m, 1, 1, k), b.reshape(n, 1, 1, k), one, zero, (1, 1),
                               *self._fc_tiles(m, n), mma=0)
        elif self.matmul_splits(m, k, n):    # few output tiles, a long sum: the bwd-filter kernel splits k (A^T)
            c = self._gemm_bwd_filter(b.reshape(k, 1, 1, n), cupy.ascontiguousarray(a.T).reshape(k, 1, 1, m),
                                      (m, 1, 1, n), one, zero, *self._fc_tiles(m, n), mma=0, min_rows=MATMUL_SPLIT_ROWS)
        else:                       # C[m, n] = sum_k A[m, k] B[k, n]
            c = self._gemm_bwd_data(a.reshape(m, 1, 1, k), b.reshape(k, 1, 1, n), (m, 1, 1, n), one, zero,
                                    *self._fc_tiles(m, n), mma=0)
        return c.reshape(m, n)

    def matmul_splits(self, m, k, n):
        """Does A@B ([m, k] @ [k, n]) split its reduction? Where its output has too few tiles to fill the GPU and
        k is long (a fullconnect with a large fan-in at a small batch: one block would run the whole sum),
        it runs as A^T's bwd-filter GEMM, whose k splits over MATMUL_SPLIT_MIN or more blocks (on the H200, a
        [64, 3136] @ [3136, 128] took 276 us in one pass and 20 us split in 25)."""
        bm, bn = self._fc_tiles(m, n)
        return self._split_k(k, -(-m // bm) * -(-n // bn), MATMUL_SPLIT_ROWS)[0] >= MATMUL_SPLIT_MIN

    def _fc_tiles(self, m, n):
        return (128 if m >= 2048 else 64), (128 if n > 64 else 64)

    # ---------------------------------------------------------------- depthwise (w: [FH, FW, C])
    def _dw_geom(self, x_shape, w_shape, y_hw, stride, pad):
        n, h, w, c = x_shape
        fh, fw, _ = w_shape
        return (i32(n), i32(h), i32(w), i32(c), i32(y_hw[0]), i32(y_hw[1]), i32(fh), i32(fw),
                i32(stride[0]), i32(stride[1]), i32(pad[0]), i32(pad[1]))

    def dwconv_fwd(self, x, w, stride, pad):
        self.refuse_bf16("dwconv_fwd (depthwise convolution)")
        x, w = self.c(x), self.c(w)
        n, h, wd, c = x.shape
        fh, fw, _ = w.shape
        oh, ow = out_size(h, fh, stride[0], pad[0]), out_size(wd, fw, stride[1], pad[1])
        y = cupy.empty((n, oh, ow, c), dtype=self.dtype)
        self.launch_flat("dwconv", "dw_fwd", y.size, (x, w, y) + self._dw_geom(x.shape, w.shape, (oh, ow), stride, pad))
        return y

    def dwconv_bwd_data(self, gy, w, x_shape, stride, pad):
        self.refuse_bf16("dwconv_bwd_data (depthwise convolution)")
        gy, w = self.c(gy), self.c(w)
        gx = cupy.empty(tuple(x_shape), dtype=self.dtype)
        self.launch_flat("dwconv", "dw_bwd_data", gx.size,
                         (gy, w, gx) + self._dw_geom(x_shape, w.shape, gy.shape[1:3], stride, pad))
        return gx

    def dwconv_bwd_filter(self, x, gy, w_shape, stride, pad):
        self.refuse_bf16("dwconv_bwd_filter (depthwise convolution)")
        x, gy = self.c(x), self.c(gy)
        fh, fw, c = w_shape
        rows = gy.shape[0] * gy.shape[1] * gy.shape[2]
        tiles = -(-c // 32) * fh * fw
        s = max(1, min(-(-4 * self.sm_count // tiles), -(-rows // 64)))
        gw = cupy.empty(tuple(w_shape), dtype=self.dtype)
        ws = gw if s == 1 else cupy.empty((s, fh, fw, c), dtype=self.dtype)
        geom = self._dw_geom(x.shape, w_shape, gy.shape[1:3], stride, pad)
        self.kernel("dwconv", "dw_bwd_filter")((-(-c // 32), fh * fw, s), (32, 8), (x, gy, ws) + geom)
        if s > 1:
            self._sum_slices(ws, s, fh * fw * c, gw)
        return gw

    # ---------------------------------------------------------------- pooling
    def _pool_geom(self, x_shape, y_hw, k, stride, pad):
        n, h, w, c = x_shape
        return (i32(n), i32(h), i32(w), i32(c), i32(y_hw[0]), i32(y_hw[1]), i32(k[0]), i32(k[1]),
                i32(stride[0]), i32(stride[1]), i32(pad[0]), i32(pad[1]))

    def _pool_tiles(self, x_shape, y_hw, k, stride, pad, *arrays):
        """Do the windows tile x exactly (K = S, no padding, H = OH*SH, W = OW*SW) with C % 4 == 0 and 16-byte
        aligned arrays: kernels/pool.cu's *_tiles kernels (4 channels of one output pixel per thread)."""
        n, h, w, c = x_shape
        return (self.pool_tiles and c % 4 == 0 and tuple(k) == tuple(stride) and tuple(pad) == (0, 0)
                and h == y_hw[0] * k[0] and w == y_hw[1] * k[1] and aligned(*arrays))

    def pool_fwd(self, mode, x, k, stride, pad):
        """mode 'max' -> (y, int32 window index of the first maximum); 'avg' -> (y, None): the GPU
        backward recomputes the non-padding count of each window."""
        x = self.c(x)
        n, h, w, c = x.shape
        oh, ow = out_size(h, k[0], stride[0], pad[0]), out_size(w, k[1], stride[1], pad[1])
        y = cupy.empty((n, oh, ow, c), dtype=self.dtype)
        geom = self._pool_geom(x.shape, (oh, ow), k, stride, pad)
        if mode == "max":
            idx = cupy.empty(y.shape, dtype=cupy.int32)
            tiles = self._pool_tiles(x.shape, (oh, ow), k, stride, pad, x)
            self.launch_flat("pool", "maxpool_fwd_tiles" if tiles else "maxpool_fwd", y.size // 4 if tiles else y.size,
                             (x, y, idx) + geom)
            return y, idx
        self.launch_flat("pool", "avgpool_fwd", y.size, (x, y) + geom)
        return y, None

    def pool_bwd(self, mode, gy, x, y, aux, k, stride, pad):
        gy = self.c(gy)
        gx = cupy.empty(x.shape, dtype=self.dtype)
        geom = self._pool_geom(x.shape, gy.shape[1:3], k, stride, pad)
        if mode == "max":
            aux = cupy.ascontiguousarray(aux)
            if self._pool_tiles(x.shape, gy.shape[1:3], k, stride, pad, gy, aux):
                self.launch_flat("pool", "maxpool_bwd_tiles", gy.size // 4, (gy, aux, gx) + geom)
            else:
                self.launch_flat("pool", "maxpool_bwd", gx.size, (gy, aux, gx) + geom)
        else:
            self.launch_flat("pool", "avgpool_bwd", gx.size, (gy, gx) + geom)
        return gx
