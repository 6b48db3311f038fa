"""Non-finite losses on the CUDA engine (skipped without a GPU): the captured step's check costs no host wait
per step (the losses the loop reads anyway are the flag), a NaN step is reported at the next loss read (within
one read interval) with its own step number; 'skip' drops that step's update on the GPU too; anomaly mode names
the unit. Run on a GPU: PYTHONPATH=$PWD python3 -m pytest -q -p no:cacheprovider tests/test_cuda_divergence.py"""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import NonFiniteError
from alpha_py.trainer import READ_EVERY
from cuda_parity import keep_allocator, require_gpu  # noqa: F401 (keep_allocator: an autouse fixture)

pytestmark = pytest.mark.gpu
H, C = 12, 10



def setup(seed=3, **kw):
    require_gpu()
    eg = alpha.engine.cuda_float32(0).set_seed(seed)
    net = nn.sequence(nn.conv3D(False, 3, 8, 3, 1, 1), nn.batchNorm_leakyRelu(8), nn.maxPool2D(2), nn.flatten(),
                      nn.fullconnect(8 * (H // 2) ** 2, C)).train().init(eg)
    opt = alpha.optim.Adam(net.params(), 1e-3)
    return eg, net, opt, alpha.train_step(net, alpha.loss.softmax_crossEntropy(), opt, history=True, **kw)


def batch(eg, seed, nan=False):
    rng = np.random.RandomState(seed)
    x = rng.randn(16, H, H, 3).astype(np.float32)
    if nan:
        x[3, 2, 2, 1] = np.nan
    return eg.tensor(x), eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, 16)])


def test_captured_step_check_costs_no_wait_and_stop_arrives_at_the_next_read():
    eg, net, opt, step = setup(graph=True)
    good, bad = batch(eg, 0), batch(eg, 1, nan=True)
    for _ in range(3):                                    # warm-up and capture
        step(*good)
    step.history()
    c0 = eg.counters()
    for _ in range(READ_EVERY):
        step(*good)
    c1 = eg.counters()
    assert (c1["syncs"] - c0["syncs"]) / READ_EVERY == 0, f"host waits per step: {c0} -> {c1}"
    assert step.stats()["mode"] == "graph" and step.stats()["replays"] >= READ_EVERY
    step.history()                                        # the read the training loop makes every 64 steps
    first = step.stats()["replays"] + step.stats()["eager"] + 1
    for i in range(READ_EVERY):                           # the bad batch is the 5th step of this interval
        step(*(bad if i == 4 else good))
    with pytest.raises(NonFiniteError, match=rf"training diverged: loss nan \(not finite\) at step {first + 4}, "
                                             r"learning rate 0.001 \(found when the losses were read at step "
                                             rf"{first + READ_EVERY - 1};"):
        step.history()


def test_skip_on_gpu_drops_the_update():
    eg, net, opt, step = setup(on_nonfinite="skip")
    assert step.stats()["mode"] == "eager"                # skip decides on the host before the update
    step(*batch(eg, 0))
    before = {k: v.numpy().copy() for k, v in net.state_map().items()}
    moments = {k: np.asarray(v.numpy()).copy() for k, v in opt.state_map().items()}
    step(*batch(eg, 1, nan=True))
    assert step.stats()["skipped"] == 1 and opt.steps() == 1
    for k, v in net.state_map().items():
        np.testing.assert_array_equal(v.numpy(), before[k], err_msg=k)
    for k, v in opt.state_map().items():
        np.testing.assert_array_equal(np.asarray(v.numpy()), moments[k], err_msg=k)
    with pytest.raises(Exception, match="graph=True, on_nonfinite='skip'"):
        alpha.train_step(net, alpha.loss.softmax_crossEntropy(), opt, graph=True, on_nonfinite="skip")


def test_anomaly_mode_on_gpu_names_the_unit():
    eg, net, opt, step = setup()
    eg.detect_anomaly(True)
    try:
        with pytest.raises(NonFiniteError, match=r"anomaly: Conv3D '.*' forward: input 0 \(data, no unit made it\) "
                                                 r"\[16,12,12,3\] holds NaN at step 1"):
            step(*batch(eg, 1, nan=True))
    finally:
        eg.detect_anomaly(False)
