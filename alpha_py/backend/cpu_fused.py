"""Backend layer: FusedCpuOps, the CPU engine's primitives that run Numba kernels (cpu_kernels_*.py) instead of
chains of NumPy passes, the engine's thread count, the BLAS pinning around the pool's GEMMs and malloc's settings.
Mixed in before ArrayBackend; with `self.fused` False every primitive is the NumPy reference (the tests' oracle).
Imports numpy, numba, alpha_py.errors and its siblings."""
import os
import threading
import warnings

import numpy as np

from ..errors import ArgumentError
from .optim_ops import optim_scalars

PARALLEL_MIN = 1 << 15  # elements below which an element-wise op stays one NumPy call (or one thread)
SGD_FAMILY = {"sgd": (0, None, None), "momentum": (1, "velocity", "beta"), "sgdmn": (2, "velocity", "momentum"),
              "rmsprop": (3, "exp_avg_sq", "beta")}      # rule -> (kernel code, state, its decay hyper-parameter)


def host_cores():
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:          # not Linux
        return os.cpu_count() or 1


def resolve_threads(threads, who="cpu_float32"):
    """threads: None -> all cores; a positive int -> itself, clamped to the cores with a warning."""
    cores = host_cores()
    if threads is None:
        return cores
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise ArgumentError(f"{who}: threads must be a positive integer, got {threads!r} "
                            f"({type(threads).__name__})")
    if threads <= 0:
        raise ArgumentError(f"{who}: threads must be a positive integer, got {threads}")
    if threads > cores:
        warnings.warn(f"{who}: threads={threads} is more than the {cores} cores of this host; using {cores}",
                      RuntimeWarning, stacklevel=3)
        return cores
    return int(threads)


MMAP_THRESHOLD = 32 << 20     # glibc's largest: arrays up to this come from the heap, not a fresh mmap each
TRIM_THRESHOLD = (1 << 31) - 1  # freed heap memory is kept for the next step's arrays
_MALLOC_SET = []


def keep_freed_memory():
    """glibc only, once per process, unless ALPHA_CPU_MALLOC=0: malloc keeps freed arrays' pages for reuse instead of
    returning them to the OS, so a step's arrays do not page-fault afresh every step (measured: MNIST CNN inference
    step 7.1 -> 4.2 ms; bench/NOTES-cpu.md). The price: the process keeps its peak heap. Returns True when set."""
    if _MALLOC_SET or os.environ.get("ALPHA_CPU_MALLOC", "1") == "0":
        return bool(_MALLOC_SET and _MALLOC_SET[0])
    ok = False
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
        ok = bool(libc.mallopt(-3, MMAP_THRESHOLD)) and bool(libc.mallopt(-1, TRIM_THRESHOLD))  # M_MMAP_/M_TRIM_
    except (OSError, AttributeError):   # not glibc (macOS, musl, Windows): the allocator's own behaviour
        pass
    _MALLOC_SET.append(ok)
    return ok


def one_malloc_arena():
    """glibc only: every thread allocates from the main arena (M_ARENA_MAX = 1), for processes whose steps run on a
    thread other than the main one (the Py4J bridge's serving thread, Java threads calling in through JPype). A
    thread's own arena deletes its extra heaps as they empty, whatever the trim threshold, so such a step's arrays
    page-faulted afresh every step (a Java Module CNN over Py4J: 4,741 faults and 43 ms per step; 35-38 ms with one
    arena, 32 ms in Python; bench/NOTES-java.md). Not the default elsewhere: Numba's workers then share the arena's
    lock (CPU inference ~4% slower on 2 cores). Set before the threads first allocate. Returns True when set."""
    try:
        import ctypes
        return bool(ctypes.CDLL("libc.so.6").mallopt(-8, 1))        # M_ARENA_MAX
    except (OSError, AttributeError):   # not glibc: the allocator's own behaviour
        return False


