"""eg.accuracy: the fraction of rows whose arg-max matches the label, on the CPU engine against NumPy, its shape
errors, and on the GPU (reduce.cu's accuracy_rows, one launch) bit-equal to the CuPy path of base.py for every
label kind, ties, NaN rows and batched predictions. GPU cases skip without CuPy or a GPU."""
import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.backend.base import ArrayBackend
from alpha_py.errors import ShapeError
from cuda_parity import cpu, gpu

RNG = np.random.RandomState(5)


def _cases():
    """(name, predictions, labels) with ties, NaN rows and each label kind."""
    yh = RNG.randn(300, 10).astype(np.float32)
    yh[3] = 1.0                                # a tie: the first index wins
    yh[7, 4] = np.nan                          # a NaN counts as the maximum (NumPy)
    yh[9, 0] = np.nan
    idx = RNG.randint(0, 10, 300)
    idx[:150] = yh[:150].argmax(axis=1)        # about half right
    onehot = np.eye(10, dtype=np.float32)[idx]
    return [("int32", yh, idx.astype(np.int32)), ("int64", yh, idx.astype(np.int64)),
            ("float32", yh, idx.astype(np.float32)), ("column", yh, idx.astype(np.int32).reshape(300, 1, 1)),
            ("onehot", yh, onehot), ("batched", yh.reshape(3, 100, 10), onehot.reshape(3, 100, 10)),
            ("batched_index", yh.reshape(3, 100, 10), idx.reshape(3, 100).astype(np.int64)),
            ("one_class", yh[:, :1].copy(), np.zeros(300, np.int32))]


def _numpy(yh, lab):
    a = yh.argmax(axis=-1)
    b = lab.argmax(axis=-1) if lab.ndim == yh.ndim else lab.reshape(-1)
    return np.float32(np.mean(a.reshape(-1) == b.reshape(-1)))


@pytest.mark.parametrize("name,yh,lab", _cases(), ids=[c[0] for c in _cases()])
def test_cpu_accuracy_matches_numpy(name, yh, lab):
    eg = cpu()
    got = eg.accuracy(eg.tensor(yh.copy(), list(yh.shape)), eg.tensor(lab.copy(), list(lab.shape))).get()
    assert np.isclose(got, _numpy(yh, lab), rtol=0, atol=1e-7), (name, got, _numpy(yh, lab))


@pytest.mark.parametrize("yh_shape,lab_shape", [((8, 10), (8, 4)), ((8, 10), (7,)), ((8, 10), (2, 8, 10)),
                                                ((4, 3, 10), (4,))])
def test_mismatched_labels_are_refused_with_both_shapes(yh_shape, lab_shape):
    eg = cpu()
    yh = eg.tensor(np.zeros(yh_shape, np.float32), list(yh_shape))
    lab = eg.tensor(np.zeros(lab_shape, np.float32), list(lab_shape))
    with pytest.raises(ShapeError, match=r"accuracy: predictions .* got labels"):
        eg.accuracy(yh, lab)


@pytest.mark.gpu
@pytest.mark.parametrize("name,yh,lab", _cases(), ids=[c[0] for c in _cases()])
def test_gpu_accuracy_is_one_launch_and_bit_equal_to_the_cupy_path(name, yh, lab):
    eg = gpu()
    import cupy
    bk = eg.backend
    dy, dl = cupy.asarray(yh), cupy.asarray(lab)
    want = ArrayBackend.accuracy(bk, dy, dl).get()          # argmax, compare, mean: the generic path
    got = bk.accuracy(dy, dl)
    assert got.shape == () and got.dtype == np.float32
    assert got.get().tobytes() == want.tobytes(), (name, got.get(), want)
    assert got.get() == _numpy(yh, lab)
    via_engine = eg.accuracy(eg.tensor(yh.copy(), list(yh.shape)), eg.tensor(lab.copy(), list(lab.shape))).get()
    assert np.float32(via_engine).tobytes() == want.tobytes()


@pytest.mark.gpu
def test_gpu_accuracy_launches_our_kernel_only(monkeypatch):
    bk = gpu().backend
    import cupy
    yh, lab = cupy.asarray(RNG.randn(64, 10).astype(np.float32)), cupy.asarray(np.arange(64, dtype=np.int32) % 10)
    monkeypatch.setattr(ArrayBackend, "argmax", lambda *a, **k: pytest.fail("the CuPy argmax path ran"))
    assert 0.0 <= float(bk.accuracy(yh, lab)) <= 1.0
    # a label dtype the kernel does not take still works, through CuPy
    monkeypatch.undo()
    assert float(bk.accuracy(yh, lab.astype(np.uint8))) == float(bk.accuracy(yh, lab))


def test_index_labels_count_the_rows_whose_argmax_matches():
    eg = alpha.engine.cpu_float32()
    yh = eg.tensor(np.eye(4, dtype=np.float32), [4, 4])
    assert eg.accuracy(yh, eg.tensor(np.array([0, 1, 2, 0], np.int32), [4])).get() == pytest.approx(0.75)
