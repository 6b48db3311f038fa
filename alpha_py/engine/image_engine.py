"""Engine layer: eg.img() — Dragon-Alpha v1.2's ImageEngine over pixel (uint8) tensors [N?, H, W, C]: making and
reading pixels, files (raw and zipped), colour adjustment and jitter, random expand/crop; the math, geometry and
affine families come from the mixins beside it. No autograd (as in v1.2). Imports its mixins, core and errors."""
import contextlib
import functools
import io
import math
import zipfile

import numpy as np

from ..core.tensor import Tensor
from ..errors import ArgumentError, DataError, ShapeError, fmt_shape
from .image_affine import ImageAffine, ImageAffiner, RandomImageAffiner
from .image_base import f32, ints
from .image_geometry import ImageGeometry, _head_positive
from .image_math import ImageMath

__all__ = ["ImageEngine", "ImageAffiner", "RandomImageAffiner"]


def _host_bytes(data, who):
    """Host pixel data -> flat uint8 array: bytes / bytearray, arrays (int8 read as unsigned), nested lists of
    0..255 or Java bytes -128..127."""
    if isinstance(data, Tensor):
        raise ArgumentError(f"ImageEngine.{who}: expected host pixel data, got a Tensor")
    if isinstance(data, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(data), dtype=np.uint8)
    arr = np.asarray(data)
    if arr.dtype == np.uint8:
        return arr.reshape(-1)
    if arr.dtype == np.int8:
        return arr.reshape(-1).view(np.uint8)
    if arr.dtype.kind not in "iu" or arr.size and (arr.min() < -128 or arr.max() > 255):
        raise ArgumentError(f"ImageEngine.{who}: pixels must be bytes (0..255, or Java bytes -128..127), got "
                            f"{arr.dtype} values" + (f" in [{arr.min()}, {arr.max()}]" if arr.size else ""))
    return (arr.reshape(-1).astype(np.int64) & 0xFF).astype(np.uint8)


