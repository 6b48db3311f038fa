"""Bench: where the time of a Java Module's training step goes under JPype — the 3-layer MLP of
BridgeBench (ModuleLoop, batch 16, Adam; --net cnn: MnistTrain.MnistNet, batch 64) driven from Java,
each bridge request timed on the Python side (per request kind), against the same step in Python timed
per phase — and the parts of one relu.forward call: a bare JPype proxy round trip (long[] in, long[]
out) and the Python dispatcher's share. Prints µs
(best of 5 runs; not asserted). --engine cuda: both sides on cuda_float32(0) (auto_graph on); --classes: a compiled
class path (alpha-java + examples + py4j jar) instead of javac (the device machine has no JDK).
Also the Java step with request templates off and on (Bridge.templates, alternating) and, --cprofile N, the N
costliest functions of a cProfile of the Java steps; --diff N, the N functions whose profiled own time per step
grows most from the Python loop to the Java one; --spy times chosen methods per step on both sides.
Usage: python bench/bridge_profile.py [--steps 1000] [--net mlp|cnn] [--no-batch] [--no-lazy] [--engine cpu|cuda]
       [--classes CP] [--cprofile N] [--diff N] [--spy module:Class.method,...]"""
import argparse
import collections
import os
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bridge_overhead import compile_java, python_mnist_net  # noqa: E402


SPIED = {}                # "Class.method" -> [seconds, calls] while --spy is on


def spy(names):
    """Wrap each dotted `module:Class.method` so its calls are timed into SPIED (host time, returns as is)."""
    import importlib
    for full in names:
        mod, _, attr = full.partition(":")
        cls_name, meth = attr.split(".")
        cls = getattr(importlib.import_module(mod), cls_name)
        fn, acc = getattr(cls, meth), SPIED.setdefault(attr, [0.0, 0])

        def timed(*a, _fn=fn, _acc=acc, **k):
            t0 = time.perf_counter()
            try:
                return _fn(*a, **k)
            finally:
                _acc[0] += time.perf_counter() - t0
                _acc[1] += 1
        setattr(cls, meth, timed)


def spy_reset():
    for acc in SPIED.values():
        acc[:] = [0.0, 0]


def spied(steps, label):
    """Print the per-step times of the spied methods since spy_reset(), and reset them."""
    for k, (sec, n) in SPIED.items():
        print(f"  spy {label:6s} {k:40s} {sec / steps * 1e6:8.1f} us/step  ({n / steps:.1f} calls/step)")
    spy_reset()


def own_times(run, steps):
    """{function: (calls, own us, cumulative us) per step} of a cProfile of run() (`steps` steps)."""
    import cProfile
    import pstats
    pr = cProfile.Profile()
    pr.enable()
    run()
    pr.disable()
    return {f"{os.path.basename(f)}:{line}({name})": (nc / steps, tt / steps * 1e6, ct / steps * 1e6)
            for (f, line, name), (_, nc, tt, ct, _) in pstats.Stats(pr).stats.items()}


def print_diff(py_own, java_own, top):
    """The `top` functions whose own time per step grows most from the Python loop to the Java one."""
    zero = (0.0, 0.0, 0.0)
    rows = sorted(((java_own.get(k, zero)[1] - py_own.get(k, zero)[1], k) for k in set(py_own) | set(java_own)),
                  reverse=True)
    print(f"{'+own us':>8s}  function (profiled; per step)  python: calls, own, cum | java: calls, own, cum")
    for d, k in rows[:top]:
        p, j = py_own.get(k, zero), java_own.get(k, zero)
        print(f"{d:8.1f}  {k[:60]:60s} {p[0]:5.1f} {p[1]:6.1f} {p[2]:7.1f} | {j[0]:5.1f} {j[1]:6.1f} {j[2]:7.1f}")


