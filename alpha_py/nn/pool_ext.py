"""nn layer: Dragon-Alpha v1.2's other pooling units — maxPool1D, avgPool1D, adaptive_maxPool1D and
adaptive_avgPool1D over [N, W, C] (a 2D pool over [N, 1, W, C]); the max pools' _with_Index forms (a second,
int32 output: v1.2's Index, the flat offset into X of each maximum); avgUnpool2D (the transpose of avgPool2D).
The average pools divide by the whole window (padding counting as zeros) unless their ignore-padding flag is set
(default: AlphaParam.avgpool1D_igpad / avgunpool2D_ignore_padding, false as in v1.2). Imports pool.py, unit.py
and errors only."""
from ..errors import ArgumentError, fmt_shape
from . import pool
from .unit import Unit


def _zero_pad(bk, x4, ph, pw):
    return bk.pad(x4, [(0, 0), (ph, ph), (pw, pw), (0, 0)]) if ph or pw else x4


class _Indexed:
    """Mixin over a max-pool class: with_index=True adds the int32 Index output (no gradient)."""

    with_index = False

    def _fwd(self, eg, x):
        (y,), ctx = super()._fwd(eg, x)
        if not self.with_index:
            return (y,), ctx
        x4, _, win, k, s, p = ctx if len(ctx) == 6 else ctx[1]
        bk = eg.backend
        return (y, bk.reshape(bk.pool_index(win, x4.shape, k, s, p), y.shape)), ctx

    def _bwd(self, eg, ctx, gys, needs):
        if gys[0] is None:
            return (None,)
        return super()._bwd(eg, ctx, gys[:1], needs)


class _Pool1D(pool._Pool):
    """A 1D pool over [N, W, C]: kernel (1, kernel_width) over the view [N, 1, W, C]."""

    igpad = True                                # max pools: padding never wins a window

    def __init__(self, kernel_width, stride_width=None, padding_width=0):
        super().__init__((1, kernel_width), (1, kernel_width if stride_width is None else stride_width),
                         (0, padding_width))

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() != 3:
            raise self.error(f"input {fmt_shape(x.shape)} must be 3D [N,W,C]")
        (_, kw), _, (_, pw) = self._geometry((x.shape[0], 1) + tuple(x.shape[1:]))
        if x.shape[1] + 2 * pw < kw:
            raise self.error(f"input {fmt_shape(x.shape)} is smaller than the pooling window {kw}")

    def _fwd(self, eg, x):
        bk = eg.backend
        x4 = bk.reshape(x, (x.shape[0], 1) + tuple(x.shape[1:]))
        k, s, p = self._geometry(x4.shape)
        padded = not self.igpad and p[1] > 0
        if padded:                              # divide by the whole window: padding counts as zeros
            x4 = _zero_pad(bk, x4, 0, p[1])
            y, aux = bk.pool_fwd("avg", x4, k, s, (0, 0))
        else:                                   # max, or avg over the elements inside X (the backend's average)
            y, aux = bk.pool_fwd(self.mode, x4, k, s, p)
        y3 = bk.reshape(y, (y.shape[0],) + tuple(y.shape[2:]))
        return (y3,), (x.shape, (x4, y, aux, k, s, p), padded)

    def _bwd(self, eg, ctx, gys, needs):
        bk = eg.backend
        shape, (x4, y, aux, k, s, p), padded = ctx
        g4 = bk.reshape(gys[0], y.shape)
        if padded:
            gx = bk.pool_bwd("avg", g4, x4, y, aux, k, s, (0, 0))
            gx = bk.slice(gx, (slice(None), slice(None), slice(p[1], p[1] + shape[1]), slice(None)))
        else:
            gx = bk.pool_bwd(self.mode, g4, x4, y, aux, k, s, p)
        return (bk.reshape(gx, shape),)


class MaxPool1D(_Indexed, _Pool1D):
    mode = "max"


class AvgPool1D(_Pool1D):
    """igpad (None: AlphaParam.avgpool1D_igpad, false as v1.2): divide by the window's elements inside X, not by
    kernel_width."""
    mode = "avg"

    def __init__(self, kernel_width, stride_width=None, padding_width=0, igpad=None):
        super().__init__(kernel_width, stride_width, padding_width)
        self.igpad = pool.igpad_flag(type(self).__name__, igpad, "avgpool1D_igpad")


