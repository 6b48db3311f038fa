"""Backend layer (CUDA): the engine's precision setting and the bf16 primitives: matmul (Linear's forward and both
gradients; kernels/gemm_bf16.cu) and dense convolution forward / backward-data / backward-filter
(kernels/conv_bf16.cu, mma.sync; on Hopper also the wgmma kernels of kernels/conv_wgmma.cu, on operands cast to
bf16 first, picked per layer by timing) — operands rounded to bf16, fp32 accumulation, fp32 storage.
Primitives that would multiply on tensor cores without a bf16 kernel (depthwise convolutions, batched matmuls)
refuse bf16 by name (refuse_bf16) rather than run fp32 under a bf16 label.
Imports cupy, numpy, alpha_py.errors, alpha_py.precision."""
import cupy
import numpy as np

from ..errors import ArgumentError, DeviceError
from ..precision import BF16_MIN_CC, check_precision
from .base import out_size
from .cuda_tma import TMA_TILES

BF16_SPLIT_ROWS = 128     # matmul_bf16 on 64x64 tiles: _split_k's min_rows for a long k (one slice per 128 rows)

i32, i64 = np.int32, np.int64


class CudaBf16Ops:
    """Mixin of CudaBackend: `precision` ("fp32" | "tf32" | "bf16"); `tf32` stays a view of it."""

    _bf16 = False

    @property
    def precision(self):
        return "bf16" if self._bf16 else ("tf32" if self.tf32 else "fp32")

    def set_precision(self, value, who="precision"):
        """Switch the engine's precision; bf16 needs bf16 tensor cores (compute capability >= 8.0)."""
        name = check_precision(value, who)
        if name == "bf16":
            cc = int(self.device.compute_capability)
            if cc < BF16_MIN_CC:
                gpu = cupy.cuda.runtime.getDeviceProperties(self.device_id)["name"]
                gpu = gpu.decode() if isinstance(gpu, bytes) else str(gpu)
                raise DeviceError(f"{who}: precision 'bf16' needs bf16 tensor cores (compute capability >= 8.0); "
                                  f"engine cuda_float32 on device {self.device_id} ({gpu}) has compute capability "
                                  f"{cc // 10}.{cc % 10}: use 'tf32' or 'fp32'")
        self._bf16 = name == "bf16"
        self.tf32 = name == "tf32"
        if "_kernels" in self.__dict__:         # (a constructed backend) this mode's kernels, on worker threads
            self.prebuild_kernels()
        return self

    def refuse_bf16(self, unit):
        """Raise when the engine is in bf16 and `unit` has no bf16 kernels yet."""
        if self._bf16:
            raise ArgumentError(f"{unit}: no bf16 kernels yet (bf16 so far: matmul / Linear and dense "
                                "convolutions on the CUDA engine); "
                                "run this net with precision 'tf32' or 'fp32'")

    def matmul_bf16(self, a, b, ta=False, tb=False):
        """op(a) @ op(b), fp32 [m, n]: bf16-rounded operands on mma.sync tensor cores, fp32 accumulation.
        Transposes are strides (no copies); any shape."""
        a, b = self.c(a), self.c(b)
        m, k = (a.shape[1], a.shape[0]) if ta else a.shape
        kb, n = (b.shape[1], b.shape[0]) if tb else b.shape
        if k != kb:
            raise ValueError(f"matmul: inner sizes differ ({k} vs {kb})")
        c = cupy.empty((m, n), dtype=np.float32)
        if m == 0 or n == 0:
            return c
        if k == 0:
            c.fill(0)
            return c
        lda, ldb = a.shape[1], b.shape[1]
        sam, sak = (1, lda) if ta else (lda, 1)
        sbk, sbn = (1, ldb) if tb else (ldb, 1)
        args = (a, b, c, i32(m), i32(n), i32(k), i64(sam), i64(sak), i64(sbk), i64(sbn))
        if -(-m // 128) * -(-n // 128) < self.sm_count:         # too few 128x128 tiles to fill the GPU
            tiles = -(-n // 64) * -(-m // 64)                   # ... and a long k: split it over ~4 blocks per SM
            s, kc = self._split_k(k, tiles, BF16_SPLIT_ROWS, 16)  # (rows of k per slice: whole 16-row steps)
            ws = c if s == 1 else cupy.empty((s, m, n), dtype=np.float32)
            self.kernel("gemm_bf16", "gemm_bf16_64x64")((-(-n // 64), -(-m // 64), s), (128,),
                                                        args[:2] + (ws,) + args[3:] + (i32(kc),))
            if s > 1:
                self._sum_slices(ws, s, m * n, c)              # in slice order: the same bits every run
        else:
            va, vb = _vec(a, m, k, sam, sak), _vec(b, n, k, sbn, sbk)
            self.kernel("gemm_bf16", f"gemm_bf16_128<{va},{vb}>")((-(-n // 128), -(-m // 128)), (256,), args)
        return c

    # ---------------------------------------------------------------- dense convolutions: algorithm choice
    def _bf16_run(self, pass_name, key, cands, default, mode="bf16"):
        """Run the candidate chosen for this layer: timed on first use of its shapes (outside a capture) in the
        algorithm cache under mode 'bf16', then memoised like the fp32 choice (cuda_conv.py _run_conv)."""
        cache = self._algo_cache()
        mkey = (pass_name, key, mode, cache.enabled)
        name = cache.memo.get(mkey)
        if name not in cands:
            file_key = (pass_name,) + tuple(tuple(int(v) for v in k) for k in key) + (mode,)
            capturing = cupy.cuda.get_current_stream().is_capturing()
            name = cache.pick(file_key, cands, default, can_time=not capturing)
            if not capturing:
                cache.memo[mkey] = name
        self.last_conv_algo = name
        return cands[name]()

    def _wgb_ok(self, gathered=8):
        """The wgmma bf16 kernels (Hopper) read 8-channel 16-byte chunks of the gathered operand: X's channels are
        zero-padded to 8 when cast (forward, bwd-filter); bwd-data gathers gY, so its OC must be a multiple of 8."""
        return self.wgmma_ok() and gathered % 8 == 0

    def bf16_conv_fwd(self, x, w, stride, pad, keep=None, x_bf16=None, y_bits=False):
        """y_bits=True: where a wgmma kernel runs, y comes back as its bf16 bits (uint16; see conv_fwd)."""
        if x_bf16 is not None:
            return self._bf16_conv_fwd_bits(x, x_bf16, w, stride, pad, y_bits)
        x, w = self.c(x), self.c(w)
        oc = w.shape[0]

        def mma():                      # no cast to keep (a timed wgmma candidate may have left one)
            if keep is not None:
                keep.clear()
            return self._mma_conv_fwd(x, w, stride, pad)
        cands = {"bf16mma": mma}
        if self._wgb_ok():
            def wg(bm, bn, tma=False):
                xb = self.to_bf16(x, pad8=True)
                if keep is not None:
                    keep[:] = [xb]
                return self.tc_fwd(xb, w, stride, pad, bm, bn, True, True, y_bits=y_bits, tma=tma)
            for bn in (128, 64):
                cands[f"bf16wg128x{bn}"] = lambda bn=bn: wg(128, bn)
            if self.tma_fwd_ok(x.shape, w.shape, _out_hw(x.shape, w.shape, stride, pad), stride):
                for bm, bn in TMA_TILES:
                    cands[f"bf16tma{bm}x{bn}"] = lambda bm=bm, bn=bn: wg(bm, bn, True)
        return self._bf16_run("fwd", (x.shape, w.shape, stride, pad), cands, _default(cands, oc))

    def _bf16_conv_fwd_bits(self, x, xb, w, stride, pad, y_bits=False):
        """The forward on x's bf16 bits made already (a twin): only the wgmma kernels read bits, timed apart from the
        forward that casts (mode 'bf16x')."""
        w = self.c(w)
        cp = -(-x.shape[3] // 8) * 8
        if xb.dtype != np.uint16 or tuple(xb.shape) != tuple(x.shape[:3]) + (cp,):
            raise ArgumentError(f"conv_fwd: x_bf16 {xb.dtype} {tuple(xb.shape)} is not the bf16 bits of x "
                                f"{tuple(x.shape)} (channels padded to {cp})")
        if not self._wgb_ok():
            raise ArgumentError("conv_fwd: x_bf16 (x's bf16 bits) needs the wgmma kernels (compute capability 9.0); "
                                f"this GPU has {self.device.compute_capability}: pass x alone")
        cands = {f"bf16wg128x{bn}": (lambda bn=bn: self.tc_fwd(xb, w, stride, pad, 128, bn, True, True,
                                                               y_bits=y_bits)) for bn in (128, 64)}
        if self.tma_fwd_ok(xb.shape, w.shape, _out_hw(xb.shape, w.shape, stride, pad), stride, xb):
            for bm, bn in TMA_TILES:
                cands[f"bf16tma{bm}x{bn}"] = lambda bm=bm, bn=bn: self.tc_fwd(xb, w, stride, pad, bm, bn, True, True,
                                                                               y_bits=y_bits, tma=True)
        return self._bf16_run("fwd", (x.shape, w.shape, stride, pad), cands, _default(cands, w.shape[0]), "bf16x")

    def conv_grad_bits_ok(self, w_shape, stride, pad):
        """Can a bf16 training convolution take its output gradient gY as bf16 bits only (uint16; both gradients
        on the wgmma kernels: gW on gY untransposed, gX gathering gY's 8-channel chunks)?"""
        oc, fh, fw, _ = w_shape
        return (self.bf16_grad_bits and self._wgb_ok(oc) and self.wgrad_mn_ok(oc) and pad[0] < fh
                and pad[1] < fw)

    def _gy_bits(self, gy, w_shape, stride, pad, what):
        """gy given as bf16 bits (uint16): checked against the convolution (conv_grad_bits_ok) -> True."""
        if gy.dtype != np.uint16:
            return False
        if not self.conv_grad_bits_ok(w_shape, stride, pad) or gy.shape[-1] != w_shape[0]:
            raise ArgumentError(f"{what}: gy given as bf16 bits {tuple(gy.shape)} needs the wgmma kernels and "
                                f"output channels a multiple of 8 (filter {tuple(w_shape)}, pad {tuple(pad)}); "
                                "pass gy in fp32")
        return True

    def bf16_conv_bwd_data(self, gy, w, x_shape, stride, pad, gx_bits=False):
        """gy: fp32, or its bf16 bits (uint16, where conv_grad_bits_ok: only the wgmma kernels run). gx_bits=True:
        where a stride-1 wgmma kernel runs and IC % 8 == 0, gX comes back as its bf16 bits (uint16, nearest even;
        timed as its own mode), else in fp32."""
        bits = self._gy_bits(gy, w.shape, stride, pad, "conv_bwd_data")
        gy, w = (gy if bits else self.c(gy)), self.c(w)
        oc, fh, fw, ic = w.shape
        gx_bits = bool(gx_bits) and tuple(stride) == (1, 1) and ic % 8 == 0
        cands = {} if bits else {"bf16mma": lambda: self._mma_conv_bwd_data(gy, w, x_shape, stride, pad)}
        if self._wgb_ok(oc) and self.tc_bwd_data_ok(gy, w, stride, pad):
            for bn in (128, 64):
                cands[f"bf16wg128x{bn}"] = lambda bn=bn: self.tc_bwd_data(gy, w, x_shape, pad, 128, bn, True, True,
                                                                           stride, gx_bits=gx_bits)
            if tuple(stride) == (1, 1) and self.tma_fwd_ok(gy.shape, (ic, fh, fw, oc), tuple(x_shape[1:3]), stride, gy):
                for bm, bn in TMA_TILES:
                    cands[f"bf16tma{bm}x{bn}"] = lambda bm=bm, bn=bn: self.tc_bwd_data(
                        gy, w, x_shape, pad, bm, bn, True, True, stride, tma=True, gx_bits=gx_bits)
        return self._bf16_run("bwd_data", (tuple(x_shape), w.shape, stride, pad), cands, _default(cands, ic),
                              ("bf16g" if bits else "bf16") + ("b" if gx_bits else ""))

    def bf16_conv_bwd_filter(self, x, gy, w_shape, stride, pad, x_bf16=None):
        """x None: only x's bf16 cast x_bf16 was kept (a training Conv3D), so only the wgmma kernels can run; gy:
        fp32, or its bf16 bits (uint16, where conv_grad_bits_ok)."""
        bits = self._gy_bits(gy, w_shape, stride, pad, "conv_bwd_filter")
        gy, oc = (gy if bits else self.c(gy)), w_shape[0]
        if x is None and x_bf16 is None:
            raise ArgumentError("conv_bwd_filter: x is None and no x_bf16 (its kept bf16 cast) given")
        x_shape = tuple(x_bf16.shape[:3]) + (w_shape[3],) if x is None else tuple(x.shape)
        if x_bf16 is not None and (x_bf16.dtype != np.uint16 or x_bf16.ndim != 4 or x_bf16.shape[:3] != x_shape[:3]
                                   or x_bf16.shape[3] != -(-x_shape[3] // 8) * 8 or gy.shape[0] != x_shape[0]):
            raise ArgumentError(f"conv_bwd_filter: x_bf16 {x_bf16.dtype} {tuple(x_bf16.shape)} is not the bf16 "
                                f"cast of x {x_shape} (conv_fwd(keep=...) gives it)")
        cands = {}
        if x is not None and not bits:
            x = self.c(x)
            cands["bf16mma"] = lambda: self._mma_conv_bwd_filter(x, gy, w_shape, stride, pad)
        xw = x if x_bf16 is None else x_bf16
        if self._wgb_ok():
            for bm in (128, 256) if self.wgrad_mn_ok(oc) else (128,):
                for bn in (128, 64):
                    cands[f"bf16wg{bm}x{bn}"] = (lambda bm=bm, bn=bn: self.tc_bwd_filter(xw, gy, w_shape, stride, pad,
                                                                                        bm, bn, True, True))
            oh, ow = _out_hw(x_shape, w_shape, stride, pad)
            if self.wgrad_mn_ok(oc) and self.tma_wgrad_ok(xw.shape, oc, (oh, ow), stride, gyb=gy):
                for bm, bn in TMA_TILES:
                    cands[f"bf16tma{bm}x{bn}"] = (lambda bm=bm, bn=bn: self.tc_bwd_filter(
                        xw, gy, w_shape, stride, pad, bm, bn, True, True, tma=True))
            if self.wgrad_mn_ok(oc) and self.tma_halo_ok(xw.shape, w_shape, (oh, ow), stride, gyb=gy):
                for waves in (1, 2):            # slices for one or two waves of blocks
                    cands[f"bf16halo{waves}"] = (lambda w=waves: self.tc_bwd_filter(
                        xw, gy, w_shape, stride, pad, 128, 64, True, True, halo=w))
        if not cands:
            raise ArgumentError(f"conv_bwd_filter: only x's bf16 cast {tuple(x_bf16.shape)} was given and this GPU "
                                "has no wgmma kernels to read it: pass x")
        return self._bf16_run("bwd_filter", (x_shape, tuple(w_shape), stride, pad), cands, _default(cands, oc),
                              "bf16g" if bits else "bf16")

    # ---------------------------------------------------------------- dense convolutions (kernels/conv_bf16.cu)
    def _mma_conv_fwd(self, x, w, stride, pad):
        n, h, wd, ic = x.shape
        oc, fh, fw, _ = w.shape
        oh, ow = (h + 2 * pad[0] - fh) // stride[0] + 1, (wd + 2 * pad[1] - fw) // stride[1] + 1
        y = cupy.empty((n, oh, ow, oc), dtype=np.float32)
        v = int(ic % 4 == 0 and _al(x, w))
        self.kernel("conv_bf16", f"bf16_conv_fwd<{v}>")(
            (-(-oc // 128), -(-(n * oh * ow) // 128)), (256,),
            (x, w, y) + self._geom(x.shape, (fh, fw), oc, (oh, ow), stride, pad))
        return y

    def _mma_conv_bwd_data(self, gy, w, x_shape, stride, pad):
        n, h, wd, ic = x_shape
        oc, fh, fw, _ = w.shape
        _, oh, ow, _ = gy.shape
        wt = cupy.ascontiguousarray(w.transpose(1, 2, 0, 3))          # [FH, FW, OC, IC]
        gx = cupy.empty((n, h, wd, ic), dtype=np.float32)
        v, vb = int(oc % 4 == 0 and _al(gy)), 2 * int(ic % 4 == 0)
        self.kernel("conv_bf16", f"bf16_conv_dgrad<{v},{vb}>")(
            (-(-ic // 128), -(-(n * h * wd) // 128)), (256,),
            (gy, wt, gx) + self._geom(x_shape, (fh, fw), oc, (oh, ow), stride, pad))
        return gx

    def _mma_conv_bwd_filter(self, x, gy, w_shape, stride, pad):
        oc, fh, fw, ic = w_shape
        _, oh, ow, _ = gy.shape
        kw, rows = fh * fw * ic, gy.shape[0] * oh * ow
        tiles = -(-oc // 128) * -(-kw // 128)
        s = max(1, min(-(-2 * self.sm_count // tiles), -(-rows // 256)))
        chunk = -(-(-(-rows // s)) // 32) * 32
        s = -(-rows // chunk)
        gw = cupy.empty(tuple(w_shape), dtype=np.float32)
        ws = gw if s == 1 else cupy.empty((s, oc, kw), dtype=np.float32)
        v, va = int(ic % 4 == 0 and _al(x)), 2 * int(oc % 4 == 0 and _al(gy))
        self.kernel("conv_bf16", f"bf16_conv_wgrad<{v},{va}>")(
            (-(-kw // 128), -(-oc // 128), s), (256,),
            (x, gy, ws) + self._geom(x.shape, (fh, fw), oc, (oh, ow), stride, pad) + (i32(chunk),))
        if s > 1:
            self._sum_slices(ws, s, oc * kw, gw)
        return gw

    def matmul_nd(self, a, b, t1=False, t2=False):
        """Batched matmuls run on the strict-fp32 batched GEMM (cuda_math.py): refused in bf16; 2D ones take the
        bf16 GEMM."""
        if a.ndim > 2 or b.ndim > 2:
            self.refuse_bf16(f"matmul_nd (batched matmul of {tuple(a.shape)} and {tuple(b.shape)})")
        return super().matmul_nd(a, b, t1, t2)


def _out_hw(x_shape, w_shape, stride, pad):
    return tuple(out_size(x_shape[1 + i], w_shape[1 + i], stride[i], pad[i]) for i in (0, 1))


def _default(cands, n):
    """Untimed choice: the wgmma kernel with output tiles of 128 (n > 64) or 64 columns when offered."""
    name = "bf16wg128x128" if n > 64 else "bf16wg128x64"
    return name if name in cands else "bf16mma"


def _vec(x, rows, k, sr, sk):
    """How gemm_bf16_128 reads an operand: 1 float4 along k, 2 float4 along its rows, 0 scalar."""
    if x.data.ptr % 16:
        return 0
    if sk == 1 and k % 4 == 0 and sr % 4 == 0:
        return 1
    if sr == 1 and rows % 4 == 0 and sk % 4 == 0:
        return 2
    return 0


def _al(*arrays):
    return all(a.data.ptr % 16 == 0 for a in arrays)
