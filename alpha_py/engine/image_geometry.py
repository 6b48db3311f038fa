"""Engine layer: v1.2's ImageEngine tensor tricks on pixels — pad / trim / expand / crop (and their 2D forms),
segment2D, transpose, resize (v1.2's nearest pixel), concat / split / chunk, extract_3channels.
A mixin of ImageEngine; imports image_base and errors."""
import numpy as np

from ..errors import ArgumentError, ShapeError, fmt_shape
from .image_base import ImageBase, f32, ints

FROM_CENTER = None            # v1.2's Engine.from_center: expand/crop centred when the start point is this


def _head(a, n):
    """v1.2's Vector.expand_from_head(a, n): zeros before a up to n entries."""
    a = a or []
    return [0] * (n - len(a)) + list(a) if len(a) < n else list(a)


def _head_positive(a, b):
    """v1.2's Vector.expand_from_head_positive(a, b): a aligned to b's tail, a's entries <= 0 taking b's."""
    if not a:
        return list(b)
    m = len(b) - len(a)
    return list(b[:m]) + [x if x > 0 else b[m + i] for i, x in enumerate(a)]


def _is_list(v):
    return v is None or isinstance(v, (list, tuple)) or hasattr(v, "tolist")


def _two_lists(who, args):
    """(p...) -> (p, p); (p0[], p1[]) -> (p0, p1)."""
    if len(args) == 2 and _is_list(args[0]) and _is_list(args[1]):
        return ints(args[0], who, "p0"), ints(args[1], who, "p1")
    if len(args) == 1 and _is_list(args[0]):
        args = args[0]
    p = ints(list(args), who, "p")
    return p, list(p)


