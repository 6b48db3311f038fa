"""Zoo layer: shared pieces of the zoo nets — activation by name (any of alpha_py.ops.ACTIVATIONS),
batchNorm+activation (the fused batchNorm_<act> unit), conv-BN-act, per-channel scaling (for SE), input
stems and classifier heads. Imports alpha_py.nn / F / ops only; math goes through engine primitives."""
from ..errors import ArgumentError, fmt_shape
from ..functional import F
from ..nn.factory import nn
from ..nn.unit import Module, Unit
from ..ops import ACTIVATIONS

ACTS = tuple(ACTIVATIONS)


def check_act(act, who):
    if act not in ACTS:
        raise ArgumentError(f"{who}: activation {act!r} unknown, expected one of {ACTS}")
    return act


def act_unit(act):
    return getattr(nn, act)()


def bn_act(act, channels):
    """batchNorm(channels) then act, as the one fused unit batchNorm_<act>."""
    return getattr(nn, f"batchNorm_{act}")(channels)


def add_act(act, a, b):
    """act(a + b) in one node: F.add_<act>."""
    return getattr(F, f"add_{act}")(a, b)


def conv_bn_act(act, in_c, out_c, k, stride=1, pad=None, *more):
    """conv3D (no bias: BatchNorm's bias replaces it) -> batchNorm -> act [-> more units]: one Sequence, whose eval
    mode runs conv -> BN -> act (-> a 2x2 max pool) as one pass where the engine can (nn/sequence.py)."""
    return nn.sequence(nn.conv3D(False, in_c, out_c, k, stride, k // 2 if pad is None else pad),
                       bn_act(act, out_c), *more)


def conv_bn(in_c, out_c, k, stride=1, pad=None):
    return nn.sequence(nn.conv3D(False, in_c, out_c, k, stride, k // 2 if pad is None else pad),
                       nn.batchNorm(out_c))


def check_positive(who, **values):
    """Each keyword must be a positive int (not a bool); the error names the net and the argument."""
    for k, v in values.items():
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ArgumentError(f"{who}: {k} must be a positive int, got {v!r}")


def check_geometry(who, in_channels, num_classes, input_size):
    check_positive(who, in_channels=in_channels, num_classes=num_classes, input_size=input_size)
    if input_size < 8:
        raise ArgumentError(f"{who}: input_size {input_size} too small, expected >= 8")


class ChannelScale(Unit):
    """Y[n,h,w,c] = X[n,h,w,c] * S[n,c]: scales each channel of an NHWC map (SE excitation)."""

    n_inputs = 2

    def check_inputs(self, xs):
        x, s = xs
        if x.ndim() != 4 or s.ndim() != 2 or s.shape != (x.shape[0], x.shape[3]):
            raise self.error(f"inputs {fmt_shape(x.shape)} and {fmt_shape(s.shape)}, "
                             "expected X [N,H,W,C] and S [N,C]")

    def _fwd(self, eg, x, s):
        b = eg.backend
        s4 = b.reshape(s, (s.shape[0], 1, 1, s.shape[1]))
        return (b.mul(x, s4),), (x, s4)

    def _bwd(self, eg, ctx, gys, needs):
        b, (x, s4), gy = eg.backend, ctx, gys[0]
        gx = b.mul(gy, s4) if needs[0] else None
        gs = b.sum(b.sum(b.mul(gy, x), axis=2), axis=1) if needs[1] else None
        return gx, gs


class Head(Module):
    """Global average pool -> flatten -> fullconnect(features, num_classes): the logits."""

    def __init__(self, features, num_classes):
        super().__init__()
        self.pool = nn.adaptive_avgPool2D(1)
        self.flatten = nn.flatten()
        self.fc = nn.fullconnect(features, num_classes)

    def __forward__(self, X):
        return self.fc(self.flatten(self.pool(X)))


def stem(act, in_channels, out_channels, input_size):
    """Small inputs (CIFAR 32x32x3, MNIST 28x28x1): conv3x3 stride 1, full resolution kept.
    Large inputs (>= 64, e.g. 224 ImageNet style): conv7x7 stride 2 then maxPool 3/2."""
    if input_size >= 64:
        return nn.sequence(conv_bn_act(act, in_channels, out_channels, 7, 2, 3), nn.maxPool2D(3, 2, 1))
    return conv_bn_act(act, in_channels, out_channels, 3, 1, 1)
