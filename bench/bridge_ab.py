"""Bench: a Java Module's training step (BridgeBench.SmallLoop: the 3-layer MLP, batch 16, Adam) under JPype
and Py4J against the same step in Python, for one or more source trees (e.g. this one and a `git archive` of
an older commit), in short alternating processes: on a shared, noisy machine the cells of one round run
seconds apart, so their ratio is fairer than that of a long run's. One BLAS and one Numba thread per process
(with two on two shared cores the small kernels wait on each other). Prints each run and, per tree, the best
step (µs) of each side and the median of the per-round ratios. Not asserted.
Usage: python bench/bridge_ab.py [--rounds 5] [--steps 400] TREE [TREE...]"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

NATIVE = r'''
import sys, time
from alpha_py import F, alpha, nn
class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.fullconnect(True, 32, 64), nn.fullconnect(True, 64, 64), nn.fullconnect(True, 64, 10)
    def __forward__(self, X):
        return self.fc3.forward(F.relu(self.fc2.forward(F.relu(self.fc1.forward(X)))))
eg = alpha.engine.cpu_float32(); eg.set_seed(0)
net = SmallNet().train().init(eg)
opt, ls = alpha.optim.Adam(net.param_map(), 1e-3), alpha.loss.softmax_crossEntropy()
x, y = eg.gaussian(0.0, 1.0, 16, 32), eg.onehot([i % 10 for i in range(16)], 10)
def run(n):
    t0 = time.perf_counter()
    for _ in range(n):
        yh = net.forward(x)[0]; net.backward(ls.gradient(yh, y)); opt.update().clear_grads(); net.gc()
    return (time.perf_counter() - t0) / n * 1e6
n = int(sys.argv[1]); run(2000)
print("us", min(run(n) for _ in range(5)))
'''

JAVA = r'''
public class AbMain {
    public static void main(String[] a) {
        int n = Integer.parseInt(a[0]);
        alpha.examples.BridgeBench.SmallLoop loop =
            new alpha.examples.BridgeBench.SmallLoop(alpha.Alpha.alpha.engine.cpu_float32());
        for (int i = 0; i < 6000; i += n) loop.run(n);      // the JIT needs seconds to reach the steady state
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 5; i++) best = Math.min(best, loop.run(n));
        System.out.println("us " + best);
    }
}
'''


def build(tree, out):
    from py4j.java_gateway import find_jar_path
    srcs = [os.path.join(d, f) for root in ("java/src/main/java", "java/examples")
            for d, _, fs in os.walk(os.path.join(tree, root)) for f in fs if f.endswith(".java")]
    with open(os.path.join(out, "AbMain.java"), "w") as f:
        f.write(JAVA)
    subprocess.run(["javac", "-nowarn", "-d", out, "-cp", find_jar_path()] + srcs + [os.path.join(out, "AbMain.java")],
                   check=True)
    return out + os.pathsep + find_jar_path()


def run(cmd, tree):
    env = dict(os.environ, PYTHONPATH=tree, OPENBLAS_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=tree, env=env, timeout=600)
    m = re.search(r"^us (\S+)$", out.stdout, re.M)
    if not m:
        raise RuntimeError(f"{cmd}: {out.stdout[-2000:]} {out.stderr[-2000:]}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("trees", nargs="+")
    a = ap.parse_args()
    trees = [os.path.abspath(t) for t in a.trees]
    with tempfile.TemporaryDirectory() as tmp:
        cps = {}
        for i, t in enumerate(trees):
            os.makedirs(os.path.join(tmp, str(i)))
            cps[t] = build(t, os.path.join(tmp, str(i)))
        res = {t: {"python": [], "jpype": [], "py4j": []} for t in trees}
        for r in range(a.rounds):
            for t in trees:
                cp, n = cps[t], str(a.steps)
                cells = {"python": [sys.executable, "-c", NATIVE, n],
                         "jpype": [sys.executable, "-m", "alpha_py.java", "--cp", cp, "AbMain", n],
                         "py4j": ["java", f"-Dalpha.python={sys.executable}", f"-Dalpha.pythonpath={t}", "-cp", cp,
                                  "AbMain", n]}
                got = {k: run(cmd, t) for k, cmd in cells.items()}
                for k, v in got.items():
                    res[t][k].append(v)
                with open("/proc/loadavg") as f:
                    load = f.read().split()[0]
                print(f"round {r} {t}: python {got['python']:.1f} us, jpype {got['jpype']:.1f} us "
                      f"({got['jpype'] / got['python']:.2f}x), py4j {got['py4j']:.1f} us "
                      f"({got['py4j'] / got['python']:.2f}x), load {load}", flush=True)
    for t in trees:
        c = res[t]
        rj = statistics.median(j / p for j, p in zip(c["jpype"], c["python"]))
        r4 = statistics.median(j / p for j, p in zip(c["py4j"], c["python"]))
        print(f"{t}: best python {min(c['python']):.1f} us, jpype {min(c['jpype']):.1f} us, py4j "
              f"{min(c['py4j']):.1f} us; median ratio jpype {rj:.2f}x, py4j {r4:.2f}x; ratio of bests jpype "
              f"{min(c['jpype']) / min(c['python']):.2f}x, py4j {min(c['py4j']) / min(c['python']):.2f}x")


if __name__ == "__main__":
    main()
