"""Backend layer: the ONE loader of kernels/*.cu — reads a family's source, prepends `#line 1 "<path>"` so NVRTC
errors point at the real file and appends its headers' digest (CuPy's disk cache), compiles one module per (device,
family, -D options, template instance) through cupy.RawModule and memoises it, thread-safely (kernel_prebuild.py
compiles ahead on worker threads; a caller that needs a module a worker is building waits for it). Imports cupy
lazily."""
import hashlib
import os
import re
import threading

_INSTANCE_RE = re.compile(r"^[ \t]*//![ \t]*instances?:[ \t]*(.*)$", re.MULTILINE)
_OPTIONS_RE = re.compile(r"^[ \t]*//![ \t]*options:[ \t]*(.*)$", re.MULTILINE)
_EXTERN_C_RE = re.compile(r'extern\s+"C"\s+(__global__|\{)')     # a kernel, or a block of them (macros)
_modules = {}       # (device_id, family, defines, instance) -> cupy.RawModule
_builds = {}        # key -> _Build (being compiled, or compiled)
_lock = threading.Lock()
_digests = {}       # kernel folder -> (its headers' names, sizes and times, their digest)
stats = {"compiled": 0, "compile_s": 0.0}     # modules built by this process (hits of CuPy's disk cache too)


def kernel_dir():
    """Directory holding the .cu sources: the kernels/ folder beside this alpha_py package in a source
    checkout (so a checkout or git worktree compiles its own kernels, even where an editable install of
    another checkout maps `alpha_py.kernels`), else the installed `alpha_py.kernels` package."""
    here = os.path.dirname(os.path.abspath(__file__))
    beside = os.path.normpath(os.path.join(here, "..", "..", "kernels"))
    if os.path.exists(os.path.join(beside, "elementwise.cu")):
        return beside
    try:
        import alpha_py.kernels as pkg          # installed wheel / editable install mapping
        d = os.path.dirname(pkg.__file__)
        if os.path.exists(os.path.join(d, "elementwise.cu")):
            return d
    except ImportError:
        pass
    return beside


def families():
    """Names of the kernel families (kernels/<family>.cu), sorted."""
    return sorted(f[:-3] for f in os.listdir(kernel_dir()) if f.endswith(".cu"))


def module_source(family):
    """(source with its #line directive, absolute path) of kernels/<family>.cu; a last comment line carries the
    digest of the headers (headers_digest)."""
    d = kernel_dir()
    path = os.path.join(d, family + ".cu")
    if not os.path.exists(path):
        raise FileNotFoundError(f"kernel family {family!r}: no file {path}")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return f'#line 1 "{path}"\n' + text + f"\n// kernels/*.cuh: {headers_digest(d)}\n", path


def headers_digest(d):
    """sha256 (16 hex digits) of the names and contents of the headers (*.cuh) in folder d. CuPy's disk cache keys
    a module by its source text and options, not by the files it #includes: with the digest in every source, a
    changed header compiles the families again instead of loading their old cubins. Memoised per folder on the
    headers' sizes and modification times."""
    names = sorted(f for f in os.listdir(d) if f.endswith(".cuh"))
    stamp = tuple((f, st.st_size, st.st_mtime_ns) for f in names for st in (os.stat(os.path.join(d, f)),))
    hit = _digests.get(d)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    h = hashlib.sha256()
    for f in names:
        with open(os.path.join(d, f), "rb") as fh:
            h.update(f.encode() + b"\0" + fh.read() + b"\0")
    digest = h.hexdigest()[:16]
    _digests[d] = (stamp, digest)
    return digest


def parse_instances(source):
    """Template instances a family compiles, from its `//! instances: a<1> b<2,3> ...` lines
    (space separated; template argument lists must not contain spaces)."""
    names = []
    for line in _INSTANCE_RE.findall(source):
        names.extend(line.split())
    return names


def has_plain_kernels(source):
    """True when the family defines `extern "C"` kernels, one by one or in an `extern "C" { ... }` block of macro
    uses (they live in its base module, instance None)."""
    return bool(_EXTERN_C_RE.search(source))


