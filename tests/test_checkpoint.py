"""alpha.stat: checkpoint round trips (net + optimizer, text zip and npz), partial loads, corrupt and
mismatched files, atomic writes under a simulated crash."""
import os
import signal
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.errors import CheckpointError, NonFiniteError
from alpha_py.stat import formats, textcodec

FMTS = ["zip", "npz"]


class Net(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.conv = nn.conv3D(True, 3, 4, 3, 1, 1)
        self.bn = nn.batchNorm(4)
        self.fc = nn.fullconnect(True, 4 * 5 * 5, classes)

    def __forward__(self, x):
        return self.fc.forward(F.flatten(F.relu(self.bn.forward(self.conv.forward(x)))))


def build(seed, classes=3, make_opt=None):
    eg = alpha.engine.cpu_float32().set_seed(seed)
    net = Net(classes).init(eg)
    opt = (make_opt or (lambda ps: alpha.optim.AdamW(ps, 1e-2).amsgrad(True)))(net.param_map())
    return eg, net, opt


def batch(eg, k, classes=3):
    rng = np.random.RandomState(100 + k)
    return eg.tensor(rng.randn(4, 5, 5, 3)), eg.onehot(rng.randint(0, classes, 4), classes)


def train_step(eg, net, opt, k):
    x, y = batch(eg, k)
    net.train()
    yh = net.forward(x)[0]
    net.backward(alpha.loss.softmax_crossEntropy().gradient(yh, y))
    opt.update().clear_grads()
    net.gc()


def state(obj):
    return alpha.stat.state(obj)


def assert_same_state(a, b):
    sa, sb = state(a), state(b)
    assert list(sa) == list(sb)
    for k in sa:
        np.testing.assert_array_equal(sa[k], sb[k], err_msg=k)


def eval_out(eg, net):
    net.eval()
    out = net.forward(batch(eg, 99)[0])[0].numpy()
    net.gc()
    return out


def save(fmt, obj, path):
    return getattr(alpha.stat, f"save_{fmt}")(obj, str(path))


def load(fmt, obj, path, partial=False):
    return getattr(alpha.stat, f"load_{fmt}")(obj, str(path), partial)


@pytest.mark.parametrize("fmt", FMTS)
@pytest.mark.parametrize("make_opt", [
    lambda ps: alpha.optim.AdamW(ps, 1e-2).amsgrad(True),
    lambda ps: alpha.optim.SGDMN(ps, 0.1, 0.9, 0.0, True).lrSchedular(alpha.optim.exponentialLr(0.9, 0.01)),
    lambda ps: alpha.optim.Adamod(ps, 1e-2),
], ids=["adamw-amsgrad", "sgdmn-schedular", "adamod"])
def test_round_trip_identical_outputs_and_next_step(tmp_path, fmt, make_opt):
    eg, net, opt = build(1, make_opt=make_opt)
    for k in range(3):
        train_step(eg, net, opt, k)
    save(fmt, net, tmp_path / "net")
    save(fmt, opt, tmp_path / "opt")

    eg2, net2, opt2 = build(2, make_opt=make_opt)
    assert not np.array_equal(state(net)["Net.conv.weight"], state(net2)["Net.conv.weight"])
    assert load(fmt, net2, tmp_path / "net") is net2
    if fmt == "zip":
        alpha.stat.opt.load_zip(opt2, str(tmp_path / "opt"))     # the paper's Figure 2 spelling
    else:
        load(fmt, opt2, tmp_path / "opt")
    assert_same_state(net, net2)                      # incl. BatchNorm run_mean / run_var
    assert_same_state(opt, opt2)                      # moments, step, scheduler
    assert opt2.steps() == 3 and opt2.learning_rate() == opt.learning_rate()
    np.testing.assert_array_equal(eval_out(eg, net), eval_out(eg2, net2))

    train_step(eg, net, opt, 3)
    train_step(eg2, net2, opt2, 3)
    assert_same_state(net, net2)
    assert_same_state(opt, opt2)
    np.testing.assert_array_equal(eval_out(eg, net), eval_out(eg2, net2))


def test_text_zip_layout(tmp_path):
    eg = alpha.engine.cpu_float32().set_seed(0)
    fc = nn.fullconnect(True, 100, 50).init(eg, "fc")
    alpha.stat.save_zip(fc, str(tmp_path / "w"))
    with zipfile.ZipFile(tmp_path / "w") as z:
        assert sorted(z.namelist()) == sorted(["fc.weight", "fc.bias", formats.SHAPES_ENTRY])
        lines = z.read("fc.weight").decode("utf-8").splitlines()
    assert [len(line.split(",")) for line in lines] == [4096, 5000 - 4096]
    vals = np.array(",".join(lines).split(","), dtype=np.float32)
    np.testing.assert_array_equal(vals, fc.param_map()["fc.weight"].numpy().reshape(-1))


def test_loads_dragon_alpha_file_without_shape_table(tmp_path):
    """Java's Float.toString style ('1.0E-8'), no shape entry: checked by element count."""
    eg = alpha.engine.cpu_float32()
    fc = nn.fullconnect(True, 2, 2).init(eg, "fc")
    with zipfile.ZipFile(tmp_path / "w", "w") as z:
        z.writestr("fc.weight", "1.0E-8,-2.5\n3.0,0.1\n")
        z.writestr("fc.bias", "7.0,-0.0")
    alpha.stat.load_zip(fc, str(tmp_path / "w"))
    np.testing.assert_array_equal(fc.param_map()["fc.weight"].numpy(),
                                  np.array([[1e-8, -2.5], [3.0, 0.1]], np.float32))
    with zipfile.ZipFile(tmp_path / "bad", "w") as z:
        z.writestr("fc.weight", "1,2,3")
        z.writestr("fc.bias", "1,2")
    with pytest.raises(CheckpointError, match=r"fc\.weight: \[3\] vs \[2,2\]"):
        alpha.stat.load_zip(fc, str(tmp_path / "bad"))


@pytest.mark.parametrize("fmt", FMTS)
def test_partial_load(tmp_path, fmt):
    eg, net, _ = build(1)
    save(fmt, net.fc, tmp_path / "fc")                       # only Net.fc.weight / Net.fc.bias
    _, net2, _ = build(2)
    before = state(net2)
    with pytest.raises(CheckpointError) as e:
        load(fmt, net2, tmp_path / "fc")
    assert "missing keys (6)" in str(e.value) and "Net.bn.run_var" in str(e.value)
    np.testing.assert_array_equal(state(net2)["Net.fc.weight"], before["Net.fc.weight"])  # unchanged
    load(fmt, net2, tmp_path / "fc", partial=True)
    after = state(net2)
    np.testing.assert_array_equal(after["Net.fc.weight"], state(net)["Net.fc.weight"])
    np.testing.assert_array_equal(after["Net.conv.weight"], before["Net.conv.weight"])


@pytest.mark.parametrize("fmt", FMTS)
def test_unexpected_keys_and_wrong_shape(tmp_path, fmt):
    _, net, _ = build(1)
    save(fmt, net, tmp_path / "net")
    fc = nn.fullconnect(True, 100, 3).init(alpha.engine.cpu_float32(), "Net.fc")
    with pytest.raises(CheckpointError) as e:
        load(fmt, fc, tmp_path / "net")
    assert "unexpected keys (7)" in str(e.value) and "Net.conv.weight" in str(e.value)
    load(fmt, fc, tmp_path / "net", partial=True)

    _, net4, _ = build(3, classes=4)
    before = state(net4)
    for partial in (False, True):
        with pytest.raises(CheckpointError) as e:
            load(fmt, net4, tmp_path / "net", partial)
        msg = str(e.value)
        assert "Net.fc.weight: [100,3] vs [100,4]" in msg and "Net.fc.bias: [3] vs [4]" in msg
    assert_same_state_dict(state(net4), before)               # a failed load changes nothing


def assert_same_state_dict(a, b):
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


@pytest.mark.parametrize("fmt", FMTS)
def test_truncated_and_missing_files(tmp_path, fmt):
    _, net, _ = build(1)
    path = tmp_path / "net"
    save(fmt, net, path)
    data = path.read_bytes()
    (tmp_path / "cut").write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="truncated or corrupt"):
        load(fmt, net, tmp_path / "cut")
    (tmp_path / "junk").write_bytes(b"not a zip at all")
    with pytest.raises(CheckpointError, match="junk"):
        load(fmt, net, tmp_path / "junk")
    with pytest.raises(CheckpointError, match="no checkpoint file"):
        load(fmt, net, tmp_path / "absent")


