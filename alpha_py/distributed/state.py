"""Distributed layer: a training state as plain host NumPy (what Spark ships, averages and the
driver checkpoints) — net weights/buffers, optimizer state, counters — and flat gradient buffers.
Imports numpy, alpha_py.errors and the nn/optim objects it is handed."""
import numpy as np

from ..errors import CheckpointError, fmt_shape


def _host(backend, a):
    """A host copy: float32, except float64 buffers (batchNorm's exp_beta) which keep their precision."""
    h = backend.to_host(a)
    return np.array(h, dtype=np.float64 if h.dtype == np.float64 else np.float32, copy=True)


def net_state(net):
    """name -> host array (float32; float64 buffers stay float64) for every parameter and buffer."""
    b = net.engine.backend
    return {name: _host(b, p.data) for name, p in net.state_map().items()}


def load_net_state(net, state, who="load_net_state"):
    """Copy host arrays into the net; strict: same names and shapes."""
    smap = net.state_map()
    missing = sorted(set(smap) - set(state))
    extra = sorted(set(state) - set(smap))
    if missing or extra:
        raise CheckpointError(f"{who}: state does not match net {net.name()}: missing {missing[:5]}, "
                              f"unexpected {extra[:5]}")
    b = net.engine.backend
    for name, p in smap.items():
        a = state[name]
        if tuple(a.shape) != tuple(p.shape):
            raise CheckpointError(f"{who}: {name} has shape {fmt_shape(a.shape)}, net expects "
                                  f"{fmt_shape(p.shape)}")
        d = b.from_host(a, dtype=p.data.dtype)
        p.data = d.copy() if d is a else d      # (the CPU engine would train in the caller's arrays)


def optim_state(opt):
    """Optimizer state (moments, step counter, scheduler) as key -> float32 host arrays, keyed as
    the optimizer's state_map() (the same keys alpha.stat checkpoints use)."""
    return {k: np.array(t.numpy(), dtype=np.float32, copy=True) for k, t in opt.state_map().items()}


def load_optim_state(opt, state):
    """Load host arrays from optim_state(); an empty dict (a fresh run) leaves the state as is."""
    if state:
        opt.load_state_map(dict(state))


def pack_state(state):
    """(header, arrays) of a {section: {name: array}} state: what travels raw, without pickling (rendezvous.put)."""
    arrays, entries = [], []
    for section, named in state.items():
        for name, a in named.items():
            a = np.ascontiguousarray(a)
            entries.append([section, name, list(a.shape), a.dtype.str])
            arrays.append(a)
    return {"sections": list(state), "arrays": entries}, arrays


def unpack_state(header, buffers):
    """The state pack_state() described, as NumPy arrays over the received buffers (no copy)."""
    state = {section: {} for section in header["sections"]}
    for (section, name, shape, dtype), buf in zip(header["arrays"], buffers):
        state[section][name] = np.frombuffer(buf, dtype=np.dtype(dtype)).reshape(shape)
    return state


def average_states(total, count):
    """Element-wise mean of a summed state dict (integer-like counters keep their dtype)."""
    out = {}
    for k, v in total.items():
        m = v / count
        out[k] = m.astype(v.dtype) if np.issubdtype(v.dtype, np.floating) else np.rint(m).astype(v.dtype)
    return out


def add_states(a, b):
    """Sum of two state dicts with identical keys (the treeAggregate combiner)."""
    if a is None:
        return b
    if b is None:
        return a
    if set(a) != set(b):
        raise CheckpointError(f"add_states: replicas disagree on state keys: "
                              f"{sorted(set(a) ^ set(b))[:5]}")
    return {k: a[k] + b[k] for k in a}


class GradBuffer:
    """Gathers every trainable parameter's gradient into one flat buffer (made once, reused every step, so a
    step that all-reduces allocates nothing for it) and scatters the (all-reduced) buffer back as the
    parameters' gradients. Parameters that got no gradient contribute zeros, so every rank packs the same
    layout. Only device work: inside a captured step it is recorded with the step."""

    def __init__(self, net):
        self.params = list(net.param_map().values())
        self.sizes = [int(np.prod(p.shape)) for p in self.params]
        self.total = int(sum(self.sizes))
        self.flat = None

    def pack(self, backend, loss=None, rank=0, world=1):
        """The flat buffer (backend's array type) holding all gradients; with `loss` (the step's 0-d loss) `world`
        more elements, this rank's loss at `rank` and zeros elsewhere: after the (mean) all-reduce every rank holds
        every rank's loss (rank_losses), and their sum is the agreed loss that decides on_nonfinite on all ranks
        alike (a NaN on one rank is a NaN for all)."""
        if self.flat is None or self.flat.shape[0] != self.total + world:
            self.flat = backend.full((self.total + world,), 0.0)
        if loss is not None:
            self.flat[self.total:].fill(0)
            self.flat[self.total + rank:self.total + rank + 1][...] = backend.reshape(loss, (1,))
        off = 0
        for p, n in zip(self.params, self.sizes):
            dst, g = self.flat[off:off + n], p.grad_data
            if g is None:
                dst.fill(0)
            else:
                dst[...] = backend.reshape(g, (-1,))
            off += n
        return self.flat if loss is not None else self.flat[:self.total]

    def unpack(self, backend, flat):
        off = 0
        for p, n in zip(self.params, self.sizes):
            p.zero_grad().accumulate_grad(backend.reshape(flat[off:off + n], p.shape))
            off += n

    def reduce(self, backend, coll, loss=None):
        """All-reduce (mean over ranks) every gradient through `coll` (NCCL, or Spark messaging on CPUs); with
        `loss`, returns the mean of the ranks' losses as a 0-d array (non-finite when any rank's is)."""
        world = getattr(coll, "world", 1)
        flat = coll.allreduce_mean(backend, self.pack(backend, loss, getattr(coll, "rank", 0), world))
        self.unpack(backend, flat)
        if loss is None:
            return None
        self.losses = flat[self.total:]
        return backend.reshape(backend.sum(self.losses, 0, True), ())

    def rank_losses(self):
        """Every rank's own loss of the last reduced step (a host read; for messages)."""
        host = np.asarray(self.losses.get() if hasattr(self.losses, "get") else self.losses, dtype=np.float64)
        return (host * len(host)).tolist()
