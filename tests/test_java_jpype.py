"""Java facade driven through JPype (and the parity check across Python, JPype and Py4J).
The Java sources are compiled with javac (conftest `classes`, no Maven needed); skipped without java/javac."""
import re
import subprocess
import sys

import numpy as np
import pytest

from alpha_py import F, alpha, nn
from java_support import NEEDS_JDK, REPO, env, run_jpype, run_py4j

pytestmark = NEEDS_JDK
pytest.importorskip("jpype")


# ---------------------------------------------------------------------------- parity
class ParityNet(nn.Module):
    """The network of java/examples/alpha/examples/Parity.java, written in Python."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.conv3D(True, 3, 6, 3, 1, 1)
        self.bn1 = nn.batchNorm(6)
        self.pool = nn.maxPool2D(2, 2, 0)
        self.conv2 = nn.conv3D(False, 6, 6, 3, 1, 1)
        self.fc = nn.fullconnect(True, 6, 5)

    def __forward__(self, X):
        X = self.pool.forward(F.leakyRelu(self.bn1.forward(self.conv1.forward(X))))
        R = F.relu(self.conv2.forward(X))
        X = F.adaptive_avgPool2D(1, F.add(X[0], R[0]))
        return self.fc.forward(F.flatten(X))


ParityNet.__name__ = "Net"          # parameter names as in Java: Net.conv1.weight ...


def python_parity_losses(steps=5):
    eg = alpha.engine.cpu_float32()
    eg.set_seed(5)
    net = ParityNet().init(eg)
    x = eg.gaussian(0.0, 1.0, 4, 8, 8, 3)
    y = eg.onehot([0, 1, 2, 3], 5)
    opt = alpha.optim.Adam(net.param_map(), 1e-2)
    ls = alpha.loss.softmax_crossEntropy()
    out = []
    for _ in range(steps):
        yh = net.forward(x)[0]
        out.append(float(ls.loss(yh, y).get()))
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
    return out


def python_trainstep_losses(steps=5):
    """Parity.java's second part: a sequence trained through alpha.train_step."""
    eg = alpha.engine.cpu_float32()
    eg.set_seed(5)
    ParityNet().init(eg)                      # the same draws as the Java Module before it
    x = eg.gaussian(0.0, 1.0, 4, 8, 8, 3)
    y = eg.onehot([0, 1, 2, 3], 5)
    eg.set_seed(5)
    seq = nn.sequence(nn.conv3D(True, 3, 6, 3, 1, 1), nn.batchNorm(6), nn.leakyRelu(), nn.maxPool2D(2, 2, 0),
                      nn.adaptive_avgPool2D(1), nn.flatten(), nn.fullconnect(True, 6, 5)).train().init(eg)
    step = alpha.train_step(seq, alpha.loss.softmax_crossEntropy(), alpha.optim.Adam(seq.param_map(), 1e-2))
    return [float(step(x, y).get()) for _ in range(steps)]


def _losses(stdout, key="loss"):
    return [float(v) for v in re.findall(rf"^{key} (\S+)$", stdout, re.M)]


def test_parity_python_jpype_py4j(classes):
    ref, ref_ts = python_parity_losses(), python_trainstep_losses()
    outs = [run_jpype(classes, "alpha.examples.Parity"), run_py4j(classes, "alpha.examples.Parity")]
    for out in outs:
        assert len(_losses(out)) == len(ref) == 5
        np.testing.assert_allclose(_losses(out), ref, rtol=1e-6)
        np.testing.assert_allclose(_losses(out, "trainstep_loss"), ref_ts, rtol=1e-6)
        assert _losses(out, "trainstep_requests") == [1.0] * 5     # one bridge round trip per step
    assert ref[-1] < ref[0] and ref_ts[-1] < ref_ts[0]


# ---------------------------------------------------------------------------- lifetimes
@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_lifetimes_under_both_bridges(classes, bridge):
    """Scopes, keep/detach, thread confinement, use after close, lambdaLr and closing the bridge,
    with the Python registry counted (java/examples/alpha/examples/Lifetimes.java)."""
    run = run_jpype if bridge == "jpype" else run_py4j
    out = run(classes, "alpha.examples.Lifetimes")
    kv = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert kv["bridge"] == bridge
    assert kv["inside_inner"] == "3"                       # x, relu(x), sigmoid(x)
    assert kv["after_inner"] == "2 true false"             # relu(x) freed, sigmoid(x) kept
    assert kv["after_outer"] == "0 true"
    assert kv["use_after_close"].startswith("StateError: Tensor (Python Tensor #"), kv["use_after_close"]
    assert "released by Scope 'outer'.close()" in kv["use_after_close"]
    assert kv["detached"] == "false 1" and kv["detached_closed"] == "0"
    assert kv["thread_scope_sizes"] == "1 1"                # the worker's tensor was freed by its own scope
    assert float(kv["lambdaLr"]) == pytest.approx(0.1)
    assert f"the {'JPype' if bridge == 'jpype' else 'Py4J'} bridge was closed" in kv["after_bridge_close"]
    assert kv["after_bridge_close"].startswith("StateError: Engine (Python ")


