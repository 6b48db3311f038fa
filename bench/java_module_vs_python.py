"""Bench: a Java Module's training step against the same step written in Python, in one process — BridgeBench's
3-layer MLP Module (SmallLoop: batch 16, Adam) driven from Java over JPype, and SmallNet's loop in Python, both on one
engine kind (--engine cuda: each side's own cuda_float32(0) with auto_graph). Prints the best of 5 x --steps steps per
side (wall, not asserted) and, with --profile N, the N functions whose cProfile own time per step grows most from the
Python loop to the Java one (ncalls, own and cumulative us per step on each side; the profiler inflates them).
--classes: a compiled class path (alpha-java + examples + py4j jar, e.g. .javacls from bench/pack_javacls.sh) instead of
javac. Usage: python bench/java_module_vs_python.py [--engine cpu|cuda] [--steps 2000] [--classes CP] [--profile 60]"""
import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)


def python_loop(engine):
    from alpha_py import F, alpha, nn

    class SmallNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2, self.fc3 = nn.fullconnect(True, 32, 64), nn.fullconnect(True, 64, 64), \
                nn.fullconnect(True, 64, 10)

        def __forward__(self, X):
            return self.fc3.forward(F.relu(self.fc2.forward(F.relu(self.fc1.forward(X)))))

    eg = alpha.engine.cuda_float32(0) if engine == "cuda" else alpha.engine.cpu_float32()
    eg.set_seed(0)
    net = SmallNet().train().init(eg)
    opt, ls = alpha.optim.Adam(net.param_map(), 1e-3), alpha.loss.softmax_crossEntropy()
    x, y = eg.gaussian(0.0, 1.0, 16, 32), eg.onehot([i % 10 for i in range(16)], 10)

    def run(n):
        t0 = time.perf_counter()
        for _ in range(n):
            yh = net.forward(x)[0]
            net.backward(ls.gradient(yh, y))
            opt.update()
            opt.clear_grads()
            net.gc()
        eg.backend.synchronize()
        return (time.perf_counter() - t0) / n * 1e6
    return run


def java_loop(engine, classes):
    import jpype
    from alpha_py.java.launcher import default_jvm_options, start_jvm
    from bridge_overhead import compile_java
    cp = classes or compile_java(tempfile.mkdtemp(prefix="alpha-java-vs-python-"))
    start_jvm(cp.split(os.pathsep), list(default_jvm_options([])))
    engines = jpype.JClass("alpha.Alpha").alpha.engine
    eg = engines.cuda_float32(0, "fp32") if engine == "cuda" else engines.cpu_float32()
    loop = jpype.JClass("alpha.examples.BridgeBench$SmallLoop")(eg)
    return lambda n: float(loop.run(n))


def own_times(run, steps):
    """{function: (calls, own us, cumulative us) per step} of a cProfile of `steps` steps."""
    pr = cProfile.Profile()
    pr.enable()
    run(steps)
    pr.disable()
    return {f"{os.path.basename(f)}:{line}({name})": (nc / steps, tt / steps * 1e6, ct / steps * 1e6)
            for (f, line, name), (_, nc, tt, ct, _) in pstats.Stats(pr).stats.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--classes", default=None)
    ap.add_argument("--profile", type=int, default=0)
    a = ap.parse_args()
    py, jv = python_loop(a.engine), java_loop(a.engine, a.classes)
    py(300)
    for _ in range(20):                 # the JIT needs thousands of steps to reach its steady state
        jv(300)
    walls = [(py(a.steps), jv(a.steps)) for _ in range(5)]
    p, j = min(w[0] for w in walls), min(w[1] for w in walls)
    print(f"{a.engine}: Python step {p:.1f} us, Java Module step (JPype) {j:.1f} us, ratio {j / p:.2f}")
    if a.profile:
        P, J = own_times(py, a.steps), own_times(jv, a.steps)
        zero = (0.0, 0.0, 0.0)
        rows = sorted(((J.get(k, zero)[1] - P.get(k, zero)[1], k) for k in set(P) | set(J)), reverse=True)
        print(f"{'+own us':>8s}  function  python (calls, own, cum) | java (calls, own, cum)")
        for d, k in rows[:a.profile]:
            p3, j3 = P.get(k, zero), J.get(k, zero)
            print(f"{d:8.1f}  {k[:60]:60s} {p3[0]:5.1f} {p3[1]:6.1f} {p3[2]:7.1f} | "
                  f"{j3[0]:5.1f} {j3[1]:6.1f} {j3[2]:7.1f}")


if __name__ == "__main__":
    main()
