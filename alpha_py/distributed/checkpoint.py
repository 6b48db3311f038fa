"""Distributed layer: the driver's training checkpoints — net weights/buffers, optimizer state and
progress (epoch, step) in ONE .npz file (so weights and optimizer can never disagree), written with
alpha.stat's atomic_write (temp file, fsync, rename): a reader sees the old file or the new one,
never half of one. Imports numpy, json, os, alpha_py.stat and alpha_py.errors."""
import json
import os
import re
import zipfile

import numpy as np

from ..errors import CheckpointError
from ..stat.checkpoint import atomic_write

_NAME = re.compile(r"^ckpt-(\d{9})\.npz$")


class Checkpointer:
    """Checkpoints in one directory, named by global step; keeps the newest `keep`."""

    def __init__(self, directory, keep=2):
        self.directory, self.keep = os.fspath(directory), int(keep)

    def path_for(self, step):
        return os.path.join(self.directory, f"ckpt-{int(step):09d}.npz")

    def list(self):
        if not os.path.isdir(self.directory):
            return []
        steps = sorted(int(m.group(1)) for m in map(_NAME.match, os.listdir(self.directory)) if m)
        return [self.path_for(s) for s in steps]

    def save(self, state, meta):
        """state: {"net": {name: array}, "optim": {key: array}}; meta: JSON-able dict with 'step'."""
        arrays = {f"net/{k}": v for k, v in state["net"].items()}
        arrays.update({f"optim/{k}": np.asarray(v) for k, v in (state.get("optim") or {}).items()})
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        path = self.path_for(meta["step"])
        atomic_write(path, lambda f: np.savez(f, **arrays))
        for old in self.list()[:-self.keep]:
            os.unlink(old)
        return path

    def latest(self):
        files = self.list()
        return files[-1] if files else None

    @staticmethod
    def load(path):
        """(state, meta) of one checkpoint file; CheckpointError when it is unreadable."""
        try:
            with np.load(path, allow_pickle=False) as z:
                data = {k: z[k] for k in z.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
            raise CheckpointError(f"checkpoint {path!r} is unreadable ({type(e).__name__}: {e})") from None
        if "meta" not in data:
            raise CheckpointError(f"checkpoint {path!r} has no 'meta' entry (not an Alpha training checkpoint)")
        meta = json.loads(bytes(data.pop("meta")).decode())
        state = {"net": {}, "optim": {}}
        for k, v in data.items():
            group, _, name = k.partition("/")
            state[group][name] = v
        return state, meta
