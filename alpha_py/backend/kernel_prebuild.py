"""Backend layer: compiles the kernel modules a CUDA engine will need ahead of their first use, on worker
threads (NVRTC releases the GIL), into memory and CuPy's disk cache, CuPy's own first kernels too (cupy_warm.py);
a record in the Alpha cache folder says which sets are complete, so a warm machine starts no worker at all.
Imports kernel_loader, cupy_warm, stdlib; cupy lazily."""
import atexit
import hashlib
import json
import os
import queue
import tempfile
import threading
import time
import warnings

from . import cupy_warm
from . import kernel_loader as kl

FORMAT = 1
RECORD = "kernels_prebuilt.json"
GEMM_FAMILIES = ("conv_fwd", "conv_bwd_data", "conv_bwd_filter")     # instances <BM,BN,VEC,MMA>
BF16_FAMILIES = ("conv_bf16", "gemm_bf16", "bf16_act")    # bf16 mode only (compute capability >= 8.0)
# the wgmma kernels (sm_90a only) of TF32 and of bf16, split into modules that compile in parallel; longest first
HOPPER_TF32 = ("conv_wgmma", "conv_wgmma_x", "conv_tma_tf32")
HOPPER_BF16 = ("conv_wgmma_bf16", "conv_wgmma_mn", "conv_tma_yb", "conv_tma", "conv_tma_wgrad",
               "conv_tma_halo")
HOPPER_FAMILIES = HOPPER_TF32 + HOPPER_BF16


