"""nn layer: activation units — one class per row of alpha_py.ops.ACTIVATIONS (Relu, Relu6, LeakyRelu, Elu,
Softplus, Gelu, Sigmoid, HardSigmoid, Tanh), made from that row over the backend's act_fwd/act_bwd primitives —
plus softmax / log_softmax. Imports alpha_py.ops, alpha_py.params, nn.unit and errors."""
import math

from ..errors import ArgumentError, fmt_shape
from ..ops import ACTIVATIONS, grad_from_output
from ..params import AlphaParam
from .unit import Unit

# (activation, parameter) -> the AlphaParam field its default is read from at construction (v1.2's defaults)
DEFAULT_FIELDS = {("leakyRelu", "slope"): "leakyRelu_neg_slope", ("elu", "alpha"): "elu_alpha",
                  ("elu", "negative_slope"): "elu_neg_slope"}


def param_default(act, param):
    """The default of an activation parameter now: its AlphaParam field where v1.2 has one, else the ops row's."""
    field = DEFAULT_FIELDS.get((act, param.name))
    return param.default if field is None else getattr(AlphaParam, field)


def _check_param(who, param, v):
    """A finite number >= param.minimum (> when param.open); anything else would make NaN or nonsense."""
    ok = (not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)
          and (v > param.minimum if param.open else v >= param.minimum))
    if not ok:
        raise ArgumentError(f"{who}: {param.what or param.name} must be a finite number "
                            f"{'>' if param.open else '>='} {param.minimum}, got {v!r}")
    return float(v)


class Activation(Unit):
    """Elementwise activation `act` (an ops.ACTIVATIONS name): Unit(inplace=False, *params) with the row's
    parameters, positional or by name, defaults from AlphaParam (leakyRelu_neg_slope, elu_alpha, elu_neg_slope:
    read now) or the row; they reach the primitives as p1, p2."""

    act = None

    def __init__(self, inplace=False, *params, **named):
        super().__init__()
        who, spec = type(self).__name__, ACTIVATIONS[self.act]
        names = [p.name for p in spec.params]
        if len(params) > len(names) or any(k not in names for k in named) or any(
                names.index(k) < len(params) for k in named):
            raise ArgumentError(f"{who}: expected ([inplace,] {', '.join(names) or 'no parameters'}), got "
                                f"{list(params)}{' ' + str(named) if named else ''}")
        given = dict(zip(names, params), **named)
        values = [_check_param(who, p, given[p.name] if p.name in given else param_default(self.act, p))
                  for p in spec.params]
        self.inplace = bool(inplace)
        p = [0.0, 0.0]
        for v, slot in zip(values, spec.slots):     # the row's slots: which of p1 / p2 each parameter is
            p[slot - 1] = v
        self.p1, self.p2 = p

    def _fwd(self, eg, x):
        y = eg.backend.act_fwd(self.act, x, self.p1, self.p2)
        return (y,), ((y if grad_from_output(self.act, self.p1) else x), y)     # keep x only when act' needs it

    def _bwd(self, eg, ctx, gys, needs):
        x, y = ctx
        return (eg.backend.act_bwd(self.act, gys[0], x, y, self.p1, self.p2),)


def _unit_class(spec):
    return type(spec.unit, (Activation,), {"act": spec.name, "__doc__": spec.doc, "__module__": __name__})


ACTIVATION_CLASSES = {name: _unit_class(spec) for name, spec in ACTIVATIONS.items()}
globals().update({cls.__name__: cls for cls in ACTIVATION_CLASSES.values()})     # Relu, LeakyRelu, ...


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
