"""stat layer: THE training checkpoint of Alpha, shared by `alpha train/eval`, alpha_py.distributed
(Spark), alpha.stat and the Java facade. Layout (format version 2) — a NumPy .npz (a ZIP archive of
uncompressed .npy entries), written atomically (temp file, fsync, rename):
  alpha_checkpoint.npy  uint8 UTF-8 JSON: {"format": "alpha-checkpoint", "version": 2,
                        "model": zoo name or null, "model_args": {...get_model kwargs},
                        "epoch": int, "step": int, "meta": {...}, "net": [keys], "optim": [keys]|null,
                        "alpha_params": {AlphaParam fields that differed from v1.2's defaults at save time}}
  net/<key>.npy         every parameter and buffer of the net (net.state_map() names and order)
  optim/<key>.npy       the optimizer's state_map() (moments, step, lr scheduler), when saved
read_checkpoint also reads every older file the project wrote (the `alpha train` .ckpt zip, Spark's
ckpt-<step>.npz, alpha.stat .npz and Dragon-Alpha text zips): see stat.legacy_checkpoints.
Imports numpy, json, stat.state_files / stat.formats / stat.legacy_checkpoints, alpha_py.errors / params; the zoo
and the engine factory only inside build_model."""
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from ..errors import ArgumentError, CheckpointError
from ..params import AlphaParam
from . import legacy_checkpoints
from .state_files import atomic_write, check_finite_state, host_state, load_arrays, load_reader
from .formats import READ_ERRORS, DictReader, NpzReader, TextZipReader

FORMAT = "alpha-checkpoint"
VERSION = 2
HEADER = "alpha_checkpoint"
SPARK_NAME = re.compile(r"^ckpt-(\d{9})\.npz$")


@dataclass
class Checkpoint:
    """One checkpoint read back: host NumPy arrays and plain-JSON metadata."""
    path: str
    version: int                      # 2: this layout; 1: older alpha train / Spark files; 0: bare state
    model: Optional[str]              # zoo name (alpha_py.zoo.MODELS) or None (custom net)
    model_args: dict                  # get_model keyword arguments: in_channels, num_classes, input_size
    net_state: dict                   # name -> np.ndarray, weights and buffers (BatchNorm running stats)
    optim_state: Optional[dict]       # optimizer state_map() key -> np.ndarray, or None
    epoch: int = 0
    step: int = 0
    meta: dict = field(default_factory=dict)
    alpha_params: dict = field(default_factory=dict)   # AlphaParam fields changed when it was saved (build_model)


def _host(obj, what):
    """Host arrays of a net / optimizer, or a dict name -> array as it is (Spark's driver state)."""
    if isinstance(obj, dict):
        return {str(k): np.asarray(v) for k, v in obj.items()}
    if hasattr(obj, "state_map"):
        return host_state(obj, f"save_checkpoint ({what})")
    raise ArgumentError(f"save_checkpoint: {what} must be a net / optimizer or a dict name -> array, "
                        f"got {type(obj).__name__}")


def _json(value, what):
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as e:
        raise ArgumentError(f"save_checkpoint: {what} must be JSON-serialisable ({e})") from None


