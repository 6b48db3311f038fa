"""nn layer: shape units — flatten (keeps dim 0), view/reshape. Parameter-free; backward reshapes
the gradient back."""
import math

from ..errors import ArgumentError, fmt_shape
from .unit import Unit


class Flatten(Unit):
    """[N, d1, d2, ...] -> [N, d1*d2*...] in row-major (H, W, C) order."""

    def check_inputs(self, xs):
        if xs[0].ndim() < 2:
            raise self.error(f"input {fmt_shape(xs[0].shape)} must have rank >= 2")

    def _fwd(self, eg, x):
        return (eg.backend.reshape(x, (x.shape[0], -1)),), x.shape

    def _bwd(self, eg, shape, gys, needs):
        return (eg.backend.reshape(gys[0], shape),)


class Reshape(Unit):
    """Reshape to dims (one may be -1); the element count must match."""

    def __init__(self, inplace=False, *dims):
        super().__init__()
        if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
            dims = tuple(dims[0])
        if not dims or sum(1 for d in dims if d == -1) > 1 or any(d == 0 or d < -1 for d in dims):
            raise ArgumentError(f"{type(self).__name__}: dims {list(dims)} must be positive (one may be -1)")
        self.inplace, self.dims = bool(inplace), tuple(int(d) for d in dims)

    def _target(self, shape):
        n = math.prod(shape)
        known = math.prod(d for d in self.dims if d != -1)
        if -1 in self.dims:
            if n % known:
                raise self.error(f"input {fmt_shape(shape)} ({n} elements) cannot be viewed as {list(self.dims)}")
            return tuple(n // known if d == -1 else d for d in self.dims)
        if known != n:
            raise self.error(f"input {fmt_shape(shape)} ({n} elements) cannot be viewed as "
                             f"{fmt_shape(self.dims)} ({known} elements)")
        return self.dims

    def check_inputs(self, xs):
        self._target(xs[0].shape)

    def _fwd(self, eg, x):
        return (eg.backend.reshape(x, self._target(x.shape)),), x.shape

    def _bwd(self, eg, shape, gys, needs):
        return (eg.backend.reshape(gys[0], shape),)


class View(Reshape):
    pass
