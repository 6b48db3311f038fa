"""Backend layer (CUDA): batchNorm and batchNorm+activation, forward and backward, and the running statistics, on
kernels/batchnorm.cu (x viewed as [M, C]; column sums split over row segments, then finished per column). Mixed into
CudaBackend (kernel, launch_flat, c, _col_splits, _act_kernel). Imports cupy, numpy, ops, errors and backend/base."""
import cupy
import numpy as np

from ..errors import ArgumentError
from ..ops import ACT_IDENTITY
from .base import bn_unbias

THREADS = 256
NULL = np.uint64(0)
i32, i64, f32 = np.int32, np.int64, np.float32


class CudaBatchNormOps:
    """bn_act_fwd / bn_act_bwd (and their plain forms), bn_running."""

    bn_partial_vec = True     # False: the column sums always take one channel per thread (bn_partial; tests compare)

    def _opt_c(self, a):
        """A kernel argument that may be null: NULL for None, else the C-contiguous float32 array."""
        return NULL if a is None else self.c(a)

    def _bn_partial(self, mode, act, x2, gy2, mean, inv, gamma, beta, p1=0.0, p2=0.0, xmode=0):
        """Column partial sums part1 (and part2 for modes 2, 3) over S row segments (kernels/batchnorm.cu): 8
        channels per thread (bn_partial8) where C % 8 == 0 and every array is 16-byte aligned, else one. gy2 may be
        bf16 bits (uint16: a convolution's gX handed back as bits)."""
        m, c = x2.shape
        opt = self._opt_c
        gmode = 2 if gy2 is not None and gy2.dtype == np.uint16 else 0
        args = [x2, gy2 if gmode else opt(gy2), opt(mean), opt(inv), opt(gamma), opt(beta)]
        if self.bn_partial_vec and c % 8 == 0 and all(a is NULL or a.data.ptr % 16 == 0 for a in args):
            gb = min(c // 8, 32)                      # groups of 8 channels per block row; 256 // gb rows
            gx = -(-c // (8 * gb))
            s = max(1, min(-(-m // (256 // gb * 4)), 2 * self.sm_count // gx))    # one wave at 2 blocks per SM
            name, grid, block = f"bn_partial8<{mode},{act}>", (gx, s), (256,)
        else:
            s = self._col_splits(m, c)
            name, grid, block = f"bn_partial<{mode},{act}>", (-(-c // 32), s), (32, 8)
        part1 = cupy.empty((s, c), dtype=self.dtype)
        part2 = cupy.empty((s, c), dtype=self.dtype) if mode >= 2 else None
        self.kernel("batchnorm", name)(grid, block, (*args, i64(m), i32(c), part1, opt(part2), f32(p1), f32(p2),
                                                     i32(xmode), i32(gmode)))
        return part1, part2, s

    def _bn_col_finish(self, part1, part2, s, c, scale):
        out1 = cupy.empty((c,), dtype=self.dtype)
        out2 = cupy.empty((c,), dtype=self.dtype) if part2 is not None else None
        self.kernel("batchnorm", "col_finish2")((-(-c // 32),), (32, 8),
                                                (part1, NULL if part2 is None else part2, i32(s), i32(c), out1,
                                                 NULL if out2 is None else out2, f32(scale)))
        return out1, out2

    def bn_act_fwd(self, name, x, gamma, beta, eps, mean=None, var=None, p1=0.0, p2=0.0, keep=None, write_y=True):
        """keep (a list; bf16 training): x is rounded to bf16 as it is read — the statistics and y are those of the
        rounded values — and keep receives those bf16 bits [M, C] (uint16), all bn_act_bwd needs of x; x may be
        given as those bits already (uint16).
        write_y=False (with keep): y is not computed (None; cuda_bf16_twin.py bn_lazy rebuilds it from the bits)."""
        act = self._act_kernel(name, "bn_act_fwd")
        c = x.shape[-1]
        bits = x.dtype == np.uint16           # x given as its bf16 bits (a convolution's stored output): kept as is
        x2 = (x if bits else self.c(x)).reshape(-1, c)
        xmode = 2 if bits else 0 if keep is None else 1
        if mean is None:                  # batch statistics in one pass: shifted sums, then mean/var/inv together
            part1, part2, s = self._bn_partial(3, ACT_IDENTITY, x2, None, None, None, None, None, xmode=xmode)
            mean, var, inv = (cupy.empty((c,), dtype=self.dtype) for _ in range(3))
            self.kernel("batchnorm", "bn_finish_stats")((-(-c // 32),), (32, 8),
                                                        (part1, part2, i32(s), i32(c), x2, i64(x2.shape[0]),
                                                         f32(eps), mean, var, inv, i32(xmode)))
        else:
            inv = f32(1.0) / cupy.sqrt(var + f32(eps))
        y = cupy.empty(x2.shape, dtype=np.float32) if write_y or keep is None else None
        xb = x2 if bits else None if keep is None else cupy.empty(x2.shape, dtype=np.uint16)
        opt = self._opt_c
        if y is not None or not bits:          # (bits given, y lazy: nothing to write)
            self.launch_flat("batchnorm", f"bn_apply<{act}>", x2.size,
                             (x2, self.c(mean), inv, opt(gamma), opt(beta), opt(y), i64(x2.shape[0]), i32(c),
                              f32(p1), f32(p2), i32(xmode), NULL if xb is None or bits else xb, NULL), vec_c=c,
                             rows=True)
        if keep is not None:
            keep[:] = [xb]
        return None if y is None else y.reshape(x.shape), mean, var, inv

    def bn_running(self, run_mean, run_var, mean, var, exp_beta, beta1, beta2, n):
        """base.bn_running on the device (exp_beta read and advanced there: a captured step replays it)."""
        c = run_mean.size
        if exp_beta.dtype != np.float64 or exp_beta.size != 2:
            raise TypeError(f"bn_running: exp_beta must be float64 [2] (beta1^t, beta2^t), got {exp_beta.dtype} "
                            f"{list(exp_beta.shape)}")
        self.kernel("batchnorm", "bn_running_bc")((1,), (THREADS,), (
            run_mean, run_var, self.c(mean), self.c(var), exp_beta, i32(c), np.float64(beta1), np.float64(beta2),
            np.float64(bn_unbias(n))))

    def bn_fwd(self, x, gamma, beta, eps, mean=None, var=None, keep=None, write_y=True):
        return self.bn_act_fwd(None, x, gamma, beta, eps, mean, var, keep=keep, write_y=write_y)

    def bn_act_bwd(self, name, gy, x, mean, inv_std, gamma, beta, batch_stats=True, p1=0.0, p2=0.0, gx_bits=False):
        """x: the forward's input, or its bf16 bits [M, C] (uint16) that bn_act_fwd(keep=) kept; gy: fp32, or its
        bf16 bits (uint16, C-contiguous: a convolution's gX handed back as bits); gx_bits=True: gx comes back as its
        bf16 bits (uint16, nearest even) only."""
        act = self._act_kernel(name, "bn_act_bwd")
        c = gy.shape[-1]
        gmode = 2 if gy.dtype == np.uint16 else 0
        if gmode and not gy.flags.c_contiguous:
            raise ArgumentError(f"bn_act_bwd: gy given as bf16 bits {tuple(gy.shape)} must be C-contiguous")
        gy2 = (gy if gmode else self.c(gy)).reshape(-1, c)
        if x.size != gy.size or x.shape[-1] != c:
            raise ArgumentError(f"bn_act_bwd: x {x.dtype} {tuple(x.shape)} is neither the forward's input nor its "
                                f"kept bf16 bits for gradient {tuple(gy.shape)}")
        x2 = (x if x.dtype == np.uint16 else self.c(x)).reshape(-1, c)          # c() would make bf16 bits floats
        xmode = 2 if x2.dtype == np.uint16 else 0
        mean, inv_std = self.c(mean), self.c(inv_std)
        s1, s2 = self._bn_col_finish(*self._bn_partial(2, act, x2, gy2, mean, inv_std, gamma, beta, p1, p2, xmode),
                                     c, 1.0)
        gx = cupy.empty(gy2.shape, dtype=np.uint16 if gx_bits else np.float32)
        opt = self._opt_c
        self.launch_flat("batchnorm", f"bn_bwd_apply<{act}>", x2.size,
                         (gy2, x2, mean, inv_std, opt(gamma), opt(beta), s1, s2, gx, i64(x2.shape[0]), i32(c),
                          f32(p1), f32(p2), i32(1 if batch_stats else 0), i32(xmode), i32(gx_bits), i32(gmode)),
                         vec_c=c, rows=True)
        if gamma is None:
            return gx.reshape(gy.shape), None, None
        return gx.reshape(gy.shape), s2 * inv_std, s1

    def bn_bwd(self, gy, x, mean, inv_std, gamma, batch_stats=True, gx_bits=False):
        return self.bn_act_bwd(None, gy, x, mean, inv_std, gamma, None, batch_stats, gx_bits=gx_bits)
