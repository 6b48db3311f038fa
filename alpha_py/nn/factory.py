"""nn layer: the `alpha.nn` factory — Dragon-Alpha constructor names and overloads mapped onto
unit classes. Zoo nets/blocks (alpha_py.zoo) are reachable here too (nn.ResNet18(...))."""
from ..errors import ArgumentError
from . import activation as act
from . import combine, conv, linear, norm, pool, shape
from .unit import Module, Sequence, Unit


def _lead_bool(args, default):
    """Dragon-Alpha overloads: an optional leading bool (biased / inplace / affine)."""
    if args and isinstance(args[0], bool):
        return args[0], args[1:]
    return default, args


class NN:
    Unit, Module, Sequence = Unit, Module, Sequence

    # ------------------------------------------------------------------ containers
    def sequence(self, *units):
        return Sequence(*units)

    Sequential = sequence

    # ------------------------------------------------------------------ convolution
    def _conv(self, cls, args, who):
        biased, a = _lead_bool(args, True)
        if len(a) == 5:                       # in, out, k, stride, pad
            ic, oc, k, s, p = a
            return cls(biased, ic, oc, k, s, p)
        if len(a) == 3:                       # in, out, k (stride 1, pad 0)
            return cls(biased, a[0], a[1], a[2], 1, 0)
        if len(a) == 8:                       # in, out, kh, kw, sh, sw, ph, pw
            ic, oc, kh, kw, sh, sw, ph, pw = a
            return cls(biased, ic, oc, (kh, kw), (sh, sw), (ph, pw))
        raise ArgumentError(f"{who}: expected ([biased,] in, out, k[, stride, pad]) or "
                            f"([biased,] in, out, kh, kw, sh, sw, ph, pw); got {args}")

    def conv3D(self, *args):
        return self._conv(conv.Conv3D, args, "conv3D")

    def deconv3D(self, *args):
        return self._conv(conv.Deconv3D, args, "deconv3D")

    def pointwise_conv3D(self, *args):
        biased, a = _lead_bool(args, True)
        if len(a) != 2:
            raise ArgumentError(f"pointwise_conv3D: expected ([biased,] in, out), got {args}")
        return conv.Conv3D(biased, a[0], a[1], 1, 1, 0)

    def depthwise_conv3D(self, *args):
        biased, a = _lead_bool(args, True)
        if len(a) == 4:
            return conv.DepthwiseConv3D(biased, *a)
        if len(a) == 7:
            c, kh, kw, sh, sw, ph, pw = a
            return conv.DepthwiseConv3D(biased, c, (kh, kw), (sh, sw), (ph, pw))
        raise ArgumentError(f"depthwise_conv3D: expected ([biased,] channels, k, stride, pad), got {args}")

    def conv2D(self, *args):
        biased, a = _lead_bool(args, True)
        return conv.Conv2D(biased, *a)

    def deconv2D(self, *args):
        biased, a = _lead_bool(args, True)
        return conv.Deconv2D(biased, *a)

    def fullconnect(self, *args):
        biased, a = _lead_bool(args, True)
        if len(a) != 2:
            raise ArgumentError(f"fullconnect: expected ([biased,] in_features, out_features), got {args}")
        return linear.FullConnect(biased, *a)

    # ------------------------------------------------------------------ normalisation
    def batchNorm(self, *args):
        return self._bn(norm.BatchNorm, args)

    def global_batchNorm(self, *args):
        return self._bn(norm.GlobalBatchNorm, args)

    def _bn(self, cls, args):
        affine, a = _lead_bool(args, True)
        if len(a) >= 4 and isinstance(a[0], float):          # affine, beta1, beta2, eps, dims...
            return cls(*a[3:], affine=affine, beta1=a[0], beta2=a[1], eps=a[2])
        return cls(*a, affine=affine)

    def layerNorm(self, *dims):
        return norm.LayerNorm(*dims)

    def affine(self, *dims):
        return norm.Affine(dims)

    # ------------------------------------------------------------------ activations
    def relu(self, inplace=False):
        return act.Relu(inplace)

    def relu6(self, inplace=False):
        return act.Relu6(inplace)

    def leakyRelu(self, *args):
        inplace, a = _lead_bool(args, False)
        return act.LeakyRelu(inplace, *a)

    def elu(self, *args):
        inplace, a = _lead_bool(args, False)
        return act.Elu(inplace, *a)

    def softplus(self, inplace=False):
        return act.Softplus(inplace)

    def gelu(self, inplace=False):
        return act.Gelu(inplace)

    def sigmoid(self, inplace=False):
        return act.Sigmoid(inplace)

    def hard_sigmoid(self, inplace=False):
        return act.HardSigmoid(inplace)

    def tanh(self, inplace=False):
        return act.Tanh(inplace)

    def softmax(self, *args):
        inplace, a = _lead_bool(args, False)
        return act.Softmax(inplace, *a)

    def log_softmax(self, *args):
        inplace, a = _lead_bool(args, False)
        return act.LogSoftmax(inplace, *a)

    # ------------------------------------------------------------------ pooling
    def maxPool2D(self, *args):
        return pool.MaxPool2D(*args)

    def avgPool2D(self, *args):
        return pool.AvgPool2D(*args)

    def adaptive_avgPool2D(self, *args):
        return pool.AdaptiveAvgPool2D(*args)

    def adaptive_maxPool2D(self, *args):
        return pool.AdaptiveMaxPool2D(*args)

    # ------------------------------------------------------------------ shape / combine
    def flatten(self):
        return shape.Flatten()

    flaten = flatten

    def view(self, *args):
        inplace, a = _lead_bool(args, True)
        return shape.View(inplace, *a)

    def reshape(self, *args):
        inplace, a = _lead_bool(args, False)
        return shape.Reshape(inplace, *a)

    def add(self, inplace=False):
        return combine.Add(inplace)

    def sub(self, inplace=False):
        return combine.Sub(inplace)

    def mul(self, inplace=False):
        return combine.Mul(inplace)

    def div(self, inplace=False):
        return combine.Div(inplace)

    def linear2(self, *args):
        inplace, a = _lead_bool(args, False)
        return combine.Linear2(inplace, *a)

    def concat(self, dim=-1):
        return combine.Concat(dim)

    # ------------------------------------------------------------------ zoo (alpha_py.zoo)
    def __getattr__(self, name):
        from .. import zoo
        if hasattr(zoo, name) and not name.startswith("_"):
            return getattr(zoo, name)
        raise AttributeError(f"alpha.nn has no unit or zoo net named {name!r}")


nn = NN()
