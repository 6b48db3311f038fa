"""A diverging Java training loop (java/examples/alpha/examples/Diverge.java) under both bridges: the step whose
loss goes NaN throws an AlphaException (NonFiniteError) with the same message under JPype and Py4J, and the same
as Python's; "skip" runs on; anomaly mode names the unit. Skipped without java/javac."""
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import NonFiniteError
from java_support import NEEDS_JDK, run_jpype, run_py4j

pytestmark = NEEDS_JDK


def python_message():
    """Diverge.java's loop written in Python: its NonFiniteError message."""
    eg = alpha.engine.cpu_float32().set_seed(7)
    x, y = eg.gaussian(0.0, 1.0, 16, 8), eg.onehot([0, 1, 2, 3] * 4, 4)
    eg.set_seed(7)
    net = nn.sequence(nn.fullconnect(True, 8, 16), nn.relu(), nn.fullconnect(True, 16, 4)).train().init(eg)
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), alpha.optim.SGD(net.param_map(), 1e4))
    with pytest.raises(NonFiniteError) as ei:
        for _ in range(50):
            step(x, y)
    return str(ei.value)


def test_diverging_java_loop_same_message_under_both_bridges(classes):
    pytest.importorskip("jpype")
    outs = {}
    for bridge, run in (("jpype", run_jpype), ("py4j", run_py4j)):
        out = run(classes, "alpha.examples.Diverge")
        outs[bridge] = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
        assert outs[bridge]["bridge"] == bridge
    a, b = outs["jpype"], outs["py4j"]
    assert a["stop"] == b["stop"] == "NonFiniteError|NonFiniteError: " + python_message()
    assert "training diverged: loss nan (not finite) at step 7, learning rate 10000" in a["stop"]
    assert a["steps"] == b["steps"] == "6"                  # six finite steps, the seventh threw
    assert int(a["skipped"]) == int(b["skipped"]) > 0
    assert a["anomaly"] == b["anomaly"]
    assert a["anomaly"].startswith("NonFiniteError: anomaly: FullConnect 'Sequence.FullConnect2' forward: output 0 "
                                   "[16,4] holds Inf at step 7"), a["anomaly"]