def cache_root():
    """The Alpha cache folder: $ALPHA_CACHE_DIR, else ~/.cache/alpha_py (conv_algo.py keeps its file there)."""
    return os.environ.get("ALPHA_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "alpha_py")


def cupy_cache_dir():
    return os.environ.get("CUPY_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cupy", "kernel_cache")


def default_threads():
    """Worker threads: $ALPHA_COMPILE_THREADS, else the CPUs this process may use less one (the caller's), at
    least 1 and at most 32."""
    env = os.environ.get("ALPHA_COMPILE_THREADS")
    if env:
        try:
            return max(0, int(env))
        except ValueError:
            raise ValueError(f"ALPHA_COMPILE_THREADS={env!r}: expected a whole number of threads") from None
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:
        n = os.cpu_count() or 1
    return max(1, min(32, n - 1))


def module_specs(table, tf32_ks=0, hopper=False, rare=False, bf16=False):
    """The (family, instance) modules an engine compiles ahead, from {family: (instances, has plain kernels)}, in
    queue order (spec_rank): every family's `extern "C"` module and template instance, except that the
    implicit-GEMM families keep the instances of MMA 0 (strict fp32; matmul uses them in every mode) and of MMA
    tf32_ks, the TF32 tensor-core family conv_tc comes only with tf32_ks > 0, the Hopper wgmma families only on
    Hopper, TF32's (HOPPER_TF32) with tf32_ks > 0 and bf16's with bf16, the bf16 families only with bf16
    (compute capability >= 8.0; of conv_tc then only its plain kernels), and the instances of the less common
    activations and optimizers, of the math family, the batched GEMM and bernouliMul's mask only with rare=True
    (`alpha warmup`)."""
    keep_mma = {"0", str(int(tf32_ks))}
    specs = []
    for fam in sorted(table):
        if (fam == "conv_tc" and not (tf32_ks or bf16) or fam in HOPPER_TF32 and not (tf32_ks and hopper)
                or fam in HOPPER_BF16 and not (bf16 and hopper) or fam in BF16_FAMILIES and not bf16):
            continue
        instances, plain = table[fam]
        if plain:
            specs.append((fam, None))
        if fam == "conv_tc" and not tf32_ks:        # bf16: only its plain kernels (flip_filter_bf16)
            continue
        for inst in instances:
            if fam in GEMM_FAMILIES and inst.rstrip(">").split(",")[-1] not in keep_mma:
                continue
            specs.append((fam, inst))
    first = (((HOPPER_BF16 if bf16 else HOPPER_TF32) if hopper else ()) + FIRST[:2] + (BF16_FIRST if bf16 else ())
             + FIRST[2:])
    return sorted((s for s in specs if rare or spec_rank(*s) < 3),
                  key=lambda s: (spec_rank(*s), first.index(s[0]) if s[0] in first else len(first)))


# families in the order a first step meets them: random numbers (net.init), the image map, the first convolution;
# the mode's large wgmma modules before them (the longest compiles start first), its bf16 ones after the image map
BF16_FIRST = BF16_FAMILIES + ("conv_tc",)
FIRST = ("random", "image", "conv_fwd", "batchnorm", "elementwise", "pool", "winograd", "conv_bwd_data", "reduce",
         "softmax", "optim", "conv_bwd_filter")


# Dragon-Alpha's math family, batched matMuls, bernouliMul's mask: compiled by `alpha warmup` or on first use
RARE_FAMILIES, RARE_KERNELS = ("math", "gemm_batched"), ("rng_bernouli<",)
COMMON_ARGS = ("ACT_IDENTITY", "ACT_RELU", "ACT_LEAKY_RELU", "OPTIM_SGD", "OPTIM_MOMENTUM", "OPTIM_ADAM", "OPTIM_ADAMW")


def spec_rank(family, instance):
    """Queue order (a stable sort): what nearly every training step runs first (the `extern "C"` modules, the
    instances of identity / relu / leakyRelu and of SGD / momentum / Adam(W), random numbers, softmax, Winograd
    filters, tensor cores, the implicit-GEMM forward and backward-data instances: a forward pass runs both, for
    a fully connected layer's x @ W is a backward-data GEMM, without vector loads for a 10-class head), then the
    weight-gradient GEMMs, then the other activations and optimizers, the element-wise math family (kernels/math.cu),
    the batched matMuls (kernels/gemm_batched.cu) and bernouliMul's mask: those only with rare=True. Within a
    rank, families go in FIRST's order. (Putting every backward instance after the forward ones was measured
    slower: BatchNorm's backward then came too late; bench/NOTES-gpu.md.)"""
    if instance is None:
        return 0
    if family in RARE_FAMILIES or instance.startswith(RARE_KERNELS):
        return 3
    args = instance[instance.index("<") + 1:-1].split(",")
    named = [a for a in args if a.startswith(("ACT_", "OPTIM_"))]
    if not all(a in COMMON_ARGS for a in named):
        return 3
    return 1 if family == "conv_bwd_filter" else 0


def family_table():
    """{family: (template instances, has extern "C" kernels)} of the kernels/ folder."""
    out = {}
    for fam in kl.families():
        src = kl.module_source(fam)[0]
        out[fam] = (kl.parse_instances(src), kl.has_plain_kernels(src))
    return out


def fingerprint(specs, device_tag):
    """Hash of what a prebuilt set depends on: the kernel sources and headers, the module list, the GPU
    (compute capability), CuPy and NVRTC versions and CuPy's cache folder."""
    h = hashlib.sha256()
    d = kl.kernel_dir()
    for f in sorted(os.listdir(d)):
        if f.endswith((".cu", ".cuh")):
            with open(os.path.join(d, f), "rb") as fh:
                h.update(f.encode() + b"\0" + fh.read())
    h.update(repr((FORMAT, cupy_warm.VERSION, sorted(specs, key=repr), device_tag,
                   os.path.abspath(cupy_cache_dir()))).encode())
    return h.hexdigest()[:32]


# ------------------------------------------------------------------------------------ the record
def read_record(path):
    """{fingerprint: modules} of complete sets. An unreadable file or another format: a warning, then {}."""
    if not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("sets"), dict):
            raise ValueError(f"expected {{'format': {FORMAT}, 'sets': {{...}}}} (stale or foreign file)")
        return {str(k): int(v) for k, v in data["sets"].items()}
    except (OSError, ValueError, TypeError) as e:
        warnings.warn(f"kernel prebuild record {path!r} is unreadable ({e}); rebuilding the kernels", RuntimeWarning,
                      stacklevel=2)
        return {}


