"""Engine layer: v1.2's ImageEngine element-wise math on pixels — pixel <-> dtype conversion, linear / quadratic /
threshold / log / exp with byte saturation, the _row and _field forms, the normalize and dualLinear2 divisions.
A mixin of ImageEngine; imports image_base, core.tensor and errors."""
import numpy as np

from ..core.tensor import Tensor
from ..errors import ArgumentError, ShapeError, fmt_shape
from .image_base import ImageBase, f32, fix_byte


def _nums(who, vals, n):
    if len(vals) != n or any(isinstance(v, (bool, Tensor)) or not isinstance(v, (int, float, np.number)) for v in vals):
        raise ArgumentError(f"ImageEngine.{who}: expected {n} numbers, got {list(vals)!r}")
    return [float(f32(v)) for v in vals]


def _split(who, args, forms):
    """(inplace, numbers and one Tensor at a fixed place) -> (inplace, X, numbers): forms maps the argument count
    after inplace to (index of the Tensor, defaults filler)."""
    if not args or not isinstance(args[0], bool):
        raise ArgumentError(f"ImageEngine.{who}: the first argument is the boolean inplace, got {args[:1]!r}")
    rest = list(args[1:])
    form = forms.get(len(rest))
    if form is None or not isinstance(rest[form[0]], Tensor):
        raise ArgumentError(f"ImageEngine.{who}: arguments {[type(a).__name__ for a in args]} fit none of v1.2's forms")
    X = rest.pop(form[0])
    return args[0], X, form[1](_nums(who, rest, len(rest)))


