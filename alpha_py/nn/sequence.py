"""nn layer: Sequence (units one after another) and its eval-mode chains: conv3D -> batchNorm | batchNorm_<act>
[-> maxPool2D(2, 2, 0)] run as one backend call (conv_eval: normalisation, activation and pooling applied to each
output block while it is in cache) on backends that offer it (the CPU engine). Outputs equal the unit-by-unit ones
bit for bit; a backward (rare in eval) recomputes the chain unit by unit from the saved input."""
from ..backend.base import out_size
from ..errors import ArgumentError
from .conv import Conv3D
from .fused import _FusedBnAct
from .norm import BatchNorm, GlobalBatchNorm
from .pool import MaxPool2D
from .unit import Module, Unit

_NORMS = (BatchNorm, GlobalBatchNorm)


class EvalChain(Unit):
    """One autograd node for the units `parts` (conv, norm[, pool]) of a Sequence in eval mode."""

    def __init__(self, parts):
        super().__init__()
        self.parts = tuple(parts)
        self.training = False

    def describe(self):
        return " -> ".join(u.describe() for u in self.parts) + " (eval chain)"

    def check_inputs(self, xs):
        self.parts[0].check_inputs(xs)

    def refresh(self):
        """Take the engine and, for _apply's should-it-record test, the trainable parameters of the parts that
        want gradients (need_grads may have changed since the last call)."""
        self.engine = self.parts[0].engine
        self._params = {f"{i}.{k}": p for i, u in enumerate(self.parts) if u._need_grads
                        for k, p in u._params.items() if p.trainable}
        return self

    def _fwd(self, eg, x):
        conv, norm = self.parts[0], self.parts[1]
        if isinstance(norm, _FusedBnAct):
            bn, act = norm.first, norm._act()
        else:
            bn, act = norm, (None, 0.0, 0.0)
        gamma, beta = bn._gamma_beta()
        mean, var = bn._eval_stats(eg)
        y = eg.backend.conv_eval(x, conv.weight().data, conv.stride, conv.padding,
                                 conv.bias().data if conv.biased else None,
                                 (gamma, beta, bn._eps, mean, var) + tuple(act), len(self.parts) == 3)
        return (y,), x

    def _bwd(self, eg, x, gys, needs):
        """Each part's forward again (in eval mode, whatever its mode is now), then each part's backward."""
        modes = [u.training for u in self.parts]
        try:
            for u in self.parts:
                u.training = False
            ctxs, cur = [], x
            for u in self.parts:
                (cur,), ctx = u._fwd(eg, cur)
                ctxs.append(ctx)
            for i in range(len(self.parts) - 1, -1, -1):
                gys = self.parts[i]._bwd(eg, ctxs[i], gys, needs if i == 0 else (True,))
            return gys
        finally:
            for u, m in zip(self.parts, modes):
                u.training = m


def _norm_of(unit):
    """The BatchNorm inside a norm unit the chain can take (plain or fused with an activation), or None."""
    if type(unit) in _NORMS:
        return unit
    if isinstance(unit, _FusedBnAct) and type(unit.first) in _NORMS:
        return unit.first
    return None


def _pools(unit, oh, ow):
    return (type(unit) is MaxPool2D and not unit.training and unit.kernel == (2, 2) and unit.stride == (2, 2)
            and unit.padding == (0, 0) and oh >= 2 and ow >= 2)


def chain_at(seq, i, xs):
    """The EvalChain of seq's units from index i for inputs xs, or None (not a chain, a unit in training mode, a
    backend without conv_eval, anomaly mode, or inputs the units would reject: they then run, and raise, one by one)."""
    units = seq._seq
    if i + 1 >= len(units) or len(xs) != 1 or type(units[i]) is not Conv3D:
        return None
    conv, norm, x = units[i], units[i + 1], xs[0]
    eg = conv.engine
    bn = _norm_of(norm)
    if (bn is None or conv.training or norm.training or eg is None or eg.anomaly or x.engine is not eg
            or not getattr(eg.backend, "eval_chains", False) or bn.dims != (conv.out_channels,)
            or x.ndim() != 4 or x.shape[3] != conv.in_channels or x.data.dtype != eg.backend.dtype):
        return None
    (kh, kw), (sh, sw), (ph, pw) = conv.kernel, conv.stride, conv.padding
    oh, ow = out_size(x.shape[1], kh, sh, ph), out_size(x.shape[2], kw, sw, pw)
    if oh <= 0 or ow <= 0:
        return None
    n = 3 if i + 2 < len(units) and _pools(units[i + 2], oh, ow) else 2
    chains = seq.__dict__.setdefault("_eval_chains", {})
    chain = chains.get((i, n))
    if chain is None:
        chain = chains[(i, n)] = EvalChain(units[i:i + n])
    return chain.refresh()


class Sequence(Module):
    """Units applied one after another; children are named <Class><index>."""

    def __init__(self, *units):
        super().__init__()
        flat = []
        for u in units:
            flat.extend(u if isinstance(u, (list, tuple)) else [u])
        for u in flat:
            if not isinstance(u, Unit):
                raise ArgumentError(f"sequence: expected Units, got {type(u).__name__}")
        self._seq = flat

    def _children(self):
        for i, u in enumerate(self._seq):
            yield f"{type(u).__name__}{i}", u

    def __len__(self):
        return len(self._seq)

    def __getitem__(self, i):
        return self._seq[i]

    def __forward__(self, *X):
        """The units one after the other; in eval mode each chain among them (chain_at) as one call."""
        units, i = self._seq, 0
        while i < len(units):
            chain = chain_at(self, i, X)
            if chain is None:
                X = units[i].forward(*X)
                i += 1
            else:
                X = chain.forward(*X)
                i += len(chain.parts)
        return X
