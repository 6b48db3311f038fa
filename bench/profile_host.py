"""Host cost of an op-by-op training step: the README loop (forward, loss.gradient, backward, update().clear_grads(),
gc) on the Fashion-MNIST CNN of bench/step_graph.py, auto_graph off and the engine asynchronous, under cProfile.
Prints the host time per step, the number of primitive calls per step (calls into alpha_py/backend), host us per
primitive, and the functions with the largest own time per step.
Usage: python3 bench/profile_host.py [--engine cuda|cpu] [--batch 128] [--steps 30] [--top 30] [--net fashion]"""
import argparse
import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

from step_graph import alpha_net, batches  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="cuda")
    ap.add_argument("--net", default="fashion")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    from alpha_py import alpha
    eg = (alpha.engine.cuda_float32(0, alpha.engine.memp3(8 * alpha.MEM_1GB), auto_graph=False)
          if a.engine == "cuda" else alpha.engine.cpu_float32())
    eg.set_seed(0).sync(False)
    net = alpha_net(a.net).train().init(eg)
    opt, ls = alpha.optim.Adam(net.params(), 1e-3), alpha.loss.softmax_crossEntropy()
    xs, ys = batches(a.net, a.batch)
    data = [(eg.tensor(x), eg.tensor(np.eye(10, dtype=np.float32)[y])) for x, y in zip(xs, ys)]

    def step(i):
        x, y = data[i % len(data)]
        yh = net.forward(x)[0]
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()

    def wait():
        if a.engine == "cuda":
            eg.backend.synchronize()

    for i in range(5):
        step(i)
    wait()
    t0 = time.perf_counter()
    for i in range(a.steps):
        step(i)
    host = (time.perf_counter() - t0) / a.steps
    wait()
    wall = (time.perf_counter() - t0) / a.steps
    prof = cProfile.Profile()
    prof.enable()
    for i in range(a.steps):
        step(i)
    prof.disable()
    wait()
    st = pstats.Stats(prof)
    prim = sum(v[1] for k, v in st.stats.items()
               if os.sep + os.path.join("alpha_py", "backend") + os.sep in k[0] and not k[2].startswith("_"))
    per = prim / a.steps
    print(f"# {a.net} b{a.batch} {a.engine}: host {host * 1e3:.3f} ms/step, wall {wall * 1e3:.3f} ms/step, "
          f"{per:.0f} public backend calls/step -> {host * 1e6 / max(per, 1):.1f} us host per primitive")
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:a.top]
    print(f"{'own us/step':>11s} {'cum us/step':>11s} {'calls/step':>10s}  function")
    for (f, line, name), (cc, nc, tt, ct, _) in rows:
        where = f"{os.path.relpath(f) if f.startswith('/') else f}:{line}"
        print(f"{tt / a.steps * 1e6:11.1f} {ct / a.steps * 1e6:11.1f} {nc / a.steps:10.1f}  {name} ({where})")


if __name__ == "__main__":
    main()
