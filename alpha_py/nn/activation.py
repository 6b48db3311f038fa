"""nn layer: activation units (relu, relu6, leakyRelu, elu, softplus, gelu, sigmoid, hard_sigmoid,
tanh) over the backend's act_fwd/act_bwd primitives, plus softmax / log_softmax."""
import math

from ..errors import ArgumentError, fmt_shape
from .unit import Unit


def _check_range(who, name, v, lo, lo_open=False):
    """A finite number >= lo (> lo when lo_open); anything else would make NaN or nonsense."""
    ok = (not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)
          and (v > lo if lo_open else v >= lo))
    if not ok:
        raise ArgumentError(f"{who}: {name} must be a finite number {'>' if lo_open else '>='} {lo}, "
                            f"got {v!r}")


class Activation(Unit):
    """Elementwise activation; `act` names the backend primitive, p1/p2 its parameters."""

    act = None
    keeps_input = True     # backward needs x (else only y)

    def __init__(self, inplace=False, p1=0.0, p2=0.0):
        super().__init__()
        self.inplace, self.p1, self.p2 = bool(inplace), float(p1), float(p2)

    def _fwd(self, eg, x):
        y = eg.backend.act_fwd(self.act, x, self.p1, self.p2)
        return (y,), (x, y)

    def _bwd(self, eg, ctx, gys, needs):
        x, y = ctx
        return (eg.backend.act_bwd(self.act, gys[0], x, y, self.p1, self.p2),)


class Relu(Activation):
    act = "relu"


class Relu6(Activation):
    act = "relu6"


class LeakyRelu(Activation):
    """y = x if x > 0 else slope * x (slope default 0.01)."""
    act = "leakyRelu"

    def __init__(self, inplace=False, slope=0.01):
        _check_range("LeakyRelu", "negative slope", slope, 0.0)
        super().__init__(inplace, slope)


class Elu(Activation):
    """y = slope * (x if x > 0 else alpha * (exp(x) - 1)); alpha=1, slope=1 by default."""
    act = "elu"

    def __init__(self, inplace=False, alpha=1.0, slope=1.0):
        _check_range("Elu", "alpha", alpha, 0.0)
        _check_range("Elu", "slope", slope, 0.0, lo_open=True)
        super().__init__(inplace, alpha, slope)


class Softplus(Activation):
    act = "softplus"


class Gelu(Activation):
    """tanh approximation of GELU."""
    act = "gelu"


class Sigmoid(Activation):
    act = "sigmoid"


class HardSigmoid(Activation):
    """clip(x/6 + 1/2, 0, 1)."""
    act = "hard_sigmoid"


class Tanh(Activation):
    act = "tanh"


ACTIVATION_CLASSES = {c.act: c for c in (Relu, Relu6, LeakyRelu, Elu, Softplus, Gelu, Sigmoid,
                                         HardSigmoid, Tanh)}


class _SoftmaxBase(Unit):
    """Softmax over the last dim; `features` (optional) must equal that dim's size."""

    def __init__(self, inplace=False, features=-1):
        super().__init__()
        self.inplace, self.features = bool(inplace), int(features)
        if self.features == 0 or self.features < -1:
            raise ArgumentError(f"{type(self).__name__}: features must be positive or -1, got {features}")

    def check_inputs(self, xs):
        if self.features > 0 and xs[0].shape[-1] != self.features:
            raise self.error(f"input {fmt_shape(xs[0].shape)}, expected last dim {self.features}")


class Softmax(_SoftmaxBase):
    def _fwd(self, eg, x):
        y = eg.backend.softmax(x, axis=-1)
        return (y,), y

    def _bwd(self, eg, y, gys, needs):
        b, gy = eg.backend, gys[0]
        return (b.mul(y, b.sub(gy, b.sum(b.mul(gy, y), axis=-1, keepdims=True))),)


class LogSoftmax(_SoftmaxBase):
    def _fwd(self, eg, x):
        y = eg.backend.log_softmax(x, axis=-1)
        return (y,), y

    def _bwd(self, eg, y, gys, needs):
        b, gy = eg.backend, gys[0]
        return (b.sub(gy, b.mul(b.exp(y), b.sum(gy, axis=-1, keepdims=True))),)
