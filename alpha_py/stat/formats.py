"""stat layer: the two checkpoint file formats over host NumPy arrays (no engine involved).

text zip (Dragon-Alpha):  one zip entry per state key (e.g. `Net.fc.FullConnect0.weight`), content
  UTF-8 decimal floats, comma-separated, 4096 per line, row-major; entries stored uncompressed (the
  deflate step alone took longer than the whole 2 s budget for ResNet18 here). Finite float32 arrays
  go through stat.textcodec (fixed-width '±d.ddddddddE±dd', 9 significant digits, vectorised both
  ways); other arrays are written with '%.9g' (float32) / '%.17g' (float64) and Java's spellings of
  non-finite values. Either way every value reads back bit-exactly. Files of any decimal spelling
  (Dragon-Alpha's Float.toString) are read by the general parser. We add one entry SHAPES_ENTRY
  (JSON key -> shape) so shape mismatches can be reported; files without it (written by
  Dragon-Alpha) still load, checked by element count.
npz (binary, fast):  numpy's uncompressed .npz, one array per state key, shapes and dtypes kept.
Imports numpy, zipfile, json and alpha_py.errors only."""
import json
import zipfile
import zlib

import numpy as np

from ..errors import CheckpointError
from . import textcodec

PER_LINE = 4096
SHAPES_ENTRY = ".alpha-shapes.json"
_JAVA = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN", "-nan": "NaN"}
READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, OSError)


def encode_text(arr):
    """Array -> the text of one zip entry (bytes)."""
    flat = np.asarray(arr).reshape(-1)
    fmt = "%.9g" if flat.dtype == np.float32 else "%.17g"
    flat = flat if flat.dtype in (np.float32, np.float64) else flat.astype(np.float64)
    lines = []
    for i in range(0, flat.size, PER_LINE):
        lines.append(",".join(map(fmt.__mod__, flat[i:i + PER_LINE].tolist())))
    text = "\n".join(lines) + "\n"
    if not np.isfinite(flat).all():            # Java's spellings, which Python reads too
        text = ",".join(_JAVA.get(v, v) for v in text.replace("\n", ",\n,").split(","))
        text = text.replace(",\n,", "\n")
    return text.encode("utf-8")


def decode_text(data, key, path):
    """The text of one zip entry -> flat array (float32 from the fixed-width codec, else float64)."""
    fast = textcodec.decode(data)
    if fast is not None:
        return fast
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CheckpointError(f"load_zip '{path}': entry '{key}' is not UTF-8 text ({e})") from None
    parts = []
    for n, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        try:
            parts.append(np.array(line.rstrip(",").split(","), dtype=np.float64))
        except ValueError:
            raise CheckpointError(f"load_zip '{path}': entry '{key}' line {n} is not comma-separated "
                                  f"decimal floats: {line[:60]!r}") from None
    return np.concatenate(parts) if parts else np.zeros(0, np.float64)


def write_text_zip(fileobj, arrays):
    """arrays: ordered key -> host array. Writes the Dragon-Alpha text zip to an open binary file."""
    with zipfile.ZipFile(fileobj, "w", zipfile.ZIP_STORED) as z:
        for key, arr in arrays.items():
            arr = np.asarray(arr)
            if arr.size and textcodec.encodable(arr):
                size = arr.size * textcodec.WIDTH
                with z.open(key, "w", force_zip64=size >= zipfile.ZIP64_LIMIT) as f:
                    textcodec.encode(arr, f.write, PER_LINE)
            else:
                z.writestr(key, encode_text(arr))
        z.writestr(SHAPES_ENTRY, json.dumps({k: list(np.shape(a)) for k, a in arrays.items()}))


class TextZipReader:
    """Lazy reader: keys(), shape(key) (None when the file has no shape table), read(key)."""

    def __init__(self, path):
        self.path = path
        try:
            self._zip = zipfile.ZipFile(path, "r")
            names = self._zip.namelist()
            self._shapes = None
            if SHAPES_ENTRY in names:
                self._shapes = {k: tuple(v) for k, v in json.loads(self._zip.read(SHAPES_ENTRY)).items()}
        except FileNotFoundError:
            raise CheckpointError(f"load_zip: no checkpoint file '{path}'") from None
        except READ_ERRORS as e:
            raise CheckpointError(f"load_zip '{path}': not a readable checkpoint zip (truncated or "
                                  f"corrupt: {e})") from None
        self._keys = [n for n in names if n != SHAPES_ENTRY and not n.endswith("/")]

    def keys(self):
        return list(self._keys)

    def shape(self, key):
        return None if self._shapes is None else self._shapes.get(key)

    def read(self, key):
        try:
            data = self._zip.read(key)
        except READ_ERRORS as e:
            raise CheckpointError(f"load_zip '{self.path}': entry '{key}' is corrupt ({e})") from None
        return decode_text(data, key, self.path)

    def close(self):
        self._zip.close()


def write_npz(fileobj, arrays):
    np.savez(fileobj, **{k: np.asarray(a) for k, a in arrays.items()})


class NpzReader:
    """Same interface as TextZipReader over numpy's .npz (shapes always known)."""

    def __init__(self, path):
        self.path = path
        try:
            self._npz = np.load(path, allow_pickle=False)
            self._keys = list(self._npz.files)
        except FileNotFoundError:
            raise CheckpointError(f"load_npz: no checkpoint file '{path}'") from None
        except READ_ERRORS as e:
            raise CheckpointError(f"load_npz '{path}': not a readable .npz checkpoint (truncated or "
                                  f"corrupt: {e})") from None
        self._cache = {}

    def keys(self):
        return list(self._keys)

    def shape(self, key):
        return tuple(self.read(key).shape)

    def read(self, key):
        if key not in self._cache:
            try:
                self._cache[key] = self._npz[key]
            except READ_ERRORS as e:
                raise CheckpointError(f"load_npz '{self.path}': entry '{key}' is corrupt ({e})") from None
        return self._cache[key]

    def close(self):
        self._npz.close()


class DictReader:
    """The reader interface over arrays already in memory (a training checkpoint's net or optimizer
    state, read by stat.train_checkpoint)."""

    def __init__(self, arrays):
        self._arrays = arrays

    def keys(self):
        return list(self._arrays)

    def shape(self, key):
        return tuple(np.shape(self._arrays[key]))

    def read(self, key):
        return np.asarray(self._arrays[key])

    def close(self):
        pass
