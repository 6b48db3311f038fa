"""Backend layer: the primitive table every engine backend provides, written once over an
array module `xp` (NumPy or CuPy); activations in act_ops.py, optimizer updates in optim_ops.py.
Backends override primitives with faster code (cpu.py, cuda.py). Imports numpy-compatible array
modules (through `xp`) and its sibling mixins only."""
from .act_ops import ActivationOps
from .facade_ops import FacadeOps
from .math_ops import MathOps
from .optim_ops import OptimOps


def out_size(i, f, s, p):
    """Output length of a window of size f, stride s, padding p (each side) over an input of length i."""
    return (i + 2 * p - f) // s + 1


def bn_unbias(n):
    """v1.2's K = n/(n-1) that turns a biased batch variance over n values into the unbiased one (1 for n = 1,
    where v1.2 would divide by zero)."""
    return n / (n - 1.0) if n > 1 else 1.0


def bn_running_coefs(e_prev, beta, k):
    """Dragon-Alpha v1.2's bias-corrected exponential average at step t, in float64 (kernels/batchnorm.cu's
    bn_running_bc computes the same on the device): e = beta^t = e_prev*beta, a1 = beta*(1-e_prev)/(1-e),
    a2 = k*(1-beta)/(1-e). Returns (a1, a2, e); a1 and a2 are rounded to float32 by the caller, as v1.2 does."""
    e = e_prev * beta
    return beta * (1.0 - e_prev) / (1.0 - e), k * (1.0 - beta) / (1.0 - e), e