def write_record(path, fp, modules):
    """Adds a complete set to the record atomically (temp file + rename); an unwritable folder only warns."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sets = read_record(path)
    sets[fp] = int(modules)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".kernels.", suffix=".tmp", dir=os.path.dirname(os.path.abspath(path)))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"format": FORMAT, "sets": sets}, f, indent=0, sort_keys=True)
        os.replace(tmp, path)
    except OSError as e:
        warnings.warn(f"kernel prebuild record {path!r} not written ({e})", RuntimeWarning, stacklevel=2)


def needs_build(path, fp, modules, cupy_dir):
    """True unless the record lists this set complete and CuPy's cache folder still holds at least as many
    files as the set has modules (a cleared CuPy cache is noticed: the set is rebuilt, with a warning)."""
    if fp not in read_record(path):
        return True
    try:
        held = sum(1 for e in os.scandir(cupy_dir) if e.name.endswith(".cubin"))
    except OSError:
        held = 0
    if held < modules:
        warnings.warn(f"CuPy kernel cache {cupy_dir!r} holds {held} cubins, fewer than the {modules} modules "
                      f"recorded as prebuilt: rebuilding them", RuntimeWarning, stacklevel=2)
        return True
    return False


# ------------------------------------------------------------------------------------ worker threads
class Prebuilder:
    """Daemon threads compiling queued module keys through kernel_loader.build (a key the main thread
    already claimed is skipped) and running queued ("cupy", name, fn) calls (cupy_warm.py). `submit(items,
    on_done)` calls on_done(failures) once all of them ended."""

    def __init__(self, threads, compile_fn=None):
        self.threads, self.compile_fn = int(threads), compile_fn
        self.q, self.ops_q, self._workers, self._stop = queue.Queue(), queue.Queue(), [], False
        self.errors = []                      # (key, exception) of failed background compiles
        self.op_errors = []                   # (name, exception) of CuPy ops that could not be run ahead

    def _start(self):
        """`threads` workers on the module queue plus one on the CuPy-ops queue (those ops run one at a time)."""
        while len(self._workers) < self.threads + 1:
            ops = len(self._workers) == self.threads
            t = threading.Thread(target=self._run, args=(self.ops_q if ops else self.q,), daemon=True,
                                 name="alpha-cupy-ops" if ops else f"alpha-nvrtc-{len(self._workers)}")
            t.start()
            self._workers.append(t)

    def submit(self, keys, on_done=None):
        keys = list(keys)
        group = {"left": len(keys), "failed": 0, "lock": threading.Lock(), "on_done": on_done}
        if not keys or self.threads < 1:
            for k in keys:               # no threads: compile here, in order
                self._one(k, group)
            if not keys and on_done:
                on_done(0)
            return
        self._start()
        for k in keys:
            (self.ops_q if isinstance(k[0], str) else self.q).put((k, group))

    def _one(self, key, group):
        try:
            if self._stop:
                pass
            elif isinstance(key[0], str):        # ("cupy", name, fn): one of CuPy's own kernels; a failure only
                try:                              # leaves it to its first use (it is no module of ours)
                    key[2]()
                except Exception as e:
                    self.op_errors.append((key[1], e))
            else:
                kl.build(key, self.compile_fn, wait=False)
        except Exception as e:          # reported again, with its message, when the key is asked for
            self.errors.append((key, e))
            with group["lock"]:
                group["failed"] += 1
        with group["lock"]:
            group["left"] -= 1
            last = group["left"] == 0
        if last and group["on_done"] and not self._stop:
            group["on_done"](group["failed"])

    def _run(self, q):
        while True:
            key, group = q.get()
            try:
                self._one(key, group)
            finally:
                q.task_done()

    def wait(self):
        """Blocks until every queued key was compiled (or failed)."""
        self.q.join()
        self.ops_q.join()

    def stop(self, timeout=60.0):
        """At exit: drop what is still queued, then wait (up to `timeout` s) for the compiles under way, so no
        daemon thread is inside NVRTC or a module load while the interpreter and CUDA tear down."""
        self._stop = True
        for q in (self.q, self.ops_q):
            try:
                while True:
                    q.get_nowait()
                    q.task_done()
            except queue.Empty:
                pass
        deadline = time.monotonic() + float(timeout)
        for q in (self.q, self.ops_q):
            with q.all_tasks_done:
                while q.unfinished_tasks and time.monotonic() < deadline:
                    q.all_tasks_done.wait(0.1)


_pool = None
_started = set()
_warmed = set()
warm_calls = cupy_warm.warm_calls          # tests without a GPU replace it


def pool():
    global _pool
    if _pool is None:
        _pool = Prebuilder(default_threads())
        atexit.register(_pool.stop)
    return _pool


def prebuild(device_id, compute_capability, tf32_ks=0, wait=False, record_path=None, rare=False, bf16=False):
    """Queues the modules of an engine in this mode (module_specs; bf16=True: the bf16 mode's, which the caller
    checked the GPU can run) on the worker threads, unless the record
    says this set is complete and CuPy's cache still holds it; writes the record once all compiled. Returns
    the number of modules queued (0: warm or ALPHA_COMPILE_THREADS=0, which leaves every compile to the first
    use). Once per process and set; wait=True blocks until compiled; rare=True: module_specs' rare ones too."""
    if pool().threads < 1 and not wait:
        return 0
    specs = module_specs(family_table(), tf32_ks, compute_capability == "90", rare, bf16)
    fp = fingerprint(specs, f"sm_{compute_capability}")
    if (fp, device_id) in _started:
        if wait:
            pool().wait()
        return 0
    _started.add((fp, device_id))
    path = record_path or os.path.join(cache_root(), RECORD)
    if not needs_build(path, fp, len(specs), cupy_cache_dir()):
        return 0
    keys = [("cupy", name, fn) for name, fn in warm_calls(device_id)] if device_id not in _warmed else []
    _warmed.add(device_id)                  # CuPy's own kernels: with the first set queued for this device
    keys += [kl.module_key(f, None, i, device_id) for f, i in specs]

    def done(failed):
        if not failed:
            write_record(path, fp, len(specs))
    pool().submit(keys, done)
    if wait:
        pool().wait()
    return len(keys)
