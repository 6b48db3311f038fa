"""A/B in one process, alternating rounds on one net: the user's loop (sync mode, auto_graph off) with the
engine's one wait per public call ("new", Engine.public) against a wait after every op ("old": the earlier
behaviour, restored by patching Engine.public); and the loop with a host read in mid-iteration (auto_graph
on, left op by op) with and without planned memory for its iterations (engine/loop_memory.py).
Usage: python3 bench/sync_ab.py [--rounds 5] [--steps 40] [--configs fashion:128,resnet18:32]"""
import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from step_graph import user_loop  # noqa: E402


def loop(kind, batch, auto, read):
    eg, _, step = user_loop(kind, batch, auto, read=(lambda yh, labels: yh.numpy()) if read else None)
    return eg, step


def timed(eg, step, steps):
    for i in range(5):
        step(i)
    eg.backend.synchronize()
    gc.collect()                                 # no full collection of earlier garbage inside the window
    s0, t0 = eg.counters()["syncs"], time.perf_counter()
    for i in range(steps):
        step(i)
    eg.backend.synchronize()
    return (time.perf_counter() - t0) / steps * 1e3, (eg.counters()["syncs"] - s0) / steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--configs", default="fashion:128,resnet18:32")
    a = ap.parse_args()
    from alpha_py.engine.engine import Engine
    new = Engine.public

    def old(self, fn, args):
        return fn(*args)
    for cfg in a.configs.split(","):
        kind, batch = cfg.split(":")
        eg, step = loop(kind, int(batch), False, False)
        res = {"wait per op": [], "wait per call": []}
        for _ in range(a.rounds):
            for mode in res:
                Engine.public = old if mode == "wait per op" else new
                res[mode].append(timed(eg, step, a.steps))
        Engine.public = new
        eg2, step2 = loop(kind, int(batch), True, True)
        res2 = {"pool": [], "planned": []}
        for _ in range(a.rounds):
            for mode in res2:
                eg2.auto.plan_memory = mode == "planned"
                res2[mode].append(timed(eg2, step2, a.steps))
        for name, r in list(res.items()) + list(res2.items()):
            ms = sorted(x[0] for x in r)
            print(f"{kind:8s} b{batch:<4s} {name:14s} best {ms[0]:7.2f} ms  median {ms[len(ms) // 2]:7.2f} ms  "
                  f"syncs/step {r[-1][1]:.1f}", flush=True)


if __name__ == "__main__":
    main()
