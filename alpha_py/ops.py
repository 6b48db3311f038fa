"""Vocabulary layer: the op vocabulary — every elementwise activation and every optimizer rule, named once.
The nn factory methods and unit classes, alpha.F's names, the backends' dispatch, the CUDA kernel instances
(enumerators of kernels/act.cuh, kernels/optim.cu and kernels/math.cu) and the tests' parameters are derived from
these tables. Imports nothing from alpha_py (the bottom layer, beside errors)."""
from typing import NamedTuple, Optional


class Param(NamedTuple):
    """A hyper-parameter of an activation: a finite number >= minimum (> minimum when `open`)."""
    name: str
    default: float
    minimum: float
    open: bool = False
    what: Optional[str] = None          # how messages call it (default: name)


class Activation(NamedTuple):
    """One elementwise activation. nn.<name>([inplace,] params...), F.<name>([params...,] X), and the fused
    batchNorm_<name>, affine_<name>, add_<name>, <name>_dropout; backend.act_fwd/act_bwd(name, ..., p1, p2)
    with the params as p1, p2 (in the order `slots` gives); on the GPU act_fwd<kernel>, act_bwd<kernel>, add_act_fwd<kernel>,
    bn_apply<kernel>, bn_bwd_apply<kernel>, bn_partial<2,kernel> (kernel: an enumerator of kernels/act.cuh)."""
    name: str
    unit: str
    kernel: str
    params: tuple
    doc: str
    slots: tuple = (1, 2)               # which kernel parameter (p1 / p2) each of `params` becomes
    from_y: bool = False                # act' is a function of y alone: act_bwd(gy, y, y) == act_bwd(gy, x, y) bit for
                                        # bit (slopes >= 0), so a unit keeps only its output for backward


ACTIVATIONS = {a.name: a for a in (
    Activation("relu", "Relu", "ACT_RELU", (), "y = max(x, 0).", from_y=True),
    Activation("relu6", "Relu6", "ACT_RELU6", (), "y = min(max(x, 0), 6).", from_y=True),
    Activation("leakyRelu", "LeakyRelu", "ACT_LEAKY_RELU", (Param("slope", 0.01, 0.0, what="negative slope"),),
               "y = x if x > 0 else slope * x (slope default 0.01).", from_y=True),
    Activation("elu", "Elu", "ACT_ELU", (Param("alpha", 1.0, 0.0, open=True),
                                         Param("negative_slope", 0.01, 0.0, what="negative slope")),
               "y = alpha * (x if x > 0 else negative_slope * (exp(x) - 1)); v1.2's alpha=1, negative_slope=0.01 "
               "by default (the kernels' p2 = alpha, p1 = negative_slope).", slots=(2, 1)),
    Activation("softplus", "Softplus", "ACT_SOFTPLUS", (), "y = log(1 + exp(x))."),
    Activation("gelu", "Gelu", "ACT_GELU", (), "tanh approximation of GELU."),
    Activation("sigmoid", "Sigmoid", "ACT_SIGMOID", (), "y = 1 / (1 + exp(-x)).", from_y=True),
    Activation("hard_sigmoid", "HardSigmoid", "ACT_HARD_SIGMOID", (), "y = clip(x/6 + 1/2, 0, 1)."),
    Activation("tanh", "Tanh", "ACT_TANH", (), "y = tanh(x).", from_y=True),
)}


def grad_from_output(name, p1=0.0):
    """Can activation `name` (parameter p1) be differentiated from its output alone, bit for bit? (Its units then
    keep only y for backward, so x's memory can go.)"""
    spec = ACTIVATIONS.get(name)
    return spec is not None and spec.from_y and p1 >= 0.0


def slope_from_sign(name, p1=0.0):
    """act'(x) = 1 where y > 0, else a constant slope (relu: 0; leakyRelu with slope p1 >= 0: p1) -> that slope, or
    None for the other activations: the derivative then needs only y's sign (bf16 training keeps y's bf16 bits)."""
    if name == "relu":
        return 0.0
    return float(p1) if name == "leakyRelu" and p1 >= 0.0 else None

