"""nn layer: Dragon-Alpha's binary units add/sub/mul/div/linear2 (leading `likeX1`: the output takes X1's
shape when true, X2's when false; the other input is reshaped when it has as many elements, else
broadcast; default: AlphaParam.dl_likeX1, read when the unit is made) and the branch reducers sum/mean(alpha).
Imports unit.py, alpha_py.params and errors only."""
import math

from ..errors import ArgumentError, fmt_shape
from ..params import AlphaParam
from .unit import Unit


def _finite(who, **kw):
    for k, v in kw.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ArgumentError(f"{who}: {k} must be a finite number, got {v!r}")


def _broadcasts(src, dst):
    if len(src) > len(dst):
        return False
    return all(s in (1, d) for s, d in zip(src[::-1], dst[::-1]))


class _Binary(Unit):
    """Output shape: X1's (likeX1=True) or X2's (likeX1 None: AlphaParam.dl_likeX1, true by default). The other
    input must have the same number of elements (it is viewed in that shape) or broadcast to it (numpy rules)."""

    n_inputs = 2

    def __init__(self, likeX1=None):
        super().__init__()
        likeX1 = AlphaParam.dl_likeX1 if likeX1 is None else likeX1
        if not isinstance(likeX1, bool):
            raise ArgumentError(f"{type(self).__name__}: likeX1 must be a bool, got {likeX1!r}")
        self.likeX1 = likeX1

    def check_inputs(self, xs):
        a, b = xs
        target, other = (a.shape, b.shape) if self.likeX1 else (b.shape, a.shape)
        if other != target and math.prod(other) != math.prod(target) and not _broadcasts(other, target):
            raise self.error(f"inputs {fmt_shape(a.shape)} and {fmt_shape(b.shape)}: with likeX1={self.likeX1} "
                             f"the output is {fmt_shape(target)}; the other input must have as many elements "
                             f"or broadcast to it")

    def _fit(self, eg, a, b):
        """Both inputs in the output's shape."""
        bk = eg.backend
        target = a.shape if self.likeX1 else b.shape

        def fit(x):
            if x.shape == target:
                return x
            if math.prod(x.shape) == math.prod(target):
                return bk.reshape(x, target)
            return bk.broadcast_to(x, target)
        return fit(a), fit(b)

    @staticmethod
    def _unfit(eg, g, shape):
        """The gradient of an input of `shape` from the gradient in the output's shape."""
        if g is None or g.shape == tuple(shape):
            return g
        bk = eg.backend
        if math.prod(g.shape) != math.prod(shape):
            lead = g.ndim - len(shape)
            for ax in range(g.ndim):
                if ax < lead or (shape[ax - lead] == 1 and g.shape[ax] != 1):
                    g = bk.sum(g, axis=ax, keepdims=True)
        return bk.reshape(g, tuple(shape))

    def _fwd(self, eg, a, b):
        fa, fb = self._fit(eg, a, b)
        ys, ctx = self._fwd2(eg, fa, fb)
        return ys, (a.shape, b.shape, ctx)

    def _bwd(self, eg, ctx, gys, needs):
        sa, sb, inner = ctx
        ga, gb = self._bwd2(eg, inner, gys, needs)
        return self._unfit(eg, ga, sa), self._unfit(eg, gb, sb)


class Linear2(_Binary):
    """Y = alpha*X1 + beta*X2 + gamma."""

    def __init__(self, likeX1=None, alpha=1.0, beta=1.0, gamma=0.0):
        super().__init__(likeX1)
        _finite(type(self).__name__, alpha=alpha, beta=beta, gamma=gamma)
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)

    def _fwd2(self, eg, a, b):
        return (eg.backend.linear2(a, b, self.alpha, self.beta, self.gamma),), None

    def _bwd2(self, eg, ctx, gys, needs):
        b, gy = eg.backend, gys[0]
        return (b.linear(gy, self.alpha, 0.0) if needs[0] else None,
                b.linear(gy, self.beta, 0.0) if needs[1] else None)


