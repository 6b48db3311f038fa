"""Core layer: Tensor (device array + autograd link + Syncer), Syncer and Result.
Imports threading, weakref, alpha_py.errors and core.autograd's Ref; the engine owning a tensor supplies the backend."""
import threading
import weakref

from ..errors import StateError, fmt_shape
from .autograd import Ref
from .tensor_math import TensorMath


class Syncer:
    """Marks the completion of the op that produced a tensor (a CUDA event on the GPU)."""

    __slots__ = ("_event",)

    def __init__(self, event=None):
        self._event = event

    def sync(self):
        if self._event is not None:
            self._event.synchronize()
            self._event = None


class Result:
    """A scalar produced on the device; get() blocks only when called."""

    __slots__ = ("_engine", "_array", "_value", "__weakref__")

    def __init__(self, engine, array):
        self._engine, self._array, self._value = engine, array, None

    def get(self):
        if self._value is None:
            arr = self._array
            if arr is None:                      # pending: produced by a deferred iteration (engine/autoloop.py)
                arr = self._engine.auto.resolve(self)
            self._value = self._engine.backend.scalar(arr)
            self._array = None
        return self._value

    def __float__(self):
        return float(self.get())

    def __repr__(self):
        return f"Result({self.get()})"


class LazyData:
    """A tensor's data not computed yet: `source.fp32()` computes it (bf16 training: a BatchNorm output, rebuilt
    bit for bit from the bf16 input bits BatchNorm keeps). A Tensor holding one as `_lazy` computes it when its
    data is first read; a unit that reads `source` directly (a bf16 convolution) never does."""

    __slots__ = ("source", "lazy_shape", "dtype", "owner", "__weakref__")

    def __init__(self, source, shape, dtype):
        self.source, self.lazy_shape, self.dtype, self.owner = source, tuple(shape), dtype, None

    def wrap(self, engine, node, index):
        """The Tensor holding this lazy data (Engine.wrap)."""
        t = Tensor(engine, None, node, index)
        t._lazy, self.owner = self, weakref.ref(t)
        with _LAZY_LOCK:
            _LAZY.add(self)
        return t

    def resolve(self, t):
        if t._data is None:
            t._data = self.source.fp32()
        t._lazy = None
        return t._data

    def value(self):
        """Its fp32 data for a unit that read it as LazyData but cannot take its source: computed once and kept by
        the tensor holding it (as reading tensor.data does), so a later reader does not compute it again."""
        t = self.owner() if self.owner is not None else None
        if t is not None and t._lazy is self:
            return self.resolve(t)
        return t._data if t is not None and t._data is not None else self.source.fp32()

    def shape_of(self, t):
        return self.lazy_shape

    @property
    def shape(self):
        return self.lazy_shape


_LAZY = weakref.WeakSet()         # the LazyData of live tensors (settle_lazy computes them)
_LAZY_LOCK = threading.Lock()


def settle_lazy():
    """Compute every live tensor's lazy data now: called before what it is computed from changes in place (an
    optimizer step updates BatchNorm's gamma and beta, a state load), so a later read still gets the forward's
    values."""
    if not _LAZY:
        return
    with _LAZY_LOCK:
        pending = list(_LAZY)
    for lz in pending:
        t = lz.owner() if lz.owner is not None else None
        if t is not None and t._lazy is lz and not getattr(lz.source, "fixed", False):
            lz.resolve(t)


class Tensor(TensorMath):
    """An n-d array on an engine. `node`/`index` link it to the op that produced it (autograd). `_lazy`: the
    engine's loop recorder while the value is deferred (engine/autoloop.py); reading it runs the work first."""

    _lazy = None
    _ref = None

    RESULT = Result

    def __init__(self, engine, data, node=None, index=0):
        self.engine = engine
        self._data = data
        self.node = node
        self.index = index
        self._need_grad = False
        self._grad = None
        self.syncer = engine.syncer()

    # ------------------------------------------------------------------ data access
    @property
    def data(self):
        d = self._data
        if d is None:
            if self._lazy is not None:
                d = self._lazy.resolve(self)
                if d is not None:
                    return d
            raise StateError("Tensor: used after delete() (its memory was released)")
        return d

    @data.setter
    def data(self, value):
        self._settle()
        self._data, self._lazy = value, None

    @property
    def shape(self):
        if self._data is None and self._lazy is not None:
            return self._lazy.shape_of(self)
        return tuple(self.data.shape)

    def dim(self, i=None):
        if i is None:
            return list(self.shape)
        return self.shape[i]

    def ndim(self):
        return len(self.shape)

    def length(self):
        return int(self.data.size)

    def dataType(self):
        return str(self._dtype())

    def _dtype(self):
        """The data's dtype, without computing lazy data."""
        lz = self._lazy
        return lz.dtype if type(lz) is LazyData else self.data.dtype

    def c(self):
        """Wait until the op that produced this tensor has finished; returns self."""
        self.syncer.sync()
        return self

    def value(self):
        """Host copy as a flat float list-like NumPy array (row-major)."""
        return self.engine.backend.to_host(self.c().data).reshape(-1).astype("float32", copy=False)

    def value_int32(self):
        return self.engine.backend.to_host(self.c().data).reshape(-1).astype("int32")

    def value_int8(self):
        return self.engine.backend.to_host(self.c().data).reshape(-1).astype("int8")

    def numpy(self):
        """Host copy with this tensor's shape and dtype."""
        return self.engine.backend.to_host(self.c().data)

    def delete(self):
        self._settle()
        self._data, self._lazy = None, None
        self.node = None
        self._grad = None

    def is_deleted(self):
        return self._data is None and self._lazy is None

    def _settle(self):
        """Run the deferred iteration this tensor waits for (engine/autoloop.py); lazy data (LazyData) stays lazy."""
        lz = self._lazy
        if lz is not None and type(lz) is not LazyData:
            lz.resolve(self)

    # ------------------------------------------------------------------ gradients
    def ref(self):
        """The autograd graph's Ref of this tensor (one per tensor: its identity is the tensor's there)."""
        r = self._ref
        if r is None:
            r = self._ref = Ref(self)
        return r

    def need_grad(self, flag=None):
        if flag is None:
            return self._need_grad
        self._need_grad = bool(flag)
        return self

    def grad(self):
        """The gradient accumulated into this tensor (a Tensor), or None."""
        self._settle()                           # a parameter of a deferred iteration: run it first
        return None if self._grad is None else Tensor(self.engine, self._grad)

    @property
    def grad_data(self):
        """The gradient as a device array (None when none has flowed); read-only: gradients are
        written through accumulate_grad / zero_grad only."""
        self._settle()
        return self._grad

    def accumulate_grad(self, g):
        """Add the device array `g` (shaped like this tensor) into its gradient: the one place a
        gradient is written (autograd, units' parameter grads, all-reduce, tests)."""
        self._settle()
        self._grad = g if self._grad is None else self.engine.backend.add(self._grad, g)
        return self

    def zero_grad(self):
        """Forget the gradient (the next accumulate_grad starts afresh)."""
        self._settle()
        self._grad = None
        return self

    def __repr__(self):
        if self.is_deleted():
            return "Tensor(deleted)"
        return f"Tensor({fmt_shape(self.shape)}, {self.dataType()}, {self.engine.dataType()})"