class ImageEngine(ImageAffine, ImageGeometry, ImageMath):
    """v1.2's `eg.img`: the image engine of one Engine (eg.img and eg.img() are the same object)."""

    # ------------------------------------------------------------------ making pixel tensors
    def pixels(self, data, *dims):
        """A pixel tensor from host bytes (bytes, byte arrays, lists of 0..255), shaped dims (one may be -1)."""
        arr = _host_bytes(data, "pixels")
        shape = self._size(arr.size, self._dims(dims, "pixels"), "pixels")
        if arr.size == 0:
            raise ShapeError("ImageEngine.pixels: empty pixel data")
        return self.eg.wrap(self.eg.backend.from_host(arr.reshape(shape), dtype=np.uint8))

    def tensor(self, *args):
        """tensor(pixels, dims...) | tensor(alpha, pixels, beta, dims...): floats alpha * pixels + beta."""
        if args and isinstance(args[0], (int, float, np.number)) and not isinstance(args[0], bool):
            if len(args) < 3:
                raise ArgumentError("ImageEngine.tensor: expected (alpha, pixels, beta, dims...)")
            alpha, data, beta, dims = args[0], args[1], args[2], args[3:]
        elif args:
            alpha, data, beta, dims = 1.0, args[0], 0.0, args[1:]
        else:
            raise ArgumentError("ImageEngine.tensor: expected (pixels, dims...) or (alpha, pixels, beta, dims...)")
        return self.linear_pixel_to_dtype(True, alpha, self.pixels(data, *dims), beta)

    def _fill(self, value, dims, who):
        shape = tuple(self._dims(dims, who))
        if not shape or -1 in shape:
            raise ShapeError(f"ImageEngine.{who}: dims {list(shape)} must be given and positive")
        return self.eg.wrap(self.xp.full(shape, value, dtype=np.uint8))

    def blacks(self, *dims):
        return self._fill(0, dims, "blacks")

    def blacks_like(self, X):
        return self._fill(0, X.shape, "blacks_like")

    def whites(self, *dims):
        return self._fill(255, dims, "whites")

    def whites_like(self, X):
        return self._fill(255, X.shape, "whites_like")

    def constants(self, value, *dims):
        """A pixel tensor of value clipped to [0, 255]."""
        return self._fill(min(255, max(0, int(value))), dims, "constants")

    def constants_like(self, value, X):
        return self._fill(min(255, max(0, int(value))), X.shape, "constants_like")

    # ------------------------------------------------------------------ reading pixels back
    def pixel(self, X):
        """The pixels of X as a flat host uint8 array (v1.2's byte[], read unsigned)."""
        return self.eg.backend.to_host(self._pix(X, "pixel").reshape(-1)).copy()

    def pixel_channel_split(self, X):
        """[C][H*W] host arrays: one per channel of an [H, W, C] pixel tensor."""
        self._ndim_at_least(X, 3, "pixel_channel_split")
        H, W, C = X.shape[:3]
        p = self.pixel(X)
        if p.size != H * W * C:
            raise ShapeError(f"ImageEngine.pixel_channel_split: X {fmt_shape(X.shape)} has {p.size} pixels, not "
                             f"IH * IW * IC = {H} * {W} * {C} (an [H, W, C] image)")
        return [p.reshape(H * W, C)[:, c].copy() for c in range(C)]

    # ------------------------------------------------------------------ files
    def read_pixels(self, path, *dims):
        """read_pixels(path, IH, IW, IC): the raw bytes of a file as an [IH, IW, IC] pixel tensor."""
        d = self._dims(dims, "read_pixels")
        if len(d) < 3:
            raise ArgumentError(f"ImageEngine.read_pixels: expected dims IH, IW, IC, got {d}")
        with open(str(path), "rb") as f:
            return self.pixels(f.read(), *d[:3])

    def write_pixels(self, path, X):
        """The pixels of X (row-major, no header) into a file."""
        with open(str(path), "wb") as f:
            f.write(self.pixel(X).tobytes())

    def write_zip_pixels(self, path, X, zip_level=-1, charset=None):
        """v1.2's zipped pixels: a zip with entry "dim" ("3,4,5") and entry "pixel" (the bytes); zip_level -1 means
        Deflater.BEST_SPEED (1). charset names the zip's name encoding in v1.2 (ASCII names here: accepted, unused)."""
        level = 1 if int(zip_level) == -1 else int(zip_level)
        if not 0 <= level <= 9:
            raise ArgumentError(f"ImageEngine.write_zip_pixels: zip_level {zip_level} must be -1 or in [0, 9]")
        px = self.pixel(X)
        with zipfile.ZipFile(str(path), "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
            z.writestr("dim", ",".join(str(int(d)) for d in X.shape))
            z.writestr("pixel", px.tobytes())

    def read_zip_pixels(self, path, charset=None):
        """A pixel tensor from v1.2's zipped pixels (entries "dim" and "pixel")."""
        try:
            with zipfile.ZipFile(str(path)) as z:
                names = set(z.namelist())
                for key in ("dim", "pixel"):
                    if key not in names:
                        raise DataError(f"ImageEngine.read_zip_pixels: {path}: there is no {key} entry")
                line = io.TextIOWrapper(z.open("dim"), encoding="utf-8").readline().strip()
                dims = [int(t) for t in line.split(",")]
                data = z.read("pixel")
        except zipfile.BadZipFile as e:
            raise DataError(f"ImageEngine.read_zip_pixels: {path} is not a zip file ({e})") from None
        if len(data) < math.prod(dims):
            raise DataError(f"ImageEngine.read_zip_pixels: {path}: {len(data)} pixel bytes, dim {dims} needs "
                            f"{math.prod(dims)}")
        return self.pixels(data[:math.prod(dims)], *dims)

    def read_raw_bil_dtype12(self, src, *dims):
        """A 12-bit band-interleaved-by-line cube (little-endian pairs, value >> 4) from a file path, bytes or a byte tensor:
        [IW * IC, IH] transposed to [IH, IW, IC] (v1.2's hyper-spectral reader)."""
        d = self._dims(dims, "read_raw_bil_dtype12")
        if len(d) != 3:
            raise ArgumentError(f"ImageEngine.read_raw_bil_dtype12: expected IH, IW, IC, got {d}")
        IH, IW, IC = d
        if isinstance(src, Tensor):                      # the Java facade sends byte[] as a pixel tensor
            raw = self.pixel(src).tobytes()
        elif isinstance(src, (bytes, bytearray)):
            raw = bytes(src)
        else:
            with open(str(src), "rb") as f:
                raw = f.read()
        if len(raw) % 2:
            raise DataError(f"ImageEngine.read_raw_bil_dtype12: {len(raw)} bytes, an even count expected")
        v = np.frombuffer(raw, dtype="<u2")
        px = ((v.astype(np.int64) >> 4) & 0xFF).astype(np.uint8)
        X = self.pixels(px, IW * IC, IH)
        return self.pixels(self.pixel(self.transpose(False, X, 0, 1)), IH, IW, IC)

    # ------------------------------------------------------------------ displayable images (Java: java.awt.BufferedImage)
    def _rgb(self, X, c, who):
        """[H, W, 3] host bytes of an [H, W, C] pixel tensor's channels c (X's own when C == 3)."""
        if len(X.shape) != 3:
            raise ShapeError(f"ImageEngine.{who}: X {fmt_shape(X.shape)} must be [H, W, C]")
        x = self.eg.backend.to_host(self._pix(X, who))
        return x.copy() if X.shape[-1] == 3 else self.eg.backend.to_host(self.extract_3channels(False, X, *c).data)

    def _many(self, args, fn, default):
        """(X) | (X, c0, c1, c2) -> one image; (X...) | ([X...], c0, c1, c2) -> a list."""
        if len(args) == 4 and isinstance(args[0], (list, tuple)):
            return [fn(t, args[1:]) for t in args[0]]
        if len(args) == 4 and isinstance(args[0], Tensor) and not isinstance(args[1], Tensor):
            return fn(args[0], args[1:])
        ts = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        out = [fn(t, default) for t in ts]
        return out[0] if len(args) == 1 and isinstance(args[0], Tensor) else out

    def BGR(self, *args):
        """BGR(X[, blue, green, red]) | BGR(X...): the image Java's BGR BufferedImage shows, as an [H, W, 3] RGB host
        array (X's channels read as B, G, R; channel_blue/green/red picked when C != 3)."""
        return self._many(args, lambda X, c: self._rgb(X, c, "BGR")[..., ::-1].copy(),
                          (self._blue, self._green, self._red))

    def RGB(self, *args):
        """RGB(X[, red, green, blue]) | RGB(X...): the image Java's RGB BufferedImage shows, as an [H, W, 3] host array.
        As v1.2, the list form passes channel_blue, green, red as red, green, blue."""
        multi = (self._blue, self._green, self._red)
        one = (self._red, self._green, self._blue)
        default = one if len(args) == 1 and isinstance(args[0], Tensor) else multi
        return self._many(args, lambda X, c: self._rgb(X, c, "RGB"), default)

    def _gray_bytes(self, X, who):
        if len(X.shape) not in (2, 3):
            raise ShapeError(f"ImageEngine.{who}: X {fmt_shape(X.shape)} must be [H, W] or [H, W, C]")
        x = self._pix(X, who)
        if len(X.shape) == 2:
            return self.eg.backend.to_host(x).copy()
        g = self._saturate(self._gray(x).astype(np.float32))        # v1.2: row_mean of the floats, dtype_to_pixel
        return self.eg.backend.to_host(g).reshape(X.shape[:2])

    @staticmethod
    def _colored(g, black, white):
        """v1.2's gray(pixel, IH, IW, black, white): each byte between two (r, g, b) colours, as [H, W, 3] RGB."""
        v1 = g.astype(np.float32) / np.float32(255.0)
        v0 = np.float32(1.0) - v1
        cols = [np.minimum(255, (v1 * np.float32(w) + v0 * np.float32(b)).astype(np.int64)) for b, w in zip(black, white)]
        return np.stack(cols, axis=-1).astype(np.uint8)

    def gray(self, *args):
        """gray(X) -> [H, W] host bytes (an [H, W, C] tensor's channel mean); gray(X, black, white) -> [H, W, 3] RGB
        between two (r, g, b) colours; gray(X...) -> a list."""
        if len(args) == 3 and isinstance(args[0], Tensor) and not isinstance(args[1], Tensor):
            return self._colored(self._gray_bytes(args[0], "gray"), args[1], args[2])
        ts = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        out = [self._gray_bytes(t, "gray") for t in ts]
        return out[0] if len(args) == 1 and isinstance(args[0], Tensor) else out

    def channel_graphics(self, X, black, white):
        """One [H, W, 3] RGB host image per channel of an [H, W, C] pixel tensor, between two (r, g, b) colours."""
        return [self._colored(c.reshape(X.shape[0], X.shape[1]), black, white) for c in self.pixel_channel_split(X)]

    # ------------------------------------------------------------------ colour adjustment
    def _copy(self, X, inplace):
        x = self._pix(X, "adjust")
        return X if inplace else self.eg.wrap(x.copy())

    def _gray(self, x):
        """v1.2's eg.row_mean of the float pixels over channels: one float32 value per pixel."""
        C = x.shape[-1]
        s = x.reshape(-1, C).astype(np.float32).sum(axis=1, dtype=np.float32)
        return s * np.float32(1.0 / C)

    def adjust_brightness(self, inplace, X, factor):
        """Y = saturate(X + 255 * factor): -1 black, 0 unchanged, 1 white."""
        self._pix(X, "adjust_brightness")
        if f32(factor) == 0:
            return self._copy(X, inplace)
        return self.linear(inplace, 1.0, X, f32(factor) * f32(255))

    def adjust_saturation(self, inplace, X, factor):
        """Y = saturate((1 + factor) * X - factor * gray), gray the pixel's mean over channels: -1 gray, 0 unchanged."""
        x = self._pix(X, "adjust_saturation")
        if f32(factor) == 0:
            return self._copy(X, inplace)
        return self._dual_field(X, inplace, x, f32(1) + f32(factor), -f32(factor), f32(0))

    def adjust_constrast(self, inplace, X, factor):
        """v1.2's adjust_constrast (name kept): Y = saturate((1 + f) * X + mean * (1 - sqrt(1 + f))), mean over X."""
        x = self._pix(X, "adjust_constrast")
        f = f32(factor)
        if f == 0:
            return self._copy(X, inplace)
        mean = self._mean(x)
        beta = f32(float(mean) * (1 - math.sqrt(float(f + f32(1)))))
        return self.linear(inplace, f + f32(1), X, beta)

    adjust_contrast = adjust_constrast

    def _mean(self, x):
        return f32(float(x.astype(np.float64).mean()))

    def adjust_color(self, inplace, X, brightness, saturation, contrast):
        """Brightness, saturation and contrast in one pass (v1.2's formula: alpha = (1 + s)(1 + c),
        beta = -s(1 + c), gamma = 255 b alpha + mean (1 - sqrt(1 + c)); Y = saturate(alpha X + beta gray + gamma))."""
        x = self._pix(X, "adjust_color")
        b, s, c = f32(brightness), f32(saturation), f32(contrast)
        if b == 0 and s == 0 and c == 0:
            return self._copy(X, inplace)
        if s == 0 and c == 0:
            return self.adjust_brightness(inplace, X, b)
        if b == 0 and c == 0:
            return self.adjust_saturation(inplace, X, s)
        if b == 0 and s == 0:
            return self.adjust_constrast(inplace, X, c)
        alpha = (f32(1) + s) * (f32(1) + c)
        beta = -s * (f32(1) + c)
        mean = f32(0) if c == 0 else self._mean(x)
        gamma = f32(float(f32(255) * b * alpha) + float(mean) * (1 - math.sqrt(float(f32(1) + c))))
        return self._dual_field(X, inplace, x, alpha, beta, gamma)

    def _dual_field(self, X, inplace, x, alpha, beta, gamma):
        """v1.2's img_linear_dual2D_field with X2 = gray: C = gray * beta + gamma per pixel, Y = saturate(alpha X + C)."""
        C = x.shape[-1]
        cterm = self._round32(self._gray(x).astype(np.float64) * float(beta) + float(gamma)).reshape(-1, 1)
        y = self._round32(x.reshape(-1, C).astype(np.float64) * float(alpha) + cterm.astype(np.float64))
        return self._put(X, inplace, self._saturate(y).reshape(x.shape))

    # ------------------------------------------------------------------ randomness (java.util.Random's stream)
    def set_seed(self, seed):
        """Seeds the engine (eg.set_seed) and so this generator, as v1.2's img.set_seed does."""
        self.eg.set_seed(seed)
        self.rand.set_seed(seed)
        return self

    def next_float(self, lo=None, hi=None):
        """nextFloat() in [0, 1), or (hi - lo) * nextFloat() + lo, in float32 as v1.2 computes it."""
        r = self.rand.next_float()
        return r if lo is None else (f32(hi) - f32(lo)) * r + f32(lo)

    def jit_brightness(self, amp, inplace, X, factor):
        return self.adjust_brightness(inplace, X, f32(factor) + self.next_float(-amp, amp))

    def jit_saturation(self, amp, inplace, X, factor):
        return self.adjust_saturation(inplace, X, f32(factor) + self.next_float(-amp, amp))

    def jit_constrast(self, amp, inplace, X, factor):
        return self.adjust_constrast(inplace, X, f32(factor) + self.next_float(-amp, amp))

    jit_contrast = jit_constrast

    def jit_color(self, amp, inplace, X, brightness=0.0, saturation=0.0, contrast=0.0):
        """jit_color(amp | amp[3], inplace, X[, brightness, saturation, contrast]): each factor plus uniform noise."""
        if isinstance(amp, (list, tuple)) or hasattr(amp, "tolist"):
            amp = list(amp.tolist() if hasattr(amp, "tolist") else amp)
            if len(amp) != 3:
                raise ArgumentError(f"ImageEngine.jit_color: amp.length {len(amp)} must be 3")
        else:
            amp = [amp] * 3
        b = f32(brightness) + self.next_float(-amp[0], amp[0])
        s = f32(saturation) + self.next_float(-amp[1], amp[1])
        c = f32(contrast) + self.next_float(-amp[2], amp[2])
        return self.adjust_color(inplace, X, b, s, c)

    def _random_start(self, a, b, who):
        return [int(f32(d) * self.next_float()) for d in (x - y for x, y in zip(a, b))]

    def random_expand(self, inplace, X, *out_dim):
        """X placed at a random start inside zeros of out_dim ([H, W, C] aligned; <= 0 keeps X's size)."""
        self._ndim_at_least(X, 3, "random_expand")
        ind = list(X.shape[-3:])
        out = _head_positive(self._out(out_dim, "random_expand"), ind)
        return self.expand(inplace, X, self._random_start(out, ind, "random_expand"), out)

    def random_crop(self, inplace, X, *out_dim):
        """An out_dim window of X from a random start ([H, W, C] aligned)."""
        self._ndim_at_least(X, 3, "random_crop")
        ind = list(X.shape[-3:])
        out = _head_positive(self._out(out_dim, "random_crop"), ind)
        return self.crop(inplace, X, self._random_start(ind, out, "random_crop"), out)

    def random_expand2D(self, inplace, X, *out_dim):
        self._ndim_at_least(X, 3, "random_expand2D")
        ind = list(X.shape[-3:-1])
        out = _head_positive(self._out(out_dim, "random_expand2D"), ind) + [X.shape[-1]]
        return self.expand(inplace, X, self._random_start(out[:2], ind, "random_expand2D") + [0], out)

    def random_crop2D(self, inplace, X, *out_dim):
        self._ndim_at_least(X, 3, "random_crop2D")
        ind = list(X.shape[-3:-1])
        out = _head_positive(self._out(out_dim, "random_crop2D"), ind) + [X.shape[-1]]
        return self.crop(inplace, X, self._random_start(ind, out[:2], "random_crop2D") + [0], out)

    @staticmethod
    def _out(out_dim, who):
        if len(out_dim) == 1 and (isinstance(out_dim[0], (list, tuple)) or hasattr(out_dim[0], "tolist")):
            out_dim = out_dim[0]
        return ints(list(out_dim), f"ImageEngine.{who}", "out_dim")


def _on_device(fn):
    """Run an image op with the engine's GPU current (a CUDA engine on device 1 allocates there), as the backend does."""
    @functools.wraps(fn)
    def run(self, *args, **kwargs):
        dev = getattr(self.eg.backend, "device", None)
        with dev if dev is not None else contextlib.nullcontext():
            return fn(self, *args, **kwargs)
    return run


for _name in [n for n in dir(ImageEngine) if not n.startswith("_") and callable(getattr(ImageEngine, n))]:
    setattr(ImageEngine, _name, _on_device(getattr(ImageEngine, _name)))