class ImageMath(ImageBase):
    """eg.img().linear / quadratic / threshold / log / exp / *_row / *_field / normalize_* / dualLinear2_* ..."""

    def _fout(self, y64):
        """A float result in the engine's type (v1.2 computes float32)."""
        dt = self.eg.backend.dtype
        return y64.astype(np.float32).astype(dt, copy=False)

    # ------------------------------------------------------------------ pixel (uint8) <-> dtype
    def pixel_to_dtype(self, inplace, X):
        return self.linear_pixel_to_dtype(inplace, 1.0, X, 0.0)

    def linear_pixel_to_dtype(self, inplace, alpha, X, beta):
        """Y = alpha * X + beta as floats (v1.2's linear2D_pixel_to_dtype); inplace: X becomes that float tensor."""
        alpha, beta = _nums("linear_pixel_to_dtype", [alpha, beta], 2)
        x = self._pix(X, "linear_pixel_to_dtype")
        return self._put(X, inplace, self._fout(self._f64(x) * alpha + beta))

    def dtype_to_pixel(self, inplace, X):
        return self.linear_dtype_to_pixel(inplace, 1.0, X, 0.0)

    def linear_dtype_to_pixel(self, inplace, alpha, X, beta):
        """Y = saturate(alpha * X + beta) as pixels; inplace: X becomes that pixel tensor."""
        alpha, beta = _nums("linear_dtype_to_pixel", [alpha, beta], 2)
        x = self._flt(X, "linear_dtype_to_pixel", "X")
        return self._put(X, inplace, self._saturate(self._round32(self._f64(x) * alpha + beta)))

    # ------------------------------------------------------------------ constants (in place)
    def white(self, X):
        """v1.2's white(X) fills X with 0 (its source swaps white and black: kept, see docs)."""
        return self.constant(X, 0)

    def black(self, X):
        """v1.2's black(X) fills X with 255 (swapped in its source, kept)."""
        return self.constant(X, 255)

    def constant(self, X, value):
        """Fill the pixel tensor X with value clipped to [0, 255]; returns X."""
        x = self._pix(X, "constant")
        v = min(255, max(0, int(value)))
        return self._put(X, True, self.xp.full(x.shape, v, dtype=np.uint8))

    # ------------------------------------------------------------------ linear family (pixels -> pixels)
    def linear(self, inplace, alpha, X, beta):
        """Y = saturate(alpha * X + beta) (v1.2's img_linear2D)."""
        alpha, beta = _nums("linear", [alpha, beta], 2)
        x = self._pix(X, "linear")
        return self._put(X, inplace, self._saturate(self._round32(self._f64(x) * alpha + beta)))

    def sadd(self, inplace, X, C):
        return self.linear(inplace, 1.0, X, C)

    def ssub(self, inplace, X, C):
        return self.linear(inplace, 1.0, X, -f32(C))

    def smul(self, inplace, X, C):
        return self.linear(inplace, C, X, 0.0)

    def sdiv(self, inplace, X, C):
        return self.linear(inplace, f32(1.0) / f32(C), X, 0.0)

    def invert_color(self, inplace, X):
        return self.linear(inplace, -1.0, X, 255.0)

    def square(self, inplace, X):
        return self.quadratic(inplace, X, 1.0, 0.0, 0.0)

    def quadratic(self, inplace, X, alpha, beta, gamma):
        """Y = saturate(alpha * X^2 + beta * X + gamma)."""
        alpha, beta, gamma = _nums("quadratic", [alpha, beta, gamma], 3)
        x = self._f64(self._pix(X, "quadratic"))
        return self._put(X, inplace, self._saturate(self._round32(alpha * x * x + beta * x + gamma)))

    def threshold(self, inplace, X, *args):
        """threshold(inplace, X, v) | (inplace, X, v, v1, v2) | (inplace, X, alpha, v, v1, v2):
        Y = (alpha * X > v ? v1 : v2), v1 = 0 and v2 = 255 unless given (v1.2's order)."""
        if len(args) == 1:
            alpha, v, v1, v2 = 1.0, args[0], 0, 255
        elif len(args) == 3:
            alpha, (v, v1, v2) = 1.0, args
        elif len(args) == 4:
            alpha, v, v1, v2 = args
        else:
            raise ArgumentError(f"ImageEngine.threshold: expected (inplace, X, v), (inplace, X, v, v1, v2) or "
                                f"(inplace, X, alpha, v, v1, v2), got {len(args) + 2} arguments")
        alpha, v = _nums("threshold", [alpha, v], 2)
        v1, v2 = fix_byte(v1, "ImageEngine.threshold", "v1"), fix_byte(v2, "ImageEngine.threshold", "v2")
        x = self._pix(X, "threshold")
        fy = self._round32(self._f64(x) * alpha)
        return self._put(X, inplace, self.xp.where(fy > np.float32(v), v1, v2).astype(np.uint8))

    def log(self, *args):
        """log(inplace, X) | (inplace, alpha, X, beta) | (inplace, C, alpha, X, beta): Y = saturate(C*log(alpha*X + beta))."""
        inplace, X, (C, alpha, beta) = _split("log", args, {1: (0, lambda n: [1.0, 1.0, 0.0]),
                                                             3: (1, lambda n: [1.0] + n), 4: (2, lambda n: n)})
        x = self._f64(self._pix(X, "log"))
        with np.errstate(divide="ignore", invalid="ignore"):
            inner = self._round32(x * alpha + beta)
            y = self._round32(self.xp.log(inner.astype(np.float64)) * C)
        return self._put(X, inplace, self._saturate(y))

    def exp(self, *args):
        """exp(inplace, X) | (inplace, alpha, X, beta) | (inplace, alpha, X, beta, C): Y = saturate(exp(alpha*X + beta) + C)."""
        inplace, X, (alpha, beta, C) = _split("exp", args, {1: (0, lambda n: [1.0, 0.0, 0.0]),
                                                             3: (1, lambda n: n + [0.0]), 4: (1, lambda n: n)})
        x = self._f64(self._pix(X, "exp"))
        with np.errstate(over="ignore"):
            inner = self._round32(x * alpha + beta)
            y = self._round32(self.xp.exp(inner.astype(np.float64)) + C)
        return self._put(X, inplace, self._saturate(y))

    # ------------------------------------------------------------------ broadcasting of v1.2's _row / _field forms
    def _row(self, X, X2, who, n1, n2):
        """X2 repeats along X's rows (X2.lastDim == X.lastDim, X.length % X2.length == 0): (X as [rows, r], X2 as [1, r])."""
        if len(X.shape) < 2:
            raise ShapeError(f"ImageEngine.{who}: {n1} {fmt_shape(X.shape)} needs >= 2 dims")
        n, r = int(np.prod(X.shape)), int(np.prod(X2.shape))
        if X2.shape[-1] != X.shape[-1] or n % r:
            raise ShapeError(f"ImageEngine.{who}: {n2} {fmt_shape(X2.shape)} must repeat along {n1} "
                             f"{fmt_shape(X.shape)} (same last dim, {n1}.length a multiple of {n2}.length)")
        return (lambda a: a.reshape(n // r, r)), (lambda b: b.reshape(1, r))

    def _field(self, X, X2, who, n1, n2):
        """X2 holds one value per block of X's rows (X2.length divides X.length / X.lastDim): ([F, -1], [F, 1])."""
        if len(X.shape) < 2:
            raise ShapeError(f"ImageEngine.{who}: {n1} {fmt_shape(X.shape)} needs >= 2 dims")
        rows, f = int(np.prod(X.shape[:-1])), int(np.prod(X2.shape))
        if rows % f:
            raise ShapeError(f"ImageEngine.{who}: {n2} {fmt_shape(X2.shape)} has {f} values, which must divide the "
                             f"{rows} rows of {n1} {fmt_shape(X.shape)} (one value per field)")
        return (lambda a: a.reshape(f, -1)), (lambda b: b.reshape(f, 1))

    def add_row(self, inplace, X1, X2):
        return self.linear2_row(inplace, X1, X2, 1.0, 1.0, 0.0)

    def sub_row(self, inplace, X1, X2):
        return self.linear2_row(inplace, X1, X2, 1.0, -1.0, 0.0)

    def linear2_row(self, inplace, X1, X2, alpha, beta, gamma):
        """Y = saturate(alpha * X1 + beta * X2 + gamma), pixels X1, float X2 repeated along X1's rows."""
        return self._linear2(inplace, X1, X2, alpha, beta, gamma, "linear2_row", self._row)

    def add_field(self, inplace, X1, X2):
        return self.linear2_field(inplace, X1, X2, 1.0, 1.0, 0.0)

    def sub_field(self, inplace, X1, X2):
        return self.linear2_field(inplace, X1, X2, 1.0, -1.0, 0.0)

    def linear2_field(self, inplace, X1, X2, alpha, beta, gamma):
        """Y = saturate(alpha * X1 + (beta * X2 + gamma)), float X2 one value per field of X1's rows."""
        return self._linear2(inplace, X1, X2, alpha, beta, gamma, "linear2_field", self._field)

    def _linear2(self, inplace, X1, X2, alpha, beta, gamma, who, bc):
        alpha, beta, gamma = _nums(who, [alpha, beta, gamma], 3)
        x1, x2 = self._pix(X1, who, "X1"), self._flt(X2, who, "X2")
        a, b = bc(X1, X2, who, "X1", "X2")
        c = self._round32(self._f64(b(x2)) * beta + gamma)           # v1.2's field kernel forms this term first
        y = self._round32(self._f64(a(x1)) * alpha + c.astype(np.float64))
        return self._put(X1, inplace, self._saturate(y).reshape(x1.shape))

    # ------------------------------------------------------------------ divisions (pixels -> floats)
    def normalize_row(self, inplace, X, X_mean, X_std, eps):
        """(X - mean) / (std + eps), mean and std repeated along X's rows."""
        return self.linear2_div_row(inplace, X, X_mean, X_std, 1.0, -1.0, 0.0, 1.0, eps, 0.0)

    def add_div_row(self, inplace, X, X1, X2):
        return self.linear2_div_row(inplace, X, X1, X2, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0)

    def sub_div_row(self, inplace, X, X1, X2):
        return self.linear2_div_row(inplace, X, X1, X2, 1.0, -1.0, 0.0, 1.0, 0.0, 0.0)

    def linear2_div_row(self, inplace, X, X1, X2, alpha1, beta1, gamma, alpha2, beta2, C):
        """Y = (alpha1*X + beta1*X1 + gamma) / (alpha2*X2 + beta2) + C as floats, X1 and X2 repeated along X's rows."""
        return self._linear2_div(inplace, X, X1, X2, (alpha1, beta1, gamma, alpha2, beta2, C),
                                 "linear2_div_row", self._row)

    def normalize_field(self, inplace, X, X_mean, X_std, eps):
        """(X - mean) / (std + eps), one mean and std per field of X's rows."""
        return self.linear2_div_field(inplace, X, X_mean, X_std, 1.0, -1.0, 0.0, 1.0, eps, 0.0)

    def sub_div_field(self, inplace, X, X1, X2):
        return self.linear2_div_field(inplace, X, X1, X2, 1.0, -1.0, 0.0, 1.0, 0.0, 0.0)

    def add_div_field(self, inplace, X, X1, X2):
        return self.linear2_div_field(inplace, X, X1, X2, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0)

    def linear2_div_field(self, inplace, X, X1, X2, alpha1, beta1, gamma, alpha2, beta2, C):
        """Y = (alpha1*X + beta1*X1 + gamma) / (alpha2*X2 + beta2) + C as floats, X1 and X2 one value per field."""
        return self._linear2_div(inplace, X, X1, X2, (alpha1, beta1, gamma, alpha2, beta2, C),
                                 "linear2_div_field", self._field)

    def _linear2_div(self, inplace, X, X1, X2, params, who, bc):
        a1, b1, g, a2, b2, C = _nums(who, list(params), 6)
        x, x1, x2 = self._pix(X, who), self._flt(X1, who, "X1"), self._flt(X2, who, "X2")
        a, b = bc(X, X1, who, "X", "X1")
        a_, b2_ = bc(X, X2, who, "X", "X2")
        with np.errstate(divide="ignore", invalid="ignore"):
            y = (a(self._f64(x)) * a1 + b(self._f64(x1)) * b1 + g) / (b2_(self._f64(x2)) * a2 + b2) + C
        return self._put(X, inplace, self._fout(y).reshape(x.shape))

    def reflection_normalize(self, inplace, X, white, black):
        """(X - black) / (white - black) as floats. As in v1.2 it calls dualLinear2_div(inplace, black, X, white, ...):
        with inplace, `black` is the tensor that becomes the result."""
        return self.dualLinear2_div(inplace, black, X, white, -1.0, 1.0, 0.0, -1.0, 1.0, 0.0, 0.0)

    def dualLinear2_div(self, inplace, X, X1, X2, alpha1, beta1, gamma1, alpha2, beta2, gamma2, C):
        """Y = (alpha1*X + beta1*X1 + gamma1) / (alpha2*X + beta2*X2 + gamma2) + C, three pixel tensors of one shape."""
        who = "dualLinear2_div"
        a1, b1, g1, a2, b2, g2, C = _nums(who, [alpha1, beta1, gamma1, alpha2, beta2, gamma2, C], 7)
        x, x1, x2 = (self._f64(self._pix(T, who, n)) for T, n in ((X, "X"), (X1, "X1"), (X2, "X2")))
        for T, n in ((X1, "X1"), (X2, "X2")):
            if T.shape[-1] != X.shape[-1] or int(np.prod(T.shape)) != int(np.prod(X.shape)):
                raise ShapeError(f"ImageEngine.{who}: {n} {fmt_shape(T.shape)} must have the length and last dim "
                                 f"of X {fmt_shape(X.shape)}")
        x1, x2 = x1.reshape(x.shape), x2.reshape(x.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            y = (a1 * x + b1 * x1 + g1) / (a2 * x + b2 * x2 + g2) + C
        return self._put(X, inplace, self._fout(y))

    def dualLinear2_normalize_row(self, inplace, X, X1, X2, alpha1, beta1, gamma1, alpha2, beta2, gamma2, C):
        """Y = (alpha1*X + beta1*X1 + gamma1) / (alpha2*X1 + beta2*X2 + gamma2) + C, pixels X, floats X1, X2 of X's
        length and last dim (v1.2 checks equal value structures)."""
        who = "dualLinear2_normalize_row"
        a1, b1, g1, a2, b2, g2, C = _nums(who, [alpha1, beta1, gamma1, alpha2, beta2, gamma2, C], 7)
        x = self._f64(self._pix(X, who))
        x1, x2 = self._flt(X1, who, "X1"), self._flt(X2, who, "X2")
        for T, n in ((X1, "X1"), (X2, "X2")):
            if T.shape[-1] != X.shape[-1] or int(np.prod(T.shape)) != int(np.prod(X.shape)):
                raise ShapeError(f"ImageEngine.{who}: {n} {fmt_shape(T.shape)} must have the length and last dim "
                                 f"of X {fmt_shape(X.shape)}")
        x1, x2 = self._f64(x1).reshape(x.shape), self._f64(x2).reshape(x.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            y = (a1 * x + b1 * x1 + g1) / (a2 * x1 + b2 * x2 + g2) + C
        return self._put(X, inplace, self._fout(y))

    def reflection_normalize_center(self, inplace, X, white, black):
        """(X - black) / (white - black), white and black [dim0, dim2] for X [dim0, dim1, dim2] (v1.2's _center)."""
        return self.dualLinear2_normalize_center(inplace, X, black, white, 1.0, -1.0, 0.0, -1.0, 1.0, 0.0, 0.0)

    def dualLinear2_normalize_center(self, inplace, X, X1, X2, *args):
        """(inplace, X, X1, X2, [dim2,] alpha1, beta1, gamma1, alpha2, beta2, gamma2, C):
        Y[d0,d1,d2] = (alpha1*X + beta1*X1[d0,d2] + gamma1) / (alpha2*X1[d0,d2] + beta2*X2[d0,d2] + gamma2) + C."""
        who = "dualLinear2_normalize_center"
        if len(args) == 8:
            dim2, args = args[0], args[1:]
        elif len(args) == 7:
            dim2 = -1
        else:
            raise ArgumentError(f"ImageEngine.{who}: expected (inplace, X, X1, X2, [dim2,] 7 numbers), got "
                                f"{len(args) + 4} arguments")
        a1, b1, g1, a2, b2, g2, C = _nums(who, list(args), 7)
        x = self._f64(self._pix(X, who))
        x1, x2 = self._flt(X1, who, "X1"), self._flt(X2, who, "X2")
        dim2 = X.shape[-1] if int(dim2) == -1 else int(dim2)
        n, n1 = int(np.prod(X.shape)), int(np.prod(X1.shape))
        if (len(X.shape) < 3 or len(X1.shape) < 2 or X1.shape != X2.shape or X1.shape[-1] != X.shape[-1]
                or n % n1 or dim2 <= 0 or n1 % dim2):
            raise ShapeError(f"ImageEngine.{who}: X {fmt_shape(X.shape)} must be [dim0, dim1, dim2] (>= 3 dims) and "
                             f"X1 {fmt_shape(X1.shape)}, X2 {fmt_shape(X2.shape)} [dim0, dim2] (same shape, same last "
                             f"dim, dim2 = {dim2})")
        dim0 = n1 // dim2
        xv = x.reshape(dim0, n // n1, dim2)
        c1, c2 = self._f64(x1).reshape(dim0, 1, dim2), self._f64(x2).reshape(dim0, 1, dim2)
        with np.errstate(divide="ignore", invalid="ignore"):
            y = (a1 * xv + b1 * c1 + g1) / (a2 * c1 + b2 * c2 + g2) + C
        return self._put(X, inplace, self._fout(y).reshape(X.shape))
