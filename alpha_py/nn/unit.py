"""nn layer: Parameter, Unit (an op with optional parameters, forward/backward written in engine
primitives), Module (user graphs over Unit fields) and Sequence. Imports engine/ (tensor, autograd)."""
from collections import OrderedDict

from ..core.autograd import Node, free_graph, refs, run_backward
from ..core.tensor import LazyData, Tensor
from ..errors import ArgumentError, ShapeError, StateError, fmt_shape


class Parameter(Tensor):
    """A named tensor owned by a unit; only trainable ones receive gradients."""

    def __init__(self, engine, data, name, trainable=True):
        super().__init__(engine, data)
        self.name, self.trainable = name, trainable

    def accumulate_grad(self, g):
        if self.trainable:
            super().accumulate_grad(g)
        return self

    def ts(self):
        return self

    def __repr__(self):
        return f"Parameter({self.name}, {fmt_shape(self.shape)})"


def as_tensors(args, who):
    """Flatten forward/backward arguments: f(x), f(x, y), f([x, y]) all work. `who`: a name or a Unit."""
    out = []
    for a in args:
        if isinstance(a, Tensor):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out.extend(as_tensors(a, who))
        else:
            who = who.describe() if isinstance(who, Unit) else who
            raise ShapeError(f"{who}: expected Tensor arguments, got {type(a).__name__}")
    return out


def _auto(unit):
    """The loop recorder of the unit's engine (engine/autoloop.py), or None."""
    return None if unit.engine is None else unit.engine.auto


def _call(unit, kind, fn, args):
    """A public call: through the loop recorder when auto_graph is on, else one Engine.public call."""
    a = _auto(unit)
    return (fn(*args) if unit.engine is None else unit.engine.public(fn, args)) if a is None else \
        a.call(kind, unit, fn, args)


def _flush(unit):
    """A change the deferred work of the loop recorder must not see: run that work first."""
    _auto(unit) is not None and unit.engine.auto.flush()


