"""nn layer: normalisation units — batchNorm, global_batchNorm, layerNorm, affine. Statistics are
taken over all leading dims of the trailing feature dims given at construction; the defaults not given are
read from alpha_py.params.AlphaParam (v1.2's batchNorm_* / layerNorm_* fields) when the unit is made."""
import math

from ..core.autograd import GradBits
from ..core.tensor import LazyData
from ..errors import ArgumentError, fmt_shape
from ..params import AlphaParam
from .unit import Unit


def _features(dims, who):
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    if not dims or any(isinstance(d, bool) or int(d) <= 0 for d in dims):
        raise ArgumentError(f"{who}: feature dims must be positive integers, got {list(dims)}")
    return tuple(int(d) for d in dims)


class _FeatureUnit(Unit):
    """Units whose parameters have the trailing feature shape `dims`."""

    def __init__(self, dims):
        super().__init__()
        self.dims = _features(dims, type(self).__name__)
        self.features = math.prod(self.dims)

    def needs_init(self):
        return True

    def check_inputs(self, xs):
        x = xs[0]
        k = len(self.dims)
        if x.ndim() < k + 1 or tuple(x.shape[-k:]) != self.dims:
            raise self.error(f"input {fmt_shape(x.shape)}, expected [N, ..., {', '.join(map(str, self.dims))}]")


class Affine(_FeatureUnit):
    """y = x * weight + bias per feature (weight=1, bias=0 at init)."""

    def _create_params(self, eg):
        self._param("weight", eg.backend.full((self.features,), 1.0))
        self._param("bias", eg.backend.full((self.features,), 0.0))

    def _fwd(self, eg, x):
        b = eg.backend
        x2 = x.reshape(-1, self.features)
        y = b.add(b.mul(x2, self._params["weight"].data), self._params["bias"].data)
        return (y.reshape(x.shape),), x2

    def _bwd(self, eg, x2, gys, needs):
        b, w = eg.backend, self._params["weight"]
        gy = gys[0].reshape(-1, self.features)
        w.accumulate_grad(b.sum(b.mul(gy, x2), axis=0))
        self._params["bias"].accumulate_grad(b.bias_grad(gy))
        return (b.mul(gy, w.data).reshape(gys[0].shape) if needs[0] else None,)


