"""alpha.data loaders on files written in the official layouts (IDX plain/gz, CIFAR-10/100 binary
and pickle, image_folder PNGs) plus corrupt/truncated/missing files -> DataError."""
import gzip
import os
import pickle
import struct

import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import DataError

data = alpha.data


def write_idx(path, arr, gz=False):
    arr = np.asarray(arr, dtype=np.uint8)
    raw = struct.pack(">BBBB", 0, 0, 0x08, arr.ndim) + struct.pack(f">{arr.ndim}I", *arr.shape) + arr.tobytes()
    if gz:
        raw = gzip.compress(raw)
    with open(path, "wb") as f:
        f.write(raw)
    return raw


def make_mnist_dir(d, n=7, gz=False, split="train"):
    rng = np.random.default_rng(0)
    imgs = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
    labs = rng.integers(0, 10, size=n, dtype=np.uint8)
    sfx = ".gz" if gz else ""
    write_idx(os.path.join(d, f"{split}-images-idx3-ubyte{sfx}"), imgs, gz)
    write_idx(os.path.join(d, f"{split}-labels-idx1-ubyte{sfx}"), labs, gz)
    return imgs, labs


@pytest.mark.parametrize("gz", [False, True])
def test_mnist_idx(tmp_path, gz):
    imgs, labs = make_mnist_dir(tmp_path, gz=gz)
    imgs_t, labs_t = make_mnist_dir(tmp_path, n=3, gz=gz, split="t10k")
    ds = data.mnist(True, str(tmp_path))
    assert len(ds) == 7 and ds.input_shape == (28, 28, 1) and ds.num_class == 10
    np.testing.assert_array_equal(ds.images[..., 0], imgs)
    np.testing.assert_array_equal(ds.labels, labs)
    te = data.minist(False, str(tmp_path))
    np.testing.assert_array_equal(te.images[..., 0], imgs_t)
    fm = data.fashion_mnist(False, str(tmp_path))
    assert fm.classes[9] == "Ankle boot" and len(fm) == 3


def test_idx_truncated_names_file_and_sizes(tmp_path):
    make_mnist_dir(tmp_path)
    p = tmp_path / "train-images-idx3-ubyte"
    raw = p.read_bytes()
    p.write_bytes(raw[:1000])
    with pytest.raises(DataError) as e:
        data.mnist(True, str(tmp_path))
    msg = str(e.value)
    assert "train-images-idx3-ubyte" in msg and f"expected {len(raw)} bytes" in msg and "found 1000" in msg


def test_idx_bad_magic_and_truncated_gzip(tmp_path):
    make_mnist_dir(tmp_path)
    p = tmp_path / "train-labels-idx1-ubyte"
    p.write_bytes(b"\x12\x34\x56\x78" + p.read_bytes()[4:])
    with pytest.raises(DataError, match="bad magic 12345678"):
        data.mnist(True, str(tmp_path))
    make_mnist_dir(tmp_path)
    # labels file given where images are expected: wrong number of dims
    (tmp_path / "train-images-idx3-ubyte").write_bytes((tmp_path / "train-labels-idx1-ubyte").read_bytes())
    with pytest.raises(DataError, match="expected 3"):
        data.mnist(True, str(tmp_path))
    os.remove(tmp_path / "train-images-idx3-ubyte")
    raw = write_idx(tmp_path / "train-images-idx3-ubyte.gz", np.zeros((7, 28, 28)), gz=True)
    (tmp_path / "train-images-idx3-ubyte.gz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(DataError, match="truncated gzip"):
        data.mnist(True, str(tmp_path))


def test_missing_files_and_count_mismatch(tmp_path):
    with pytest.raises(DataError, match="train-images-idx3-ubyte"):
        data.mnist(True, str(tmp_path))
    make_mnist_dir(tmp_path)
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.zeros(5))
    with pytest.raises(DataError, match="7 images but .* 5 labels"):
        data.mnist(True, str(tmp_path))


def test_mnist_5k_split():
    tr, te = data.mnist_5k(True), data.mnist5k(False)
    assert len(tr) == 4000 and len(te) == 1000 and tr.input_shape == (28, 28, 1)
    assert (tr.class_counts() == 400).all() and (te.class_counts() == 100).all()
    assert tr.images.dtype == np.uint8 and tr.images.max() == 255
    # deterministic, disjoint: no test image appears (as identical bytes) at the same rows twice
    tr2 = data.mnist_5k(True)
    np.testing.assert_array_equal(tr.images, tr2.images)
    keys = {r.tobytes() for r in tr.images.reshape(len(tr), -1)}
    assert sum(r.tobytes() in keys for r in te.images.reshape(len(te), -1)) < 5


