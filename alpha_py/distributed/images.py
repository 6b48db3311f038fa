"""Distributed layer: one image column of a Spark DataFrame -> uint8 [n,H,W,C] (HWC, RGB), inside a
task. A row holds raw pixel bytes (exactly H*W*C, as fit() takes them), an encoded image file
(PNG/JPEG/..., decoded with Pillow) or Spark's image struct (spark.read.format("image"), BGR).
Imports numpy, Pillow, pandas (the Arrow batches pandas UDFs receive) and alpha_py.errors."""
import io
from typing import Iterator

import numpy as np

from ..errors import DataError, fmt_shape

INVALID = ("error", "keep", "skip")         # what to do with a row that holds no usable image


class BadImage(DataError):
    """One row of an image column is null, not an image, or an image of the wrong shape."""


def shape_bytes(shape):
    return int(np.prod(shape))


def _decode_file(raw, shape, where):
    """An encoded image file (any format Pillow reads) as uint8 [H,W,C]; size and channels must
    match `shape` exactly (no silent resize). Palette/bilevel/CMYK modes become RGB / L."""
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(io.BytesIO(raw)) as img:
            fmt = img.format
            if img.mode == "1":
                img = img.convert("L")
            elif img.mode not in ("L", "RGB", "RGBA"):
                img = img.convert("RGBA" if img.mode in ("PA", "LA") or "transparency" in img.info else "RGB")
            arr = np.asarray(img, dtype=np.uint8)
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as e:
        head = bytes(raw[:8]).hex()
        raise BadImage(f"{where}: {len(raw)} bytes (starting {head}) are neither raw pixels "
                       f"({shape_bytes(shape)} bytes for image {fmt_shape(shape)}) nor an image file "
                       f"Pillow can read ({type(e).__name__})") from None
    if arr.ndim == 2:
        arr = arr[..., None]
    if arr.shape != tuple(shape):
        raise BadImage(f"{where}: {fmt} image is {fmt_shape(arr.shape)} (HWC, mode {img.mode}), expected "
                       f"{fmt_shape(shape)}: resize / convert the images to the model's input shape first")
    return arr


def _decode_struct(row, shape, where):
    """Spark's image schema (origin, height, width, nChannels, mode, data; data row-major BGR[A])."""
    h, w, c = int(row["height"]), int(row["width"]), int(row["nChannels"])
    if (h, w, c) != tuple(shape):
        raise BadImage(f"{where}: image {row.get('origin') or ''} is {fmt_shape((h, w, c))} (HWC), "
                       f"expected {fmt_shape(shape)}")
    data = row["data"]
    if data is None or len(data) != h * w * c:
        raise BadImage(f"{where}: image struct says {fmt_shape((h, w, c))} but holds "
                       f"{0 if data is None else len(data)} data bytes")
    arr = np.frombuffer(bytes(data), np.uint8).reshape(h, w, c)
    if c >= 3:                               # Spark (OpenCV) stores BGR[A]; Alpha's images are RGB
        arr = arr[..., [2, 1, 0] + list(range(3, c))]
    return arr


def decode_one(value, shape, where):
    """One cell: bytes (raw pixels or an image file) or an image-schema struct (dict / Row)."""
    if value is None:
        raise BadImage(f"{where}: the image is null")
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        if len(raw) == shape_bytes(shape):
            return np.frombuffer(raw, np.uint8).reshape(shape)
        return _decode_file(raw, shape, where)
    if hasattr(value, "asDict"):
        value = value.asDict()
    if isinstance(value, dict):
        return _decode_struct(value, shape, where)
    raise BadImage(f"{where}: got a {type(value).__name__}, expected image bytes or an image struct")


def decode_cells(cells, shape, where, invalid="error"):
    """A sequence of cells -> (uint8 [m,H,W,C], valid bool [n]). invalid='error' raises BadImage on
    the first bad row; 'keep'/'skip' leave it out (valid False) for the caller to null or drop.
    `where(i)` names row i in messages. Rows of raw pixels take a vectorised path."""
    n, size = len(cells), shape_bytes(shape)
    valid = np.ones(n, dtype=bool)
    if n and all(isinstance(v, (bytes, bytearray)) and len(v) == size for v in cells):
        return np.frombuffer(b"".join(cells), np.uint8).reshape((n,) + tuple(shape)), valid
    out = []
    for i, v in enumerate(cells):
        try:
            out.append(decode_one(v, shape, where(i)))
        except BadImage:
            if invalid == "error":
                raise
            valid[i] = False
    imgs = np.stack(out) if out else np.zeros((0,) + tuple(shape), np.uint8)
    return imgs, valid


def series_cells(obj):
    """The cells of what a pandas UDF receives: a Series of bytes, or (struct column) a DataFrame."""
    import pandas as pd
    if isinstance(obj, pd.DataFrame):
        recs = obj.to_dict("records")
        nulls = obj.isna().all(axis=1).to_numpy() if len(obj.columns) else np.zeros(len(obj), bool)
        return [None if null else r for r, null in zip(recs, nulls)]
    return [None if v is None or (isinstance(v, float) and v != v) else v for v in obj.tolist()]



def decoded_batches(batches, shape, invalid, column):
    """Inside a pandas UDF: (images uint8 [m,H,W,C], valid bool [rows]) for each batch it receives;
    messages name the column, the partition and the row within it."""
    from pyspark import TaskContext
    ctx = TaskContext.get()
    part, seen = (ctx.partitionId() if ctx is not None else 0), 0
    for obj in batches:
        cells, start = series_cells(obj), seen
        seen += len(cells)
        yield decode_cells(cells, shape, lambda i: f"column {column!r}, partition {part} row {start + i}",
                           invalid)


def raw_pixels_udf(shape, invalid, column):
    """A pandas UDF: image column (file bytes, raw pixels or image struct) -> raw uint8 HWC bytes of
    `shape`, the form fit() trains on; rows without a usable image give null unless invalid='error'."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    def run(batches: Iterator[pd.Series]) -> Iterator[pd.Series]:     # hints: the iterator UDF kind
        for imgs, valid in decoded_batches(batches, tuple(shape), invalid, column):
            out = [None] * len(valid)
            for r, img in zip(np.flatnonzero(valid), imgs):
                out[r] = img.tobytes()
            yield pd.Series(out, dtype=object)

    return pandas_udf(run, "binary")