class _OneBlasThread:
    """Context manager: every BLAS library loaded in the process runs single-threaded inside it (the Numba threads
    each call BLAS on their own slice), and gets its previous thread count back when the last of the threads inside
    leaves (counted under a lock: engines used from several threads at once restore the counts once, at the end)."""

    def __init__(self):
        from threadpoolctl import ThreadpoolController
        self.libs = [c for c in ThreadpoolController().lib_controllers if c.user_api == "blas"]
        self.prev, self.inside, self.lock = [], 0, threading.Lock()

    def __enter__(self):
        with self.lock:
            if self.inside == 0:
                self.prev = [c.get_num_threads() for c in self.libs]
                for c, n in zip(self.libs, self.prev):
                    if n != 1:
                        c.set_num_threads(1)
            self.inside += 1
        return self

    def __exit__(self, *exc):
        with self.lock:
            self.inside -= 1
            if self.inside == 0:
                for c, n in zip(self.libs, self.prev):
                    if n != 1:
                        c.set_num_threads(n)
        return False


_ONE_BLAS = []


def _one_blas():
    if not _ONE_BLAS:
        import scipy.linalg.cython_blas  # noqa: F401  (the BLAS Numba's np.dot calls: loaded before it is listed)
        _ONE_BLAS.append(_OneBlasThread())
    return _ONE_BLAS[0]


_PIECES = {}           # (activation, p1, dtype) -> _piecewise's constants
_KERNELS = []          # the kernel modules once imported (a primitive asks for them on every call)
_LOCAL = threading.local()   # numba_threads: the Numba thread count _k last set in this thread


def _kernels():
    """The kernel modules, imported on first use (importing numba costs ~0.3 s; compiling is per kernel).
    OpenMP's default wait policy (spin a while, then sleep) stays: every GEMM of a step runs inside the same pool
    (cpu_conv.py), and a sleeping worker takes ~0.3 ms to wake on a VM (bench/NOTES-cpu.md)."""
    from . import (cpu_kernels_act, cpu_kernels_conv, cpu_kernels_gemm, cpu_kernels_norm, cpu_kernels_wino,
                   cpu_kernels_wino4)        # (their cache folder, a writable one: cpu_kernel_cache.py)
    _KERNELS[:] = [(cpu_kernels_conv, cpu_kernels_norm, cpu_kernels_act, cpu_kernels_gemm, cpu_kernels_wino,
                    cpu_kernels_wino4)]
    return _KERNELS[0]


