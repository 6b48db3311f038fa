"""Bench: the CPU engine's per-call cost of relu.forward from the main thread and from a second thread, alone and
while another live thread owns an OpenMP pool (Numba's parallel kernels give each calling thread its own; with two,
libgomp throttles its spin-wait and every parallel region wakes sleeping workers). Sizes below and above
cpu_fused.PARALLEL_MIN. Prints microseconds per call (the best of 5 batches; not asserted).
Usage: python bench/cpu_threads.py [--calls 2000] [--sizes 4,4096,262144]"""
import argparse
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bridge_overhead import best_us  # noqa: E402


def on_thread(fn):
    """fn() run on a new thread; its result."""
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--sizes", default="4,4096,262144")
    a = ap.parse_args()
    from alpha_py import alpha, nn
    eg = alpha.engine.cpu_float32()
    relu = nn.relu().init(eg)
    print(f"{'elements':>9s} {'main':>8s} {'thread':>8s} {'main, another thread holding a pool':>37s}  (us per call)")
    for n in (int(s) for s in a.sizes.split(",")):
        x = eg.ones(1, n)
        run = lambda: best_us(lambda: relu.forward(x), a.calls)   # noqa: E731
        main_us = run()
        thread_us = on_thread(run)                 # the main thread's pool exists: two pools while it runs
        held, stop = threading.Event(), threading.Event()
        big = eg.ones(1, 1 << 18)

        def hold():
            relu.forward(big)                      # this thread's pool is made, then it waits
            held.set()
            stop.wait()
        t = threading.Thread(target=hold)
        t.start()
        held.wait()
        busy_us = run()
        stop.set()
        t.join()
        print(f"{n:9d} {main_us:8.1f} {thread_us:8.1f} {busy_us:37.1f}")


if __name__ == "__main__":
    main()
