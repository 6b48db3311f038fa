"""Backend layer (CUDA): `optim_step` as one launch of kernels/optim.cu over every parameter of the step,
following the contract in backend/optim_ops.py. The step's scalars live in a small device buffer written
by optim_set_scalars (never captured into a CUDA graph: replays rewrite it), and the pointer table comes
from the backend's cache of device tables, so an update never waits for the device. Mixed into
CudaBackend; the kernel instance is named by the rule's alpha_py.ops.OPTIM_RULES row (optim_step<OPTIM_ADAM>).
Imports cupy, numpy, backend/optim_ops and errors."""
import cupy
import numpy as np

from ..errors import GraphError
from .optim_ops import kernel_scalars, rule_spec, state_names

f32 = np.float32


class CudaOptimOps:
    """Fused optimizer update: one kernel launch per optimizer step (plus one for its scalars)."""

    _optim_sc = None

    def _fusable(self, arrays):
        return all(isinstance(a, cupy.ndarray) and a.dtype == np.float32 and a._c_contiguous   # (CuPy's flag)
                   for a in arrays)

    def optim_scalar_buffer(self):
        with self.device:
            return cupy.zeros((16,), dtype=np.float32)

    def optim_write_scalars(self, rule, hp, scalars):
        """Queue the write of step hp's scalars into `scalars` (a buffer from optim_scalar_buffer) on the
        current stream: one single-thread launch with the values as arguments, no host wait."""
        vals = kernel_scalars(rule, hp)
        self.kernel("optim", "optim_set_scalars")((1,), (32,), (scalars,) + tuple(f32(v) for v in vals))

    def optim_step(self, rule, weights, grads, states, hp, scalars=None):
        spec = rule_spec(rule)
        amsgrad = bool(hp.get("amsgrad", False))
        names = state_names(rule, amsgrad)
        k = len(weights)
        if len(grads) != k or any(n not in states or len(states[n]) != k for n in names):
            return super().optim_step(rule, weights, grads, states, hp)     # raises the contract's error
        st = [states[n] for n in names]
        if k == 0:
            return None
        flat = list(weights) + list(grads) + [a for s in st for a in s]
        capture = self.capture_state()
        if not self._fusable(flat) or any(g.shape != w.shape for w, g in zip(weights, grads)):
            if capture is not None:
                raise GraphError("optim_step: a parameter, gradient or state is not a C-contiguous float32 array "
                                 "shaped like its weight, so the update cannot run fused, and the unfused update "
                                 "bakes lr into the graph")
            return super().optim_step(rule, weights, grads, states, hp)
        if scalars is None:
            if capture is not None:
                raise GraphError("optim_step: inside a captured step the optimizer must pass its scalar buffer "
                                 "(optim_scalar_buffer), which replays rewrite")
            if self._optim_sc is None:
                self._optim_sc = self.optim_scalar_buffer()
            scalars = self._optim_sc
        sizes = np.array([w.size for w in weights], dtype=np.int64)
        off = np.zeros(k + 1, dtype=np.int64)
        np.cumsum(sizes, out=off[1:])
        total = int(off[-1])
        tab = np.zeros(6 * k + 1, dtype=np.uint64)
        tab[:k] = [w.data.ptr for w in weights]
        tab[k:2 * k] = [g.data.ptr for g in grads]
        for j in range(3):                       # unused state slots point at the weights (never read)
            tab[(2 + j) * k:(3 + j) * k] = [a.data.ptr for a in st[j]] if j < len(st) else tab[:k]
        tab[5 * k:] = off.view(np.uint64)
        dtab = self.tables.get(tab, None if capture is None else capture.keep)
        if capture is None:
            self.optim_write_scalars(rule, hp, scalars)
        else:
            capture.scalars.append(scalars)      # the step runner rewrites it before every replay
        self.launch_flat("optim", f"optim_step<{spec.kernel}>", total,
                         (dtab, np.int32(k), np.int64(total), scalars), per_thread=4)
        return None
