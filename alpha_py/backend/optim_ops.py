"""Backend layer: the optimizer primitive `optim_step` (one update of many parameters), written once
over the array module `xp`; mixed into ArrayBackend. A CUDA backend overrides `optim_step` with one
fused kernel launch over all parameters. The rules are the rows of alpha_py.ops.OPTIM_RULES; each has a
`_step_<rule>` method here. Imports math, alpha_py.ops and alpha_py.errors only.

Contract (what a fused implementation must do)
----------------------------------------------
    optim_step(rule, weights, grads, states, hp, scalars=None) -> None

rule     one of the names in alpha_py.ops.OPTIM_RULES.
weights  list of K float arrays (the parameters' `.data`), UPDATED IN PLACE (same array objects).
grads    list of K arrays, grads[i].shape == weights[i].shape, read only.
states   dict state name -> list of K arrays shaped like weights, UPDATED IN PLACE. The names
         present are OPTIM_RULES[rule].states, plus "max_exp_avg_sq" for adam/adamw with amsgrad.
         All states start at zero (the optimizer allocates them).
hp       dict of Python scalars: "step" (int t >= 1: this update is the t-th), "lr", "L1", "L2"
         and the rule's own keys (OPTIM_RULES[rule].hp). Host-side per-step scalars (bias
         corrections, RAdam rectification) come from `optim_scalars(rule, hp)`, which fused
         implementations should call too so both backends agree to the last bit of the scalars.
scalars  None, or the optimizer's buffer from `optim_scalar_buffer()` (None on the CPU). A device
         backend keeps the step's scalars there (`kernel_scalars`), so that a step captured into a
         CUDA graph reads each replay's lr and bias corrections from device memory.

Per element, with g the gradient, w the weight and the coupled decay
    g' = g + L1*sign(w) + L2*w        (every rule except adamw; adamw uses g' = g)
and c1 = 1 - beta1^t, c2 = 1 - beta2^t:

| rule     | states                              | update                                                    |
|----------|-------------------------------------|-----------------------------------------------------------|
| sgd      | -                                   | w -= lr*g'                                                |
| momentum | velocity                            | v = beta*v + (1-beta)*g';  w -= lr*v                      |
| sgdmn    | velocity                            | v = momentum*v + (1-dampen)*g';                           |
|          |                                     | w -= lr*(g' + momentum*v) if nesterov else lr*v           |
| rmsprop  | exp_avg_sq                          | s = beta*s + (1-beta)*g'^2;  w -= lr*g'/(sqrt(s)+eps)     |
| adam     | exp_avg, exp_avg_sq                 | m = b1*m + (1-b1)*g';  s = b2*s + (1-b2)*g'^2;            |
|          | (+max_exp_avg_sq if amsgrad)        | amsgrad: smax = max(smax, s), use smax for s below;       |
|          |                                     | w -= lr_t*m/(sqrt(s)+eps_t),                              |
|          |                                     | lr_t = lr*sqrt(c2)/c1, eps_t = eps*sqrt(c2)               |
| adamw    | as adam                             | adam on g, then decoupled decay from the OLD w:           |
|          |                                     | w -= lr*(L1*sign(w) + L2*w) + lr_t*m/(sqrt(s)+eps_t)      |
| adamax   | exp_avg, exp_inf                    | m = b1*m + (1-b1)*g';  u = max(b2*u, abs(g')+eps);        |
|          |                                     | w -= (lr/c1)*m/u                                          |
| radam    | exp_avg, exp_avg_sq                 | m, s as adam; rho_inf = 2/(1-b2)-1,                       |
|          |                                     | rho_t = rho_inf - 2*t*b2^t/c2; if rho_t > 5:              |
|          |                                     | r = sqrt((rho_t-4)(rho_t-2)rho_inf/((rho_inf-4)(rho_inf-2)rho_t)),|
|          |                                     | w -= lr_t*m/(sqrt(s)+eps_t) with lr_t = lr*r*sqrt(c2)/c1, |
|          |                                     | eps_t = eps*sqrt(c2); else w -= (lr/c1)*m                 |
| adamod   | exp_avg, exp_avg_sq, exp_avg_lr     | m, s as adam; eta = lr_t/(sqrt(s)+eps) with               |
|          |                                     | lr_t = lr*sqrt(c2)/c1; n = b3*n + (1-b3)*eta;             |
|          |                                     | w -= min(eta, n)*m                                        |
"""
import math

from ..errors import ArgumentError
from ..ops import AMSGRAD_STATE, OPTIM_RULES


