"""Bench: one process, JPype — a training step of MnistTrain.MnistNet written as a Java Module against the same
net written in Python (biased convolutions, BatchNorm, leakyRelu, max pooling, two linear layers; Adam), the two
timed in alternating rounds so both see the same machine state. Prints each round's ms per step and the ratios
(Java / Python; not asserted). --engine cuda: both on cuda_float32(0).
Usage: python bench/java_module_ab.py [--rounds 8] [--steps 40] [--batch 64] [--engine cpu|cuda] [--classes CP]"""
import argparse
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bridge_overhead import best_synced_ms, compile_java, python_mnist_net  # noqa: E402


def stepper(alpha_obj, eg, net, batch, labels):
    """The Dragon-Alpha loop's step on net (Java or Python objects alike) -> a zero-argument callable."""
    opt = alpha_obj.optim.Adam(net.param_map(), 1e-3)
    ls = alpha_obj.loss.softmax_crossEntropy()
    x, y = eg.uniform(-1.0, 1.0, batch, 28, 28, 1), eg.onehot(labels, 10)

    def step():
        yh = net.forward(x)[0]
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
    return step


def ms_per_step(step, probe, steps):
    """5 warm-up steps, then bridge_overhead.best_synced_ms: each timed batch ends with a read of `probe` (a
    parameter the update writes, so queued GPU work counts)."""
    for _ in range(5):
        step()
    probe.value()
    return best_synced_ms(step, steps, probe.value)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--engine", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--classes", help="class path of compiled alpha-java + examples + py4j jar (default: javac)")
    a = ap.parse_args()
    import jpype
    from alpha_py import F, alpha, nn
    from alpha_py.java.launcher import default_jvm_options, start_jvm

    cp = a.classes or compile_java(tempfile.mkdtemp(prefix="alpha-module-ab-"))
    start_jvm(cp.split(os.pathsep), default_jvm_options([]))
    jalpha = jpype.JClass("alpha.Alpha").alpha
    jeg = jalpha.engine.cuda_float32(0, "fp32") if a.engine == "cuda" else jalpha.engine.cpu_float32()
    jeg.set_seed(0)
    jnet = jpype.JClass("alpha.examples.MnistTrain$MnistNet")().train().init(jeg)
    jstep = stepper(jalpha, jeg, jnet, a.batch, jpype.JArray(jpype.JInt)([i % 10 for i in range(a.batch)]))
    eg = alpha.engine.cuda_float32(0) if a.engine == "cuda" else alpha.engine.cpu_float32()
    eg.set_seed(0)
    net = python_mnist_net(nn, F).train().init(eg)
    pstep = stepper(alpha, eg, net, a.batch, [i % 10 for i in range(a.batch)])
    jprobe, pprobe = jnet.param_map().values().iterator().next(), next(iter(net.param_map().values()))
    ratios = []
    for r in range(a.rounds):                # alternating which side goes first
        if r % 2 == 0:
            p, j = ms_per_step(pstep, pprobe, a.steps), ms_per_step(jstep, jprobe, a.steps)
        else:
            j, p = ms_per_step(jstep, jprobe, a.steps), ms_per_step(pstep, pprobe, a.steps)
        ratios.append(j / p)
        print(f"round {r + 1}: Python {p:.3f} ms, Java Module {j:.3f} ms, Java / Python {j / p:.3f}", flush=True)
    ratios.sort()
    print(f"MnistNet b{a.batch} ({a.engine} engine), Java Module / Python over JPype: median "
          f"{ratios[len(ratios) // 2]:.3f}x, range {ratios[0]:.3f}-{ratios[-1]:.3f}x ({a.rounds} rounds)")


if __name__ == "__main__":
    main()
