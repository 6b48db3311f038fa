"""Backend layer (CUDA): the TF32 tensor-core convolutions with a multi-stage cp.async pipeline
(kernels/conv_tc.cu, mma.sync; kernels/conv_wgmma*.cu, Hopper wgmma) — forward, backward-data for stride 1 (the
forward on gY with the flipped filter) and backward-filter (split over N*OH*OW, slices summed with Kahan); the
wgmma ones also in bf16 (bf16=True: operands cast to bf16 bits first, fp32 out). Mixed into CudaConvOps."""
import cupy
import numpy as np

from ..errors import ArgumentError

i32 = np.int32
TC_THREADS, TC_BK, TC_STAGES = 256, 32, 3
# the wgmma modules NVRTC compiles apart, in parallel (kernel_prebuild.py): forward-style kernels of each precision
# (bf16=True), the bwd-filters on gY^T (TF32's beside its forward, bf16's beside its MN-major ones)
WG_FAMILY = {False: "conv_wgmma", True: "conv_wgmma_bf16"}
WG_WGRAD_FAMILY = {False: "conv_wgmma", True: "conv_wgmma_mn"}


def tc_smem_bytes(bm, bn, mn_major):
    """Dynamic shared memory of one block (kernels/conv_tc.cu TileSize x TC_STAGES)."""
    tile = (lambda rows: TC_BK * (rows + 8)) if mn_major else (lambda rows: rows * (TC_BK + 4))
    return TC_STAGES * (tile(bm) + tile(bn)) * 4


def wg_smem_bytes(bn, wgrad=False):
    """kernels/conv_wgmma.cuh: WG_STAGES x (A tile + BN rows of 128 bytes), plus 1 KB to align the swizzle atoms;
    A is 128 K-major rows (forward) or a [32][128 + 8] MN-major tile (bwd-filter)."""
    a = TC_BK * (128 + 8) if wgrad else 128 * TC_BK
    return 3 * (a + bn * TC_BK) * 4 + 1024


def wg_x_smem_bytes(bn, stages):
    """wg_conv_wgrad_x_n{bn}_s{stages}: stages x (gY's staging [32][128 + 8] + the X windows' [32][bn + 8]), two
    K-major X tiles [bn][32], plus 1 KB (fp32)."""
    return (stages * TC_BK * (128 + 8 + bn + 8) + 2 * bn * TC_BK) * 4 + 1024


def wg_mn_smem_bytes(bm, bn):
    """wgb_conv_wgrad_mn_m{bm}_n{bn}: 4 stages of 64 rows x (bm + bn) bf16, plus 1 KB."""
    return 4 * 64 * (bm + bn) * 2 + 1024


def aligned(*arrays):
    """Every array's data starts on a 16-byte boundary (vector loads, cp.async chunks)."""
    return all(a.data.ptr % 16 == 0 for a in arrays)