class Unit:
    """Base of every layer. Subclasses implement `_fwd(eg, *arrays) -> (outs, ctx)` and
    `_bwd(eg, ctx, grads_out, needs) -> grads_in`, plus `_create_params(eg)` if they own any."""

    n_inputs = 1          # None: any number >= 1

    def __init__(self):
        self.engine = None
        self._name = None
        self.training = True
        self._need_grads = True
        self._params = OrderedDict()     # short name ('weight') -> Parameter
        self._last_in = None
        self._last_out = None

    # ------------------------------------------------------------------ identity
    def name(self):
        return self._name or type(self).__name__

    def describe(self):
        return f"{type(self).__name__} '{self.name()}'"

    def error(self, msg, cls=ShapeError):
        return cls(f"{self.describe()}: {msg}")

    def __repr__(self):
        return self.describe()

    def println(self):
        print(self.describe())
        for n, p in self.param_map().items():
            print(f"  {n}: {fmt_shape(p.shape)}")
        return self

    # ------------------------------------------------------------------ lifecycle
    def init(self, engine, name=None):
        _flush(self)
        self.engine = engine
        self._name = name or self._name or type(self).__name__
        old = self._params
        self._params = OrderedDict()
        self._create_params(engine)
        for short, p in self._params.items():
            p.name = f"{self._name}.{short}"
            if short in old and old[short].shape == p.shape:   # re-init keeps loaded values
                p.data = old[short].data
        return self

    def attach(self, engine, name):
        """Take an engine and a name without creating parameters: for a container whose children were
        init-ed elsewhere (the mirror of a Java Module, whose Java side init-s each child). Returns self."""
        self.engine, self._name = engine, name
        return self

    def _create_params(self, eg):
        """Allocate and initialise parameters with self._param(...)."""

    def _param(self, short, array, trainable=True):
        p = Parameter(self.engine, array, short, trainable)
        self._params[short] = p
        return p

    def engine_of(self, inputs):
        return self.engine or inputs[0].engine

    def train(self):
        _flush(self)
        self.training = True
        return self

    def eval(self):
        _flush(self)
        self.training = False
        return self

    def need_grads(self, flag=None):
        if flag is None:
            return self._need_grads
        _flush(self)
        self._need_grads = bool(flag)
        for p in self._params.values():
            if p.name.rsplit(".", 1)[-1] in ("weight", "bias"):
                p.trainable = self._need_grads
        return self

    def units(self):
        """This unit and every unit below it, depth first."""
        return [self]

    def find(self, cls):
        match = (lambda u: type(u).__name__ == cls) if isinstance(cls, str) else (lambda u: isinstance(u, cls))
        return [u for u in self.units() if match(u)]

    def params(self):
        return list(self.param_map().values())

    def param_map(self):
        """Trainable parameters by full name."""
        return OrderedDict((p.name, p) for u in self.units() for p in u._params.values() if p.trainable)

    def state_map(self):
        """Everything a checkpoint holds: parameters and buffers (e.g. BatchNorm running stats)."""
        return OrderedDict((p.name, p) for u in self.units() for p in u._params.values())

    def delete(self):
        for u in self.units():
            for p in u._params.values():
                p.delete()
        self.gc()

    def clear_grads(self):
        a = _auto(self)
        return self._clear_grads() if a is None else a.call("zero", self, self._clear_grads, ())

    def _clear_grads(self):
        for p in self.state_map().values():
            p.zero_grad()
        return self

    # ------------------------------------------------------------------ forward / backward
    def _require_init(self):
        if self._params or self.needs_init():
            if self.engine is None:
                raise self.error("used before init(engine): call unit.init(engine) first", StateError)

    def needs_init(self):
        return False

    def check_inputs(self, xs):
        """Validate input tensors (rank/shape/dtype); raise self.error(...) when wrong."""

    def _reads_lazy(self, eg):
        """Does _fwd take an input's LazyData (core/tensor.py) as it is, instead of its computed data?"""
        return False

    def takes_grad_sums(self, ctx):
        """Does _bwd (with this forward's ctx) take an output gradient given as a GradSum (core/autograd.py: two
        gradients not summed yet) and add them in its own kernel?"""
        return False

    def takes_grad_bits(self, ctx):
        """Does _bwd (with this forward's ctx) take an output gradient given as a GradBits (core/autograd.py: its
        bf16 bits only) as those bits?"""
        return False

    def _check_count(self, xs):
        if self.n_inputs is not None and len(xs) != self.n_inputs:
            raise self.error(f"expected {self.n_inputs} input tensor(s), got {len(xs)}")
        if not xs:
            raise self.error("expected at least one input tensor")
        eg = self.engine_of(xs)
        for x in xs:
            if x.engine is not eg:
                raise self.error(f"input {fmt_shape(x.shape)} lives on another engine ({x.engine.dataType()}) "
                                 f"than the unit's ({eg.dataType()})")
            if x._dtype() != eg.backend.dtype:
                raise self.error(f"input {fmt_shape(x.shape)} has dtype {x._dtype()}, "
                                 f"expected {eg.backend.dtype}")

    def _apply(self, xs):
        """Run the op on tensors, record the autograd node, return output tensors."""
        self._require_init()
        eg = self.engine_of(xs)
        if eg.is_check:
            self._check_count(xs)
            self.check_inputs(xs)
        if eg.anomaly:                  # data entering the net (a leaf input) is named as such
            eg.check_finite(self, "forward", [(f"input {i} (data, no unit made it)", x.data)
                                              for i, x in enumerate(xs) if x.node is None])
        outs, ctx = self._fwd(eg, *[x.data if type(x._lazy) is not LazyData or not self._reads_lazy(eg)
                                    else x._lazy for x in xs])
        if eg.anomaly:
            eg.check_finite(self, "forward", [(f"output {i}", o) for i, o in enumerate(outs)])
        record = False
        for x in xs:
            if x.node is not None or x._need_grad:
                record = True
                break
        else:
            if self._need_grads:
                for p in self._params.values():
                    if p.trainable:
                        record = True
                        break
        node = Node(self, xs, ctx, len(outs)) if record else None
        return [eg.wrap(o, node, i) for i, o in enumerate(outs)]

    def forward(self, *X):
        xs = as_tensors(X, self)
        return _call(self, "fwd", self._forward, xs)

    def _forward(self, *xs):
        xs = list(xs)
        outs = self._run(xs)
        self._last_in, self._last_out = refs(xs), refs(outs)      # Refs: no data kept (core/autograd.py)
        return outs

    def _run(self, xs):
        return self._apply(xs)

    def __call__(self, *X):
        return self.forward(*X)

    def backward(self, *grads):
        """Back-propagate gradients of this unit's last outputs; returns gradients of its last
        inputs (None for inputs that need none). Accumulates parameter gradients."""
        gs = as_tensors(grads, self)
        return _call(self, "bwd", self._backward, gs)

    def backward_params(self, *grads):
        """backward() for a step that never reads its input gradients (alpha.train_step): the parameters' gradients
        only — an input's gradient is computed only where the input needs one itself (need_grad, or a unit below it),
        so a net's first layer skips its data gradient. Returns []."""
        gs = as_tensors(grads, self)
        return _call(self, "bwd", self._backward_params, gs)

    def _backward_params(self, *gs):
        self._backward(*gs, inputs=False)
        return []

    def _backward(self, *gs, inputs=True):
        if self._last_out is None:
            raise self.error("backward() before forward() (or after gc())", StateError)
        if len(gs) != len(self._last_out):
            raise self.error(f"backward: {len(self._last_out)} outputs, got {len(gs)} gradients")
        for y, g in zip(self._last_out, gs):
            if y.shape != g.shape:
                raise self.error(f"backward: gradient {fmt_shape(g.shape)} does not match output "
                                 f"{fmt_shape(y.shape)}")
        eg = self._last_out[0].engine
        res = run_backward(self._last_out, [g.data for g in gs], self._last_in if inputs else ())
        return [None if r is None else eg.wrap(r) for r in res]

    def record_forward(self, outputs, inputs=None):
        """Take `outputs` (and `inputs`, when given) as this unit's last forward: for a forward driven from
        elsewhere (a Java Module calls its units one by one), so that backward() and gc() act on it."""
        a = _auto(self)
        if a is not None:                    # logged like a forward, so a Java Module's loop is captured too
            return a.record_forward(self, outputs, inputs)
        self._last_out = refs(outputs)
        self._last_in = self._last_in if inputs is None else refs(inputs)
        return self

    def gc(self):
        """Free this step's graph (saved intermediates) below the last outputs."""
        return _call(self, "gc", self._gc, ())

    def _gc(self):
        if self._last_out is not None:
            free_graph(self._last_out)
        self._last_in = self._last_out = None
        return self

    # ------------------------------------------------------------------ helpers for subclasses
    def _fwd(self, eg, *xs):
        raise NotImplementedError(f"{type(self).__name__}._fwd")

    def _bwd(self, eg, ctx, gys, needs):
        raise NotImplementedError(f"{type(self).__name__}._bwd")


