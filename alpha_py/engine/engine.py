"""Engine layer: wraps one backend's primitive table with tensor factories, initialisers,
sync/async and argument checking. Imports core/tensor and errors only (engine/factory.py hands it the backend)."""
import contextlib
import math
import threading

import numpy as np

from ..errors import ArgumentError, NonFiniteError, ShapeError, fmt_shape
from ..core.tensor import LazyData, Result, Tensor
from .engine_math import EngineMath
from .engine_modes import ThreadModes
from .image_engine import ImageEngine
from ..precision import check_precision


def parse_dims(dims, fn):
    """Accept f(2, 3), f([2, 3]) or f((2, 3)); validate positive ints."""
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = tuple(dims[0])
    out = []
    for d in dims:
        if isinstance(d, bool) or int(d) != d or int(d) <= 0:
            raise ShapeError(f"{fn}: dims {list(dims)} must be positive integers")
        out.append(int(d))
    if not out:
        raise ShapeError(f"{fn}: at least one dimension is required")
    return tuple(out)


class Engine(ThreadModes, EngineMath):
    """User-facing engine: `alpha.engine.cpu_float32()` / `cuda_float32(...)`."""

    def __init__(self, backend, type_name):
        self.backend = backend
        self._type_name = type_name
        self.is_sync = True
        self.is_check = True
        self._local = threading.local()          # .stepping: inside a train step on this thread
        self.auto = None                         # the loop recorder (engine/autoloop.py) when auto_graph is on
        self.anomaly = False                     # detect_anomaly(True): every unit's outputs/gradients checked
        self._auto_before_anomaly = False        # auto_graph was on when anomaly mode turned it off
        self.anomaly_step = None                 # the training step anomaly messages name (set by train_step)

    # ------------------------------------------------------------------ switches
    def sync(self, flag=None):
        """sync() -> bool; sync(False): ops return at once, results carry a Syncer."""
        if flag is None:
            return self.is_sync
        self.is_sync = bool(flag)
        if self.is_sync:
            self.backend.synchronize()
        return self

    def check(self, flag=None):
        if flag is None:
            return self.is_check
        self.is_check = bool(flag)
        return self

    def precision(self, value=None):
        """precision() -> "fp32" | "tf32" | "bf16"; precision(name): switch (returns the engine). tf32 and bf16 are
        modes of a GPU's tensor cores: the CPU engines refuse them; bf16 needs compute capability >= 8.0
        (docs/precision.md)."""
        set_ = getattr(self.backend, "set_precision", None)
        if value is None:
            return self.backend.precision if set_ else "fp32"
        if set_ is not None:
            set_(value, f"{self._type_name}.precision")
            return self
        name = check_precision(value, f"{self._type_name}.precision")
        if name != "fp32":
            raise ArgumentError(f"{self._type_name}.precision: {name!r} is a mode of a GPU's tensor cores; engine "
                                f"{self._type_name} computes in {'float64' if self._type_name.endswith('64') else 'fp32'} "
                                "only (use alpha.engine.cuda_float32(precision=...))")
        return self

    def detect_anomaly(self, flag=None):
        """detect_anomaly() -> bool; detect_anomaly(True): every unit's forward outputs and backward gradients
        (of its inputs and parameters) are checked, and the first NaN/Inf raises NonFiniteError naming the
        unit, the pass, the tensor and the step. Costs one reduction and one host read per tensor (on a GPU a
        wait each, and training steps run op by op): for finding a culprit, not for production runs."""
        if flag is None:
            return self.anomaly
        if flag and not self.anomaly and self.auto_graph():          # checks need every op run, op by op
            self._flush_auto()
            self.auto_graph(False)
            self._auto_before_anomaly = True
        elif not flag and self.anomaly and self._auto_before_anomaly:
            self._auto_before_anomaly = False
            self.auto_graph(True)
        self.anomaly = bool(flag)
        return self

    def check_finite(self, unit, phase, tensors):
        """Anomaly mode: raise NonFiniteError at the first non-finite array of `tensors` ((name, array) pairs)
        that `unit` (anything with describe()) produced in `phase` ('forward' / 'backward')."""
        for what, a in tensors:
            if a is None or self.backend.all_finite(a):
                continue
            host = self.backend.to_host(a)
            kinds = [k for k, bad in (("NaN", np.isnan(host).any()), ("Inf", np.isinf(host).any())) if bad]
            at = f" at step {self.anomaly_step}" if self.anomaly_step is not None else ""
            raise NonFiniteError(f"anomaly: {unit.describe()} {phase}: {what} {fmt_shape(a.shape)} holds "
                                 f"{' and '.join(kinds)}{at} (the first non-finite tensor of this {phase} pass)",
                                 step=self.anomaly_step)

    def set_seed(self, seed):
        self._flush_auto()
        self.backend.seed(int(seed))
        self._java_seed = int(seed)              # v1.2's image engine draws from a java.util.Random seeded here too
        if self.__dict__.get("_img") is not None:
            self._img.rand.set_seed(seed)
        return self

    @property
    def img(self):
        """v1.2's image engine over pixel (uint8) tensors: eg.img.<op> or eg.img().<op> (engine/image_engine.py)."""
        ie = self.__dict__.get("_img")
        if ie is None:
            ie = self._img = ImageEngine(self)
        return ie

    def auto_graph(self, flag=None):
        """auto_graph() -> bool; auto_graph(True/False): capture the user's own training loop into CUDA graphs
        (engine/autoloop.py, docs/user-loop.md). Needs a CUDA engine; off: every call runs op by op (on a CUDA
        engine the recorder still marks the loop's iterations, so each takes its memory from a plan, as
        alpha.train_step(graph=False) does)."""
        if flag is None:
            return self.auto is not None and self.auto.capture
        if self.auto is not None and self.auto.capture == bool(flag):
            return self
        if flag and not getattr(self.backend, "graphs_supported", False):
            raise ArgumentError(f"auto_graph: CUDA graphs need a CUDA engine (alpha.engine.cuda_float32), "
                                f"this engine is {self._type_name}")
        if self.auto is not None:
            self.auto.reset()
        self.auto = None
        if flag or callable(getattr(self.backend, "step_memory", None)):
            from .autoloop import AutoLoop
            self.auto = AutoLoop(self, capture=bool(flag))
        return self

    def auto_stats(self):
        """What the loop recorder did: iterations run op by op, captures, replays, flushes (deferred work run
        op by op early), signatures and why some are not captured, planned memory; {} without a recorder (the
        CPU engine)."""
        return {} if self.auto is None else self.auto.stats()

    def _flush_auto(self):
        if self.auto is not None:
            self.auto.flush()

    @contextlib.contextmanager
    def auto_paused(self):
        """Calls inside run as they are, unrecorded (alpha.train_step uses this)."""
        a = self.auto
        if a is None:
            yield self
            return
        a.flush()
        prev, a.inside = a.inside, True
        try:
            yield self
        finally:
            a.inside = prev

    def dataType(self):
        return self._type_name

    def __repr__(self):
        return f"Engine({self._type_name})"

    def counters(self):
        """What the host paid so far (device engines): {'syncs', 'mallocs', 'device_mallocs', 'captures',
        'graph_launches'}; the CPU engine counts nothing and returns {}."""
        c = getattr(self.backend, "counters", None)
        return c.snapshot() if c is not None else {}

    # ------------------------------------------------------------------ internal
    def copy_into(self, dst, src):
        """dst[...] = src, queued like any op, without allocating (arrays of one shape)."""
        copy = getattr(self.backend, "copy_into", None)
        if copy is not None:
            copy(dst, src)
        else:
            dst[...] = src

    def wrap(self, array, node=None, index=0):
        """A device array (or a LazyData: computed when first read) -> Tensor (called after every op)."""
        self.wait_if_sync()
        if type(array) is LazyData:
            return array.wrap(self, node, index)
        return Tensor(self, array, node, index)

    def result(self, array):
        return Result(self, array)

    # ------------------------------------------------------------------ factories
    def empty(self, *dims):
        return self.wrap(self.backend.empty(parse_dims(dims, "empty")))

    def zeros(self, *dims):
        return self.constants(0.0, *dims)

    def ones(self, *dims):
        return self.constants(1.0, *dims)

    def constants(self, c, *dims):
        return self.wrap(self.backend.full(parse_dims(dims, "constants"), float(c)))

    def _host(self, data, dims, fn):
        arr = np.asarray(data)
        if dims:
            shape = parse_dims(dims, fn)
            if arr.size != math.prod(shape):
                raise ShapeError(f"{fn}: data has {arr.size} elements, dims {fmt_shape(shape)} "
                                 f"need {math.prod(shape)}")
            arr = arr.reshape(shape)
        if arr.size == 0:
            raise ShapeError(f"{fn}: empty data")
        return arr

    def tensor(self, data, *dims):
        """Float tensor from host data (list / ndarray), optionally reshaped to dims."""
        arr = self._host(data, dims, "tensor")
        return self.wrap(self.backend.from_host(arr))

    def tensor_int32(self, data, *dims):
        arr = self._host(data, dims, "tensor_int32")
        return self.wrap(self.backend.from_host(arr, dtype=np.int32))

    def tensor_int8(self, data, *dims):
        arr = self._host(data, dims, "tensor_int8")
        return self.wrap(self.backend.from_host(arr, dtype=np.int8))

    def tensor_uint8(self, data, *dims):
        arr = self._host(data, dims, "tensor_uint8")
        return self.wrap(self.backend.from_host(arr, dtype=np.uint8))

    def images(self, images_u8, scale=2.0 / 255.0, shift=-1.0):
        """uint8 images (host or Tensor) travel as bytes, become float on the device:
        x * scale + shift (default maps [0,255] to [-1,1] as in the paper)."""
        arr = images_u8.data if isinstance(images_u8, Tensor) else self.backend.from_host(
            np.ascontiguousarray(images_u8, dtype=np.uint8), dtype=np.uint8)
        return self.wrap(self.backend.image_to_float(arr, scale, shift))

    def onehot(self, labels, *args):
        """onehot(labels, num_class) or onehot(labels, alpha, beta, num_class): rows with alpha at
        the label's index and beta elsewhere."""
        if len(args) == 1:
            on, off, num_class = 1.0, 0.0, args[0]
        elif len(args) == 3:
            on, off, num_class = args
        else:
            raise ArgumentError("onehot: expected (labels, num_class) or (labels, alpha, beta, num_class)")
        lab = labels.numpy() if isinstance(labels, Tensor) else np.asarray(labels)
        lab = lab.reshape(-1).astype(np.int64)
        if lab.size and (lab.min() < 0 or lab.max() >= num_class):
            raise ArgumentError(f"onehot: labels must lie in [0, {num_class}), got range "
                                f"[{lab.min()}, {lab.max()}]")
        return self.wrap(self.backend.onehot(self.backend.from_host(lab, dtype=np.int64),
                                             int(num_class), float(on), float(off)))

    def uniform(self, low, high, *dims):
        self._flush_auto()
        if not low < high:
            raise ArgumentError(f"uniform: need low < high, got low={low}, high={high}")
        return self.wrap(self.backend.uniform(parse_dims(dims, "uniform"), float(low), float(high)))

    def gaussian(self, mean, std, *dims):
        self._flush_auto()
        if not std >= 0:
            raise ArgumentError(f"gaussian: std must be >= 0, got {std}")
        return self.wrap(self.backend.gaussian(parse_dims(dims, "gaussian"), float(mean), float(std)))

    # ------------------------------------------------------------------ initialisers (in place)
    def _fill(self, X, array):
        X.data = array
        return X

    def kaiming_uniform(self, X, fan_in, a=math.sqrt(5.0)):
        gain = math.sqrt(2.0 / (1.0 + a * a))
        bound = gain * math.sqrt(3.0 / fan_in)
        return self._fill(X, self.backend.uniform(X.shape, -bound, bound))

    def kaiming_gaussian(self, X, fan_in, a=0.0):
        std = math.sqrt(2.0 / (1.0 + a * a)) / math.sqrt(fan_in)
        return self._fill(X, self.backend.gaussian(X.shape, 0.0, std))

    def xavier_uniform(self, X, fan_in, fan_out, gain=1.0):
        bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
        return self._fill(X, self.backend.uniform(X.shape, -bound, bound))

    def xavier_gaussian(self, X, fan_in, fan_out, gain=1.0):
        std = gain * math.sqrt(2.0 / (fan_in + fan_out))
        return self._fill(X, self.backend.gaussian(X.shape, 0.0, std))

    # ------------------------------------------------------------------ misc
    def delete(self, *tensors):
        for t in tensors:
            if isinstance(t, (list, tuple)):
                self.delete(*t)
            elif t is not None:
                t.delete()

    def row_max_index(self, X):
        """Index of each row's maximum (int32 tensor of X's leading dims)."""
        return self.wrap(self.backend.argmax(X.data, axis=-1))

    def straight_equal(self, A, B):
        """Fraction of elements equal in A and B (Result)."""
        if A.shape != B.shape:
            raise ShapeError(f"straight_equal: shapes {fmt_shape(A.shape)} and {fmt_shape(B.shape)} differ")
        return self.result(self.backend.mean((A.data == B.data).astype(self.backend.dtype)))

    def straight_sum(self, X, alpha=1.0):
        """sum(alpha * X) (v1.2's straight_sum(X[, alpha]))."""
        return self.result(self.backend.linear(self.backend.sum(X.data), alpha, 0.0))

    def straight_mean(self, X):
        return self.result(self.backend.mean(X.data))

    def accuracy(self, yh, y):
        """Fraction of rows whose arg-max agrees (yh vs one-hot labels of its shape, or one index label per row)."""
        ys, ls, rows = tuple(yh.shape), tuple(y.shape), math.prod(yh.shape[:-1])
        if not ys or (ls != ys if len(ls) == len(ys) else math.prod(ls) != rows):
            raise ShapeError(f"accuracy: predictions {list(ys)} need one-hot labels of the same shape or {rows} index "
                             f"labels (one per row), got labels {list(ls)}")
        return self.result(self.backend.accuracy(yh.data, y.data))
