"""nn layer: the `_row` forms of the binary units (add_row, sub_row, mul_row, linear2_row, sqadd_row,
sqsub_row, quadratic2_row): X1 is viewed as a [N, M] matrix with M = X2's element count, X2 as a row
applied to every row; the output has X1's shape. The `_center` forms (linear2_center, quadratic2_center and
add/sub/mul/sqadd/sqsub_center): X1 viewed as [dim0, dim1, dim2], X2 as [dim0, dim2] applied to every
[dim0, ·, dim2] slice (v1.2's linear2_2D_center). Imports binary.py and errors only."""
import math

from ..errors import ArgumentError, fmt_shape
from . import binary


class _Row:
    """Mixin over a binary unit class; the unit's own math (_fwd2/_bwd2) runs on the [N, M] views."""

    def check_inputs(self, xs):
        a, b = xs
        m = math.prod(b.shape)
        if m == 0 or math.prod(a.shape) % m:
            raise self.error(f"inputs {fmt_shape(a.shape)} and {fmt_shape(b.shape)}: X2 is a row of {m} "
                             f"elements, X1's element count must be a multiple of it")

    def _fwd(self, eg, a, b):
        bk, m = eg.backend, math.prod(b.shape)
        n = math.prod(a.shape) // m
        fa, fb = bk.reshape(a, (n, m)), bk.broadcast_to(bk.reshape(b, (1, m)), (n, m))
        ys, ctx = self._fwd2(eg, fa, fb)
        return (bk.reshape(ys[0], a.shape),), (a.shape, b.shape, n, m, ctx)

    def _bwd(self, eg, ctx, gys, needs):
        sa, sb, n, m, inner = ctx
        bk = eg.backend
        ga, gb = self._bwd2(eg, inner, (bk.reshape(gys[0], (n, m)),), needs)
        return (None if ga is None else bk.reshape(ga, sa),
                None if gb is None else bk.reshape(bk.sum(gb, axis=0), sb))


ROW_CLASSES = {}
for _name, _cls in (("add", binary.Add), ("sub", binary.Sub), ("mul", binary.Mul), ("linear2", binary.Linear2),
                    ("sqadd", binary.SqAdd), ("sqsub", binary.SqSub), ("quadratic2", binary.Quadratic2)):
    ROW_CLASSES[f"{_name}_row"] = type(f"{_cls.__name__}Row", (_Row, _cls), {
        "__doc__": f"{_name}_row: {_cls.__doc__} with X2 a row applied to every row of X1.", "__module__": __name__})
    globals()[ROW_CLASSES[f"{_name}_row"].__name__] = ROW_CLASSES[f"{_name}_row"]


class _Center:
    """Mixin over Linear2 / Quadratic2: dim2 (-1: X1's last dim); X1 = [dim0, dim1, dim2] with
    dim0 = len(X2) / dim2, dim1 = len(X1) / len(X2); the output has X1's shape."""

    def __init__(self, dim2=-1, *params):
        super().__init__(True, *params)
        if isinstance(dim2, bool) or int(dim2) != dim2 or (dim2 <= 0 and dim2 != -1):
            raise ArgumentError(f"{type(self).__name__}: dim2 must be a positive int or -1, got {dim2!r}")
        self.dim2 = int(dim2)

    def _dims(self, sa, sb):
        d2 = sa[-1] if self.dim2 == -1 else self.dim2
        la, lb = math.prod(sa), math.prod(sb)
        if lb == 0 or la % lb or lb % d2:
            return None
        return lb // d2, la // lb, d2

    def check_inputs(self, xs):
        a, b = xs
        if self._dims(a.shape, b.shape) is None:
            d2 = a.shape[-1] if self.dim2 == -1 else self.dim2
            raise self.error(f"inputs {fmt_shape(a.shape)} and {fmt_shape(b.shape)}: expected X1 = [dim0, dim1, "
                             f"dim2={d2}] and X2 = [dim0, dim2] (X2's element count a multiple of dim2 and a "
                             f"divisor of X1's)")

    def _fwd(self, eg, a, b):
        bk = eg.backend
        d0, d1, d2 = self._dims(a.shape, b.shape)
        fa = bk.reshape(a, (d0, d1, d2))
        fb = bk.broadcast_to(bk.reshape(b, (d0, 1, d2)), (d0, d1, d2))
        ys, ctx = self._fwd2(eg, fa, fb)
        return (bk.reshape(ys[0], a.shape),), (a.shape, b.shape, (d0, d1, d2), ctx)

    def _bwd(self, eg, ctx, gys, needs):
        sa, sb, dims, inner = ctx
        bk = eg.backend
        ga, gb = self._bwd2(eg, inner, (bk.reshape(gys[0], dims),), needs)
        return (None if ga is None else bk.reshape(ga, sa),
                None if gb is None else bk.reshape(bk.sum(gb, axis=1), sb))


class Linear2Center(_Center, binary.Linear2):
    """linear2_center: Y[d0, d1, d2] = alpha*X1[d0, d1, d2] + beta*X2[d0, d2] + gamma."""


class Quadratic2Center(_Center, binary.Quadratic2):
    """quadratic2_center: Y = k11*X1^2 + k12*X1*X2 + k22*X2^2 + k1*X1 + k2*X2 + C, X2[d0, d2] over every d1."""
