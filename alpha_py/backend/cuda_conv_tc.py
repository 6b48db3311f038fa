"""Backend layer (CUDA): the TF32 tensor-core convolutions with a multi-stage cp.async pipeline
(kernels/conv_tc.cu, mma.sync; kernels/conv_wgmma.cu, Hopper wgmma) — forward, backward-data for stride 1 (the
forward on gY with the flipped filter) and backward-filter (split over N*OH*OW, slices summed with Kahan).
Mixed into CudaConvOps; imports cupy, numpy."""
import cupy
import numpy as np

i32 = np.int32
TC_THREADS, TC_BK, TC_STAGES = 256, 32, 3


def tc_smem_bytes(bm, bn, mn_major):
    """Dynamic shared memory of one block (kernels/conv_tc.cu TileSize x TC_STAGES)."""
    tile = (lambda rows: TC_BK * (rows + 8)) if mn_major else (lambda rows: rows * (TC_BK + 4))
    return TC_STAGES * (tile(bm) + tile(bn)) * 4


def wg_smem_bytes(bn, wgrad=False):
    """kernels/conv_wgmma.cu: WG_STAGES x (A tile + BN rows of 128 bytes), plus 1 KB to align the swizzle atoms;
    A is 128 K-major rows (forward) or a [32][128 + 8] MN-major tile (bwd-filter)."""
    a = TC_BK * (128 + 8) if wgrad else 128 * TC_BK
    return 3 * (a + bn * TC_BK) * 4 + 1024


def aligned(*arrays):
    """Every array's data starts on a 16-byte boundary (vector loads, cp.async chunks)."""
    return all(a.data.ptr % 16 == 0 for a in arrays)


class CudaTensorCoreConvOps:
    def tc_fwd_ok(self, x, w):
        return x.shape[3] % 4 == 0 and aligned(x, w)

    def wgmma_ok(self):
        """wgmma kernels are built for sm_90a: Hopper (compute capability 9.0) only."""
        return self.device.compute_capability == "90"

    def tc_bwd_data_ok(self, gy, w, stride, pad):
        oc, fh, fw, _ = w.shape
        return tuple(stride) == (1, 1) and oc % 4 == 0 and pad[0] < fh and pad[1] < fw and aligned(gy, w)

    def tc_bwd_filter_ok(self, x, gy):
        return x.shape[3] % 4 == 0 and gy.shape[3] % 4 == 0 and aligned(x, gy)

    def tc_fwd(self, x, w, stride, pad, bm, bn, wgmma=False):
        """bm x bn tiles of the mma.sync kernel, or with wgmma=True the Hopper kernel (bm = 128, bn 128|64)."""
        n, h, wd, ic = x.shape
        oc, fh, fw, _ = w.shape
        oh, ow = (h + 2 * pad[0] - fh) // stride[0] + 1, (wd + 2 * pad[1] - fw) // stride[1] + 1
        y = cupy.empty((n, oh, ow, oc), dtype=np.float32)
        m = n * oh * ow
        if y.size == 0:
            return y
        args = (x, w, y) + self._geom(x.shape, (fh, fw), oc, (oh, ow), stride, pad)
        if wgmma:
            bm, smem, name = 128, wg_smem_bytes(bn), ("conv_wgmma", f"wg_conv_fwd_n{bn}")
        else:
            smem, name = tc_smem_bytes(bm, bn, False), ("conv_tc", f"tc_conv_fwd<{bm},{bn}>")
        self.kernel(*name, smem)((-(-m // bm), -(-oc // bn)), (TC_THREADS,), args, shared_mem=smem)
        return y

    def tc_bwd_data(self, gy, w, x_shape, pad, bm, bn, wgmma=False):
        """Stride 1: gX = forward of gY with wt[ic, fh, fw, oc] = w[oc, FH-1-fh, FW-1-fw, ic], pad FH-1-P."""
        oc, fh, fw, ic = w.shape
        wt = cupy.empty((ic, fh, fw, oc), dtype=np.float32)
        self.launch_flat("conv_tc", "flip_filter", w.size, (w, wt, i32(oc), i32(fh), i32(fw), i32(ic)))
        gx = self.tc_fwd(gy, wt, (1, 1), (fh - 1 - pad[0], fw - 1 - pad[1]), bm, bn, wgmma)
        if gx.shape != tuple(x_shape):
            raise AssertionError(f"tc bwd-data: got {gx.shape}, expected {tuple(x_shape)}")
        return gx

    def tc_bwd_filter(self, x, gy, w_shape, stride, pad, bm, bn, wgmma=False):
        """bm x bn tiles (oc x (fh, fw, ic)) of the mma.sync kernel, or with wgmma=True the Hopper kernel
        ((fh, fw, ic) rows of 128 x bn output channels, on gY transposed once into [OC, rows padded to 32])."""
        oc, fh, fw, ic = w_shape
        _, oh, ow, _ = gy.shape
        kw = fh * fw * ic
        rows = gy.shape[0] * oh * ow
        tiles = -(-oc // bn) * -(-kw // 128) if wgmma else -(-oc // bm) * -(-kw // bn)
        s, chunk = self._split_k(rows, tiles, min_rows=512)
        if wgmma:                               # slices on k-tile boundaries (gY^T rows are padded to 32)
            chunk = -(-chunk // TC_BK) * TC_BK
            s = -(-rows // chunk)
        gw = cupy.empty(tuple(w_shape), dtype=np.float32)
        ws = gw if s == 1 else cupy.empty((s, oc, kw), dtype=np.float32)
        geom = self._geom(x.shape, (fh, fw), oc, (oh, ow), stride, pad)
        if wgmma:
            rp = -(-rows // TC_BK) * TC_BK
            gyt = cupy.empty((oc, rp), dtype=np.float32)
            self.kernel("conv_wgmma", "transpose_pad")((rp // 32, -(-oc // 32)), (32, 8),
                                                       (gy, gyt, i32(rows), i32(oc), i32(rp)))
            smem = wg_smem_bytes(bn, wgrad=True)
            self.kernel("conv_wgmma", f"wg_conv_wgrad_n{bn}", smem)(
                (-(-oc // bn), -(-kw // 128), s), (TC_THREADS,), (x, gyt, ws) + geom + (i32(rp), i32(chunk)),
                shared_mem=smem)
        else:
            smem = tc_smem_bytes(bm, bn, True)
            self.kernel("conv_tc", f"tc_conv_wgrad<{bm},{bn}>", smem)(
                (-(-kw // bn), -(-oc // bm), s), (TC_THREADS,), (x, gy, ws) + geom + (i32(chunk),), shared_mem=smem)
        if s > 1:
            self._sum_slices(ws, s, oc * kw, gw)
        return gw
