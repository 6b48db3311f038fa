"""nn layer: dropout with Dragon-Alpha's keep-probability semantics, over the backend's
dropout_mask primitive. Imports unit.py and errors only."""
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
