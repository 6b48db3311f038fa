"""Backend layer (CUDA, Hopper): the convolutions whose operand tiles the Tensor Memory Accelerator brings
(kernels/conv_tma*.cu; forward in bf16 and TF32, weight gradient in bf16): which geometries they take (tma_tiles), the
tensor maps they read (encoded by the driver's cuTensorMapEncodeTiled through ctypes, memoised per address and shape),
their launches. Mixed into CudaConvOps, reached through CudaTensorCoreConvOps.tc_fwd / tc_bwd_filter(tma=True)."""
import ctypes
from collections import OrderedDict

import numpy as np

from .base import out_size

i32 = np.int32
TMAP = np.dtype([("v", "<u8", (16,))])            # CUtensorMap: 128 opaque bytes, passed by value
_F32, _BF16, _SWIZZLE_128B, _L2_128B = 7, 9, 3, 2  # CUtensorMapDataType / Swizzle / L2promotion values
TMA_STAGES = {(128, 128): 3, (128, 64): 4, (256, 128): 4, (256, 64): 4}   # conv_tma.cu TMA_FWD: (BM, BN) -> stages
TMA_TILES = tuple(TMA_STAGES)                     # the (BM, BN) output tiles timed as candidates
TMA_BLOCKS = {128: 2, 256: 1}                     # blocks per SM (its __launch_bounds__)
WGRAD_STAGES = 4                                  # TMA_WGRAD instances: (BM, BN) of TMA_TILES, 4 stages each
HALO_STAGES, HALO_THREADS = 4, 416                # conv_tma_halo.cu
_MEMO_SIZE = 512


def tma_family(kind, y_bits):
    """The module of a TMA forward kernel: conv_tma.cu (bf16, "wgb"), conv_tma_yb.cu (bf16 writing bits),
    conv_tma_tf32.cu (TF32, "wg"); compiled apart, in parallel (kernel_prebuild.py)."""
    return "conv_tma_yb" if y_bits else "conv_tma" if kind == "wgb" else "conv_tma_tf32"


def tma_tiles(oh, ow, stride, rows=128):
    """(BH, BNI) of a box of `rows` output pixels (128: a forward block's rows; 64: a weight gradient's k-tile) as
    BNI whole images of BH = OH rows, or BH whole rows of one image (kernels/conv_tma.cu), or None where the output
    grid does not split so (OW must divide rows; element strides and boxes within the TMA's limits of 8 and 256)."""
    sh, sw = stride
    if not (0 < ow <= rows and rows % ow == 0 and oh > 0 and 1 <= sh <= 8 and 1 <= sw <= 8 and ow * sw <= 256):
        return None
    if oh * ow <= rows:
        bh, bni = (oh, rows // (oh * ow)) if rows % (oh * ow) == 0 else (0, 0)
    else:
        bh, bni = rows // ow, 1
        bh = bh if oh % bh == 0 else 0
    return (bh, bni) if bh and bh * sh <= 256 and bni <= 256 else None


def tma_smem_bytes(bm, bn, stages=None):
    """Dynamic shared memory of one block: stages (default: the forward's, TMA_STAGES) x (A bm + B bn rows of 128
    bytes: 64 bf16 or 32 fp32 channels), plus 1 KB to align."""
    return (stages or TMA_STAGES[(bm, bn)]) * (bm + bn) * 128 + 1024


class _Encoder:
    """cuTensorMapEncodeTiled from the driver library (libcuda), loaded on first use."""
    fn = None
    missing = None          # why the driver has none (a driver older than CUDA 12), once looked for

    @classmethod
    def available(cls):
        """Can tensor maps be encoded here? Without them the TMA kernels are simply not candidates."""
        if cls.fn is None and cls.missing is None:
            try:
                cls.get()
            except (OSError, AttributeError) as e:
                cls.missing = f"{type(e).__name__}: {e}"
        return cls.fn is not None

    @classmethod
    def get(cls):
        if cls.fn is None:
            u64p, u32p = ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint32)
            f = ctypes.CDLL("libcuda.so.1").cuTensorMapEncodeTiled
            f.restype = ctypes.c_int
            f.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32, ctypes.c_void_p, u64p, u64p, u32p, u32p,
                          ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
            cls.fn = f
        return cls.fn


