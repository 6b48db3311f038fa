"""CPU backend: NumpyCpuBackend, the NumPy primitives (the tests' oracle): convolution is im2col + BLAS matmul,
pools are strided window views, no Python loop over pixels or batch items; CpuBackend, the engine's backend, runs
the fused multi-threaded kernels of cpu_fused.py over it (`fused=False`: NumPy only)."""
import functools
import inspect
import os
import threading

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .base import ArrayBackend, out_size  # noqa: F401  (out_size: importers of cpu.out_size)
from .cpu_conv import FusedConvOps
from .cpu_fused import FusedCpuOps, keep_freed_memory, resolve_threads


_QUIET = threading.local()      # on: this thread runs inside a quiet primitive already
try:                            # NumPy 2's error state is a context variable: set it to a prebuilt "ignore all"
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
    _IGNORE = _make_extobj(all="ignore")    # (what np.errstate(all="ignore") builds on every entry)
except (ImportError, AttributeError, TypeError):     # another NumPy: np.errstate
    _extobj_contextvar = None


def _quiet(fn):
    """fn with NumPy's floating-point warnings off: a NaN/Inf a primitive makes is handled above it (the
    training step's --on-nonfinite check, anomaly mode, checkpoint checks), never a leaked RuntimeWarning. A
    primitive called by another runs inside the caller's errstate (entered once per outermost call)."""
    @functools.wraps(fn)
    def quiet(*args, **kwargs):
        if getattr(_QUIET, "on", False):
            return fn(*args, **kwargs)
        _QUIET.on = True
        try:
            if _extobj_contextvar is None:
                with np.errstate(all="ignore"):
                    return fn(*args, **kwargs)
            token = _extobj_contextvar.set(_IGNORE)
            try:
                return fn(*args, **kwargs)
            finally:
                _extobj_contextvar.reset(token)
        finally:
            _QUIET.on = False
    quiet.alpha_quiet = True
    return quiet


def quiet_primitives(cls):
    """Class decorator: every public method of cls (inherited ones too; not static/class methods) runs under
    _quiet."""
    for name in dir(cls):
        f = inspect.getattr_static(cls, name)
        if not name.startswith("_") and inspect.isfunction(f) and not getattr(f, "alpha_quiet", False):
            setattr(cls, name, _quiet(getattr(cls, name)))
    return cls