class BatchNorm(_FeatureUnit):
    """Batch normalisation: batch stats (biased variance) in training, running stats in eval. Running stats as
    Dragon-Alpha v1.2 keeps them, bias-corrected at step t (beta^t in the float64 buffer exp_beta):
    run_mean = a1*run_mean + a2*mean with a2 = (1-beta1)/(1-beta1^t), a1 = beta1*(1-beta1^(t-1))/(1-beta1^t);
    run_var likewise with beta2 and the unbiased batch variance (weight a2 times n/(n-1))."""

    use_global = False
    second_stat = "run_var"           # the running statistic kept beside run_mean (sqBatchNorm: run_sqmean)

    def __init__(self, *dims, affine=None, beta1=None, beta2=None, eps=None):
        super().__init__(dims)
        p = AlphaParam
        self._affine = bool(p.batchNorm_affine if affine is None else affine)
        self.beta1(p.batchNorm_beta1 if beta1 is None else beta1).beta2(p.batchNorm_beta2 if beta2 is None else beta2)
        self.eps(p.batchNorm_eps if eps is None else eps)

    # chained setters (Dragon-Alpha style)
    def affine(self, flag=None):
        if flag is None:
            return self._affine
        if self.engine is not None and bool(flag) != self._affine:
            raise self.error("affine(...) must be set before init(engine)", ArgumentError)
        self._affine = bool(flag)
        return self

    def _set(self, attr, v, lo, hi):
        if not (isinstance(v, (int, float)) and lo <= v < hi):
            raise ArgumentError(f"{type(self).__name__}: {attr} must lie in [{lo}, {hi}), got {v!r}")
        setattr(self, "_" + attr, float(v))
        return self

    def beta1(self, v):
        return self._set("beta1", v, 0.0, 1.0)

    def beta2(self, v):
        return self._set("beta2", v, 0.0, 1.0)

    def beta(self, v):
        return self.beta1(v)

    def eps(self, v):
        if isinstance(v, bool) or not (isinstance(v, (int, float)) and 0 < v < math.inf):
            raise ArgumentError(f"{type(self).__name__}: eps must be a finite number > 0, got {v!r}")
        self._eps = float(v)
        return self

    def _create_params(self, eg):
        b = eg.backend
        if self._affine:
            self._param("weight", b.full((self.features,), 1.0))
            self._param("bias", b.full((self.features,), 0.0))
        self._param("run_mean", b.full((self.features,), 0.0), trainable=False)
        self._param(self.second_stat, b.full((self.features,), 1.0), trainable=False)
        eb = self._param("exp_beta", b.full((2,), 1.0, dtype="float64"), trainable=False)   # v1.2's expBeta1/2
        eb.legacy_fill = 0.0        # a checkpoint from before this buffer: its averages count as converged

    def _gamma_beta(self):
        if not self._affine:
            return None, None
        return self._params["weight"].data, self._params["bias"].data

    def _running_args(self, eg, n):
        """bn_running's trailing arguments: v1.2's float betas widened to double, and n values per channel."""
        t = eg.backend.dtype.type
        return float(t(self._beta1)), float(t(self._beta2)), n

    def _update_running(self, eg, mean, var, n):
        """run_mean/run_var/exp_beta updated in place (one kernel: v1.2's bias-corrected averages, backend
        bn_running), at the end of a training step when inside one (eg.update_buffer: a step that raises leaves
        them as they were). n: the values per channel of this batch (K = n/(n-1) unbiases the variance)."""
        b, (rm, rv, eb) = eg.backend, (self._params[k].data for k in ("run_mean", "run_var", "exp_beta"))
        args = self._running_args(eg, n)
        eg.update_buffer(lambda: b.bn_running(rm, rv, mean, var, eb, *args))

    def _updated_running(self, eg, mean, var, n):
        """The running statistics after this batch, as new arrays (use_global normalises with them now; the
        buffers themselves are overwritten like _update_running's)."""
        b, (rm, rv, eb) = eg.backend, (self._params[k].data for k in ("run_mean", "run_var", "exp_beta"))
        nm, nv, ne = b.copy(rm), b.copy(rv), b.copy(eb)
        b.bn_running(nm, nv, mean, var, ne, *self._running_args(eg, n))

        def store():
            eg.copy_into(rm, nm)
            eg.copy_into(rv, nv)
            eg.copy_into(eb, ne)
        eg.update_buffer(store)
        return nm, nv

    def _eval_stats(self, eg):
        """(mean, var) that eval mode normalises with: the running statistics."""
        return self._params["run_mean"].data, self._params["run_var"].data

    def _reads_lazy(self, eg):
        """bf16 training reads an input stored as bf16 bits (a convolution's output) as those bits."""
        return self.training and not self.use_global and eg.precision() == "bf16"

    def _fwd(self, eg, x, act=None):
        """act: None, or (name, p1, p2) of an activation fused after the normalisation
        (batchNorm_<act> units; the backend's bn_act_fwd primitive)."""
        b, gbits = eg.backend, False
        if type(x) is LazyData:             # (_reads_lazy) the bits it is stored as, or its fp32 computed now
            bits = b.stored_bits(x)
            gbits = bits is not None and b.grad_bits_wanted(x) and not eg.anomaly   # gX handed back as bits too
            x = x.value() if bits is None else bits
        g, be = self._gamma_beta()
        x2 = x.reshape(-1, self.features)

        def norm(mean=None, var=None, **keep):
            if act is None:
                return b.bn_fwd(x2, g, be, self._eps, mean, var, **keep)
            return b.bn_act_fwd(act[0], x2, g, be, self._eps, mean, var, act[1], act[2], **keep)

        if not self.training:
            y, mean, _, inv = norm(*self._eval_stats(eg))
            batch_stats = False
        elif self.use_global:
            _, bm, bv, _ = b.bn_fwd(x2, None, None, self._eps)
            y, mean, _, inv = norm(*self._updated_running(eg, bm, bv, x2.shape[0]))
            batch_stats = False
        elif eg.precision() == "bf16":     # x read rounded to bf16; only those bits are kept for backward
            keep, lazy = [], b.bn_lazy_ok(x.shape) and not eg.anomaly
            y, mean, var, inv = norm(keep=keep, write_y=not lazy)
            self._update_running(eg, mean, var, x2.shape[0])
            a = (act[0], keep[0], mean, inv, g, be) + tuple(act[1:]) if act else (None, keep[0], mean, inv, g, be)
            if lazy:                        # y computed only when read: a convolution reads its bits instead
                y = b.bn_lazy(x.shape, *a)
            else:                           # a convolution reading y rebuilds its bf16 bits from the kept ones
                y = y.reshape(x.shape)
                b.bn_twin(y, *a)
            return (y,), (keep[0], mean, inv, True, gbits)
        else:
            y, mean, var, inv = norm()
            self._update_running(eg, mean, var, x2.shape[0])
            batch_stats = True
        return (y.reshape(x.shape),), (x2, mean, inv, batch_stats)

    def takes_grad_bits(self, ctx):
        """bf16 training: gy may come as bf16 bits (a convolution's gX, GradBits), read as they are."""
        return isinstance(ctx, tuple) and len(ctx) > 4

    def _bwd(self, eg, ctx, gys, needs, act=None):
        x2, mean, inv, batch_stats = ctx[:4]
        g, be = self._gamma_beta()
        gy = gys[0].bits if type(gys[0]) is GradBits else gys[0]     # (takes_grad_bits) bf16 bits, uint16
        gy2 = gy.reshape(x2.shape)
        bits = {"gx_bits": True} if len(ctx) > 4 and ctx[4] else {}    # gX as bf16 bits (a convolution's GradBits)
        if act is None:
            gx, gg, gb = eg.backend.bn_bwd(gy2, x2, mean, inv, g, batch_stats, **bits)
        else:
            gx, gg, gb = eg.backend.bn_act_bwd(act[0], gy2, x2, mean, inv, g, be, batch_stats, act[1], act[2], **bits)
        if self._affine:
            self._params["weight"].accumulate_grad(gg)
            self._params["bias"].accumulate_grad(gb)
        if not needs[0]:
            return (None,)
        gx = gx.reshape(gy.shape)
        return (GradBits(gx) if bits else gx,)


