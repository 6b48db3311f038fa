"""Training that diverges (issue 23) on the CPU engine: `alpha train --lr 1000` stops at the first non-finite
loss with a message naming epoch/step/loss/lr and leaves the last finite checkpoint's bytes on disk; skip and
continue modes; train_step's skip leaves parameters, Adam's moments, step count, lr and BatchNorm statistics
bit for bit as before; anomaly mode names the unit, pass, tensor and step; no checkpoint / alpha.stat save of a
non-finite state; no NumPy warning leaks from a diverging run."""
import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.cli import main
from alpha_py.errors import ArgumentError, NonFiniteError
from alpha_py.nn.unit import Module, Unit
from alpha_py.stat.train_checkpoint import read_checkpoint

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TINY = ["train", "--model", "mnist_cnn", "--dataset", "mnist5k", "--limit", "160", "--test-limit", "64",
        "--batch", "32", "--no-progress", "--width", "4", "--hidden", "16", "--optim", "sgd", "--epochs", "1"]


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONWARNINGS="error::RuntimeWarning")
    return subprocess.run([sys.executable, "-m", "alpha_py", *args], capture_output=True, text=True,
                          timeout=240, cwd=ROOT, env=env)


def test_cli_lr_1000_stops_at_first_nonfinite_loss_and_keeps_the_last_finite_checkpoint(tmp_path):
    ck = str(tmp_path / "x.ckpt")
    good = run_cli(*TINY, "--lr", "0.01", "--checkpoint", ck)
    assert good.returncode == 0, good.stderr
    before = open(ck, "rb").read()
    r = run_cli(*TINY, "--lr", "1000", "--checkpoint", ck)
    assert r.returncode != 0
    err = r.stderr
    assert "Warning" not in err and "Traceback" not in err, err
    assert "alpha train: error: training diverged: loss nan (not finite) at epoch 1, step " in err, err
    assert "learning rate" in err and "lower learning rate" in err and "--detect-anomaly" in err, err
    assert f"the checkpoint {ck} is left as it was (the last finite state written)" in err, err
    assert open(ck, "rb").read() == before                      # same bytes: the NaN state was never written
    assert not os.path.exists(ck + ".prev")                     # and the good file was not rotated away
    ck2 = str(tmp_path / "fresh.ckpt")
    r = run_cli(*TINY, "--lr", "1000", "--checkpoint", ck2)
    assert r.returncode != 0 and "no checkpoint was written" in r.stderr and not os.path.exists(ck2)


@pytest.mark.parametrize("mode", ["skip", "continue"])
def test_cli_skip_and_continue_modes(tmp_path, capsys, mode):
    ck = str(tmp_path / "m.ckpt")
    with warnings.catch_warnings():
        warnings.simplefilter("error")                          # nothing leaks from the backend, eval included
        rc = main([*TINY, "--lr", "1000", "--checkpoint", ck, "--on-nonfinite", mode, "--plot", ""])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "steps with a non-finite loss" in out, out
    if mode == "skip":                                          # every update kept the weights finite
        assert "skipped" in out
        state = read_checkpoint(ck).net_state
        assert all(np.isfinite(a).all() for a in state.values())
    else:                                                       # weights went NaN: no checkpoint of them
        assert "checkpoint not written (non-finite state)" in out and "is not written" in out
        assert not os.path.exists(ck)


def test_cli_rejects_unknown_policy(capsys):
    with pytest.raises(SystemExit):
        main([*TINY, "--on-nonfinite", "ignore"])
    assert "--on-nonfinite" in capsys.readouterr().err


# ------------------------------------------------------------------ train_step
def make(seed=3):
    eg = alpha.engine.cpu_float32().set_seed(seed)
    net = nn.sequence(nn.conv3D(False, 3, 6, 3, 1, 1), nn.batchNorm_leakyRelu(6), nn.maxPool2D(2), nn.flatten(),
                      nn.fullconnect(6 * 4 * 4, 5)).train().init(eg)
    return eg, net, alpha.optim.Adam(net.params(), 1e-2), alpha.loss.softmax_crossEntropy()


def batch(eg, seed, nan=False):
    rng = np.random.RandomState(seed)
    x = rng.randn(8, 8, 8, 3).astype(np.float32)
    if nan:
        x[2, 1, 1, 0] = np.nan
    return eg.tensor(x, [8, 8, 8, 3]), eg.tensor(np.eye(5, dtype=np.float32)[rng.randint(0, 5, 8)], [8, 5])


def state(net, opt):
    """Everything a step may change: weights, BatchNorm running stats, Adam's m and v, the step count, lr."""
    arrays = {k: t.numpy().copy() for k, t in net.state_map().items()}
    arrays.update((f"opt/{k}", np.asarray(t.numpy()).copy()) for k, t in opt.state_map().items())
    return arrays, opt.steps(), opt._hp["lr"]


def same(a, b):
    assert a[1:] == b[1:]
    assert a[0].keys() == b[0].keys()
    for k in a[0]:
        np.testing.assert_array_equal(a[0][k], b[0][k], err_msg=k)


