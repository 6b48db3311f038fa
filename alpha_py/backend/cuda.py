"""Backend layer (CUDA): the primitive table on CuPy arrays. Elementwise basics stay CuPy expressions inherited from
ArrayBackend; activations, softmax(+crossEntropy), Kahan reductions, random numbers and image ops run our
kernels/*.cu (batchNorm in cuda_batchnorm.py, conv/pool in cuda_conv.py, optimizers in cuda_optim.py, the element-wise
math family and batched matMuls in cuda_math.py, CUDA graphs of training steps in cuda_graph.py). Imported only by
alpha.engine.cuda_float32; imports cupy, numpy, alpha_py.ops and backend/."""
import math

import cupy
import numpy as np

from ..ops import ACT_IDENTITY
from .act_ops import activation
from .base import ArrayBackend
from .cuda_batchnorm import CudaBatchNormOps
from .cuda_bf16 import CudaBf16Ops
from .cuda_bf16_twin import CudaBf16Twins
from .cuda_conv import CudaConvOps
from .cuda_graph import CudaGraphOps
from .cuda_math import CudaMathOps
from .cuda_memory import Counters, DeviceMemory, DeviceTables, PinnedStager
from .cuda_optim import CudaOptimOps
from .kernel_loader import get_kernel

THREADS = 256
MAX_BLOCKS = 8192
ROW_BLOCKS_PER_SM = 4      # launch_flat(rows=True): a row-walking kernel's blocks per SM
_MASK64 = (1 << 64) - 1

i32, i64, f32 = np.int32, np.int64, np.float32
NULL = np.uint64(0)


def _splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


_F32 = np.dtype(np.float32)


class _Event:
    """A CUDA event marking queued work; synchronize() counts a host wait only when it blocks."""

    __slots__ = ("event", "counters")

    def __init__(self, event, counters):
        self.event, self.counters = event, counters

    def synchronize(self):
        if not self.event.done:
            self.counters.syncs += 1
            self.event.synchronize()


