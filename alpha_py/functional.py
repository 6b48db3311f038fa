"""F layer: parameter-free functions (`alpha.F`). Each builds the same Unit the nn factory builds and
applies it once; leading non-Tensor arguments are the unit's hyper-parameters, Tensors come last.
Returns Tensor[] (a list), like Dragon-Alpha."""
from .engine.tensor import Tensor
from .errors import ArgumentError
from .nn.factory import nn as _nn
from .nn.unit import as_tensors


def _split_args(args, who):
    for i, a in enumerate(args):
        if isinstance(a, (Tensor, list, tuple)):
            return args[:i], as_tensors(args[i:], who)
    raise ArgumentError(f"F.{who}: no input Tensor given")


class Functional:
    """alpha.F: F.relu(X), F.leakyRelu([slope,] X), F.add(X1, X2), F.adaptive_avgPool2D(1, X)..."""

    _UNITS = ("relu", "relu6", "leakyRelu", "elu", "softplus", "gelu", "sigmoid", "hard_sigmoid",
              "tanh", "softmax", "log_softmax", "maxPool2D", "avgPool2D", "adaptive_avgPool2D",
              "adaptive_maxPool2D", "flatten", "flaten", "view", "reshape", "add", "sub", "mul",
              "div", "linear2", "concat")

    def __getattr__(self, name):
        if name not in self._UNITS and not hasattr(_nn.__class__, name):
            raise AttributeError(f"alpha.F has no function named {name!r}")
        make = getattr(_nn, name)

        def apply(*args):
            params, xs = _split_args(args, name)
            return make(*params)._apply(xs)

        apply.__name__ = name
        return apply


F = Functional()