class GlobalBatchNorm(BatchNorm):
    """BatchNorm that normalises with the running stats even in training (stats still updated)."""
    use_global = True


class LayerNorm(_FeatureUnit):
    """Normalise each row over the trailing feature dims; affine weight=1, bias=0."""

    def __init__(self, *dims, eps=None, affine=None):
        super().__init__(dims)
        eps = AlphaParam.layerNorm_eps if eps is None else eps
        affine = AlphaParam.layerNorm_affine if affine is None else affine
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 < eps < math.inf:
            raise ArgumentError(f"LayerNorm: eps must be a finite number > 0, got {eps!r}")
        self._eps, self._affine = float(eps), bool(affine)

    def _create_params(self, eg):
        if self._affine:
            self._param("weight", eg.backend.full((self.features,), 1.0))
            self._param("bias", eg.backend.full((self.features,), 0.0))

    def _fwd(self, eg, x):
        b = eg.backend
        x2 = x.reshape(-1, self.features)
        mean = b.mean(x2, axis=1, keepdims=True)
        xc = b.sub(x2, mean)
        var = b.mean(b.mul(xc, xc), axis=1, keepdims=True)
        inv = b.div(b.full((1, 1), 1.0), b.sqrt(b.linear(var, 1.0, self._eps)))
        xhat = b.mul(xc, inv)
        y = b.add(b.mul(xhat, self._params["weight"].data), self._params["bias"].data) if self._affine else xhat
        return (y.reshape(x.shape),), (xhat, inv)

    def _bwd(self, eg, ctx, gys, needs):
        b = eg.backend
        xhat, inv = ctx
        gy = gys[0].reshape(xhat.shape)
        if self._affine:
            w = self._params["weight"]
            w.accumulate_grad(b.sum(b.mul(gy, xhat), axis=0))
            self._params["bias"].accumulate_grad(b.bias_grad(gy))
        if not needs[0]:
            return (None,)
        gxh = b.mul(gy, w.data) if self._affine else gy
        m1 = b.mean(gxh, axis=1, keepdims=True)
        m2 = b.mean(b.mul(gxh, xhat), axis=1, keepdims=True)
        gx = b.mul(inv, b.sub(b.sub(gxh, m1), b.mul(xhat, m2)))
        return (gx.reshape(gys[0].shape),)
