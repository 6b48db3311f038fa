"""nn layer: the `_row` forms of the binary units (add_row, sub_row, mul_row, linear2_row, sqadd_row,
sqsub_row, quadratic2_row): X1 is viewed as a [N, M] matrix with M = X2's element count, X2 as a row
applied to every row; the output has X1's shape. Imports binary.py and errors only."""
import math

from ..errors import fmt_shape
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