def rule_spec(rule):
    """The OPTIM_RULES row of `rule`; an unknown name is an ArgumentError listing the rules."""
    spec = OPTIM_RULES.get(rule)
    if spec is None:
        raise ArgumentError(f"optim_step: unknown rule {rule!r}, expected one of {sorted(OPTIM_RULES)}")
    return spec


def state_names(rule, amsgrad=False):
    """The state arrays `optim_step` expects for `rule` (adam/adamw add max_exp_avg_sq)."""
    spec = rule_spec(rule)
    if amsgrad and "amsgrad" in spec.hp:
        return spec.states + (AMSGRAD_STATE,)
    return spec.states


def _adam_scalars(t, lr, eps, b2, c1, c2):
    return {"lr_t": lr * math.sqrt(c2) / c1, "eps_t": eps * math.sqrt(c2)}


def _adamod_scalars(t, lr, eps, b2, c1, c2):
    return {"lr_t": lr * math.sqrt(c2) / c1, "eps_t": eps}


def _adamax_scalars(t, lr, eps, b2, c1, c2):
    return {"lr_t": lr / c1}


def _radam_scalars(t, lr, eps, b2, c1, c2):
    rho_inf = 2.0 / (1.0 - b2) - 1.0
    rho_t = rho_inf - 2.0 * t * b2 ** t / c2
    if not rho_t > 5.0:
        return {"rectified": False, "lr_t": lr / c1}
    r = math.sqrt((rho_t - 4.0) * (rho_t - 2.0) * rho_inf / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho_t))
    return {"rectified": True, "lr_t": lr * r * math.sqrt(c2) / c1, "eps_t": eps * math.sqrt(c2)}


# OptimRule.scalars -> f(t, lr, eps, beta2, c1, c2) -> the step's host scalars
STEP_SCALARS = {"adam": _adam_scalars, "adamod": _adamod_scalars, "adamax": _adamax_scalars,
                "radam": _radam_scalars}


def optim_scalars(rule, hp):
    """Per-step host scalars of `rule` at step hp['step'] (float64 Python floats): lr_t, eps_t for
    adam/adamw/adamod/radam(rectified); lr_t for adamax; `rectified` for radam."""
    spec = rule_spec(rule)
    t, lr = int(hp["step"]), float(hp["lr"])
    if t < 1:
        raise ArgumentError(f"optim_step: step must be >= 1, got {t}")
    if spec.scalars is None:
        return {}
    b1, b2 = float(hp["beta1"]), float(hp["beta2"])
    return STEP_SCALARS[spec.scalars](t, lr, float(hp["eps"]), b2, 1.0 - b1 ** t, 1.0 - b2 ** t)


def kernel_scalars(rule, hp):
    """The 13 scalars of one fused update, in kernels/optim.cu's order: lr, lr_t, eps_t, h1, h2, h3,
    k1, k2, k3, L1, L2, eps, flag (float64), packed as the rule's OPTIM_RULES row says."""
    spec, sc = rule_spec(rule), optim_scalars(rule, hp)
    lr, eps = float(hp["lr"]), float(hp.get("eps", 0.0))
    l1, l2 = float(hp.get("L1", 0.0)), float(hp.get("L2", 0.0))
    h = [float(hp[key]) for key in spec.h] + [0.0] * (3 - len(spec.h))
    k = [0.0 if key is None else 1.0 - float(hp[key]) for key in spec.k] + [0.0] * (3 - len(spec.k))
    flag = spec.flag is not None and bool(sc[spec.flag] if spec.flag in sc else hp.get(spec.flag, False))
    if spec.decoupled:
        l1, l2 = lr * l1, lr * l2
    return (lr, sc.get("lr_t", lr), sc.get("eps_t", eps), *h, *k, l1, l2, eps, float(flag))