class ImageGeometry(ImageBase):
    """pad, trim, expand, crop, segment2D, transpose, resize, concat, split, chunk, extract_3channels."""

    def _hwc(self, X, who):
        self._pix(X, who)
        self._ndim_at_least(X, 3, who)

    def _checked(self, who, name, v, most=3):
        if v is not None:
            if len(v) > most:
                raise ArgumentError(f"ImageEngine.{who}: {name} {v} has {len(v)} entries, at most {most} ([H, W, C])")
            if any(x < 0 for x in v):
                raise ArgumentError(f"ImageEngine.{who}: {name} {v} must be non-negative")

    def _place(self, X, inplace, ydim, start, who):
        """Zeros of ydim with X's pixels placed at start (3 offsets into H, W, C): v1.2's img_pad."""
        x = self._pix(X, who)
        for i, s in enumerate(start):
            k = len(ydim) - 3 + i
            if x.shape[k] + s > ydim[k]:
                raise ShapeError(f"ImageEngine.{who}: X {fmt_shape(X.shape)} placed at {start} does not fit in "
                                 f"{fmt_shape(ydim)}")
        y = self.xp.zeros(tuple(ydim), dtype=np.uint8)
        lead = (slice(None),) * (len(ydim) - 3)
        y[lead + tuple(slice(s, s + x.shape[len(ydim) - 3 + i]) for i, s in enumerate(start))] = x
        return self._put(X, inplace, y)

    def _cut(self, X, inplace, ydim, start, who):
        """X's pixels from start (3 offsets into H, W, C) over ydim: v1.2's img_trim."""
        x = self._pix(X, who)
        if any(d <= 0 for d in ydim):
            raise ShapeError(f"ImageEngine.{who}: X {fmt_shape(X.shape)} from {start} leaves output dims "
                             f"{list(ydim)}, expected positive ones")
        for i, s in enumerate(start):
            k = len(ydim) - 3 + i
            if s + ydim[k] > x.shape[k]:
                raise ShapeError(f"ImageEngine.{who}: {fmt_shape(ydim)} from {start} lies outside X {fmt_shape(X.shape)}")
        lead = (slice(None),) * (len(ydim) - 3)
        y = x[lead + tuple(slice(s, s + ydim[len(ydim) - 3 + i]) for i, s in enumerate(start))]
        return self._put(X, inplace, self.xp.ascontiguousarray(y))

    # ------------------------------------------------------------------ pad / trim
    def pad2D(self, inplace, X, *p):
        """pad2D(inplace, X, p...) | (inplace, X, p0[], p1[]): pad over [H, W] (a 0 is appended for C)."""
        p0, p1 = _two_lists("pad2D", p)
        return self.pad(inplace, X, p0 + [0], p1 + [0])

    def pad(self, inplace, X, *p):
        """pad(inplace, X, p...) | (inplace, X, p0[], p1[]): zeros before (p0) and after (p1) the last 3 dims,
        [..., ph, pw, pc] aligned to [H, W, C]."""
        p0, p1 = _two_lists("pad", p)
        self._hwc(X, "pad")
        self._checked("pad", "p0", p0)
        self._checked("pad", "p1", p1)
        p0, p1, xd = _head(p0, 3), _head(p1, 3), list(X.shape)
        m = len(xd) - 3
        ydim = xd[:m] + [p0[i] + xd[m + i] + p1[i] for i in range(3)]
        return self._place(X, inplace, ydim, p0, "pad")

    def trim2D(self, inplace, X, *t):
        t0, t1 = _two_lists("trim2D", t)
        return self.trim(inplace, X, t0 + [0], t1 + [0])

    def trim(self, inplace, X, *t):
        """trim(inplace, X, t...) | (inplace, X, t0[], t1[]): cut t0 before and t1 after the last 3 dims."""
        t0, t1 = _two_lists("trim", t)
        self._hwc(X, "trim")
        self._checked("trim", "t0", t0)
        self._checked("trim", "t1", t1)
        t0, t1, xd = _head(t0, 3), _head(t1, 3), list(X.shape)
        m = len(xd) - 3
        ydim = xd[:m] + [xd[m + i] - t0[i] - t1[i] for i in range(3)]
        return self._cut(X, inplace, ydim, t0, "trim")

    # ------------------------------------------------------------------ expand / crop
    @staticmethod
    def _start_out(who, args):
        """(out_dim...) -> (FROM_CENTER, out); (start[] or None, out[]) -> (start, out)."""
        if len(args) == 2 and _is_list(args[0]) and _is_list(args[1]) and args[1] is not None:
            return ints(args[0], who, "start_point"), ints(args[1], who, "out_dim")
        if len(args) == 1 and _is_list(args[0]):
            args = args[0] or []
        return FROM_CENTER, ints(list(args), who, "out_dim")

    def expand2D(self, inplace, X, *args):
        start, out = self._start_out("expand2D", args)
        return self.expand(inplace, X, None if start is None else start + [0], out + [-1])

    def _window_args(self, who, X, args):
        """expand's / crop's checked arguments: (start_point or FROM_CENTER, X's dims, out_dim with entries <= 0
        replaced by X's, index of H in the dims)."""
        start, out = self._start_out(who, args)
        self._hwc(X, who)
        self._checked(who, "start_point", start)
        if len(out) > 3:
            raise ArgumentError(f"ImageEngine.{who}: out_dim {out} has {len(out)} entries, at most 3 ([H, W, C])")
        xd = list(X.shape)
        return start, xd, _head_positive(out, xd), len(xd) - 3

    def expand(self, inplace, X, *args):
        """expand(inplace, X, out_dim...) centred | (inplace, X, start_point[], out_dim[]): X placed in zeros of
        out_dim (aligned to [H, W, C]; entries <= 0 keep X's size; grown when X does not fit)."""
        start, xd, ydim, m = self._window_args("expand", X, args)
        p0 = ([max(0, (ydim[m + i] - xd[m + i]) >> 1) for i in range(3)] if start is FROM_CENTER else _head(start, 3))
        for i in range(3):
            ydim[m + i] = max(ydim[m + i], xd[m + i] + p0[i])
        return self._place(X, inplace, ydim, p0, "expand")

    def crop2D(self, inplace, X, *args):
        start, out = self._start_out("crop2D", args)
        return self.crop(inplace, X, None if start is None else start + [0], out + [-1])

    def crop(self, inplace, X, *args):
        """crop(inplace, X, out_dim...) centred | (inplace, X, start_point[], out_dim[]): the out_dim window from
        start_point (aligned to [H, W, C]; entries <= 0 keep X's size; shrunk to what X holds)."""
        start, xd, ydim, m = self._window_args("crop", X, args)
        t0 = ([max(0, (xd[m + i] - ydim[m + i]) >> 1) for i in range(3)] if start is FROM_CENTER else _head(start, 3))
        for i in range(3):
            ydim[m + i] = min(ydim[m + i], xd[m + i] - t0[i])
        return self._cut(X, inplace, ydim, t0, "crop")

    def segment2D(self, X, *args):
        """segment2D(X, centers, H, W) | (X, centers, shapes) | (X, regions[y0, x0, y1, x1]): crop2D windows, clipped
        to the image as v1.2 clips them."""
        self._hwc(X, "segment2D")
        IH, IW = X.shape[-3], X.shape[-2]
        if len(args) == 3:
            boxes = [(c, (args[1], args[2])) for c in args[0]]
        elif len(args) == 2:
            if len(args[0]) != len(args[1]):
                raise ArgumentError(f"ImageEngine.segment2D: {len(args[0])} centers but {len(args[1])} shapes")
            boxes = list(zip(args[0], args[1]))
        elif len(args) == 1:
            boxes = None
        else:
            raise ArgumentError("ImageEngine.segment2D: expected (X, centers, H, W), (X, centers, shapes) or (X, regions)")
        wins = []
        for item in (args[0] if boxes is None else boxes):
            if boxes is None:
                r = ints(item, "ImageEngine.segment2D", "region")
                y, x, h, w = r[0], r[1], r[2] - r[0] + 1, r[3] - r[1] + 1
            else:
                (cy, cx), (H, W) = ints(item[0], "ImageEngine.segment2D", "center"), ints(item[1], "segment2D", "shape")
                y, x, h, w = cy - (H >> 1), cx - (W >> 1), H, W
            if y < 0:
                h, y = h + y, 0
            if y + h >= IH:
                h = IH - y
            if x < 0:
                w, x = w + x, 0
            if x + w >= IW:
                w = IW - x
            wins.append(self.crop2D(False, X, [y, x], [h, w]))
        return wins

    # ------------------------------------------------------------------ transpose / resize
    def transpose(self, inplace, X, dimIdx1, dimIdx2):
        """Swap two dims of a pixel tensor (>= 2 dims)."""
        x = self._pix(X, "transpose")
        nd = len(X.shape)
        a, b = (int(d) + nd if int(d) < 0 else int(d) for d in (dimIdx1, dimIdx2))
        if nd < 2 or not (0 <= a < nd and 0 <= b < nd):
            raise ShapeError(f"ImageEngine.transpose: dims ({dimIdx1}, {dimIdx2}) do not index X {fmt_shape(X.shape)}")
        return self._put(X, inplace, self.xp.ascontiguousarray(self.xp.swapaxes(x, a, b)))

    def resize(self, inplace, X, *args):
        """resize(inplace, X, scale) | (X, scaleY, scaleX) with floats, (X, out_size) | (X, OH, OW) with ints (-1 keeps
        a side): v1.2's nearest pixel, ih = round(oh * IH / OH) (halves away from zero), clipped to IH - 1."""
        self._hwc(X, "resize")
        IH, IW = X.shape[-3], X.shape[-2]
        if len(args) == 1:
            args = (args[0], args[0])
        if len(args) != 2:
            raise ArgumentError(f"ImageEngine.resize: expected (inplace, X, scale | out_size) or (inplace, X, scaleY, "
                                f"scaleX | OH, OW), got {len(args) + 2} arguments")
        if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
            OH, OW = (int(a) for a in args)
        else:
            OH, OW = int(f32(args[0]) * f32(IH)), int(f32(args[1]) * f32(IW))
        OH, OW = IH if OH == -1 else OH, IW if OW == -1 else OW
        if OH <= 0 or OW <= 0:
            raise ShapeError(f"ImageEngine.resize: output size [{OH}, {OW}] of X {fmt_shape(X.shape)}, expected positive")
        x, xp = self._pix(X, "resize"), self.xp
        ih = self._nearest(xp.arange(OH, dtype=np.float32) * np.float32(IH) / np.float32(OH))
        iw = self._nearest(xp.arange(OW, dtype=np.float32) * np.float32(IW) / np.float32(OW))
        ih, iw = xp.minimum(ih, IH - 1), xp.minimum(iw, IW - 1)
        y = x[..., ih, :, :][..., iw, :]
        return self._put(X, inplace, xp.ascontiguousarray(y))

    def _nearest(self, v32):
        """CUDA's lroundf: to the nearest integer, halves away from zero (in float64, so no extra rounding)."""
        xp = self.xp
        v = v32.astype(np.float64)
        return xp.where(v >= 0, xp.floor(v + 0.5), xp.ceil(v - 0.5)).astype(np.int64)

    # ------------------------------------------------------------------ concat / split / chunk
    def concat(self, *args):
        """concat(X...) along the last dim | concat(dimIdx, X...); X may also be one list."""
        dim = -1
        if args and isinstance(args[0], (int, np.integer)) and not isinstance(args[0], bool):
            dim, args = int(args[0]), args[1:]
        Xs = [t for t in (args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args) if t is not None]
        if len(Xs) < 2:
            raise ArgumentError(f"ImageEngine.concat: at least two tensors to concat, got {len(Xs)}")
        arrs = [self._pix(t, "concat", f"X[{i}]") for i, t in enumerate(Xs)]
        nd = len(Xs[0].shape)
        d = dim + nd if dim < 0 else dim
        for i, t in enumerate(Xs):
            if len(t.shape) != nd or not 0 <= d < nd or any(t.shape[j] != Xs[0].shape[j] for j in range(nd) if j != d):
                raise ShapeError(f"ImageEngine.concat: X[{i}] {fmt_shape(t.shape)} does not match X[0] "
                                 f"{fmt_shape(Xs[0].shape)} outside dim {dim}")
        return self.eg.wrap(self.xp.concatenate(arrs, axis=d))

    def chunk(self, X, dimIdx, n):
        """n pieces along dimIdx: n-1 of size dim // n, the last one takes the remainder too."""
        x = self._pix(X, "chunk")
        d = int(dimIdx) + len(X.shape) if int(dimIdx) < 0 else int(dimIdx)
        if not 0 <= d < len(X.shape):
            raise ShapeError(f"ImageEngine.chunk: dimIdx {dimIdx} does not index X {fmt_shape(X.shape)}")
        size = X.shape[d]
        if n < 1 or n > size:
            raise ArgumentError(f"ImageEngine.chunk: n {n} must lie in [1, X.dim[{d}] = {size}]")
        sec = [size // n] * n
        sec[-1] += size % n
        return self._split(x, d, sec)

    def split(self, X, dimIdx, *section):
        """Pieces of the given sizes along dimIdx (one size may be -1: the rest)."""
        x = self._pix(X, "split")
        d = int(dimIdx) + len(X.shape) if int(dimIdx) < 0 else int(dimIdx)
        if not 0 <= d < len(X.shape):
            raise ShapeError(f"ImageEngine.split: dimIdx {dimIdx} does not index X {fmt_shape(X.shape)}")
        sec = ints(list(section[0] if len(section) == 1 and _is_list(section[0]) else section), "split", "section")
        if sec.count(-1) == 1:
            sec[sec.index(-1)] = X.shape[d] - (sum(sec) + 1)
        if len(sec) < 2 or any(s <= 0 for s in sec) or sum(sec) != X.shape[d]:
            raise ArgumentError(f"ImageEngine.split: sections {sec} must be >= 2 positive sizes summing to X.dim[{d}] "
                                f"= {X.shape[d]}")
        return self._split(x, d, sec)

    def _split(self, x, d, sec):
        cuts = np.cumsum(sec)[:-1].tolist()
        return [self.eg.wrap(self.xp.ascontiguousarray(p)) for p in self.xp.split(x, cuts, axis=d)]

    # ------------------------------------------------------------------ channels
    def extract_3channels(self, inplace, X, c0, c1, c2):
        """Y[..., k] = X[..., c_k]: three channels picked out of X's last dim (each in [0, C))."""
        x = self._pix(X, "extract_3channels")
        if len(X.shape) < 2:
            raise ShapeError(f"ImageEngine.extract_3channels: X {fmt_shape(X.shape)} needs >= 2 dims")
        C = X.shape[-1]
        for k, c in enumerate((c0, c1, c2)):
            if not 0 <= int(c) < C:
                raise ArgumentError(f"ImageEngine.extract_3channels: channel{k} {c} must lie in [0, {C}) for X "
                                    f"{fmt_shape(X.shape)}")
        idx = self.xp.asarray([int(c0), int(c1), int(c2)])
        return self._put(X, inplace, self.xp.ascontiguousarray(x[..., idx]))

    def extract_RGB(self, inplace, X):
        return self.extract_3channels(inplace, X, self._red, self._green, self._blue)

    def extract_BGR(self, inplace, X):
        return self.extract_3channels(inplace, X, self._blue, self._green, self._red)

    def _channel(self, attr, name, value):
        if value is None:
            return getattr(self, attr)
        if isinstance(value, bool) or int(value) != value or int(value) < 0:
            raise ArgumentError(f"ImageEngine.{name}: {value!r} must be a channel index >= 0")
        setattr(self, attr, int(value))
        return self

    def channel_red(self, c=None):
        """channel_red() -> the red channel index (v1.2's default 13, for hyper-spectral cubes); channel_red(c) sets it."""
        return self._channel("_red", "channel_red", c)

    def channel_green(self, c=None):
        return self._channel("_green", "channel_green", c)

    def channel_blue(self, c=None):
        return self._channel("_blue", "channel_blue", c)

    _red, _green, _blue = 13, 80, 132