class CudaTensorCoreConvOps:
    bf16_wgrad_mn = True        # False: the bf16 bwd-filter reads gY transposed (transpose_pad_bf16)
    # the TF32 wgmma bwd-filter on gY as it is (wg_conv_wgrad_x: the X windows transposed in shared memory, tile by
    # tile, in every block) for "1x1" filters only — there the gY transpose pass costs more than the kernel; for 3x3
    # the pass is cheaper than the per-block transposes (bench/wgrad_kernels.py) —, True: every filter, False: never
    tf32_wgrad_mn = "1x1"
    tf32_wgrad_stages = {128: 2, 64: 3}     # staging tiles of wg_conv_wgrad_x per filter-column tile width

    def tc_fwd_ok(self, x, w):
        return x.shape[3] % 4 == 0 and aligned(x, w)

    def wgmma_ok(self):
        """wgmma kernels are built for sm_90a: Hopper (compute capability 9.0) only."""
        return self.device.compute_capability == "90"

    def tc_bwd_data_ok(self, gy, w, stride, pad):
        oc, fh, fw, _ = w.shape
        return oc % 4 == 0 and pad[0] < fh and pad[1] < fw and aligned(gy, w)

    def wgrad_mn_ok(self, oc):
        """Does the bf16 bwd-filter read gY's bits untransposed (16-byte chunks of 8 channels: OC % 8 == 0)?"""
        return self.bf16_wgrad_mn and oc % 8 == 0

    def tc_bwd_filter_ok(self, x, gy):
        return x.shape[3] % 4 == 0 and gy.shape[3] % 4 == 0 and aligned(x, gy)

    def to_bf16(self, a, pad8=False, keep=False):
        """bf16 bits (uint16, round to nearest even) of the fp32 array a (kernels/bf16_act.cu: any GPU with bf16,
        compute capability >= 8.0; NCCL's bf16 wire uses it too); pad8=True: the last axis zero-padded up to a
        multiple of 8 (the wgmma bf16 kernels' 16-byte channel chunks); keep=True: a cast made here is registered as
        a's twin for later readers (a convolution's gY: bwd-filter, then bwd-data)."""
        c = a.shape[-1]
        cp = -(-c // 8) * 8 if pad8 and c % 8 else c
        if cp == c:
            tw = self.twin_of(a)                # made already by the unit or pass that produced a (cuda_bf16_twin.py)
            if tw is not None:
                return tw[0]
        out = cupy.empty(a.shape[:-1] + (cp,), dtype=np.uint16)
        if out.size and cp != c:
            rows = a.size // c
            self.kernel("bf16_act", "cast_bf16_pad")((-(-out.size // 256),), (256,),
                                                     (a, out, np.int64(rows), i32(c), i32(cp)))
        elif out.size:
            self.kernel("bf16_act", "cast_bf16")((-(-a.size // 1024),), (256,), (a, out, np.int64(a.size)))
            if keep:
                self.set_twin(a, out)
        return out

    def tc_fwd(self, x, w, stride, pad, bm, bn, wgmma=False, bf16=False, out_hw=None, y_bits=False, tma=False):
        """bm x bn tiles of the mma.sync kernel, or with wgmma=True the Hopper kernel (bm = 128, bn 128|64);
        bf16=True (wgmma only): x and w are cast to bf16 first (unless they are bf16 bits already), channels
        zero-padded to a multiple of 8; y_bits=True with it: y is written as its bf16 bits (uint16); tma=True (with
        wgmma, bf16 or TF32): the kernel whose tiles the TMA brings (cuda_tma.py; where tma_fwd_ok; bm 128 | 256).
        out_hw: the output's (OH, OW) when not the symmetric-pad size (pads may then be negative)."""
        if bf16:
            x, w = (a if a.dtype == np.uint16 else self.to_bf16(a, pad8=True) for a in (x, w))
        if tma:
            return self.tma_fwd(x, w, stride, pad, bm, bn, y_bits and bf16, out_hw)
        n, h, wd, ic = x.shape
        oc, fh, fw, _ = w.shape
        oh, ow = out_hw or ((h + 2 * pad[0] - fh) // stride[0] + 1, (wd + 2 * pad[1] - fw) // stride[1] + 1)
        y_bits = y_bits and wgmma and bf16
        y = cupy.empty((n, oh, ow, oc), dtype=np.uint16 if y_bits else np.float32)
        m = n * oh * ow
        if y.size == 0:
            return y
        args = (x, w, y) + self._geom(x.shape, (fh, fw), oc, (oh, ow), stride, pad)
        if wgmma:
            kind = "b" if bf16 else ""
            name = (WG_FAMILY[bf16], f"wg{kind}_conv_fwd_yb_n{bn}" if y_bits else f"wg{kind}_conv_fwd_n{bn}")
            bm, smem = 128, wg_smem_bytes(bn)
        else:
            smem, name = tc_smem_bytes(bm, bn, False), ("conv_tc", f"tc_conv_fwd<{bm},{bn}>")
        self.kernel(*name, smem)((-(-m // bm), -(-oc // bn)), (TC_THREADS,), args, shared_mem=smem)
        return y

    def tc_bwd_data(self, gy, w, x_shape, pad, bm, bn, wgmma=False, bf16=False, stride=(1, 1), tma=False,
                    gx_bits=False):
        """Stride 1: gX = forward of gY with wt[ic, fh, fw, oc] = w[oc, FH-1-fh, FW-1-fw, ic], pad FH-1-P (tma=True:
        on the TMA kernel; gx_bits=True, bf16 wgmma: gX written as its bf16 bits, as tc_fwd's y_bits). Larger
        strides: one stride-1 forward per phase of gX (_tc_bwd_data_phases; fp32)."""
        if tuple(stride) != (1, 1):
            return self._tc_bwd_data_phases(gy, w, x_shape, stride, pad, bm, bn, wgmma, bf16)
        _, fh, fw, _ = w.shape
        gx = self.tc_fwd(gy, self._flipped(w, bf16), (1, 1), (fh - 1 - pad[0], fw - 1 - pad[1]), bm, bn, wgmma, bf16,
                         y_bits=gx_bits, tma=tma)
        if gx.shape != tuple(x_shape):
            raise AssertionError(f"tc bwd-data: got {gx.shape}, expected {tuple(x_shape)}")
        return gx

    def _flipped(self, w, bf16=False):
        """wt[ic, fh, fw, oc] = w[oc, FH-1-fh, FW-1-fw, ic] (kernels/conv_tc.cu flip_filter); bf16=True where OC % 8
        == 0: as its bf16 bits (what to_bf16 would make of it, in the same pass)."""
        oc, fh, fw, ic = w.shape
        bits = bf16 and oc % 8 == 0
        wt = cupy.empty((ic, fh, fw, oc), dtype=np.uint16 if bits else np.float32)
        self.launch_flat("conv_tc", "flip_filter_bf16" if bits else "flip_filter", w.size,
                         (w, wt, i32(oc), i32(fh), i32(fw), i32(ic)))
        return wt

    def _tc_bwd_data_phases(self, gy, w, x_shape, stride, pad, bm, bn, wgmma, bf16):
        """Stride (SH, SW) bwd-data without zero terms: the rows h = ph + SH*a of gX (phase ph) take only the filter
        rows fh with (ph + PH - fh) % SH == 0, at gY row a + (ph + PH - fh) / SH: a stride-1 forward on gY with
        those taps (descending: a slice of W) and pad (fh_max - ph - PH) / SH; likewise along W. wgmma: one launch
        over the phases (kernels/conv_wgmma.cu wg[b]_conv_dgrad_s_*); mma.sync: a forward per phase, its result
        copied into gX[:, ph::SH, pw::SW]. Phases no tap reaches are zero."""
        n, h, wd, ic = x_shape
        oc, fh, fw, _ = w.shape
        gx = cupy.empty((n, h, wd, ic), dtype=np.float32)
        if bf16 and gy.dtype != np.uint16:
            gy = self.to_bf16(gy)
        if wgmma:                               # every phase in one launch (blockIdx.z), written in place
            wf = self._flipped(w, bf16)
            if bf16 and wf.dtype != np.uint16:
                wf = self.to_bf16(wf)
            m = n * -(-h // stride[0]) * -(-wd // stride[1])
            if gx.size:
                smem = wg_smem_bytes(bn)
                self.kernel(WG_FAMILY[bf16], f"wg{'b' if bf16 else ''}_conv_dgrad_s_n{bn}", smem)(
                    (-(-m // 128), -(-ic // bn), stride[0] * stride[1]), (TC_THREADS,),
                    (gy, wf, gx) + self._geom(x_shape, (fh, fw), oc, gy.shape[1:3], stride, pad), shared_mem=smem)
            return gx
        for ph in range(stride[0]):
            th, padh, hc = _phase(ph, pad[0], stride[0], fh, h)
            for pw in range(stride[1]):
                tw, padw, wc = _phase(pw, pad[1], stride[1], fw, wd)
                dst = gx[:, ph::stride[0], pw::stride[1], :]
                if hc == 0 or wc == 0:
                    continue
                if th < 0 or tw < 0:
                    dst.fill(0)
                    continue
                wsub = cupy.ascontiguousarray(w[:, th::-stride[0], tw::-stride[1], :].transpose(3, 1, 2, 0))
                dst[...] = self.tc_fwd(gy, wsub, (1, 1), (padh, padw), bm, bn, wgmma, bf16, out_hw=(hc, wc))
        return gx

    def tc_bwd_filter(self, x, gy, w_shape, stride, pad, bm, bn, wgmma=False, bf16=False, tma=False, halo=0):
        """bm x bn tiles (oc x (fh, fw, ic)) of the mma.sync kernel, or with wgmma=True the Hopper kernel
        ((fh, fw, ic) rows of 128 x bn output channels, on gY transposed once into [OC, rows padded to a k-tile:
        32 fp32 / 64 bf16 values]; TF32 where tf32_wgrad_mn says (1x1 filters): 128 output channels x bn filter
        columns, gY read as it is and the X windows transposed tile by tile in shared memory); bf16=True (wgmma
        only): x cast and gY^T rounded to bf16 — or, where OC % 8 == 0 (and bf16_wgrad_mn), gY's straight bf16
        cast (its twin) read as it is by MN-major operands, in bm (128 | 256) x bn tiles (tma=True: on the kernel
        whose tiles the TMA brings, where tma_wgrad_ok; halo=W: conv_tma_halo.cu in slices for W waves of blocks,
        where tma_halo_ok, bm and bn unused); otherwise the wgmma kernels take bm = 128."""
        oc, fh, fw, ic0 = w_shape
        if bf16 and x.dtype != np.uint16:       # channels zero-padded to 8: gW's extra columns are dropped below
            x = self.to_bf16(x, pad8=True)
        ic = x.shape[3]
        _, oh, ow, _ = gy.shape
        kw = fh * fw * ic
        rows = gy.shape[0] * oh * ow
        mn = wgmma and bf16 and self.wgrad_mn_ok(oc)
        if mn:                                  # gY's bits read as they are: MN-major wgmma operands, no transpose
            gyb = gy if gy.dtype == np.uint16 else self.to_bf16(gy, keep=True)
            mn = aligned(gyb)
        tmn = (wgmma and not bf16 and oc % 4 == 0 and aligned(gy)                          # TF32, gY as it is
               and (self.tf32_wgrad_mn is True or self.tf32_wgrad_mn == "1x1" and fh == fw == 1))
        if gy.dtype == np.uint16 and not mn:
            raise ArgumentError(f"tc_bwd_filter: gy as bf16 bits {tuple(gy.shape)} needs the untransposed bf16 "
                                f"wgmma kernel (output channels {oc} a multiple of 8, 16-byte aligned)")
        if wgmma and not mn:
            bm = 128                            # the transposed-gY kernels have 128-row tiles only
        if mn and halo:                         # one block per SM: `halo` waves of 64 x 64 channel blocks
            s = max(1, min(-(-halo * self.sm_count // ((oc // 64) * (ic // 64))), -(-rows // 512)))
            chunk = -(-rows // s)
        else:
            tiles = (-(-oc // 128) * -(-kw // bn) if tmn else -(-oc // bn) * -(-kw // bm) if wgmma
                     else -(-oc // bm) * -(-kw // bn))
            s, chunk = self._split_k(rows, tiles, min_rows=512)
        bk = 2 * TC_BK if bf16 else TC_BK
        if wgmma:                               # slices on k-tile boundaries (gY^T rows are padded to bk)
            chunk = -(-chunk // bk) * bk
            s = -(-rows // chunk)
        gw = cupy.empty((oc, fh, fw, ic), dtype=np.float32)
        ws = gw if s == 1 else cupy.empty((s, oc, kw), dtype=np.float32)
        geom = self._geom(x.shape, (fh, fw), oc, (oh, ow), stride, pad)
        if mn and halo:
            self.tma_halo_wgrad(x, gyb, pad, ws, s, chunk)
        elif mn and tma:
            self.tma_wgrad(x, gyb, w_shape, stride, pad, bm, bn, ws, s, chunk)
        elif mn:
            smem = wg_mn_smem_bytes(bm, bn)
            self.kernel("conv_wgmma_mn", f"wgb_conv_wgrad_mn_m{bm}_n{bn}", smem)(
                (-(-oc // bn), -(-kw // bm), s), (TC_THREADS,), (x, gyb, ws) + geom + (i32(chunk),), shared_mem=smem)
        elif tmn:                               # 128 output channels x bn filter columns per block
            st = self.tf32_wgrad_stages[bn]
            smem = wg_x_smem_bytes(bn, st)
            self.kernel("conv_wgmma_x", f"wg_conv_wgrad_x_n{bn}_s{st}", smem)(
                (-(-kw // bn), -(-oc // 128), s), (TC_THREADS,), (x, gy, ws) + geom + (i32(chunk),), shared_mem=smem)
        elif wgmma:
            rp = -(-rows // bk) * bk
            gyt = cupy.empty((oc, rp), dtype=np.uint16 if bf16 else np.float32)
            args = (gy, gyt, i32(rows), i32(oc), i32(rp))
            if bf16:                            # gY's straight cast too, for the bwd-data that follows (a twin)
                gyb = cupy.empty(gy.shape, dtype=np.uint16) if self._twin_wanted(gy) else None
                args += (np.uint64(0) if gyb is None else gyb,)
            self.kernel(WG_WGRAD_FAMILY[bf16], "transpose_pad_bf16" if bf16 else "transpose_pad")(
                (rp // 32, -(-oc // 32)), (32, 8), args)
            if bf16 and gyb is not None:
                self.set_twin(gy, gyb)
            smem = wg_smem_bytes(bn, wgrad=True)
            self.kernel(WG_WGRAD_FAMILY[bf16], f"wg{'b' if bf16 else ''}_conv_wgrad_n{bn}", smem)(
                (-(-oc // bn), -(-kw // 128), s), (TC_THREADS,), (x, gyt, ws) + geom + (i32(rp), i32(chunk)),
                shared_mem=smem)
        else:
            smem = tc_smem_bytes(bm, bn, True)
            self.kernel("conv_tc", f"tc_conv_wgrad<{bm},{bn}>", smem)(
                (-(-kw // bn), -(-oc // bm), s), (TC_THREADS,), (x, gy, ws) + geom + (i32(chunk),), shared_mem=smem)
        if s > 1:
            self._sum_slices(ws, s, oc * kw, gw)
        return gw if ic == ic0 else cupy.ascontiguousarray(gw[..., :ic0])


def _phase(p, pad, s, f, size):
    """Phase p of a stride-s bwd-data along one axis: (the largest filter row reaching it, -1 if none; the
    stride-1 pad of its forward; how many rows of gX it holds)."""
    top = next((t for t in range(f - 1, -1, -1) if (p + pad - t) % s == 0), -1)
    return top, ((top - p - pad) // s if top >= 0 else 0), max(0, -(-(size - p) // s))