class ArrayBackend(ActivationOps, MathOps, OptimOps, FacadeOps):
    """Primitive table over an array module. Arrays are row-major, NHWC for images."""

    name = "abstract"

    def __init__(self, xp, dtype):
        self.xp = xp
        self.dtype = xp.dtype(dtype)

    # ---------------------------------------------------------------- creation / transfer
    def empty(self, shape, dtype=None):
        return self.xp.empty(tuple(shape), dtype=dtype or self.dtype)

    def full(self, shape, value, dtype=None):
        return self.xp.full(tuple(shape), value, dtype=dtype or self.dtype)

    def from_host(self, host, dtype=None):
        return self.xp.asarray(host, dtype=dtype or self.dtype)

    def to_host(self, a):
        return a

    def astype(self, a, dtype):
        return a.astype(dtype, copy=False)

    def copy(self, a):
        return a.copy()

    def image_to_float(self, img_u8, scale, shift):
        """uint8 images -> float: img * scale + shift (e.g. 2/255, -1 maps to [-1, 1])."""
        return img_u8.astype(self.dtype) * self.dtype.type(scale) + self.dtype.type(shift)

    def image_flip_lr(self, img_u8, flags):
        """uint8 NHWC batch with image n mirrored left-right where flags[n] != 0 (device-side augmentation)."""
        flip = flags.astype(bool)
        out = img_u8.copy()
        out[flip] = img_u8[flip][:, :, ::-1]
        return out

    def onehot(self, labels, num_class, on, off):
        out = self.xp.full((labels.shape[0], num_class), off, dtype=self.dtype)
        out[self.xp.arange(labels.shape[0]), labels.astype(self.xp.int64)] = on
        return out

    # ---------------------------------------------------------------- elementwise math
    def add(self, a, b):
        return a + b

    def add_into(self, a, b):
        """a += b in place (a: a C-contiguous gradient of b's shape and dtype that nothing else holds) -> a."""
        self.xp.add(a, b, out=a)
        return a

    def sub(self, a, b):
        return a - b

    def mul(self, a, b):
        return a * b

    def div(self, a, b):
        return a / b

    def linear(self, x, alpha, beta):
        """alpha * x + beta."""
        return x * self.dtype.type(alpha) + self.dtype.type(beta)

    def linear2(self, x, y, alpha, beta, gamma):
        """alpha * x + beta * y + gamma."""
        t = self.dtype.type
        return x * t(alpha) + y * t(beta) + t(gamma)

    def exp(self, x):
        return self.xp.exp(x)

    def log(self, x):
        return self.xp.log(x)

    def sqrt(self, x):
        return self.xp.sqrt(x)

    def abs(self, x):
        return self.xp.abs(x)

    def sign(self, x):
        return self.xp.sign(x)

    def clip(self, x, lo, hi):
        return self.xp.clip(x, lo, hi)

    def where(self, cond, a, b):
        return self.xp.where(cond, a, b)

    def greater(self, a, b):
        return a > b

    # ---------------------------------------------------------------- softmax family
    def softmax(self, x, axis=-1):
        m = x.max(axis=axis, keepdims=True)
        e = self.xp.exp(x - m)
        return e / e.sum(axis=axis, keepdims=True)

    def log_softmax(self, x, axis=-1):
        m = x.max(axis=axis, keepdims=True)
        z = x - m
        return z - self.xp.log(self.xp.exp(z).sum(axis=axis, keepdims=True))

    def softmax_ce(self, logits, y):
        """Fused softmax + cross entropy over rows: returns (mean loss, softmax probabilities)."""
        ls = self.log_softmax(logits, axis=-1)
        loss = -(y * ls).sum() / logits.shape[0]
        return loss, self.xp.exp(ls)

    # ---------------------------------------------------------------- reductions
    def sum(self, x, axis=None, keepdims=False):
        return x.sum(axis=axis, keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return x.mean(axis=axis, keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return x.max(axis=axis, keepdims=keepdims)

    def all_finite(self, x):
        """True when no element of x is NaN or +-Inf (a host bool: waits for x on a device)."""
        return bool(self.xp.isfinite(x).all())

    def argmax(self, x, axis=-1):
        return x.argmax(axis=axis).astype(self.xp.int32)

    def softmax_ce_grad(self, yh, y, alpha):
        """(softmax(yh) * sum(y) - y) * alpha over the last axis: softmax + crossEntropy's gradient."""
        return self.linear(self.sub(self.mul(self.softmax(yh, axis=-1), self.sum(y, axis=-1, keepdims=True)), y),
                           alpha, 0.0)

    def accuracy(self, yh, y):
        """0-d mean of rows whose arg-max (last axis) equals the label: y one-hot rows when it has yh's ndim, else
        index labels (one per row of yh)."""
        a = self.argmax(yh, axis=-1).reshape(-1)
        b = (self.argmax(y, axis=-1) if y.ndim == yh.ndim else y).reshape(-1)
        return self.mean((a == b).astype(self.dtype))

    def scalar(self, a):
        """A 0-d/1-element device array -> Python float (synchronises)."""
        return float(a)

    def matmul(self, a, b, ta=False, tb=False):
        return (a.T if ta else a) @ (b.T if tb else b)

    # ---------------------------------------------------------------- normalisation
    def bn_fwd(self, x, gamma, beta, eps, mean=None, var=None):
        """Normalise x over all leading dims of its last dim. With mean/var None, computes batch
        stats (biased variance). Returns (y, mean, var, inv_std)."""
        xp, t = self.xp, self.dtype.type
        x2 = x.reshape(-1, x.shape[-1])
        if mean is None:
            mean = x2.mean(axis=0)
            var = ((x2 - mean) ** 2).mean(axis=0)
        inv_std = t(1) / xp.sqrt(var + t(eps))
        y = (x2 - mean) * inv_std
        if gamma is not None:
            y = y * gamma + beta
        return y.reshape(x.shape), mean, var, inv_std

    def bn_running(self, run_mean, run_var, mean, var, exp_beta, beta1, beta2, n):
        """In place, Dragon-Alpha v1.2's bias-corrected running statistics (bn_running_coefs); exp_beta (float64
        [beta1^(t-1), beta2^(t-1)]) advances to step t. run_mean = a1*run_mean + a2*mean, run_var = b1*run_var +
        b2*var (var: the biased batch variance; b2 carries K = n/(n-1)); float32 products and sum, rounded one by
        one. Host arrays (the CPU backends; CUDA computes the same on the device)."""
        t = self.dtype.type
        (a1, a2, e1), (b1, b2, e2) = (bn_running_coefs(float(exp_beta[0]), beta1, 1.0),
                                      bn_running_coefs(float(exp_beta[1]), beta2, bn_unbias(n)))
        run_mean[...] = run_mean * t(a1) + mean * t(a2)
        run_var[...] = run_var * t(b1) + var * t(b2)
        exp_beta[0], exp_beta[1] = e1, e2

    def bn_bwd(self, gy, x, mean, inv_std, gamma, batch_stats=True):
        """BatchNorm backward. Returns (grad_x, grad_gamma, grad_beta); grad_gamma/beta None
        when gamma is None. batch_stats=False: stats were constants (global/eval BN)."""
        c = x.shape[-1]
        gy2, x2 = gy.reshape(-1, c), x.reshape(-1, c)
        xhat = (x2 - mean) * inv_std
        g_beta = gy2.sum(axis=0)
        g_gamma = (gy2 * xhat).sum(axis=0)
        g_xhat = gy2 * gamma if gamma is not None else gy2
        if batch_stats:
            m = x2.shape[0]
            gx = inv_std / m * (m * g_xhat - g_xhat.sum(axis=0) - xhat * (g_xhat * xhat).sum(axis=0))
        else:
            gx = g_xhat * inv_std
        if gamma is None:
            return gx.reshape(x.shape), None, None
        return gx.reshape(x.shape), g_gamma, g_beta

    def bn_act_fwd(self, name, x, gamma, beta, eps, mean=None, var=None, p1=0.0, p2=0.0):
        """batchNorm then activation `name` (batchNorm_<act>; one fused kernel on the GPU).
        Returns (y, mean, var, inv_std) like bn_fwd."""
        z, mean, var, inv_std = self.bn_fwd(x, gamma, beta, eps, mean, var)
        return self.act_fwd(name, z, p1, p2), mean, var, inv_std

    def bn_act_bwd(self, name, gy, x, mean, inv_std, gamma, beta, batch_stats=True, p1=0.0, p2=0.0):
        """Backward of bn_act_fwd from the saved input x only (the pre-activation is recomputed).
        Returns (grad_x, grad_gamma, grad_beta) like bn_bwd."""
        c = x.shape[-1]
        z = (x.reshape(-1, c) - mean) * inv_std
        if gamma is not None:
            z = z * gamma + beta
        z = z.reshape(x.shape)
        gz = self.act_bwd(name, gy, z, self.act_fwd(name, z, p1, p2), p1, p2)
        return self.bn_bwd(gz, x, mean, inv_std, gamma, batch_stats)

    # ---------------------------------------------------------------- shape
    def reshape(self, x, shape):
        return x.reshape(tuple(shape))

    def transpose(self, x, perm):
        return self.xp.ascontiguousarray(x.transpose(tuple(perm)))

    def concat(self, xs, axis):
        return self.xp.concatenate(xs, axis=axis)

    def split(self, x, sizes, axis):
        idx, acc = [], 0
        for s in sizes[:-1]:
            acc += s
            idx.append(acc)
        return [self.xp.ascontiguousarray(p) for p in self.xp.split(x, idx, axis=axis)]

    def pad(self, x, pads, value=0.0):
        """pads: list of (before, after) per axis."""
        return self.xp.pad(x, pads, mode="constant", constant_values=value)

    def slice(self, x, slices):
        return self.xp.ascontiguousarray(x[tuple(slices)])

    def broadcast_to(self, x, shape):
        return self.xp.ascontiguousarray(self.xp.broadcast_to(x, tuple(shape)))

    # ---------------------------------------------------------------- random (stateful)
    def seed(self, seed):
        raise NotImplementedError("seed")

    def uniform(self, shape, low, high):
        raise NotImplementedError("uniform")

    def gaussian(self, shape, mean, std):
        raise NotImplementedError("gaussian")

    def dropout_mask(self, shape, keep_p):
        """Mask with values 1/keep_p (kept) or 0 (dropped)."""
        u = self.uniform(shape, 0.0, 1.0)
        return (u < keep_p).astype(self.dtype) * self.dtype.type(1.0 / keep_p)

    # ---------------------------------------------------------------- conv / pool (per backend)
    def conv_fwd(self, x, w, stride, pad):
        raise NotImplementedError("conv_fwd")

    def conv_fwd_biased(self, x, w, bias, stride, pad, infer=False):
        """conv_fwd (infer: an eval-mode forward, conv_fwd_eval where a backend has one) plus the bias on every
        output channel."""
        fwd = getattr(self, "conv_fwd_eval", None) if infer else None
        return self.add((fwd or self.conv_fwd)(x, w, stride, pad), bias)

    def bias_grad(self, gy):
        """A bias's gradient: gy [..., C] summed over all its leading dims -> [C]."""
        return self.sum(gy.reshape(-1, gy.shape[-1]), axis=0)

    def conv_bwd_data(self, gy, w, x_shape, stride, pad):
        raise NotImplementedError("conv_bwd_data")

    def conv_bwd_filter(self, x, gy, w_shape, stride, pad):
        raise NotImplementedError("conv_bwd_filter")

    def dwconv_fwd(self, x, w, stride, pad):
        raise NotImplementedError("dwconv_fwd")

    def dwconv_bwd_data(self, gy, w, x_shape, stride, pad):
        raise NotImplementedError("dwconv_bwd_data")

    def dwconv_bwd_filter(self, x, gy, w_shape, stride, pad):
        raise NotImplementedError("dwconv_bwd_filter")

    def pool_fwd(self, mode, x, k, stride, pad):
        raise NotImplementedError("pool_fwd")

    def pool_bwd(self, mode, gy, x, y, aux, k, stride, pad):
        raise NotImplementedError("pool_bwd")

    # ---------------------------------------------------------------- sync
    def synchronize(self):
        """Wait until all queued work is done (no-op on the CPU)."""

    def event(self):
        """A marker for the work queued so far; None where work is synchronous."""
        return None
