"""Backend layer (CUDA): bf16 training's twins — the bf16 bits of an activation, made once by the unit that produced
it and shared by every convolution that reads it and by the activation's own backward, instead of each casting (and
keeping) a copy. A twin is registered against the fp32 output array (by identity; it goes with the array) as bits
(add_<act> writes them beside y) or as a Recast (BatchNorm(+act)'s output rebuilt, bit for bit, from the bf16 bits of
BN's input that BN keeps anyway: a convolution keeps the Recast, not its input's cast). On Hopper a bf16 BatchNorm
output is not even written in fp32 until something reads it (core/tensor.py LazyData): the convolutions reading it
take the Recast's bits. Imports cupy, numpy, core.tensor, errors."""
import weakref

import cupy
import numpy as np

from ..core.tensor import LazyData
from ..errors import ArgumentError

i32, i64, f32 = np.int32, np.int64, np.float32
NULL = np.uint64(0)


class Recast:
    """act(batchNorm(x)) as bf16 bits, from BN's kept bf16 bits of x and its statistics (kernels/batchnorm.cu
    bn_apply in xmode 2): the same arithmetic as the forward's, so the same bits. Holds only references to what BN
    keeps for its own backward and its parameters (read when bits() runs, as BN's backward reads them)."""

    __slots__ = ("backend", "act", "xb", "mean", "inv", "gamma", "beta", "p1", "p2", "shape")

    def __init__(self, backend, act, xb, mean, inv, gamma, beta, p1, p2, shape):
        self.backend, self.act, self.xb, self.mean, self.inv = backend, act, xb, mean, inv
        self.gamma, self.beta, self.p1, self.p2, self.shape = gamma, beta, p1, p2, tuple(shape)

    def bits(self):
        """The output's bf16 bits (nearest even), in its shape."""
        return self._apply(np.uint16)

    def fp32(self):
        """The fp32 output itself, bit for bit what the forward would have written (a lazy BatchNorm output read);
        registered with this Recast as its twin."""
        y = self._apply(np.float32)
        self.backend.set_twin(y, self)
        return y

    def _apply(self, dtype):
        b, (m, c) = self.backend, self.xb.shape
        out = cupy.empty(self.shape, dtype=dtype)
        y, yb = (out, NULL) if dtype == np.float32 else (NULL, out)
        opt = lambda a: NULL if a is None else a    # noqa: E731
        b.launch_flat("batchnorm", f"bn_apply<{self.act}>", self.xb.size,
                      (self.xb, self.mean, self.inv, opt(self.gamma), opt(self.beta), y, i64(m), i32(c),
                       f32(self.p1), f32(self.p2), i32(2), NULL, yb), vec_c=c, rows=True)
        return out


class StoredBits:
    """A tensor stored as its bf16 bits (bf16 training: a convolution's output, which BatchNorm reads as bits, the
    bits it keeps anyway): fp32() is their exact widening, registered with the bits as its twin. Its value depends
    on nothing that changes later (settle_lazy leaves it). grad_bits: the unit that made it takes its gradient as
    bf16 bits (a reader's backward may hand it a core/autograd.py GradBits)."""

    __slots__ = ("backend", "yb", "grad_bits")
    fixed = True

    def __init__(self, backend, yb, grad_bits=False):
        self.backend, self.yb, self.grad_bits = backend, yb, grad_bits

    def bits(self):
        return self.yb

    def fp32(self):
        y = (self.yb.astype(np.uint32) << 16).view(np.float32)
        self.backend.set_twin(y, self.yb)
        return y