def writable_problem(directory):
    """None when a file can be written in `directory` (created if needed), else the reason. A real
    probe: permission bits lie for root and on some network file systems."""
    try:
        os.makedirs(directory, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".alpha-write-probe-", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"{type(e).__name__}: {e.strerror or e}"
    return None


def check_writable(directory, who="save_checkpoint"):
    """CheckpointError naming `directory` unless a checkpoint can be written there."""
    directory = os.path.abspath(os.fspath(directory or "."))
    problem = writable_problem(directory)
    if problem:
        raise CheckpointError(f"{who}: checkpoint directory {directory!r} is not writable ({problem})")
    return directory


def save_checkpoint(path, net, opt=None, *, model, model_args, epoch=0, step=0, meta=None, keep_prev=False):
    """Write one checkpoint (layout above) atomically; returns the path.

    net: a Unit/Module or a dict name -> array; opt: an Optimizer, a dict, or None; model: the zoo
    name that rebuilds the net (None for a custom net); model_args: get_model's keyword arguments
    (in_channels, num_classes, input_size, act); meta: any JSON-serialisable dict (history, dataset).
    A state holding NaN/Inf raises NonFiniteError before anything is written (the file on disk stays the newest
    finite checkpoint); keep_prev: after that check, keep the file being replaced as <path>.prev."""
    path = os.fspath(path)
    if model is not None:
        from ..zoo.registry import MODELS
        if model not in MODELS:
            raise ArgumentError(f"save_checkpoint: model {model!r} is not a zoo name {sorted(MODELS)}; "
                                "pass model=None for a custom net")
    net_arrays = _host(net, "net")
    opt_arrays = None if opt is None else _host(opt, "opt")
    header = {"format": FORMAT, "version": VERSION, "model": model,
              "model_args": _json(dict(model_args or {}), "model_args"), "epoch": int(epoch),
              "step": int(step), "meta": _json(dict(meta or {}), "meta"), "net": list(net_arrays),
              "optim": None if opt_arrays is None else list(opt_arrays), "alpha_params": AlphaParam.changed()}
    arrays = {HEADER: np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)}
    arrays.update((f"net/{k}", v) for k, v in net_arrays.items())
    arrays.update((f"optim/{k}", v) for k, v in (opt_arrays or {}).items())
    check_finite_state(net_arrays, "save_checkpoint (net)", path)
    check_finite_state(opt_arrays or {}, "save_checkpoint (optimizer)", path)
    check_writable(os.path.dirname(os.path.abspath(path)))
    if keep_prev:
        keep_previous(path)
    try:
        return atomic_write(path, lambda f: np.savez(f, **arrays))
    except OSError as e:
        raise CheckpointError(f"save_checkpoint: cannot write {path!r} ({type(e).__name__}: {e}); "
                              "the previous file, if any, is unchanged") from None


def checkpoint_files(directory):
    """Spark-style checkpoints `ckpt-<step>.npz` of a directory, newest (highest step) first."""
    if not os.path.isdir(directory):
        return []
    steps = sorted((int(m.group(1)) for m in map(SPARK_NAME.match, os.listdir(directory)) if m), reverse=True)
    return [os.path.join(directory, f"ckpt-{s:09d}.npz") for s in steps]


