"""Backend layer: CuPy's own kernels (the elementwise, copy and reduction kernels CuPy compiles with NVRTC at
their first call; the generic primitives of base.py run them) compiled ahead on kernel_prebuild's ops thread (one:
run on all workers they slowed every compile 2-3x on the H100 machine), by running each once on tiny arrays in a
private memory pool on a private non-blocking stream (a graph captured meanwhile on the main thread sees none of
it). Imports os; cupy, numpy lazily."""

import os

VERSION = 4         # part of the prebuild fingerprint: a changed list is a new set


def _ops():
    """(name, fn(cupy, x, y, labels)) of the CuPy kernels a training step of the zoo nets meets first."""
    import numpy as np
    f32 = np.float32
    return [    # in the order a first training step meets them (bench/trace_compiles.py on the H100 and the H200;
        # CuPy specialises a kernel on its arrays' ndim: contiguous ones are 1, broadcasts 2, 0-d scalars 0)
        ("full_f64", lambda cp, x, y, lab: cp.full((4, 3), 0.5, dtype=np.float64)),
        ("full_f32", lambda cp, x, y, lab: cp.full((4, 3), 0.5, dtype=f32)),
        ("mul_py", lambda cp, x, y, lab: x * 2.0), ("add", lambda cp, x, y, lab: x + y),
        ("add_row", lambda cp, x, y, lab: x + y[0]), ("mul_py_0d", lambda cp, x, y, lab: x[0, 0] * 2.0),
        ("add_py_0d", lambda cp, x, y, lab: x[0, 0] + 2.0), ("add_py", lambda cp, x, y, lab: x + 2.0),
        ("mul", lambda cp, x, y, lab: x * y), ("mul_row", lambda cp, x, y, lab: x * y[0]),
        ("sub", lambda cp, x, y, lab: x - y), ("copy_f32", lambda cp, x, y, lab: cp.ascontiguousarray(x.T)),
        ("bool_f32", lambda cp, x, y, lab: (x > y).astype(f32)), ("rdiv_py", lambda cp, x, y, lab: 2.0 / x),
        ("sqrt", lambda cp, x, y, lab: cp.sqrt(x)), ("copy_f64", lambda cp, x, y, lab: x.astype(np.float64)),
        ("div", lambda cp, x, y, lab: x / y), ("sub_py", lambda cp, x, y, lab: x - 2.0),
        ("rsub_py", lambda cp, x, y, lab: 2.0 - x), ("div_py", lambda cp, x, y, lab: x / 2.0),
        ("mul_f32", lambda cp, x, y, lab: x * f32(2)), ("add_f32", lambda cp, x, y, lab: x + f32(2)),
        ("sub_f32", lambda cp, x, y, lab: x - f32(2)), ("pow", lambda cp, x, y, lab: x ** 2),
        ("exp", lambda cp, x, y, lab: cp.exp(x)), ("log", lambda cp, x, y, lab: cp.log(x)),
        ("maximum", lambda cp, x, y, lab: cp.maximum(x, y)), ("where", lambda cp, x, y, lab: cp.where(x > y, x, y)),
        ("u8_f32", lambda cp, x, y, lab: lab.astype(np.uint8).astype(f32)),
        ("i32_i64", lambda cp, x, y, lab: lab.astype(np.int64)),
        ("onehot", lambda cp, x, y, lab: x.__setitem__((cp.arange(4), lab.astype(np.int64)), 1.0)),
        ("sum", lambda cp, x, y, lab: (x.sum(), x.sum(axis=0), x.sum(axis=1, keepdims=True))),
        ("mean", lambda cp, x, y, lab: (x.mean(), x.mean(axis=0))),
        ("max", lambda cp, x, y, lab: (x.max(), x.max(axis=1))),
        ("argmax", lambda cp, x, y, lab: x.argmax(axis=1).astype(np.int32)),      # last: eg.accuracy is reduce.cu's;
        ("equal", lambda cp, x, y, lab: (lab == lab[::-1]).sum()),               # eg.row_max_index, straight_equal
    ]


def enabled():
    """$ALPHA_WARM_CUPY=0 turns the warming off (each CuPy kernel then compiles at its first call)."""
    return os.environ.get("ALPHA_WARM_CUPY", "1").strip().lower() not in ("0", "off", "no", "false")


def warm_calls(device_id):
    """One zero-argument callable per CuPy op above, for kernel_prebuild's single ops thread; [] when disabled."""
    return [(name, (lambda fn=fn: _run(device_id, fn))) for name, fn in _ops()] if enabled() else []


def _run(device_id, fn):
    """fn on tiny arrays in a pool of its own (emptied after) on a non-blocking stream of its own."""
    import cupy
    import numpy as np
    cupy.cuda.runtime.setDevice(device_id)
    pool = cupy.cuda.MemoryPool()
    try:
        stream = cupy.cuda.Stream(non_blocking=True)
        with cupy.cuda.Device(device_id), cupy.cuda.using_allocator(pool.malloc), stream:
            hx = np.arange(1, 13, dtype=np.float32).reshape(4, 3)       # made on the host: no CuPy kernel of
            x, y = cupy.asarray(hx), cupy.asarray(hx[::-1].copy())      # its own to compile before the op's
            lab = cupy.asarray(np.arange(4, dtype=np.int32) % 3)
            fn(cupy, x, y, lab)
            stream.synchronize()
            del x, y, lab
    finally:
        pool.free_all_blocks()
