"""nn layer: dropout with Dragon-Alpha's keep-probability semantics (the backend's dropout_mask primitive) and
v1.2's bernouliMul (the backend's bernouli_mask). Imports unit.py and errors only."""
import math

from ..errors import ArgumentError
from .unit import Unit


class Dropout(Unit):
    """Training: each element is kept with probability keep_p and scaled by 1/keep_p, else zeroed
    (the mask is saved for backward). Eval mode, or keep_p == 1: identity."""

    def __init__(self, inplace=False, keep_p=0.5):
        super().__init__()
        if isinstance(keep_p, bool) or not isinstance(keep_p, (int, float)) or not (
                math.isfinite(keep_p) and 0.0 < keep_p <= 1.0):
            raise ArgumentError(f"Dropout: keep probability p must lie in (0, 1], got {keep_p!r}")
        self.inplace, self.keep_p = bool(inplace), float(keep_p)

    def _fwd(self, eg, x):
        if not self.training or self.keep_p == 1.0:
            return (x,), None
        mask = eg.backend.dropout_mask(x.shape, self.keep_p)
        return (eg.backend.mul(x, mask),), mask

    def _bwd(self, eg, mask, gys, needs):
        return (gys[0] if mask is None else eg.backend.mul(gys[0], mask),)


class BernouliMul(Unit):
    """v1.2's bernouliMul(p, v1, v2). Training: Y = X * R with R = v1 with probability p, else v2 (R is saved:
    grad_X = grad_Y * R). Eval: Y = X * (v1*p + v2*(1 - p)), R's expectation."""

    def __init__(self, inplace=False, p=0.5, v1=1.0, v2=0.0):
        super().__init__()
        for k, v in (("p", p), ("v1", v1), ("v2", v2)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ArgumentError(f"BernouliMul: {k} must be a finite number, got {v!r}")
        if not 0.0 <= p <= 1.0:
            raise ArgumentError(f"BernouliMul: p must lie in [0, 1], got {p!r}")
        self.inplace, self.p, self.v1, self.v2 = bool(inplace), float(p), float(v1), float(v2)

    def expect(self):
        return self.v1 * self.p + self.v2 * (1.0 - self.p)

    def _fwd(self, eg, x):
        bk = eg.backend
        if not self.training:
            return (bk.linear(x, self.expect(), 0.0),), None
        r = bk.bernouli_mask(x.shape, self.p, self.v1, self.v2)
        return (bk.mul(x, r),), r

    def _bwd(self, eg, r, gys, needs):
        bk = eg.backend
        return (bk.linear(gys[0], self.expect(), 0.0) if r is None else bk.mul(gys[0], r),)
