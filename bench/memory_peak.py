"""Where a captured training step's memory goes (GPU): the traced pass of alpha.train_step's capture (its
allocations, their lifetimes and the units that made them), its live peak and what is alive there, the arena the
plan packs it into, the graph pool's reserve and the engine's peak. ResNet18-/VGG16-CIFAR, Adam, synthetic batches.

  python3 bench/memory_peak.py --net resnet18 --precision bf16 [--batch 512] [--top 20]
"""
import argparse
import collections
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MiB = 2 ** 20


def site():
    """The innermost unit (type[name].method) and backend primitive (file:function) on the stack."""
    f, unit, prim = sys._getframe(2), None, None
    while f is not None:
        fn = f.f_code.co_filename
        if prim is None and "/alpha_py/backend/" in fn and "cuda_memory" not in fn and "step_plan" not in fn:
            prim = f"{os.path.basename(fn)}:{f.f_code.co_name}"
        if unit is None and any(f"/alpha_py/{d}/" in fn for d in ("nn", "zoo", "optim")):
            s = f.f_locals.get("self")
            unit = f"{type(s).__name__}[{getattr(s, '_name', '')}].{f.f_code.co_name}" if s is not None else None
        f = f.f_back
    return f"{unit or '?'} / {prim or '?'}"


def trace_captures():
    """Patch GraphPool.capture_memory so the traced pass records each request's site; returns the record."""
    from alpha_py.backend import cuda_memory
    rec, plain = {}, cuda_memory.GraphPool.capture_memory

    def capture_memory(pool):
        mem = plain(pool)
        scratch, sites, finish = mem._scratch, [], mem.finish

        def traced(n):
            sites.append(site())
            return scratch(n)

        def finished(ok=True):
            if mem.state == "record" and mem._trace is not None:
                t = mem._trace
                rec.update(sizes=list(t.sizes), start=list(t.start), end=list(t.end), sites=sites, mem=mem)
            return finish(ok)
        mem._scratch, mem.finish = traced, finished
        return mem
    cuda_memory.GraphPool.capture_memory = capture_memory
    return rec


def live_peak(sizes, start, end):
    """(peak bytes, index of the request at the peak, the requests alive there)."""
    events = sorted([(s, 1, i) for i, s in enumerate(start)] + [(e, -1, i) for i, e in enumerate(end) if e is not None])
    alive, cur, best = set(), 0, (0, None, set())
    for _, kind, i in events:
        if kind > 0:
            alive.add(i)
            cur += sizes[i]
            if cur > best[0]:
                best = (cur, i, set(alive))
        else:
            alive.discard(i)
            cur -= sizes[i]
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--net", default="resnet18", choices=["resnet18", "vgg16"])
    ap.add_argument("--precision", default="bf16", choices=["fp32", "tf32", "bf16"])
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--top", type=int, default=20)
    a = ap.parse_args()
    rec = trace_captures()
    from alpha_py import alpha, nn
    eg = alpha.engine.cuda_float32(0, alpha.engine.memp3(40 << 30), precision=a.precision).set_seed(0)
    net = nn.ResNet18("leakyRelu") if a.net == "resnet18" else nn.VGG16("leakyRelu")
    net.init(eg)
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (a.batch, 32, 32, 3), dtype=np.uint8)
    labels = eg.tensor(np.eye(10, dtype=np.float32)[rng.integers(0, 10, a.batch)])
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), alpha.optim.Adam(net.params(), 1e-3), graph=True)
    for _ in range(3):                     # op by op, captured (traced + planned), replayed
        step(eg.images(images), labels).get()
    if not rec:
        sys.exit("no planned capture happened (plan_captures off, or the step was not captured)")
    sizes, sites = rec["sizes"], rec["sites"]
    peak, at, alive = live_peak(sizes, rec["start"], rec["end"])
    gp, st = step._pool.stats(), eg.backend.memory.stats()
    print(f"{a.net} {a.precision} b{a.batch}: traced pass {len(sizes)} requests, live peak {peak / MiB:.0f} MiB at "
          f"request {at} ({sites[at]}); plan arena {rec['mem'].plan.total / MiB:.0f} MiB; graph pool reserved "
          f"{gp['reserved'] / MiB:.0f} MiB; engine peak in use {st['peak_used'] / MiB:.0f} MiB")
    by_site = collections.Counter()
    for i in alive:
        by_site[sites[i]] += sizes[i]
    print(f"alive at the peak, by the unit / primitive that allocated it (top {a.top}):")
    for s, n in by_site.most_common(a.top):
        print(f"{n / MiB:9.1f} MiB  {s}")


if __name__ == "__main__":
    main()
