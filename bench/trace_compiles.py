"""Diagnostic (device): runs a Python script as __main__ with every NVRTC compile of the process timed (CuPy's
private compile entry point wrapped; cache hits do not compile), then prints how many compiles ran on the main
thread and on Alpha's compile threads, their seconds, the slowest main-thread ones (CuPy's own kernels too), every
compile's start and end since the trace began, where the main thread waited for a module (compiled or awaited), and
when each training pass of alpha_py's Trainer ran.
Usage: python3 bench/trace_compiles.py SCRIPT [ARGS...]"""
import atexit
import re
import runpy
import sys
import threading
import time

LOG = []            # (thread name, seconds, what, start since T0)
WAITS = []          # (start since T0, seconds, module key): main-thread kernel_loader.build calls over 50 ms
EPOCHS = []         # (start, end) since T0 of each alpha_py.trainer.Trainer._epoch call (a training pass)
T0 = time.perf_counter()


def _what(source, name_expressions):
    if name_expressions:
        return ",".join(name_expressions)[:60]
    m = re.search(r"#line 1 \"[^\"]*/(\w+\.cu)\"", source[:300])
    if m:
        return m.group(1)
    names = re.findall(r"__global__\s+void\s+(\w+)", source)
    dims = sorted(set(re.findall(r"CArray<[^<>]+?,\s*(\d+)", source)))     # CuPy specialises on the arrays' ndim
    return ("cupy:" + ",".join(names))[:60] + (f" ndim {'/'.join(dims)}" if dims else "") if names else "(preprocess)"


def install():
    from cupy.cuda import compiler
    orig = compiler._compile_using_nvrtc_no_warning

    def timed(source, options=(), arch=None, filename="kern.cu", name_expressions=None, *args, **kw):
        t0 = time.perf_counter()
        try:
            return orig(source, options, arch, filename, name_expressions, *args, **kw)
        finally:
            LOG.append((threading.current_thread().name, time.perf_counter() - t0, _what(source, name_expressions),
                        t0 - T0))
    compiler._compile_using_nvrtc_no_warning = timed
    from alpha_py.backend import kernel_loader
    orig_build = kernel_loader.build

    def build(key, compile_fn=None, wait=True):
        t0 = time.perf_counter()
        try:
            return orig_build(key, compile_fn, wait)
        finally:
            dt = time.perf_counter() - t0
            if dt > 0.05 and threading.current_thread() is threading.main_thread():
                WAITS.append((t0 - T0, dt, key))
    kernel_loader.build = build
    from alpha_py import trainer
    orig_epoch = trainer.Trainer._epoch

    def epoch(self, *a, **kw):
        t0 = time.perf_counter()
        try:
            return orig_epoch(self, *a, **kw)
        finally:
            EPOCHS.append((t0 - T0, time.perf_counter() - T0))
    trainer.Trainer._epoch = epoch
    atexit.register(report)


def report():
    main = [e for e in LOG if e[0] == "MainThread"]
    other = [e for e in LOG if e[0] != "MainThread"]
    print(f"TRACE compiles: main thread {len(main)} ({sum(e[1] for e in main):.2f} s), other threads {len(other)} "
          f"({sum(e[1] for e in other):.2f} s of compile time)", flush=True)
    for name, s, what, t in sorted(main, key=lambda e: -e[1])[:40]:
        print(f"TRACE   main {s:6.3f} s at {t:6.2f} s  {what}", flush=True)
    for name, s, what, t in sorted(LOG, key=lambda e: e[3])[:200]:
        print(f"TRACE   at {t:6.2f} - {t + s:6.2f} s  {name[:12]:12s} {what}", flush=True)
    for t, s, key in WAITS:
        print(f"TRACE   main waited at {t:6.2f} s for {s:6.3f} s: {key[1:]}", flush=True)
    for i, (t, e) in enumerate(EPOCHS):
        print(f"TRACE   training pass {i + 1} (Trainer._epoch) ran from {t:6.2f} to {e:6.2f} s", flush=True)


if __name__ == "__main__":
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(script)))
    install()
    runpy.run_path(script, run_name="__main__")
