"""alpha.train_step on the CPU engine (op by op): bit-equal to the hand-written loop, lazy per-step Results
that keep their own value, history, accuracy, clear errors, a failing step that changes nothing, the
optimizer's host/device scalars, and the CLI's --graph/--no-graph. The CUDA graph path: test_cuda_graph.py."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py import step as step_mod
from alpha_py.backend.optim_ops import kernel_scalars, optim_scalars
from alpha_py.errors import AlphaError, ArgumentError, ShapeError, StateError


def small_net(dropout=True):
    units = [nn.conv3D(False, 3, 6, 3, 1, 1), nn.batchNorm_leakyRelu(6), nn.maxPool2D(2),
             nn.flatten(), nn.fullconnect(6 * 4 * 4, 12), nn.relu()]
    if dropout:
        units.append(nn.dropout(0.7))
    return nn.sequence(*units, nn.fullconnect(12, 5))


def batches(n=6, rows=8, seed=0):
    rng = np.random.RandomState(seed)
    return [(rng.randn(rows, 8, 8, 3).astype(np.float32), np.eye(5, dtype=np.float32)[rng.randint(0, 5, rows)])
            for _ in range(n)]


def make(optim="Adam", seed=3, dropout=True):
    eg = alpha.engine.cpu_float32().set_seed(seed)
    net = small_net(dropout).train().init(eg)
    opt = getattr(alpha.optim, optim)(net.params(), 1e-2)
    return eg, net, opt, alpha.loss.softmax_crossEntropy()


def manual(data, optim, dropout=True, lr=None):
    eg, net, opt, ce = make(optim, dropout=dropout)
    if lr is not None:
        opt.learning_rate(lr)
    eg.set_seed(11)
    losses = []
    for x, y in data:
        X, Y = eg.tensor(x), eg.tensor(y)
        yh = net.forward(X)[0]
        losses.append(ce.loss(yh, Y).get())
        net.backward(ce.gradient(yh, Y))
        opt.update().clear_grads()
        net.gc()
    return losses, net, opt


def state_of(net, opt):
    out = {k: v.numpy().copy() for k, v in net.state_map().items()}
    out.update({"opt." + k: v.numpy().copy() for k, v in opt.state_map().items()})
    return out


@pytest.mark.parametrize("optim", ["SGD", "Adam"])
def test_step_equals_hand_written_loop(optim):
    data = batches()
    ref_losses, ref_net, ref_opt = manual(data, optim)
    eg, net, opt, ce = make(optim)
    eg.set_seed(11)
    step = alpha.train_step(net, ce, opt)
    results = [step(eg.tensor(x), eg.tensor(y)) for x, y in data]
    assert [r.get() for r in results] == ref_losses
    assert [r.step for r in results] == list(range(1, len(data) + 1))
    want, got = state_of(ref_net, ref_opt), state_of(net, opt)
    assert want.keys() == got.keys()
    for k in want:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)
    assert step.stats() == {"eager": len(data), "captures": 0, "replays": 0, "skipped": 0, "graphs": 0,
                            "mode": "eager", "fallback": None,
                            "memory": {"planned": 0, "pooled": 0, "arena_bytes": 0, "replans": 0, "pool_steps": 0,
                                       "states": []}}
    assert opt.steps() == len(data) and all(p.grad_data is None for p in net.params())


def test_reduce_grads_runs_between_backward_and_update():
    """The data-parallel hook: it sees every parameter with its fresh gradient before the update; halving
    the gradients here must equal the hand-written loop at half the learning rate (SGD)."""
    data = batches(4)
    ref_losses, ref, ref_opt = manual(data, "SGD", dropout=False, lr=5e-3)
    eg, net, opt, ce = make("SGD", dropout=False)
    seen = []

    def halve(params):
        seen.append([p.grad_data is not None for p in params])
        for p in params:
            g = p.grad_data
            p.zero_grad().accumulate_grad(g * np.float32(0.5))

    step = alpha.train_step(net, ce, opt, reduce_grads=halve)
    losses = [step(eg.tensor(x), eg.tensor(y)).get() for x, y in data]
    assert losses == ref_losses and len(seen) == 4 and all(all(row) for row in seen)
    assert len(seen[0]) == len(net.param_map())
    for k, v in state_of(ref, ref_opt).items():
        if not k.startswith("opt."):
            np.testing.assert_array_equal(state_of(net, opt)[k], v, err_msg=k)
    with pytest.raises(ArgumentError, match="reduce_grads must be a callable"):
        alpha.train_step(net, ce, opt, reduce_grads=3)


def test_results_keep_their_own_value_when_slots_are_reused(monkeypatch):
    monkeypatch.setattr(step_mod, "RING", 3)
    data = batches(10)
    ref_losses, _, _ = manual(data, "Adam")
    eg, net, opt, ce = make("Adam")
    eg.set_seed(11)
    step = alpha.train_step(net, ce, opt, accuracy=True)
    results = [step(eg.tensor(x), eg.tensor(y)) for x, y in data]      # read only after 10 steps (ring of 3)
    assert [r.get() for r in results] == ref_losses
    assert all(0.0 <= r.accuracy.get() <= 1.0 for r in results)


def test_accuracy_and_history():
    data = batches(5)
    eg, net, opt, ce = make("SGD", dropout=False)
    ref = make("SGD", dropout=False)
    step = alpha.train_step(net, ce, opt, accuracy=True, history=True)
    accs = []
    for x, y in data:
        X, Y = ref[0].tensor(x), ref[0].tensor(y)
        yh = ref[1].forward(X)[0]
        accs.append(ref[0].accuracy(yh, Y).get())
        ref[1].backward(ref[3].gradient(yh, Y))
        ref[2].update().clear_grads()
        ref[1].gc()
    results = [step(eg.tensor(x), eg.tensor(y)) for x, y in data[:3]]
    h = step.history()
    assert h["loss"] == [r.get() for r in results] and h["accuracy"] == accs[:3]
    results += [step(eg.tensor(x), eg.tensor(y)) for x, y in data[3:]]
    h = step.history()
    assert h["loss"] == [r.get() for r in results[3:]] and h["accuracy"] == accs[3:]
    assert step.history() == {"loss": [], "accuracy": []}


def test_history_keeps_every_step_beyond_the_ring(monkeypatch):
    monkeypatch.setattr(step_mod, "RING", 4)
    data = batches(11)
    eg, net, opt, ce = make("SGD", dropout=False)
    kept = alpha.train_step(net, ce, opt, history=True)
    losses = [kept(eg.tensor(x), eg.tensor(y)).get() for x, y in data]
    assert kept.history()["loss"] == losses
    eg2, net2, opt2, _ = make("SGD", dropout=False)
    last = alpha.train_step(net2, ce, opt2)            # history=False: only the newest RING steps remain
    for x, y in data:
        last(eg2.tensor(x), eg2.tensor(y))
    assert last.history() == {"loss": losses[-4:], "accuracy": None}


def test_failing_step_changes_nothing_and_the_net_trains_on():
    data = batches(4)
    ref_losses, ref_net, ref_opt = manual(data, "Adam")
    eg, net, opt, ce = make("Adam")
    eg.set_seed(11)
    step = alpha.train_step(net, ce, opt)
    first = step(eg.tensor(data[0][0]), eg.tensor(data[0][1]))
    before = state_of(net, opt)
    with pytest.raises(ShapeError, match=r"softmax_crossEntropy.*\[8,5\].*\[8,4\]"):
        step(eg.tensor(data[1][0]), eg.tensor(data[1][1][:, :4]))      # labels of the wrong width
    after = state_of(net, opt)
    for k in before:
        np.testing.assert_array_equal(after[k], before[k], err_msg=k)
    assert opt.steps() == 1 and all(p.grad_data is None for p in net.params())
    rest = [step(eg.tensor(x), eg.tensor(y)) for x, y in data[1:]]
    assert [first.get()] + [r.get() for r in rest] == ref_losses     # as if the failed step never ran
    want, got = state_of(ref_net, ref_opt), state_of(net, opt)
    for k in want:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)


def test_clear_errors():
    eg, net, opt, ce = make()
    with pytest.raises(ArgumentError, match=r"graph=True.*CUDA engine.*cpu_float32.*graph=None"):
        alpha.train_step(net, ce, opt, graph=True)
    with pytest.raises(ArgumentError, match="graph must be None"):
        alpha.train_step(net, ce, opt, graph="yes")
    with pytest.raises(ArgumentError, match="net must be a Unit"):
        alpha.train_step(lambda x: x, ce, opt)
    with pytest.raises(ArgumentError, match="loss_fn must come from alpha.loss"):
        alpha.train_step(net, "ce", opt)
    with pytest.raises(ArgumentError, match="optimizer must come from alpha.optim"):
        alpha.train_step(net, ce, None)
    with pytest.raises(StateError, match="not initialised"):
        alpha.train_step(small_net(), ce, opt)
    other = alpha.engine.cpu_float32()
    with pytest.raises(ArgumentError, match="use one engine"):
        alpha.train_step(small_net().init(other), ce, opt)
    step = alpha.train_step(net, ce, opt, graph=False)
    x, y = batches(1)[0]
    with pytest.raises(ShapeError, match=r"input \[8,8,8,3\] and labels \[7,5\]"):
        step(eg.tensor(x), eg.tensor(y[:7]))
    with pytest.raises(ArgumentError, match="y must be a Tensor"):
        step(eg.tensor(x), y)
    with pytest.raises(ArgumentError, match="x lives on another engine"):
        step(other.tensor(x), eg.tensor(y))
    assert isinstance(step(eg.tensor(x), eg.tensor(y)).get(), float)
    assert issubclass(ShapeError, AlphaError)


def test_run_is_the_bridge_entry_and_counters_are_empty_on_cpu():
    eg, net, opt, ce = make(dropout=False)
    step = alpha.train_step(net, ce, opt, None)        # positional, as the Java bridge passes it
    x, y = batches(1)[0]
    r = step.run(eg.tensor(x), eg.tensor(y))
    assert type(r).__mro__[2].__name__ == "Result" and r.get() > 0 and "mode=eager" in repr(step)
    assert eg.counters() == {} and step.close() is step


def test_kernel_scalars_follow_the_host_rule():
    hp = {"lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "L1": 0.0, "L2": 0.5, "amsgrad": True}
    for t in (1, 2, 50):
        sc = optim_scalars("adam", dict(hp, step=t))
        k = kernel_scalars("adam", dict(hp, step=t))
        assert k[:3] == (1e-3, sc["lr_t"], sc["eps_t"]) and k[3:5] == (0.9, 0.999) and k[12] == 1.0
    assert kernel_scalars("adamw", dict(hp, step=1))[9:11] == (0.0, 1e-3 * 0.5)
    flags = [kernel_scalars("radam", dict(hp, step=t))[12] for t in range(1, 9)]
    assert flags[0] == 0.0 and flags[-1] == 1.0                     # rectification switches on with t
    assert kernel_scalars("sgdmn", {"lr": 0.1, "momentum": 0.8, "dampen": 0.25, "nesterov": True,
                                    "step": 1})[3:9] == (0.8, 0.0, 0.0, 0.0, 0.75, 0.0)


def test_cli_graph_flag():
    from alpha_py.cli import parse_args
    base = ["train", "--model", "mnist_cnn", "--dataset", "mnist5k"]
    assert parse_args(base).graph is None
    assert parse_args(base + ["--graph"]).graph is True
    assert parse_args(base + ["--no-graph"]).graph is False


def test_cli_graph_on_cpu_is_a_clear_error(capsys, tmp_path):
    from alpha_py.cli import main
    rc = main(["train", "--model", "mnist_cnn", "--dataset", "mnist5k", "--limit", "64", "--test-limit", "50",
               "--epochs", "1", "--no-progress", "--graph", "--checkpoint", str(tmp_path / "c.ckpt")])
    assert rc == 2
    assert "graph=True" in capsys.readouterr().err


def test_a_step_skips_the_input_gradient_and_still_equals_the_loop(monkeypatch):
    """train_step back-propagates with backward_params: the first convolution's data gradient (x's gradient, which
    nothing reads) is not computed, and losses and every parameter and optimizer state equal the hand-written loop's
    (whose backward computes it) bit for bit."""
    data = batches(3)
    ref_losses, ref_net, ref_opt = manual(data, "Adam")
    eg, net, opt, ce = make("Adam")
    eg.set_seed(11)
    calls, plain = [], eg.backend.conv_bwd_data
    monkeypatch.setattr(eg.backend, "conv_bwd_data", lambda *a, **k: calls.append(a[2]) or plain(*a, **k))
    step = alpha.train_step(net, ce, opt)
    assert [step(eg.tensor(x), eg.tensor(y)).get() for x, y in data] == ref_losses
    assert calls == []                                   # the only convolution reads x: no data gradient at all
    want, got = state_of(ref_net, ref_opt), state_of(net, opt)
    for k in want:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)
    x = eg.tensor(data[0][0])
    yh = net.forward(x)[0]
    assert net.backward_params(ce.gradient(yh, eg.tensor(data[0][1]))) == []
    assert calls == [] and all(p.grad_data is not None for p in net.params() if p.trainable)
    net.gc()
