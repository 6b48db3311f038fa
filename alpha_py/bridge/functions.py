"""Bridge layer: helper functions Java calls by name (op "fn") — Java-module mirrors, their
backward/gc, releasing a step's handles, bulk tensor data (JPype buffers / Py4J shared file),
iterator batches and Java-side learning-rate functions. `d` is the Dispatcher. Units are reached through
their public seams only (attach, record_forward, backward, gc). Imports numpy and alpha_py only."""
import numpy as np

from ..errors import ArgumentError
from ..optim import optim
from .hosted import hosted_module

_MAKE = {"float32": "tensor", "int32": "tensor_int32", "int8": "tensor_int8", "uint8": "tensor_uint8"}
_HOST = {"float32": "value", "int32": "value_int32", "int8": "value_int8"}


def count(d):
    """Live handles in the registry."""
    return len(d.registry)


def release(d, ids):
    d.registry.release_all_of(ids)


def release_all(d):
    """Java closed its bridge: drop every handle it held."""
    d.registry.clear()


def module_new(d, java_class, fields):
    return hosted_module(java_class, fields)


def module_attach(d, mirror, engine, name):
    """Java initialised the children itself (in field order, same draws as Module.init)."""
    mirror.attach(engine, name)
    return None


def unit_backward(d, unit, xs, outs, grads):
    """Back-propagate through the graph below `outs` (the calling Java thread's last outputs of the
    unit; `xs` its inputs, None to keep the unit's own): a Java Module's mirror or a Python unit."""
    return unit.record_forward(outs, xs).backward(*grads)


def unit_gc(d, unit, outs, ids):
    """Free the graph below `outs` (the calling Java thread's last outputs of the unit) and release
    the handles of that thread's step (ids) at once. With no outputs the unit only drops its
    references to its last step: a shared unit's graph of another thread is left alone."""
    unit.record_forward(outs).gc()
    release(d, ids)
    return None


def _host(tensor, dtype):
    if dtype not in _HOST:
        raise ArgumentError(f"tensor data: dtype {dtype!r} is not one of {sorted(_HOST)}")
    return getattr(tensor, _HOST[dtype])()


def _make(engine, dtype, dims, flat):
    if dtype not in _MAKE:
        raise ArgumentError(f"tensor data: dtype {dtype!r} is not one of {sorted(_MAKE)}")
    return getattr(engine, _MAKE[dtype])(flat, *dims)


def stage(d, tensor, dtype):
    """JPype: keep the tensor's host array for the endpoint's staged() view; returns its bytes."""
    d.staged = np.ascontiguousarray(_host(tensor, dtype))
    return int(d.staged.nbytes)


def from_buffer(d, engine, dtype, dims, buffer):
    """JPype: a tensor viewing the bytes of a Java direct buffer (passed as an opaque Java object;
    no copy: the array keeps the Java buffer alive)."""
    flat = np.frombuffer(memoryview(buffer), dtype=np.dtype(dtype if dtype in _MAKE else "float32"))
    return _make(engine, dtype, dims, flat)


def shm_get(d, tensor, dtype):
    """Py4J: copy the tensor's host data into the shared file; returns its bytes."""
    return d.shm.write(_host(tensor, dtype))


def shm_put(d, engine, dtype, dims, nbytes):
    """Py4J: a tensor from the first nbytes of the shared file (copied out of it)."""
    if dtype not in _MAKE:
        raise ArgumentError(f"tensor data: dtype {dtype!r} is not one of {sorted(_MAKE)}")
    return _make(engine, dtype, dims, d.shm.read(nbytes, dtype))


def tensor_linear(d, tensor, inplace, alpha, beta):
    """API.md's Tensor.linear(inplace, alpha, beta) = alpha*X + beta, through the backend's linear
    primitive; like Dragon-Alpha's engine op it records no autograd node."""
    out = tensor.engine.backend.linear(tensor.c().data, float(alpha), float(beta))
    if inplace:
        tensor.data = out
        return tensor
    return tensor.engine.wrap(out)


def iter_next(d, it, *args):
    """One batch as [input, label] (the Pair itself never crosses)."""
    p = it.next(*args)
    return [p.input, p.label]


def lambda_lr(d, updater):
    """alpha.optim.lambdaLr from Java, Dragon-Alpha's form: lr_t = updater.next(lr_{t-1}), the
    updater a Java alpha.optim.LrUpdater (JPype object or Py4J reference)."""
    return optim.lambdaLr(lambda lr: float(updater.next(float(lr))), "update")


def pause(d, seconds):
    """Block the Python side for `seconds` (<= 60): a deterministic long call for fault tests."""
    import time
    time.sleep(min(max(float(seconds), 0.0), 60.0))
    return None


FUNCTIONS = {f.__name__: f for f in (count, release, release_all, pause, module_new, module_attach, unit_backward,
                                     unit_gc, stage, from_buffer, shm_get, shm_put, tensor_linear, iter_next,
                                     lambda_lr)}