def _read_v2(z, path):
    try:
        header = json.loads(bytes(z[HEADER]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise CheckpointError(f"checkpoint {path!r}: header {HEADER!r} is not JSON ({e})") from None
    if header.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path!r}: format {header.get('format')!r}, expected {FORMAT!r}")
    if header.get("version", 0) > VERSION:
        raise CheckpointError(f"checkpoint {path!r}: format version {header['version']} is newer than this "
                              f"Alpha reads ({VERSION}); upgrade alpha_py")
    net = {k: legacy_checkpoints.entry(z, f"net/{k}", path) for k in header["net"]}
    optim = None
    if header.get("optim") is not None:
        optim = {k: legacy_checkpoints.entry(z, f"optim/{k}", path) for k in header["optim"]}
    return Checkpoint(path, int(header["version"]), header.get("model"), dict(header.get("model_args") or {}),
                      net, optim, int(header.get("epoch", 0)), int(header.get("step", 0)),
                      dict(header.get("meta") or {}), dict(header.get("alpha_params") or {}))


def read_checkpoint(path):
    """Read any checkpoint Alpha has written (this layout, the older `alpha train` zip, Spark's
    ckpt-<step>.npz, alpha.stat .npz / text zip); a directory means its newest ckpt-<step>.npz.
    Every array is read (and CRC-checked) here: CheckpointError names the file when it is missing,
    truncated or corrupt."""
    path = os.fspath(path)
    if os.path.isdir(path):
        files = checkpoint_files(path)
        if not files:
            raise CheckpointError(f"checkpoint directory {path!r} holds no ckpt-<step>.npz file")
        path = files[0]
    kind = legacy_checkpoints.sniff(path)
    if kind == "text":             # decimal text: weights back to float32 (BatchNorm's float64 exp_beta buffers
        net, optim = legacy_checkpoints.split_bare(legacy_checkpoints.read_text_zip(path))   # stay float64),
        net = {k: v if k.endswith(".exp_beta") else v.astype(np.float32) for k, v in net.items()}   # optimizer
        # state kept float64
        return Checkpoint(path, 0, None, {}, net, optim, meta={"source": "text zip"})
    try:
        z = np.load(path, allow_pickle=False)
    except READ_ERRORS as e:
        raise CheckpointError(f"checkpoint {path!r} is truncated or corrupt ({type(e).__name__}: {e})") from None
    with z:
        if kind == "v2":
            return _read_v2(z, path)
        if kind == "spark1":
            return Checkpoint(path, 1, **legacy_checkpoints.read_spark_v1(z, path))
        if kind == "train1":
            return Checkpoint(path, 1, **legacy_checkpoints.read_train_v1(z, path))
        net, optim = legacy_checkpoints.split_bare({k: legacy_checkpoints.entry(z, k, path) for k in z.files})
        return Checkpoint(path, 0, None, {}, net, optim, meta={"source": "alpha.stat npz"})


def open_reader(path, fn, is_net):
    """alpha.stat's reader (keys / shape / read / close) over any checkpoint file: the net's or the
    optimizer's state, picked by content, not by extension."""
    kind = legacy_checkpoints.sniff(path, fn)
    if kind == "text":
        return TextZipReader(path)
    if kind == "npz":
        return NpzReader(path)
    ck = read_checkpoint(path)
    state = ck.net_state if is_net else ck.optim_state
    if state is None:
        raise CheckpointError(f"{fn} {path!r}: this training checkpoint holds no optimizer state")
    return DictReader(state)


def load(stateful, path, fmt, partial=False):
    """alpha.stat.load_<fmt>: any layout (text zip, .npz, or a training checkpoint, whose net or
    optimizer part is taken) into a net or optimizer, validated first (stat.state_files.load_reader)."""
    return load_reader(stateful, open_reader, path, f"load_{fmt}", partial)


def read_first_good(paths, warn=print):
    """The first readable checkpoint of `paths` (newest first). Each unreadable one is skipped with
    warn('warning: ...'); CheckpointError lists them all when none can be read."""
    problems = []
    for p in paths:
        if not os.path.exists(p):
            continue
        try:
            ck = read_checkpoint(p)
        except CheckpointError as e:
            problems.append(str(e))
            continue
        for msg in problems:
            warn(f"warning: {msg}; falling back to the previous checkpoint {p!r}")
        return ck
    if problems:
        raise CheckpointError("no readable checkpoint: " + " | ".join(problems))
    raise CheckpointError(f"no checkpoint found (looked for {', '.join(map(repr, paths))})")


def keep_previous(path):
    """Before overwriting `path`, keep the current file as `<path>.prev` (a hard link, else a copy),
    so a resume can fall back to it when the new file turns out truncated or corrupt."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        return None
    prev = path + ".prev"
    tmp = f"{prev}.{os.getpid()}.tmp"
    try:
        os.link(path, tmp)
    except OSError:
        import shutil
        shutil.copyfile(path, tmp)
    os.replace(tmp, prev)
    return prev


def make_engine(engine):
    """An Engine as it is, or one by name: 'cpu', 'cuda' or 'cuda:N'."""
    if not isinstance(engine, str):
        return engine
    from ..engine.factory import engine as engines
    if engine == "cpu":
        return engines.cpu_float32()
    m = re.match(r"^cuda(?::(\d+))?$", engine)
    if m:
        return engines.cuda_float32(int(m.group(1) or 0))
    raise ArgumentError(f"build_model: engine {engine!r}: expected an Engine, 'cpu', 'cuda' or 'cuda:N'")


def build_model(ckpt_or_path, engine):
    """The zoo net a checkpoint records (model + model_args), initialised on `engine`, its weights
    and buffers loaded strictly (names and shapes), in eval mode."""
    ck = ckpt_or_path if isinstance(ckpt_or_path, Checkpoint) else read_checkpoint(ckpt_or_path)
    from ..zoo.registry import MODELS, get_model
    if not ck.model:
        raise CheckpointError(f"build_model: checkpoint {ck.path!r} records no zoo model name (written "
                              "for a custom net or by an older Spark job): build the net yourself and "
                              "load it with alpha.stat.load(net, path)")
    if ck.model not in MODELS:
        raise CheckpointError(f"build_model: checkpoint {ck.path!r} names model {ck.model!r}, which is not "
                              f"in the zoo {sorted(MODELS)}")
    try:
        with AlphaParam.using(**getattr(ck, "alpha_params", {})):    # the defaults the net was built with
            net = get_model(ck.model, **ck.model_args)
    except (ArgumentError, TypeError) as e:
        raise CheckpointError(f"build_model: checkpoint {ck.path!r}: model_args {ck.model_args} do not build "
                              f"{ck.model!r} ({e})") from None
    net.init(make_engine(engine))
    load_arrays(net, ck.net_state, ck.path, "build_model")
    return net.eval()
