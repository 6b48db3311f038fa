"""nn layer: Dragon-Alpha's element-wise math units (one class per alpha_py.ops.MATH row: Abs, Sin, Clip ...),
rot180 and the matMul family (matMul, matMulT1/T2, batchMatMul, batchMatMulT1/T2). Imports unit.py, ops, params
and errors."""
import math

from ..errors import ArgumentError, fmt_shape
from ..ops import MATH, MATMULS
from ..params import AlphaParam
from .unit import Unit


class MathUnit(Unit):
    """Element-wise math `op` (an ops.MATH name): Unit(inplace=False, *params), the params in one of the
    row's forms (by count); they reach backend.math_fwd/math_bwd by name."""

    op = None

    def __init__(self, inplace=False, *params):
        super().__init__()
        who, spec = type(self).__name__, MATH[self.op]
        form = next((f for f in spec.forms if len(f) == len(params)), None)
        if form is None:
            forms = " | ".join("(" + ", ".join(f) + ")" for f in spec.forms)
            raise ArgumentError(f"{who}: expected ([inplace,] params) with params one of {forms}, got {list(params)}")
        for k, v in zip(form, params):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ArgumentError(f"{who}: {k} must be a finite number, got {v!r}")
        self.p = dict(spec.defaults, **{k: float(v) for k, v in zip(form, params)})
        if self.op == "sdiv" and self.p["C"] == 0:
            raise ArgumentError(f"{who}: C must not be 0")
        if self.op == "clip" and self.p["vmin"] > self.p["vmax"]:
            raise ArgumentError(f"{who}: vmin {self.p['vmin']} > vmax {self.p['vmax']}")
        self.inplace = bool(inplace)

    def _fwd(self, eg, x):
        y = eg.backend.math_fwd(self.op, x, self.p)
        return (y,), (x, y)

    def _bwd(self, eg, ctx, gys, needs):
        x, y = ctx
        return (eg.backend.math_bwd(self.op, gys[0], x, y, self.p),)


MATH_CLASSES = {name: type(spec.unit, (MathUnit,), {"op": name, "__doc__": spec.doc, "__module__": __name__})
                for name, spec in MATH.items()}
globals().update({cls.__name__: cls for cls in MATH_CLASSES.values()})


class Rot180(Unit):
    """Rotate every feature map 180 degrees (NHWC: reverse H and W; any [N, spatial..., C] with a spatial dim)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = bool(inplace)

    def check_inputs(self, xs):
        if xs[0].ndim() < 3:
            raise self.error(f"input {fmt_shape(xs[0].shape)}: expected [N, spatial..., C] (3D or more)")

    def _fwd(self, eg, x):
        return (eg.backend.rot180(x),), None

    def _bwd(self, eg, ctx, gys, needs):
        return (eg.backend.rot180(gys[0]),)


class MatMul(Unit):
    """matMul family: Y = op(X1) @ op(X2) over the last two dims (op = transpose for T1 on X1, T2 on X2).
    matMul* take 2D inputs; batchMatMul* take [batch..., N, K] inputs with equal batch dims (likeX1: the
    output takes X1's batch dims, else X2's; the other's batch dims must have as many elements)."""

    n_inputs = 2
    t1 = t2 = batched = False

    def __init__(self, likeX1=None):
        super().__init__()
        likeX1 = AlphaParam.dl_likeX1 if likeX1 is None else likeX1      # v1.2's batchMatMul*() default
        if not isinstance(likeX1, bool):
            raise ArgumentError(f"{type(self).__name__}: likeX1 must be a bool, got {likeX1!r}")
        self.likeX1 = likeX1

    def _dims(self, s1, s2):
        (n, k1) = (s1[-1], s1[-2]) if self.t1 else (s1[-2], s1[-1])
        (k2, m) = (s2[-1], s2[-2]) if self.t2 else (s2[-2], s2[-1])
        return n, k1, k2, m

    def check_inputs(self, xs):
        a, b = xs
        r = 3 if self.batched else 2
        ok = (a.ndim() >= r and b.ndim() >= r) if self.batched else (a.ndim() == 2 and b.ndim() == 2)
        if not ok:
            raise self.error(f"inputs {fmt_shape(a.shape)} and {fmt_shape(b.shape)}: expected "
                             f"{'[batch..., rows, cols] (3D or more)' if self.batched else '2D'} operands")
        n, k1, k2, m = self._dims(a.shape, b.shape)
        if k1 != k2:
            raise self.error(f"inputs {fmt_shape(a.shape)} and {fmt_shape(b.shape)}: inner dims {k1} and {k2} differ")
        if self.batched and math.prod(a.shape[:-2]) != math.prod(b.shape[:-2]):
            raise self.error(f"inputs {fmt_shape(a.shape)} and {fmt_shape(b.shape)}: batch dims differ")

    def _fwd(self, eg, a, b):
        bk = eg.backend
        lead = a.shape[:-2] if self.likeX1 else b.shape[:-2]
        a2, b2 = bk.reshape(a, lead + a.shape[-2:]), bk.reshape(b, lead + b.shape[-2:])
        return (bk.matmul_nd(a2, b2, self.t1, self.t2),), (a2, b2, a.shape, b.shape)

    def _bwd(self, eg, ctx, gys, needs):
        a, b, sa, sb = ctx
        bk, g = eg.backend, gys[0]
        if self.t1:
            ga = bk.matmul_nd(b, g, False, True) if needs[0] else None           # X1 = A: dA = B gY^T
            gb = bk.matmul_nd(a, g) if needs[1] else None                        # dB = A gY
        elif self.t2:
            ga = bk.matmul_nd(g, b) if needs[0] else None                        # dA = gY B
            gb = bk.matmul_nd(g, a, True, False) if needs[1] else None           # dB = gY^T A
        else:
            ga = bk.matmul_nd(g, b, False, True) if needs[0] else None           # dA = gY B^T
            gb = bk.matmul_nd(a, g, True, False) if needs[1] else None           # dB = A^T gY
        return (None if ga is None else bk.reshape(ga, sa), None if gb is None else bk.reshape(gb, sb))


def _matmul_class(name):
    flags = {"t1": name.endswith("T1"), "t2": name.endswith("T2"), "batched": name.startswith("batch"),
             "__doc__": MATMULS[name] + ".", "__module__": __name__}
    return type(name[0].upper() + name[1:], (MatMul,), flags)


MATMUL_CLASSES = {name: _matmul_class(name) for name in MATMULS}
