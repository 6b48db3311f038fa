"""nn layer: pooling units over NHWC — maxPool2D, avgPool2D (igpad false, v1.2's default: divides by the whole
window, padding counting as zeros; true: by the window's non-padding elements), adaptive_avgPool2D /
adaptive_maxPool2D (stride = floor(I/O), kernel = I - (O-1)*stride). Imports conv, unit, params and errors."""
from ..errors import ArgumentError, fmt_shape
from ..params import AlphaParam
from .conv import _pair
from .unit import Unit


def igpad_flag(who, value, field):
    """The unit's ignore-padding flag: `value`, or (None) the AlphaParam field read now."""
    value = getattr(AlphaParam, field) if value is None else value
    if not isinstance(value, bool):
        raise ArgumentError(f"{who}: the ignore-padding flag ({field}) must be a bool, got {value!r}")
    return value


class _Pool(Unit):
    mode = None

    def __init__(self, kernel, stride=None, padding=0):
        super().__init__()
        who = type(self).__name__
        self.kernel = _pair(kernel, "kernel", who)
        self.stride = _pair(kernel if stride is None else stride, "stride", who)
        self.padding = _pair(padding, "padding", who)
        if min(self.kernel) <= 0 or min(self.stride) <= 0 or min(self.padding) < 0:
            raise ArgumentError(f"{who}: need kernel>0, stride>0, padding>=0; got kernel={self.kernel}, "
                                f"stride={self.stride}, padding={self.padding}")
        if self.padding[0] >= self.kernel[0] or self.padding[1] >= self.kernel[1]:
            raise ArgumentError(f"{who}: padding {self.padding} must be smaller than kernel {self.kernel}")

    def _geometry(self, shape):
        return self.kernel, self.stride, self.padding

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() != 4:
            raise self.error(f"input {fmt_shape(x.shape)} must be 4D [N,H,W,C]")
        (kh, kw), _, (ph, pw) = self._geometry(x.shape)
        if x.shape[1] + 2 * ph < kh or x.shape[2] + 2 * pw < kw:
            raise self.error(f"input {fmt_shape(x.shape)} is smaller than the pooling window ({kh}, {kw})")

    def _fwd(self, eg, x):
        k, s, p = self._geometry(x.shape)
        y, aux = eg.backend.pool_fwd(self.mode, x, k, s, p)
        return (y,), (x, y, aux, k, s, p)

    def _bwd(self, eg, ctx, gys, needs):
        x, y, aux, k, s, p = ctx
        return (eg.backend.pool_bwd(self.mode, gys[0], x, y, aux, k, s, p),)


class MaxPool2D(_Pool):
    mode = "max"


class AvgPool2D(_Pool):
    """igpad false: divides every window by kh*kw, padding counting as zeros; true: by the number of the window's
    elements inside X (igpad None: AlphaParam.avgpool2D_igpad, false by default, as v1.2)."""
    mode = "avg"

    def __init__(self, kernel, stride=None, padding=0, igpad=None):
        super().__init__(kernel, stride, padding)
        self.igpad = igpad_flag(type(self).__name__, igpad, "avgpool2D_igpad")

    def _fwd(self, eg, x):
        k, s, (ph, pw) = self._geometry(x.shape)
        if self.igpad or not (ph or pw):        # the backend's average counts only the elements inside X
            return super()._fwd(eg, x)
        bk = eg.backend
        xp = bk.pad(x, [(0, 0), (ph, ph), (pw, pw), (0, 0)])
        y, aux = bk.pool_fwd("avg", xp, k, s, (0, 0))
        return (y,), (xp, y, aux, k, s, (0, 0), x.shape, (ph, pw))

    def _bwd(self, eg, ctx, gys, needs):
        if len(ctx) == 6:
            return super()._bwd(eg, ctx, gys, needs)
        xp, y, aux, k, s, p0, shape, (ph, pw) = ctx
        bk = eg.backend
        g = bk.pool_bwd("avg", gys[0], xp, y, aux, k, s, p0)
        return (bk.slice(g, (slice(None), slice(ph, ph + shape[1]), slice(pw, pw + shape[2]), slice(None))),)


class _AdaptivePool(_Pool):
    def __init__(self, out_h, out_w=None):
        out_w = out_h if out_w is None else out_w
        if int(out_h) <= 0 or int(out_w) <= 0:
            raise ArgumentError(f"{type(self).__name__}: output size must be positive, got ({out_h}, {out_w})")
        Unit.__init__(self)
        self.out_size = (int(out_h), int(out_w))

    def _geometry(self, shape):
        (oh, ow), (h, w) = self.out_size, shape[1:3]
        sh, sw = max(h // oh, 1), max(w // ow, 1)
        return (h - (oh - 1) * sh, w - (ow - 1) * sw), (sh, sw), (0, 0)

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() != 4:
            raise self.error(f"input {fmt_shape(x.shape)} must be 4D [N,H,W,C]")
        if x.shape[1] < self.out_size[0] or x.shape[2] < self.out_size[1]:
            raise self.error(f"input {fmt_shape(x.shape)} is smaller than the output size {self.out_size}")


class AdaptiveAvgPool2D(_AdaptivePool):
    """Windows never reach past X (no padding), so igpad (AlphaParam.avgpool2D_igpad) changes nothing."""
    mode = "avg"

    def __init__(self, out_h, out_w=None, igpad=None):
        super().__init__(out_h, out_w)
        self.igpad = igpad_flag(type(self).__name__, igpad, "avgpool2D_igpad")


class AdaptiveMaxPool2D(_AdaptivePool):
    mode = "max"
