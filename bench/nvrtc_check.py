"""Developer tool (no GPU needed): compile kernel families with NVRTC exactly as the CUDA backend does
(same source, #line directive, -I kernels/, template instances from `//! instances:`), for sm_90 cubin, and
print ptxas' register / spill / shared-memory report of each kernel. Needs libnvrtc (pip nvidia-cuda-nvrtc).
Usage: python bench/nvrtc_check.py [--lib /path/libnvrtc.so.13] [--arch sm_90] [family ...]"""
import argparse
import ctypes
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from alpha_py.backend.kernel_loader import (compile_options, kernel_dir, module_source, parse_instances,  # noqa: E402
                                           source_options)


def find_nvrtc(explicit=None):
    if explicit:
        return explicit
    for root in sys.path + ["/usr/local/cuda/lib64"]:
        hits = sorted(glob.glob(os.path.join(root, "nvidia", "cu1*", "lib", "libnvrtc.so.*"))
                      + glob.glob(os.path.join(root, "nvidia", "cuda_nvrtc", "lib", "libnvrtc.so.*"))
                      + glob.glob(os.path.join(root, "libnvrtc.so.*")))
        hits = [h for h in hits if "builtins" not in h and ".alt." not in h]
        if hits:
            return hits[0]
    raise SystemExit("libnvrtc not found: pip install nvidia-cuda-nvrtc, or pass --lib")


def compile_family(lib, family, arch):
    src, path = module_source(family)
    names = parse_instances(src)
    prog = ctypes.c_void_p()
    check = lambda rc, what: rc == 0 or sys.exit(f"{family}: {what} failed ({rc})")
    check(lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), path.encode(), 0, None, None), "create")
    for n in names:
        check(lib.nvrtcAddNameExpression(prog, n.encode()), f"name {n}")
    opts = list(compile_options()) + list(source_options(src)) + [f"-arch={arch}", "-std=c++17", "--ptxas-options=-v"]
    arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, log)
    text = log.value.decode(errors="replace")
    if rc == 0:                      # every listed instance resolves to a kernel, as CuPy will look it up
        for n in names:
            lowered = ctypes.c_char_p()
            if lib.nvrtcGetLoweredName(prog, n.encode(), ctypes.byref(lowered)) != 0 or not lowered.value:
                rc, text = 1, text + f"\nerror: instance {n} has no lowered name"
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return rc, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("families", nargs="*")
    ap.add_argument("--lib")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--full", action="store_true", help="print the whole ptxas log")
    a = ap.parse_args()
    lib = ctypes.CDLL(find_nvrtc(a.lib))
    fams = a.families or sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(kernel_dir(), "*.cu")))
    bad = 0
    for fam in fams:
        rc, log = compile_family(lib, fam, a.arch)
        print(f"== {fam}: {'ok' if rc == 0 else 'FAILED'}")
        for line in log.splitlines():
            if a.full or rc != 0 or "error" in line or "warning" in line or "Used" in line or "spill" in line \
                    or "Compiling entry" in line:
                print("  " + line.strip())
        bad += rc != 0
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
