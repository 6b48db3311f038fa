"""Vocabulary layer: v1.2's `Alpha.AlphaParam` — the global defaults that the facade's overloads read at call
time (nn.leakyRelu() takes AlphaParam.leakyRelu_neg_slope, optim.Adam(params) takes Adam_lr, ...). Field names,
types and defaults are v1.2's. Imports alpha_py.errors only."""
import math
import threading
from contextlib import contextmanager
from numbers import Real

from .errors import ArgumentError


def _flag():
    return ("a bool", lambda v: isinstance(v, bool))


def _num(what, ok):
    return (what, lambda v: (isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(v) and ok(float(v))))


_UNIT = _num("a number in [0, 1)", lambda v: 0.0 <= v < 1.0)
_POS = _num("a finite number > 0", lambda v: v > 0.0)
_NONNEG = _num("a finite number >= 0", lambda v: v >= 0.0)

# name -> (v1.2's default, (what is expected, check), what reads it). Order and values: v1.2's Alpha.AlphaParam.
FIELDS = {
    "sp_math2_inplace": (True, _flag(), "the inplace flag of nn.relu/relu6/reluN/leakyRelu/elu/softplus/sigmoid/"
                         "hard_sigmoid/tanh/softmax/log_softmax/max/min/clip/rpl/linear/sadd/ssub/smul/sdiv/exp/log/"
                         "sqrt/tan/cot/arcsin/arctan/halfSin/bernouliMul/dropout() without one"),
    "sp_tensor_inplace": (True, _flag(), "the inplace flag of nn.view/reshape/flatten/transpose/rot180/pad/trim/"
                          "pad2D/trim2D/expand/crop/expand2D/crop2D() without one"),
    "sp_affine_inplace": (True, _flag(), "the inplace flag of nn.affine/layerNorm/batchNorm/global_batchNorm/"
                          "sqBatchNorm/global_sqBatchNorm() without one"),
    "leakyRelu_neg_slope": (0.01, _NONNEG, "leakyRelu's slope when none is given (nn, F, fused forms)"),
    "elu_alpha": (1.0, _POS, "elu's alpha when none is given (nn, F, fused forms)"),
    "elu_neg_slope": (0.01, _NONNEG, "elu's negative_slope when none is given (nn, F, fused forms)"),
    "batchNorm_affine": (True, _flag(), "affine of batchNorm/global_batchNorm/sqBatchNorm/global_sqBatchNorm(dims)"),
    "batchNorm_beta1": (0.9, _UNIT, "beta1 (run_mean) of the batchNorm family built from dims"),
    "batchNorm_beta2": (0.9, _UNIT, "beta2 (run_var / run_sqmean) of the batchNorm family built from dims"),
    "batchNorm_eps": (1e-5, _POS, "eps of the batchNorm family built from dims"),
    "layerNorm_affine": (True, _flag(), "affine of layerNorm(dims)"),
    "layerNorm_eps": (1e-5, _POS, "eps of layerNorm(dims)"),
    "avgpool2D_igpad": (False, _flag(), "avgPool2D / adaptive_avgPool2D: true divides each window by its "
                        "non-padding elements, false by kh*kw (padding counts as zeros)"),
    "avgpool1D_igpad": (False, _flag(), "avgPool1D / adaptive_avgPool1D, as avgpool2D_igpad"),
    "avgunpool2D_ignore_padding": (False, _flag(), "avgUnpool2D: true spreads each element as X/(its window's "
                                   "elements inside the output), false as X/(kh*kw)"),
    "dl_likeX1": (True, _flag(), "likeX1 of add/sub/mul/div/linear2/sqadd/sqsub/quadratic2/batchMatMul*/"
                  "add_<act>/linear2_<act>() without one"),
    "Momentum_beta": (0.9, _UNIT, "optim.Momentum(params, lr)"),
    "SGDMN_momentum": (0.9, _UNIT, "optim.SGDMN(params, lr)"),
    "SGDMN_dampen": (0.0, _num("a number in [0, 1]", lambda v: 0.0 <= v <= 1.0), "optim.SGDMN(params, lr)"),
    "nestrov": (0.0, ("0 or 1 (Alpha's SGDMN: Nesterov off or on)",
                      lambda v: isinstance(v, Real) and v in (0, 1)), "optim.SGDMN(params, lr)"),
    "RMSprop_lr": (1e-2, _POS, "optim.RMSprop(params)"),
    "RMSprop_beta": (0.99, _UNIT, "optim.RMSprop(params[, lr])"),
    "RMSprop_eps": (1e-8, _POS, "optim.RMSprop(params[, lr])"),
}
for _opt, _lr in (("Adam", 1e-3), ("Adamax", 2e-3), ("AdamW", 1e-3), ("RAdam", 1e-3), ("Adamod", 1e-3)):
    FIELDS[f"{_opt}_lr"] = (_lr, _POS, f"optim.{_opt}(params)")
    FIELDS[f"{_opt}_beta1"] = (0.9, _UNIT, f"optim.{_opt}(params[, lr])")
    FIELDS[f"{_opt}_beta2"] = (0.999, _UNIT, f"optim.{_opt}(params[, lr])")
    if _opt == "Adamod":
        FIELDS["Adamod_beta3"] = (0.999, _UNIT, "optim.Adamod(params[, lr])")
    FIELDS[f"{_opt}_eps"] = (1e-8, _POS, f"optim.{_opt}(params[, lr])")
    if _opt == "AdamW":
        FIELDS["AdamW_L1"] = (0.0, _NONNEG, "optim.AdamW(params[, lr, L2])")
        FIELDS["AdamW_L2"] = (1e-2, _NONNEG, "optim.AdamW(params)")
