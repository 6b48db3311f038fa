"""Engine layer: Dragon-Alpha v1.2's Engine-level tensor math, outside autograd — the element-wise functions
(every ops.MATH row and activation: eg.sin(inplace, alpha, X, beta), eg.sadd(inplace, X, C), eg.relu(inplace, X)...),
the straight_ reductions (Results), the field_ (over rows, per column) and row_ (per row) reductions, and the matMul
family (eg.matMul(A, B), eg.batchMatMul([likeA,] A, B), or into C: eg.matMul(C, A, B)). A mixin of Engine; the
math runs through the backend's primitives (math_fwd, act_fwd, sum, matmul_nd). Imports ops, errors and core."""
import math

from ..core.tensor import Tensor
from ..errors import ArgumentError, ShapeError, fmt_shape
from ..ops import ACTIVATIONS, MATH, MATMULS


def _split(who, args):
    """v1.2's (boolean inplace, numbers and exactly one Tensor in any order) -> (inplace, X, numbers)."""
    a = list(args)
    inplace = a.pop(0) if a and isinstance(a[0], bool) else False
    ts = [v for v in a if isinstance(v, Tensor)]
    nums = [v for v in a if not isinstance(v, Tensor)]
    if len(ts) != 1 or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in nums):
        raise ArgumentError(f"Engine.{who}: expected ([inplace,] numbers..., one Tensor), got "
                            f"{[type(v).__name__ for v in args]}")
    return inplace, ts[0], [float(v) for v in nums]


def _math_params(name, nums):
    spec = MATH[name]
    form = next((f for f in spec.forms if len(f) == len(nums)), None)
    if form is None:                       # a shorter v1.2 form: the trailing parameters keep the row's defaults
        form = next((f[:len(nums)] for f in spec.forms if len(f) > len(nums)
                     and all(k in spec.defaults for k in f[len(nums):])), None)
    if form is None:
        raise ArgumentError(f"Engine.{name}: {len(nums)} numbers fit none of "
                            f"{' | '.join('(' + ', '.join(f) + ')' for f in spec.forms)}")
    return dict(spec.defaults, **dict(zip(form, nums)))


