"""Test helper: float64 central finite-difference gradient checks for units, F functions and losses."""
import numpy as np

from alpha_py import alpha

EPS = 1e-6
TOL = 1e-6


def engine64(seed=0):
    return alpha.engine.cpu_float64().set_seed(seed)


def rel_err(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-12))


def _numeric(f, arr, idx):
    old = arr[idx]
    arr[idx] = old + EPS
    fp = f()
    arr[idx] = old - EPS
    fm = f()
    arr[idx] = old
    return (fp - fm) / (2 * EPS)


def _sample(arr, max_points, rng):
    n = arr.size
    flat = range(n) if n <= max_points else rng.choice(n, max_points, replace=False)
    return [np.unravel_index(i, arr.shape) for i in flat]


def check_unit(unit, shapes, seed=0, max_points=40, tol=TOL, reseed=None, inputs=None):
    """Gradient of sum(r * unit(x...)) w.r.t. every input and parameter, analytic vs numeric.
    `unit` is an nn Unit (not yet init-ed) or a callable(list of tensors) -> list of tensors."""
    eg = engine64(seed)
    rng = np.random.RandomState(seed)
    xs_np = inputs if inputs is not None else [rng.randn(*s) for s in shapes]
    xs = [eg.tensor(a.copy()).need_grad(True) for a in xs_np]
    is_unit = hasattr(unit, "init")
    if is_unit:
        unit.init(eg)
    fwd = (lambda ts: unit.forward(*ts)) if is_unit else unit

    def run(ts):
        if reseed is not None:
            eg.set_seed(reseed)
        return fwd(ts)

    outs = run(xs)
    rs = [rng.randn(*o.shape) for o in outs]
    if is_unit:
        gx = unit.backward(*[eg.tensor(r) for r in rs])
        grads_in = [g.numpy() if g is not None else None for g in gx]
        params = list(unit.param_map().values())
        grads_p = [p.grad_data for p in params]
    else:
        from alpha_py.core.autograd import run_backward
        for x in xs:
            x.zero_grad()
        run_backward(outs, [eg.tensor(r).data for r in rs])
        grads_in = [x.grad_data for x in xs]
        params, grads_p = [], []

    def scalar():
        ys = run(xs)
        return float(sum((y.numpy() * r).sum() for y, r in zip(ys, rs)))

    errs = {}
    for k, (x, g) in enumerate(zip(xs, grads_in)):
        assert g is not None, f"no gradient reached input {k}"
        pts = _sample(x.data, max_points, rng)
        num = [_numeric(scalar, x.data, i) for i in pts]
        ana = [np.asarray(g)[i] for i in pts]
        errs[f"x{k}"] = rel_err(ana, num)
    for p, g in zip(params, grads_p):
        assert g is not None, f"no gradient reached parameter {p.name}"
        pts = _sample(p.data, max_points, rng)
        num = [_numeric(scalar, p.data, i) for i in pts]
        ana = [np.asarray(g)[i] for i in pts]
        errs[p.name] = rel_err(ana, num)
    bad = {k: v for k, v in errs.items() if not v < tol}
    assert not bad, f"gradient mismatch (relative error > {tol}): {bad}"
    return errs


def check_loss(loss_fn, yh_np, y_np, tol=TOL, max_points=60, seed=0):
    """Loss gradient vs finite differences of loss(yh, y).get()."""
    eg = engine64(seed)
    rng = np.random.RandomState(seed)
    yh, y = eg.tensor(yh_np.copy()), eg.tensor(y_np)
    g = loss_fn.gradient(yh, y).numpy()
    pts = _sample(yh.data, max_points, rng)
    num = [_numeric(lambda: loss_fn.loss(yh, y).get(), yh.data, i) for i in pts]
    err = rel_err([g[i] for i in pts], num)
    assert err < tol, f"{loss_fn}: gradient relative error {err} > {tol}"
    return err
