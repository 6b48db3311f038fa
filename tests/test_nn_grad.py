"""Gradient checks (float64 central differences) for every nn unit: all conv forms, norm family,
activations, dropout, pools, shape units, combiners and the fused units."""
import numpy as np
import pytest

from alpha_py import nn
from cases import (ACTS, ADD_ACTS, COMBINE_CASES, CONV_CASES, FUSED_CASES, NORM_CASES, POOL_CASES,
                   SHAPE_CASES)
from gradcheck import check_unit


@pytest.mark.parametrize("name,args,shape", CONV_CASES, ids=[f"{c[0]}{c[1]}" for c in CONV_CASES])
def test_conv_family_grad(name, args, shape):
    check_unit(getattr(nn, name)(*args), [shape], max_points=25)


@pytest.mark.parametrize("biased", [True, False])
def test_fullconnect_grad(biased):
    check_unit(nn.fullconnect(biased, 5, 3), [(4, 5)])
    check_unit(nn.fullconnect(biased, 3, 2), [(2, 3, 3)])       # rank 3: rows of the last dim


@pytest.mark.parametrize("make,shape,training", [c[1:] for c in NORM_CASES], ids=[c[0] for c in NORM_CASES])
def test_norm_grad(make, shape, training):
    u = make()
    if not training:
        u.eval()
    check_unit(u, [shape])


@pytest.mark.parametrize("name,args", ACTS, ids=[f"{a}{b}" for a, b in ACTS])
def test_activation_grad(name, args):
    x = np.random.RandomState(3).randn(3, 5) * 3.0          # covers relu6 / hard_sigmoid flat parts
    check_unit(getattr(nn, name)(*args), None, inputs=[x])


@pytest.mark.parametrize("keep_p", [0.5, 0.8, 1.0])
def test_dropout_grad(keep_p):
    check_unit(nn.dropout(keep_p), [(4, 6)], reseed=7)


@pytest.mark.parametrize("name,args,shape", POOL_CASES, ids=[f"{c[0]}{c[1]}" for c in POOL_CASES])
def test_pool_grad(name, args, shape):
    check_unit(getattr(nn, name)(*args), [shape])


@pytest.mark.parametrize("make,shapes", [c[1:] for c in SHAPE_CASES], ids=[c[0] for c in SHAPE_CASES])
def test_shape_grad(make, shapes):
    check_unit(make(), shapes)


@pytest.mark.parametrize("make,shapes", [c[1:] for c in COMBINE_CASES], ids=[c[0] for c in COMBINE_CASES])
def test_combine_grad(make, shapes):
    check_unit(make(), shapes)


def test_div_grad():
    rng = np.random.RandomState(1)
    a, b = rng.randn(3, 4), rng.uniform(0.5, 2.0, (3, 4)) * np.sign(rng.randn(3, 4))
    check_unit(nn.div(), None, inputs=[a, b])


def test_split_grad_when_one_output_unused():
    """Only the second piece feeds the result: the unused piece's gradient must count as zero."""
    from alpha_py import alpha
    from alpha_py.core.autograd import run_backward
    eg = alpha.engine.cpu_float64()
    x = eg.tensor(np.arange(12.0).reshape(2, 6)).need_grad(True)
    _, b = nn.split(1, 2, 4).forward(x)
    run_backward([b], [np.ones((2, 4))])
    np.testing.assert_array_equal(x.grad_data, np.tile([0, 0, 1, 1, 1, 1], (2, 1)))


@pytest.mark.parametrize("make,shape,reseed", [c[1:] for c in FUSED_CASES], ids=[c[0] for c in FUSED_CASES])
def test_fused_grad(make, shape, reseed):
    check_unit(make(), [shape], reseed=reseed)


@pytest.mark.parametrize("act", ADD_ACTS)
def test_fused_add_act_grad(act):
    check_unit(getattr(nn, f"add_{act}")(), [(3, 4), (3, 4)])


@pytest.mark.parametrize("act", ["relu", "softplus", "tanh"])
def test_global_batchNorm_act_grad(act):
    """global_batchNorm_<act> (v1.2 name): the fused unit, gradient-checked in eval mode (training updates
    the running stats on every forward, so finite differences see a moving function)."""
    u = getattr(nn, f"global_batchNorm_{act}")(3).eval()
    assert type(u).__name__ == f"GlobalBatchNorm_{act[0].upper() + act[1:]}"
    check_unit(u, [(6, 3)])
