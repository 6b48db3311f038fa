"""nn layer: fullconnect (Y = X·W + b, weight [in, out]) over the matmul primitive; inputs of any
rank >= 2 are treated as rows of their last dim."""
import math

from ..errors import ArgumentError, fmt_shape
from .unit import Unit


class FullConnect(Unit):
    def __init__(self, biased, in_features, out_features):
        super().__init__()
        self.biased, self.in_features, self.out_features = bool(biased), int(in_features), int(out_features)
        if self.in_features <= 0 or self.out_features <= 0:
            raise ArgumentError(f"FullConnect: features must be positive, got in={in_features}, "
                                f"out={out_features}")

    def needs_init(self):
        return True

    def _create_params(self, eg):
        w = self._param("weight", eg.backend.empty((self.in_features, self.out_features)))
        eg.kaiming_uniform(w, self.in_features)
        if self.biased:
            bound = 1.0 / math.sqrt(self.in_features)
            self._param("bias", eg.backend.uniform((self.out_features,), -bound, bound))

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() < 2 or x.shape[-1] != self.in_features:
            raise self.error(f"input {fmt_shape(x.shape)}, expected [..., {self.in_features}] "
                             "(rank >= 2)")

    def _fwd(self, eg, x):
        b = eg.backend
        x2 = x.reshape(-1, self.in_features)
        y = b.matmul(x2, self._params["weight"].data)
        if self.biased:
            y = b.add(y, self._params["bias"].data)
        return (y.reshape(x.shape[:-1] + (self.out_features,)),), x2

    def _bwd(self, eg, x2, gys, needs):
        b, w = eg.backend, self._params["weight"]
        gy = gys[0].reshape(-1, self.out_features)
        w.accumulate_grad(b.matmul(x2, gy, ta=True))
        if self.biased:
            self._params["bias"].accumulate_grad(b.bias_grad(gy))
        if not needs[0]:
            return (None,)
        return (b.matmul(gy, w.data, tb=True).reshape(gys[0].shape[:-1] + (self.in_features,)),)