ACT_IDENTITY = "ACT_IDENTITY"        # kernels/act.cuh: no activation (plain batchNorm: bn_apply<ACT_IDENTITY>)


class OptimRule(NamedTuple):
    """One optimizer update rule (its math: backend/optim_ops.py). Optimizer.rule names it; on the GPU it
    runs as optim_step<kernel> (an enumerator of kernels/optim.cu) reading the step's scalars packed from
    this row: h_i = hp[h[i]], k_i = 1 - hp[k[i]] (0 where a slot is absent or None), flag = the
    hyper-parameter or per-step scalar `flag`, and L1/L2 times lr when `decoupled` (AdamW: decay applied to
    the weight, not added to the gradient)."""
    name: str
    kernel: str
    states: tuple                       # state arrays, in the kernel's s0, s1, s2 order
    hp: tuple                           # hyper-parameters read besides step, lr, L1, L2
    h: tuple = ()
    k: tuple = ()
    flag: Optional[str] = None
    scalars: Optional[str] = None       # per-step lr_t / eps_t family (backend/optim_ops.STEP_SCALARS)
    decoupled: bool = False


_ADAM = dict(states=("exp_avg", "exp_avg_sq"), hp=("beta1", "beta2", "eps", "amsgrad"), h=("beta1", "beta2"),
             k=("beta1", "beta2"), flag="amsgrad", scalars="adam")
OPTIM_RULES = {r.name: r for r in (
    OptimRule("sgd", "OPTIM_SGD", (), ()),
    OptimRule("momentum", "OPTIM_MOMENTUM", ("velocity",), ("beta",), h=("beta",), k=("beta",)),
    OptimRule("sgdmn", "OPTIM_SGDMN", ("velocity",), ("momentum", "dampen", "nesterov"), h=("momentum",),
              k=(None, "dampen"), flag="nesterov"),
    OptimRule("rmsprop", "OPTIM_RMSPROP", ("exp_avg_sq",), ("beta", "eps"), h=("beta",), k=("beta",)),
    OptimRule("adam", "OPTIM_ADAM", **_ADAM),
    OptimRule("adamw", "OPTIM_ADAMW", **_ADAM, decoupled=True),
    OptimRule("adamax", "OPTIM_ADAMAX", ("exp_avg", "exp_inf"), ("beta1", "beta2", "eps"), h=("beta1", "beta2"),
              k=("beta1", "beta2"), scalars="adamax"),
    OptimRule("radam", "OPTIM_RADAM", ("exp_avg", "exp_avg_sq"), ("beta1", "beta2", "eps"), h=("beta1", "beta2"),
              k=("beta1", "beta2"), flag="rectified", scalars="radam"),
    OptimRule("adamod", "OPTIM_ADAMOD", ("exp_avg", "exp_avg_sq", "exp_avg_lr"), ("beta1", "beta2", "beta3", "eps"),
              h=("beta1", "beta2", "beta3"), k=("beta1", "beta2", "beta3"), scalars="adamod"),
)}
AMSGRAD_STATE = "max_exp_avg_sq"     # the extra state of a rule whose hp has "amsgrad", when it is on


class MathOp(NamedTuple):
    """One Dragon-Alpha element-wise math function. nn.<name>([inplace,] params...) / F.<name>([params...,] X)
    with the params in one of `forms` (chosen by how many are given; the others keep `defaults`);
    backend.math_fwd/math_bwd(name, ..., params) compute it (backend/math_ops.py over NumPy; on the GPU the
    kernels math_fwd<kernel>, math_bwd<kernel> of kernels/math.cu). u = alpha*x + beta where the row has alpha, beta."""
    name: str
    unit: str
    kernel: str                          # its MathId enumerator in kernels/math.cu (math_fwd<K>, math_bwd<K>)
    forms: tuple                         # allowed parameter lists, e.g. (("vmax",), ("alpha", "beta", "vmax"))
    defaults: dict
    doc: str


