"""A/B of the README loop with auto_graph off on a CUDA engine, alternating rounds in one process, with PyTorch
eager's step (bench/step_graph.py) for reference. Prints best / median ms per step of each.
--ab plan: iterations on planned memory (the recorder marks them, engine/loop_memory.py) against the bare pool
(no recorder); --ab memo: convolutions with their memoised algorithm choice and geometry (cuda_conv.py) against
choosing per call (both on planned memory); --ab sync: the engine's default sync mode (each public call waits for
its work) against eg.sync(False) (the host runs ahead of the GPU, as PyTorch eager's does).
Usage: python3 bench/loop_plan_ab.py [--ab plan|memo|sync] [--rounds 5] [--steps 40]
  [--configs fashion:128,resnet18:32]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from step_graph import bench_torch, user_loop  # noqa: E402
from sync_ab import timed  # noqa: E402   (ms per step after 5 warm-up steps, syncs per step)


class _Forgetful(dict):
    """A memo that keeps nothing."""

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, value):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--configs", default="fashion:128,resnet18:32")
    ap.add_argument("--ab", choices=("plan", "memo", "sync"), default="plan")
    a = ap.parse_args()
    names = {"plan": ("planned", "pool"), "memo": ("memo", "no memo"), "sync": ("async", "sync")}[a.ab]
    for cfg in a.configs.split(","):
        kind, batch = cfg.split(":")
        batch = int(batch)
        loops = {}
        for name in names:
            eg, net, step = user_loop(kind, batch, False)
            if name == "pool":
                eg.auto = None                   # no recorder: every block from the pool
            if name == "async":
                eg.sync(False)
            if name == "no memo":
                step(0)                          # the algorithm cache exists after a step
                eg.backend._algos.memo = eg.backend._geoms = _Forgetful()
            loops[name] = (eg, step)
        ms = {name: [] for name in loops}
        for r in range(a.rounds):
            for name in (names if r % 2 == 0 else names[::-1]):
                ms[name].append(timed(*loops[name], a.steps)[0])
        torch_ms = bench_torch(kind, batch, a.steps, 5, False)["ms"]
        mem = loops[names[0]][0].auto_stats()["memory"]
        line = ", ".join(f"{n} {min(v):.2f} / {sorted(v)[len(v) // 2]:.2f} ms" for n, v in ms.items())
        med = {n: sorted(v)[len(v) // 2] for n, v in ms.items()}
        x, y = names
        print(f"{kind} b{batch}: {line} (best / median of {a.rounds}); torch eager {torch_ms:.2f} ms; {x} / {y} "
              f"{med[x] / med[y]:.3f}, {x} / torch {med[x] / torch_ms:.2f}, {y} / torch "
              f"{med[y] / torch_ms:.2f}; plan states {mem['states']}", flush=True)


if __name__ == "__main__":
    main()
