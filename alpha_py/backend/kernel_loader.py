"""Backend layer: the ONE loader of kernels/*.cu — reads a family's source, prepends `#line 1 "<path>"`
so NVRTC errors point at the real file, compiles it once per (device, family, -D options) through
cupy.RawModule with the template instances its table lists, and memoises the module. Imports cupy lazily."""
import os
import re

_INSTANCE_RE = re.compile(r"^[ \t]*//![ \t]*instances?:[ \t]*(.*)$", re.MULTILINE)
_OPTIONS_RE = re.compile(r"^[ \t]*//![ \t]*options:[ \t]*(.*)$", re.MULTILINE)
_modules = {}       # (device_id, family, defines) -> cupy.RawModule


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


def module_source(family):
    """(source with its #line directive, absolute path) of kernels/<family>.cu."""
    path = os.path.join(kernel_dir(), family + ".cu")
    if not os.path.exists(path):
        raise FileNotFoundError(f"kernel family {family!r}: no file {path}")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return f'#line 1 "{path}"\n' + text, path


def parse_instances(source):
    """Template instances a family compiles, from its `//! instances: a<1> b<2,3> ...` lines
    (space separated; template argument lists must not contain spaces)."""
    names = []
    for line in _INSTANCE_RE.findall(source):
        names.extend(line.split())
    return names


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


def get_module(family, defines=None, device_id=None):
    """Compiled RawModule of a family (memoised; CuPy also caches the cubin on disk)."""
    import cupy
    dev = cupy.cuda.runtime.getDevice() if device_id is None else int(device_id)
    key = (dev, family, define_options(defines))
    mod = _modules.get(key)
    if mod is None:
        src, _ = module_source(family)
        names = parse_instances(src)
        mod = cupy.RawModule(code=src, options=compile_options(defines) + source_options(src),
                             name_expressions=names or None)
        mod.compile()
        _modules[key] = mod
    return mod


def get_kernel(family, name, defines=None):
    """A kernel by name or template name expression, e.g. get_kernel('elementwise', 'act_fwd<2>')."""
    mod = get_module(family, defines)
    src_names = _instances_of(family)
    if "<" in name:
        if name not in src_names:
            raise KeyError(f"kernels/{family}.cu: template instance {name!r} is not listed in its "
                           f"'//! instances:' table")
    return mod.get_function(name)


_instance_cache = {}


def _instances_of(family):
    names = _instance_cache.get(family)
    if names is None:
        names = set(parse_instances(module_source(family)[0]))
        _instance_cache[family] = names
    return names
