"""Engine layer: v1.2's affine image transforms — eg.img().affine / inverse_affine / translate / scale / flips / shear /
rotate (nearest pixel through the inverted matrix, zeros outside), ImageAffiner and RandomImageAffiner. Float
arithmetic is float32 as in v1.2's Java and CUDA code. A mixin of ImageEngine; imports image_base and errors."""
import math

import numpy as np

from ..core.tensor import Tensor
from ..errors import ArgumentError, ShapeError, fmt_shape
from .image_base import ImageBase, f32


def invert_affine_matrix(m00, m01, m02, m10, m11, m12):
    """v1.2's invert_affine_matrix, in float32: the inverse of [[m00, m01, m02], [m10, m11, m12], [0, 0, 1]]."""
    m00, m01, m02, m10, m11, m12 = (f32(v) for v in (m00, m01, m02, m10, m11, m12))
    det = m00 * m11 - m01 * m10
    if abs(det) < np.float32(1.4e-45):
        raise ArgumentError(f"ImageEngine.affine: the matrix [[{m00}, {m01}, {m02}], [{m10}, {m11}, {m12}]] of the "
                            "affine transformation must be invertible (determinant 0)")
    return [m11 / det, -m01 / det, (m01 * m12 - m11 * m02) / det, -m10 / det, m00 / det, (m10 * m02 - m00 * m12) / det]


def default_out_size(IH, IW, m00, m01, m02, m10, m11, m12):
    """v1.2's def_img_affine_outSize: ceil of the largest image of the corners (0,0), (0,IW), (IH,0), (IH,IW)."""
    m00, m01, m02, m10, m11, m12 = (f32(v) for v in (m00, m01, m02, m10, m11, m12))
    ih, iw = f32(IH), f32(IW)
    ow = [m02, m00 * iw + m01 * ih + m02, m00 * iw + m02, m01 * ih + m02]
    oh = [m12, m10 * iw + m11 * ih + m12, m10 * iw + m12, m11 * ih + m12]
    return int(math.ceil(max(oh))), int(math.ceil(max(ow)))


def _floats(who, vals, n):
    if len(vals) != n or any(isinstance(v, (bool, Tensor)) or not isinstance(v, (int, float, np.number)) for v in vals):
        raise ArgumentError(f"ImageEngine.{who}: expected {n} numbers, got {list(vals)!r}")
    return [f32(v) for v in vals]


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