def test_missing_key_and_garbage_entry(tmp_path):
    _, net, _ = build(1)
    alpha.stat.save_zip(net, str(tmp_path / "net"))
    with zipfile.ZipFile(tmp_path / "net") as src, \
            zipfile.ZipFile(tmp_path / "less", "w") as a, zipfile.ZipFile(tmp_path / "garb", "w") as b:
        for n in src.namelist():
            data = src.read(n)
            if n != "Net.bn.run_mean":
                a.writestr(n, data)
            b.writestr(n, b"0.5,abc\n" if n == "Net.bn.bias" else data)
    with pytest.raises(CheckpointError) as e:
        alpha.stat.load_zip(net, str(tmp_path / "less"))
    assert "missing keys (1): Net.bn.run_mean" in str(e.value) and "partial=True" in str(e.value)
    with pytest.raises(CheckpointError, match=r"entry 'Net.bn.bias' line 1 is not comma-separated"):
        alpha.stat.load_zip(net, str(tmp_path / "garb"))


def test_atomic_write_exception_mid_write(tmp_path, monkeypatch):
    eg, net, opt = build(1)
    path = tmp_path / "ckpt.zip"
    alpha.stat.save(net, str(path))
    old = path.read_bytes()
    calls = []

    def failing(arr, write, per_line):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("disk full")
        return real(arr, write, per_line)

    real = textcodec.encode
    monkeypatch.setattr(textcodec, "encode", failing)
    train_step(eg, net, opt, 0)
    with pytest.raises(RuntimeError, match="disk full"):
        alpha.stat.save(net, str(path))
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["ckpt.zip"]              # temp file removed