def cifar_records(n, label_bytes, seed=0, num_class=10):
    rng = np.random.default_rng(seed)
    imgs = rng.integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
    labs = rng.integers(0, num_class, size=(n, label_bytes), dtype=np.uint8)
    chw = imgs.transpose(0, 3, 1, 2).reshape(n, -1)
    return imgs, labs, np.concatenate([labs, chw], axis=1).tobytes()


def test_cifar10_binary(tmp_path):
    d = tmp_path / "cifar-10-batches-bin"
    d.mkdir()
    parts = []
    for i in (1, 2):
        imgs, labs, raw = cifar_records(4, 1, seed=i)
        (d / f"data_batch_{i}.bin").write_bytes(raw)
        parts.append((imgs, labs[:, 0]))
    ti, tl, raw = cifar_records(3, 1, seed=9)
    (d / "test_batch.bin").write_bytes(raw)
    ds = data.cifar10(True, str(tmp_path))
    assert len(ds) == 8 and ds.input_shape == (32, 32, 3)
    np.testing.assert_array_equal(ds.images, np.concatenate([p[0] for p in parts]))
    np.testing.assert_array_equal(ds.labels, np.concatenate([p[1] for p in parts]))
    te = data.cifar10(False, str(d))
    np.testing.assert_array_equal(te.images, ti)
    (d / "test_batch.bin").write_bytes(raw[:-100])
    with pytest.raises(DataError, match=r"test_batch\.bin.*3073-byte record"):
        data.cifar10(False, str(d))


def test_cifar100_binary_fine_and_coarse(tmp_path):
    imgs, labs, raw = cifar_records(5, 2, num_class=20)
    (tmp_path / "train.bin").write_bytes(raw)
    fine = data.cifar100(True, str(tmp_path))
    coarse = data.cifar100(True, str(tmp_path), label="coarse")
    np.testing.assert_array_equal(fine.labels, labs[:, 1])
    np.testing.assert_array_equal(coarse.labels, labs[:, 0])
    assert fine.num_class == 100 and coarse.num_class == 20
    np.testing.assert_array_equal(fine.images, imgs)
    with pytest.raises(DataError, match="test.bin"):
        data.cifar100(False, str(tmp_path))


def test_cifar_pickle_batches(tmp_path):
    d = tmp_path / "cifar-10-batches-py"
    d.mkdir()
    imgs, labs, _ = cifar_records(6, 1)
    batch = {b"batch_label": b"x", b"labels": labs[:, 0].tolist(),
             b"data": imgs.transpose(0, 3, 1, 2).reshape(6, -1), b"filenames": [b"a"] * 6}
    with open(d / "data_batch_1", "wb") as f:
        pickle.dump(batch, f, protocol=2)
    ds = data.cifar10(True, str(tmp_path))
    np.testing.assert_array_equal(ds.images, imgs)
    np.testing.assert_array_equal(ds.labels, labs[:, 0])
    c100 = {b"fine_labels": [3, 99, 0, 1, 2, 5], b"coarse_labels": [1] * 6, b"data": batch[b"data"]}
    with open(tmp_path / "test", "wb") as f:
        pickle.dump(c100, f)
    te = data.cifar100(False, str(tmp_path))
    assert te.labels.tolist() == [3, 99, 0, 1, 2, 5]
    (d / "data_batch_1").write_bytes(b"not a pickle at all")
    with pytest.raises(DataError, match="data_batch_1.*cannot be unpickled"):
        data.cifar10(True, str(tmp_path))
    with open(d / "data_batch_1", "wb") as f:       # foreign globals are refused
        pickle.dump({b"data": os.getcwd, b"labels": []}, f)
    with pytest.raises(DataError, match="not allowed"):
        data.cifar10(True, str(tmp_path))


def test_image_folder(tmp_path):
    from PIL import Image
    colors = {"cat": (255, 0, 0), "dog": (0, 0, 255)}
    for cname, col in colors.items():
        (tmp_path / cname).mkdir()
        for i in range(2):
            Image.new("RGB", (20 + i * 7, 15), col).save(tmp_path / cname / f"{i}.png")
    (tmp_path / "dog" / "notes.txt").write_text("ignored")
    ds = data.image_folder(str(tmp_path), 12)
    assert ds.images.shape == (4, 12, 12, 3) and ds.classes == ["cat", "dog"]
    assert ds.labels.tolist() == [0, 0, 1, 1]
    assert (ds.images[0, ..., 0] == 255).all() and (ds.images[3, ..., 2] == 255).all()
    gray = data.image_folder(str(tmp_path), (8, 10), channels=1)
    assert gray.images.shape == (4, 8, 10, 1)
    (tmp_path / "dog" / "bad.png").write_bytes(b"\x89PNG broken")
    with pytest.raises(DataError, match="bad.png"):
        data.image_folder(str(tmp_path), 12)
    with pytest.raises(DataError, match="not a directory"):
        data.image_folder(str(tmp_path / "nope"), 12)