class ImageAffine(ImageBase):
    """affine, inverse_affine, translate, scale, horizontal_flip, vertical_flip, shear, rotate; affine() and
    random_affine() make ImageAffiner / RandomImageAffiner."""

    def _matrix_args(self, who, args):
        """(M[6]) | (OH, OW, M[6]) | (m00..m12) | (OH, OW, m00..m12) -> (OH, OW, six float32)."""
        a = list(args)
        if len(a) in (1, 3) and (a[-1] is None or isinstance(a[-1], (list, tuple)) or hasattr(a[-1], "tolist")):
            M = a.pop()
            if M is None:
                raise ArgumentError(f"ImageEngine.{who}: the matrix for the affine transformation is null")
            M = M.tolist() if hasattr(M, "tolist") else list(M)
            if len(M) != 6:
                raise ArgumentError(f"ImageEngine.{who}: M.length {len(M)} != 6 (m00, m01, m02, m10, m11, m12)")
            a += M
        if len(a) == 6:
            a = [-1, -1] + a
        if len(a) != 8 or not (_is_int(a[0]) and _is_int(a[1])):
            raise ArgumentError(f"ImageEngine.{who}: expected (inplace, X, [OH, OW,] M[6] or m00, m01, m02, m10, m11, "
                                f"m12), got {len(args) + 2} arguments")
        return int(a[0]), int(a[1]), _floats(who, a[2:], 6)

    def affine(self, *args):
        """affine() -> ImageAffiner; affine(inplace, X, [OH, OW,] M | m00..m12): Y[oh, ow] = X[round(R (ow, oh, 1))]
        with R the inverse of M (nearest pixel, zeros outside X). OH/OW -1: v1.2's default size (ceil of the
        transformed corners); 0: X.dim(-2) / X.dim(-1) as v1.2 reads it."""
        if not args:
            return ImageAffiner()
        inplace, X = args[0], args[1]
        OH, OW, m = self._matrix_args("affine", args[2:])
        return self._affine("affine", inplace, X, OH, OW, m, invert_affine_matrix(*m))

    def inverse_affine(self, inplace, X, *args):
        """inverse_affine(inplace, X, [OH, OW,] R | r00..r12): the affine map given by its inverse R (the matrix
        that takes output to input coordinates). v1.2's form without OH, OW passes 12 for r12 (kept)."""
        if len(args) == 6:
            args = tuple(args[:5]) + (12,)
        OH, OW, r = self._matrix_args("inverse_affine", args)
        return self._affine("inverse_affine", inplace, X, OH, OW, invert_affine_matrix(*r) if -1 in (OH, OW) else r, r)

    def _affine(self, who, inplace, X, OH, OW, m, r):
        """m: the matrix v1.2 sizes the default output with; r: the output->input matrix the kernel reads through."""
        x = self._pix(X, who)
        self._ndim_at_least(X, 3, who)
        IH, IW = X.shape[-3], X.shape[-2]
        if OH == 0:
            OH = X.shape[-2]
        if OW == 0:
            OW = X.shape[-1]
        if OH == -1 or OW == -1:
            dh, dw = default_out_size(IH, IW, *m)
            OH, OW = dh if OH == -1 else OH, dw if OW == -1 else OW
        if OH <= 0 or OW <= 0:
            raise ShapeError(f"ImageEngine.{who}: output size [{OH}, {OW}] for X {fmt_shape(X.shape)}, expected positive "
                             "(the transform moves the image out of the positive quadrant)")
        xp = self.xp
        oh = xp.arange(OH, dtype=np.float64).reshape(OH, 1)
        ow = xp.arange(OW, dtype=np.float64).reshape(1, OW)
        r00, r01, r02, r10, r11, r12 = (float(v) for v in r)
        iw = self._lround(self._kernel_fma(r00, ow, r01, oh, r02))
        ih = self._lround(self._kernel_fma(r10, ow, r11, oh, r12))
        inside = (ih >= 0) & (ih < IH) & (iw >= 0) & (iw < IW)
        y = x[..., xp.clip(ih, 0, IH - 1), xp.clip(iw, 0, IW - 1), :]
        y = xp.where(inside[..., None], y, np.uint8(0)).astype(np.uint8)
        return self._put(X, inplace, xp.ascontiguousarray(y))

    @staticmethod
    def _kernel_fma(a, u, b, v, c):
        """v1.2's kernel a*u + b*v + c in float32 as nvcc contracts it: fma(b, v, a*u) + c."""
        au = (a * u).astype(np.float32).astype(np.float64)
        t = (b * v + au).astype(np.float32).astype(np.float64)
        return (t + c).astype(np.float32)

    def _lround(self, v32):
        xp = self.xp
        v = v32.astype(np.float64)
        return xp.where(v >= 0, xp.floor(v + 0.5), xp.ceil(v - 0.5)).astype(np.int64)

    def _out_then(self, who, args, n):
        """([OH, OW,] n numbers) -> (OH, OW, numbers)."""
        if len(args) == n:
            return -1, -1, list(args)
        if len(args) == n + 2 and _is_int(args[0]) and _is_int(args[1]):
            return int(args[0]), int(args[1]), list(args[2:])
        raise ArgumentError(f"ImageEngine.{who}: expected (inplace, X, [OH, OW,] {n} numbers), got {len(args) + 2} arguments")

    def translate(self, inplace, X, *args):
        """translate(inplace, X, [OH, OW,] ty, tx)."""
        OH, OW, (ty, tx) = self._out_then("translate", args, 2)
        return self.affine(inplace, X, OH, OW, 1.0, 0.0, tx, 0.0, 1.0, ty)

    def scale(self, inplace, X, *args):
        """scale(inplace, X, [OH, OW,] sy, sx)."""
        OH, OW, (sy, sx) = self._out_then("scale", args, 2)
        return self.affine(inplace, X, OH, OW, sx, 0.0, 0.0, 0.0, sy, 0.0)

    def horizontal_flip(self, inplace, X, *args):
        """horizontal_flip(inplace, X, [OH, OW]): x -> IW - x (as in v1.2, column 0 reads outside X: it is 0)."""
        OH, OW, _ = self._out_then("horizontal_flip", args, 0)
        return self.affine(inplace, X, OH, OW, -1.0, 0.0, float(X.shape[-2]), 0.0, 1.0, 0.0)

    def vertical_flip(self, inplace, X, *args):
        """vertical_flip(inplace, X, [OH, OW]): y -> IH - y (row 0 is 0, as in v1.2)."""
        OH, OW, _ = self._out_then("vertical_flip", args, 0)
        return self.affine(inplace, X, OH, OW, 1.0, 0.0, 0.0, 0.0, -1.0, float(X.shape[-3]))

    def shear(self, inplace, X, *args):
        """shear(inplace, X, [OH, OW,] shy, shx)."""
        OH, OW, (shy, shx) = self._out_then("shear", args, 2)
        return self.affine(inplace, X, OH, OW, 1.0, shx, 0.0, shy, 1.0, 0.0)

    def rotate(self, inplace, X, *args):
        """rotate(inplace, X, [OH, OW,] theta) about the origin (v1.2 sets m12 = 1 there: kept) |
        rotate(inplace, X, [OH, OW,] theta, cy, cx) about (cy, cx). OH, OW are ints, theta/cy/cx floats."""
        if len(args) in (1, 3) and not (len(args) == 3 and _is_int(args[0]) and _is_int(args[1])):
            OH, OW, rest = -1, -1, list(args)
        elif len(args) in (3, 5) and _is_int(args[0]) and _is_int(args[1]):
            OH, OW, rest = int(args[0]), int(args[1]), list(args[2:])
        else:
            raise ArgumentError(f"ImageEngine.rotate: expected (inplace, X, [OH, OW,] theta[, cy, cx]), got "
                                f"{len(args) + 2} arguments")
        theta = _floats("rotate", rest[:1], 1)[0]
        s, c = f32(math.sin(float(theta))), f32(math.cos(float(theta)))
        if len(rest) == 1:
            return self.affine(inplace, X, OH, OW, c, -s, 0.0, s, c, 1.0)
        cy, cx = _floats("rotate", rest[1:], 2)
        return self.affine(inplace, X, OH, OW, c, -s, c * cx - s * cy - cx, s, c, s * cx + c * cy - cy)

    def random_affine(self):
        return RandomImageAffiner(self)


