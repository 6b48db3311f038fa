"""nn layer: v1.2's sqBatchNorm and global_sqBatchNorm — batch normalisation that keeps the running mean and
the running mean of squares (run_mean, run_sqmean) as bias-corrected exponential averages and normalises with
var = sqmean - mean^2. Imports norm.py only."""
from .norm import BatchNorm


class SqBatchNorm(BatchNorm):
    """Training: batch mean and (biased) variance, as batchNorm. Running stats, at step t:
    run_mean = a1*run_mean + a2*mean with a2 = (1 - beta1) / (1 - beta1^t), a1 = 1 - a2 (run_sqmean likewise with
    beta2 and the batch's mean of squares); eval: y = (x - run_mean) / sqrt(run_sqmean - run_mean^2 + eps).
    beta1^t, beta2^t live on the device (the buffer exp_beta, saved with the state like v1.2's expBeta1/2), so a
    captured step (CUDA graph) replays the same update."""

    second_stat = "run_sqmean"

    def _eval_stats(self, eg):
        b, rm, rs = eg.backend, self._params["run_mean"].data, self._params["run_sqmean"].data
        return rm, b.sub(rs, b.mul(rm, rm))

    def _new_running(self, eg, mean, var):
        b = eg.backend
        rm, rs, eb = (self._params[k].data for k in ("run_mean", "run_sqmean", "exp_beta"))
        f64 = b.xp.float64
        beta1, beta2 = (float(b.dtype.type(v)) for v in (self._beta1, self._beta2))     # the float betas, widened
        e1, e2 = eb[0:1] * f64(beta1), eb[1:2] * f64(beta2)                               # beta^t, in double

        def avg(run, new, e, beta):            # run + (1 - beta) / (1 - beta^t) * (new - run), weight in double
            w = b.astype(b.div(b.full((1,), 1.0 - beta, dtype=f64), 1.0 - e), b.dtype)
            return b.add(run, b.mul(w, b.sub(new, run)))
        nm, ns = avg(rm, mean, e1, beta1), avg(rs, b.add(var, b.mul(mean, mean)), e2, beta2)
        ne = b.concat([e1, e2], 0)

        def store():
            eg.copy_into(rm, nm)
            eg.copy_into(rs, ns)
            eg.copy_into(eb, ne)
        eg.update_buffer(store)
        return nm, ns

    def _update_running(self, eg, mean, var, n):
        self._new_running(eg, mean, var)

    def _updated_running(self, eg, mean, var, n):
        nm, ns = self._new_running(eg, mean, var)
        b = eg.backend
        return nm, b.sub(ns, b.mul(nm, nm))


class GlobalSqBatchNorm(SqBatchNorm):
    """sqBatchNorm that normalises with the (just updated) running stats even in training, like
    global_batchNorm: y = (x - run_mean) / sqrt(run_sqmean - run_mean^2 + eps)."""
    use_global = True