class CudaBf16Twins:
    """Mixin of CudaBackend. `bf16_twins = False` turns the sharing off (every convolution casts its own input)."""

    bf16_twins = True
    bf16_conv_bits = True     # bf16 training: a convolution's output stored as bf16 bits (conv_bits_ok)
    bf16_grad_bits = True     # ... and its gradient handed back as bf16 bits by BatchNorm (conv_grad_bits_ok)
    bf16_residual_bits = True  # ... and a residual add+relu's output stored only as its bf16 bits (residual_bits_ok)
    bf16_dgrad_bits = True    # ... and a convolution's gX handed back as bf16 bits to a unit that takes them

    def twin_ok(self, shape):
        """Can an array of `shape` have a twin? In bf16 with twins on, its channels (last axis) a multiple of 8 (the
        wgmma kernels' 16-byte chunks)."""
        return self.bf16_twins and self._bf16 and len(shape) > 0 and shape[-1] % 8 == 0

    def conv_bits_ok(self, channels):
        """May a bf16 training convolution with `channels` output channels store its output as bf16 bits (a
        LazyData over StoredBits: BatchNorm reads the bits, anything else their widening)? On the wgmma kernels,
        with twins on and channels a multiple of 8."""
        return self.bf16_conv_bits and self.twin_ok((channels,)) and self.wgmma_ok()

    def residual_bits_ok(self, shape):
        """May a bf16 training add+activation output of `shape` be stored only as its bf16 bits (a LazyData over
        StoredBits, as AMP keeps a residual stream in bf16: the next add reads the bits, the convolutions take them,
        anything else their widening)? On the wgmma kernels, with twins on."""
        return self.bf16_residual_bits and self.twin_ok(shape) and self.wgmma_ok()

    def stored(self, yb, grad_bits=False):
        """The bf16 bits yb as a tensor's lazy data (read in fp32: their widening); grad_bits: see StoredBits."""
        return LazyData(StoredBits(self, yb, grad_bits), yb.shape, np.dtype(np.float32))

    @staticmethod
    def stored_bits(lazy):
        """The bf16 bits a lazy tensor is stored as (StoredBits), else None."""
        return lazy.source.yb if isinstance(lazy.source, StoredBits) else None

    @staticmethod
    def grad_bits_wanted(lazy):
        """Does the unit that stored this lazy tensor as bits take its gradient as bf16 bits?"""
        return isinstance(lazy.source, StoredBits) and lazy.source.grad_bits

    def dgrad_bits_wanted(self, x):
        """May a bf16 training convolution reading x hand gX back as bf16 bits (a core/autograd.py GradBits)? Where
        x is lazy and the unit that made it takes its gradient as bits: a BatchNorm(+act) output (its backward reads
        gy's bits, kernels/batchnorm.cu gmode), a residual add+act stored as bits (act_bwd_sign), a convolution
        output whose convolution takes gY as bits."""
        if not self.bf16_dgrad_bits or type(x) is not LazyData:
            return False
        return isinstance(x.source, Recast) or self.grad_bits_wanted(x)

    def widen_bits(self, bits):
        """The exact fp32 value of bf16 bits (a GradBits read by a unit that takes fp32), registered as its twin."""
        return StoredBits(self, bits).fp32()

    def set_twin(self, a, twin):
        """Register `twin` (bf16 bits in a's shape, or a Recast) for the fp32 array `a` where twin_ok -> whether it
        was registered."""
        if not self.twin_ok(a.shape):
            return False
        m = self.__dict__.setdefault("_twins", {})
        k = id(a)

        def gone(ref, k=k, m=m):
            e = m.get(k)
            if e is not None and e[0] is ref:
                del m[k]
        m[k] = (weakref.ref(a, gone), twin)
        return True

    def twin_of(self, a):
        """(bf16 bits of the fp32 array a now, what a consumer keeps of them for backward: the bits or the Recast),
        or None when no unit registered a twin for a. A Recast's bits are built for each call and not held (a's
        consumer is usually one convolution; holding them while a lives would outlast it)."""
        if type(a) is LazyData:                  # a BatchNorm output not computed in fp32 (nn/norm.py), or a
            src = a.source                       # convolution's output stored as bits (StoredBits)
            bits = src.bits()
            return bits, (src if isinstance(src, Recast) else bits)
        m = self.__dict__.get("_twins")
        e = m.get(id(a)) if m else None
        if e is None or e[0]() is not a:
            return None
        tw = e[1]
        return (tw.bits(), tw) if isinstance(tw, Recast) else (tw, tw)

    def _twin_wanted(self, a):
        """Would a twin made now for the fp32 array a be registered (and is none there yet)?"""
        return self.twin_ok(a.shape) and self.twin_of(a) is None

    def add_into(self, a, b):
        """a += b (kernels/elementwise.cu add_into); a's twin is dropped (it no longer matches)."""
        self.drop_twin(a)
        if a.dtype != np.float32 or b.dtype != np.float32 or a.shape != b.shape or not b._c_contiguous:
            return super().add_into(a, b)
        self.launch_flat("elementwise", "add_into", a.size, (a, b, i64(a.size)), vec_c=8)
        return a

    def drop_twin(self, a):
        """Forget a's twin (a is about to be written in place)."""
        m = self.__dict__.get("_twins")
        if m:
            m.pop(id(a), None)

    @staticmethod
    def twin_bits(kept):
        """The bits a consumer kept (twin_of's second value), rebuilt when it kept a Recast."""
        return kept.bits() if isinstance(kept, Recast) else kept

    def bn_twin(self, y, act, xb, mean, inv, gamma, beta, p1=0.0, p2=0.0):
        """Register BatchNorm(+act `act`, None: plain)'s fp32 output y as rebuildable from its kept input bits xb."""
        if self.twin_ok(y.shape):
            self.set_twin(y, Recast(self, self._act_kernel(act, "bn_twin"), xb, mean, inv, gamma, beta, p1, p2,
                                    y.shape))

    def bn_lazy_ok(self, shape):
        """May a bf16 BatchNorm output of `shape` stay unwritten (a LazyData) until read? Only where it can have a
        twin and the convolutions that read it take its bf16 bits instead (the wgmma kernels)."""
        return self.twin_ok(shape) and self.wgmma_ok()

    def bn_lazy(self, shape, act, xb, mean, inv, gamma, beta, p1=0.0, p2=0.0):
        """BatchNorm(+act)'s output as a LazyData over its Recast (computed in fp32 only when read)."""
        code = self._act_kernel(act, "bn_lazy")
        return LazyData(Recast(self, code, xb, mean, inv, gamma, beta, p1, p2, shape), shape, np.dtype(np.float32))

    def add_act_twin(self, name, a, b, p1=0.0, p2=0.0, fp32=True):
        """y = act(a + b) and y's bf16 bits in one pass (kernels/bf16_act.cu; a positive y never rounds to +0, so
        act_bwd_sign can take relu's / leakyRelu's derivative from the bits) -> (y, bits), y registered with them;
        fp32=False: y is not written, and comes back as the bits' LazyData (stored()). An addend may be a lazy
        plain-BatchNorm output or a tensor stored as bits (LazyData): read from its bits, never written in fp32."""
        code = self._act_kernel(name, "add_act_twin")
        if tuple(a.shape) != tuple(b.shape):
            raise ArgumentError(f"add_act_twin: addends {tuple(a.shape)} and {tuple(b.shape)} differ")
        shape = tuple(a.shape)
        a, b = (_addend(self, v) for v in (a, b))
        y = cupy.empty(shape, dtype=np.float32) if fp32 else NULL
        yb = cupy.empty(shape, dtype=np.uint16)
        self.launch_flat("bf16_act", f"add_act_twin<{code}>", yb.size,
                         a + b + (y, yb, i64(yb.size), i32(shape[-1]), f32(p1), f32(p2)), vec_c=shape[-1])
        if not fp32:                            # (its backward, act_bwd_sign, takes its gradient as bits)
            return self.stored(yb, grad_bits=True), yb
        self.set_twin(y, yb)
        return y, yb

    def add_grads(self, a, b, out=None):
        """a + b in fp32 (a fan-in's two gradients, core/autograd.py _summed), either given as bf16 bits (uint16,
        C-contiguous) and read as their exact fp32 value; out: the result's fp32 array (may be a when a is fp32)."""
        if a.shape != b.shape or (out is not None and (out.dtype != np.float32 or out.shape != a.shape)):
            raise ArgumentError(f"add_grads: gradients {a.dtype} {tuple(a.shape)} and {b.dtype} {tuple(b.shape)}"
                                + ("" if out is None else f" into {out.dtype} {tuple(out.shape)}") + " do not match")
        ab, gmode = self._grad_operands("add_grads", a, b)
        gx = cupy.empty(a.shape, dtype=np.float32) if out is None else out
        self.launch_flat("bf16_act", "add_grads", gx.size, (ab[0], ab[1], gx, i64(gx.size), i32(gmode)), vec_c=8)
        return gx

    def _grad_operands(self, what, *gs):
        """Gradient operands of a kernel that reads fp32 or bf16 bits (kernels/vec8.cuh ld_widen) -> (the arrays:
        bits as they are, C-contiguous; fp32 made C-contiguous; None kept; gmode: bit k set where operand k is bits)."""
        out = [g if g is None or g.dtype == np.uint16 else self.c(g) for g in gs]
        if any(g is not None and g.dtype == np.uint16 and not g.flags.c_contiguous for g in out):
            raise ArgumentError(f"{what}: a gradient given as bf16 bits {tuple(gs[0].shape)} must be C-contiguous")
        return out, sum(1 << k for k, g in enumerate(out) if g is not None and g.dtype == np.uint16)

    grad_sums = True          # autograd may hand act_bwd_sign a fan-in's two gradients unsummed (core/autograd.py),
    grad_sums_bits = True     # ... either of them as bf16 bits

    def act_bwd_sign(self, gy, yb, slope, gy2=None, out=None, gx_bits=False):
        """gx = g * (y > 0 ? 1 : slope), g = gy (+ gy2: a fan-in's second gradient, added in the kernel), with y
        read from add_act_twin's bits: relu (slope 0) and leakyRelu (its slope >= 0) backward from their output,
        bit for bit what act_bwd gives from the fp32 y on the summed gradient. gy / gy2 may be bf16 bits (uint16,
        C-contiguous: a convolution's gX handed back as bits), read as their exact fp32 value. out: gx's fp32 array
        (may be gy itself when gy is fp32); gx_bits=True: gx comes back as its bf16 bits (uint16, nearest even)."""
        if yb.dtype != np.uint16 or yb.shape != gy.shape or (gy2 is not None and gy2.shape != gy.shape):
            raise ArgumentError(f"act_bwd_sign: bits {yb.dtype} {tuple(yb.shape)} are not the bf16 bits of an output "
                                f"of the gradient's shape {tuple(gy.shape)}"
                                + ("" if gy2 is None else f" (second gradient {tuple(gy2.shape)})"))
        gys, gmode = self._grad_operands("act_bwd_sign", gy, gy2)
        gmode += 4 * bool(gx_bits)
        if out is not None and (gx_bits or out.dtype != np.float32 or out.shape != gy.shape):
            raise ArgumentError(f"act_bwd_sign: out {out.dtype} {tuple(out.shape)} is not fp32 {tuple(gy.shape)}"
                                + (" (gx_bits writes a new array)" if gx_bits else ""))
        gx = cupy.empty(gy.shape, dtype=np.uint16 if gx_bits else np.float32) if out is None else out
        self.launch_flat("bf16_act", "act_bwd_sign", gy.size,
                         (gys[0], NULL if gy2 is None else gys[1], yb, gx, i64(gy.size), f32(slope), i32(gmode)),
                         vec_c=8)
        return gx


def _addend(backend, v):
    """An add_act_twin addend as (x, mean, inv, gamma, beta, mode): fp32 (mode 0), a lazy plain BatchNorm output as
    its kept input bits (mode 2), a tensor stored as bits (StoredBits: mode 3); a lazy output of BatchNorm +
    activation is computed in fp32 first."""
    if type(v) is LazyData:
        r = v.source
        if isinstance(r, StoredBits):
            return (r.yb, NULL, NULL, NULL, NULL, i32(3))
        if not isinstance(r, Recast) or r.act != "ACT_IDENTITY":
            return (v.value(), NULL, NULL, NULL, NULL, i32(0))
        opt = lambda a: NULL if a is None else a    # noqa: E731
        return (r.xb, r.mean, r.inv, opt(r.gamma), opt(r.beta), i32(2))
    return (backend.c(v), NULL, NULL, NULL, NULL, i32(0))