class CudaBackend(CudaBatchNormOps, CudaBf16Ops, CudaBf16Twins, CudaMathOps, CudaConvOps, CudaOptimOps, CudaGraphOps,
                  ArrayBackend):
    name = "cuda"

    def __init__(self, device_id=0, mempool=None, max_trans_buf_bytes=64 << 20, tf32=False, prebuild=True):
        """prebuild=False: no kernels queued here (the factory's set_precision queues its mode's set)."""
        super().__init__(cupy, np.float32)
        self.tf32 = bool(tf32)
        self.device_id = int(device_id)
        self.device = cupy.cuda.Device(self.device_id)
        self.device.use()
        self.counters = Counters()
        self.memory = DeviceMemory(mempool, self.device_id, self.counters)
        self.stager = PinnedStager(max_trans_buf_bytes, self.counters)
        self.tables = DeviceTables(self.memory.allocator)
        self._graph_init()
        self.sm_count = self.device.attributes["MultiProcessorCount"]
        self._kernels = {}
        self._seed, self._rng_calls = 0, 0
        if prebuild:
            self.prebuild_kernels()     # worker threads compile this mode's kernels ahead (kernel_prebuild.py)

    # ---------------------------------------------------------------- kernels
    def kernel(self, family, name, smem=0):
        """A compiled kernel (memoised); smem: the dynamic shared memory its launches ask for, whose limit is
        raised on the kernel where it exceeds the default 48 KB."""
        k = self._kernels.get((family, name))
        if k is None:
            k = self._kernels[(family, name)] = get_kernel(family, name)
        if smem and smem > k.max_dynamic_shared_size_bytes:     # (the attribute is a driver query)
            k.max_dynamic_shared_size_bytes = smem
        return k

    def launch_flat(self, family, name, n, args, per_thread=1, vec_c=0, rows=False):
        """Grid-stride launch over n elements, per_thread each. vec_c (rows of vec_c channels; 8 for a flat kernel): the
        kernel takes 8 elements per thread where it can (kernels/vec8.cuh): n/8 threads when n, vec_c % 8 == 0.
        rows: the kernel walks rows keeping its channels' values in registers (vec8.cuh rows8) where vec_c / 8 <=
        THREADS: ROW_BLOCKS_PER_SM blocks per SM at most, so each thread takes many rows."""
        if vec_c and n % 8 == 0 and vec_c % 8 == 0:
            per_thread = 8
        blocks = max(1, min(MAX_BLOCKS, -(-n // (THREADS * per_thread))))
        if rows and per_thread == 8 and vec_c // 8 <= THREADS:
            blocks = min(blocks, ROW_BLOCKS_PER_SM * self.sm_count)
        self.kernel(family, name)((blocks,), (THREADS,), args)

    @staticmethod
    def c(a):
        """C-contiguous float32 device array (a copy only when needed)."""
        if a.dtype is not _F32 and a.dtype != _F32:
            a = a.astype(np.float32)
        try:
            contiguous = a._c_contiguous         # CuPy's own flag: `flags` builds an object per read
        except AttributeError:                   # a NumPy array
            contiguous = a.flags.c_contiguous
        return a if contiguous else cupy.ascontiguousarray(a)

    # ---------------------------------------------------------------- transfer / sync
    def from_host(self, host, dtype=None):
        dtype = np.dtype(dtype or self.dtype)
        with self.device:                      # also right from other threads (data prefetch)
            if isinstance(host, cupy.ndarray):
                return host.astype(dtype, copy=False)
            self.refuse_in_capture("from_host (an upload of host data)")
            arr = np.ascontiguousarray(np.asarray(host), dtype=dtype)
            out = cupy.empty(arr.shape, dtype=dtype)
            return self.stager.to_device(arr, out) if arr.size else out

    def onehot(self, labels, num_class, on, off):
        """One launch of image.cu's onehot_rows (no CuPy kernel to compile on a cold machine)."""
        with self.device:
            lab = cupy.ascontiguousarray(labels, dtype=cupy.int64).reshape(-1)
            y = cupy.empty((lab.size, int(num_class)), dtype=self.dtype)
            if y.size:
                self.launch_flat("image", "onehot_rows", y.size, (lab, y, i64(lab.size), i32(num_class), f32(on),
                                                                  f32(off)))
            return y

    def to_host(self, a):
        if isinstance(a, np.ndarray) or np.isscalar(a):
            return np.asarray(a)
        self.refuse_in_capture("to_host (a read of device data)")
        return self.stager.to_host(a)

    def scalar(self, a):
        return float(self.to_host(a).reshape(-1)[0])

    def synchronize(self):
        self.refuse_in_capture("synchronize (a wait for the device)")
        self.counters.syncs += 1
        cupy.cuda.get_current_stream().synchronize()

    def event(self):
        e = cupy.cuda.Event(disable_timing=True)
        e.record(cupy.cuda.get_current_stream())
        return _Event(e, self.counters)

    def image_to_float(self, img_u8, scale, shift):
        with self.device:
            x = cupy.ascontiguousarray(img_u8, dtype=cupy.uint8)
            y = cupy.empty(x.shape, dtype=self.dtype)
            self.launch_flat("image", "image_to_float", x.size, (x, y, i64(x.size), f32(scale), f32(shift)))
            return y

    def image_flip_lr(self, img_u8, flags):
        x = cupy.ascontiguousarray(img_u8, dtype=cupy.uint8)
        fl = cupy.ascontiguousarray(flags, dtype=cupy.uint8)
        y = cupy.empty_like(x)
        n, h, w, c = x.shape
        self.launch_flat("image", "image_flip_lr", x.size, (x, y, fl, i32(n), i32(h), i32(w), i32(c)))
        return y

    # ---------------------------------------------------------------- random (paper 5.4)
    def seed(self, seed):
        self._seed, self._rng_calls = int(seed) & _MASK64, 0

    def _call_seed(self):
        """Global seed of random call number _rng_calls (kernels/random.cu derives the same on the device)."""
        return _splitmix64(self._seed ^ _splitmix64(self._rng_calls))

    def _random(self, name, shape, a, b):
        out = cupy.empty(tuple(shape), dtype=self.dtype)
        if out.size:
            d, seed, state = self._seed_args()
            self.launch_flat("random", f"{name}<{d}>", out.size, (out, i64(out.size), seed, state, f32(a), f32(b)),
                             per_thread=8)
        return out

    def uniform(self, shape, low, high):
        return self._random("rng_uniform", shape, low, high)

    def gaussian(self, shape, mean, std):
        return self._random("rng_gaussian", shape, mean, std)

    def dropout_mask(self, shape, keep_p):
        out = cupy.empty(tuple(shape), dtype=self.dtype)
        if out.size:
            d, seed, state = self._seed_args()
            self.launch_flat("random", f"rng_dropout<{d}>", out.size, (out, i64(out.size), seed, state, f32(keep_p)),
                             per_thread=8)
        return out

    # ---------------------------------------------------------------- activations
    @staticmethod
    def _act_kernel(name, who):
        """The kernels/act.cuh enumerator of activation `name` (None: ACT_IDENTITY)."""
        return ACT_IDENTITY if name is None else activation(name, who).kernel

    def act_fwd(self, name, x, p1=0.0, p2=0.0):
        code = self._act_kernel(name, "act_fwd")
        x = self.c(x)
        y = cupy.empty_like(x)
        self.launch_flat("elementwise", f"act_fwd<{code}>", x.size, (x, y, i64(x.size), f32(p1), f32(p2)), vec_c=8)
        return y

    def act_bwd(self, name, gy, x, y, p1=0.0, p2=0.0, gy2=None, out=None):
        """gy2: a fan-in's second gradient, added in the kernel (core/autograd.py GradSum); out: gx's array (gy too)."""
        code = self._act_kernel(name, "act_bwd")
        gy = self.c(gy)
        x = self.c(x if x is not None else y)
        y = self.c(y if y is not None else x)
        gx = cupy.empty_like(gy) if out is None else out
        self.launch_flat("elementwise", f"act_bwd<{code}>", gy.size,
                         (gy, NULL if gy2 is None else self.c(gy2), x, y, gx, i64(gy.size), f32(p1), f32(p2)), vec_c=8)
        return gx

    def add_act_bwd(self, name, gy, a, b, y, p1=0.0, p2=0.0):
        code = self._act_kernel(name, "add_act_bwd")
        if a.shape != b.shape or a.shape != gy.shape:
            return super().add_act_bwd(name, gy, a, b, y, p1, p2)
        gy, a, b, y = self.c(gy), self.c(a), self.c(b), self.c(y)
        gx = cupy.empty_like(gy)
        self.launch_flat("elementwise", f"add_act_bwd<{code}>", gy.size,
                         (gy, a, b, y, gx, i64(gy.size), f32(p1), f32(p2)), vec_c=8)
        return gx

    def add_act(self, name, a, b, p1=0.0, p2=0.0):
        code = self._act_kernel(name, "add_act")
        if a.shape != b.shape:
            return super().add_act(name, a, b, p1, p2)
        a, b = self.c(a), self.c(b)
        y = cupy.empty_like(a)
        self.launch_flat("elementwise", f"add_act_fwd<{code}>", a.size, (a, b, y, i64(a.size), f32(p1), f32(p2)),
                         vec_c=8)
        return y

    # ---------------------------------------------------------------- softmax family
    def _rows(self, x):
        x = self.c(x)
        return x, x.size // x.shape[-1], x.shape[-1]

    def _softmax_rows(self, x, log):
        x, r, c = self._rows(x)
        y = cupy.empty_like(x)
        self.kernel("softmax", f"softmax_rows<{int(log)}>")((-(-r // 8),), (THREADS,), (x, y, i64(r), i32(c)))
        return y

    def softmax(self, x, axis=-1):
        return super().softmax(x, axis) if axis not in (-1, x.ndim - 1) else self._softmax_rows(x, False)

    def log_softmax(self, x, axis=-1):
        return super().log_softmax(x, axis) if axis not in (-1, x.ndim - 1) else self._softmax_rows(x, True)

    def softmax_ce_grad(self, yh, y, alpha):
        """base.softmax_ce_grad in one launch (softmax.cu softmax_ce_grad_rows; bit-equal to the unfused ops) for
        float32 predictions of 2 or more dims and labels of their shape."""
        if yh.ndim < 2 or yh.dtype != np.float32 or y.dtype != np.float32 or y.shape != yh.shape or yh.size == 0:
            return super().softmax_ce_grad(yh, y, alpha)
        x, r, c = self._rows(yh)
        g = cupy.empty_like(x)
        self.kernel("softmax", "softmax_ce_grad_rows")((-(-r // 8),), (THREADS,), (x, self.c(y), g, i64(r), i32(c),
                                                                                  f32(alpha), f32(0.0)))
        return g

    def softmax_ce(self, logits, y):
        x, r, c = self._rows(logits)
        lab = self.c(y)
        prob = cupy.empty_like(x)
        row_loss = cupy.empty((r,), dtype=self.dtype)
        self.kernel("softmax", "softmax_ce_rows")((-(-r // 8),), (THREADS,), (x, lab, prob, row_loss, i64(r), i32(c)))
        return self._total(row_loss, 1.0 / r), prob

    _LABEL_KIND = {np.dtype(np.int32): 0, np.dtype(np.int64): 1, np.dtype(np.float32): 2}

    def accuracy(self, yh, y):
        """base.accuracy in one kernel launch (reduce.cu accuracy_rows) for float32 predictions under 2^24 rows and
        int32 / int64 / float32 labels; other cases take base's CuPy path."""
        onehot = y.ndim == yh.ndim
        kind = 3 if onehot and y.dtype == np.float32 else None if onehot else self._LABEL_KIND.get(y.dtype)
        if yh.dtype != np.float32 or kind is None or yh.size == 0 or yh.size // yh.shape[-1] >= 1 << 24:
            return super().accuracy(yh, y)
        x, r, c = self._rows(yh)
        out = cupy.empty((), dtype=np.float32)
        lab = cupy.ascontiguousarray(y)                  # its own dtype (self.c would cast it to float32)
        self.kernel("reduce", "accuracy_rows")((1,), (THREADS,), (x, lab, i32(kind), i64(r), i32(c), out, f32(1.0 / r)))
        return out

    # ---------------------------------------------------------------- reductions (Kahan)
    def _total(self, x, scale):
        """scale * sum(x) as a 0-d array: compensated per-thread sums, then over the blocks."""
        x = self.c(x).reshape(-1)
        g = max(1, min(1024, -(-x.size // (THREADS * 8))))
        part = cupy.empty((g,), dtype=self.dtype)
        out = cupy.empty((), dtype=self.dtype)
        self.kernel("reduce", "sum_partial")((g,), (THREADS,), (x, i64(x.size), part))
        self.kernel("reduce", "sum_finish")((1,), (THREADS,), (part, i32(g), out, f32(scale)))
        return out

    def _col_splits(self, m, c):
        return max(1, min(-(-m // 8), 1024 // -(-c // 32)))

    def col_sum(self, x2, scale=1.0):
        """scale * x2.sum(axis=0) for x2 [M, C]."""
        m, c = x2.shape
        s = self._col_splits(m, c)
        part = cupy.empty((s, c), dtype=self.dtype)
        out = cupy.empty((c,), dtype=self.dtype)
        self.kernel("reduce", "col_partial")((-(-c // 32), s), (32, 8), (self.c(x2), i64(m), i32(c), part))
        self.kernel("reduce", "col_finish")((-(-c // 32),), (32, 8), (part, i32(s), i32(c), out, f32(scale)))
        return out

    def _reduce(self, x, axis, keepdims, mean):
        if x.dtype != np.float32 or x.size == 0 or x.ndim == 0:
            return None
        nd = x.ndim
        axes = tuple(range(nd)) if axis is None else tuple(
            sorted(a % nd for a in (axis if isinstance(axis, (tuple, list)) else (axis,))))
        n_red = math.prod(x.shape[a] for a in axes)
        scale = 1.0 / n_red if mean else 1.0
        if axes == tuple(range(nd)):
            out = self._total(x, scale)
        elif axes == tuple(range(len(axes))):                 # leading dims: column sums
            out = self.col_sum(self.c(x).reshape(n_red, -1), scale).reshape(x.shape[len(axes):])
        elif axes == (nd - 1,):                                # last dim: row sums
            xc, r, c = self._rows(x)
            out = cupy.empty((r,), dtype=self.dtype)
            self.kernel("reduce", "row_sum")((-(-r // 8),), (THREADS,), (xc, i64(r), i32(c), out, f32(scale)))
            out = out.reshape(x.shape[:-1])
        else:
            return None
        if keepdims:
            out = out.reshape(tuple(1 if a in axes else d for a, d in enumerate(x.shape)))
        return out

    def sum(self, x, axis=None, keepdims=False):
        out = self._reduce(x, axis, keepdims, False)
        return super().sum(x, axis, keepdims) if out is None else out

    def mean(self, x, axis=None, keepdims=False):
        out = self._reduce(x, axis, keepdims, True)
        return super().mean(x, axis, keepdims) if out is None else out