class ImageAffiner:
    """v1.2's ImageAffiner: a 2x3 matrix M built by chained operations, each one left-multiplied onto M; transform(X)
    applies it (eg.img().affine). Setters/getters m00()...m12(), matrix()."""

    def __init__(self):
        self._m = [f32(1), f32(0), f32(0), f32(0), f32(1), f32(0)]

    def _get_set(self, i, v):
        if v is None:
            return float(self._m[i])
        self._m[i] = f32(v)
        return self

    def m00(self, v=None): return self._get_set(0, v)
    def m01(self, v=None): return self._get_set(1, v)
    def m02(self, v=None): return self._get_set(2, v)
    def m10(self, v=None): return self._get_set(3, v)
    def m11(self, v=None): return self._get_set(4, v)
    def m12(self, v=None): return self._get_set(5, v)

    def matrix(self, *M):
        """matrix() -> [m00, m01, m02, m10, m11, m12]; matrix(M...) sets all six."""
        if not M:
            return [float(v) for v in self._m]
        if len(M) == 1 and (isinstance(M[0], (list, tuple)) or hasattr(M[0], "tolist")):
            M = tuple(M[0])
        if len(M) != 6:
            raise ArgumentError(f"ImageAffiner.matrix: the matrix for image-affine-transformation must have 6 elements, "
                                f"got {len(M)}")
        self._m = [f32(v) for v in M]
        return self

    def append(self, sb):
        """Append toString() to sb (a list of strings or anything with write())."""
        s = str(self)
        sb.append(s) if hasattr(sb, "append") else sb.write(s)
        return sb

    def __str__(self):
        m = [float(v) for v in self._m]
        return f"{type(self).__name__}{{\n[{m[0]}, {m[1]}, {m[2]}]\n[{m[3]}, {m[4]}, {m[5]}]"

    toString = __str__

    def copy(self):
        af = ImageAffiner()
        af._m = list(self._m)
        return af

    def to_indentity(self):
        """v1.2's to_indentity (name kept): m00 = m11 = 1, m01 = m02 = m10 = 0, and m12 = 1 as its source sets it."""
        self._m = [f32(1), f32(0), f32(0), f32(0), f32(1), f32(1)]
        return self

    def translate(self, ty, tx):
        self._m[2] += f32(tx)
        self._m[5] += f32(ty)
        return self

    def scale(self, sy, sx):
        sy, sx = f32(sy), f32(sx)
        self._m = [v * sx for v in self._m[:3]] + [v * sy for v in self._m[3:]]
        return self

    def horizontal_flip(self, width):
        m = self._m
        m[0], m[1], m[2] = -m[0], -m[1], -m[2] + f32(width)
        return self

    def vertical_flip(self, height):
        m = self._m
        m[3], m[4], m[5] = -m[3], -m[4], -m[5] + f32(height)
        return self

    def shear(self, shy, shx):
        shy, shx = f32(shy), f32(shx)
        m00, m01, m02, m10, m11, m12 = self._m
        self._m = [m00 + shx * m10, m01 + shx * m11, m02 + shx * m12, shy * m00 + m10, shy * m01 + m11, shy * m02 + m12]
        return self

    def rotate(self, theta, cy=None, cx=None):
        """rotate(theta) about the origin | rotate(theta, cy, cx) about (cy, cx); in double, stored as float32."""
        t = float(f32(theta))
        s, c = math.sin(t), math.cos(t)
        m00, m01, m02, m10, m11, m12 = (float(v) for v in self._m)
        if cy is None:
            a02 = a12 = 0.0
        else:
            cy, cx = float(f32(cy)), float(f32(cx))
            a02, a12 = c * cx - s * cy - cx, s * cx + c * cy - cy
        self._m = [f32(c * m00 - s * m10), f32(c * m01 - s * m11), f32(c * m02 - s * m12 + a02),
                   f32(s * m00 + c * m10), f32(s * m01 + c * m11), f32(s * m02 + c * m12 + a12)]
        return self

    def invert(self):
        self._m = invert_affine_matrix(*self._m)
        return self

    def transform(self, X, inplace, OH=-1, OW=-1):
        """X.engine.img().affine(inplace, X, OH, OW, this matrix)."""
        return X.engine.img.affine(inplace, X, int(OH), int(OW), *[float(v) for v in self._m])


