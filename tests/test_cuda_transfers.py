"""GPU: the pinned staging ring. Uploads queued behind busy device work return without waiting and land right
(also when the ring wraps and from two threads at once), and a buffered data iterator hands out batches while
the device is still busy. Skipped without CuPy or a GPU."""
import threading

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.data.dataset import DataSet
from cuda_parity import require_gpu

pytestmark = pytest.mark.gpu
RNG = np.random.RandomState(5)


def busy(cp, seconds_of_work=40):
    """Queue long device work on the current stream; returns an event recorded after it."""
    a = cp.ones((4096, 4096), dtype=cp.float32)
    for _ in range(seconds_of_work):
        a = a @ a * cp.float32(1.0 / 4096)
    ev = cp.cuda.Event(disable_timing=True)
    ev.record()
    return ev


def test_uploads_behind_busy_work_do_not_wait_and_land_right():
    cp = require_gpu()
    eg = alpha.engine.cuda_float32(0)
    b = eg.backend
    arrays = [RNG.randn(128, 784).astype(np.float32) for _ in range(6)]
    ev = busy(cp)
    s0 = eg.counters()["syncs"]
    outs = [b.from_host(a) for a in arrays]
    assert eg.counters()["syncs"] == s0, "an upload waited for the device"
    assert not ev.done, "the queued work finished before the uploads returned: make busy() longer"
    for a, o in zip(arrays, outs):
        np.testing.assert_array_equal(o.get(), a)


def test_a_wrapping_ring_waits_only_for_the_copies_it_overwrites():
    cp = require_gpu()
    eg = alpha.engine.cuda_float32(0, max_trans_buf_bytes=1 << 16)
    b = eg.backend
    arrays = [np.full(5000, i, np.float32) + RNG.rand(5000).astype(np.float32) for i in range(40)]   # 20 KB each
    busy(cp, 10)
    s0 = eg.counters()["syncs"]
    outs = [b.from_host(a) for a in arrays]
    assert eg.counters()["syncs"] > s0, "40 x 20 KB through a 64 KB ring must reuse ranges still in flight"
    for a, o in zip(arrays, outs):
        np.testing.assert_array_equal(o.get(), a)
    big = RNG.randn(300, 1000).astype(np.float32)                         # larger than the ring: chunked
    np.testing.assert_array_equal(eg.tensor(big).numpy(), big)


def test_reads_and_uploads_from_two_threads():
    require_gpu()
    eg = alpha.engine.cuda_float32(0, max_trans_buf_bytes=1 << 16)
    b = eg.backend
    ups = [RNG.randn(3000).astype(np.float32) for _ in range(60)]
    dev = [b.from_host(RNG.randn(7000).astype(np.float32)) for _ in range(30)]
    want = [d.get() for d in dev]
    got, errors = [None] * len(ups), []

    def upload():
        try:
            for i, a in enumerate(ups):
                got[i] = b.from_host(a)
        except Exception as e:                  # surfaced below
            errors.append(e)
    t = threading.Thread(target=upload)
    t.start()
    reads = [b.to_host(d) for d in dev]
    t.join()
    assert not errors, errors
    for r, w in zip(reads, want):
        np.testing.assert_array_equal(r, w)
    for g, a in zip(got, ups):
        np.testing.assert_array_equal(b.to_host(g), a)


def test_a_buffered_iterator_hands_out_batches_while_the_device_is_busy():
    cp = require_gpu()
    eg = alpha.engine.cuda_float32(0)
    images = RNG.randint(0, 256, (512, 28, 28, 1)).astype(np.uint8)
    labels = RNG.randint(0, 10, 512).astype(np.int64)
    ds = DataSet(images, labels, 10, name="rand")
    it = ds.buffered_iter(eg, 128, seed=3)
    ref = ds.batch_iter(eg, 128, seed=3)
    ev = busy(cp)
    s0 = eg.counters()["syncs"]
    first = it.next()                           # built on the prefetch thread, which then prepares the next
    second = it.next()
    assert eg.counters()["syncs"] == s0, "the prefetched batch waited for the device"
    assert not ev.done, "the queued work finished before next() returned: make busy() longer"
    second.input.c()                            # waits for the batch's own event: the work queued before it too
    assert ev.done and eg.counters()["syncs"] == s0 + 1
    for got in (first, second):
        want = ref.next()
        np.testing.assert_array_equal(got.input.numpy(), want.input.numpy())
        np.testing.assert_array_equal(got.label.numpy(), want.label.numpy())
    it.close()
