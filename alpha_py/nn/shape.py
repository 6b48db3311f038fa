"""nn layer: shape units — flatten (keeps dim 0), view/reshape, transpose, and the Dragon-Alpha
window units pad/trim/expand/crop over the trailing dims. Parameter-free; imports unit.py and errors only."""
import math

from ..errors import ArgumentError, fmt_shape
from .unit import Unit


def _ints(vals, who, what):
    if len(vals) == 1 and isinstance(vals[0], (list, tuple)):
        vals = tuple(vals[0])
    try:
        out = tuple(int(v) for v in vals)
    except (TypeError, ValueError):
        raise ArgumentError(f"{who}: {what} must be integers, got {list(vals)!r}") from None
    if any(isinstance(v, bool) or int(v) != v for v in vals):
        raise ArgumentError(f"{who}: {what} must be integers, got {list(vals)!r}")
    return out


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


class Transpose(Unit):
    """Swap dims d1 and d2 (negative indices count from the end)."""

    def __init__(self, inplace=False, d1=-2, d2=-1):
        super().__init__()
        self.inplace = bool(inplace)
        self.d1, self.d2 = _ints((d1, d2), "Transpose", "dims")

    def _perm(self, ndim):
        perm = list(range(ndim))
        a, b = self.d1 % ndim, self.d2 % ndim
        perm[a], perm[b] = perm[b], perm[a]
        return perm

    def check_inputs(self, xs):
        r = xs[0].ndim()
        for d in (self.d1, self.d2):
            if not -r <= d < r:
                raise self.error(f"input {fmt_shape(xs[0].shape)} has rank {r}; dims ({self.d1}, {self.d2}) "
                                 f"must lie in [{-r}, {r})")

    def _fwd(self, eg, x):
        perm = self._perm(x.ndim)
        return (eg.backend.transpose(x, perm),), perm

    def _bwd(self, eg, perm, gys, needs):
        return (eg.backend.transpose(gys[0], perm),)   # a swap is its own inverse


class _Window(Unit):
    """Shared logic: before/after amounts over the trailing len(p) dims of the input.
    `_amounts(shape)` returns (lo, hi) per trailing dim; pad grows, trim shrinks."""

    grows = True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = bool(inplace)

    def _k(self):
        """How many trailing dims the unit acts on."""
        raise NotImplementedError

    def _amounts(self, shape):
        raise NotImplementedError

    def _full(self, shape):
        lo, hi = self._amounts(shape)
        k = len(lo)
        return [(0, 0)] * (len(shape) - k) + list(zip(lo, hi))

    def check_inputs(self, xs):
        shape, k = xs[0].shape, self._k()
        if len(shape) < k:
            raise self.error(f"input {fmt_shape(shape)} has rank {len(shape)}, expected rank >= {k} "
                             f"for {k} trailing amounts")
        if not self.grows:
            for size, (lo, hi) in zip(shape, self._full(shape)):
                if lo + hi >= size:
                    raise self.error(f"input {fmt_shape(shape)}: removing (before, after) = "
                                     f"{self._full(shape)} would leave an empty dim")

    def _grow(self, eg, x, pads):
        return eg.backend.pad(x, pads, 0.0)

    def _shrink(self, eg, x, pads):
        return eg.backend.slice(x, [slice(lo, s - hi) for s, (lo, hi) in zip(x.shape, pads)])

    def _fwd(self, eg, x):
        pads = self._full(x.shape)
        y = self._grow(eg, x, pads) if self.grows else self._shrink(eg, x, pads)
        return (y,), pads

    def _bwd(self, eg, pads, gys, needs):
        gy = gys[0]
        return (self._shrink(eg, gy, pads) if self.grows else self._grow(eg, gy, pads),)


class Pad(_Window):
    """Zero-pad the trailing len(p0) dims: dim i grows by p0[i] before and p1[i] after.
    nn.pad(1, 1, 0) on NHWC pads H and W by one on each side (C untouched); pad2D appends a 0."""

    def __init__(self, inplace=False, p0=(), p1=None):
        super().__init__(inplace)
        who = type(self).__name__
        self.p0 = _ints(p0, who, "amounts")
        self.p1 = self.p0 if p1 is None else _ints(p1, who, "amounts")
        if not self.p0 or len(self.p0) != len(self.p1) or min(self.p0 + self.p1) < 0:
            raise ArgumentError(f"{who}: amounts must be non-negative integers of equal length, got "
                                f"{list(self.p0)} and {list(self.p1)}")

    def _k(self):
        return len(self.p0)

    def _amounts(self, shape):
        return self.p0, self.p1


class Trim(Pad):
    """Remove t0[i] elements before and t1[i] after along each of the trailing len(t0) dims
    (the inverse of pad)."""
    grows = False


class _Placed(_Window):
    """expand/crop: target sizes of the trailing dims (<= 0 keeps the input's size) placed at
    `start` (offsets in the larger tensor) or centred when start is None."""

    def __init__(self, inplace=False, start=None, out_dims=()):
        super().__init__(inplace)
        who = type(self).__name__
        self.out_dims = _ints(out_dims, who, "out_dims")
        self.start = None if start is None else _ints(start, who, "start")
        if not self.out_dims:
            raise ArgumentError(f"{who}: out_dims must not be empty")
        if self.start is not None and (len(self.start) != len(self.out_dims) or min(self.start) < 0):
            raise ArgumentError(f"{who}: start {list(self.start)} must be non-negative and as long as "
                                f"out_dims {list(self.out_dims)}")

    def _k(self):
        return len(self.out_dims)

    def _amounts(self, shape):
        tail = shape[len(shape) - len(self.out_dims):]
        lo, hi = [], []
        for i, (size, out) in enumerate(zip(tail, self.out_dims)):
            out = size if out <= 0 else out
            big, small = (out, size) if self.grows else (size, out)
            s = (max(big - small, 0) // 2) if self.start is None else self.start[i]
            if self.grows:
                out = max(out, size + s)            # expand never cuts the input
                lo.append(s), hi.append(out - size - s)
            else:
                out = min(out, size - s)            # crop never reads past the input
                lo.append(s), hi.append(max(size - s - out, 0))
        return tuple(lo), tuple(hi)


class Expand(_Placed):
    """Zero-extend the trailing dims to out_dims (<= 0 keeps a dim), the input placed at `start`
    or centred. nn.expand(8, 8, -1) on [N,4,4,C] gives [N,8,8,C] with the input at (2, 2)."""


class Crop(_Placed):
    """Cut a window of size out_dims (<= 0 keeps a dim) from the trailing dims, starting at
    `start` or centred. nn.crop(2, 2, -1) on [N,4,4,C] keeps rows/cols 1..2."""
    grows = False

    def check_inputs(self, xs):
        shape, k = xs[0].shape, self._k()
        if len(shape) >= k and self.start is not None:
            tail = shape[len(shape) - k:]
            if any(s >= size for s, size in zip(self.start, tail)):
                raise self.error(f"input {fmt_shape(shape)}: crop start {list(self.start)} lies outside "
                                 f"the trailing dims {fmt_shape(tail)}")
        super().check_inputs(xs)
