"""optim layer: the optimizers of alpha.optim. Each class names its backend rule, its constructor
argument order and defaults, and states its update rule; the math itself is backend.optim_step.
Notation: t = update count (from 1), g' = g + L1*sign(w) + L2*w (coupled decay), c1 = 1 - beta1^t,
c2 = 1 - beta2^t. Defaults named in `alpha_params` are read from AlphaParam (v1.2's Momentum_beta, Adam_lr, ...)
when the optimizer is made. Imports optimizer.py only."""
from .optimizer import Optimizer, hp_method

_ADAM_POS = ("lr", "beta1", "beta2", "eps", "L1", "L2")
_ADAM_DEF = {"lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "L1": 0.0, "L2": 0.0}


def _alpha_params(prefix):
    return {hp: f"{prefix}_{hp}" for hp in ("lr", "beta1", "beta2", "eps")}


class SGD(Optimizer):
    """Stochastic gradient descent: w <- w - lr * g'.
    SGD(params, lr=0.01, L1=0, L2=0)."""
    rule = "sgd"
    positional = ("lr", "L1", "L2")
    defaults = {"lr": 1e-2, "L1": 0.0, "L2": 0.0}


class Momentum(Optimizer):
    """Momentum (exponential moving average of gradients):
        v <- beta * v + (1 - beta) * g';   w <- w - lr * v          (v starts at 0)
    Momentum(params, lr=0.01, beta=0.9, L1=0, L2=0). State: velocity."""
    rule = "momentum"
    positional = ("lr", "beta", "L1", "L2")
    defaults = {"lr": 1e-2, "beta": 0.9, "L1": 0.0, "L2": 0.0}
    alpha_params = {"beta": "Momentum_beta"}
    beta = hp_method("beta")
    beta1 = hp_method("beta", "Alias of beta(): the momentum EMA coefficient.")


class SGDMN(Optimizer):
    """SGD with momentum, dampening and optional Nesterov:
        v <- momentum * v + (1 - dampen) * g'                       (v starts at 0)
        w <- w - lr * (g' + momentum * v)   if nesterov
        w <- w - lr * v                     otherwise
    SGDMN(params, lr=0.01, momentum=0.9, dampen=0, nesterov=False, L1=0, L2=0). State: velocity."""
    rule = "sgdmn"
    positional = ("lr", "momentum", "dampen", "nesterov", "L1", "L2")
    defaults = {"lr": 1e-2, "momentum": 0.9, "dampen": 0.0, "nesterov": False, "L1": 0.0, "L2": 0.0}
    alpha_params = {"momentum": "SGDMN_momentum", "dampen": "SGDMN_dampen", "nesterov": "nestrov"}
    momentum = hp_method("momentum")
    dampen = hp_method("dampen")
    nesterov = hp_method("nesterov", "nesterov() -> bool; nesterov(flag) sets it, returns self.")
    nestrov = nesterov          # Dragon-Alpha's spelling


class RMSprop(Optimizer):
    """RMSprop:
        s <- beta * s + (1 - beta) * g'^2;   w <- w - lr * g' / (sqrt(s) + eps)     (s starts at 0)
    RMSprop(params, lr=0.01, beta=0.99, eps=1e-8, L1=0, L2=0). State: exp_avg_sq."""
    rule = "rmsprop"
    positional = ("lr", "beta", "eps", "L1", "L2")
    defaults = {"lr": 1e-2, "beta": 0.99, "eps": 1e-8, "L1": 0.0, "L2": 0.0}
    alpha_params = {"lr": "RMSprop_lr", "beta": "RMSprop_beta", "eps": "RMSprop_eps"}
    beta = hp_method("beta")
    beta2 = hp_method("beta", "Alias of beta(): the squared-gradient EMA coefficient.")
    eps = hp_method("eps")


class _AdamFamily(Optimizer):
    positional = _ADAM_POS
    defaults = dict(_ADAM_DEF)
    beta1 = hp_method("beta1")
    beta2 = hp_method("beta2")
    eps = hp_method("eps")


class Adam(_AdamFamily):
    """Adam (Kingma & Ba), optional AMSGrad:
        m <- beta1 * m + (1 - beta1) * g';   s <- beta2 * s + (1 - beta2) * g'^2
        amsgrad: s_max <- max(s_max, s) and s_max replaces s below
        w <- w - lr * (m / c1) / (sqrt(s / c2) + eps)
    Adam(params, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, L1=0, L2=0, amsgrad=False).
    State: exp_avg (m), exp_avg_sq (s), max_exp_avg_sq (amsgrad)."""
    rule = "adam"
    defaults = dict(_ADAM_DEF, amsgrad=False)
    alpha_params = _alpha_params("Adam")

    def amsgrad(self, flag=None):
        """amsgrad() -> bool; amsgrad(flag) switches AMSGrad (allocates/frees max_exp_avg_sq)."""
        if flag is None:
            return self._hp["amsgrad"]
        self._set_hp("amsgrad", flag)
        self._alloc_states()
        return self


class AdamW(Adam):
    """AdamW (Loshchilov & Hutter): Adam on the raw gradient g with decoupled weight decay,
        m <- beta1 * m + (1 - beta1) * g;   s <- beta2 * s + (1 - beta2) * g^2   (amsgrad as Adam)
        w <- w - lr * (L1 * sign(w) + L2 * w) - lr * (m / c1) / (sqrt(s / c2) + eps)
    (decay uses w before the step). AdamW(params, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
    L1=0, L2=1e-2, amsgrad=False); AdamW(params, lr, L2) as v1.2. State: exp_avg, exp_avg_sq (+max_exp_avg_sq)."""
    rule = "adamw"
    defaults = dict(_ADAM_DEF, L2=1e-2, amsgrad=False)
    alpha_params = dict(_alpha_params("AdamW"), L1="AdamW_L1", L2="AdamW_L2")

    def _positional_for(self, n):
        return ("lr", "L2") if n == 2 else self.positional        # v1.2's AdamW(params, lr, L2)


class Adamax(_AdamFamily):
    """Adamax (infinity-norm Adam):
        m <- beta1 * m + (1 - beta1) * g';   u <- max(beta2 * u, |g'| + eps)
        w <- w - (lr / c1) * m / u
    Adamax(params, lr=2e-3, beta1=0.9, beta2=0.999, eps=1e-8, L1=0, L2=0). State: exp_avg, exp_inf."""
    rule = "adamax"
    defaults = dict(_ADAM_DEF, lr=2e-3)
    alpha_params = _alpha_params("Adamax")


class RAdam(_AdamFamily):
    """Rectified Adam (Liu et al.): m, s as Adam; rho_inf = 2 / (1 - beta2) - 1,
        rho_t = rho_inf - 2 t beta2^t / c2
        rho_t > 5:  r = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
                    w <- w - lr * r * (m / c1) / (sqrt(s / c2) + eps)
        otherwise:  w <- w - lr * (m / c1)
    RAdam(params, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, L1=0, L2=0). State: exp_avg, exp_avg_sq."""
    rule = "radam"
    alpha_params = _alpha_params("RAdam")


class Adamod(_AdamFamily):
    """AdaMod (Ding et al.): m, s as Adam, then per-element step sizes bounded by their own EMA:
        eta <- (lr * sqrt(c2) / c1) / (sqrt(s) + eps)
        n   <- beta3 * n + (1 - beta3) * eta
        w   <- w - min(eta, n) * m
    Adamod(params, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, beta3=0.999, L1=0, L2=0) (v1.2's order: eps
    before beta3). State: exp_avg, exp_avg_sq, exp_avg_lr (n)."""
    rule = "adamod"
    positional = ("lr", "beta1", "beta2", "eps", "beta3", "L1", "L2")
    defaults = dict(_ADAM_DEF, beta3=0.999)
    alpha_params = dict(_alpha_params("Adamod"), beta3="Adamod_beta3")
    beta3 = hp_method("beta3")


OPTIMIZERS = (SGD, Momentum, SGDMN, RMSprop, Adam, AdamW, Adamax, RAdam, Adamod)
