"""The op vocabulary (alpha_py.ops) is the one owner of activation and optimizer-rule names: every row
reaches the nn factory, alpha.F, the backends' dispatch and the CUDA kernels (enumerators and compiled
instances), and nothing names an activation or rule that the tables do not have."""
import re

import pytest

from alpha_py import F, alpha, nn
from alpha_py.backend import kernel_loader as kl
from alpha_py.backend.base import ArrayBackend
from alpha_py.backend.optim_ops import STEP_SCALARS, kernel_scalars
from alpha_py.nn.activation import ACTIVATION_CLASSES, Activation
from alpha_py.ops import ACT_IDENTITY, ACTIVATIONS, MATH, OPTIM_RULES, grad_from_output, slope_from_sign
from alpha_py.optim.rules import OPTIMIZERS


def enumerators(header, enum):
    """The enumerator names of `enum <enum> : int { ... }` in kernels/<header>."""
    with open(f"{kl.kernel_dir()}/{header}", encoding="utf-8") as f:
        body = re.search(r"enum\s+" + enum + r"\s*:\s*int\s*\{([^}]*)\}", f.read()).group(1)
    return [item.split("=")[0].strip() for item in body.split(",") if item.strip()]


def instances(family):
    return set(kl.parse_instances(kl.module_source(family)[0]))


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_every_activation_reaches_nn_F_and_both_backends(name):
    spec = ACTIVATIONS[name]
    unit = getattr(nn, name)()
    assert type(unit) is ACTIVATION_CLASSES[name] and type(unit).__name__ == spec.unit
    assert isinstance(unit, Activation) and unit.act == name
    for fn in (name, f"add_{name}", f"{name}_dropout"):
        assert fn in F.NAMES
    assert type(nn.fuse(nn.batchNorm(3), unit)).__name__ == f"BatchNorm_{spec.unit}"
    for way in ("fwd", "bwd"):
        assert callable(getattr(ArrayBackend, f"_{way}_{name}"))
    x = alpha.engine.cpu_float32().tensor([[-1.0, 0.5, 2.0]])
    assert getattr(F, name)(x)[0].shape == (1, 3)


def test_activation_parameters_come_from_the_table():
    for name, spec in ACTIVATIONS.items():
        u = getattr(nn, name)()
        assert [[u.p1, u.p2][slot - 1] for slot in spec.slots[:len(spec.params)]] == [p.default for p in spec.params]
    assert nn.leakyRelu(0.2).p1 == pytest.approx(0.2) and nn.elu(True, 0.5, 1.5).inplace
    assert nn.elu(alpha=2.0).p2 == 2.0 and nn.elu(negative_slope=0.3).p1 == pytest.approx(0.3)


def test_activation_kernels_are_the_table_plus_identity():
    assert enumerators("act.cuh", "ActId") == [ACT_IDENTITY] + [a.kernel for a in ACTIVATIONS.values()]
    kernels = [a.kernel for a in ACTIVATIONS.values()]
    with_identity = [ACT_IDENTITY] + kernels
    assert instances("elementwise") == {f"{k}<{a}>" for k in ("act_fwd", "act_bwd", "add_act_fwd", "add_act_bwd")
                                           for a in kernels}
    assert instances("batchnorm") == ({f"bn_apply<{a}>" for a in with_identity}
                                      | {f"bn_bwd_apply<{a}>" for a in with_identity}
                                      | {f"{k}<2,{a}>" for a in with_identity for k in ("bn_partial", "bn_partial8")}
                                      | {f"{k}<3,{ACT_IDENTITY}>" for k in ("bn_partial", "bn_partial8")})


def test_bf16_twin_kernels_and_the_sign_derivative():
    """kernels/bf16_act.cu has add_act_twin for every activation; only relu and leakyRelu (slope >= 0) take their
    derivative from y's sign (ops.slope_from_sign), and those are among the from-y activations."""
    assert instances("bf16_act") == {f"add_act_twin<{a.kernel}>" for a in ACTIVATIONS.values()}
    assert slope_from_sign("relu") == 0.0 and slope_from_sign("leakyRelu", 0.2) == pytest.approx(0.2)
    assert slope_from_sign("leakyRelu", -0.1) is None
    assert [a for a in ACTIVATIONS if slope_from_sign(a, 0.01) is not None] == ["relu", "leakyRelu"]
    assert all(grad_from_output(a, 0.01) for a in ("relu", "leakyRelu"))


def test_math_kernels_are_the_math_table():
    """kernels/math.cu has one MathId enumerator per ops.MATH row, in its order, and a math_fwd / math_bwd instance
    of each; the batched GEMM has every T1 / T2 form."""
    assert enumerators("math.cu", "MathId") == [m.kernel for m in MATH.values()]
    assert instances("math") == {f"math_{d}<{m.kernel}>" for d in ("fwd", "bwd") for m in MATH.values()}
    assert instances("gemm_batched") == {f"gemm_batched<{bm},{bn},{t1},{t2},{v}>" for bm in (64, 128)
                                         for bn in (64, 128) for t1 in (0, 1) for t2 in (0, 1) for v in (0, 1)}


def test_every_optimizer_rule_has_one_optimizer_a_cpu_step_and_a_kernel():
    assert sorted(cls.rule for cls in OPTIMIZERS) == sorted(OPTIM_RULES)
    assert enumerators("optim.cu", "OptimRuleId") == [r.kernel for r in OPTIM_RULES.values()]
    assert instances("optim") == {f"optim_step<{r.kernel}>" for r in OPTIM_RULES.values()}
    for name, rule in OPTIM_RULES.items():
        assert callable(getattr(ArrayBackend, f"_step_{name}"))
        assert rule.scalars is None or rule.scalars in STEP_SCALARS
        assert set(k for k in rule.h + rule.k if k is not None) <= set(rule.hp), name
        assert rule.flag is None or rule.flag in rule.hp or rule.flag == "rectified", name
        assert len(rule.states) <= 3 and len(rule.h) <= 3 and len(rule.k) <= 3


@pytest.mark.parametrize("cls", OPTIMIZERS, ids=[c.__name__ for c in OPTIMIZERS])
def test_optimizer_hyper_parameters_cover_their_rule(cls):
    """Every key the rule reads (and the kernel packs) is one of the optimizer's hyper-parameters."""
    rule = OPTIM_RULES[cls.rule]
    hp = dict(cls.defaults, step=3)
    assert set(rule.hp) - {"amsgrad"} <= set(hp), cls.__name__
    assert len(kernel_scalars(cls.rule, hp)) == 13
