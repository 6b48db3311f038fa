"""Dragon-Alpha v1.2's alpha text helpers (format / str / append / string), alpha.stat's state primitives
(zip_writer, zip_reader, read, write, update, transform), alpha.loss.weighted_sum()'s creator and
alpha.engine.old_cuda_float32 / the streamPool_maxsize overload of cuda_float32 (argument checks; the engines
themselves need a GPU: tests/test_cuda_facade.py)."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import AlphaError, CheckpointError

# the text the JUnit FacadeV12Test expects too
STR_2x3_INT = "[[0, 1, 2]\n [3, 4, 5]]"
STR_2x2x2_FLOAT = ("[[[0.000000e+00, 1.000000]\n  [2.000000, 3.000000]]\n"
                   " [[4.000000, 5.000000]\n  [6.000000, 7.000000]]]")


def test_text_helpers():
    assert alpha.format(0.5) == "0.500000" and alpha.format(-2.0) == "-2.000000"
    assert alpha.format(1e-5) == "1.000000e-05" and alpha.format(0.0) == "0.000000e+00"
    assert alpha.format(7) == "7" and alpha.format(np.int8(-7)) == " -7"
    assert alpha.str(np.arange(6, dtype=np.int32).reshape(2, 3)) == STR_2x3_INT
    assert alpha.str(np.arange(8, dtype=np.float32).reshape(2, 2, 2)) == STR_2x2x2_FLOAT
    assert alpha.str([1.0, 0.25]) == "[1.000000, 0.250000]" and alpha.str(None) == "null"
    assert alpha.str(np.ones((1, 1, 1, 2), np.uint8)) == "[[[[  1,   1]]]]"
    sb = alpha.append([], "> ", np.ones((2, 2), np.int8))
    assert "".join(sb) == "[[  1,   1]\n > [  1,   1]]"
    assert alpha.string([[1, 2], [3, 4]]) == "[[1, 2]\n [3, 4]]" and alpha.string(3) == "3"
    assert alpha.version == "alpha-v1.2"
    with pytest.raises(TypeError, match="1D-4D"):
        alpha.str(np.zeros((1, 1, 1, 1, 1)))


def _net(eg):
    return nn.sequence(nn.fullconnect(3, 2), nn.batchNorm(2)).init(eg)


def test_stat_state_primitives(tmp_path):
    eg = alpha.engine.cpu_float32()
    a, b = _net(eg), _net(eg)
    path = tmp_path / "net.zip"
    assert alpha.stat.write(a, alpha.stat.zip_writer(str(path)))
    state = alpha.stat.read(alpha.stat.zip_reader(str(path), "UTF-8"))
    assert list(state) == list(a.state_map())
    assert alpha.stat.update(b, state)
    for (ka, pa), (kb, pb) in zip(a.state_map().items(), b.state_map().items()):
        np.testing.assert_array_equal(pa.numpy(), pb.numpy())
    alpha.stat.load_zip(b, str(path))                      # the same text-zip format as save_zip
    assert alpha.stat.transform(b, lambda st: st.eval()) is b and not b.training
    with pytest.raises(CheckpointError, match="missing keys"):
        alpha.stat.update(nn.sequence(nn.fullconnect(3, 2), nn.batchNorm(2), nn.fullconnect(2, 1)).init(eg), state)
    with pytest.raises(AlphaError, match="charset"):
        alpha.stat.zip_writer(str(path), "no-such-charset")


def test_weighted_sum_creator():
    eg = alpha.engine.cpu_float64()
    c = alpha.loss.weighted_sum().append(0.25, alpha.loss.L1()).append(2.0, alpha.loss.L2())
    assert c.weights() == [0.25, 2.0] and len(c.loss_funcs()) == 2
    yh, y = eg.tensor(np.array([[1.0, 3.0]])), eg.tensor(np.array([[0.0, 0.0]]))
    want = 0.25 * alpha.loss.L1().loss(yh, y).get() + 2.0 * alpha.loss.L2().loss(yh, y).get()
    assert c.create().loss(yh, y).get() == pytest.approx(want)
    assert c.clear().weights() == []


@pytest.mark.parametrize("call,words", [
    (lambda: alpha.engine.old_cuda_float32(0, True), ["old_cuda_float32", "maxMemorySize"]),
    (lambda: alpha.engine.old_cuda_float32(0, 0, 1 << 30, 1 << 20, True), ["streamPool_maxsize", "0"]),
    (lambda: alpha.engine.old_cuda_float32(0, -5), ["maxMemorySize must be > 0"]),
    (lambda: alpha.engine.cuda_float32(0, 64, None, 1, True, 3), ["streamPool_maxsize, mempool"]),
    (lambda: alpha.engine.cuda_float32(0, -1, None, 1, True), ["streamPool_maxsize must be a positive int"]),
])
def test_engine_v12_overload_errors(call, words):
    with pytest.raises(AlphaError) as e:
        call()
    for w in words:
        assert w in str(e.value), str(e.value)
    assert alpha.engine.default_max_transfer_buf_size == 512 << 20 and alpha.engine.default_cuda_stream_pool_size == 64


def test_F_split_takes_v12_forms():
    """v1.2's F.split(X, sections...) splits the last dim; F.split(dim, X, sections...); ours (dim, sections..., X)."""
    from alpha_py import F
    eg = alpha.engine.cpu_float32()
    x = eg.tensor(np.arange(12, dtype=np.float32).reshape(2, 6))
    assert [t.shape for t in F.split(x, 2, 4)] == [(2, 2), (2, 4)]
    assert [t.shape for t in F.split(0, x, 1, 1)] == [(1, 6), (1, 6)]
    assert [t.shape for t in F.split(0, [x], 1, 1)] == [(1, 6), (1, 6)]
    assert [t.shape for t in F.split(-1, 3, 3, x)] == [(2, 3), (2, 3)]
    np.testing.assert_array_equal(F.split(x, 2, 4)[1].numpy(), x.numpy()[:, 2:])
