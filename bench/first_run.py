"""Benchmark (device): the cold start. Each case runs in a child process whose CuPy kernel cache and Alpha cache
(CUPY_CACHE_DIR, ALPHA_CACHE_DIR) are fresh temp folders, as on a fresh machine; "warm" re-runs with the folders
the cold run filled. Cases: `compile` (`alpha warmup` serial vs on worker threads: does NVRTC run in parallel?),
`resnet18` (bench/resnet18_cifar.py's first step, graph on, --mode's precision: with the shipped algorithm table,
without it, warm),
`fashion` (bench/epoch_vs_torch.py epoch 1, Alpha vs PyTorch in one process, cold, warm).
Usage: python3 bench/first_run.py [--cases compile,resnet18,fashion] [--data-dir .gpudata/fashion] [--threads N]
                                 [--mode fp32|tf32|bf16]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def run(cmd, dirs, extra_env=None, timeout=240, tag=""):
    """(wall s, output) of `cmd` in a child with CUPY_CACHE_DIR/ALPHA_CACHE_DIR under `dirs`."""
    env = dict(os.environ, CUPY_CACHE_DIR=os.path.join(dirs, "cupy"), ALPHA_CACHE_DIR=os.path.join(dirs, "alpha"),
               PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra_env or {})
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout)
    wall = time.perf_counter() - t0
    for line in p.stdout.splitlines():
        print(f"    [{tag}] {line}", flush=True)
    if p.returncode != 0:
        print(f"    [{tag}] exit code {p.returncode}", flush=True)
    return wall, p.stdout


def fresh():
    return tempfile.mkdtemp(prefix="alpha-first-")


def grab(pattern, text, group=1):
    m = re.search(pattern, text, re.MULTILINE)
    return float(m.group(group)) if m else float("nan")


def case_compile(a, rows):
    py = [sys.executable, "-m", "alpha_py", "warmup"]
    for label, threads in ((("serial", 0),) if a.serial else ()) + ((f"{a.threads} threads", a.threads),):
        wall, out = run(py + ["--threads", str(threads)], fresh(), tag=f"warmup {label}")
        rows.append((f"alpha warmup --threads {threads} (fp32 set incl. rare, CuPy ops, cold)", "process wall", wall,
                     f"`python3 -m alpha_py warmup --threads {threads}`, fresh caches"))
    d = fresh()
    run(py + ["--tf32", "--threads", str(a.threads)], d, tag="warmup tf32")
    wall, out = run(py + ["--tf32"], d, tag="warmup again")
    rows.append(("alpha warmup --tf32 on a warm machine", "process wall", wall, "second run, same caches"))


def case_resnet18(a, rows):
    cmd = [sys.executable] + (["bench/trace_compiles.py"] if a.trace else []) + [
        "bench/resnet18_cifar.py", "--nets", "resnet18", "--modes", a.mode, "--graph", "on", "--steps", "5",
        "--batch", str(a.batch)]
    warm_dir = fresh()
    for label, env, d in (("cold, shipped table", {}, warm_dir),
                          ("cold, CuPy ops not warmed", {"ALPHA_WARM_CUPY": "0"}, fresh()),
                          ("cold, no table (every shape timed)", {"ALPHA_CONV_TABLE": "0"}, fresh()),
                          ("warm (caches of the first run)", {}, warm_dir)):
        wall, out = run(cmd, d, env, tag=f"resnet18 {label}")
        rows.append((f"ResNet18 b{a.batch} first step, {label}", "first step", grab(r"first step ([\d.]+) s", out),
                     " ".join(cmd[cmd.index("bench/resnet18_cifar.py"):])
                     + "".join(f" {k}={v}" for k, v in env.items())))


def case_fashion(a, rows):
    cmd = [sys.executable] + (["bench/trace_compiles.py"] if a.trace else []) + [
        "bench/epoch_vs_torch.py", "--dataset", "fashion_mnist", "--epochs", "2"]
    if a.data_dir:
        cmd += ["--data-dir", a.data_dir]
    d = fresh()
    for label, env, dd in (("cold", {}, d), ("cold, CuPy ops not warmed", {"ALPHA_WARM_CUPY": "0"}, fresh()),
                           ("warm", {}, d)):
        wall, out = run(cmd, dd, env, tag=f"fashion {label}", timeout=300)
        al, to = grab(r"^alpha\s+([\d.]+)", out), grab(r"^torch\s+([\d.]+)", out)
        setup = grab(r"set-up before epoch 1 \(engine, data, net\): ([\d.]+) s", out)
        desc = " ".join(cmd[cmd.index("bench/epoch_vs_torch.py"):]) + "".join(f" {k}={v}" for k, v in env.items())
        rows.append((f"Fashion CNN epoch 1, Alpha, {label}", "epoch 1", al, desc))
        rows.append((f"  set-up before it (engine, data, net; kernels compile meanwhile), {label}", "set-up", setup,
                     desc))
        rows.append((f"Fashion CNN epoch 1, PyTorch ({label} run)", "epoch 1", to, desc))
        rows.append((f"  Alpha / PyTorch epoch 1, {label}", "ratio", al / to, desc))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="compile,resnet18,fashion")
    ap.add_argument("--data-dir", dest="data_dir", default=None)
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--mode", default="fp32", help="resnet18 case: fp32 | tf32 | bf16")
    ap.add_argument("--serial", action="store_true", help="compile case: also `alpha warmup --threads 0`")
    ap.add_argument("--trace", action="store_true", help="run the ResNet18 and Fashion children under "
                    "bench/trace_compiles.py (NVRTC compiles of the main thread vs the compile threads)")
    a = ap.parse_args()
    rows = []
    for c in a.cases.split(","):
        print(f"# case {c}", flush=True)
        {"compile": case_compile, "resnet18": case_resnet18, "fashion": case_fashion}[c](a, rows)
    print("\n| case | what | s (or x) | command |\n|---|---|---|---|")
    for name, what, v, cmd in rows:
        print(f"| {name} | {what} | {v:.2f} | {cmd} |")


if __name__ == "__main__":
    main()