def java_side(steps, batch, lazy=True, engine="cpu", classes=None, profile=0, jvm_opts=(), diff=False, net="mlp"):
    import jpype
    from alpha_py.java.launcher import start_jvm

    cp = classes or compile_java(tempfile.mkdtemp(prefix="alpha-bridge-profile-"))
    endpoint = start_jvm(cp.split(os.pathsep), [f"-Dalpha.bridge.batch={str(batch).lower()}",
                                                f"-Dalpha.bridge.lazy={str(lazy).lower()}", *jvm_opts])
    engines = jpype.JClass("alpha.Alpha").alpha.engine
    eg = engines.cuda_float32(0, "fp32") if engine == "cuda" else engines.cpu_float32()   # as Python's cuda_float32(0)
    loop = jpype.JClass("alpha.examples.BridgeBench$ModuleLoop")(eg, net)
    end, n = time.perf_counter() + 4.0, 0
    while n < 20 and (n < 2 or time.perf_counter() < end):   # up to 6000 steps: the JIT needs seconds to settle
        loop.run(300 if net == "mlp" else 100)
        n += 1
    d, handle, clock = endpoint.dispatcher, endpoint.dispatcher.handle, time.perf_counter
    spent, count = collections.defaultdict(float), collections.Counter()

    def timed(name, ints, objs):
        t0 = clock()
        r = handle(name, ints, objs)
        key = (f"{'batch' if ints[0] & 15 == 4 else name}{' +late calls' if ints[0] & 16 else ''}"
               f"{' +forward batch' if ints[0] & 32 else ''}")
        spent[key] += clock() - t0
        count[key] += 1
        return r

    parts = call_parts(endpoint)
    bridge = jpype.JClass("alpha.bridge.Bridge")
    by_templates = {True: [], False: []}
    for _ in range(7):                  # templates off and on, alternating (Bridge.templates switches at run time)
        for on in (False, True):
            bridge.templates(on)
            by_templates[on].append(loop.run(steps))
    bridge.templates(True)
    plain = min(by_templates[True])
    print("Java Module step, request templates off / on (min, median of 7): "
          f"{min(by_templates[False]):.1f} / {plain:.1f} us, "
          f"{sorted(by_templates[False])[3]:.1f} / {sorted(by_templates[True])[3]:.1f} us")
    if SPIED:
        spy_reset()
        loop.run(steps)
        spied(steps, "java")
    if profile:
        import cProfile
        import pstats
        pr = cProfile.Profile()
        pr.enable()
        loop.run(steps)
        pr.disable()
        pstats.Stats(pr, stream=sys.stdout).sort_stats("tottime").print_stats(profile)
    d.handle = timed
    best = None
    for _ in range(5):
        spent.clear()
        count.clear()
        us = loop.run(steps)
        if best is None or us < best[0]:
            best = (us, {k: (spent[k] / steps * 1e6, count[k] / steps) for k in spent})
    d.handle = handle
    own = own_times(lambda: loop.run(steps), steps) if diff else None
    return plain, best, parts, own


def call_parts(endpoint):
    """µs of: a JPype proxy call answering a long[5] (no dispatch), and relu.forward through the Python
    dispatcher alone vs. called directly (the dispatcher's share of one unit.forward request)."""
    import timeit

    import jpype
    from alpha_py import alpha, nn
    from alpha_py.bridge import codec
    from alpha_py.bridge.dispatch import Dispatcher

    reply = jpype.JArray(jpype.JLong)

    @jpype.JImplements("alpha.bridge.PyEndpoint")
    class Bare:
        @jpype.JOverride
        def call(self, name, ints, objs):
            endpoint.read_ints(ints)
            return reply([codec.LIST, 1, codec.HANDLE, 5, 1])

        @jpype.JOverride
        def invoke(self, request):
            return None

        @jpype.JOverride
        def staged(self):
            return None

    bench = jpype.JClass("alpha.examples.BridgeBench")
    bare = Bare()
    bench.endpointCalls(bare, 20000)
    proxy = min(bench.endpointCalls(bare, 20000) for _ in range(5))
    d, eg = Dispatcher(), alpha.engine.cpu_float32()
    x, relu = eg.ones(1, 4), nn.relu().init(eg)
    hx, hr = d.registry.put(x), d.registry.put(relu)
    req = (codec.OP_CALL, hr, 0, 1, codec.HANDLE, hx)

    def via_dispatcher():
        ok, (ints, _) = d.handle("forward", req, None)
        d.registry.free(ints[-2])

    via_dispatcher()
    disp = min(timeit.repeat(via_dispatcher, number=20000, repeat=5)) / 20000 * 1e6
    direct = min(timeit.repeat(lambda: relu.forward(x), number=20000, repeat=5)) / 20000 * 1e6
    return proxy, disp, direct


