"""Distributed layer: checks and shapes a DataFrame before AlphaClassifier trains on it — one Spark
job counts the rows and checks the labels (nulls, non-integers, range) and the image sizes, so an
empty frame, bad labels or images of the wrong shape fail on the driver with a clear message before
any training stage starts. Imports pyspark.sql, alpha_py.errors and this package."""
from ..errors import ArgumentError, DataError
from .images import raw_pixels_udf, shape_bytes
from .inference import input_kind


def _label_check(df, label_col, who):
    from pyspark.sql.types import NumericType
    if label_col not in df.columns:
        raise ArgumentError(f"{who}: label column {label_col!r} not found; the DataFrame has columns {df.columns}")
    dtype = df.schema[label_col].dataType
    if not isinstance(dtype, NumericType):
        raise ArgumentError(f"{who}: label column {label_col!r} is {dtype.simpleString()}, expected integer "
                            "class indices 0..numClasses-1 (use StringIndexer for string labels)")


def frame_stats(df, input_col, label_col, kind):
    """One pass: rows, null labels, non-integer labels, min/max label, null images and (binary
    column) the smallest and largest byte count of a cell."""
    from pyspark.sql import functions as sf
    lab, img = sf.col(label_col), sf.col(input_col)
    aggs = [sf.count(sf.lit(1)).alias("rows"), sf.sum(lab.isNull().cast("long")).alias("null_labels"),
            sf.sum((lab != sf.floor(lab)).cast("long")).alias("fractional"),
            sf.min(lab).alias("lo"), sf.max(lab).alias("hi"), sf.sum(img.isNull().cast("long")).alias("null_images")]
    if kind == "binary":
        aggs += [sf.min(sf.length(img)).alias("min_bytes"), sf.max(sf.length(img)).alias("max_bytes")]
    return df.agg(*aggs).first().asDict()


def prepare_training_frame(df, input_col, label_col, shape, num_classes, invalid, batch, who):
    """(DataFrame of (raw image bytes, label) ready for FrameDataset, number of classes).
    invalid='error': any null label or unusable image is an error; 'skip'/'keep': such rows are
    dropped (a training row needs an image and a label)."""
    from pyspark.sql import functions as sf
    kind = input_kind(df, input_col, who)
    _label_check(df, label_col, who)
    st = frame_stats(df, input_col, label_col, kind)
    if st["rows"] == 0:
        raise DataError(f"{who}: the DataFrame is empty (0 rows): nothing to train on")
    if st["null_labels"] or st["null_images"]:
        if invalid == "error":
            raise DataError(f"{who}: {st['null_labels']} row(s) with a null {label_col!r} and "
                            f"{st['null_images']} with a null {input_col!r} (of {st['rows']}); drop them or "
                            "set handleInvalid='skip'")
        df = df.filter(sf.col(label_col).isNotNull() & sf.col(input_col).isNotNull())
    if st["fractional"]:
        raise DataError(f"{who}: {st['fractional']} label(s) in {label_col!r} are not whole numbers; labels "
                        "must be class indices 0..numClasses-1")
    if st["lo"] is None:
        raise DataError(f"{who}: every row has a null label or image: nothing to train on")
    usable = st["rows"] - (st["null_labels"] or 0)
    if usable < batch:
        raise ArgumentError(f"{who}: {usable} labelled row(s) cannot fill one global batch of {batch} "
                            "images: lower batchSize or add data")
    lo, hi = int(st["lo"]), int(st["hi"])
    if lo < 0:
        raise DataError(f"{who}: labels in {label_col!r} range over [{lo}, {hi}]; class indices cannot be negative")
    k = int(num_classes) if num_classes is not None else max(hi + 1, 2)
    if hi >= k:
        raise DataError(f"{who}: label {hi} in {label_col!r} does not fit numClasses={k} (labels 0..{k - 1})")
    size = shape_bytes(shape)
    if kind == "binary" and st["min_bytes"] == st["max_bytes"] == size:
        frame = df.select(input_col, sf.col(label_col).cast("long").alias(label_col))
    else:
        # image files, image structs or odd sizes: decode every row (BadImage names a bad row)
        pixels = raw_pixels_udf(shape, invalid, input_col)(sf.col(input_col))
        frame = df.select(pixels.alias(input_col), sf.col(label_col).cast("long").alias(label_col))
        if invalid != "error":
            frame = frame.filter(sf.col(input_col).isNotNull())
    return frame, k
