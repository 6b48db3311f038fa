"""Sync mode waits once per public call (Engine.public): a net's forward/backward, a loss, an update, an F op
each end with one wait for the device, not one per op inside; async mode waits for none; a call that raises
leaves the engine waiting again at the next call; work under eg.background() (a data iterator's prefetch thread)
waits for none. Counted on the CPU engine through its synchronize()."""
import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.data.dataset import DataSet
from alpha_py.engine.autoloop import AutoLoop
from alpha_py.errors import ShapeError


def setup(auto=False):
    eg = alpha.engine.cpu_float32().set_seed(1)
    if auto:
        eg.auto = AutoLoop(eg, defer_without_graphs=False)
    waits = []
    eg.backend.synchronize = lambda: waits.append(1)
    net = nn.sequence(nn.conv3D(False, 3, 4, 3, 1, 1), nn.batchNorm_leakyRelu(4), nn.maxPool2D(2), nn.flatten(),
                      nn.fullconnect(4 * 16, 16), nn.relu(), nn.fullconnect(16, 5)).train().init(eg)
    return eg, net, waits


def batch(eg):
    rng = np.random.RandomState(0)
    return (eg.tensor(rng.uniform(-1, 1, (6, 8, 8, 3)).astype(np.float32)),
            eg.tensor(np.eye(5, dtype=np.float32)[rng.randint(0, 5, 6)]))


@pytest.mark.parametrize("auto", [False, True])
def test_one_wait_per_public_call(auto):
    eg, net, waits = setup(auto)
    x, y = batch(eg)
    opt, ls = alpha.optim.Adam(net.param_map(), 1e-2), alpha.loss.softmax_crossEntropy()
    counts = {}
    for name, fn in [("forward", lambda: net.forward(x)), ("gradient", lambda: ls.gradient(yh(), y)),
                     ("backward", lambda: net.backward(g())), ("update", lambda: opt.update()),
                     ("F", lambda: F.relu(x)), ("gc", lambda: net.gc())]:
        del waits[:]
        out = fn()
        counts[name] = len(waits)
        if name == "forward":
            out_yh = out[0]
            yh = (lambda t=out_yh: t)
        if name == "gradient":
            grad = out
            g = (lambda t=grad: t)
    assert counts == {"forward": 1, "gradient": 1, "backward": 1, "update": 1, "F": 1, "gc": 1}, counts


def test_async_mode_waits_for_nothing():
    eg, net, waits = setup()
    eg.sync(False)
    del waits[:]
    x, y = batch(eg)
    net.backward(alpha.loss.softmax_crossEntropy().gradient(net.forward(x)[0], y))
    assert waits == []


def test_a_call_that_raises_leaves_the_next_call_waiting():
    eg, net, waits = setup()
    with pytest.raises(ShapeError):
        net.forward(eg.zeros(2, 5, 5, 7))             # 7 channels into a 3-channel conv
    x = batch(eg)[0]
    del waits[:]
    net.forward(x)
    assert len(waits) == 1


def test_background_work_waits_for_nothing_and_only_on_its_own_thread():
    """A data iterator's prefetch thread queues its batch under eg.background(): no sync-mode wait there; the same
    calls on another thread at the same time, and on this thread after the block, wait as before."""
    import threading
    eg, net, waits = setup()
    events = []
    eg.backend.event = lambda: events.append(1) or "event"
    img = np.zeros((2, 8, 8, 3), np.uint8)
    with eg.background():
        t = eg.images(img)
        eg.onehot([0, 1], 5)
        net.forward(t)
        other = threading.Thread(target=lambda: eg.tensor([1.0, 2.0]))
        other.start()
        other.join()
        assert waits == [1] and len(events) >= 3      # the other thread waited; this one made events instead
        assert t.syncer._event == "event"
    eg.tensor([1.0])
    assert waits == [1, 1]
    ds = DataSet(np.zeros((6, 4, 4, 3), np.uint8), np.arange(6) % 5, 5)
    it = ds.buffered_iter(eg, 4, seed=0)
    del waits[:]
    pair = it.next()
    assert waits == [] and pair.input.syncer._event == "event"
    it.close()