class FusedCpuOps:
    """Overrides of ArrayBackend primitives with Numba kernels (float32 and float64)."""

    fused = True
    threads = 1

    def _k(self):
        """The kernel modules, with Numba's pool set to this engine's thread count in the calling thread (asked of
        Numba only when another count was set here last: a count set by numba.set_num_threads outside Alpha in
        between is not seen)."""
        kernels = _KERNELS[0] if _KERNELS else _kernels()
        n = self.threads
        if getattr(_LOCAL, "numba_threads", None) != n:
            import numba
            m = min(n, numba.config.NUMBA_NUM_THREADS)
            if numba.get_num_threads() != m:
                numba.set_num_threads(m)
            _LOCAL.numba_threads = n
        return kernels

    # ---------------------------------------------------------------- pooling
    def pool_fwd(self, mode, x, k, stride, pad):
        if not self.fused:
            return super().pool_fwd(mode, x, k, stride, pad)
        (kh, kw), (sh, sw), (ph, pw) = k, stride, pad
        n, h, w, c = x.shape
        oh, ow = (h + 2 * ph - kh) // sh + 1, (w + 2 * pw - kw) // sw + 1
        y = np.empty((n, oh, ow, c), dtype=self.dtype)
        x = np.ascontiguousarray(x)
        if mode == "max":
            idx = np.empty((n, oh, ow, c), dtype=np.int8 if kh * kw <= 127 else np.int32)
            self._k()[0].maxpool_fwd(x, kh, kw, sh, sw, ph, pw, y, idx)
            return y, idx
        self._k()[0].avgpool_fwd(x, kh, kw, sh, sw, ph, pw, y)
        return y, None

    def pool_bwd(self, mode, gy, x, y, aux, k, stride, pad):
        if not self.fused:
            return super().pool_bwd(mode, gy, x, y, aux, k, stride, pad)
        (kh, kw), (sh, sw), (ph, pw) = k, stride, pad
        gx = np.empty(x.shape, dtype=self.dtype)
        gy = np.ascontiguousarray(gy)
        if mode == "max":
            self._k()[0].maxpool_bwd(gy, aux, kh, kw, sh, sw, ph, pw, gx)
        else:
            self._k()[0].avgpool_bwd(gy, kh, kw, sh, sw, ph, pw, gx)
        return gx

    # ---------------------------------------------------------------- batchNorm (+ activation)
    def _piecewise(self, name, p1):
        """(lo, hi, neg, one) of a fused activation as the kernels' dtype, or None: not fused (NumPy runs it)."""
        key = (name, p1, self.dtype)
        got = _PIECES.get(key)
        if got is None and key not in _PIECES:
            row = self._k()[1].PIECEWISE.get(name)
            t = self.dtype.type
            got = _PIECES[key] = None if row is None else (t(row[0]), t(row[1]), t(row[2](float(p1))), t(1))
        return got

    def _affine(self, gamma, beta, c):
        if gamma is not None:
            return gamma, beta
        return np.ones(c, self.dtype), np.zeros(c, self.dtype)

    def _bn_stats(self, x2, eps, mean, var):
        if mean is None:
            m64, v64 = self._k()[1].bn_stats(x2)
            mean, var = m64.astype(self.dtype), v64.astype(self.dtype)
        t = self.dtype.type
        return mean, var, t(1) / np.sqrt(var + t(eps))

    def bias_grad(self, gy):
        """Column sums in float64, rounded once: NumPy's for small gradients (a linear layer's: no thread pool to
        wake), else the kernel's over fixed chunks (the same bits for any thread count)."""
        if not self.fused or gy.size == 0:
            return super().bias_grad(gy)
        g2 = np.ascontiguousarray(gy).reshape(-1, gy.shape[-1])
        if g2.size < PARALLEL_MIN:
            return g2.sum(axis=0, dtype=np.float64).astype(self.dtype)
        return self._k()[1].col_sums(g2).astype(self.dtype)

    def bn_fwd(self, x, gamma, beta, eps, mean=None, var=None):
        if not self.fused:
            return super().bn_fwd(x, gamma, beta, eps, mean, var)
        return self._bn_act(self._piecewise(None, 0.0), x, gamma, beta, eps, mean, var)

    def bn_act_fwd(self, name, x, gamma, beta, eps, mean=None, var=None, p1=0.0, p2=0.0):
        pw = self._piecewise(name, p1)
        if not self.fused or pw is None:
            return super().bn_act_fwd(name, x, gamma, beta, eps, mean, var, p1, p2)
        return self._bn_act(pw, x, gamma, beta, eps, mean, var)

    def _bn_act(self, pw, x, gamma, beta, eps, mean, var):
        x2 = np.ascontiguousarray(x).reshape(-1, x.shape[-1])
        mean, var, inv = self._bn_stats(x2, eps, mean, var)
        out = np.empty_like(x2)
        self._k()[1].bn_act_apply(x2, mean, inv, *self._affine(gamma, beta, x2.shape[1]), *pw, out)
        return out.reshape(x.shape), mean, var, inv

    def bn_bwd(self, gy, x, mean, inv_std, gamma, batch_stats=True):
        if not self.fused:
            return super().bn_bwd(gy, x, mean, inv_std, gamma, batch_stats)
        return self._bn_act_bwd(self._piecewise(None, 0.0), gy, x, mean, inv_std, gamma, gamma, batch_stats)

    def bn_act_bwd(self, name, gy, x, mean, inv_std, gamma, beta, batch_stats=True, p1=0.0, p2=0.0):
        pw = self._piecewise(name, p1)
        if not self.fused or pw is None:
            return super().bn_act_bwd(name, gy, x, mean, inv_std, gamma, beta, batch_stats, p1, p2)
        return self._bn_act_bwd(pw, gy, x, mean, inv_std, gamma, beta, batch_stats)

    def _bn_act_bwd(self, pw, gy, x, mean, inv, gamma, beta, batch_stats):
        c = x.shape[-1]
        x2 = np.ascontiguousarray(x).reshape(-1, c)
        gy2 = np.ascontiguousarray(gy).reshape(-1, c)
        affine = gamma is not None
        g, b = self._affine(gamma, beta, c)
        kn = self._k()[1]
        sums = kn.bn_act_bwd_sums(gy2, x2, mean, inv, g, b, *pw)
        m = x2.shape[0]
        a, bb = (sums / m).astype(self.dtype) if batch_stats else np.zeros((2, c), self.dtype)
        gx = np.empty_like(x2)
        kn.bn_act_bwd_apply(gy2, x2, mean, inv, g, b, *pw, a, bb, gx)
        if not affine:
            return gx.reshape(x.shape), None, None
        return gx.reshape(x.shape), sums[1].astype(self.dtype), sums[0].astype(self.dtype)

    # ---------------------------------------------------------------- activations
    def _smooth(self, name, p1, p2, way):
        """(code, constants) of a smooth activation's kernel for way 'fwd'/'bwd', or None (NumPy runs it)."""
        from .cpu_kernels_act import SMOOTH_BWD, SMOOTH_FWD
        code = (SMOOTH_FWD if way == "fwd" else SMOOTH_BWD).get(name) if self.fused else None
        if code is None:
            return None
        from .act_ops import _GELU_C
        k = np.array([0.5, 1.0, _GELU_C, 0.044715, 3 * 0.044715, 1.0 / 6.0, 0.0, -3.0, 3.0, p1, p2, p2 * p1])
        return code, k.astype(self.dtype)

    def act_fwd(self, name, x, p1=0.0, p2=0.0):
        pw = self._piecewise(name, p1) if name is not None else None
        sm = self._smooth(name, p1, p2, "fwd") if pw is None else None
        if sm is not None:
            out = np.empty(x.shape, dtype=self.dtype)
            self._k()[2].smooth_fwd_flat(sm[0], np.ascontiguousarray(x, dtype=self.dtype).reshape(-1), sm[1],
                                         out.reshape(-1))
            return out
        if not self.fused or pw is None:
            return super().act_fwd(name, x, p1, p2)
        out, k = np.empty(x.shape, dtype=self.dtype), self._k()[1]
        (k.act_fwd_flat if x.size >= PARALLEL_MIN else k.act_fwd_flat_1)(np.ascontiguousarray(x).reshape(-1), *pw,
                                                                           out.reshape(-1))
        return out

    def act_bwd(self, name, gy, x, y, p1=0.0, p2=0.0, gy2=None, out=None):
        if gy2 is not None or out is not None:
            return self._act_bwd_fan_in(name, gy, x, y, p1, p2, gy2, out)
        pw = self._piecewise(name, p1) if name is not None else None
        sm = self._smooth(name, p1, p2, "bwd") if pw is None else None
        if sm is not None:
            if y is None:
                y = self.act_fwd(name, x, p1, p2)
            out = np.empty(x.shape, dtype=self.dtype)
            flat = [np.ascontiguousarray(a, dtype=self.dtype).reshape(-1) for a in (gy, x, y)]
            self._k()[2].smooth_bwd_flat(sm[0], *flat, sm[1], out.reshape(-1))
            return out
        if not self.fused or pw is None:
            return super().act_bwd(name, gy, x, y, p1, p2)
        out, k = np.empty(x.shape, dtype=self.dtype), self._k()[1]
        (k.act_bwd_flat if x.size >= PARALLEL_MIN else k.act_bwd_flat_1)(
            np.ascontiguousarray(gy).reshape(-1), np.ascontiguousarray(x).reshape(-1), *pw, out.reshape(-1))
        return out

    def add(self, a, b):
        """a + b in the pool for same-shape C-order arrays of the engine's dtype (gradient accumulation)."""
        if not self._parallel_add(a, b):
            return super().add(a, b)
        out = np.empty(a.shape, dtype=self.dtype)
        self._k()[1].add_act_flat(a.reshape(-1), b.reshape(-1), *self._piecewise(None, 0.0), out.reshape(-1))
        return out

    def add_into(self, a, b):
        if not self._parallel_add(a, b):
            return super().add_into(a, b)
        self._k()[1].add_act_flat(a.reshape(-1), b.reshape(-1), *self._piecewise(None, 0.0), a.reshape(-1))
        return a

    def _parallel_add(self, a, b):
        return (self.fused and isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and a.dtype == self.dtype and b.dtype == self.dtype and a.size >= PARALLEL_MIN
                and a.flags.c_contiguous and b.flags.c_contiguous)

    def add_act(self, name, a, b, p1=0.0, p2=0.0):
        pw = self._piecewise(name, p1) if name is not None else None
        if not self.fused or pw is None or a.shape != b.shape:
            return super().add_act(name, a, b, p1, p2)
        out, k = np.empty(a.shape, dtype=self.dtype), self._k()[1]
        (k.add_act_flat if a.size >= PARALLEL_MIN else k.add_act_flat_1)(
            np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(b).reshape(-1), *pw, out.reshape(-1))
        return out

    # ---------------------------------------------------------------- optimizer
    def optim_step(self, rule, weights, grads, states, hp, scalars=None):
        """adam/adamw without amsgrad, sgd, momentum, sgdmn, rmsprop: one fused pass per parameter; other rules
        (adamax, radam, adamod, amsgrad): the NumPy reference."""
        if self.fused and rule in SGD_FAMILY:
            return self._sgd_family(rule, weights, grads, states, hp, scalars)
        if not self.fused or rule not in ("adam", "adamw") or hp.get("amsgrad", False):
            return super().optim_step(rule, weights, grads, states, hp, scalars)
        if len(grads) != len(weights) or any(len(states.get(n, ())) != len(weights)
                                              for n in ("exp_avg", "exp_avg_sq")):
            return super().optim_step(rule, weights, grads, states, hp, scalars)    # its errors name the fault
        sc, t = optim_scalars(rule, hp), self.dtype.type
        b1, b2 = float(hp["beta1"]), float(hp["beta2"])
        l1, l2, lr = float(hp.get("L1", 0.0)), float(hp.get("L2", 0.0)), float(hp["lr"])
        coupled = rule == "adam"
        args = (t(b1), t(1.0 - b1), t(b2), t(1.0 - b2), t(sc["lr_t"]), t(sc["eps_t"]),
                t(l1 if coupled else 0.0), t(l2 if coupled else 0.0),
                t(0.0 if coupled else lr * l1), t(0.0 if coupled else lr * l2))
        kn = self._k()[1]
        for w, g, m, s in zip(weights, grads, states["exp_avg"], states["exp_avg_sq"]):
            if not (w.flags.c_contiguous and m.flags.c_contiguous and s.flags.c_contiguous):
                raise ArgumentError(f"optim_step({rule}): weights and states must be C-contiguous arrays")
            kn.adam_flat(w.reshape(-1), np.ascontiguousarray(g, dtype=self.dtype).reshape(-1), m.reshape(-1),
                         s.reshape(-1), *args)

    def _sgd_family(self, rule, weights, grads, states, hp, scalars):
        code, state, key = SGD_FAMILY[rule]
        vs = states.get(state, ()) if state else weights
        if len(grads) != len(weights) or len(vs) != len(weights):
            return super().optim_step(rule, weights, grads, states, hp, scalars)    # its errors name the fault
        optim_scalars(rule, hp)                                                      # checks the step number
        t = self.dtype.type
        h = float(hp[key]) if key else 0.0
        k = 1.0 - (float(hp["dampen"]) if rule == "sgdmn" else h)
        args = (t(hp["lr"]), t(hp.get("L1", 0.0)), t(hp.get("L2", 0.0)), t(h), t(k), t(hp.get("eps", 0.0)),
                bool(hp.get("nesterov", False)))
        kn = self._k()[1]
        for w, g, v in zip(weights, grads, vs):
            if not (w.flags.c_contiguous and v.flags.c_contiguous):
                raise ArgumentError(f"optim_step({rule}): weights and states must be C-contiguous arrays")
            kn.sgd_family_flat(code, w.reshape(-1), np.ascontiguousarray(g, dtype=self.dtype).reshape(-1),
                               v.reshape(-1), *args)