def encode_map(ptr, dims, strides, box, elem_strides, dtype=_BF16):
    """The tensor map of a bf16 (or with dtype=_F32 fp32) tensor at device address ptr: dims innermost first
    (elements), strides of dims 1.. in bytes, the box each copy brings and its element strides; 128-byte swizzle,
    zeros out of range."""
    rank = len(dims)
    buf = (ctypes.c_uint8 * 192)()
    at = ctypes.addressof(buf) + (-ctypes.addressof(buf)) % 64          # the driver wants 64-byte alignment
    arr = lambda t, v: (t * len(v))(*v)                                  # noqa: E731
    rc = _Encoder.get()(at, dtype, rank, ptr, arr(ctypes.c_uint64, dims), arr(ctypes.c_uint64, strides),
                        arr(ctypes.c_uint32, box), arr(ctypes.c_uint32, elem_strides), 0, _SWIZZLE_128B, _L2_128B, 0)
    if rc:
        raise RuntimeError(f"cuTensorMapEncodeTiled: CUresult {rc} for dims {tuple(dims)}, strides {tuple(strides)}, "
                           f"box {tuple(box)}, element strides {tuple(elem_strides)}")
    return np.frombuffer(ctypes.string_at(at, 128), dtype=TMAP)


def halo_geometry_ok(x_shape, w_shape, y_hw, stride):
    """Does conv_tma_halo.cu's weight gradient take this convolution: a 3x3 stride-1 filter, input and output
    channels in 64-channel blocks, and 64-pixel k-tiles of whole rows of one image (OW 8, 16, 32 or 64, OH a
    multiple of 64 / OW)?"""
    oh, ow = y_hw
    return (tuple(w_shape[1:3]) == (3, 3) and tuple(stride) == (1, 1) and x_shape[3] % 64 == 0
            and w_shape[3] == x_shape[3] and w_shape[0] % 64 == 0 and ow in (8, 16, 32, 64) and oh % (64 // ow) == 0)


def _elem(a):
    """(CUtensorMapDataType, bytes per element) of bf16 bits (uint16) or fp32 operands."""
    return (_BF16, 2) if a.dtype == np.uint16 else (_F32, 4)


def _nhwc_map(xb, box, elem_strides):
    """The tensor map of an [N, H, W, C] tensor (bf16 bits or fp32), dims innermost first."""
    n, h, wd, ic = xb.shape
    dt, e = _elem(xb)
    return encode_map(xb.data.ptr, (ic, wd, h, n), (ic * e, wd * ic * e, h * wd * ic * e), box, elem_strides, dt)


def _x_map(xb, oh, ow, stride, rows):
    """x's [N, H, W, IC] tensor map (bf16 bits or fp32) whose box is `rows` output pixels' input rows (tma_tiles) x
    one 128-byte row of channels (64 bf16, 32 fp32), traversed with the convolution's strides."""
    (sh, sw), (bh, bni) = stride, tma_tiles(oh, ow, stride, rows)
    return _nhwc_map(xb, (128 // _elem(xb)[1], ow * sw, bh * sh, bni), (1, sw, sh, 1))


def _gy_rows_map(gyb):
    """gY's bf16 bits as [R, OC] rows, boxes of 64 rows x 64 channels (the weight gradients' k-tiles)."""
    n, oh, ow, oc = gyb.shape
    return encode_map(gyb.data.ptr, (oc, n * oh * ow), (oc * 2,), (64, 64), (1, 1))


class CudaTmaConvOps:
    tma_conv = True         # False: the bf16 convolutions never time or run the TMA kernels
    tma_persistent = True   # one wave of blocks (TMA_BLOCKS per SM) walking the output tiles; False: one per tile

    def _tma_memo(self, key, make):
        """make()'s value for key, kept among the last _MEMO_SIZE (tensor maps, launch arguments)."""
        memo = self.__dict__.setdefault("_tma_launch", OrderedDict())
        got = memo.get(key)
        if got is None:
            got = memo[key] = make()
            if len(memo) > _MEMO_SIZE:
                memo.popitem(last=False)
        return got

    def _tma_usable(self, *arrays):
        """The switch is on, the GPU is Hopper, the driver encodes tensor maps, the given arrays (None: not known
        yet) start on 16-byte boundaries."""
        return (self.tma_conv and self.wgmma_ok() and _Encoder.available()
                and all(a is None or a.data.ptr % 16 == 0 for a in arrays))

    def tma_fwd_ok(self, x_shape, w_shape, y_hw, stride, xb=None, wb=None, bf16=True):
        """Can conv_tma.cu run this forward: Hopper, k-tiles of 64 bf16 / (bf16=False: TF32) 32 fp32 channels (IC a
        multiple), an output grid tma_tiles splits, 16-byte aligned operands?"""
        return (x_shape[3] % (64 if bf16 else 32) == 0 and w_shape[3] == x_shape[3]
                and tma_tiles(*y_hw, stride) is not None and self._tma_usable(xb, wb))

    def tma_fwd(self, xb, wb, stride, pad, bm, bn, y_bits, out_hw=None):
        """y = conv(x, w) from their bf16 bits xb [N, H, W, IC], wb [OC, FH, FW, IC] (tma_fwd_ok), or in TF32 from
        fp32 xb, wb, in bm x bn output tiles (bm 128 | 256), fp32 or with y_bits (bf16 only) its bf16 bits. The launch
        (tensor maps, grid, scalars) is memoised per operands and geometry."""
        import cupy                 # (this module's geometry and encoding need no CuPy: host tests import them)
        key = (xb.data.ptr, wb.data.ptr, xb.shape, wb.shape, xb.dtype.char, tuple(stride), tuple(pad), bm, bn,
               y_bits, out_hw, self.tma_persistent)
        shape, kern, grid, smem, args = self._tma_memo(
            key, lambda: self._tma_launch_args(xb, wb, stride, pad, bm, bn, y_bits, out_hw))
        y = cupy.empty(shape, dtype=np.uint16 if y_bits else np.float32)
        if y.size:
            kern((grid,), (288,), (args[0], args[1], y) + args[2:], shared_mem=smem)
        return y

    def _tma_launch_args(self, xb, wb, stride, pad, bm, bn, y_bits, out_hw):
        n, h, wd, ic = xb.shape
        oc, fh, fw, _ = wb.shape
        (sh, sw), (ph, pw) = stride, pad
        oh, ow = out_hw or (out_size(h, fh, sh, ph), out_size(wd, fw, sw, pw))
        m, k = n * oh * ow, fh * fw * ic
        tx = _x_map(xb, oh, ow, stride, 128)
        dt, e = _elem(xb)
        if wb.dtype != xb.dtype or y_bits and e != 2:
            raise TypeError(f"tma_fwd: x {xb.dtype} and w {wb.dtype} must both be bf16 bits (uint16) or both fp32; "
                            f"y_bits={y_bits} needs bf16")
        tw = encode_map(wb.data.ptr, (k, oc), (k * e,), (128 // e, bn), (1, 1), dt)
        tiles = -(-m // bm) * -(-oc // bn)
        if self.tma_persistent:
            tiles = min(tiles, TMA_BLOCKS[bm] * self.sm_count)
        smem = tma_smem_bytes(bm, bn)
        kind = "wgb" if e == 2 else "wg"
        kern = self.kernel(tma_family(kind, y_bits), f"{kind}_conv_fwd_tma{'_yb' if y_bits else ''}_m{bm}_n{bn}", smem)
        args = (tx, tw, i32(m), i32(oc), i32(ic), i32(fw), i32(k * e // 128), i32(oh), i32(ow), i32(sh), i32(ph),
                i32(pw))
        return (n, oh, ow, oc), kern, max(tiles, 1), smem, args

    def tma_wgrad_ok(self, x_shape, oc, y_hw, stride, xb=None, gyb=None):
        """Can conv_tma.cu run this weight gradient: Hopper, 64-channel column blocks (IC % 64 == 0), gY rows of
        16-byte multiples (OC % 8 == 0), 64-pixel k-tiles tma_tiles splits, 16-byte aligned operands?"""
        return (x_shape[3] % 64 == 0 and oc % 8 == 0 and tma_tiles(*y_hw, stride, 64) is not None
                and self._tma_usable(xb, gyb))

    def tma_wgrad(self, xb, gyb, w_shape, stride, pad, bm, bn, ws, s, chunk):
        """Slices ws[z] (z < s, chunk rows of r each, a multiple of 64) of gW^T from x's and gY's bf16 bits
        (tma_wgrad_ok), bm x bn tiles of (fh, fw, ic) x oc (kernels/conv_tma.cu wgb_conv_wgrad_tma_*)."""
        n, h, wd, ic = xb.shape
        oc, fh, fw, _ = w_shape
        _, oh, ow, _ = gyb.shape
        (sh, sw), (ph, pw) = stride, pad
        key = ("wgrad", xb.data.ptr, gyb.data.ptr, xb.shape, gyb.shape, tuple(stride))
        maps = self._tma_memo(key, lambda: (_x_map(xb, oh, ow, stride, 64), _gy_rows_map(gyb)))
        smem = tma_smem_bytes(bm, bn, WGRAD_STAGES)
        geom = tuple(i32(v) for v in (n, h, wd, ic, oc, fh, fw, oh, ow, sh, sw, ph, pw, chunk))
        self.kernel("conv_tma_wgrad", f"wgb_conv_wgrad_tma_m{bm}_n{bn}", smem)(
            (-(-oc // bn), -(-fh * fw * ic // bm), s), (288,), maps + (ws,) + geom, shared_mem=smem)

    def tma_halo_ok(self, x_shape, w_shape, y_hw, stride, xb=None, gyb=None):
        """Can conv_tma_halo.cu run this weight gradient: Hopper, halo_geometry_ok, aligned operands?"""
        return halo_geometry_ok(x_shape, w_shape, y_hw, stride) and self._tma_usable(xb, gyb)

    def tma_halo_wgrad(self, xb, gyb, pad, ws, s, chunk):
        """Slices ws[z] [OC, 9 IC] (z < s, chunk rows of r each, a multiple of 64) of a 3x3 stride-1 weight gradient
        from x's and gY's bf16 bits (tma_halo_ok): each k-tile's input rows brought once with their halo."""
        n, h, wd, ic = xb.shape
        _, oh, ow, oc = gyb.shape
        bh = 64 // ow
        halo = (ow + 2) * (bh + 2) * 128
        stage = -(-halo // 1024) * 1024 + 8192
        key = ("halo", xb.data.ptr, gyb.data.ptr, xb.shape, gyb.shape)
        maps = self._tma_memo(key, lambda: (_nhwc_map(xb, (64, ow + 2, bh + 2, 1), (1, 1, 1, 1)), _gy_rows_map(gyb)))
        smem = HALO_STAGES * stage + 1024
        args = tuple(i32(v) for v in (ic, oc, oh, ow, pad[0], pad[1], n * oh * ow, chunk, halo, stage))
        self.kernel("conv_tma_halo", "wgb_conv_wgrad_halo", smem)(
            (oc // 64, ic // 64, s), (HALO_THREADS,), maps + (ws,) + args, shared_mem=smem)