class _AdaptivePool1D(_Pool1D):
    """Adaptive 1D pool: stride = floor(W / out_width), kernel = W - (out_width - 1) * stride (v1.2)."""

    def __init__(self, out_width):
        if isinstance(out_width, bool) or int(out_width) <= 0:
            raise ArgumentError(f"{type(self).__name__}: out_width must be positive, got {out_width!r}")
        Unit.__init__(self)
        self.out_width = int(out_width)

    def _geometry(self, shape):
        w = shape[2]
        sw = max(w // self.out_width, 1)
        return (1, w - (self.out_width - 1) * sw), (1, sw), (0, 0)

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() != 3:
            raise self.error(f"input {fmt_shape(x.shape)} must be 3D [N,W,C]")
        if x.shape[1] < self.out_width:
            raise self.error(f"input {fmt_shape(x.shape)} is narrower than out_width {self.out_width}")


class AdaptiveMaxPool1D(_Indexed, _AdaptivePool1D):
    mode = "max"


class AdaptiveAvgPool1D(_AdaptivePool1D):
    """No padding: igpad (AlphaParam.avgpool1D_igpad) changes nothing."""
    mode = "avg"

    def __init__(self, out_width, igpad=None):
        super().__init__(out_width)
        self.igpad = pool.igpad_flag(type(self).__name__, igpad, "avgpool1D_igpad")


class MaxPool2DIndexed(_Indexed, pool.MaxPool2D):
    """maxPool2D_with_Index: outputs (Y, Index)."""
    with_index = True


class AdaptiveMaxPool2DIndexed(_Indexed, pool.AdaptiveMaxPool2D):
    """adaptive_maxPool2D_with_Index: outputs (Y, Index)."""
    with_index = True


class MaxPool1DIndexed(MaxPool1D):
    """maxPool1D_with_Index: outputs (Y, Index)."""
    with_index = True


class AdaptiveMaxPool1DIndexed(AdaptiveMaxPool1D):
    """adaptive_maxPool1D_with_Index: outputs (Y, Index)."""
    with_index = True


class AvgUnpool2D(pool._Pool):
    """The transpose of avgPool2D (v1.2's unpool2D_avg): X [N, H, W, C] ->
    Y [N, (H-1)*sh + kh - 2*ph, (W-1)*sw + kw - 2*pw, C], each X element spread over its window as X/(kh*kw)
    (ignore_padding false) or X/(the window's elements inside Y) (true; None: AlphaParam.avgunpool2D_ignore_padding,
    false as v1.2); the backward is the matching avgPool2D."""

    def __init__(self, kernel, stride=None, padding=0, ignore_padding=None):
        super().__init__(kernel, stride, padding)
        self.ignore_padding = pool.igpad_flag(type(self).__name__, ignore_padding, "avgunpool2D_ignore_padding")

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() != 4:
            raise self.error(f"input {fmt_shape(x.shape)} must be 4D [N,H,W,C]")

    def _fwd(self, eg, x):
        bk = eg.backend
        n, h, w, c = x.shape
        k, s, p = self._geometry(x.shape)
        full = (n, (h - 1) * s[0] + k[0], (w - 1) * s[1] + k[1], c)        # before cutting the padding
        if self.ignore_padding and (p[0] or p[1]):
            out = (n, full[1] - 2 * p[0], full[2] - 2 * p[1], c)
            _, count = bk.pool_fwd("avg", bk.full(out, 0.0), k, s, p)      # the backend's per-window count (or None)
            return (bk.pool_bwd("avg", x, bk.empty(out), None, count, k, s, p),), (k, s, p, True)
        # pool_bwd reads its x argument's shape only; aux: the window size (every window is whole here)
        y = bk.pool_bwd("avg", x, bk.empty(full), x, k[0] * k[1], k, s, (0, 0))
        oh, ow = full[1] - 2 * p[0], full[2] - 2 * p[1]
        y = bk.slice(y, (slice(None), slice(p[0], p[0] + oh), slice(p[1], p[1] + ow), slice(None)))
        return (y,), (k, s, p)

    def _bwd(self, eg, ctx, gys, needs):
        bk = eg.backend
        k, s, p = ctx[:3]
        if len(ctx) == 4:                       # ignore_padding: the average over each window's elements inside Y
            return (bk.pool_fwd("avg", gys[0], k, s, p)[0],)
        g = _zero_pad(bk, gys[0], p[0], p[1])
        gx, _ = bk.pool_fwd("avg", g, k, s, (0, 0))
        return (gx,)
