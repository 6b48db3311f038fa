"""Backend layer (CUDA): `optim_step` as one launch of kernels/optim.cu over every parameter of the step,
following the contract in backend/optim_ops.py (same host scalars via optim_scalars). Mixed into
CudaBackend; imports cupy, numpy and backend/optim_ops."""
import cupy
import numpy as np

from ..errors import ArgumentError
from .optim_ops import OPTIM_RULES, optim_scalars, state_names

RULE_CODES = {"sgd": 0, "momentum": 1, "sgdmn": 2, "rmsprop": 3, "adam": 4, "adamw": 5, "adamax": 6,
              "radam": 7, "adamod": 8}
f32 = np.float32


class CudaOptimOps:
    """Fused optimizer update: one kernel launch per optimizer step."""

    def _fusable(self, arrays):
        return all(isinstance(a, cupy.ndarray) and a.dtype == np.float32 and a.flags.c_contiguous
                   for a in arrays)

    def optim_step(self, rule, weights, grads, states, hp):
        if rule not in OPTIM_RULES:
            raise ArgumentError(f"optim_step: unknown rule {rule!r}, expected one of {sorted(OPTIM_RULES)}")
        amsgrad = bool(hp.get("amsgrad", False))
        names = state_names(rule, amsgrad)
        k = len(weights)
        if len(grads) != k or any(n not in states or len(states[n]) != k for n in names):
            return super().optim_step(rule, weights, grads, states, hp)     # raises the contract's error
        st = [states[n] for n in names]
        if k == 0:
            return None
        flat = list(weights) + list(grads) + [a for s in st for a in s]
        if not self._fusable(flat) or any(g.shape != w.shape for w, g in zip(weights, grads)):
            return super().optim_step(rule, weights, grads, states, hp)
        sc = optim_scalars(rule, hp)
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
        dtab = self.from_host(tab, dtype=np.uint64)
        lr = float(hp["lr"])
        l1, l2 = float(hp.get("L1", 0.0)), float(hp.get("L2", 0.0))
        h1 = h2 = h3 = 0.0
        k1 = k2 = k3 = 0.0
        flag = 0
        if rule in ("momentum", "rmsprop"):
            h1 = float(hp["beta"])
            k1 = 1.0 - h1
        elif rule == "sgdmn":
            h1, k2, flag = float(hp["momentum"]), 1.0 - float(hp["dampen"]), int(bool(hp["nesterov"]))
        elif rule in ("adam", "adamw", "adamax", "radam", "adamod"):
            h1, h2 = float(hp["beta1"]), float(hp["beta2"])
            k1, k2 = 1.0 - h1, 1.0 - h2
            if rule == "adamod":
                h3 = float(hp["beta3"])
                k3 = 1.0 - h3
            flag = int(amsgrad) if rule in ("adam", "adamw") else int(bool(sc.get("rectified", False)))
        if rule == "adamw":
            l1, l2 = lr * l1, lr * l2
        eps = float(hp.get("eps", 0.0))
        self.launch_flat("optim", f"optim_step<{RULE_CODES[rule]}>", total,
                         (dtab, np.int32(k), np.int64(total), f32(lr), f32(sc.get("lr_t", lr)),
                          f32(sc.get("eps_t", eps)), f32(h1), f32(h2), f32(h3), f32(k1), f32(k2), f32(k3),
                          f32(l1), f32(l2), f32(eps), np.int32(flag)), per_thread=4)
        return None
