"""nn layer: fused units — one Unit (one autograd node) running `first` then an elementwise
`second`: batchNorm_<act>, affine_<act>, <act>_dropout, add_<act>, linear2_<act>, <act>_bernouliMul, and
fuse(a, b). Forward runs first._fwd then second._fwd; backward second._bwd then first._bwd. Imports sibling
nn modules."""
import numpy as np

from ..core.autograd import GradBits, GradSum
from ..core.tensor import LazyData
from ..errors import ArgumentError
from ..ops import grad_from_output, slope_from_sign
from . import activation as act
from .binary import Add, Linear2
from .dropout import BernouliMul, Dropout
from .norm import Affine, BatchNorm, LayerNorm
from .unit import Unit


class Fused(Unit):
    """Holds `first` (may own parameters; its parameters become this unit's, with the same short
    names, so `<name>.weight`, `<name>.run_mean`... read as for the unfused unit) and a
    parameter-free single-input `second` (an activation or dropout)."""

    def __init__(self, first, second):
        super().__init__()
        self.first, self.second = first, second
        self.n_inputs = first.n_inputs
        self._params = first._params          # an init-ed first keeps its values through init()
        first.describe = self.describe         # errors raised by the parts name the fused unit
        second.describe = self.describe

    def __getattr__(self, name):
        # chained setters of the first unit (e.g. batchNorm_relu(4).eps(1e-3)) return the fused unit
        first = self.__dict__.get("first")
        if first is None or name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(first, name)
        if not callable(attr):
            return attr

        def call(*a, **kw):
            r = attr(*a, **kw)
            return self if r is first else r
        return call

    def needs_init(self):
        return self.first.needs_init()

    def _create_params(self, eg):
        f = self.first
        f.engine, f._name, f._params = eg, self._name, self._params
        f._create_params(eg)

    def check_inputs(self, xs):
        self.first.check_inputs(xs)

    def _sync_mode(self):
        self.first.training = self.second.training = self.training

    def _fwd(self, eg, *xs):
        self._sync_mode()
        (z,), ctx1 = self.first._fwd(eg, *xs)
        (y,), ctx2 = self.second._fwd(eg, z)
        return (y,), (ctx1, ctx2)

    def _bwd(self, eg, ctx, gys, needs):
        ctx1, ctx2 = ctx
        (gz,) = self.second._bwd(eg, ctx2, gys, (True,))
        return self.first._bwd(eg, ctx1, (gz,), needs)


class _FusedBnAct(Fused):
    """batchNorm_<act>: the backend's bn_act_fwd / bn_act_bwd primitives (one kernel on the GPU;
    backward recomputes the pre-activation from the saved input)."""

    def _act(self):
        return self.second.act, self.second.p1, self.second.p2

    def _reads_lazy(self, eg):
        self._sync_mode()
        return self.first._reads_lazy(eg)

    def _fwd(self, eg, x):
        self._sync_mode()
        return self.first._fwd(eg, x, act=self._act())

    def takes_grad_bits(self, ctx):
        return self.first.takes_grad_bits(ctx)

    def _bwd(self, eg, ctx, gys, needs):
        return self.first._bwd(eg, ctx, gys, needs, act=self._act())


