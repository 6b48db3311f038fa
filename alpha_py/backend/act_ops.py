"""Backend layer: the activation primitives act_fwd / act_bwd / add_act, written once over the array module
`xp` (NumPy or CuPy) and mixed into ArrayBackend. One `_fwd_<name>` / `_bwd_<name>` pair per row of
alpha_py.ops.ACTIVATIONS (p1, p2: its parameters); the CUDA backend runs kernels/act.cuh instead.
Imports math, alpha_py.ops and alpha_py.errors only."""
import math

from ..errors import ArgumentError
from ..ops import ACTIVATIONS

_GELU_C = math.sqrt(2.0 / math.pi)


def activation(name, who="act_fwd"):
    """The ACTIVATIONS row of `name`; an unknown name is an ArgumentError listing the activations."""
    spec = ACTIVATIONS.get(name)
    if spec is None:
        raise ArgumentError(f"{who}: unknown activation {name!r}, expected one of {tuple(ACTIVATIONS)}")
    return spec


class ActivationOps:
    """Mixin for ArrayBackend: activations by name."""

    def act_fwd(self, name, x, p1=0.0, p2=0.0):
        """Activation `name` forward. p1/p2: its parameters (leakyRelu slope; elu alpha, slope)."""
        return self._act_math("fwd", name)(x, p1, p2)

    def act_bwd(self, name, gy, x, y, p1=0.0, p2=0.0, gy2=None, out=None):
        """Activation backward: grad_x given grad_y, the input x and the output y. gy2: a fan-in's second gradient
        (core/autograd.py GradSum), added to gy first; out: the array grad_x is written to (it may be gy's)."""
        if gy2 is not None or out is not None:
            return self._act_bwd_fan_in(name, gy, x, y, p1, p2, gy2, out)
        return self._act_math("bwd", name)(gy, x, y, p1, p2)

    def _act_bwd_fan_in(self, name, gy, x, y, p1, p2, gy2, out):
        gx = self.act_bwd(name, gy if gy2 is None else self.add(gy, gy2), x, y, p1, p2)
        if out is None:
            return gx
        out[...] = gx
        return out

    def add_act(self, name, a, b, p1=0.0, p2=0.0):
        """act(a + b) (F.add_<act>); one fused kernel on the GPU."""
        return self.act_fwd(name, a + b, p1, p2)

    def add_act_bwd(self, name, gy, a, b, y, p1=0.0, p2=0.0):
        """Backward of add_act: grad of (a + b) given grad_y, both addends and the output (one kernel on the GPU;
        here the sum is recomputed, as the forward formed it)."""
        return self.act_bwd(name, gy, self.add(a, b), y, p1, p2)

    def _act_math(self, way, name):
        return getattr(self, f"_{way}_{activation(name, f'act_{way}').name}")

    def _sigmoid(self, x):
        xp, t = self.xp, self.dtype.type
        e = xp.exp(-xp.abs(x))
        return xp.where(x >= 0, t(1) / (t(1) + e), e / (t(1) + e))

    # ---------------------------------------------------------------- one pair per activation
    def _fwd_relu(self, x, p1, p2):
        return self.xp.maximum(x, self.dtype.type(0))

    def _bwd_relu(self, gy, x, y, p1, p2):
        return gy * (x > 0)

    def _fwd_relu6(self, x, p1, p2):
        t = self.dtype.type
        return self.xp.clip(x, t(0), t(6))

    def _bwd_relu6(self, gy, x, y, p1, p2):
        return gy * ((x > 0) & (x < 6))

    def _fwd_leakyRelu(self, x, p1, p2):
        return self.xp.where(x > 0, x, x * self.dtype.type(p1))

    def _bwd_leakyRelu(self, gy, x, y, p1, p2):
        t = self.dtype.type
        return gy * self.xp.where(x > 0, t(1), t(p1))

    def _fwd_elu(self, x, p1, p2):
        xp, t = self.xp, self.dtype.type
        return xp.where(x > 0, x, t(p1) * (xp.exp(xp.minimum(x, t(0))) - t(1))) * t(p2)

    def _bwd_elu(self, gy, x, y, p1, p2):
        xp, t = self.xp, self.dtype.type
        return gy * xp.where(x > 0, t(p2), t(p2 * p1) * xp.exp(xp.minimum(x, t(0))))

    def _fwd_softplus(self, x, p1, p2):
        return self.xp.logaddexp(self.dtype.type(0), x).astype(self.dtype, copy=False)

    def _bwd_softplus(self, gy, x, y, p1, p2):
        return gy * self._sigmoid(x)

    def _fwd_gelu(self, x, p1, p2):
        xp, t = self.xp, self.dtype.type
        return t(0.5) * x * (t(1) + xp.tanh(t(_GELU_C) * (x + t(0.044715) * x * x * x)))

    def _bwd_gelu(self, gy, x, y, p1, p2):
        xp, t = self.xp, self.dtype.type
        u = t(_GELU_C) * (x + t(0.044715) * x * x * x)
        th = xp.tanh(u)
        du = t(_GELU_C) * (t(1) + t(3 * 0.044715) * x * x)
        return gy * (t(0.5) * (t(1) + th) + t(0.5) * x * (t(1) - th * th) * du)

    def _fwd_sigmoid(self, x, p1, p2):
        return self._sigmoid(x)

    def _bwd_sigmoid(self, gy, x, y, p1, p2):
        return gy * y * (self.dtype.type(1) - y)

    def _fwd_hard_sigmoid(self, x, p1, p2):
        t = self.dtype.type
        return self.xp.clip(x * t(1.0 / 6.0) + t(0.5), t(0), t(1))

    def _bwd_hard_sigmoid(self, gy, x, y, p1, p2):
        return gy * ((x > -3) & (x < 3)) * self.dtype.type(1.0 / 6.0)

    def _fwd_tanh(self, x, p1, p2):
        return self.xp.tanh(x)

    def _bwd_tanh(self, gy, x, y, p1, p2):
        return gy * (self.dtype.type(1) - y * y)
