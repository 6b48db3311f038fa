"""Bench: the Java bridges' costs — per-call overhead of a trivial call and of a unit forward (µs),
bulk transfer of a 64 MB tensor each way (MB/s) and one MnistCNN training step (batch 64, Adam) from
Java through JPype and Py4J vs native Python: op by op (zoo net, Java Module) and through
alpha.train_step (one bridge call per step). Compiles alpha-java + examples with javac, runs
java/examples/alpha/examples/BridgeBench.java under each bridge, prints a table (not asserted). Each step row
is timed after 2 s of warm-up steps, in batches that end with a parameter read, so queued GPU work counts.
Usage: python bench/bridge_overhead.py [--reps 3000] [--steps 10] [--big 512] [--engine cuda] [--jvm-opt OPT]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
from alpha_py.java.launcher import default_jvm_options  # noqa: E402


def best_us(fn, reps):
    """Lowest mean over 5 batches of reps/5 calls (µs), as BridgeBench.time does in Java."""
    per, best = max(1, reps // 5), float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(per):
            fn()
        best = min(best, (time.perf_counter() - t0) / per * 1e6)
    return best


def warm(step, seconds=2.0):
    """Run step until `seconds` have passed (at least twice), as BridgeBench.warm does before a CNN row."""
    end, n = time.perf_counter() + seconds, 0
    while n < 2 or time.perf_counter() < end:
        step()
        n += 1


def best_synced_ms(step, n, wait):
    """Lowest mean ms per step over 5 batches of n steps, each batch ending with wait() (queued GPU work counts)."""
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        wait()
        best = min(best, (time.perf_counter() - t0) / n * 1e3)
    return best


def first(net):
    """The net's first parameter: reading its value waits for the queued steps."""
    return next(iter(net.param_map().values()))


def make_engine(kind):
    from alpha_py import alpha
    if kind == "cuda":
        return alpha.engine.cuda_float32(0, alpha.engine.memp1(alpha.MEM_1GB * 4), alpha.MEM_1MB * 256)
    return alpha.engine.cpu_float32()


def python_mnist_net(nn, F):
    """MnistTrain.MnistNet (java/examples) written in Python, a new instance."""
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
    return MnistNet()