class _FusedAddAct(Fused):
    """add_<act>: y = act(a + b) through the backend's add_act primitive; backward returns act'(a + b) * grad_y to
    both inputs, from y alone where the activation allows it (ops.grad_from_output: the addends are not kept),
    else recomputing a + b."""

    def _reads_lazy(self, eg):
        """A lazy BatchNorm addend (bf16 training) is read from its bits when act' needs no addend."""
        return self.training and grad_from_output(self.second.act, self.second.p1)

    def _fwd(self, eg, x1, x2):
        s, bk = self.second, eg.backend
        if type(x1) is LazyData or type(x2) is LazyData:
            if x1.shape != x2.shape or not self._twin(eg, x1, x2):
                x1, x2 = (x.value() if type(x) is LazyData else x for x in (x1, x2))
        a, b = self.first._fit(eg, x1, x2)          # likeX1: both in the output's shape
        if self._twin(eg, a, b):                    # bf16 training: y's bf16 bits written beside y, shared with the
            sign = slope_from_sign(s.act, s.p1) is not None     # convolutions reading y (backend/cuda_bf16_twin.py);
            fp32 = not (sign and bk.residual_bits_ok(a.shape))  # where act' comes from the bits' sign, y is stored
            y, yb = bk.add_act_twin(s.act, a, b, s.p1, s.p2, fp32)    # only as them (a residual stream in bf16)
            if sign:                                # act' from the bits' sign: y's memory can go; the addends'
                gxbits = (not eg.anomaly and bk.dgrad_bits_wanted(x1)   # gradient handed back as bf16 bits where
                          and bk.dgrad_bits_wanted(x2))                 # both makers read them (both lazy, one shape)
                return (y,), (None, None, yb, x1.shape, x2.shape, gxbits)
        else:
            y = bk.add_act(s.act, a, b, s.p1, s.p2)
        if grad_from_output(s.act, s.p1):           # act' from y alone: the addends' memory can go
            return (y,), (None, None, y, x1.shape, x2.shape, False)
        return (y,), (a, b, y, x1.shape, x2.shape, False)

    def _twin(self, eg, a, b):
        return (self.training and eg.precision() == "bf16" and tuple(a.shape) == tuple(b.shape)
                and eg.backend.twin_ok(a.shape))

    def takes_grad_sums(self, ctx):
        """The backward from y alone (sign bits in bf16, else y) adds a fan-in's two gradients as it reads them."""
        return ctx[0] is None

    def takes_grad_bits(self, ctx):
        """From y's sign bits (bf16 training), a gradient may come as bf16 bits (GradBits, alone or in a GradSum)."""
        return ctx[2].dtype == np.uint16

    def _bwd(self, eg, ctx, gys, needs):
        a, b, y, s1, s2, gxbits = ctx
        s, bk = self.second, eg.backend
        g, g2, out = gys[0], None, None
        if type(g) is GradSum:                      # a fan-in's two gradients, added in the kernel (into a if owned)
            g, g2, out = g.a, g.b, (g.a if g.owned else None)
        if y.dtype == np.uint16:                    # y's bf16 bits (bf16 training, relu / leakyRelu); a gradient
            g, g2 = (v.bits if type(v) is GradBits else v for v in (g, g2))     # may be bf16 bits (takes_grad_bits)
            if gxbits:                              # both addends' makers read gradient bits (_fwd)
                gz = GradBits(bk.act_bwd_sign(g, y, slope_from_sign(s.act, s.p1), g2, gx_bits=True))
                return (gz if needs[0] else None, gz if needs[1] else None)
            gz = bk.act_bwd_sign(g, y, slope_from_sign(s.act, s.p1), g2, out)
        elif a is None:
            gz = bk.act_bwd(s.act, g, y, y, s.p1, s.p2, g2, out)
        else:
            gz = bk.add_act_bwd(s.act, g, a, b, y, s.p1, s.p2)
        unfit = self.first._unfit
        return (unfit(eg, gz, s1) if needs[0] else None, unfit(eg, gz, s2) if needs[1] else None)


_CLASSES = {}


def _fused_class(first, second):
    """A named subclass per combination (BatchNorm_Relu, Affine_Gelu, Relu_Dropout, Add_Tanh...),
    so sequence children and messages read like Dragon-Alpha's fused units."""
    key = f"{type(first).__name__}_{type(second).__name__}"
    if key not in _CLASSES:
        base = Fused
        if isinstance(second, act.Activation):
            if isinstance(first, BatchNorm):
                base = _FusedBnAct
            elif type(first) is Add:
                base = _FusedAddAct
        _CLASSES[key] = type(key, (base,), {"__doc__": f"Fused {key.replace('_', ' then ')}."})
    return _CLASSES[key]


def _make(first, second):
    return _fused_class(first, second)(first, second)


def fuse(a, b):
    """fuse(batchNorm|global_batchNorm|layerNorm|affine, activation), fuse(activation, dropout),
    fuse(add, activation) -> one fused unit; anything else is an ArgumentError."""
    if not isinstance(a, Unit) or not isinstance(b, Unit):
        raise ArgumentError(f"fuse: expected two units, got {type(a).__name__} and {type(b).__name__}")
    if isinstance(a, Fused) or isinstance(b, Fused):
        raise ArgumentError(f"fuse: {a.describe()} and {b.describe()}: a fused unit cannot be fused again")
    is_act = isinstance(b, act.Activation)
    if (isinstance(a, (BatchNorm, Affine, LayerNorm)) and is_act) or (
            isinstance(a, act.Activation) and isinstance(b, (Dropout, BernouliMul))) or (
            type(a) is Add and a.alpha == a.beta == 1.0 and is_act) or (type(a) is Linear2 and is_act):
        return _make(a, b)
    raise ArgumentError(f"fuse: cannot fuse {type(a).__name__} with {type(b).__name__}; supported: "
                        "(BatchNorm|GlobalBatchNorm|LayerNorm|Affine, activation), "
                        "(activation, Dropout|BernouliMul), (Add|Linear2, activation)")


def check_fusable(who, a, b, first_types, second_types):
    """Validate the (a, b) units given to a named fused constructor such as batchNorm_relu."""
    if not isinstance(a, first_types) or not isinstance(b, second_types):
        raise ArgumentError(f"{who}: expected ({'|'.join(t.__name__ for t in first_types)}, "
                            f"{'|'.join(t.__name__ for t in second_types)}), got "
                            f"({type(a).__name__}, {type(b).__name__})")
    return fuse(a, b)
