"""nn layer: v1.2's sqBatchNorm and global_sqBatchNorm — batch normalisation that keeps the running mean and
the running mean of squares (run_mean, run_sqmean) as bias-corrected exponential averages and normalises with
var = sqmean - mean^2. Imports norm.py only."""
from .norm import BatchNorm


class SqBatchNorm(BatchNorm):
    """Training: batch mean and (biased) variance, as batchNorm. Running stats, at step t:
    run_mean = a1*run_mean + a2*mean with a2 = (1 - beta1) / (1 - beta1^t), a1 = 1 - a2 (run_sqmean likewise with
    beta2 and the batch's mean of squares); eval: y = (x - run_mean) / sqrt(run_sqmean - run_mean^2 + eps)."""

    def __init__(self, *dims, affine=True, beta1=0.9, beta2=0.9, eps=1e-5):
        super().__init__(*dims, affine=affine, beta1=beta1, beta2=beta2, eps=eps)
        self.exp_beta = [1.0, 1.0]               # beta1^t, beta2^t (v1.2's expBeta1, expBeta2)

    def _create_params(self, eg):
        b = eg.backend
        if self._affine:
            self._param("weight", b.full((self.features,), 1.0))
            self._param("bias", b.full((self.features,), 0.0))
        self._param("run_mean", b.full((self.features,), 0.0), trainable=False)
        self._param("run_sqmean", b.full((self.features,), 1.0), trainable=False)
        self.exp_beta = [1.0, 1.0]

    def _eval_stats(self, eg):
        b, rm, rs = eg.backend, self._params["run_mean"].data, self._params["run_sqmean"].data
        return rm, b.sub(rs, b.mul(rm, rm))

    def _weights(self):
        """The step's running-average weights (a1, b1): a1 = 1 - (1 - beta1) / (1 - beta1^t)."""
        out = []
        for i, beta in enumerate((self._beta1, self._beta2)):
            self.exp_beta[i] *= beta
            out.append(1.0 - (1.0 - beta) / (1.0 - self.exp_beta[i]))
        return out

    def _new_running(self, eg, mean, var):
        b, rm, rs = eg.backend, self._params["run_mean"].data, self._params["run_sqmean"].data
        nm, ns = b.copy(rm), b.copy(rs)
        a1, b1 = self._weights()
        b.bn_running(nm, ns, mean, b.add(var, b.mul(mean, mean)), a1, b1)

        def store():
            eg.copy_into(rm, nm)
            eg.copy_into(rs, ns)
        eg.update_buffer(store)
        return nm, ns

    def _update_running(self, eg, mean, var):
        self._new_running(eg, mean, var)

    def _updated_running(self, eg, mean, var):
        nm, ns = self._new_running(eg, mean, var)
        b = eg.backend
        return nm, b.sub(ns, b.mul(nm, nm))


class GlobalSqBatchNorm(SqBatchNorm):
    """sqBatchNorm that normalises with the (just updated) running stats even in training, like
    global_batchNorm: y = (x - run_mean) / sqrt(run_sqmean - run_mean^2 + eps)."""
    use_global = True
