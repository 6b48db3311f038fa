"""nn layer: the `alpha.nn` factory — Dragon-Alpha constructor names and overloads mapped onto
unit classes. The facade, above nn and zoo, adds the zoo's nets and blocks (nn.ResNet18(...)) through
NN.extend. Defaults v1.2 takes from Alpha.AlphaParam are read from alpha_py.params when a unit is made.
Imports the nn unit modules, alpha_py.ops, alpha_py.params and alpha_py.errors."""
from ..errors import ArgumentError
from ..ops import ACTIVATIONS, MATH
from ..params import AlphaParam
from . import activation as act
from . import binary, combine, conv, math as emath, dropout, fused, linear, norm, pool, shape
from .factory_binary import BinaryFactory
from .factory_ext import FacadeFactory
from .sequence import Sequence
from .unit import Module, Unit


def _lead_bool(args, default):
    """Dragon-Alpha overloads: an optional leading bool (biased / inplace / affine); a str default names the
    AlphaParam field read now (sp_math2_inplace, ...)."""
    if args and isinstance(args[0], bool):
        return args[0], args[1:]
    return (getattr(AlphaParam, default) if isinstance(default, str) else default), args


# v1.2's inplace defaults: which AlphaParam field each nn.<name>() without an inplace flag reads
MATH2 = "sp_math2_inplace"
TENSOR = "sp_tensor_inplace"
AFFINE = "sp_affine_inplace"
MATH2_NAMES = frozenset(("relu", "relu6", "leakyRelu", "elu", "softplus", "sigmoid", "hard_sigmoid", "tanh",
                         "max", "min", "clip", "rpl", "linear", "sadd", "ssub", "smul", "sdiv", "reluN", "exp",
                         "log", "sqrt", "halfSin", "tan", "cot", "arcsin", "arctan"))


def _inplace_first(cls, default=False, doc=None):
    """A factory method nn.<name>([inplace,] args...) -> cls(inplace, *args) (inplace also by keyword)."""
    def make(self, *args, **named):
        inplace, a = _lead_bool(args, named.pop("inplace") if "inplace" in named else default)
        return cls(bool(inplace), *a, **named)
    make.__doc__ = doc or f"([inplace,] args...) -> {cls.__name__}(inplace, args...)"
    return make


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


ACTS = act.ACTIVATION_CLASSES     # ops.ACTIVATIONS name -> unit class: nn.<name>() and every fused family


def _inplace(unit, flag):
    """Record the inplace flag (a str: the AlphaParam field read now) on a unit whose class takes none."""
    unit.inplace = bool(getattr(AlphaParam, flag) if isinstance(flag, str) else flag)
    return unit


