"""stat layer: `alpha.stat` — checkpoints of nets and optimizers. Text zip (Dragon-Alpha format):
save_zip / load_zip; binary (numpy .npz, faster): save_npz / load_npz; save / load pick by the file
extension ('.npz' -> binary, anything else -> text zip). `alpha.stat.opt` is the same object
(Figure 2 of the paper writes alpha.stat.opt.load_zip(opt, path)). Every load reads any layout by
content, training checkpoints of alpha_py.stat.train_checkpoint included (their net or optimizer part).
v1.2's state primitives (zip_writer, zip_reader, read, write, update, transform) come from stat.state_io.
Imports stat.state_files (saving), stat.state_io and stat.train_checkpoint (loading any layout)."""
from . import state_files as _ck
from .state_io import State, StateOps, ZipStateReader, ZipStateWriter
from .train_checkpoint import load as _load


class Stat(StateOps):
    """save_*(stateful, path) -> path; load_*(stateful, path[, partial]) -> stateful, where stateful is
    a net (its state_map(): parameters and buffers such as BatchNorm run_mean/run_var) or an
    optimizer (moments, velocities, step, scheduler). Writes are atomic; loads are strict unless
    partial=True and raise CheckpointError listing missing/unexpected keys and shape mismatches. A state holding
    NaN/Inf is refused with NonFiniteError (nothing written) unless allow_nonfinite=True asks for it explicitly
    (e.g. to exchange such values with Dragon-Alpha text files: Infinity/-Infinity/NaN)."""

    def __init__(self):
        self.opt = self

    def save_zip(self, stateful, path, allow_nonfinite=False):
        return _ck.save(stateful, path, "zip", allow_nonfinite)

    def load_zip(self, stateful, path, partial=False):
        return _load(stateful, path, "zip", bool(partial))

    def save_npz(self, stateful, path, allow_nonfinite=False):
        return _ck.save(stateful, path, "npz", allow_nonfinite)

    def load_npz(self, stateful, path, partial=False):
        return _load(stateful, path, "npz", bool(partial))

    @staticmethod
    def _fmt(path):
        return "npz" if str(path).lower().endswith(".npz") else "zip"

    def save(self, stateful, path, allow_nonfinite=False):
        return _ck.save(stateful, path, self._fmt(path), allow_nonfinite)

    def load(self, stateful, path, partial=False):
        return _load(stateful, path, self._fmt(path), bool(partial))

    def state(self, stateful):
        """Host copies of the state: ordered dict key -> NumPy array."""
        return _ck.host_state(stateful, "state")


stat = Stat()

__all__ = ["stat", "Stat", "State", "ZipStateReader", "ZipStateWriter"]