class OptimOps:
    """Mixin for ArrayBackend: the generic `optim_step` over `self.xp` (NumPy or CuPy)."""

    def optim_scalar_buffer(self):
        """Per-optimizer device buffer of step scalars (see `scalars` above); None: not needed here."""
        return None

    def optim_step(self, rule, weights, grads, states, hp, scalars=None):
        """One optimizer update of every (weight, grad) pair; see the module docstring table.
        `scalars` is unused here (host scalars go straight into the array expressions)."""
        sc = optim_scalars(rule, hp)
        amsgrad = bool(hp.get("amsgrad", False))
        names = state_names(rule, amsgrad)
        for n in names:
            if n not in states or len(states[n]) != len(weights):
                raise ArgumentError(f"optim_step({rule}): state {n!r} must hold {len(weights)} arrays")
        if len(grads) != len(weights):
            raise ArgumentError(f"optim_step({rule}): {len(weights)} weights but {len(grads)} grads")
        step = getattr(self, "_step_" + rule)
        for i, (w, g) in enumerate(zip(weights, grads)):
            step(w, g, *[states[n][i] for n in names], hp=hp, sc=sc)

    # ---------------------------------------------------------------- helpers
    def _decayed(self, w, g, hp):
        """g + L1*sign(w) + L2*w (a new array only when decay is on)."""
        t, l1, l2 = self.dtype.type, float(hp.get("L1", 0.0)), float(hp.get("L2", 0.0))
        if l1:
            g = g + t(l1) * self.xp.sign(w)
        if l2:
            g = g + t(l2) * w
        return g

    def _ema(self, a, x, beta):
        """a = beta*a + (1-beta)*x in place."""
        t = self.dtype.type
        a *= t(beta)
        a += t(1.0 - beta) * x

    def _adam_moments(self, g, m, s, hp):
        self._ema(m, g, float(hp["beta1"]))
        self._ema(s, g * g, float(hp["beta2"]))

    # ---------------------------------------------------------------- rules
    def _step_sgd(self, w, g, hp, sc):
        w -= self.dtype.type(hp["lr"]) * self._decayed(w, g, hp)

    def _step_momentum(self, w, g, v, hp, sc):
        self._ema(v, self._decayed(w, g, hp), float(hp["beta"]))
        w -= self.dtype.type(hp["lr"]) * v

    def _step_sgdmn(self, w, g, v, hp, sc):
        t, mu = self.dtype.type, float(hp["momentum"])
        g = self._decayed(w, g, hp)
        v *= t(mu)
        v += t(1.0 - float(hp["dampen"])) * g
        upd = g + t(mu) * v if hp["nesterov"] else v
        w -= t(hp["lr"]) * upd

    def _step_rmsprop(self, w, g, s, hp, sc):
        t = self.dtype.type
        g = self._decayed(w, g, hp)
        self._ema(s, g * g, float(hp["beta"]))
        w -= t(hp["lr"]) * g / (self.xp.sqrt(s) + t(hp["eps"]))

    def _step_adam(self, w, g, m, s, smax=None, hp=None, sc=None):
        t = self.dtype.type
        g = self._decayed(w, g, hp)
        self._adam_moments(g, m, s, hp)
        if smax is not None:
            self.xp.maximum(smax, s, out=smax)
            s = smax
        w -= t(sc["lr_t"]) * m / (self.xp.sqrt(s) + t(sc["eps_t"]))

    def _step_adamw(self, w, g, m, s, smax=None, hp=None, sc=None):
        t = self.dtype.type
        self._adam_moments(g, m, s, hp)
        if smax is not None:
            self.xp.maximum(smax, s, out=smax)
            s = smax
        l1, l2, lr = float(hp.get("L1", 0.0)), float(hp.get("L2", 0.0)), float(hp["lr"])
        upd = t(sc["lr_t"]) * m / (self.xp.sqrt(s) + t(sc["eps_t"]))
        if l1:
            upd = upd + t(lr * l1) * self.xp.sign(w)
        if l2:
            upd = upd + t(lr * l2) * w
        w -= upd

    def _step_adamax(self, w, g, m, u, hp, sc):
        t, xp = self.dtype.type, self.xp
        g = self._decayed(w, g, hp)
        self._ema(m, g, float(hp["beta1"]))
        u *= t(hp["beta2"])
        xp.maximum(u, xp.abs(g) + t(hp["eps"]), out=u)
        w -= t(sc["lr_t"]) * m / u

    def _step_radam(self, w, g, m, s, hp, sc):
        t = self.dtype.type
        g = self._decayed(w, g, hp)
        self._adam_moments(g, m, s, hp)
        if sc["rectified"]:
            w -= t(sc["lr_t"]) * m / (self.xp.sqrt(s) + t(sc["eps_t"]))
        else:
            w -= t(sc["lr_t"]) * m

    def _step_adamod(self, w, g, m, s, n, hp, sc):
        t, xp = self.dtype.type, self.xp
        g = self._decayed(w, g, hp)
        self._adam_moments(g, m, s, hp)
        eta = t(sc["lr_t"]) / (xp.sqrt(s) + t(sc["eps_t"]))
        self._ema(n, eta, float(hp["beta3"]))
        w -= xp.minimum(eta, n) * m
