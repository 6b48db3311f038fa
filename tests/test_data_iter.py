"""TensorIter / BufferedTensorIter semantics: permutations, prefetch == unbuffered, seeding,
batch conversion ([-1,1] images, one-hot labels) and uint8 augmentation."""
import threading

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.data import horizontal_flip, random_crop
from alpha_py.errors import ArgumentError, DataError, StateError

data = alpha.data


@pytest.fixture(scope="module")
def eg():
    return alpha.engine.cpu_float32()


def toy(n=23, h=6, w=5, c=3, k=4):
    rng = np.random.default_rng(3)
    return data.dataset(rng.integers(0, 256, (n, h, w, c), dtype=np.uint8), rng.integers(0, k, n), k, "toy")


def test_batches_cover_set_and_convert(eg):
    ds = toy()
    it = ds.batch_iter(eg, 5, seed=1)
    pairs = list(it)
    assert [len(p.index) for p in pairs] == [5, 5, 5, 5, 3]
    assert not it.hasNext()
    with pytest.raises(StateError, match="reset"):
        it.next()
    p = pairs[0]
    x, y = p
    assert x.shape == (5, 6, 5, 3) and y.shape == (5, 4)
    np.testing.assert_allclose(x.numpy(), ds.images[p.index] * (2 / 255) - 1, atol=1e-6)
    np.testing.assert_array_equal(y.numpy().argmax(1), ds.labels[p.index])
    assert (y.numpy().sum(1) == 1).all()
    it.reset()
    assert it.hasNext() and np.array_equal(it.next().index, np.arange(5))


@pytest.mark.parametrize("shuffle", ["shuffle_sort", "shuffle_swap"])
def test_shuffles_are_permutations_and_seeded(shuffle):
    ds = toy(200)
    a = getattr(ds.batch_iter(seed=7), shuffle)().order()
    b = getattr(ds.batch_iter(seed=7), shuffle)().order()
    c = getattr(ds.batch_iter(seed=8), shuffle)().order()
    assert sorted(a.tolist()) == list(range(200))
    assert np.array_equal(a, b) and not np.array_equal(a, c) and not np.array_equal(a, np.arange(200))


def test_shuffle_rewinds_and_next_needs_engine(eg):
    ds = toy()
    it = ds.batch_iter(seed=1)
    with pytest.raises(ArgumentError, match="engine, batch"):
        it.next()
    it.next(eg, 20)
    assert it.remaining() == 3
    it.shuffle_sort()
    assert it.remaining() == 23


def test_buffered_equals_unbuffered_with_augmentation(eg):
    ds = toy(37)
    aug = data.augment(crop_pad=2, flip=True)
    plain = ds.batch_iter(eg, 8, seed=11, augment=aug)
    buf = ds.buffered_iter(eg, 8, seed=11, augment=aug)
    for epoch in range(2):
        plain.shuffle_sort()
        buf.shuffle_sort()
        got_p = [(p.index, p.input.numpy(), p.label.numpy()) for p in plain]
        got_b = [(p.index, p.input.numpy(), p.label.numpy()) for p in buf]
        assert len(got_p) == len(got_b) == 5
        for (ia, xa, ya), (ib, xb, yb) in zip(got_p, got_b):
            assert np.array_equal(ia, ib) and np.array_equal(xa, xb) and np.array_equal(ya, yb)
    # a reset in the middle of a pass discards the prefetched batch and starts over identically
    buf.reset()
    first = buf.next().index
    buf.next()
    buf.reset()
    assert np.array_equal(buf.next().index, first)
    buf.close()


def test_buffered_prefetches_on_background_thread(eg):
    ds = toy(30)
    seen = []

    class Spy:
        def __call__(self, images, rng):
            seen.append(threading.current_thread().name)
            return images

    it = ds.buffered_iter(eg, 10, seed=0, augment=Spy())
    it.next()
    it._pending[0].result()          # the second batch is being built without a next() call
    assert len(seen) == 2 and all(n.startswith("alpha-prefetch") for n in seen)
    assert it.remaining() == 20 and it.hasNext()
    it.next(eg, 4)                   # other batch size: the prefetched batch is redone
    assert it.remaining() == 16
    it.close()


def test_random_crop_and_flip_values():
    rng = np.random.default_rng(0)
    img = np.arange(2 * 4 * 4 * 1, dtype=np.uint8).reshape(2, 4, 4, 1)
    out = random_crop(img, 2, rng)
    assert out.shape == img.shape and out.dtype == np.uint8
    for k in range(2):                # every crop is a shifted window of the zero-padded image
        padded = np.pad(img[k], ((2, 2), (2, 2), (0, 0)))
        assert any(np.array_equal(out[k], padded[dy:dy + 4, dx:dx + 4]) for dy in range(5) for dx in range(5))
    flipped = horizontal_flip(img, rng, p=1.0)
    assert np.array_equal(flipped, img[:, :, ::-1])
    assert np.array_equal(horizontal_flip(img, rng, p=0.0), img)
    many = np.tile(img[:1], (400, 1, 1, 1))
    frac = (horizontal_flip(many, np.random.default_rng(1))[:, 0, 0, 0] != img[0, 0, 0, 0]).mean()
    assert 0.4 < frac < 0.6


def test_augment_and_dataset_validation():
    with pytest.raises(ArgumentError):
        data.augment(crop_pad=-1)
    with pytest.raises(DataError, match="uint8"):
        data.dataset(np.zeros((2, 3, 3, 1), np.float32), [0, 1], 2)
    with pytest.raises(DataError, match=r"\[0, 2\)"):
        data.dataset(np.zeros((2, 3, 3, 1), np.uint8), [0, 2], 2)
    assert len(toy().take(4)) == 4