class NN(BinaryFactory, FacadeFactory):
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

    point_conv3D = pointwise_conv3D

    def depthwise_conv3D(self, *args):
        biased, a = _lead_bool(args, True)
        if len(a) == 2:
            return conv.DepthwiseConv3D(biased, a[0], a[1], 1, 0)
        if len(a) == 4:
            return conv.DepthwiseConv3D(biased, *a)
        if len(a) == 7:
            c, kh, kw, sh, sw, ph, pw = a
            return conv.DepthwiseConv3D(biased, c, (kh, kw), (sh, sw), (ph, pw))
        raise ArgumentError(f"depthwise_conv3D: expected ([biased,] channels, k[, stride, pad]) or "
                            f"([biased,] channels, kh, kw, sh, sw, ph, pw), got {args}")

    def _conv1d(self, cls, args, who):
        biased, a = _lead_bool(args, True)
        if len(a) not in (3, 5):
            raise ArgumentError(f"{who}: expected ([biased,] in, out, k[, stride, pad]), got {args}")
        return cls(biased, *a)

    def conv2D(self, *args):
        return self._conv1d(conv.Conv2D, args, "conv2D")

    def deconv2D(self, *args):
        return self._conv1d(conv.Deconv2D, args, "deconv2D")

    def fullconnect(self, *args):
        biased, a = _lead_bool(args, True)
        if len(a) != 2:
            raise ArgumentError(f"fullconnect: expected ([biased,] in_features, out_features), got {args}")
        return linear.FullConnect(biased, *a)

    # ------------------------------------------------------------------ normalisation
    def batchNorm(self, *args):
        return self._bn(norm.BatchNorm, args, "batchNorm")

    def global_batchNorm(self, *args):
        return self._bn(norm.GlobalBatchNorm, args, "global_batchNorm")

    @staticmethod
    def _bn(cls, args, who):
        """(dims...), ([inplace,] affine, beta1, beta2, eps, dims...), (inplace, dims...)."""
        a = list(args)
        bools = []
        while a and isinstance(a[0], bool):
            bools.append(a.pop(0))
        if len(bools) > 2:
            raise ArgumentError(f"{who}: at most (inplace, affine) flags, got {args}")
        if len(a) >= 4 and all(_is_num(v) for v in a[:3]) and any(isinstance(v, float) for v in a[:3]):
            if not bools:
                raise ArgumentError(f"{who}: (affine, beta1, beta2, eps, dims...) needs the affine flag")
            return _inplace(cls(*a[3:], affine=bools[-1], beta1=a[0], beta2=a[1], eps=a[2]),
                            bools[0] if len(bools) == 2 else AFFINE)
        if len(bools) == 2:                    # inplace, affine, dims...
            return _inplace(cls(*a, affine=bools[1]), bools[0])
        return _inplace(cls(*a), bools[0] if bools else AFFINE)   # ([inplace,] dims...): the rest from AlphaParam

    def layerNorm(self, *args):
        """(dims...), ([inplace,] affine, eps, dims...), (inplace, dims...)."""
        a = list(args)
        bools = []
        while a and isinstance(a[0], bool):
            bools.append(a.pop(0))
        if bools and len(a) >= 2 and isinstance(a[0], float):
            return _inplace(norm.LayerNorm(*a[1:], eps=a[0], affine=bools[-1]), bools[0] if len(bools) == 2 else AFFINE)
        return _inplace(norm.LayerNorm(*a), bools[0] if bools else AFFINE)

    def affine(self, *args):
        inplace, dims = _lead_bool(args, AFFINE)
        return _inplace(norm.Affine(dims), inplace)

    # ------------------------------------------------------------------ activations
    # relu, relu6, leakyRelu, elu, ...: one method per ops.ACTIVATIONS row, added below the class
    softmax = _inplace_first(act.Softmax, MATH2, doc="softmax([inplace,] [features]) over the last dim.")
    log_softmax = _inplace_first(act.LogSoftmax, MATH2, doc="log_softmax([inplace,] [features]) over the last dim.")

    def dropout(self, *args):
        """dropout(keep_p) / dropout(inplace, keep_p): keep_p is the KEEP probability."""
        inplace, a = _lead_bool(args, MATH2)
        if len(a) != 1:
            raise ArgumentError(f"dropout: expected ([inplace,] keep_p), got {args}")
        return dropout.Dropout(inplace, a[0])

    # ------------------------------------------------------------------ pooling
    @staticmethod
    def _pool(cls, args, who):
        if len(args) in (1, 2, 3):            # k[, s[, p]]
            return cls(*args)
        if len(args) == 6:                    # kh, kw, sh, sw, ph, pw
            kh, kw, sh, sw, ph, pw = args
            return cls((kh, kw), (sh, sw), (ph, pw))
        raise ArgumentError(f"{who}: expected (k[, stride, pad]) or (kh, kw, sh, sw, ph, pw), got {args}")

    def maxPool2D(self, *args):
        return self._pool(pool.MaxPool2D, args, "maxPool2D")

    def avgPool2D(self, *args):
        return self._pool(pool.AvgPool2D, args, "avgPool2D")

    def adaptive_avgPool2D(self, *args):
        return pool.AdaptiveAvgPool2D(*args)

    def adaptive_maxPool2D(self, *args):
        return pool.AdaptiveMaxPool2D(*args)

    # ------------------------------------------------------------------ shape
    def flatten(self, inplace=TENSOR):
        return _inplace(shape.Flatten(), inplace)

    flaten = flatten

    view = _inplace_first(shape.View, TENSOR, "view([inplace,] dims...): a view of the same data.")
    reshape = _inplace_first(shape.Reshape, TENSOR, "reshape([inplace,] dims...).")

    def transpose(self, *args):
        """transpose([inplace,] d1, d2): swap two dims."""
        inplace, a = _lead_bool(args, TENSOR)
        if len(a) != 2:
            raise ArgumentError(f"transpose: expected ([inplace,] d1, d2), got {args}")
        return shape.Transpose(inplace, *a)

    @staticmethod
    def _amounts(cls, args, who, suffix=()):
        """(p...) symmetric or ([p0...], [p1...]) before/after, over the trailing dims."""
        inplace, a = _lead_bool(args, TENSOR)
        if len(a) == 2 and all(isinstance(v, (list, tuple)) for v in a):
            return cls(inplace, tuple(a[0]) + suffix, tuple(a[1]) + suffix)
        if len(a) == 1 and isinstance(a[0], (list, tuple)):
            a = tuple(a[0])
        if not a:
            raise ArgumentError(f"{who}: expected ([inplace,] p...) or ([inplace,] [p0...], [p1...]), got {args}")
        return cls(inplace, tuple(a) + suffix)

    def pad(self, *args):
        """Zero-pad the trailing dims: pad(1, 1, 0) pads H and W of NHWC by 1 on each side."""
        return self._amounts(shape.Pad, args, "pad")

    def trim(self, *args):
        """Inverse of pad: trim(1, 1, 0) removes one row/column from each side of H and W."""
        return self._amounts(shape.Trim, args, "trim")

    def pad2D(self, *args):
        """pad over the dims before the last (H, W of NHWC): pad2D(1, 1) == pad(1, 1, 0)."""
        return self._amounts(shape.Pad, args, "pad2D", (0,))

    def trim2D(self, *args):
        return self._amounts(shape.Trim, args, "trim2D", (0,))

    @staticmethod
    def _placed(cls, args, who, suffix=()):
        """(out_dims...) centred, or ([start...], [out_dims...])."""
        inplace, a = _lead_bool(args, TENSOR)
        if len(a) == 2 and all(isinstance(v, (list, tuple)) for v in a):
            start = tuple(a[0]) + ((0,) if suffix else ())
            return cls(inplace, start, tuple(a[1]) + suffix)
        if len(a) == 1 and isinstance(a[0], (list, tuple)):
            a = tuple(a[0])
        if not a:
            raise ArgumentError(f"{who}: expected ([inplace,] out_dims...) or ([inplace,] [start...], "
                                f"[out_dims...]), got {args}")
        return cls(inplace, None, tuple(a) + suffix)

    def expand(self, *args):
        """Zero-extend the trailing dims to out_dims (<= 0 keeps a dim), input centred or at start."""
        return self._placed(shape.Expand, args, "expand")

    def crop(self, *args):
        """Cut out_dims (<= 0 keeps a dim) from the trailing dims, centred or from start."""
        return self._placed(shape.Crop, args, "crop")

    def expand2D(self, *args):
        return self._placed(shape.Expand, args, "expand2D", (-1,))

    def crop2D(self, *args):
        return self._placed(shape.Crop, args, "crop2D", (-1,))

    # ------------------------------------------------------------------ binary / combine
    def concat(self, dim=-1):
        return combine.Concat(dim)

    def split(self, dim, *sections):
        return combine.Split(dim, *sections)

    def chunk(self, *args):
        """chunk(n) along the last dim, or chunk(dim, n)."""
        if len(args) == 1:
            return combine.Chunk(-1, args[0])
        if len(args) == 2:
            return combine.Chunk(*args)
        raise ArgumentError(f"chunk: expected ([dim,] n), got {args}")

    # ------------------------------------------------------------------ fused units
    def fuse(self, a, b):
        return fused.fuse(a, b)

    def _norm_act(self, kind, act_name, args):
        """<norm>_<act>(bn, act) from units, or (bn args...) with a default activation."""
        who = f"{kind}_{act_name}"
        first_types = {"batchNorm": (norm.BatchNorm, norm.LayerNorm), "affine": (norm.Affine,),
                       "global_batchNorm": (norm.GlobalBatchNorm,)}[kind]
        if args and isinstance(args[0], Unit):
            first = args[0]
            second = args[1] if len(args) > 1 else ACTS[act_name]()
            if len(args) > 2:
                raise ArgumentError(f"{who}: expected ({kind}, activation), got {len(args)} arguments")
        else:
            first = getattr(self, kind)(*args)
            second = ACTS[act_name]()
        return fused.check_fusable(who, first, second, first_types, (ACTS[act_name],))

    def _act_dropout(self, act_name, args):
        """<act>_dropout(act, dropout) from units, or ([inplace,] [act params...,] keep_p)."""
        who = f"{act_name}_dropout"
        act_cls = ACTS[act_name]
        if args and isinstance(args[0], Unit):
            if len(args) != 2:
                raise ArgumentError(f"{who}: expected (activation, dropout), got {len(args)} arguments")
            first, second = args
        else:
            inplace, a = _lead_bool(args, False)
            if not a:
                raise ArgumentError(f"{who}: expected ([inplace,] [activation params,] keep_p), got {args}")
            first, second = act_cls(inplace, *a[:-1]), dropout.Dropout(inplace, a[-1])
        return fused.check_fusable(who, first, second, (act_cls,), (dropout.Dropout,))

    def _add_act(self, act_name, args):
        """add_<act>([inplace,] [act params...]): one node computing act(X1 + X2)."""
        inplace, a = _lead_bool(args, False)
        return fused.fuse(binary.Add(), ACTS[act_name](inplace, *a))

    def __getattr__(self, name):
        head, _, tail = name.partition("_")
        if head in ("batchNorm", "affine") and tail in ACTS:
            return lambda *args: self._norm_act(head, tail, args)
        if name.startswith("global_batchNorm_") and name[17:] in ACTS:
            return lambda *args: self._norm_act("global_batchNorm", name[17:], args)
        if name.endswith("_dropout") and name[:-8] in ACTS:
            return lambda *args: self._act_dropout(name[:-8], args)
        if head == "add" and tail in ACTS:
            return lambda *args: self._add_act(tail, args)
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(f"alpha.nn has no unit or zoo net named {name!r}")

    def extend(self, constructors):
        """Add constructors from a layer above nn (the facade adds alpha_py.zoo's nets and blocks, so
        nn.ResNet18(...) works); a name this factory already has is refused. Returns self."""
        for name, make in dict(constructors).items():
            if name.startswith("_") or hasattr(self, name):
                raise ArgumentError(f"alpha.nn.extend: {name!r} is private or already names a unit")
            setattr(self, name, make)
        return self