def test_skip_leaves_params_moments_step_count_and_bn_stats_untouched():
    eg, net, opt, ce = make()
    opt.lrSchedular(alpha.optim.exponentialLr(0.5, 0.0))
    step = alpha.train_step(net, ce, opt, on_nonfinite="skip", history=True)
    for s in range(2):
        step(*batch(eg, s))
    before = state(net, opt)
    assert before[1] == 2 and any(k.startswith("opt/") and np.abs(v).sum() > 0 for k, v in before[0].items())
    loss = step(*batch(eg, 99, nan=True))
    assert math.isnan(loss.get()) and step.stats()["skipped"] == 1
    same(state(net, opt), before)                               # m, v, t, lr schedule, run_mean/var all as before
    assert all(p.grad_data is None for p in net.params())       # the step's gradients are dropped
    step(*batch(eg, 2))                                         # ...and training goes on as if it never happened
    eg2, net2, opt2, ce2 = make()
    opt2.lrSchedular(alpha.optim.exponentialLr(0.5, 0.0))
    step2 = alpha.train_step(net2, ce2, opt2, on_nonfinite="skip")
    for s in (0, 1, 2):
        step2(*batch(eg2, s))
    same(state(net, opt), state(net2, opt2))


def test_stop_raises_before_the_update_and_continue_trains_on():
    eg, net, opt, ce = make()
    step = alpha.train_step(net, ce, opt, history=True)        # default: stop
    step(*batch(eg, 0))
    before = state(net, opt)
    with pytest.raises(NonFiniteError, match=r"train_step: training diverged: loss nan \(not finite\) at step 2, "
                                             r"learning rate 0.01 \(stopped before that step's update\)") as ei:
        step(*batch(eg, 1, nan=True))
    assert ei.value.step == 2 and math.isnan(ei.value.loss) and ei.value.lr == 0.01
    same(state(net, opt), before)
    eg, net, opt, ce = make()
    step = alpha.train_step(net, ce, opt, on_nonfinite="continue")
    step(*batch(eg, 1, nan=True))
    assert opt.steps() == 1 and not np.isfinite(net.params()[0].numpy()).all()
    with pytest.raises(ArgumentError, match="on_nonfinite must be one of"):
        alpha.train_step(net, ce, opt, on_nonfinite="ignore")


def test_reduce_grads_agreed_loss_decides_for_every_rank():
    """A rank whose own loss is finite still skips when the agreed (reduced) loss is not: the decision and the
    recorded loss are the ones reduce_grads(params, loss) returns."""
    eg, net, opt, ce = make()
    step = alpha.train_step(net, ce, opt, on_nonfinite="skip", history=True,
                            reduce_grads=lambda params, loss: eg.backend.full((), float("nan")))
    step(*batch(eg, 0))
    assert opt.steps() == 0 and step.stats()["skipped"] == 1 and math.isnan(step.history()["loss"][0])


# ------------------------------------------------------------------ anomaly mode
class InfGrad(Unit):
    """Identity forward; its backward multiplies the gradient by Inf (a unit made to break in backward)."""

    def _fwd(self, eg, x):
        return (x,), None

    def _bwd(self, eg, ctx, gys, needs):
        return (gys[0] * np.float32(np.inf),)


class Block(Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.conv3D(False, cin, cout, 3, 1, 1)
        self.act = nn.relu()

    def __forward__(self, X):
        return self.act(self.conv1(X))


class Net(Module):
    def __init__(self, bad_backward=False):
        super().__init__()
        self.block1, self.block2 = Block(3, 4), Block(4, 4)
        self.bad = InfGrad() if bad_backward else nn.relu()
        self.flatten, self.fc = nn.flatten(), nn.fullconnect(4 * 8 * 8, 5)

    def __forward__(self, X):
        return self.fc(self.flatten(self.bad(self.block2(self.block1(X)))))


def test_anomaly_mode_names_unit_pass_tensor_and_step():
    eg = alpha.engine.cpu_float32().set_seed(0).detect_anomaly(True)
    assert eg.detect_anomaly() is True
    net = Net().train().init(eg)
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), alpha.optim.SGD(net.params(), 0.1))
    step(*batch(eg, 0))
    net.block2.conv1.weight().data[...] = np.float32(3e38)      # this layer now overflows to Inf
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(NonFiniteError, match=r"anomaly: Conv3D 'Net\.block2\.conv1' forward: output 0 "
                                                 r"\[8,8,8,4\] holds .*(Inf|NaN) at step 2"):  # Winograd: Inf - Inf
            step(*batch(eg, 1))
    net = Net(bad_backward=True).train().init(eg)
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), alpha.optim.SGD(net.params(), 0.1))
    with pytest.raises(NonFiniteError, match=r"anomaly: InfGrad 'Net\.bad' backward: gradient of input 0 "
                                             r"\[8,8,8,4\] holds .*step 1"):
        step(*batch(eg, 0))
    with pytest.raises(NonFiniteError, match=r"input 0 \(data, no unit made it\) \[8,8,8,3\] holds NaN"):
        net(batch(eg, 0, nan=True)[0])
    eg.detect_anomaly(False)
    assert not np.isfinite(Net().init(eg)(batch(eg, 0, nan=True)[0])[0].numpy()).all()   # off: no check


# ------------------------------------------------------------------ saves
def test_stat_save_refuses_non_finite_state(tmp_path):
    eg, net, opt, ce = make()
    path = str(tmp_path / "w.npz")
    alpha.stat.save_npz(net, path)
    before = open(path, "rb").read()
    net.params()[0].data[0, 0, 0, 0] = np.inf
    with pytest.raises(NonFiniteError, match=r"save_npz of Sequence.*holds NaN/Inf values in 1 tensor.*"
                                             r"is left unchanged"):
        alpha.stat.save_npz(net, path)
    assert open(path, "rb").read() == before
