"""optim layer: `alpha.optim` — optimizer constructors (SGD, Momentum, SGDMN, RMSprop, Adam, AdamW,
Adamax, RAdam, Adamod) and learning-rate schedulers. Imports the optim modules only."""
from .optimizer import Optimizer
from .rules import (OPTIMIZERS, SGD, SGDMN, Adam, Adamax, Adamod, AdamW, Momentum, RAdam,
                    RMSprop)
from .schedulers import CosAnnealingLr, ExponentialLr, LambdaLr, LrSchedular


class Optim:
    """The `alpha.optim` factory: alpha.optim.Adam(net.param_map(), 1e-3).beta1(0.9)...;
    schedulers: alpha.optim.cosAnnealingLr(Tmax, minLr), exponentialLr(gamma, minLr), lambdaLr(fn)."""

    Optimizer, LrSchedular = Optimizer, LrSchedular
    SGD, Momentum, SGDMN, RMSprop = SGD, Momentum, SGDMN, RMSprop
    Adam, AdamW, Adamax, RAdam, Adamod = Adam, AdamW, Adamax, RAdam, Adamod

    def cosAnnealingLr(self, Tmax=1000, minLr=0.0):
        return CosAnnealingLr(Tmax, minLr)

    def exponentialLr(self, gamma, minLr=0.0):
        return ExponentialLr(gamma, minLr)

    def lambdaLr(self, fn, mode="factor"):
        """mode "factor": lr = init_lr * fn(t); mode "update" (Dragon-Alpha): lr = fn(previous lr)."""
        return LambdaLr(fn, mode)


optim = Optim()

__all__ = ["optim", "Optim", "Optimizer", "OPTIMIZERS", "SGD", "Momentum", "SGDMN", "RMSprop",
           "Adam", "AdamW", "Adamax", "RAdam", "Adamod", "LrSchedular", "CosAnnealingLr",
           "ExponentialLr", "LambdaLr"]
