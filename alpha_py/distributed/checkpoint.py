"""Distributed layer: the driver's training checkpoints, `CKPT/ckpt-<step>.npz`, in the one layout
of alpha_py.stat.train_checkpoint (weights, buffers, optimizer state, epoch/step, zoo model name and arguments),
so `alpha eval`, `alpha train --resume`, alpha.stat and Java read them too. Written atomically;
the newest `keep` are kept, and a resume falls back from a corrupt newest file to the one before.
Imports os and alpha_py.stat.train_checkpoint."""
import os

from ..errors import CheckpointError
from ..stat.state_files import atomic_write
from ..stat.train_checkpoint import checkpoint_files, read_checkpoint, save_checkpoint

__all__ = ["Checkpointer", "atomic_write"]


class Checkpointer:
    """Checkpoints in one directory, named by global step; keeps the newest `keep`.
    model / model_args: the zoo name and get_model arguments recorded in every file (None for a
    custom net)."""

    def __init__(self, directory, keep=2, model=None, model_args=None):
        self.directory, self.keep = os.fspath(directory), int(keep)
        self.model, self.model_args = model, dict(model_args or {})

    def path_for(self, step):
        return os.path.join(self.directory, f"ckpt-{int(step):09d}.npz")

    def list(self):
        """Checkpoint files, oldest first."""
        return checkpoint_files(self.directory)[::-1]

    def save(self, state, meta):
        """state: {"net": {name: array}, "optim": {key: array}}; meta: JSON-able dict with 'step'
        (and 'epoch'); the rest is kept as the checkpoint's meta."""
        rest = {k: v for k, v in meta.items() if k not in ("step", "epoch")}
        path = save_checkpoint(self.path_for(meta["step"]), state["net"], state.get("optim") or {},
                               model=self.model, model_args=self.model_args, epoch=meta.get("epoch", 0),
                               step=meta["step"], meta=rest)
        for old in self.list()[:-self.keep]:
            os.unlink(old)
        return path

    def latest(self):
        files = self.list()
        return files[-1] if files else None

    @staticmethod
    def load(path):
        """(state, meta) of one checkpoint file (any layout read_checkpoint takes); meta holds
        'step', 'epoch', 'model' and the saved meta. CheckpointError names an unreadable file."""
        ck = read_checkpoint(path)
        meta = dict(ck.meta, step=ck.step, epoch=ck.epoch, model=ck.model)
        return {"net": ck.net_state, "optim": ck.optim_state or {}}, meta

    def load_latest_good(self, warn=print):
        """(path, state, meta) of the newest readable checkpoint, or None when there is none yet.
        A corrupt or truncated newer file is skipped with a warning naming it; CheckpointError when
        every file is unreadable."""
        problems = []
        for path in self.list()[::-1]:
            try:
                state, meta = self.load(path)
            except CheckpointError as e:
                problems.append(str(e))
                warn(f"warning: {e}; falling back to the previous checkpoint")
                continue
            return path, state, meta
        if problems:
            raise CheckpointError(f"no readable checkpoint in {self.directory!r}: " + " | ".join(problems))
        return None
