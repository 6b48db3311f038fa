"""batchNorm's running statistics as Dragon-Alpha v1.2 keeps them (BatchNorm.java / GlobalBatchNorm.java): at step t
run_mean = a1*run_mean + a2*mean, a1 = beta1*(1-beta1^(t-1))/(1-beta1^t), a2 = (1-beta1)/(1-beta1^t); run_var the same
with beta2 and the unbiased batch variance (a2 times n/(n-1)); beta^t in the saved float64 buffer exp_beta. Checked
against that formula written out in float64, through eval outputs, checkpoint round trips and older checkpoints
(without exp_beta: their averages count as converged)."""
import numpy as np
import pytest

from alpha_py import alpha, nn


def v12_running(xs, beta1, beta2):
    """The running stats after each batch of xs, by v1.2's formula in float64 (the betas are v1.2's floats)."""
    b1, b2 = float(np.float32(beta1)), float(np.float32(beta2))
    rm, rv, e1, e2, out = np.zeros(xs[0].shape[1]), np.ones(xs[0].shape[1]), 1.0, 1.0, []
    for x in xs:
        n = x.shape[0]
        p1, p2, e1, e2 = e1, e2, e1 * b1, e2 * b2
        a1, a2 = np.float32(b1 * (1 - p1) / (1 - e1)), np.float32((1 - b1) / (1 - e1))
        c1, c2 = np.float32(b2 * (1 - p2) / (1 - e2)), np.float32(n / (n - 1.0) * (1 - b2) / (1 - e2))
        rm = a1 * rm + a2 * x.mean(0)
        rv = c1 * rv + c2 * x.var(0)
        out.append((rm.copy(), rv.copy(), e1, e2))
    return out


@pytest.mark.parametrize("beta1, beta2", [(0.9, 0.9), (0.5, 0.99)])
def test_running_stats_follow_v12_over_steps(beta1, beta2):
    eg = alpha.engine.cpu_float32()
    rng = np.random.RandomState(0)
    xs = [rng.randn(6 + k, 4).astype(np.float32) * (1 + k) + k for k in range(5)]
    u = nn.batchNorm(False, beta1, beta2, 1e-5, 4).train().init(eg)
    for x, (rm, rv, e1, e2) in zip(xs, v12_running([x.astype(np.float64) for x in xs], beta1, beta2)):
        u.forward(eg.tensor(x))
        u.gc()
        st = {k.split(".")[-1]: v.numpy() for k, v in u.state_map().items()}
        np.testing.assert_allclose(st["run_mean"], rm, rtol=2e-6, atol=1e-6)
        np.testing.assert_allclose(st["run_var"], rv, rtol=2e-6, atol=1e-6)
        np.testing.assert_allclose(st["exp_beta"], [e1, e2], rtol=1e-15)
    y = u.eval().forward(eg.tensor(xs[0]))[0].numpy()     # eval normalises with them
    np.testing.assert_allclose(y, (xs[0] - rm) / np.sqrt(rv + 1e-5), rtol=1e-5, atol=1e-5)


def test_first_step_takes_the_batch_statistics():
    # t = 1: a1 = 0, a2 = 1 (the initial 0 / 1 do not count), the variance unbiased
    eg = alpha.engine.cpu_float32()
    x = np.random.RandomState(1).randn(10, 3).astype(np.float32) * 3
    u = nn.batchNorm(3).train().init(eg)
    u.forward(eg.tensor(x))
    st = {k.split(".")[-1]: v.numpy() for k, v in u.state_map().items()}
    np.testing.assert_allclose(st["run_mean"], x.mean(0), rtol=1e-6)
    np.testing.assert_allclose(st["run_var"], x.var(0, ddof=1), rtol=1e-5)


def test_a_checkpoint_without_exp_beta_loads_as_converged(tmp_path):
    eg = alpha.engine.cpu_float32()
    u = nn.sequence(nn.batchNorm(3)).train().init(eg)
    x = np.random.RandomState(2).randn(8, 3).astype(np.float32)
    u.forward(eg.tensor(x))
    old = {k: v.numpy() for k, v in u.state_map().items() if not k.endswith("exp_beta")}
    np.savez(tmp_path / "old.npz", **old)
    u2 = nn.sequence(nn.batchNorm(3)).train().init(eg)
    alpha.stat.load_npz(u2, str(tmp_path / "old.npz"))
    st = {k: v.numpy() for k, v in u2.state_map().items()}
    eb = [v for k, v in st.items() if k.endswith("exp_beta")][0]
    assert eb.dtype == np.float64 and list(eb) == [0.0, 0.0]
    rm0 = [v for k, v in st.items() if k.endswith("run_mean")][0].copy()
    x2 = np.random.RandomState(3).randn(8, 3).astype(np.float32)
    u2.forward(eg.tensor(x2))                               # converged: the plain exponential average
    rm = [v.numpy() for k, v in u2.state_map().items() if k.endswith("run_mean")][0]
    np.testing.assert_allclose(rm, np.float32(0.9) * rm0 + np.float32(0.1) * x2.mean(0), rtol=1e-5)
