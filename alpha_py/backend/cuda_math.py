"""Backend layer (CUDA): Dragon-Alpha's element-wise math family on kernels/math.cu (math_fwd<K> / math_bwd<K>, K the
ops.MATH row's kernel enumerator), batched matMuls on kernels/gemm_batched.cu (strict fp32, our GEMM core) and
bernouliMul's mask on kernels/random.cu. A mixin of CudaBackend. Imports cupy, numpy, alpha_py.ops, alpha_py.errors."""
import math

import cupy
import numpy as np

from ..errors import ArgumentError
from ..ops import MATH

i32, i64, f32 = np.int32, np.int64, np.float32
_SCALE = ("alpha", "beta", "gamma")
MAX_Z = 65535                 # gridDim.z limit: more batches loop inside the kernel


def math_args(name, p, who):
    """The kernel's (ua, ub, a, b, g, c0, c1) of row `name` from its params by name (kernels/math.cu): u's
    coefficients as math_ops._u takes them, alpha / beta / gamma (defaults 1, 0, 0), then the row's other params
    in the order of its longest form. A param the row has neither given nor defaulted is an error."""
    spec = MATH[name]
    form = max(spec.forms, key=len)
    missing = [k for k in form if k not in p and k not in spec.defaults]
    if missing:
        raise ArgumentError(f"{who} {name!r}: params {p} lack {missing} (expected {list(form)})")
    q = dict(spec.defaults, **p)
    ua, ub = (q["alpha"], q["beta"]) if "alpha" in q and "beta" in q else (1.0, 0.0)
    extra = [q[k] for k in form if k not in _SCALE] + [0.0, 0.0]
    vals = (ua, ub, q.get("alpha", 1.0), q.get("beta", 0.0), q.get("gamma", 0.0), extra[0], extra[1])
    return tuple(f32(v) for v in vals)


def _aligned(*arrays):
    return all(a.data.ptr % 16 == 0 for a in arrays)


class CudaMathOps:
    """math_fwd / math_bwd / matmul_nd / bernouli_mask of CudaBackend on our kernels (the ArrayBackend versions
    over CuPy are the reference the GPU tests compare against, through the CPU backend)."""

    def _math_launch(self, direction, name, arrays, p):
        if name not in MATH:
            raise NotImplementedError(f"math_{direction} {name!r}")
        args = math_args(name, p, f"math_{direction}")
        arrays = [self.c(a) for a in arrays]
        n = arrays[0].size
        if any(a.size != n for a in arrays):
            raise ArgumentError(f"math_{direction} {name!r}: operand sizes differ "
                                f"({[tuple(a.shape) for a in arrays]})")
        out = cupy.empty_like(arrays[0])
        if n:
            vec = i32(_aligned(out, *arrays))
            self.launch_flat("math", f"math_{direction}<{MATH[name].kernel}>", n,
                             (*arrays, out, i64(n), vec) + args, per_thread=4)
        return out

    def math_fwd(self, name, x, p):
        return self._math_launch("fwd", name, [x], p)

    def math_bwd(self, name, gy, x, y, p):
        """grad_x = grad_y * dy/dx (kernels/math.cu: math_ops.math_bwd's derivative choices)."""
        return self._math_launch("bwd", name, [gy, x, y], p)

    def bernouli_mask(self, shape, p, v1, v2):
        """R = v1 where a uniform [0, 1) draw is < p, else v2: one rng_bernouli launch drawing what uniform() would."""
        out = cupy.empty(tuple(shape), dtype=self.dtype)
        if out.size:
            d, seed, state = self._seed_args()
            self.launch_flat("random", f"rng_bernouli<{d}>", out.size,
                             (out, i64(out.size), seed, state, f32(p), f32(v1), f32(v2)), per_thread=8)
        return out

    # ---------------------------------------------------------------- batched matMuls
    def _batched_tiles(self, m, n, k, batch):
        """The tile of gemm_batched (measured on an H100, bench/NOTES-gpu.md): 128 x 64 when N <= 64, 128 x 128 for
        K >= 256, else 64 x 128 (short K: more, cheaper blocks); the next smaller one while the grid would fill
        less than 3/4 of the multiprocessors once; no 128-row tile for M <= 64."""
        if n <= 64:
            prefs = ((128, 64), (64, 64))
        elif k >= 256:
            prefs = ((128, 128), (64, 128), (128, 64), (64, 64))
        else:
            prefs = ((64, 128), (64, 64))
        prefs = [t for t in prefs if t[0] == 64 or m > 64]
        for bm, bn in prefs:
            if -(-m // bm) * -(-n // bn) * batch * 4 >= 3 * self.sm_count:
                return bm, bn
        return prefs[-1]

    def _batch_operand(self, x, lead):
        """(x, batch stride) over the broadcast batch dims `lead`: stride 0 for a single matrix, a copy only for a
        partial broadcast."""
        rows, cols = x.shape[-2:]
        if x.shape[:-2] == lead:
            return x, rows * cols
        if math.prod(x.shape[:-2]) == 1:
            return x, 0
        return cupy.ascontiguousarray(cupy.broadcast_to(x, lead + (rows, cols))), rows * cols

    def matmul_nd(self, a, b, t1=False, t2=False):
        """a @ b over the last two dims (leading dims batch, broadcast like numpy.matmul), a or b transposed there
        when t1 / t2: 2D on the backend's matmul, batched on gemm_batched<BM,BN,t1,t2,VEC> (strict fp32)."""
        if a.ndim < 2 or b.ndim < 2:
            raise ArgumentError(f"matmul_nd: operands must be at least 2D, got {a.shape} and {b.shape}")
        if a.ndim == 2 and b.ndim == 2:
            return self.matmul(a, b, t1, t2)
        a, b = self.c(a), self.c(b)
        m, k = (a.shape[-1], a.shape[-2]) if t1 else a.shape[-2:]
        kb, n = (b.shape[-1], b.shape[-2]) if t2 else b.shape[-2:]
        try:
            lead = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        except ValueError:
            lead = None
        if k != kb or lead is None:
            raise ArgumentError(f"matmul_nd: {tuple(a.shape)}{'^T' if t1 else ''} @ {tuple(b.shape)}"
                                f"{'^T' if t2 else ''}: inner sizes {k} and {kb} or batch dims do not match")
        batch = math.prod(lead)
        if batch == 0 or m == 0 or n == 0 or k == 0:
            return cupy.zeros(lead + (m, n), dtype=self.dtype)
        (a, sa), (b, sb) = self._batch_operand(a, lead), self._batch_operand(b, lead)
        c = cupy.empty(lead + (m, n), dtype=self.dtype)
        vec = int(_aligned(a, b) and (m if t1 else k) % 4 == 0 and (k if t2 else n) % 4 == 0)
        bm, bn = self._batched_tiles(m, n, k, batch)
        self.kernel("gemm_batched", f"gemm_batched<{bm},{bn},{int(t1)},{int(t2)},{vec}>")(
            (-(-m // bm), -(-n // bn), min(batch, MAX_Z)), (256,),
            (a, b, c, i32(m), i32(n), i32(k), i32(batch), i64(sa), i64(sb), i64(m * n)))
        return c