class Add(Linear2):
    """Y = alpha*X1 + beta*X2 (default 1, 1)."""

    def __init__(self, likeX1=None, alpha=1.0, beta=1.0):
        super().__init__(likeX1, alpha, beta, 0.0)


class Sub(Linear2):
    """Y = alpha*X1 - beta*X2 (default 1, 1)."""

    def __init__(self, likeX1=None, alpha=1.0, beta=1.0):
        _finite("Sub", beta=beta)
        super().__init__(likeX1, alpha, -beta, 0.0)


class Mul(_Binary):
    """Y = alpha * X1 * X2 (default alpha 1)."""

    def __init__(self, likeX1=None, alpha=1.0):
        super().__init__(likeX1)
        _finite("Mul", alpha=alpha)
        self.alpha = float(alpha)

    def _fwd2(self, eg, a, b):
        bk = eg.backend
        y = bk.mul(a, b)
        return (y if self.alpha == 1.0 else bk.linear(y, self.alpha, 0.0),), (a, b)

    def _bwd2(self, eg, ctx, gys, needs):
        a, b = ctx
        bk = eg.backend
        gy = gys[0] if self.alpha == 1.0 else bk.linear(gys[0], self.alpha, 0.0)
        return (bk.mul(gy, b) if needs[0] else None, bk.mul(gy, a) if needs[1] else None)


class Div(_Binary):
    """Y = (alpha1*X1 + beta1) / (alpha2*X2 + beta2) + gamma (default 1, 0, 1, 0, 0)."""

    def __init__(self, likeX1=None, alpha1=1.0, beta1=0.0, alpha2=1.0, beta2=0.0, gamma=0.0):
        super().__init__(likeX1)
        _finite("Div", alpha1=alpha1, beta1=beta1, alpha2=alpha2, beta2=beta2, gamma=gamma)
        self.k = tuple(float(v) for v in (alpha1, beta1, alpha2, beta2, gamma))

    def _fwd2(self, eg, a, b):
        bk = eg.backend
        a1, b1, a2, b2, g = self.k
        num, den = bk.linear(a, a1, b1), bk.linear(b, a2, b2)
        return (bk.linear(bk.div(num, den), 1.0, g),), (num, den)

    def _bwd2(self, eg, ctx, gys, needs):
        num, den = ctx
        bk, gy = eg.backend, gys[0]
        a1, _, a2, _, _ = self.k
        ga = bk.linear(bk.div(gy, den), a1, 0.0) if needs[0] else None
        gb = bk.linear(bk.div(bk.mul(gy, num), bk.mul(den, den)), -a2, 0.0) if needs[1] else None
        return ga, gb


class Quadratic2(_Binary):
    """Y = k11*X1^2 + k12*X1*X2 + k22*X2^2 + k1*X1 + k2*X2 + C."""

    def __init__(self, likeX1=None, k11=0.0, k12=0.0, k22=0.0, k1=0.0, k2=0.0, C=0.0):
        super().__init__(likeX1)
        _finite(type(self).__name__, k11=k11, k12=k12, k22=k22, k1=k1, k2=k2, C=C)
        self.k = tuple(float(v) for v in (k11, k12, k22, k1, k2, C))

    def _fwd2(self, eg, a, b):
        bk = eg.backend
        k11, k12, k22, k1, k2, c = self.k
        y = bk.linear2(bk.mul(bk.linear2(a, b, k11, k12, 0.0), a), bk.mul(b, b), 1.0, k22, 0.0)
        return (bk.linear2(y, bk.linear2(a, b, k1, k2, c), 1.0, 1.0, 0.0),), (a, b)

    def _bwd2(self, eg, ctx, gys, needs):
        a, b = ctx
        bk, gy = eg.backend, gys[0]
        k11, k12, k22, k1, k2, _ = self.k
        ga = bk.mul(gy, bk.linear(bk.linear2(a, b, 2 * k11, k12, 0.0), 1.0, k1)) if needs[0] else None
        gb = bk.mul(gy, bk.linear(bk.linear2(a, b, k12, 2 * k22, 0.0), 1.0, k2)) if needs[1] else None
        return ga, gb


