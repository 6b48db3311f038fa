"""stat layer: saving and loading the state of a "stateful" (a Unit/Module: net.state_map(), incl.
BatchNorm run_mean/run_var; or an Optimizer: its state_map()/load_state_map()). Writes are atomic
(temp file in the same directory, fsync, os.replace); loads validate everything before changing
anything. Imports stat.formats, numpy (host copies only), core.tensor (settle_lazy) and alpha_py.errors."""
import math
import os
import tempfile

import numpy as np

from ..core.tensor import settle_lazy
from ..errors import ArgumentError, CheckpointError, NonFiniteError, fmt_shape
from .formats import DictReader, write_npz, write_text_zip


def _state_map(stateful, fn):
    if not hasattr(stateful, "state_map") or not callable(stateful.state_map):
        raise ArgumentError(f"{fn}: expected a net (Unit/Module) or an optimizer, got "
                            f"{type(stateful).__name__}")
    return stateful.state_map()


def host_state(stateful, fn="save"):
    """Ordered key -> host NumPy copy of every state tensor."""
    return {k: np.array(t.numpy(), copy=True) for k, t in _state_map(stateful, fn).items()}


def atomic_write(path, write_fn):
    """Write through write_fn(binary file) into a temp file beside `path`, fsync it, then rename it
    over `path`: a crash at any point leaves either the old file or the new one, never a mix."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            write_fn(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if hasattr(os, "O_DIRECTORY"):                     # make the rename itself durable
        dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return path


def check_finite_state(arrays, who, path):
    """NonFiniteError (nothing written) when a float array of `arrays` (name -> host array) holds NaN/Inf:
    a state saved with them would be no resume point. Names the tensors and says `path` is left as it was."""
    bad = [k for k, a in arrays.items() if np.asarray(a).dtype.kind in "fc" and not np.isfinite(a).all()]
    if bad:
        shown = ", ".join(f"'{k}'" for k in bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        state = "is left unchanged" if os.path.exists(path) else "is not written"
        raise NonFiniteError(f"{who}: the state holds NaN/Inf values in {len(bad)} tensor(s) ({shown}); "
                             f"{os.fspath(path)!r} {state} (a non-finite state is never saved; alpha.stat saves take allow_nonfinite=True to write it anyway)")


def save(stateful, path, fmt, allow_nonfinite=False):
    arrays = host_state(stateful, f"save_{fmt}")
    if not allow_nonfinite:
        check_finite_state(arrays, f"save_{fmt} of {_describe(stateful)}", path)
    writer = write_text_zip if fmt == "zip" else write_npz
    return atomic_write(path, lambda f: writer(f, arrays))


def _describe(stateful):
    name = stateful.name() if hasattr(stateful, "name") and callable(stateful.name) else None
    return f"{type(stateful).__name__} '{name}'" if name else type(stateful).__name__


def load_reader(stateful, open_reader, path, fn, partial=False):
    """Validate a file's entries against stateful.state_map() and load them. Strict: missing keys,
    unexpected keys and shape mismatches are all errors (listed together). partial=True: load the
    keys both sides have; shape mismatches are still errors. `open_reader(path, fn, is_net)` gives the
    file's reader (stat.train_checkpoint.open_reader picks it by content); it runs after the stateful is checked."""
    expected = _state_map(stateful, fn)
    reader = open_reader(os.fspath(path), fn, hasattr(stateful, "units"))
    return _check_and_load(stateful, expected, reader, os.fspath(path), fn, partial)


def load_arrays(stateful, arrays, source, fn="load", partial=False):
    """Load host arrays (name -> array) into a net or optimizer with the same checks as load();
    `source` (a file name) appears in the messages."""
    return _check_and_load(stateful, _state_map(stateful, fn), DictReader(arrays), os.fspath(source), fn,
                           partial)


def _check_and_load(stateful, expected, reader, path, fn, partial):
    try:
        file_keys = reader.keys()
        missing = [k for k in expected if k not in file_keys]
        filled = {k: getattr(expected[k], "legacy_fill") for k in missing     # buffers added since the file
                  if getattr(expected[k], "legacy_fill", None) is not None}   # was written (BatchNorm exp_beta)
        missing = [k for k in missing if k not in filled]
        unexpected = [k for k in file_keys if k not in expected]
        values, mismatched = {}, []
        for k, t in expected.items():
            if k not in file_keys:
                continue
            arr, want = reader.read(k), tuple(t.shape)
            shape = reader.shape(k)
            file_shape = tuple(shape) if shape is not None else (arr.size,)
            if arr.size != math.prod(want) or (shape is not None and file_shape != want) \
                    or arr.size != math.prod(file_shape):
                mismatched.append((k, file_shape, want))
                continue
            values[k] = arr.reshape(want).astype(t.data.dtype, copy=False)
        for k, v in filled.items():
            t = expected[k]
            values[k] = np.full(tuple(t.shape), v, dtype=t.data.dtype)
    finally:
        reader.close()
    problems = []
    if mismatched:
        problems.append("shape mismatches (name: file shape vs expected): " + "; ".join(
            f"{k}: {fmt_shape(f)} vs {fmt_shape(w)}" for k, f, w in mismatched))
    if not partial and missing:
        problems.append(f"missing keys ({len(missing)}): {', '.join(missing)}")
    if not partial and unexpected:
        problems.append(f"unexpected keys ({len(unexpected)}): {', '.join(unexpected)}")
    if problems:
        hint = " (the net has no state yet: call net.init(engine) first)" if not expected else ""
        hint += "" if partial else "; pass partial=True to load only the matching keys"
        raise CheckpointError(f"{fn} '{path}' into {_describe(stateful)}: "
                              + " | ".join(problems) + hint)
    settle_lazy()                        # lazy BatchNorm outputs still held: computed before gamma/beta change
    if hasattr(stateful, "load_state_map"):
        stateful.load_state_map(values)
    else:
        for k, arr in values.items():
            t = expected[k]
            t.data[...] = t.engine.backend.from_host(arr, t.data.dtype)   # in place: keeps identity and dtype
    return stateful
