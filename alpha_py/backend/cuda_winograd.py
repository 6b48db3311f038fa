"""Backend layer (CUDA): Winograd F(2x2,3x3) convolution for 3x3 stride-1 layers (kernels/winograd.cu) —
forward, backward-data (the forward on gY with the flipped filter, pad 2-P) and backward-filter (split over
tiles, slices summed with Kahan). Mixed into CudaConvOps; imports cupy and numpy only."""
import cupy
import numpy as np

i32 = np.int32
WG_SMEM = 69632          # bytes of dynamic shared memory per block (kernels/winograd.cu WG_SMEM)
WG_THREADS = 256


def winograd_applicable(w_hw, stride, pad, bwd_data=False):
    """3x3 filter, stride 1; backward-data also needs pad <= 2 (it pads gY by 2 - pad)."""
    if tuple(w_hw) != (3, 3) or tuple(stride) != (1, 1):
        return False
    return not bwd_data or max(pad) <= 2


def _round_up(v, m):
    return -(-v // m) * m


class CudaWinogradOps:
    def _wino_filter(self, w, flip):
        """Transformed filter U [16, Kp, Np]: K = IC (forward) or OC (flip, backward-data), padded with zeros."""
        oc, _, _, ic = w.shape
        k, n = (oc, ic) if flip else (ic, oc)
        kp, np_ = _round_up(k, 8), _round_up(n, 32)
        u = cupy.empty((16, kp, np_), dtype=np.float32)
        self.launch_flat("winograd", f"wino_filter<{int(flip)}>", kp * np_, (w, u, i32(oc), i32(ic), i32(kp), i32(np_)))
        return u

    def _wino_conv(self, x, u, out_c, pad):
        """Y [N, OH, OW, out_c] = 3x3 stride-1 correlation of x with the transformed filter u."""
        n, h, w, c = x.shape
        oh, ow = h + 2 * pad[0] - 2, w + 2 * pad[1] - 2
        y = cupy.empty((n, oh, ow, out_c), dtype=np.float32)
        tiles = n * -(-oh // 2) * -(-ow // 2)
        if y.size == 0:
            return y
        _, kp, np_ = u.shape
        self.kernel("winograd", "wino_fwd", WG_SMEM)((-(-tiles // 32), np_ // 32), (WG_THREADS,),
                                      (x, u, y, i32(n), i32(h), i32(w), i32(c), i32(out_c), i32(oh), i32(ow),
                                       i32(pad[0]), i32(pad[1]), i32(kp), i32(np_)), shared_mem=WG_SMEM)
        return y

    def wino_fwd(self, x, w, pad):
        return self._wino_conv(x, self._wino_filter(w, False), w.shape[0], pad)

    def wino_bwd_data(self, gy, w, x_shape, pad):
        gx = self._wino_conv(gy, self._wino_filter(w, True), w.shape[3], (2 - pad[0], 2 - pad[1]))
        if gx.shape != tuple(x_shape):       # impossible for stride 1; guards the formula above
            raise AssertionError(f"winograd bwd-data: got {gx.shape}, expected {tuple(x_shape)}")
        return gx

    def wino_bwd_filter(self, x, gy, w_shape, pad):
        oc, _, _, ic = w_shape
        n, oh, ow, _ = gy.shape
        tiles = n * -(-oh // 2) * -(-ow // 2)
        blocks = -(-ic // 32) * -(-oc // 32)
        s, chunk = self._split_k(tiles, blocks, min_rows=64)
        gw = cupy.empty(tuple(w_shape), dtype=np.float32)
        ws = gw if s == 1 else cupy.empty((s,) + tuple(w_shape), dtype=np.float32)
        self.kernel("winograd", "wino_wgrad", WG_SMEM)((-(-ic // 32), -(-oc // 32), s), (WG_THREADS,),
                                        (x, gy, ws, i32(n), i32(x.shape[1]), i32(x.shape[2]), i32(ic), i32(oc),
                                         i32(oh), i32(ow), i32(pad[0]), i32(pad[1]), i32(chunk)), shared_mem=WG_SMEM)
        if s > 1:
            self._sum_slices(ws, s, gw.size, gw)
        return gw