FIELDS["cosAnnealingLr_minLr"] = (0.0001, _NONNEG, "optim.cosAnnealingLr([Tmax])")
FIELDS["cosAnnealingLr_Tmax"] = (math.pi, _POS, "optim.cosAnnealingLr()")


_DEFAULTS = {k: v[0] for k, v in FIELDS.items()}


class _AlphaParam:
    """v1.2's Alpha.AlphaParam: `alpha.AlphaParam.leakyRelu_neg_slope = 0.2` makes every later nn.leakyRelu()
    (and F.leakyRelu(X), ...) use slope 0.2. A value is checked when set; an unknown name is refused.
    Extensions: reset([names...]) restores v1.2's defaults, values() / defaults() as dicts, is_default(),
    using(**values) for a block (this thread only)."""

    __slots__ = ("_values", "_local")

    def __init__(self):
        object.__setattr__(self, "_values", {k: v[0] for k, v in FIELDS.items()})
        object.__setattr__(self, "_local", threading.local())

    def __getattr__(self, name):
        if name in FIELDS:
            over = getattr(self._local, "over", None)
            return over[name] if over is not None else self._values[name]
        raise AttributeError(f"AlphaParam has no field {name!r}{_near(name)}")

    def __setattr__(self, name, value):
        self._values[name] = check(name, value)

    def __delattr__(self, name):
        raise ArgumentError(f"AlphaParam: fields cannot be deleted ({name!r}); reset({name!r}) restores the default")

    def __dir__(self):
        return list(FIELDS) + ["reset", "values", "changed", "defaults", "is_default", "using"]

    def reset(self, *names):
        """Restore v1.2's defaults (all fields, or the named ones). Returns self."""
        for name in names:
            if name not in FIELDS:
                raise ArgumentError(f"AlphaParam.reset: no field {name!r}{_near(name)}")
        for name in names or FIELDS:
            self._values[name] = FIELDS[name][0]
        return self

    def is_default(self):
        """True when every global value is v1.2's default."""
        return self._values == _DEFAULTS

    def values(self):
        """name -> current value (what the next factory call reads)."""
        return {k: getattr(self, k) for k in FIELDS}

    def changed(self):
        """name -> current value of the fields that differ from v1.2's defaults (what a job or checkpoint carries)."""
        return {k: v for k, v in self.values().items() if v != _DEFAULTS[k]}

    @staticmethod
    def defaults():
        """name -> v1.2's default."""
        return dict(_DEFAULTS)

    @contextmanager
    def using(self, **values):
        """Within the block, this thread reads v1.2's defaults updated with `values` (checked), whatever the
        global values are (the Java facade passes its own AlphaParam this way)."""
        over = self.defaults()
        over.update({k: check(k, v) for k, v in values.items()})
        prev = getattr(self._local, "over", None)
        self._local.over = over
        try:
            yield self
        finally:
            self._local.over = prev

    def __repr__(self):
        return "AlphaParam(" + ", ".join(f"{k}={v!r}" for k, v in self.values().items()) + ")"


def _near(name):
    low = name.lower()
    close = [k for k in FIELDS if k.lower() == low or low in k.lower() or k.lower() in low]
    return f" (did you mean {close[0]!r}?)" if close else f"; fields: {', '.join(FIELDS)}"


def check(name, value):
    """The value as stored (floats as float), or ArgumentError naming the field and what it expects."""
    if name not in FIELDS:
        raise ArgumentError(f"AlphaParam has no field {name!r}{_near(name)}")
    default, (what, ok), _ = FIELDS[name]
    if not ok(value):
        raise ArgumentError(f"AlphaParam.{name}: expected {what}, got {value!r} (v1.2's default: {default!r})")
    return value if isinstance(default, bool) else float(value)


AlphaParam = _AlphaParam()
