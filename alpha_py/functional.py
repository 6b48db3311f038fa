"""F layer: parameter-free functions (`alpha.F`). Each builds the same Unit the nn factory builds and
applies it once; leading non-Tensor arguments are the unit's hyper-parameters, Tensors come last.
Returns Tensor[] (a list), like Dragon-Alpha. The names derive from alpha_py.ops.ACTIVATIONS and the lists
below. Imports nn (factory, unit), alpha_py.ops and core/tensor only."""
from .core.tensor import Tensor
from .errors import ArgumentError
from .nn.factory import nn as _nn
from .nn.unit import as_tensors
from .ops import ACTIVATIONS, MATH, MATMULS


def _split_args(args, who):
    for i, a in enumerate(args):
        if isinstance(a, (Tensor, list, tuple)) and (isinstance(a, Tensor) or (
                a and all(isinstance(t, Tensor) for t in a))):
            return args[:i], as_tensors(args[i:], f"F.{who}")
    raise ArgumentError(f"F.{who}: no input Tensor given (arguments: "
                        f"{[type(a).__name__ for a in args]})")


_FUNCTIONS = tuple(ACTIVATIONS) + ("softmax", "log_softmax") + (
    "dropout",
    "maxPool2D", "avgPool2D", "adaptive_avgPool2D", "adaptive_maxPool2D",
    "flatten", "flaten", "view", "reshape", "transpose", "pad", "trim", "expand", "crop",
    "pad2D", "trim2D", "expand2D", "crop2D",
    "add", "sub", "mul", "div", "linear2", "concat", "split", "chunk", "sum", "mean",
    "reduce_sum", "reduce_mean", "sqadd", "sqsub", "quadratic2", "linear_sum", "linear_mean", "sqsum", "sqmean",
    "quadratic_sum", "quadratic_mean", "add_row", "sub_row", "mul_row", "linear2_row", "sqadd_row", "sqsub_row",
    "quadratic2_row", "rot180") + tuple(MATH) + tuple(MATMULS)
_FUSED = tuple(f"add_{a}" for a in ACTIVATIONS) + tuple(f"{a}_dropout" for a in ACTIVATIONS)


class Functional:
    """alpha.F: F.relu(X), F.leakyRelu([slope,] X), F.add(X1, X2), F.add_relu(X1, X2),
    F.dropout(keep_p, X), F.split(dim, sections..., X), F.adaptive_avgPool2D(1, X)...
    F applies the unit in training mode (so F.dropout drops)."""

    NAMES = _FUNCTIONS + _FUSED

    def __dir__(self):
        return list(self.NAMES)

    def __getattr__(self, name):
        if name not in self.NAMES:
            raise AttributeError(f"alpha.F has no function named {name!r}")
        make = getattr(_nn, name)

        def apply(*args):
            params, xs = _split_args(args, name)
            return make(*params)._apply(xs)

        apply.__name__ = name
        apply.__qualname__ = f"F.{name}"
        return apply


F = Functional()