@quiet_primitives
class NumpyCpuBackend(ArrayBackend):
    name = "cpu"
    fused = False

    def __init__(self, dtype=np.float32, threads=None):
        super().__init__(np, dtype)
        self.threads = resolve_threads(threads)
        if threads is not None:
            # BLAS thread pools are process-wide: the last engine created with a count sets it
            from threadpoolctl import threadpool_limits
            self._limits = threadpool_limits(limits=self.threads)
        self._rng = np.random.Generator(np.random.PCG64(0))

    def to_host(self, a):
        return np.asarray(a)

    # ---------------------------------------------------------------- random
    def seed(self, seed):
        self._rng = np.random.Generator(np.random.PCG64(int(seed) & 0xFFFFFFFFFFFFFFFF))

    def rng_state(self):
        """The generator's state (train_step rolls a failed step back to it)."""
        return self._rng.bit_generator.state

    def set_rng_state(self, state):
        self._rng.bit_generator.state = state

    def uniform(self, shape, low, high):
        return self._rng.uniform(low, high, size=tuple(shape)).astype(self.dtype)

    def gaussian(self, shape, mean, std):
        return self._rng.normal(mean, std, size=tuple(shape)).astype(self.dtype)

    # ---------------------------------------------------------------- windows
    @staticmethod
    def _windows(x, fh, fw, stride, pad, fill=0.0):
        """[N,H,W,C] -> strided view [N,OH,OW,C,FH,FW] over the padded input."""
        (sh, sw), (ph, pw) = stride, pad
        if ph or pw:
            x = np.pad(x, ((0, 0), (ph, ph), (pw, pw), (0, 0)), constant_values=fill)
        oh = (x.shape[1] - fh) // sh + 1
        ow = (x.shape[2] - fw) // sw + 1
        v = sliding_window_view(x, (fh, fw), axis=(1, 2))
        return v[:, : (oh - 1) * sh + 1 : sh, : (ow - 1) * sw + 1 : sw]

    @staticmethod
    def _scatter_windows(g_win, x_shape, stride, pad, dtype):
        """Adjoint of _windows: g_win [N,OH,OW,FH,FW,C] summed back into [N,H,W,C]."""
        n, h, w, c = x_shape
        (sh, sw), (ph, pw) = stride, pad
        _, oh, ow, fh, fw, _ = g_win.shape
        gx = np.zeros((n, max(h + 2 * ph, (oh - 1) * sh + fh), max(w + 2 * pw, (ow - 1) * sw + fw), c),
                      dtype=dtype)
        for i in range(fh):
            for j in range(fw):
                gx[:, i : i + (oh - 1) * sh + 1 : sh, j : j + (ow - 1) * sw + 1 : sw] += g_win[:, :, :, i, j]
        return gx[:, ph : ph + h, pw : pw + w]

    # ---------------------------------------------------------------- convolution
    def _cols(self, x, fh, fw, stride, pad):
        v = self._windows(x, fh, fw, stride, pad)                  # [N,OH,OW,C,FH,FW]
        n, oh, ow = v.shape[:3]
        cols = np.ascontiguousarray(v.transpose(0, 1, 2, 4, 5, 3))  # [N,OH,OW,FH,FW,C]
        return cols.reshape(n * oh * ow, -1), (n, oh, ow)

    def conv_fwd(self, x, w, stride, pad):
        oc, fh, fw, _ = w.shape
        cols, (n, oh, ow) = self._cols(x, fh, fw, stride, pad)
        return (cols @ w.reshape(oc, -1).T).reshape(n, oh, ow, oc)

    def conv_bwd_filter(self, x, gy, w_shape, stride, pad):
        oc, fh, fw, ic = w_shape
        cols, _ = self._cols(x, fh, fw, stride, pad)
        # (cols^T gy)^T: BLAS is much faster with the long N*OH*OW axis as the inner product
        return np.ascontiguousarray((cols.T @ gy.reshape(-1, oc)).T).reshape(w_shape)

    def conv_bwd_data(self, gy, w, x_shape, stride, pad):
        oc, fh, fw, ic = w.shape
        n, oh, ow, _ = gy.shape
        g_win = (gy.reshape(-1, oc) @ w.reshape(oc, -1)).reshape(n, oh, ow, fh, fw, ic)
        return np.ascontiguousarray(self._scatter_windows(g_win, x_shape, stride, pad, self.dtype))

    # ---------------------------------------------------------------- depthwise (w: [FH,FW,C])
    def dwconv_fwd(self, x, w, stride, pad):
        fh, fw, _ = w.shape
        v = self._windows(x, fh, fw, stride, pad)
        return np.einsum("nhwcij,ijc->nhwc", v, w, optimize=True).astype(self.dtype, copy=False)

    def dwconv_bwd_filter(self, x, gy, w_shape, stride, pad):
        fh, fw, _ = w_shape
        v = self._windows(x, fh, fw, stride, pad)
        return np.einsum("nhwcij,nhwc->ijc", v, gy, optimize=True).astype(self.dtype, copy=False)

    def dwconv_bwd_data(self, gy, w, x_shape, stride, pad):
        g_win = gy[:, :, :, None, None, :] * w[None, None, None]    # [N,OH,OW,FH,FW,C]
        return np.ascontiguousarray(self._scatter_windows(g_win, x_shape, stride, pad, self.dtype))

    # ---------------------------------------------------------------- pooling
    def pool_fwd(self, mode, x, k, stride, pad):
        """mode 'max' -> (y, argmax index in window); 'avg' -> (y, valid count per window).
        Average pooling divides by the number of non-padding elements in each window."""
        kh, kw = k
        if mode == "max":
            v = self._windows(x, kh, kw, stride, pad, fill=-np.inf)
            n, oh, ow, c = v.shape[:4]
            v = v.reshape(n, oh, ow, c, kh * kw)
            idx = v.argmax(axis=-1)
            return np.take_along_axis(v, idx[..., None], axis=-1)[..., 0], idx
        v = self._windows(x, kh, kw, stride, pad)
        ones = np.ones((1,) + x.shape[1:3] + (1,), dtype=self.dtype)
        cnt = self._windows(ones, kh, kw, stride, pad).sum(axis=(-2, -1))   # [1,OH,OW,1]
        return (v.sum(axis=(-2, -1)) / cnt).astype(self.dtype, copy=False), cnt

    def pool_bwd(self, mode, gy, x, y, aux, k, stride, pad):
        kh, kw = k
        n, oh, ow, c = gy.shape
        if mode == "max":
            g_win = np.zeros((n, oh, ow, kh, kw, c), dtype=self.dtype)
            g_flat = g_win.reshape(n, oh, ow, kh * kw, c)
            np.put_along_axis(g_flat, aux[:, :, :, None, :], gy[:, :, :, None, :], axis=3)
        else:
            g = gy / aux
            g_win = np.broadcast_to(g[:, :, :, None, None, :], (n, oh, ow, kh, kw, c))
        return np.ascontiguousarray(self._scatter_windows(g_win, x.shape, stride, pad, self.dtype))


@quiet_primitives
class CpuBackend(FusedConvOps, FusedCpuOps, NumpyCpuBackend):
    """The CPU engine's backend: Numba kernels where cpu_conv.py / cpu_fused.py have them, NumPy elsewhere.
    fused=None reads ALPHA_CPU_FUSED (0: NumPy only, for before/after measurements)."""

    def __init__(self, dtype=np.float32, threads=None, fused=None):
        super().__init__(dtype, threads)
        if fused is None:
            fused = os.environ.get("ALPHA_CPU_FUSED", "1") != "0"
        self.fused = bool(fused)
        if self.fused:
            keep_freed_memory()