class RandomImageAffiner(ImageAffiner):
    """v1.2's RandomImageAffiner: ImageAffiner operations with factors drawn from the image engine's generator."""

    def __init__(self, ieg):
        super().__init__()
        self.ieg = ieg

    def _r(self, lo, hi):
        return self.ieg.next_float(lo, hi)

    def random_translate(self, *args):
        """random_translate(move) | (amp, ty, tx): translate by ty, tx times a uniform [-amp, amp)."""
        amp, ty, tx = (1.0, args[0], args[0]) if len(args) == 1 else args
        ty = f32(ty) * self._r(-amp, amp)
        tx = f32(tx) * self._r(-amp, amp)
        return self.translate(ty, tx)

    def random_scale(self, amp, sy=1.0, sx=1.0):
        sy = f32(sy) * (f32(1) + self._r(-amp, amp))
        sx = f32(sx) * (f32(1) + self._r(-amp, amp))
        return self.scale(sy, sx)

    def random_horizontal_flip(self, p, width):
        if self.ieg.next_float() <= f32(p):
            self.horizontal_flip(width)
        return self

    def random_vertical_filp(self, p, height):
        """v1.2's name (sic); random_vertical_flip is the same."""
        if self.ieg.next_float() <= f32(p):
            self.vertical_flip(height)
        return self

    random_vertical_flip = random_vertical_filp

    def random_shear(self, amp, shy=1.0, shx=1.0):
        shy = f32(shy) * self._r(-amp, amp)
        shx = f32(shx) * self._r(-amp, amp)
        return self.shear(shy, shx)

    def random_rotate(self, amp, *args):
        """random_rotate(amp[, theta]) about the origin | random_rotate(amp, [theta,] cy, cx) about (cy, cx)."""
        if len(args) <= 1:
            theta = f32(args[0] if args else 1) * self._r(-amp, amp)
            return self.rotate(theta)
        theta, cy, cx = (1, *args) if len(args) == 2 else args
        theta = f32(theta) * (f32(1) + self._r(-amp, amp))
        cy = f32(cy) * (f32(1) + self._r(-amp, amp))
        cx = f32(cx) * (f32(1) + self._r(-amp, amp))
        return self.rotate(theta, cy, cx)