def python_side(steps, engine="cpu", diff=False, which="mlp"):
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
    net = (python_mnist_net(nn, F) if which == "cnn" else SmallNet()).train().init(eg)
    opt, ls = alpha.optim.Adam(net.param_map(), 1e-3), alpha.loss.softmax_crossEntropy()
    batch = 64 if which == "cnn" else 16
    x = eg.uniform(-1.0, 1.0, batch, 28, 28, 1) if which == "cnn" else eg.gaussian(0.0, 1.0, batch, 32)
    y = eg.onehot([i % 10 for i in range(batch)], 10)
    clock, parts = time.perf_counter, collections.defaultdict(float)

    def step():
        t0 = clock()
        yh = net.forward(x)[0]
        t1 = clock()
        g = ls.gradient(yh, y)
        t2 = clock()
        net.backward(g)
        t3 = clock()
        opt.update()
        t4 = clock()
        opt.clear_grads()
        net.gc()
        t5 = clock()
        for k, a, b in (("forward", t0, t1), ("gradient", t1, t2), ("backward", t2, t3), ("update", t3, t4),
                        ("clear_grads + gc", t4, t5)):
            parts[k] += b - a

    for _ in range(300):
        step()
    if SPIED:
        spy_reset()
        for _ in range(steps):
            step()
        spied(steps, "python")
    best = None
    for _ in range(5):
        parts.clear()
        t0 = clock()
        for _ in range(steps):
            step()
        us = (clock() - t0) / steps * 1e6
        if best is None or us < best[0]:
            best = (us, {k: v / steps * 1e6 for k, v in parts.items()})
    own = own_times(lambda: [step() for _ in range(steps)], steps) if diff else None
    return best, own


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--net", choices=("mlp", "cnn"), default="mlp",
                    help="the Module: BridgeBench.SmallNet at batch 16, or MnistTrain.MnistNet at batch 64")
    ap.add_argument("--no-batch", dest="batch", action="store_false")
    ap.add_argument("--no-lazy", dest="lazy", action="store_false")
    ap.add_argument("--engine", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--classes", help="class path of compiled alpha-java + examples + py4j jar (default: javac)")
    ap.add_argument("--cprofile", type=int, default=0, metavar="N",
                    help="also print the N costliest functions (own time) of a cProfile of the Java steps")
    ap.add_argument("--jvm-opt", dest="jvm_opts", action="append", default=[],
                    help="an extra JVM option (repeatable), as bench/bridge_overhead.py and python -m alpha_py.java")
    ap.add_argument("--diff", type=int, default=0, metavar="N",
                    help="also print the N functions whose profiled own time per step grows most from the Python "
                         "loop to the Java one")
    ap.add_argument("--python-side", action=argparse.BooleanOptionalAction, default=True,
                    help="also time the same step written in Python (default on)")
    ap.add_argument("--spy", default="", help="comma-separated module:Class.method to time per step on both sides "
                    "(e.g. alpha_py.backend.cuda:CudaBackend.optim_write_scalars)")
    a = ap.parse_args()
    if a.spy:
        spy(a.spy.split(","))
    plain, (timed_us, reqs), (proxy, disp, direct), java_own = java_side(
        a.steps, a.batch, a.lazy, a.engine, a.classes, a.cprofile, a.jvm_opts, diff=a.diff > 0, net=a.net)
    print(f"one relu.forward: JPype proxy round trip (long[] in and out, no dispatch) {proxy:.2f} us; "
          f"through the Python dispatcher {disp:.2f} us vs called directly {direct:.2f} us "
          f"(dispatcher share {disp - direct:.2f} us)")
    (py_us, parts), py_own = (python_side(a.steps, a.engine, a.diff > 0, a.net) if a.python_side
                              else ((float("nan"), {}), None))
    in_python = sum(v for v, _ in reqs.values())
    print(f"Java Module step over JPype: {plain:.1f} us ({timed_us:.1f} us with the request timer); "
          f"Python handling its requests {in_python:.1f} us; outside them (Java, JPype) {timed_us - in_python:.1f} us")
    for k, (us, n) in sorted(reqs.items(), key=lambda kv: -kv[1][0]):
        print(f"  request {k:28s} x{n:.0f}/step  {us:7.1f} us")
    print(f"same step in Python: {py_us:.1f} us  (ratio {plain / py_us:.2f}x)")
    for k, us in parts.items():
        print(f"  {k:36s}  {us:7.1f} us")
    if py_own is not None and java_own is not None:
        print_diff(py_own, java_own, a.diff)


if __name__ == "__main__":
    main()
