"""Data layer: CIFAR-10 / CIFAR-100 readers for both official layouts — binary records
(`data_batch_*.bin`, `test_batch.bin`; CIFAR-100 `train.bin`/`test.bin` with coarse+fine label
bytes) and python-pickle batches. Returns host uint8 NHWC images + int64 labels; numpy only."""
import glob
import io
import os
import pickle

import numpy as np

from ..errors import DataError
from .formats import read_bytes

_PIXELS = 32 * 32 * 3


def _chw_rows_to_nhwc(rows):
    """Rows of 3072 bytes (1024 R, 1024 G, 1024 B, each 32x32 row-major) -> [N,32,32,3]."""
    return np.ascontiguousarray(rows.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))


def read_cifar_bin(path, label_bytes, label_index, num_class):
    """One binary file: records of `label_bytes` label bytes then 3072 pixel bytes."""
    raw = read_bytes(path)
    rec = label_bytes + _PIXELS
    if len(raw) == 0 or len(raw) % rec:
        raise DataError(f"CIFAR binary file {path!r}: {len(raw)} bytes is not a positive multiple of "
                        f"the {rec}-byte record ({label_bytes} label byte(s) + {_PIXELS} pixels); "
                        f"expected {max(1, round(len(raw) / rec)) * rec} bytes, found {len(raw)}")
    table = np.frombuffer(raw, dtype=np.uint8).reshape(-1, rec)
    labels = table[:, label_index].astype(np.int64)
    if labels.max() >= num_class:
        raise DataError(f"CIFAR binary file {path!r}: label {labels.max()} out of range, expected "
                        f"< {num_class} (wrong dataset variant or corrupt file?)")
    return _chw_rows_to_nhwc(table[:, label_bytes:]), labels


class _NumpyOnlyUnpickler(pickle.Unpickler):
    """CIFAR pickles hold dicts of bytes, lists and NumPy arrays: refuse any other global."""

    _ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
                ("numpy._core.multiarray", "scalar"), ("_codecs", "encode")}

    def find_class(self, module, name):
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"global {module}.{name} is not allowed in a CIFAR batch")


def read_cifar_pickle(path, label_key, num_class):
    raw = read_bytes(path)
    try:
        batch = _NumpyOnlyUnpickler(io.BytesIO(raw), encoding="bytes").load()
    except Exception as e:   # any unpickling failure means a corrupt/foreign file
        raise DataError(f"CIFAR pickle batch {path!r}: cannot be unpickled ({type(e).__name__}: {e})") from None
    if not isinstance(batch, dict) or b"data" not in batch or label_key not in batch:
        keys = sorted(batch) if isinstance(batch, dict) else type(batch).__name__
        raise DataError(f"CIFAR pickle batch {path!r}: expected a dict with b'data' and {label_key!r}, "
                        f"found {keys}")
    data = np.asarray(batch[b"data"])
    labels = np.asarray(batch[label_key], dtype=np.int64).reshape(-1)
    if data.dtype != np.uint8 or data.ndim != 2 or data.shape[1] != _PIXELS:
        raise DataError(f"CIFAR pickle batch {path!r}: b'data' is {data.dtype} {list(data.shape)}, "
                        f"expected uint8 [N, {_PIXELS}]")
    if data.shape[0] != labels.shape[0]:
        raise DataError(f"CIFAR pickle batch {path!r}: {data.shape[0]} images but {labels.shape[0]} labels")
    if labels.size and (labels.min() < 0 or labels.max() >= num_class):
        raise DataError(f"CIFAR pickle batch {path!r}: labels must lie in [0, {num_class})")
    return _chw_rows_to_nhwc(data), labels


def _concat(parts):
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _search_dirs(directory, subdirs):
    return [directory] + [os.path.join(directory, s) for s in subdirs]


def load_cifar10(directory, train):
    """CIFAR-10 from `directory` (or its cifar-10-batches-bin / -py sub-folder), binary preferred."""
    for d in _search_dirs(directory, ["cifar-10-batches-bin", "cifar-10-batches-py"]):
        if train:
            bins = sorted(glob.glob(os.path.join(d, "data_batch_*.bin")))
            pys = sorted(p for p in glob.glob(os.path.join(d, "data_batch_*")) if not p.endswith(".bin"))
        else:
            bins = [p for p in [os.path.join(d, "test_batch.bin")] if os.path.isfile(p)]
            pys = [p for p in [os.path.join(d, "test_batch")] if os.path.isfile(p)]
        if bins:
            return _concat([read_cifar_bin(p, 1, 0, 10) for p in bins])
        if pys:
            return _concat([read_cifar_pickle(p, b"labels", 10) for p in pys])
    want = "data_batch_1..5[.bin]" if train else "test_batch[.bin]"
    raise DataError(f"cifar10: no {want} files found in {directory!r} (nor in its "
                    "cifar-10-batches-bin / cifar-10-batches-py sub-folders)")


def load_cifar100(directory, train, label="fine"):
    """CIFAR-100 `train`/`test` (.bin: coarse byte, fine byte, pixels; pickle: b'fine_labels')."""
    if label not in ("fine", "coarse"):
        raise DataError(f"cifar100: label must be 'fine' or 'coarse', got {label!r}")
    num_class, idx = (100, 1) if label == "fine" else (20, 0)
    split = "train" if train else "test"
    for d in _search_dirs(directory, ["cifar-100-binary", "cifar-100-python"]):
        if os.path.isfile(os.path.join(d, split + ".bin")):
            return read_cifar_bin(os.path.join(d, split + ".bin"), 2, idx, num_class)
        if os.path.isfile(os.path.join(d, split)):
            return read_cifar_pickle(os.path.join(d, split), label.encode() + b"_labels", num_class)
    raise DataError(f"cifar100: no {split}.bin or {split} (pickle) found in {directory!r} (nor in its "
                    "cifar-100-binary / cifar-100-python sub-folders)")