# ---------------------------------------------------------------------------- examples
def _write_cifar10(d, per_file=24, seed=0):
    """CIFAR-10 binary format: records of 1 label byte + 3072 pixel bytes (R, G, B planes)."""
    rng = np.random.default_rng(seed)
    for name in [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]:
        labels = rng.integers(0, 10, per_file).astype(np.uint8)
        pixels = rng.integers(0, 256, (per_file, 3072)).astype(np.uint8)
        pixels[:, :1024] = (labels[:, None] * 25).astype(np.uint8)       # learnable: red plane = label
        (d / name).write_bytes(np.concatenate([labels[:, None], pixels], 1).tobytes())


def test_figure2_trains_on_cifar_format_files(classes, tmp_path):
    data = tmp_path / "cifar-10-batches-bin"
    data.mkdir()
    _write_cifar10(data)
    out = run_jpype(classes, "alpha.examples.Figure2", data, 4, 16, 4, tmp_path / "fig2.zip")
    losses = [float(v) for v in re.findall(r"^step \d+ loss = (\S+)$", out, re.M)]
    assert len(losses) == 4 and all(np.isfinite(losses)), out
    assert "Network.block2.downsample.Conv3D0.weight" in out        # println(): Figure 2 names
    assert "reloaded_equal=true" in out


def test_mnist_program_matches_python(classes):
    """The Java MNIST program and the same program in Python give the same loss and accuracy."""
    out = run_jpype(classes, "alpha.examples.MnistTrain", 1, 64, 0, 256)
    jl = float(re.search(r"epoch 0 loss (\S+)", out).group(1))
    jacc = float(re.search(r"test_accuracy (\S+)", out).group(1))

    class MnistNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.bn1, self.pool1 = nn.conv3D(True, 1, 32, 3, 1, 1), nn.batchNorm(32), nn.maxPool2D(2, 2, 0)
            self.conv2, self.bn2, self.pool2 = nn.conv3D(True, 32, 64, 3, 1, 1), nn.batchNorm(64), nn.maxPool2D(2, 2, 0)
            self.fc1, self.fc2 = nn.fullconnect(True, 7 * 7 * 64, 128), nn.fullconnect(True, 128, 10)

        def __forward__(self, X):
            X = self.pool1.forward(F.leakyRelu(self.bn1.forward(self.conv1.forward(X))))
            X = self.pool2.forward(F.leakyRelu(self.bn2.forward(self.conv2.forward(X))))
            return self.fc2.forward(F.leakyRelu(self.fc1.forward(F.flatten(X))))

    eg = alpha.engine.cpu_float32()
    eg.set_seed(0)
    net = MnistNet().train().init(eg)
    opt = alpha.optim.Adam(net.param_map(), 2e-3)
    ls = alpha.loss.softmax_crossEntropy()
    it = alpha.data.mnist_5k(True).take(256).batch_iter(eg, 64).seed(0)
    it.shuffle_sort()
    total, n = 0.0, 0
    while it.hasNext():
        p = it.next()
        yh = net.forward(p.input)[0]
        total += ls.loss(yh, p.label).get()
        n += 1
        net.backward(ls.gradient(yh, p.label))
        opt.update().clear_grads()
        net.gc()
    net.eval()
    correct, rows = 0.0, 0
    it = alpha.data.mnist_5k(False).batch_iter(eg, 250)
    while it.hasNext():
        p = it.next()
        yh = net.forward(p.input)[0]
        correct += eg.accuracy(yh, p.label).get() * yh.shape[0]
        rows += yh.shape[0]
        net.gc()
    assert jl == pytest.approx(total / n, rel=1e-5)
    assert jacc == pytest.approx(correct / rows, abs=1e-6)


