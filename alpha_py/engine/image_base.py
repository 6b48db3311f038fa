"""Engine layer: what every part of v1.2's ImageEngine (eg.img) shares — pixel (uint8) checks, v1.2's byte saturation,
float32 arithmetic as v1.2's CUDA kernels and Java code do it, the in-place rule and java.util.Random's generator.
Imports core.tensor and errors; the math runs on the backend's array module (NumPy or CuPy), one code path for both."""
import math
import os

import numpy as np

from ..core.tensor import Tensor
from ..errors import ArgumentError, ShapeError, fmt_shape


def f32(v):
    """A Java float: the value rounded to float32 (as a NumPy scalar, so arithmetic between two stays float32)."""
    return np.float32(v)


class JavaRandom:
    """java.util.Random's 48-bit linear congruential generator (v1.2 draws its image randomness from one): the same
    seed gives the same nextFloat() stream as Java."""

    _MUL, _ADD, _MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1

    def __init__(self, seed=None):
        self.set_seed(int.from_bytes(os.urandom(6), "little") if seed is None else seed)

    def set_seed(self, seed):
        self._s = (int(seed) ^ self._MUL) & self._MASK
        return self

    def next_bits(self, bits):
        self._s = (self._s * self._MUL + self._ADD) & self._MASK
        return self._s >> (48 - bits)

    def next_float(self):
        """Random.nextFloat(): a float32 in [0, 1) with 24 random bits."""
        return f32(self.next_bits(24) / float(1 << 24))


def fix_byte(v, who, name):
    """A pixel value given as a Java byte (-128..127, read as unsigned) or as 0..255."""
    if isinstance(v, bool) or int(v) != v or not -128 <= int(v) <= 255:
        raise ArgumentError(f"{who}: {name} must be a byte (0..255, or a Java byte -128..127), got {v!r}")
    return int(v) & 0xFF


def ints(v, who, name):
    """An int[] argument (list / tuple / array) -> list of ints; None stays None."""
    if v is None:
        return None
    try:
        out = [int(x) for x in (v.tolist() if hasattr(v, "tolist") else v)]
    except (TypeError, ValueError):
        raise ArgumentError(f"{who}: {name} must be a list of ints, got {v!r}") from None
    if any(o != x for o, x in zip(out, (v.tolist() if hasattr(v, "tolist") else v))):
        raise ArgumentError(f"{who}: {name} must hold ints, got {list(v)}")
    return out


class ImageBase:
    """Shared state and helpers of eg.img: the engine, its array module, checks, v1.2's pixel saturation."""

    def __init__(self, engine):
        self.eg = engine
        self.rand = JavaRandom(getattr(engine, "_java_seed", None))

    def __call__(self):
        """eg.img() is eg.img: v1.2's programs write eg.img.<op>, the facade's guides eg.img().<op>."""
        return self

    @property
    def xp(self):
        return self.eg.backend.xp

    # ------------------------------------------------------------------ checks (v1.2's require_int8 / require_dtype)
    def _pix(self, X, who, name="X"):
        """The uint8 array of a pixel tensor (an int8 tensor's bytes are read as unsigned, as v1.2's kernels do)."""
        if not isinstance(X, Tensor):
            raise ArgumentError(f"ImageEngine.{who}: {name} must be a pixel Tensor, got {type(X).__name__}")
        d = X.data
        if d.dtype == np.uint8:
            return d
        if d.dtype == np.int8:
            return d.view(np.uint8)
        raise ShapeError(f"ImageEngine.{who}: {name} {fmt_shape(X.shape)} holds {d.dtype}, expected pixels (uint8; "
                         f"eg.img().pixels(...) makes them, dtype_to_pixel converts floats)")

    def _flt(self, X, who, name):
        """The float array of a dtype tensor (the engine's float type)."""
        if not isinstance(X, Tensor):
            raise ArgumentError(f"ImageEngine.{who}: {name} must be a Tensor, got {type(X).__name__}")
        d = X.data
        if d.dtype != self.eg.backend.dtype:
            raise ShapeError(f"ImageEngine.{who}: {name} {fmt_shape(X.shape)} holds {d.dtype}, expected the engine's "
                             f"float type {self.eg.backend.dtype}")
        return d

    @staticmethod
    def _ndim_at_least(X, n, who, name="X"):
        if len(X.shape) < n:
            what = " ([N,] H, W, C)" if n == 3 else ""
            raise ShapeError(f"ImageEngine.{who}: {name} {fmt_shape(X.shape)} has {len(X.shape)} dims, expected >= {n}{what}")

    @staticmethod
    def _dims(dims, who):
        """v1.2's int... dim: ints, lists or tuples; at most one -1 (filled in by _size)."""
        if len(dims) == 1 and (isinstance(dims[0], (list, tuple)) or hasattr(dims[0], "tolist")):
            dims = tuple(dims[0].tolist() if hasattr(dims[0], "tolist") else dims[0])
        out = ints(dims, f"ImageEngine.{who}", "dims")
        if any(d <= 0 and d != -1 for d in out) or out.count(-1) > 1:
            raise ShapeError(f"ImageEngine.{who}: dims {out} must be positive (one may be -1)")
        return out

    @staticmethod
    def _size(n, dims, who):
        """v1.2's negative_dim: fill the -1 (or the whole shape when none is given) from the element count."""
        if not dims:
            return (n,)
        if -1 in dims:
            rest = -math.prod(dims)
            if n % rest:
                raise ShapeError(f"ImageEngine.{who}: {n} pixels do not fill dims {dims}")
            dims = [n // rest if d == -1 else d for d in dims]
        if math.prod(dims) != n:
            raise ShapeError(f"ImageEngine.{who}: {n} pixels, dims {fmt_shape(dims)} need {math.prod(dims)}")
        return tuple(dims)

    # ------------------------------------------------------------------ v1.2's arithmetic
    def _f64(self, a):
        return a.astype(np.float64)

    def _round32(self, a):
        """One rounding to float32: what v1.2's kernels get from a fused multiply-add of float32 operands (the
        products and sums are formed exactly enough in float64 first)."""
        return a.astype(np.float32)

    def _saturate(self, f):
        """v1.2's PIXEL_CLIP then float -> uchar: values in (0, 255) truncate toward zero, [255, inf) give 255,
        everything else (<= 0, NaN, +inf, whose 0*inf is NaN in the kernel) gives 0."""
        xp = self.xp
        inside = xp.where((f > 0) & (f < 255), f, 0)
        top = (f >= 255) & (f < np.inf)
        return xp.where(top, 255, inside).astype(np.uint8)

    # ------------------------------------------------------------------ results and v1.2's inplace meaning
    def _put(self, X, inplace, y, who=None):
        """inplace: X takes the result (its dtype and shape may change, as v1.2's copy_memoryMetaData_and_deleteSrc);
        else a new tensor. An int8 X written in place with pixels keeps its int8 view of the same bytes."""
        if not inplace:
            return self.eg.wrap(y)
        if y.dtype == np.uint8 and X.data.dtype == np.int8:
            y = y.view(np.int8)
        X.data = y
        X.node = None
        return X