def check_positive(unit_name, **kw):
    for k, v in kw.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0 or v != v:
            raise ArgumentError(f"{unit_name}: {k} must be a positive number, got {v!r}")


class Module(Unit):
    """User graph: declare units as attributes in __init__, override __forward__(*X).
    Optional hook `__post_init__(engine)` runs after init() created every parameter."""

    n_inputs = None

    def _children(self):
        for field, v in list(vars(self).items()):
            if field.startswith("_") or field == "engine":
                continue
            if isinstance(v, Unit):
                yield field, v
            elif isinstance(v, (list, tuple)) and v and all(isinstance(u, Unit) for u in v):
                for i, u in enumerate(v):
                    yield f"{field}.{type(u).__name__}{i}", u

    def units(self):
        out = [self]
        for _, u in self._children():
            out.extend(u.units())
        return out

    def needs_init(self):
        return True

    def init(self, engine, name=None):
        self.engine = engine
        self._name = name or self._name or type(self).__name__
        for field, u in self._children():
            u.init(engine, f"{self._name}.{field}")
        hook = getattr(self, "__post_init__", None)
        if hook is not None:
            hook(engine)
        return self

    def train(self):
        _flush(self)
        for u in self.units():
            u.training = True
        return self

    def eval(self):
        _flush(self)
        for u in self.units():
            u.training = False
        return self

    def need_grads(self, flag=None):
        if flag is None:
            return self._need_grads
        for u in self.units():
            if u is self:
                self._need_grads = bool(flag)
            else:
                u.need_grads(flag)
        return self

    def _run(self, xs):
        self._require_init()
        outs = self.__forward__(*xs)
        outs = [outs] if isinstance(outs, Tensor) else as_tensors(outs, self)
        return outs

    def __forward__(self, *X):
        raise NotImplementedError(f"{type(self).__name__}.__forward__")

    def _gc(self):
        super()._gc()
        for u in self.units()[1:]:
            u._last_in = u._last_out = None
        return self