_AB = ((), ("alpha", "beta"))
_ID = {"alpha": 1.0, "beta": 0.0}
MATH = {m.name: m for m in (
    MathOp("abs", "Abs", "MATH_ABS", _AB, _ID, "y = |alpha*x + beta|."),
    MathOp("sin", "Sin", "MATH_SIN", _AB, _ID, "y = sin(alpha*x + beta)."),
    MathOp("cos", "Cos", "MATH_COS", _AB, _ID, "y = cos(alpha*x + beta)."),
    MathOp("tan", "Tan", "MATH_TAN", _AB, _ID, "y = tan(alpha*x + beta)."),
    MathOp("cot", "Cot", "MATH_COT", _AB, _ID, "y = cot(alpha*x + beta)."),
    MathOp("csc", "Csc", "MATH_CSC", _AB, _ID, "y = 1 / sin(alpha*x + beta)."),
    MathOp("sec", "Sec", "MATH_SEC", _AB, _ID, "y = 1 / cos(alpha*x + beta)."),
    MathOp("arcsin", "Arcsin", "MATH_ARCSIN", _AB, _ID, "y = arcsin(alpha*x + beta)."),
    MathOp("arctan", "Arctan", "MATH_ARCTAN", _AB, _ID, "y = arctan(alpha*x + beta)."),
    MathOp("exp", "Exp", "MATH_EXP", _AB, _ID, "y = exp(alpha*x + beta)."),
    MathOp("log", "Log", "MATH_LOG", _AB, _ID, "y = log(alpha*x + beta)."),
    MathOp("sqrt", "Sqrt", "MATH_SQRT", _AB, _ID, "y = sqrt(alpha*x + beta)."),
    MathOp("square", "Square", "MATH_SQUARE", ((), ("alpha",)), {"alpha": 1.0}, "y = alpha * x^2."),
    MathOp("quadratic", "Quadratic", "MATH_QUADRATIC", (("alpha", "beta", "gamma"),), {},
           "y = alpha*x^2 + beta*x + gamma."),
    MathOp("linear", "Linear", "MATH_LINEAR", (("alpha", "beta"),), {}, "y = alpha*x + beta."),
    MathOp("sadd", "SAdd", "MATH_SADD", (("C",),), {}, "y = x + C."),
    MathOp("ssub", "SSub", "MATH_SSUB", (("C",),), {}, "y = x - C."),
    MathOp("smul", "SMul", "MATH_SMUL", (("C",),), {}, "y = x * C."),
    MathOp("sdiv", "SDiv", "MATH_SDIV", (("C",),), {}, "y = x / C."),
    MathOp("rpl", "Rpl", "MATH_RPL", ((), ("alpha", "beta", "gamma")), {"alpha": 1.0, "beta": 0.0, "gamma": 0.0},
           "y = alpha / (x + beta) + gamma (reciprocal)."),
    MathOp("max", "Max", "MATH_MAX", (("vmax",), ("alpha", "beta", "vmax")), _ID, "y = max(alpha*x + beta, vmax)."),
    MathOp("min", "Min", "MATH_MIN", (("vmin",), ("alpha", "beta", "vmin")), _ID, "y = min(alpha*x + beta, vmin)."),
    MathOp("clip", "Clip", "MATH_CLIP", (("vmin", "vmax"), ("alpha", "beta", "vmin", "vmax")), _ID,
           "y = min(max(alpha*x + beta, vmin), vmax)."),
    MathOp("reluN", "ReluN", "MATH_RELU_N", (("N",),), {}, "y = min(max(x, 0), N)."),
    MathOp("halfSin", "HalfSin", "MATH_HALF_SIN", (("Amp",), ("Amp", "alpha", "beta")), _ID,
           "y = 2*Amp*|sin(alpha*x + beta)| - Amp."),
)}
MATMULS = {"matMul": "Y = X1 @ X2", "matMulT1": "Y = X1^T @ X2", "matMulT2": "Y = X1 @ X2^T",
           "batchMatMul": "Y[b] = X1[b] @ X2[b]", "batchMatMulT1": "Y[b] = X1[b]^T @ X2[b]",
           "batchMatMulT2": "Y[b] = X1[b] @ X2[b]^T"}
