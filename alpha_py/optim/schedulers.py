"""optim layer: learning-rate schedulers. An Optimizer calls `init(lr)` when a scheduler is attached
and `next_learning_rate()` once per update(). Pure Python; imports alpha_py.errors only."""
import math
from numbers import Real

from ..errors import ArgumentError


def _number(who, name, v, lo=None, lo_open=False, hi=None, hi_open=False):
    ok = isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(v)
    if ok and lo is not None:
        ok = v > lo if lo_open else v >= lo
    if ok and hi is not None:
        ok = v < hi if hi_open else v <= hi
    if not ok:
        rng = f"{'(' if lo_open else '['}{lo}, {hi}{')' if hi_open else ']'}"
        raise ArgumentError(f"{who}: {name} must be a number in {rng}, got {v!r}")
    return float(v)


class LrSchedular:
    """Base: `lr` is the current learning rate, `t` the number of next_learning_rate() calls since
    init(lr). Subclasses compute lr from (init_lr, t) or from the previous lr."""

    def __init__(self):
        self.init_lr = self.lr = None
        self.t = 0

    def init(self, lr):
        self.init_lr = self.lr = float(lr)
        self.t = 0
        return self

    def learning_rate(self):
        return self.lr

    def next_learning_rate(self):
        if self.init_lr is None:
            raise ArgumentError(f"{type(self).__name__}: attach it to an optimizer first "
                                "(opt.lrSchedular(s)), which calls init(lr)")
        self.t += 1
        self.lr = self._next()
        return self.lr

    def _next(self):
        raise NotImplementedError(type(self).__name__)

    def state(self):
        """Checkpoint values (floats) under the optimizer key prefix `lr_schedular.`."""
        return {"init_lr": self.init_lr, "lr": self.lr, "t": float(self.t)}

    def load_state(self, values):
        self.init_lr, self.lr, self.t = float(values["init_lr"]), float(values["lr"]), int(values["t"])

    def __repr__(self):
        return f"{type(self).__name__}(init_lr={self.init_lr}, lr={self.lr}, t={self.t})"


class CosAnnealingLr(LrSchedular):
    """Dragon-Alpha v1.2's CosAnnealingLr: after the t-th update, lr = minLr + (init_lr - minLr) * (1 + cos((t - 1) *
    pi / Tmax)) (v1.2's next_learning_rate with its epoch counter from 0: no halving, so the second update runs at
    2 * init_lr - minLr; periodic with period 2 * Tmax). Tmax counts updates; v1.2's defaults Tmax = pi, minLr = 1e-4
    come from AlphaParam (optim.cosAnnealingLr). `CosineLr` is the halved form."""

    def __init__(self, Tmax, minLr):
        super().__init__()
        self.Tmax = _number(self._who, "Tmax", Tmax, 0, True)
        self.minLr = _number(self._who, "minLr", minLr, 0)

    _who = "cosAnnealingLr"

    def _next(self):
        return self.minLr + (self.init_lr - self.minLr) * (1.0 + math.cos(math.pi * (self.t - 1) / self.Tmax))


class CosineLr(CosAnnealingLr):
    """lr_t = minLr + (init_lr - minLr) * (1 + cos(pi * t / Tmax)) / 2, t = updates so far: from init_lr down to minLr
    after Tmax updates (periodic: it climbs back after Tmax, period 2*Tmax). An extension (not in v1.2): what
    `alpha train` schedules. cosineLr(Tmax=1000, minLr=0)."""

    _who = "cosineLr"

    def __init__(self, Tmax=1000, minLr=0.0):
        super().__init__(Tmax, minLr)

    def _next(self):
        return self.minLr + (self.init_lr - self.minLr) * (1.0 + math.cos(math.pi * self.t / self.Tmax)) / 2.0


class ExponentialLr(LrSchedular):
    """lr_t = max(minLr, lr_{t-1} * gamma), gamma in (0, 1]."""

    def __init__(self, gamma, minLr=0.0):
        super().__init__()
        self.gamma = _number("exponentialLr", "gamma", gamma, 0, True, 1)
        self.minLr = _number("exponentialLr", "minLr", minLr, 0)

    def _next(self):
        return max(self.minLr, self.lr * self.gamma)


class LambdaLr(LrSchedular):
    """mode "update" (default; Dragon-Alpha's LambdaLr(Function<Float, Float>)): lr_t = fn(lr_{t-1}).
    mode "factor" (an extension, PyTorch's LambdaLR): lr_t = init_lr * fn(t), t = updates so far."""

    MODES = ("factor", "update")

    def __init__(self, fn, mode="update"):
        super().__init__()
        if not callable(fn):
            raise ArgumentError(f"lambdaLr: expected a callable (lr -> next lr, or t -> factor), got {type(fn).__name__}")
        if mode not in self.MODES:
            raise ArgumentError(f"lambdaLr: mode must be one of {self.MODES}, got {mode!r}")
        self.fn, self.mode = fn, mode

    def _next(self):
        x = self.t if self.mode == "factor" else self.lr
        f = self.fn(x)
        if not isinstance(f, Real) or isinstance(f, bool) or not math.isfinite(f) or f < 0:
            what = "fn" if self.mode == "factor" else "the updater"
            raise ArgumentError(f"lambdaLr: {what}({x}) returned {f!r}, expected a finite number >= 0")
        return self.init_lr * float(f) if self.mode == "factor" else float(f)
