"""Backend layer: primitives of Dragon-Alpha's facade units written once over `self.xp` (NumPy on the CPU, CuPy's
element-wise ops on the GPU): the flat Index of a max pool (v1.2's pool2D_max_indexed) and the Bernoulli mask of
bernouliMul (the CUDA backend overrides it: one rng_bernouli kernel, cuda_math.py). A mixin of ArrayBackend.
Imports nothing from alpha_py."""


class FacadeOps:
    """pool_index(win, x_shape, k, stride, pad) -> int32 flat offsets; bernouli_mask(shape, p, v1, v2)."""

    def pool_index(self, win, x_shape, k, stride, pad):
        """The flat offset into X [N, H, W, C] of each max-pool maximum, from `win` (pool_fwd('max')'s index of
        that maximum inside its kh x kw window, [N, OH, OW, C]): ((n*H + ih)*W + iw)*C + c, int32 like v1.2."""
        xp = self.xp
        _, h, w, c = x_shape
        n, oh, ow, _ = win.shape
        kw, (sh, sw), (ph, pw) = k[1], stride, pad
        win = win.astype(xp.int64)
        ih = xp.arange(oh, dtype=xp.int64).reshape(1, oh, 1, 1) * sh - ph + win // kw
        iw = xp.arange(ow, dtype=xp.int64).reshape(1, 1, ow, 1) * sw - pw + win % kw
        nn = xp.arange(n, dtype=xp.int64).reshape(n, 1, 1, 1)
        cc = xp.arange(c, dtype=xp.int64).reshape(1, 1, 1, c)
        return xp.ascontiguousarray(((nn * h + ih) * w + iw) * c + cc, dtype=xp.int32)

    def bernouli_mask(self, shape, p, v1, v2):
        """R with R = v1 where a uniform [0, 1) draw is < p, else v2 (v1.2's bernouli(p, v1, v2))."""
        xp, t = self.xp, self.dtype.type
        u = self.uniform(shape, 0.0, 1.0)
        return xp.where(u < t(p), xp.asarray(v1, dtype=self.dtype), xp.asarray(v2, dtype=self.dtype))
