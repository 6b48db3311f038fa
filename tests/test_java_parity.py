"""Dragon-Alpha forms the Java facade maps onto Python, checked on the Python side: opt.update(0)
and LambdaLr's Dragon-Alpha mode (lr_t = fn(lr_{t-1})). The Java side: JUnit ParityTest."""
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import ArgumentError


@pytest.mark.parametrize("bad", [(5,), (1, 2), (True,), (0.5,), ("0",)])
def test_update_zero_only(bad):
    """Dragon-Alpha's opt.update(0) (the paper's Figure 2) is update(); other arguments are refused."""
    eg = alpha.engine.cpu_float32()
    fc = nn.fullconnect(True, 2, 2).init(eg)
    fc.forward(eg.ones(1, 2))
    fc.backward(eg.ones(1, 2))
    opt = alpha.optim.SGD(fc.param_map(), 0.1)
    assert opt.update(0).update().steps() == 2
    with pytest.raises(ArgumentError, match=r"SGD\.update: got update\(.*\); expected update\(\)"):
        opt.update(*bad)
    assert opt.steps() == 2


def test_lambda_lr_dragon_alpha_mode():
    """mode="update" (the default) is Dragon-Alpha's LambdaLr: lr_t = fn(lr_{t-1}); "factor" is init_lr * fn(t)."""
    eg = alpha.engine.cpu_float32()
    fc = nn.fullconnect(True, 2, 2).init(eg)
    opt = alpha.optim.SGD(fc.param_map(), 0.8).lrSchedular(alpha.optim.lambdaLr(lambda lr: lr * 0.5, "update"))
    opt.update().update().update()
    assert opt.learning_rate() == pytest.approx(0.1)
    pt = alpha.optim.SGD(fc.param_map(), 0.8).lrSchedular(alpha.optim.lambdaLr(lambda t: 1.0 / (1 + t), "factor"))
    pt.update().update()
    assert pt.learning_rate() == pytest.approx(0.8 / 3)
    with pytest.raises(ArgumentError, match="mode must be one of"):
        alpha.optim.lambdaLr(lambda lr: lr, "epoch")
    bad = alpha.optim.SGD(fc.param_map(), 0.1).lrSchedular(alpha.optim.lambdaLr(lambda lr: -lr, "update"))
    with pytest.raises(ArgumentError, match=r"the updater\(0\.1\) returned -0\.1"):
        bad.update()