for _name, _cls in ACTS.items():           # nn.relu(), nn.leakyRelu([inplace,] [slope]), ...: one per ops row
    _params = "".join(f", {p.name}={p.default}" for p in ACTIVATIONS[_name].params)
    _make = _inplace_first(_cls, MATH2 if _name in MATH2_NAMES else False,
                           doc=f"{_name}([inplace{_params}]) -> {_cls.__name__}: {_cls.__doc__}")
    _make.__name__, _make.__qualname__ = _name, f"NN.{_name}"
    setattr(NN, _name, _make)

for _name, _cls in emath.MATH_CLASSES.items():   # nn.abs(), nn.clip([inplace,] vmin, vmax), ...: one per row
    _forms = " | ".join("(" + ", ".join(f) + ")" for f in MATH[_name].forms)
    _make = _inplace_first(_cls, MATH2 if _name in MATH2_NAMES else False,
                           doc=f"{_name}([inplace,] {_forms}) -> {_cls.__name__}: {_cls.__doc__}")
    _make.__name__, _make.__qualname__ = _name, f"NN.{_name}"
    setattr(NN, _name, _make)
NN.rot180 = _inplace_first(emath.Rot180, TENSOR, doc="rot180([inplace]): rotate every feature map 180 degrees.")
for _name, _cls in emath.MATMUL_CLASSES.items():  # nn.matMul(), nn.batchMatMul([likeX1]), ...
    def _mm(self, *args, _cls=_cls, _name=_name):
        if len(args) > 1 or (args and not isinstance(args[0], bool)):
            raise ArgumentError(f"{_name}: expected ([likeX1]), got {args}")
        return _cls(*args)
    _mm.__name__, _mm.__qualname__, _mm.__doc__ = _name, f"NN.{_name}", f"{_name}([likeX1]): {_cls.__doc__}"
    setattr(NN, _name, _mm)

nn = NN()
