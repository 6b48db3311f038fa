"""Distributed layer: image datasets as Parquet — `write_parquet` writes (image binary: raw uint8 HWC pixels,
label int) part files with the image shape in the file metadata; `ParquetDataset` shards such a folder by files,
each task reading only its own part files with pyarrow (nothing collected to the driver or a Connect client).
The schema and image size are checked on the driver before any stage. Imports numpy, pyarrow (lazily), pyspark
(inside tasks), alpha_py.errors and this package."""
import os

import numpy as np

from ..errors import ArgumentError, DataError
from .shards import split_ranges

META = b"alpha.image_shape"
CLASSES = b"alpha.num_classes"


def write_parquet(images, labels, out, partitions=8, num_classes=None, seed=None):
    """Write images [N,H,W,C] uint8 and labels [N] as `partitions` part files in folder `out`; returns the paths.
    seed: rows are first put in a seeded random order (None: kept as given). Each rank trains on whole part
    files, so a class-sorted source written in order gives ranks disjoint classes (averaging suffers)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    images = np.ascontiguousarray(images, dtype=np.uint8)
    if images.ndim == 3:
        images = images[..., None]
    if images.ndim != 4 or len(images) != len(labels):
        raise ArgumentError(f"write_parquet: expected images [N,H,W,C] and N labels, got {list(images.shape)} and "
                            f"{len(labels)}")
    labels = np.asarray(labels, dtype=np.int32)
    if seed is not None:
        order = np.random.default_rng(seed).permutation(len(labels))
        images, labels = images[order], labels[order]
    k = int(num_classes if num_classes is not None else labels.max() + 1)
    meta = {META: ",".join(map(str, images.shape[1:])).encode(), CLASSES: str(k).encode()}
    os.makedirs(out, exist_ok=True)
    size, paths = int(np.prod(images.shape[1:])), []
    for i, (a, b) in enumerate(split_ranges(len(images), min(partitions, len(images)))):
        flat = images[a:b].reshape(-1)
        offsets = pa.array(np.arange(0, (b - a + 1) * size, size, dtype=np.int32))
        col = pa.BinaryArray.from_buffers(pa.binary(), b - a, [None, offsets.buffers()[1], pa.py_buffer(flat)])
        table = pa.table({"image": col, "label": pa.array(labels[a:b])}).replace_schema_metadata(meta)
        path = os.path.join(out, f"part-{i:05d}.parquet")
        pq.write_table(table, path)
        paths.append(path)
    return paths


def _part_files(path):
    if os.path.isfile(path):
        return [path]
    if not os.path.isdir(path):
        raise ArgumentError(f"ParquetDataset: {path!r} is neither a Parquet file nor a folder of them")
    files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".parquet"))
    if not files:
        raise ArgumentError(f"ParquetDataset: no *.parquet files in {path!r}")
    return files


def _check_schema(schema, where, image_col, label_col):
    import pyarrow as pa
    names = schema.names
    for col, ok, want in ((image_col, lambda t: pa.types.is_binary(t) or pa.types.is_large_binary(t), "binary"),
                          (label_col, pa.types.is_integer, "an integer type")):
        if col not in names:
            raise DataError(f"ParquetDataset {where}: column {col!r} not found (columns {names}); expected "
                            f"({image_col} binary, {label_col} int) as written by `alpha convert`")
        t = schema.field(col).type
        if not ok(t):
            raise DataError(f"ParquetDataset {where}: column {col!r} is {t}, expected {want}")


def read_part(path, shape, image_col="image", label_col="label"):
    """(images uint8 [n,H,W,C], labels int64 [n]) of one part file; DataError naming the column on a bad size."""
    import pyarrow.parquet as pq
    table = pq.read_table(path, columns=[image_col, label_col])
    col = table.column(image_col).combine_chunks()
    size = int(np.prod(shape))
    lengths = np.diff(np.frombuffer(col.buffers()[1], np.int32)[col.offset:col.offset + len(col) + 1]) \
        if len(col) else np.zeros(0, np.int32)
    bad = np.flatnonzero(lengths != size)
    if bad.size:
        raise DataError(f"ParquetDataset {path!r}: column {image_col!r} row {int(bad[0])} holds "
                        f"{int(lengths[bad[0]])} bytes, expected {size} (image {list(shape)} uint8)")
    offs = np.frombuffer(col.buffers()[1], np.int32)[col.offset]
    data = np.frombuffer(col.buffers()[2], np.uint8)[offs:offs + len(col) * size]
    labels = table.column(label_col).to_numpy().astype(np.int64)
    return data.reshape((len(col),) + tuple(shape)), labels


class ParquetShard:
    """A rank's part files, read by its task (and kept by its Python worker for the job's later stages)."""

    _KEEP = {}

    def __init__(self, files, shape, image_col, label_col, job):
        self.files, self.shape, self.cols, self.job = files, shape, (image_col, label_col), job

    def load(self):
        key = (self.job, tuple(self.files))
        got = ParquetShard._KEEP.get(key)
        if got is None:
            parts = [read_part(f, self.shape, *self.cols) for f in self.files]
            got = (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
            ParquetShard._KEEP.clear()
            ParquetShard._KEEP[key] = got
        return got


class ParquetDataset:
    """A folder of Parquet part files (image binary, label int) on storage every executor can read. Shards are
    whole files (contiguous runs, balanced by row count from the footers); the driver reads only footers and
    one row group to check the schema and the image size before training."""

    def __init__(self, path, image_shape=None, num_classes=None, image_col="image", label_col="label"):
        import pyarrow.parquet as pq
        self.path, self.image_col, self.label_col = os.fspath(path), image_col, label_col
        self.files = _part_files(self.path)
        metas = [pq.read_metadata(f) for f in self.files]
        _check_schema(metas[0].schema.to_arrow_schema(), repr(self.files[0]), image_col, label_col)
        kv = metas[0].metadata or {}
        shape = image_shape or (tuple(int(x) for x in kv[META].decode().split(",")) if META in kv else None)
        k = num_classes or (int(kv[CLASSES]) if CLASSES in kv else None)
        if shape is None or k is None:
            raise ArgumentError(f"ParquetDataset {self.path!r}: the files carry no alpha.image_shape / "
                                "alpha.num_classes metadata: pass image_shape=(H, W, C) and num_classes")
        self.image_shape, self.num_classes = tuple(shape), int(k)
        self.rows = [m.num_rows for m in metas]
        self.count = sum(self.rows)
        first = pq.ParquetFile(self.files[0]).read_row_group(0, columns=[image_col])
        lengths = {len(v) for v in first.column(image_col).to_pylist()[:64]}
        if lengths != {int(np.prod(self.image_shape))}:
            raise DataError(f"ParquetDataset {self.files[0]!r}: column {image_col!r} holds images of "
                            f"{sorted(lengths)} bytes, expected {int(np.prod(self.image_shape))} "
                            f"(image {list(self.image_shape)} uint8)")

    def shards(self, workers, job):
        """`workers` ParquetShards of whole files, cut where the running row count crosses k/workers."""
        if len(self.files) < workers:
            raise ArgumentError(f"ParquetDataset {self.path!r}: {len(self.files)} part file(s) cannot feed "
                                f"{workers} workers (each reads whole files): write >= {workers} partitions")
        cum, cuts = np.cumsum(self.rows), [0]
        for r in range(1, workers):
            i = int(np.searchsorted(cum, self.count * r / workers)) + 1
            cuts.append(min(max(i, cuts[-1] + 1), len(self.files) - (workers - r)))
        cuts.append(len(self.files))
        return [ParquetShard(self.files[a:b], self.image_shape, self.image_col, self.label_col, job)
                for a, b in zip(cuts, cuts[1:])]

    def shard_rdd(self, sc, workers):
        return sc.parallelize(self.shards(workers, None), workers).map(lambda s: s.load())

    def shard_refs(self, sc, workers, job):
        return sc.parallelize(self.shards(workers, job), workers)


def as_parquet(data):
    """fit()'s data: a path object (pathlib.Path) names a Parquet folder; anything else is returned as is."""
    return ParquetDataset(data) if isinstance(data, os.PathLike) else data
