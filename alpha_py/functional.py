"""F layer: parameter-free functions (`alpha.F`). Each builds the same Unit the nn factory builds and
applies it once; leading non-Tensor arguments are the unit's hyper-parameters, Tensors come last.
Returns Tensor[] (a list), like Dragon-Alpha. The names derive from alpha_py.ops.ACTIVATIONS and the lists
below. Imports nn (factory, unit), alpha_py.ops and core/tensor only."""
from .core.tensor import Tensor
from .errors import ArgumentError
from .nn import pool_ext
from .nn.factory import nn as _nn
from .nn.factory_ext import pool_args
from .nn.unit import as_tensors
from .ops import ACTIVATIONS, MATH, MATMULS


def _split_args(args, who):
    for i, a in enumerate(args):
        if isinstance(a, (Tensor, list, tuple)) and (isinstance(a, Tensor) or (
                a and all(isinstance(t, Tensor) for t in a))):
            return args[:i], as_tensors(args[i:], f"F.{who}")
    raise ArgumentError(f"F.{who}: no input Tensor given (arguments: "
                        f"{[type(a).__name__ for a in args]})")


def _is_tensors(a):
    return isinstance(a, Tensor) or (isinstance(a, (list, tuple)) and a and all(isinstance(t, Tensor) for t in a))


def _v12_split(args):
    """v1.2's F.split(X, sections...) (along the last dim) and F.split(dim, X, sections...) -> our
    (dim, sections..., X); (dim, sections..., X) passes as it is."""
    if args and _is_tensors(args[0]):
        return (-1,) + tuple(args[1:]) + (args[0],)
    if len(args) >= 2 and not _is_tensors(args[0]) and _is_tensors(args[1]):
        return (args[0],) + tuple(args[2:]) + (args[1],)
    return args


_FUNCTIONS = tuple(ACTIVATIONS) + ("softmax", "log_softmax") + (
    "dropout",
    "maxPool2D", "avgPool2D", "adaptive_avgPool2D", "adaptive_maxPool2D",
    "flatten", "flaten", "view", "reshape", "transpose", "pad", "trim", "expand", "crop",
    "pad2D", "trim2D", "expand2D", "crop2D",
    "add", "sub", "mul", "div", "linear2", "concat", "split", "chunk", "sum", "mean",
    "reduce_sum", "reduce_mean", "sqadd", "sqsub", "quadratic2", "linear_sum", "linear_mean", "sqsum", "sqmean",
    "quadratic_sum", "quadratic_mean", "add_row", "sub_row", "mul_row", "linear2_row", "sqadd_row", "sqsub_row",
    "quadratic2_row", "rot180") + tuple(MATH) + tuple(MATMULS) + (
    "maxPool1D", "avgPool1D", "adaptive_maxPool1D", "adaptive_avgPool1D", "avgUnpool2D",
    "add_center", "sub_center", "mul_center", "linear2_center", "sqadd_center", "sqsub_center", "quadratic2_center")
_FUSED = tuple(f"add_{a}" for a in ACTIVATIONS) + tuple(f"{a}_dropout" for a in ACTIVATIONS) + tuple(
    f"linear2_{a}" for a in ACTIVATIONS)


def _eval(make):
    return lambda *p: make(*p).eval()


def _indexed(cls, adaptive=False):
    """A max pool with a second output, the int32 Index (pool_ext._Indexed)."""
    who = cls.__doc__.split(":")[0]
    return (lambda *p: cls(*p)) if adaptive else (lambda *p: pool_args(cls, p, who))


def _view_flatten(*p):
    if len(p) > 1 or (p and not isinstance(p[0], bool)):
        raise ArgumentError(f"F.view_flatten: expected ([inplace,] X), got parameters {list(p)}")
    return _nn.flatten()


# F-only v1.2 names: eval_ forms (inference mode: the Index is not kept), _with_Index forms (outputs [Y, Index]:
# the flat int32 offset into X of each maximum), view_flatten ([N, ...] -> [N, -1]).
_EXTRA = {
    "eval_maxPool2D": _eval(_nn.maxPool2D), "eval_maxPool1D": _eval(_nn.maxPool1D),
    "eval_adaptive_maxPool2D": _eval(_nn.adaptive_maxPool2D), "eval_adaptive_maxPool1D": _eval(_nn.adaptive_maxPool1D),
    "maxPool2D_with_Index": _indexed(pool_ext.MaxPool2DIndexed),
    "maxPool1D_with_Index": _indexed(pool_ext.MaxPool1DIndexed),
    "adaptive_maxPool2D_with_Index": _indexed(pool_ext.AdaptiveMaxPool2DIndexed, True),
    "adaptive_maxPool1D_with_Index": _indexed(pool_ext.AdaptiveMaxPool1DIndexed, True),
    "view_flatten": _view_flatten,
}


class Functional:
    """alpha.F: F.relu(X), F.leakyRelu([slope,] X), F.add(X1, X2), F.add_relu(X1, X2),
    F.dropout(keep_p, X), F.split(dim, sections..., X), F.adaptive_avgPool2D(1, X)...
    F applies the unit in training mode (so F.dropout drops)."""

    NAMES = _FUNCTIONS + _FUSED + tuple(_EXTRA)

    def __dir__(self):
        return list(self.NAMES) + ["need_grads", "index_of_core", "append"]

    # v1.2's F is a unit without parameters: these three are its Unit methods.
    @staticmethod
    def need_grads():
        """False: F's functions own no parameters (v1.2)."""
        return False

    @staticmethod
    def index_of_core(core):
        """-1: F keeps no unit cores (v1.2)."""
        return -1

    @staticmethod
    def append(pre, sb):
        """Append F's name to the list `sb` (v1.2 appends to a StringBuilder); returns sb."""
        sb.append("Alpha.functional")
        return sb

    def __getattr__(self, name):
        if name not in self.NAMES:
            raise AttributeError(f"alpha.F has no function named {name!r}")
        make = _EXTRA.get(name) or getattr(_nn, name)

        def apply(*args):
            if name == "split":
                args = _v12_split(args)
            params, xs = _split_args(args, name)
            auto = getattr(xs[0].engine, "auto", None)
            if auto is None:
                return make(*params)._apply(xs)
            key = (name,) + tuple((type(p).__name__, p) for p in params) if all(   # one unit per name and
                p is None or isinstance(p, (bool, int, float, str)) for p in params) else None  # typed parameters
            return auto.functional(key, lambda: make(*params), xs)

        apply.__name__ = name
        apply.__qualname__ = f"F.{name}"
        return apply


F = Functional()