class SqAdd(Quadratic2):
    """Y = alpha*X1^2 + beta*X2^2 (default 1, 1)."""

    def __init__(self, likeX1=None, alpha=1.0, beta=1.0):
        super().__init__(likeX1, alpha, 0.0, beta)


class SqSub(Quadratic2):
    """Y = alpha*X1^2 - beta*X2^2 (default 1, 1)."""

    def __init__(self, likeX1=None, alpha=1.0, beta=1.0):
        _finite("SqSub", beta=beta)
        super().__init__(likeX1, alpha, 0.0, -beta)


class Sum(Unit):
    """Branch reducer: Y = alpha * (X1 + X2 + ... ) over same-shape inputs (default alpha 1). The reducer
    family: Y = (sq * sum(Xi^2) + lin * sum(Xi)) [/ n for the mean forms] + gamma."""

    n_inputs = None
    by_count = False

    def __init__(self, alpha=1.0):
        self._setup(0.0, alpha, 0.0)

    def _setup(self, sq, lin, gamma):
        super().__init__()
        _finite(type(self).__name__, alpha=sq or lin, beta=lin, gamma=gamma)
        self.sq, self.alpha, self.gamma = float(sq), float(lin), float(gamma)

    def check_inputs(self, xs):
        for x in xs[1:]:
            if x.shape != xs[0].shape:
                raise self.error(f"inputs {', '.join(fmt_shape(t.shape) for t in xs)} must have the same shape")

    def _n(self, n):
        return float(n) if self.by_count else 1.0

    def _fwd(self, eg, *xs):
        b = eg.backend
        n = self._n(len(xs))
        y = None
        for x in xs:
            t = b.linear(x, self.alpha / n, 0.0) if not self.sq else b.mul(b.linear(x, self.sq / n, 0.0), x)
            if self.sq and self.alpha:
                t = b.linear2(t, x, 1.0, self.alpha / n, 0.0)
            y = t if y is None else b.add(y, t)
        return ((b.linear(y, 1.0, self.gamma) if self.gamma else y),), xs

    def _bwd(self, eg, ctx, gys, needs):
        b, gy, n = eg.backend, gys[0], self._n(len(ctx))
        if not self.sq:
            g = b.linear(gy, self.alpha / n, 0.0)
            return tuple(g if need else None for need in needs)
        return tuple(b.mul(gy, b.linear(x, 2 * self.sq / n, self.alpha / n)) if need else None
                     for x, need in zip(ctx, needs))


class Mean(Sum):
    """Branch reducer: Y = alpha * (X1 + ... + Xn) / n (default alpha 1)."""
    by_count = True


class LinearSum(Sum):
    """Y = alpha * (X1 + ... + Xn) + beta."""

    def __init__(self, alpha, beta):
        self._setup(0.0, alpha, beta)


class LinearMean(LinearSum):
    """Y = alpha * (X1 + ... + Xn) / n + beta."""
    by_count = True


class SqSum(Sum):
    """Y = alpha * (X1^2 + ... + Xn^2) (default alpha 1)."""

    def __init__(self, alpha=1.0):
        self._setup(alpha, 0.0, 0.0)


class SqMean(SqSum):
    """Y = alpha * (X1^2 + ... + Xn^2) / n."""
    by_count = True


class QuadraticSum(Sum):
    """Y = alpha * sum(Xi^2) + beta * sum(Xi) + gamma."""

    def __init__(self, alpha, beta, gamma):
        self._setup(alpha, beta, gamma)


class QuadraticMean(QuadraticSum):
    """Y = (alpha * sum(Xi^2) + beta * sum(Xi)) / n + gamma."""
    by_count = True
