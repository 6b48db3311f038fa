"""optim layer: `alpha.optim` — optimizer constructors (SGD, Momentum, SGDMN, RMSprop, Adam, AdamW,
Adamax, RAdam, Adamod) and learning-rate schedulers. Imports the optim modules and alpha_py.params only."""
from ..params import AlphaParam
from .optimizer import Optimizer
from .rules import (OPTIMIZERS, SGD, SGDMN, Adam, Adamax, Adamod, AdamW, Momentum, RAdam,
                    RMSprop)
from .schedulers import CosAnnealingLr, CosineLr, ExponentialLr, LambdaLr, LrSchedular


class Optim:
    """The `alpha.optim` factory: alpha.optim.Adam(net.param_map(), 1e-3).beta1(0.9)...;
    schedulers: alpha.optim.cosAnnealingLr(Tmax, minLr), exponentialLr(gamma, minLr), lambdaLr(fn) with v1.2's
    meanings; cosineLr(Tmax, minLr) and lambdaLr(fn, "factor") are extensions."""

    Optimizer, LrSchedular = Optimizer, LrSchedular
    SGD, Momentum, SGDMN, RMSprop = SGD, Momentum, SGDMN, RMSprop
    Adam, AdamW, Adamax, RAdam, Adamod = Adam, AdamW, Adamax, RAdam, Adamod

    def cosAnnealingLr(self, Tmax=None, minLr=None):
        """cosAnnealingLr([Tmax[, minLr]]): the missing ones from AlphaParam.cosAnnealingLr_Tmax (pi) and
        cosAnnealingLr_minLr (1e-4), read now, as v1.2."""
        return CosAnnealingLr(AlphaParam.cosAnnealingLr_Tmax if Tmax is None else Tmax,
                              AlphaParam.cosAnnealingLr_minLr if minLr is None else minLr)

    def cosineLr(self, Tmax=1000, minLr=0.0):
        """The half-cosine decay from the initial lr to minLr over Tmax updates (an extension; schedulers.CosineLr)."""
        return CosineLr(Tmax, minLr)

    def exponentialLr(self, gamma, minLr=0.0):
        return ExponentialLr(gamma, minLr)

    def lambdaLr(self, fn, mode="update"):
        """mode "update" (v1.2, the default): lr = fn(previous lr) after each update; mode "factor" (an extension):
        lr = init_lr * fn(t), t = updates so far."""
        return LambdaLr(fn, mode)


optim = Optim()

__all__ = ["optim", "Optim", "Optimizer", "OPTIMIZERS", "SGD", "Momentum", "SGDMN", "RMSprop",
           "Adam", "AdamW", "Adamax", "RAdam", "Adamod", "LrSchedular", "CosAnnealingLr", "CosineLr",
           "ExponentialLr", "LambdaLr"]