def native(reps, steps, kind, big=512):
    """The same operations in Python, no bridge (step() closes over net/opt, rebound below)."""
    sys.path.insert(0, REPO)
    from alpha_py import alpha, nn

    eg = make_engine(kind)
    eg.set_seed(0)
    relu = nn.relu().init(eg)
    small = eg.ones(1, 4)
    trivial = best_us(small.ndim, reps)
    fwd = best_us(lambda: relu.forward(small), reps)
    relu.gc()
    ceg = alpha.engine.cpu_float32()               # the same call on a CPU engine (BridgeBench's cpu_forward_us)
    crelu, csmall = nn.relu().init(ceg), ceg.ones(1, 4)
    best_us(lambda: crelu.forward(csmall), reps)
    print(f"cpu_forward_us {best_us(lambda: crelu.forward(csmall), reps):.2f}")
    crelu.gc()
    net = nn.MnistCNN().train().init(eg)
    opt = alpha.optim.Adam(net.param_map(), 1e-3)
    ls = alpha.loss.softmax_crossEntropy()
    x, y = eg.uniform(-1.0, 1.0, 64, 28, 28, 1), eg.onehot([i % 10 for i in range(64)], 10)

    def step():
        yh = net.forward(x)[0]
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()

    warm(step)
    print(f"bridge python\ntrivial_us {trivial:.2f}\nforward_us {fwd:.2f}")
    print(f"step_ms {best_synced_ms(step, 5 * steps, first(net).value):.3f}")

    from alpha_py import F

    eg.set_seed(0)
    net = python_mnist_net(nn, F).train().init(eg)
    opt = alpha.optim.Adam(net.param_map(), 1e-3)
    warm(step)
    print(f"module_step_ms {best_synced_ms(step, 5 * steps, first(net).value):.3f}")

    class SmallNet(nn.Module):
        """BridgeBench.SmallNet written in Python."""

        def __init__(self):
            super().__init__()
            self.fc1, self.fc2, self.fc3 = nn.fullconnect(True, 32, 64), nn.fullconnect(True, 64, 64), \
                nn.fullconnect(True, 64, 10)

        def __forward__(self, X):
            return self.fc3.forward(F.relu(self.fc2.forward(F.relu(self.fc1.forward(X)))))

    eg.set_seed(0)                                     # MnistNet at a GPU-bound batch, each timed batch synced
    net = python_mnist_net(nn, F).train().init(eg)
    opt = alpha.optim.Adam(net.param_map(), 1e-3)
    x, y = eg.uniform(-1.0, 1.0, big, 28, 28, 1), eg.onehot([i % 10 for i in range(big)], 10)
    for _ in range(20):
        step()
    print(f"big_module_step_ms {best_synced_ms(step, 5 * steps, first(net).value):.3f}")

    eg.set_seed(0)
    net = SmallNet().train().init(eg)
    opt = alpha.optim.Adam(net.param_map(), 1e-3)
    x, y = eg.gaussian(0.0, 1.0, 16, 32), eg.onehot([i % 10 for i in range(16)], 10)
    step()
    best_us(step, reps // 4)
    print(f"small_module_step_ms {best_synced_ms(step, max(1, reps // 10), first(net).value):.4f}")
    x, y = eg.uniform(-1.0, 1.0, 64, 28, 28, 1), eg.onehot([i % 10 for i in range(64)], 10)

    eg.set_seed(0)                                     # the zoo CNN through alpha.train_step
    tnet = nn.MnistCNN().train().init(eg)
    ts = alpha.train_step(tnet, ls, alpha.optim.Adam(tnet.param_map(), 1e-3))
    ts(x, y).get()
    ts(x, y).get()
    last = [None]

    def tstep():
        last[0] = ts(x, y)
    print(f"trainstep_ms {best_synced_ms(tstep, steps, lambda: last[0].get()):.2f}")


def compile_java(out):
    from py4j.java_gateway import find_jar_path
    srcs = [os.path.join(d, f) for root in ("java/src/main/java", "java/examples")
            for d, _, fs in os.walk(os.path.join(REPO, root)) for f in fs if f.endswith(".java")]
    subprocess.run(["javac", "-nowarn", "-d", out, "-cp", find_jar_path()] + srcs, check=True)
    return out + os.pathsep + find_jar_path()


def parse(text):
    return dict(re.findall(r"^(\w+) (\S+)$", text, re.M))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3000)
    ap.add_argument("--steps", type=int, default=2, help="training steps per batch (5 batches)")
    ap.add_argument("--engine", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--java", default="java", help="the java launcher (e.g. a jlink'ed runtime)")
    ap.add_argument("--classes", default=None, help="use these compiled classes (os.pathsep list) instead of javac")
    ap.add_argument("--no-jpype", dest="jpype", action="store_false", help="skip JPype (no jpype1 installed)")
    ap.add_argument("--no-batch", dest="batch", action="store_false",
                    help="Java Modules call their units one by one (-Dalpha.bridge.batch=false)")
    ap.add_argument("--no-lazy", dest="lazy", action="store_false",
                    help="a Java Module forward's batch is sent when it returns (-Dalpha.bridge.lazy=false)")
    ap.add_argument("--jvm-opt", dest="jvm_opts", action="append", default=[],
                    help="a JVM option for both bridges' JVMs (repeatable); JPype's JVM otherwise gets the launcher's "
                         "defaults (alpha_py/java/launcher.py default_jvm_options), Py4J's the same ones here")
    ap.add_argument("--big", type=int, default=512, help="batch of the GPU-bound Java Module CNN row (default 512)")
    ap.add_argument("--native", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.native:
        return native(a.reps, a.steps, a.engine, a.big)
    pypath = REPO + os.pathsep + os.environ.get("PYTHONPATH", "")
    env = dict(os.environ, PYTHONPATH=pypath)
    args = [str(a.reps), str(a.steps), str(a.big)]
    with tempfile.TemporaryDirectory() as tmp:
        cp = a.classes or compile_java(tmp)
        runs = {
            "python": [sys.executable, __file__, "--native", "--reps", args[0], "--steps", args[1],
                       "--engine", a.engine, "--big", args[2]],
            "jpype": [sys.executable, "-m", "alpha_py.java", "--cp", cp, f"-Dalpha.engine={a.engine}",
                      *[f"--jvm-opt={o}" for o in a.jvm_opts],
                      f"-Dalpha.bridge.batch={str(a.batch).lower()}", f"-Dalpha.bridge.lazy={str(a.lazy).lower()}",
                      "alpha.examples.BridgeBench"] + args,
            "py4j": [a.java, *a.jvm_opts, *default_jvm_options(a.jvm_opts),
                     f"-Dalpha.python={sys.executable}", f"-Dalpha.pythonpath={pypath}",
                     f"-Dalpha.engine={a.engine}", f"-Dalpha.bridge.batch={str(a.batch).lower()}",
                     f"-Dalpha.bridge.lazy={str(a.lazy).lower()}", "-cp", cp, "alpha.examples.BridgeBench"] + args,
        }
        if not a.jpype:
            del runs["jpype"]
        res = {k: parse(subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=REPO, env=env).stdout)
               for k, cmd in runs.items()}
    py, bridges = res["python"], [k for k in ("jpype", "py4j") if k in res]
    for k in bridges:
        res[k]["overhead"] = float(res[k]["forward_us"]) - float(py["forward_us"])
        res[k]["trivial_overhead"] = float(res[k]["trivial_us"]) - float(py["trivial_us"])
        res[k]["cpu_overhead"] = float(res[k]["cpu_forward_us"]) - float(py["cpu_forward_us"])

    def row(name, key, fmt="10.1f", base=True):
        cells = [format(float(py[key]), fmt) if base else format("-", ">10s")]
        cells += [format(float(res[k][key]), fmt) for k in bridges]
        print(f"{name:34s} " + " ".join(cells))

    print(f"{'metric (' + a.engine + ' engine)':34s} {'python':>10s} " + " ".join(f"{k:>10s}" for k in bridges))
    row("x.ndim() per call (us)", "trivial_us")
    row("  bridge overhead per call (us)", "trivial_overhead", base=False)
    row("relu.forward([1,4]) per call (us)", "forward_us")
    row("  bridge overhead per call (us)", "overhead", base=False)
    row("relu.forward on a CPU engine (us)", "cpu_forward_us")
    row("  bridge overhead per call (us)", "cpu_overhead", base=False)
    row("64 MB tensor Java->Python (MB/s)", "put_MBps", "10.0f", base=False)
    row("64 MB tensor Python->Java (MB/s)", "get_MBps", "10.0f", base=False)
    for name, key, calls in (("MnistCNN train step, batch 64 (ms)", "step_ms", "calls_per_step"),
                             ("same CNN as a Java Module (ms)", "module_step_ms", "module_calls_per_step"),
                             ("3-layer MLP Module, batch 16 (ms)", "small_module_step_ms",
                              "small_module_calls_per_step"),
                             (f"same CNN as a Java Module, b{a.big} (ms)", "big_module_step_ms",
                              "module_calls_per_step"),
                             ("MnistCNN via alpha.train_step (ms)", "trainstep_ms", "trainstep_calls_per_step")):
        row(name, key, "10.3f")
        for k in bridges:
            n = int(res[k][calls])
            share = n * res[k]["overhead"] / 1e3 / float(py[key]) * 100
            print(f"  {k}: step / python step = {float(res[k][key]) / float(py[key]):.3f} (wall clock); "
                  f"{n} bridge calls x {res[k]['overhead']:.0f} us = {share:.2f}% of the Python step")

if __name__ == "__main__":
    main()