# ---------------------------------------------------------------------------- in-process JPype checks
CHECKS = r'''
import json, sys
import jpype
from alpha_py.java import start_jvm
from alpha_py.java.launcher import _state
start_jvm([sys.argv[1]])
JInt, JFloat = jpype.JInt, jpype.JFloat
A = jpype.JClass("alpha.Alpha")
Bridge = jpype.JClass("alpha.bridge.Bridge")
AlphaException = jpype.JClass("alpha.AlphaException")
ByteBuffer, ByteOrder = jpype.JClass("java.nio.ByteBuffer"), jpype.JClass("java.nio.ByteOrder")
registry = _state["endpoint"].dispatcher.registry
out = {"bridge": str(A.alpha.bridge())}
eg = A.engine.cpu_float32()

# Java -> Python: the tensor views the Java direct buffer (a later Java write is visible)
buf = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder())
buf.asFloatBuffer().put(jpype.JArray(JFloat)([1, 2, 3, 4]))
t = eg.tensor(buf, "float32", jpype.JArray(JInt)([2, 2]))
buf.putFloat(0, 9.0)
out["put_zero_copy"] = float(t.value()[0]) == 9.0

# Python -> Java: the buffer Java reads views the tensor's array (a later Python write is visible)
u = eg.tensor(jpype.JArray(JFloat)([5, 6, 7, 8]), jpype.JArray(JInt)([4]))
view = Bridge.backend().read(u, "float32")
registry.get(int(u.id())).data[1] = 42.0
out["get_zero_copy"] = float(view.getFloat(4)) == 42.0

# Python errors arrive as AlphaException with the Python message
conv = A.nn.conv3D(True, 3, 4, 3, 1, 1).init(eg, "jp.conv")
try:
    conv.forward(jpype.JArray(jpype.JClass("alpha.engine.Tensor"))([eg.zeros(jpype.JArray(JInt)([1, 5, 5, 2]))]))
    out["error"] = None
except AlphaException as e:
    out["error"] = str(e.getMessage())

# a Java Module trained from Python through JPype: handle counts stay flat
Net = jpype.JClass("alpha.examples.Parity$Net")
eg.set_seed(5)
net = Net().init(eg)
x = eg.gaussian(0.0, 1.0, jpype.JArray(JInt)([4, 8, 8, 3]))
y = eg.onehot(jpype.JArray(JInt)([0, 1, 2, 3]), 5)
opt = A.optim.SGD(net.param_map(), jpype.JArray(jpype.JObject)([jpype.JFloat(0.01)]))
ls = A.loss.softmax_crossEntropy(jpype.JArray(jpype.JObject)([]))
counts = []
for step in range(300):
    yh = net.forward(jpype.JArray(jpype.JClass("alpha.engine.Tensor"))([x]))[0]
    net.backward(jpype.JArray(jpype.JClass("alpha.engine.Tensor"))([ls.gradient(yh, y)]))
    opt.update().clear_grads()
    net.gc()
    del yh
    if step in (10, 299):
        jpype.JClass("java.lang.System").gc()
        Bridge.backend().flush()
        counts.append([len(registry), int(Bridge.backend().liveHandles())])
out["counts"] = counts
print("RESULT " + json.dumps(out))
'''


def test_jpype_in_process(classes):
    r = subprocess.run([sys.executable, "-c", CHECKS, classes], capture_output=True, text=True, timeout=300,
                       cwd=REPO, env=env())
    assert r.returncode == 0, r.stdout + r.stderr
    res = __import__("json").loads(re.search(r"^RESULT (.*)$", r.stdout, re.M).group(1))
    assert res["bridge"] == "jpype"
    assert res["put_zero_copy"] and res["get_zero_copy"]
    assert res["error"] and "jp.conv" in res["error"] and "ShapeError" in res["error"]
    (py10, java10), (py300, java300) = res["counts"]
    assert py300 <= py10 + 2 and java300 <= java10 + 2, res["counts"]


def test_cli_java_run(classes):
    """`alpha java run --cp <jars> <MainClass> [args]` runs Java in-process (JPype)."""
    r = subprocess.run([sys.executable, "-m", "alpha_py", "java", "run", "--cp", classes, "alpha.examples.Parity", "1"],
                       capture_output=True, text=True, timeout=120, cwd=REPO, env=env())
    assert r.returncode == 0, r.stdout + r.stderr
    assert "bridge jpype" in r.stdout and len(_losses(r.stdout)) == 1


@pytest.mark.slow
def test_dragon_alpha_resnet18_port_train_and_test(classes, tmp_path):
    """The CIFAR-10 ResNet18 train/test programs in Dragon-Alpha's style (java/examples/.../cifar10)
    run unchanged but for imports and engine setup: 1 training step, save, load, test."""
    data = tmp_path / "cifar"
    data.mkdir()
    _write_cifar10(data, per_file=8)
    props = [f"-Dalpha.cifar10={data}", f"-Dalpha.weights={tmp_path / 'r18.zip'}"]
    out = run_jpype(classes, *props, "alpha.examples.cifar10.resnet18.train", 1, 2, 1)
    assert re.search(r"^0: loss = [0-9.]+, lr = 0.001", out, re.M), out[-2000:]
    assert (tmp_path / "r18.zip").stat().st_size > 0
    out = run_jpype(classes, *props, "alpha.examples.cifar10.resnet18.test", 8)
    acc = float(re.search(r"^accuracy = (\S+)$", out, re.M).group(1))
    assert 0.0 <= acc <= 1.0
