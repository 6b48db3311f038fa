"""stat layer: telling checkpoint files apart by content and reading the layouts written before
format version 2 — the `alpha train` .ckpt zip (meta.json + net.npz + optim.npz), Spark's
ckpt-<step>.npz (meta + net/* + optim/*), alpha.stat's bare .npz and Dragon-Alpha text zips.
Imports numpy, zipfile, json, stat.formats and alpha_py.errors."""
import io
import json
import os
import zipfile

import numpy as np

from ..errors import CheckpointError
from .formats import READ_ERRORS, TextZipReader

HEADER_ENTRY = "alpha_checkpoint.npy"
TRAIN_V1_GEOMETRY = ("in_channels", "num_classes", "input_size")


def sniff(path, who="read_checkpoint"):
    """'v2' | 'train1' | 'spark1' | 'npz' (bare alpha.stat state) | 'text' (Dragon-Alpha text zip).
    CheckpointError naming the file when it is missing, not a ZIP archive, truncated or corrupt."""
    if not os.path.exists(path):
        raise CheckpointError(f"{who}: no checkpoint file {path!r}")
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
    except zipfile.BadZipFile as e:
        with open(path, "rb") as f:
            head = f.read(4)
        what = "truncated or corrupt" if head.startswith(b"PK") else "not a ZIP archive: truncated or corrupt, " \
                                                                      "or not a checkpoint"
        raise CheckpointError(f"{who} {path!r}: not a readable checkpoint ({what}: {e})") from None
    except OSError as e:
        raise CheckpointError(f"{who} {path!r}: cannot be read ({type(e).__name__}: {e})") from None
    if HEADER_ENTRY in names:
        return "v2"
    if "meta.json" in names and "net.npz" in names:
        return "train1"
    if "meta.npy" in names and any(n.startswith("net/") for n in names):
        return "spark1"
    if names and all(n.endswith(".npy") for n in names):
        return "npz"
    return "text"


def entry(z, key, path):
    """One array of an open NpzFile; a corrupt entry (bad CRC, short data) names the file."""
    try:
        return z[key]
    except KeyError:
        raise CheckpointError(f"checkpoint {path!r}: entry {key!r} is missing") from None
    except READ_ERRORS as e:
        raise CheckpointError(f"checkpoint {path!r}: entry {key!r} is corrupt ({type(e).__name__}: {e})") from None


def _json(data, what, path):
    try:
        return json.loads(bytes(data).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise CheckpointError(f"checkpoint {path!r}: {what} is not JSON ({e})") from None


def read_spark_v1(z, path):
    """Spark's first layout: meta (JSON bytes: step, epoch, batch, ...), net/<key>, optim/<key>."""
    meta = _json(entry(z, "meta", path), "entry 'meta'", path)
    net = {k[4:]: entry(z, k, path) for k in z.files if k.startswith("net/")}
    optim = {k[6:]: entry(z, k, path) for k in z.files if k.startswith("optim/")}
    step, epoch = int(meta.pop("step", 0)), int(meta.pop("epoch", 0))
    meta["source"] = "spark ckpt v1"
    return dict(model=None, model_args={}, net_state=net, optim_state=optim or None, epoch=epoch, step=step,
                meta=meta)


def _nested_npz(zf, name, path):
    try:
        with np.load(io.BytesIO(zf.read(name)), allow_pickle=False) as inner:
            return {k: entry(inner, k, f"{path}!{name}") for k in inner.files}
    except READ_ERRORS as e:
        raise CheckpointError(f"checkpoint {path!r}: entry {name!r} is corrupt ({type(e).__name__}: {e})") from None


def read_train_v1(z, path):
    """`alpha train`'s first layout: a zip of meta.json, net.npz and (optionally) optim.npz."""
    zf = z.zip
    try:
        meta = _json(zf.read("meta.json"), "meta.json", path)
    except READ_ERRORS as e:
        raise CheckpointError(f"checkpoint {path!r}: entry 'meta.json' is corrupt ({e})") from None
    net = _nested_npz(zf, "net.npz", path)
    optim = _nested_npz(zf, "optim.npz", path) if "optim.npz" in zf.namelist() else None
    model = meta.pop("model", None)
    model_args = {k: meta.pop(k) for k in TRAIN_V1_GEOMETRY if k in meta}
    meta.pop("format", None)
    epoch = int(meta.pop("epoch", 0))
    step = len((meta.get("history") or {}).get("step_loss", []))
    meta["source"] = "alpha train ckpt v1"
    return dict(model=model, model_args=model_args, net_state=net, optim_state=optim, epoch=epoch, step=step,
                meta=meta)


def split_bare(arrays):
    """A bare alpha.stat file holds one state: an optimizer's (it has 'step') or a net's."""
    if "step" in arrays:
        return {}, arrays
    return arrays, None


def read_text_zip(path):
    """Every entry of a Dragon-Alpha text zip, shaped by its shape table when it has one."""
    reader = TextZipReader(path)
    try:
        out = {}
        for k in reader.keys():
            arr = reader.read(k)
            shape = reader.shape(k)
            out[k] = arr.reshape(shape) if shape is not None and np.prod(shape) == arr.size else arr
        return out
    finally:
        reader.close()

