"""Bench: the Java bridges' costs — per-call overhead of a unit forward (µs), bulk transfer of a
64 MB tensor each way (MB/s) and one MnistCNN training step (batch 64, Adam) from Java through JPype
and Py4J vs native Python. Compiles alpha-java + examples with javac, runs
java/examples/alpha/examples/BridgeBench.java under each bridge, prints a table (not asserted).
Usage: python bench/bridge_overhead.py [--reps 3000] [--steps 10]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def best_us(fn, reps):
    """Lowest mean over 5 batches of reps/5 calls (µs), as BridgeBench.time does in Java."""
    per, best = max(1, reps // 5), float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(per):
            fn()
        best = min(best, (time.perf_counter() - t0) / per * 1e6)
    return best


def native(reps, steps):
    """The same operations in Python, no bridge (step() closes over net/opt, rebound below)."""
    sys.path.insert(0, REPO)
    from alpha_py import alpha, nn

    eg = alpha.engine.cpu_float32()
    eg.set_seed(0)
    relu = nn.relu().init(eg)
    small = eg.ones(1, 4)
    fwd = best_us(lambda: relu.forward(small), reps)
    relu.gc()
    net = nn.MnistCNN().train().init(eg)
    opt = alpha.optim.Adam(net.param_map(), 1e-3)
    ls = alpha.loss.softmax_crossEntropy()
    it = alpha.data.mnist_5k(True).batch_iter(eg, 64).seed(0)
    pair = it.next()

    def step():
        yh = net.forward(pair.input)[0]
        net.backward(ls.gradient(yh, pair.label))
        opt.update().clear_grads()
        net.gc()

    step()
    print(f"bridge python\nforward_us {fwd:.2f}\nstep_ms {best_us(step, 5 * steps) / 1e3:.2f}")

    from alpha_py import F

    class MnistNet(nn.Module):
        """MnistTrain.MnistNet (java/examples) written in Python."""

        def __init__(self):
            super().__init__()
            self.conv1, self.bn1, self.pool1 = nn.conv3D(True, 1, 32, 3, 1, 1), nn.batchNorm(32), nn.maxPool2D(2, 2, 0)
            self.conv2, self.bn2, self.pool2 = nn.conv3D(True, 32, 64, 3, 1, 1), nn.batchNorm(64), nn.maxPool2D(2, 2, 0)
            self.fc1, self.fc2 = nn.fullconnect(True, 7 * 7 * 64, 128), nn.fullconnect(True, 128, 10)

        def __forward__(self, X):
            X = self.pool1.forward(F.leakyRelu(self.bn1.forward(self.conv1.forward(X))))
            X = self.pool2.forward(F.leakyRelu(self.bn2.forward(self.conv2.forward(X))))
            return self.fc2.forward(F.leakyRelu(self.fc1.forward(F.flatten(X))))

    eg.set_seed(0)
    net = MnistNet().train().init(eg)
    opt = alpha.optim.Adam(net.param_map(), 1e-3)
    step()
    print(f"module_step_ms {best_us(step, 5 * steps) / 1e3:.2f}")


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
    ap.add_argument("--native", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.native:
        return native(a.reps, a.steps)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    args = [str(a.reps), str(a.steps)]
    with tempfile.TemporaryDirectory() as tmp:
        cp = compile_java(tmp)
        runs = {
            "python": [sys.executable, __file__, "--native", "--reps", args[0], "--steps", args[1]],
            "jpype": [sys.executable, "-m", "alpha_py.java", "--cp", cp, "alpha.examples.BridgeBench"] + args,
            "py4j": ["java", f"-Dalpha.python={sys.executable}", f"-Dalpha.pythonpath={REPO}", "-cp", cp,
                     "alpha.examples.BridgeBench"] + args,
        }
        res = {k: parse(subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=REPO, env=env).stdout)
               for k, cmd in runs.items()}
    py = res["python"]
    print(f"{'metric':34s} {'python':>10s} {'jpype':>10s} {'py4j':>10s}")
    print(f"{'relu.forward([1,4]) per call (us)':34s} {float(py['forward_us']):10.1f} "
          f"{float(res['jpype']['forward_us']):10.1f} {float(res['py4j']['forward_us']):10.1f}")
    for k in ("jpype", "py4j"):
        res[k]["overhead"] = float(res[k]["forward_us"]) - float(py["forward_us"])
    print(f"{'  bridge overhead per call (us)':34s} {'-':>10s} {res['jpype']['overhead']:10.1f} "
          f"{res['py4j']['overhead']:10.1f}")
    print(f"{'64 MB tensor Java->Python (MB/s)':34s} {'-':>10s} {res['jpype']['put_MBps']:>10s} {res['py4j']['put_MBps']:>10s}")
    print(f"{'64 MB tensor Python->Java (MB/s)':34s} {'-':>10s} {res['jpype']['get_MBps']:>10s} {res['py4j']['get_MBps']:>10s}")
    print(f"{'MnistCNN train step, batch 64 (ms)':34s} {float(py['step_ms']):10.2f} "
          f"{float(res['jpype']['step_ms']):10.2f} {float(res['py4j']['step_ms']):10.2f}")
    for k in ("jpype", "py4j"):
        calls = int(res[k]["calls_per_step"])
        share = calls * res[k]["overhead"] / 1e3 / float(py["step_ms"]) * 100
        print(f"  {k}: step / python step = {float(res[k]['step_ms']) / float(py['step_ms']):.3f} (wall clock); "
              f"{calls} bridge calls x {res[k]['overhead']:.0f} us = {share:.2f}% of the Python step")

    print(f"{'same CNN as a Module, step (ms)':34s} {float(py['module_step_ms']):10.2f} "
          f"{float(res['jpype']['module_step_ms']):10.2f} {float(res['py4j']['module_step_ms']):10.2f}")
    for k in ("jpype", "py4j"):
        calls = int(res[k]["module_calls_per_step"])
        share = calls * res[k]["overhead"] / 1e3 / float(py["module_step_ms"]) * 100
        print(f"  {k} Module: step / python step = {float(res[k]['module_step_ms']) / float(py['module_step_ms']):.3f}"
              f" (wall clock); {calls} bridge calls x {res[k]['overhead']:.0f} us = {share:.2f}% of the Python step")


if __name__ == "__main__":
    main()