def _rows(X, row_length, who):
    n = X.length()
    rl = X.shape[-1] if row_length in (None, -1) else int(row_length)
    if rl <= 0 or n % rl:
        raise ShapeError(f"Engine.{who}: {fmt_shape(X.shape)} has {n} elements, not a multiple of row_length {rl}")
    return X.data.reshape(n // rl, rl)


class EngineMath:
    """eg.<math>(...), eg.<activation>(...), straight_/field_/row_ reductions, matMul family (no autograd)."""

    def _out(self, X, inplace, y):
        if inplace:
            X.data = y.reshape(X.shape)
            return X
        return self.wrap(y.reshape(X.shape))

    def _math(self, name, args):
        inplace, X, nums = _split(name, args)
        return self._out(X, inplace, self.backend.math_fwd(name, X.data, _math_params(name, nums)))

    def _act(self, name, args):
        inplace, X, nums = _split(name, args)
        spec = ACTIVATIONS[name]
        if len(nums) > len(spec.params):
            raise ArgumentError(f"Engine.{name}: at most {len(spec.params)} parameters "
                                f"({', '.join(p.name for p in spec.params) or 'none'}), got {nums}")
        p = [0.0, 0.0]
        for i, (prm, slot) in enumerate(zip(spec.params, spec.slots)):
            v = nums[i] if i < len(nums) else prm.default
            if not math.isfinite(v) or (v <= prm.minimum if prm.open else v < prm.minimum):
                raise ArgumentError(f"Engine.{name}: {prm.what or prm.name} must be a finite number "
                                    f"{'>' if prm.open else '>='} {prm.minimum}, got {v}")
            p[slot - 1] = v
        return self._out(X, inplace, self.backend.act_fwd(name, X.data, p[0], p[1]))

    def softmax(self, *args):
        """softmax([inplace,] X[, features]) over the last dim."""
        inplace, X, nums = _split("softmax", args)
        if nums and nums[0] not in (-1, X.shape[-1]):
            raise ShapeError(f"Engine.softmax: features {int(nums[0])} != last dim of {fmt_shape(X.shape)}")
        return self._out(X, inplace, self.backend.softmax(X.data, axis=-1))

    # ------------------------------------------------------------------ straight_ reductions (Results)
    def straight_linear(self, X, alpha, beta):
        """sum(alpha*X + beta)."""
        b = self.backend
        return self.result(b.linear(b.sum(X.data), alpha, beta * X.length()))

    def straight_quadratic(self, X, alpha, beta, gamma):
        """sum(alpha*X^2 + beta*X + gamma)."""
        b = self.backend
        s2, s1 = b.sum(b.mul(X.data, X.data)), b.sum(X.data)
        return self.result(b.add(b.linear(s2, alpha, gamma * X.length()), b.linear(s1, beta, 0.0)))

    def straight_sqsum(self, X, alpha=1.0):
        return self.straight_quadratic(X, alpha, 0.0, 0.0)

    def straight_sqmean(self, X):
        return self.straight_quadratic(X, 1.0 / max(1, X.length()), 0.0, 0.0)

    def straight_max(self, X):
        return self.result(self.backend.max(X.data))

    def straight_min(self, X):
        return self.result(-self.backend.max(-X.data))

    def _var(self, X):
        b, n = self.backend, max(1, X.length())
        d = b.sub(X.data, b.linear(b.sum(X.data), 1.0 / n, 0.0))
        return b.linear(b.sum(b.mul(d, d)), 1.0 / n, 0.0)

    def straight_var(self, X):
        """The population variance of every element."""
        return self.result(self._var(X))

    def straight_std(self, X):
        """The population standard deviation of every element."""
        return self.result(self.backend.sqrt(self._var(X)))

    # ------------------------------------------------------------------ field_ (per column) / row_ (per row)
    def _field(self, X, row_length, who, fn):
        return self.wrap(fn(_rows(X, row_length, who), 0))

    def _row(self, X, row_length, who, fn):
        return self.wrap(fn(_rows(X, row_length, who), 1))

    def field_sum(self, X, row_length=-1):
        return self._field(X, row_length, "field_sum", lambda a, ax: self.backend.sum(a, axis=ax))

    def field_mean(self, X, row_length=-1):
        return self._field(X, row_length, "field_mean", lambda a, ax: self.backend.mean(a, axis=ax))

    def field_sqsum(self, X, row_length=-1):
        return self._field(X, row_length, "field_sqsum", lambda a, ax: self.backend.sum(a * a, axis=ax))

    def field_sqmean(self, X, row_length=-1):
        return self._field(X, row_length, "field_sqmean", lambda a, ax: self.backend.mean(a * a, axis=ax))

    def field_max(self, X, row_length=-1):
        return self._field(X, row_length, "field_max", lambda a, ax: self.backend.max(a, axis=ax))

    def field_min(self, X, row_length=-1):
        return self._field(X, row_length, "field_min", lambda a, ax: -self.backend.max(-a, axis=ax))

    def field_var(self, unbiased, X, row_length=-1):
        """Per column: the variance ((n-1) divisor when unbiased)."""
        def var(a, ax):
            n = a.shape[ax]
            d = a - a.mean(axis=ax, keepdims=True)
            return (d * d).sum(axis=ax) / max(1, n - 1 if unbiased else n)
        return self._field(X, row_length, "field_var", var)

    def field_std(self, unbiased, X, row_length=-1):
        return self.wrap(self.backend.sqrt(self.field_var(unbiased, X, row_length).data))

    def row_sum(self, X, row_length=-1):
        return self._row(X, row_length, "row_sum", lambda a, ax: self.backend.sum(a, axis=ax))

    def row_mean(self, X, row_length=-1):
        return self._row(X, row_length, "row_mean", lambda a, ax: self.backend.mean(a, axis=ax))

    def row_sqsum(self, X, row_length=-1):
        return self._row(X, row_length, "row_sqsum", lambda a, ax: self.backend.sum(a * a, axis=ax))

    def row_max(self, X, row_length=-1):
        return self._row(X, row_length, "row_max", lambda a, ax: self.backend.max(a, axis=ax))

    def row_min(self, X, row_length=-1):
        return self._row(X, row_length, "row_min", lambda a, ax: -self.backend.max(-a, axis=ax))

    # ------------------------------------------------------------------ BLAS
    def _blas(self, name, args):
        a = list(args)
        like_a = a.pop(0) if a and isinstance(a[0], bool) else True
        if len(a) not in (2, 3) or not all(isinstance(t, Tensor) for t in a):
            raise ArgumentError(f"Engine.{name}: expected ([likeA,] A, B) or (C, A, B), got {[type(v).__name__ for v in args]}")
        C, A, B = (None, *a) if len(a) == 2 else a
        t1, t2, batched = name.endswith("T1"), name.endswith("T2"), name.startswith("batch")
        if not batched and (A.ndim() != 2 or B.ndim() != 2):
            raise ShapeError(f"Engine.{name}: A {fmt_shape(A.shape)} and B {fmt_shape(B.shape)} must be 2D")
        ka = A.shape[-2] if t1 else A.shape[-1]
        kb = B.shape[-1] if t2 else B.shape[-2]
        if ka != kb or (batched and math.prod(A.shape[:-2]) != math.prod(B.shape[:-2])):
            raise ShapeError(f"Engine.{name}: A {fmt_shape(A.shape)} and B {fmt_shape(B.shape)} do not multiply")
        bk = self.backend
        lead = (A.shape if like_a else B.shape)[:-2]
        y = bk.matmul_nd(bk.reshape(A.data, lead + A.shape[-2:]), bk.reshape(B.data, lead + B.shape[-2:]), t1, t2)
        if C is None:
            return self.wrap(y)
        if C.length() != math.prod(y.shape):
            raise ShapeError(f"Engine.{name}: C {fmt_shape(C.shape)} cannot hold the product {fmt_shape(y.shape)}")
        C.data = bk.reshape(y, C.shape)
        return C


for _name in MATH:
    def _m(self, *args, _n=_name):
        return self._math(_n, args)
    _m.__name__, _m.__doc__ = _name, f"v1.2's eg.{_name}([inplace,] params and X in v1.2's order): {MATH[_name].doc}"
    setattr(EngineMath, _name, _m)
for _name in ACTIVATIONS:
    def _a(self, *args, _n=_name):
        return self._act(_n, args)
    _a.__name__, _a.__doc__ = _name, f"v1.2's eg.{_name}([inplace,] X[, params]): {ACTIVATIONS[_name].doc}"
    setattr(EngineMath, _name, _a)
for _name in MATMULS:
    def _b(self, *args, _n=_name):
        return self._blas(_n, args)
    _b.__name__, _b.__doc__ = _name, f"v1.2's eg.{_name}: {MATMULS[_name]}"
    setattr(EngineMath, _name, _b)
