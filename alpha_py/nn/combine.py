"""nn layer: combining units — concat, split/chunk and the reduce_sum/reduce_mean reducers (the binary
units live in binary.py). Imports unit.py and errors only."""
import math

from ..errors import ArgumentError, fmt_shape
from .unit import Unit


class Concat(Unit):
    """Concatenate along `dim` (default the last)."""

    n_inputs = None

    def __init__(self, dim=-1):
        super().__init__()
        if isinstance(dim, bool) or int(dim) != dim:
            raise ArgumentError(f"Concat: dim must be an integer, got {dim!r}")
        self.dim = int(dim)

    def check_inputs(self, xs):
        r = xs[0].ndim()
        if not -r <= self.dim < r:
            raise self.error(f"dim {self.dim} out of range for rank {r}")
        d = self.dim % r
        for x in xs[1:]:
            if x.ndim() != r or any(x.shape[i] != xs[0].shape[i] for i in range(r) if i != d):
                raise self.error(f"inputs {', '.join(fmt_shape(t.shape) for t in xs)} differ outside dim {self.dim}")

    def _fwd(self, eg, *xs):
        d = self.dim % xs[0].ndim
        return (eg.backend.concat(list(xs), d),), (d, [x.shape[d] for x in xs])

    def _bwd(self, eg, ctx, gys, needs):
        d, sizes = ctx
        return tuple(eg.backend.split(gys[0], sizes, d))


class Split(Unit):
    """Split one input along `dim` into pieces of the given section sizes (they must add up to
    the size of that dim). Outputs len(sections) tensors; backward concatenates the gradients
    (zeros for outputs that received none)."""

    def __init__(self, dim, *sections):
        super().__init__()
        who = type(self).__name__
        if len(sections) == 1 and isinstance(sections[0], (list, tuple)):
            sections = tuple(sections[0])
        if isinstance(dim, bool) or int(dim) != dim:
            raise ArgumentError(f"{who}: dim must be an integer, got {dim!r}")
        if not sections or any(isinstance(s, bool) or int(s) != s or s <= 0 for s in sections):
            raise ArgumentError(f"{who}: sections must be positive integers, got {list(sections)}")
        self.dim, self.sections = int(dim), tuple(int(s) for s in sections)

    def _check_dim(self, x):
        r = x.ndim()
        if not -r <= self.dim < r:
            raise self.error(f"input {fmt_shape(x.shape)} has rank {r}; dim {self.dim} must lie in [{-r}, {r})")
        return self.dim % r

    def _sizes(self, size):
        return self.sections

    def check_inputs(self, xs):
        d = self._check_dim(xs[0])
        size = xs[0].shape[d]
        if sum(self._sizes(size)) != size:
            raise self.error(f"input {fmt_shape(xs[0].shape)}: sections {list(self.sections)} add up to "
                             f"{sum(self.sections)}, expected dim {self.dim} size {size}")

    def _fwd(self, eg, x):
        d = self.dim % x.ndim
        sizes = self._sizes(x.shape[d])
        outs = eg.backend.split(x, list(sizes), d)
        return tuple(outs), (d, [o.shape for o in outs])

    def _bwd(self, eg, ctx, gys, needs):
        d, shapes = ctx
        b = eg.backend
        gs = [g if g is not None else b.full(s, 0.0) for g, s in zip(gys, shapes)]
        return (b.concat(gs, d),)


class Chunk(Split):
    """Split along `dim` (default the last) into n equal pieces; the size must divide by n."""

    def __init__(self, dim=-1, n=2):
        if isinstance(n, bool) or int(n) != n or n <= 0:
            raise ArgumentError(f"Chunk: n must be a positive integer, got {n!r}")
        super().__init__(dim, 1)
        self.n = int(n)

    def _sizes(self, size):
        return (size // self.n,) * self.n

    def check_inputs(self, xs):
        d = self._check_dim(xs[0])
        size = xs[0].shape[d]
        if size % self.n:
            raise self.error(f"input {fmt_shape(xs[0].shape)}: dim {self.dim} size {size} does not "
                             f"divide into {self.n} chunks")


class ReduceSum(Unit):
    """Reducer (an extension beyond Dragon-Alpha v1.2, whose sum(alpha) sums branches): several
    same-shape inputs -> their elementwise sum; one input -> the sum over `dim` (the dim is removed),
    or over every element into a [1] tensor when dim is None."""

    n_inputs = None
    scale_by_count = False

    def __init__(self, dim=None):
        super().__init__()
        if dim is not None and (isinstance(dim, bool) or int(dim) != dim):
            raise ArgumentError(f"{type(self).__name__}: dim must be an integer or None, got {dim!r}")
        self.dim = None if dim is None else int(dim)

    def check_inputs(self, xs):
        if len(xs) > 1:
            if self.dim is not None:
                raise self.error(f"dim={self.dim} reduces one input, got {len(xs)} inputs")
            for x in xs[1:]:
                if x.shape != xs[0].shape:
                    raise self.error(f"inputs {', '.join(fmt_shape(t.shape) for t in xs)} must have the same shape")
        elif self.dim is not None:
            r = xs[0].ndim()
            if not -r <= self.dim < r:
                raise self.error(f"input {fmt_shape(xs[0].shape)} has rank {r}; dim {self.dim} must lie "
                                 f"in [{-r}, {r})")

    def _count(self, shape):
        if self.dim is None:
            return math.prod(shape)
        return shape[self.dim % len(shape)]

    def _fwd(self, eg, *xs):
        b = eg.backend
        if len(xs) > 1:
            y = xs[0]
            for x in xs[1:]:
                y = b.add(y, x)
            if self.scale_by_count:
                y = b.linear(y, 1.0 / len(xs), 0.0)
            return (y,), len(xs)
        x = xs[0]
        if self.dim is None:
            y = b.reshape(b.sum(x), (1,))
        else:
            y = b.sum(x, axis=self.dim % x.ndim)
        if self.scale_by_count:
            y = b.linear(y, 1.0 / self._count(x.shape), 0.0)
        return (y,), x.shape

    def _bwd(self, eg, ctx, gys, needs):
        b, gy = eg.backend, gys[0]
        if isinstance(ctx, int):
            g = b.linear(gy, 1.0 / ctx, 0.0) if self.scale_by_count else gy
            return tuple(g if need else None for need in needs)
        shape = ctx
        if self.dim is not None:
            kept = list(shape)
            kept[self.dim % len(shape)] = 1
            gy = b.reshape(gy, kept)
        g = b.broadcast_to(gy, shape)
        if self.scale_by_count:
            g = b.linear(g, 1.0 / self._count(shape), 0.0)
        return (g,)


class ReduceMean(ReduceSum):
    """Reducer (extension): elementwise mean of several inputs, or the mean of one input over `dim` / over
    every element (a [1] tensor)."""
    scale_by_count = True
