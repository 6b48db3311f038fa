"""optim layer: the Optimizer base — parameters, hyper-parameters with chained setters, update() /
clear_grads(), the scheduler hook and the checkpoint state map. All update math is ONE backend
primitive, backend.optim_step (see backend/optim_ops.py). Hyper-parameters not given take the class defaults,
or the AlphaParam fields v1.2 reads for them (read when the optimizer is made). Imports core.tensor,
backend.optim_ops, alpha_py.params."""
import math
from collections import OrderedDict
from numbers import Real

from ..backend.optim_ops import state_names
from ..core.tensor import Tensor, settle_lazy
from ..errors import ArgumentError
from ..params import AlphaParam
from .schedulers import LrSchedular

_UNIT = ("a number in [0, 1)", lambda v: 0.0 <= v < 1.0)
HP_RULES = {
    "lr": ("a number > 0", lambda v: v > 0.0),
    "eps": ("a number > 0", lambda v: v > 0.0),
    "L1": ("a number >= 0", lambda v: v >= 0.0),
    "L2": ("a number >= 0", lambda v: v >= 0.0),
    "dampen": ("a number in [0, 1]", lambda v: 0.0 <= v <= 1.0),
    "beta": _UNIT, "beta1": _UNIT, "beta2": _UNIT, "beta3": _UNIT, "momentum": _UNIT,
}
FLAGS = ("nesterov", "amsgrad")
SCHED_KEYS = ("init_lr", "lr", "t")


def hp_method(name, doc=None):
    """A Dragon-Alpha style accessor: opt.name() -> value, opt.name(v) -> sets, returns opt."""
    def method(self, value=None):
        if value is None:
            return self._hp[name]
        self._set_hp(name, value)
        return self
    method.__name__ = name
    method.__doc__ = doc or f"{name}() -> current value; {name}(v) sets it and returns self."
    return method


def _collect(params, who):
    """params(): list of Parameters (named by p.name); param_map(): dict name -> Parameter; or a
    Unit (its param_map()). Returns (names, params)."""
    if hasattr(params, "param_map") and callable(params.param_map):
        params = params.param_map()
    if isinstance(params, dict):
        names, plist = [str(k) for k in params], list(params.values())
    elif isinstance(params, (list, tuple)):
        plist = list(params)
        names = [getattr(p, "name", None) or f"param{i}" for i, p in enumerate(plist)]
    else:
        raise ArgumentError(f"{who}: expected net.params() (a list) or net.param_map() (a dict), "
                            f"got {type(params).__name__}")
    if not plist:
        raise ArgumentError(f"{who}: no parameters to optimize")
    for n, p in zip(names, plist):
        if not isinstance(p, Tensor):
            raise ArgumentError(f"{who}: parameter {n!r} is a {type(p).__name__}, expected a Parameter")
    if len({id(p) for p in plist}) != len(plist):
        raise ArgumentError(f"{who}: the same parameter is listed twice")
    if len(set(names)) != len(names):
        raise ArgumentError(f"{who}: duplicate parameter names {sorted(n for n in names if names.count(n) > 1)}")
    engines = {id(p.engine) for p in plist}
    if len(engines) != 1:
        raise ArgumentError(f"{who}: parameters live on {len(engines)} different engines")
    return names, plist


