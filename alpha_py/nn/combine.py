"""nn layer: binary and combining units — add, sub, mul, div, linear2 (alpha*X1 + beta*X2 + gamma)
over same-shape inputs, and concat."""
from ..errors import fmt_shape
from .unit import Unit


class _Binary(Unit):
    n_inputs = 2

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = bool(inplace)

    def check_inputs(self, xs):
        a, b = xs
        if a.shape != b.shape:
            raise self.error(f"inputs {fmt_shape(a.shape)} and {fmt_shape(b.shape)} must have the same shape")


class Linear2(_Binary):
    """Y = alpha*X1 + beta*X2 + gamma."""

    def __init__(self, inplace=False, alpha=1.0, beta=1.0, gamma=0.0):
        super().__init__(inplace)
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)

    def _fwd(self, eg, a, b):
        return (eg.backend.linear2(a, b, self.alpha, self.beta, self.gamma),), None

    def _bwd(self, eg, ctx, gys, needs):
        b, gy = eg.backend, gys[0]
        return (b.linear(gy, self.alpha, 0.0) if needs[0] else None,
                b.linear(gy, self.beta, 0.0) if needs[1] else None)


class Add(Linear2):
    def __init__(self, inplace=False):
        super().__init__(inplace, 1.0, 1.0, 0.0)

    def _bwd(self, eg, ctx, gys, needs):
        return gys[0], gys[0]


class Sub(Linear2):
    def __init__(self, inplace=False):
        super().__init__(inplace, 1.0, -1.0, 0.0)


class Mul(_Binary):
    def _fwd(self, eg, a, b):
        return (eg.backend.mul(a, b),), (a, b)

    def _bwd(self, eg, ctx, gys, needs):
        a, b = ctx
        bk, gy = eg.backend, gys[0]
        return (bk.mul(gy, b) if needs[0] else None, bk.mul(gy, a) if needs[1] else None)


class Div(_Binary):
    def _fwd(self, eg, a, b):
        return (eg.backend.div(a, b),), (a, b)

    def _bwd(self, eg, ctx, gys, needs):
        a, b = ctx
        bk, gy = eg.backend, gys[0]
        ga = bk.div(gy, b) if needs[0] else None
        gb = bk.linear(bk.div(bk.mul(gy, a), bk.mul(b, b)), -1.0, 0.0) if needs[1] else None
        return ga, gb


class Concat(Unit):
    """Concatenate along `dim` (default the last)."""

    n_inputs = None

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = int(dim)

    def check_inputs(self, xs):
        r = xs[0].ndim()
        if not -r <= self.dim < r:
            raise self.error(f"dim {self.dim} out of range for rank {r}")
        d = self.dim % r
        for x in xs[1:]:
            if x.ndim() != r or any(x.shape[i] != xs[0].shape[i] for i in range(r) if i != d):
                raise self.error(f"inputs {[fmt_shape(t.shape) for t in xs]} differ outside dim {self.dim}")

    def _fwd(self, eg, *xs):
        d = self.dim % xs[0].ndim
        return (eg.backend.concat(list(xs), d),), (d, [x.shape[d] for x in xs])

    def _bwd(self, eg, ctx, gys, needs):
        d, sizes = ctx
        return tuple(eg.backend.split(gys[0], sizes, d))
