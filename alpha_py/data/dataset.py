"""Data layer: DataSet — host uint8 NHWC images + int64 labels + class count; hands out
TensorIter / BufferedTensorIter. Imports numpy, alpha_py.errors and the iterators."""
import numpy as np

from ..errors import DataError
from .iterators import BufferedTensorIter, TensorIter


class DataSet:
    """Images stay uint8 [N,H,W,C] on the host until a batch goes to an engine."""

    def __init__(self, images, labels, num_class, name="dataset", classes=None):
        images, labels = np.asarray(images), np.asarray(labels)
        if images.dtype != np.uint8 or images.ndim != 4:
            raise DataError(f"DataSet {name}: images are {images.dtype} {list(images.shape)}, "
                            "expected uint8 [N,H,W,C]")
        if labels.ndim != 1 or labels.shape[0] != images.shape[0]:
            raise DataError(f"DataSet {name}: labels {list(labels.shape)} do not match "
                            f"{images.shape[0]} images (expected [N])")
        if labels.size and (labels.min() < 0 or labels.max() >= num_class):
            raise DataError(f"DataSet {name}: labels must lie in [0, {num_class}), found "
                            f"[{labels.min()}, {labels.max()}]")
        self.images = np.ascontiguousarray(images)
        self.labels = labels.astype(np.int64, copy=False)
        self.num_class, self.name = int(num_class), name
        self.classes = list(classes) if classes is not None else [str(i) for i in range(self.num_class)]

    def __len__(self):
        return int(self.images.shape[0])

    size = __len__

    @property
    def input_shape(self):
        """(H, W, C) of one image."""
        return tuple(int(d) for d in self.images.shape[1:])

    @property
    def in_channels(self):
        return int(self.images.shape[3])

    def subset(self, rows, name=None):
        rows = np.asarray(rows, dtype=np.int64)
        return DataSet(self.images[rows], self.labels[rows], self.num_class, name or self.name, self.classes)

    def take(self, n):
        """The first n items (all when n is None or >= size)."""
        if n is None or n >= len(self):
            return self
        if n <= 0:
            raise DataError(f"DataSet {self.name}: take(n) needs n > 0, got {n}")
        return self.subset(np.arange(n), f"{self.name}[:{n}]")

    def class_counts(self):
        return np.bincount(self.labels, minlength=self.num_class)

    def batch_iter(self, engine=None, batch=None, seed=None, augment=None):
        """Unbuffered iterator; engine/batch may also be given to each next(engine, batch)."""
        return TensorIter(self, engine, batch, seed, augment)

    def buffered_iter(self, engine, batch, seed=None, augment=None):
        """Iterator that prefetches the next batch on a background thread."""
        return BufferedTensorIter(self, engine, batch, seed, augment)

    def __repr__(self):
        return f"DataSet({self.name}, {len(self)} x {list(self.input_shape)}, {self.num_class} classes)"