def test_atomic_write_survives_kill(tmp_path):
    """A process SIGKILLed half-way through save_zip leaves the previous checkpoint intact."""
    eg, net, _ = build(1)
    path = tmp_path / "ckpt"
    alpha.stat.save_zip(net, str(path))
    old = path.read_bytes()
    child = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_checkpoint import build
        from alpha_py import alpha
        from alpha_py.stat import textcodec
        real = textcodec.encode
        n = []
        def slow(arr, write, per_line):
            n.append(1)
            if len(n) == 4:
                print("writing", flush=True)
                time.sleep(60)
            return real(arr, write, per_line)
        textcodec.encode = slow
        _, net, _ = build(7)
        alpha.stat.save_zip(net, {str(path)!r})
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True,
                            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        assert proc.stdout.readline().strip() == "writing"
        temps = [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
        assert len(temps) == 1                                 # the half-written temp file
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert path.read_bytes() == old
    _, fresh, _ = build(5)
    alpha.stat.load_zip(fresh, str(path))
    assert_same_state(fresh, net)


def test_text_non_finite_values_use_java_spellings(tmp_path):
    eg = alpha.engine.cpu_float32()
    fc = nn.fullconnect(True, 2, 3).init(eg, "fc")
    fc.param_map()["fc.bias"].data[...] = np.array([np.inf, -np.inf, np.nan], np.float32)
    with pytest.raises(NonFiniteError, match="'fc.bias'"):           # refused unless asked for explicitly
        alpha.stat.save_zip(fc, str(tmp_path / "w"))
    alpha.stat.save_zip(fc, str(tmp_path / "w"), allow_nonfinite=True)
    with zipfile.ZipFile(tmp_path / "w") as z:
        assert z.read("fc.bias") == b"Infinity,-Infinity,NaN\n"
    fc2 = nn.fullconnect(True, 2, 3).init(eg, "fc")
    alpha.stat.load_zip(fc2, str(tmp_path / "w"))
    np.testing.assert_array_equal(fc2.param_map()["fc.bias"].numpy(), [np.inf, -np.inf, np.nan])