class Optimizer:
    """Base of every optimizer. Subclasses set `rule` (a backend optim_step rule), `positional` (the
    order of numeric constructor arguments after params), `defaults` and `alpha_params` (hyper-parameter ->
    the AlphaParam field its default is read from, as v1.2's alpha.optim overloads do)."""

    rule = None
    positional = ("lr", "L1", "L2")
    defaults = {"lr": 1e-2, "L1": 0.0, "L2": 0.0}
    alpha_params = {}

    def _positional_for(self, n):
        """The names of n numeric constructor arguments (v1.2 overloads may skip some)."""
        return self.positional

    learning_rate = hp_method("lr", "learning_rate() -> lr; learning_rate(v) sets lr (re-initialises an "
                                    "attached scheduler at v) and returns self.")
    L1 = hp_method("L1", "L1 decay coefficient: g += L1*sign(w) (decoupled in AdamW).")
    L2 = hp_method("L2", "L2 decay coefficient: g += L2*w (decoupled in AdamW).")

    def __init__(self, params, *args, **kw):
        who = type(self).__name__
        self._names, self._params = _collect(params, who)
        self._engine = self._params[0].engine
        nums = []
        for i, a in enumerate(args):
            if isinstance(a, Real) and len(nums) == i:
                nums.append(a)
            elif callable(a) or (isinstance(a, str) and a == "println"):   # Dragon-Alpha println
                kw.setdefault("println", True)
            else:
                raise ArgumentError(f"{who}: unexpected argument {a!r} at position {i + 1} "
                                    f"(numeric arguments: {', '.join(self.positional)})")
        if len(nums) > len(self.positional):
            raise ArgumentError(f"{who}: {len(nums)} numeric arguments, expected at most "
                                f"{len(self.positional)} ({', '.join(self.positional)})")
        show = kw.pop("println", False)
        self._hp = dict(self.defaults)
        for name, field in self.alpha_params.items():
            self._set_hp(name, getattr(AlphaParam, field))
        for name, v in list(zip(self._positional_for(len(nums)), nums)) + list(kw.items()):
            if name not in self._hp:
                raise ArgumentError(f"{who}: unknown hyper-parameter {name!r}, expected one of "
                                    f"{sorted(self._hp)}")
            self._set_hp(name, v)
        self._step = 0
        self._schedular = None
        self._state = OrderedDict()
        self._layout = 0                 # bumped whenever the state arrays are replaced
        self._scalars = None             # device buffer of the step scalars (backend.optim_scalar_buffer)
        self._alloc_states()
        if show:
            self.println()

    # ------------------------------------------------------------------ hyper-parameters
    def _set_hp(self, name, v):
        who = type(self).__name__
        if name in FLAGS:
            if not (isinstance(v, bool) or (isinstance(v, Real) and v in (0, 1))):
                raise ArgumentError(f"{who}: {name} must be a bool, got {v!r}")
            self._hp[name] = bool(v)
            return
        what, ok = HP_RULES[name]
        if isinstance(v, bool) or not isinstance(v, Real) or not math.isfinite(v) or not ok(float(v)):
            raise ArgumentError(f"{who}: {name} must be {what}, got {v!r}")
        self._hp[name] = float(v)
        if name == "lr" and self._schedular_attached():
            self._schedular.init(self._hp["lr"])

    def _schedular_attached(self):
        return getattr(self, "_schedular", None) is not None

    def hyper_params(self):
        """A copy of the hyper-parameters (lr is the current, possibly scheduled, rate)."""
        return dict(self._hp)

    def _flush(self):
        """A change the loop recorder's deferred work must not see (engine/autoloop.py): run it first."""
        a = getattr(getattr(self, "_engine", None), "auto", None)
        if a is not None:
            a.flush()

    def _alloc_states(self):
        self._flush()
        b = self._engine.backend
        names = state_names(self.rule, self._hp.get("amsgrad", False))
        for n in list(self._state):
            if n not in names:
                del self._state[n]
        for n in names:
            if n not in self._state:
                self._state[n] = [b.full(p.shape, 0.0) for p in self._params]
        self._layout += 1

    # ------------------------------------------------------------------ scheduler
    def lrSchedular(self, schedular=None):
        """lrSchedular() -> the attached scheduler; lrSchedular(s) attaches s (init at the current
        lr; None detaches) and returns self. The scheduler advances once per update()."""
        if schedular is None:
            return self._schedular
        self._flush()
        if not isinstance(schedular, LrSchedular):
            raise ArgumentError(f"{type(self).__name__}: lrSchedular expects a scheduler from alpha.optim "
                                f"(cosAnnealingLr, exponentialLr, lambdaLr), got {type(schedular).__name__}")
        self._schedular = schedular.init(self._hp["lr"])
        return self

    lrScheduler = lrSchedular

    # ------------------------------------------------------------------ stepping
    def params(self):
        return list(self._params)

    def param_map(self):
        return OrderedDict(zip(self._names, self._params))

    def steps(self):
        """Number of update() calls so far (the bias-correction step t)."""
        return self._step

    def update(self, *args):
        """One optimizer step over every parameter that has a gradient (others are skipped), then
        advance the scheduler. Returns self: opt.update().clear_grads(). `update(0)`, the form of
        the Dragon-Alpha paper's Figure 2, is the same call (its released sources define no
        argument, so no other value is guessed at)."""
        a = self._engine.auto
        return self._update(*args) if a is None else a.call("update", self, self._update, args)

    def _update(self, *args):
        if args and (len(args) != 1 or isinstance(args[0], bool) or not isinstance(args[0], Real)
                     or args[0] != 0):
            got = ", ".join(map(repr, args))
            raise ArgumentError(f"{type(self).__name__}.update: got update({got}); expected update() "
                                "or Dragon-Alpha's update(0)")
        hp = self._begin_step()
        idx = [i for i, p in enumerate(self._params) if p.grad_data is not None]
        if idx:
            settle_lazy()                        # lazy BatchNorm outputs still held: computed before gamma moves
            b = self._engine.backend
            b.optim_step(self.rule, [self._params[i].data for i in idx],
                         [self._params[i].grad_data for i in idx],
                         {n: [arrs[i] for i in idx] for n, arrs in self._state.items()}, hp,
                         scalars=self._scalar_buffer())
            self._engine.wait_if_sync()
        self._end_step()
        return self

    def _begin_step(self):
        self._step += 1
        return dict(self._hp, step=self._step)

    def _end_step(self):
        if self._schedular is not None:
            self._hp["lr"] = self._schedular.next_learning_rate()

    def _scalar_buffer(self):
        if self._scalars is None:
            self._scalars = self._engine.backend.optim_scalar_buffer()
        return self._scalars

    def replay_update(self):
        """update() of a step replayed from a CUDA graph: the same host bookkeeping (step count, scheduler)
        and the device write of this step's scalars; the graph holds the update kernel itself."""
        hp = self._begin_step()
        self._engine.backend.optim_write_scalars(self.rule, hp, self._scalar_buffer())
        self._end_step()
        return self

    def host_state(self):
        """Host-side state a step changes (step count, hyper-parameters, scheduler) for restore_host_state."""
        sched = self._schedular.state() if self._schedular is not None else None
        return self._step, dict(self._hp), sched

    def restore_host_state(self, state):
        self._step, hp, sched = state
        self._hp = dict(hp)
        if sched is not None and self._schedular is not None:
            self._schedular.load_state(sched)

    def clear_grads(self):
        a = self._engine.auto
        return self._clear_grads() if a is None else a.call("zero", self, self._clear_grads, ())

    def _clear_grads(self):
        for p in self._params:
            p.zero_grad()
        return self

    # ------------------------------------------------------------------ checkpoint state
    def state_map(self):
        """Checkpoint view: '<param name>.<state>' -> Tensor sharing the state array, 'step' -> [t],
        and 'lr_schedular.init_lr|lr|t' -> [v] when a scheduler is attached."""
        self._flush()
        eg, b = self._engine, self._engine.backend
        out = OrderedDict()
        for i, name in enumerate(self._names):
            for n, arrs in self._state.items():
                out[f"{name}.{n}"] = Tensor(eg, arrs[i])
        out["step"] = Tensor(eg, b.full((1,), float(self._step), dtype="float64"))
        if self._schedular is not None:          # scalars in float64: exact lr / step on reload
            for k, v in self._schedular.state().items():
                out[f"lr_schedular.{k}"] = Tensor(eg, b.full((1,), float(v), dtype="float64"))
        return out

    def load_state_map(self, values):
        """Set state from host arrays keyed like state_map() (alpha.stat validates keys and shapes
        first; keys absent from `values` keep their current value)."""
        self._flush()
        b = self._engine.backend
        for i, name in enumerate(self._names):
            for n, arrs in self._state.items():
                v = values.get(f"{name}.{n}")
                if v is not None:
                    arrs[i][...] = b.from_host(v.reshape(arrs[i].shape))
        if "step" in values:
            self._step = int(round(float(values["step"].reshape(-1)[0])))
        sched = {k: values.get(f"lr_schedular.{k}") for k in SCHED_KEYS}
        if self._schedular is not None and all(v is not None for v in sched.values()):
            self._schedular.load_state({k: float(v.reshape(-1)[0]) for k, v in sched.items()})
            self._hp["lr"] = self._schedular.lr
        return self

    # ------------------------------------------------------------------ printing
    def __repr__(self):
        hp = ", ".join(f"{k}={v}" for k, v in self._hp.items())
        return f"{type(self).__name__}({len(self._params)} params, step={self._step}, {hp})"

    def println(self):
        print(repr(self))
        return self