def source_options(source):
    """Extra NVRTC options a family asks for in `//! options: ...` lines (e.g. -arch=sm_90a for wgmma kernels:
    NVRTC then builds for that target instead of the plain one CuPy adds)."""
    opts = []
    for line in _OPTIONS_RE.findall(source):
        opts.extend(line.split())
    return tuple(opts)


def define_options(defines):
    """{'TILE': 16} / [('TILE', 16)] -> ('-DTILE=16',) in a stable order."""
    items = sorted(dict(defines or {}).items())
    return tuple(f"-D{k}={v}" for k, v in items)


def compile_options(defines=None):
    return (f"-I{kernel_dir()}",) + define_options(defines)


def module_key(family, defines=None, instance=None, device_id=None):
    """The memo key of one module: its device, family, -D options and template instance (None: the family's
    `extern "C"` kernels, without any template instantiated)."""
    if device_id is None:
        import cupy
        device_id = cupy.cuda.runtime.getDevice()
    return int(device_id), family, define_options(defines), instance


class _Build:
    """One module's compile: `done` is set when `mod` (or `err`) is there."""
    __slots__ = ("done", "mod", "err")

    def __init__(self):
        self.done, self.mod, self.err = threading.Event(), None, None


def claim(key):
    """(build record, mine): mine=True when the caller is the one that must compile `key` now."""
    with _lock:
        b = _builds.get(key)
        if b is not None:
            return b, False
        b = _builds[key] = _Build()
        return b, True


def build(key, compile_fn=None, wait=True):
    """The module of `key`: compiled here when nobody has started it, else the one another thread is
    compiling (waited for; wait=False returns None instead). A failed compile is forgotten, so the next
    caller compiles again and sees the error itself."""
    import time
    mod = _modules.get(key)
    if mod is not None:
        return mod
    b, mine = claim(key)
    if mine:
        t0 = time.perf_counter()
        try:
            b.mod = (compile_fn or compile_module)(key)
            with _lock:
                _modules[key] = b.mod
                stats["compiled"] += 1
                stats["compile_s"] += time.perf_counter() - t0
        except BaseException as e:
            b.err = e
            with _lock:
                _builds.pop(key, None)
        finally:
            b.done.set()
    elif not wait:
        return b.mod
    else:
        b.done.wait()
    if b.err is not None:
        if mine:
            raise b.err
        return build(key, compile_fn)          # the other thread's compile failed: try (and report) here
    return b.mod


def compile_module(key):
    """cupy.RawModule of one key, compiled (CuPy keeps the cubin in its disk cache, CUPY_CACHE_DIR). On a
    thread other than the main one the device is made current first (CUDA 12+: its primary context too)."""
    import cupy
    dev, family, defines, instance = key
    src, _ = module_source(family)
    if instance is not None and instance not in parse_instances(src):
        raise KeyError(f"kernels/{family}.cu: template instance {instance!r} is not listed in its "
                       f"'//! instances:' table")
    if threading.current_thread() is not threading.main_thread():
        cupy.cuda.runtime.setDevice(dev)
    with cupy.cuda.Device(dev):
        mod = cupy.RawModule(code=src, options=(f"-I{kernel_dir()}",) + defines + source_options(src),
                             name_expressions=[instance] if instance else None)
        mod.compile()
    return mod


def get_module(family, defines=None, device_id=None, instance=None):
    """Compiled RawModule of a family's template `instance`, or of its `extern "C"` kernels (instance None);
    memoised, and CuPy caches the cubin on disk."""
    return build(module_key(family, defines, instance, device_id))


def get_kernel(family, name, defines=None):
    """A kernel by name or template name expression, e.g. get_kernel('elementwise', 'act_fwd<2>')."""
    if "<" in name:
        if name not in _instances_of(family):
            raise KeyError(f"kernels/{family}.cu: template instance {name!r} is not listed in its "
                           f"'//! instances:' table")
        return get_module(family, defines, instance=name).get_function(name)
    return get_module(family, defines).get_function(name)


_instance_cache = {}


def _instances_of(family):
    names = _instance_cache.get(family)
    if names is None:
        names = set(parse_instances(module_source(family)[0]))
        _instance_cache[family] = names
    return names
