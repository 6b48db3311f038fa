"""nn layer: the nn factory's v1.2 names beyond the core set — the 1D pools, avgUnpool2D, the _with_Index max
pools, sqBatchNorm / global_sqBatchNorm, point_conv2D / point_deconv2D / point_deconv3D, bernouliMul and
<act>_bernouliMul, linear2_<act>, the _center binary forms, print_param_stat and constant_params. A mixin of NN
(factory.py). Imports the nn unit modules, alpha_py.ops, alpha_py.params and errors only."""
from ..errors import ArgumentError
from ..ops import ACTIVATIONS
from ..params import AlphaParam
from . import activation as act
from . import binary, binary_row, conv, dropout, fused, norm_sq, pool_ext
from .unit import Unit

ACTS = act.ACTIVATION_CLASSES


def _lead_bool(args, default):
    if args and isinstance(args[0], bool):
        return args[0], args[1:]
    return default, args


def pool_args(cls, args, who):
    """(div), (k, stride, pad) or (kh, kw, sh, sw, ph, pw) for 2D; (div) or (kw, sw, pw) for 1D."""
    one_d = issubclass(cls, pool_ext._Pool1D)
    if len(args) in (1, 3):
        return cls(*args)
    if len(args) == 6 and not one_d:
        kh, kw, sh, sw, ph, pw = args
        return cls((kh, kw), (sh, sw), (ph, pw))
    want = "(div) or (kernel_width, stride_width, padding_width)" if one_d else \
        "(div), (kernel, stride, padding) or (kh, kw, sh, sw, ph, pw)"
    raise ArgumentError(f"{who}: expected {want}, got {args}")


class FacadeFactory:
    # ------------------------------------------------------------------ pools
    def maxPool1D(self, *args):
        """maxPool1D(div) / (kernel_width, stride_width, padding_width) over [N, W, C]."""
        return pool_args(pool_ext.MaxPool1D, args, "maxPool1D")

    def avgPool1D(self, *args):
        """avgPool1D(div) / (kernel_width, stride_width, padding_width): divides by kernel_width (v1.2)."""
        return pool_args(pool_ext.AvgPool1D, args, "avgPool1D")

    def adaptive_maxPool1D(self, out_width):
        return pool_ext.AdaptiveMaxPool1D(out_width)

    def adaptive_avgPool1D(self, out_width):
        return pool_ext.AdaptiveAvgPool1D(out_width)

    def avgUnpool2D(self, *args):
        """avgUnpool2D(mul) / (kernel, stride, padding) / (kh, kw, sh, sw, ph, pw): avgPool2D's transpose."""
        return pool_args(pool_ext.AvgUnpool2D, args, "avgUnpool2D")

    # ------------------------------------------------------------------ sqBatchNorm
    def sqBatchNorm(self, *args):
        """(dims...), ([inplace,] affine, beta1, beta2, eps, dims...), (inplace, dims...)."""
        return self._bn(norm_sq.SqBatchNorm, args, "sqBatchNorm")

    def global_sqBatchNorm(self, *args):
        return self._bn(norm_sq.GlobalSqBatchNorm, args, "global_sqBatchNorm")

    # ------------------------------------------------------------------ point convolutions
    @staticmethod
    def _point(cls, args, who):
        biased, a = _lead_bool(args, True)
        if len(a) != 2:
            raise ArgumentError(f"{who}: expected ([biased,] in_channel, out_channel), got {args}")
        return cls(biased, a[0], a[1], 1, 1, 0)

    def point_conv2D(self, *args):
        """1x1 conv2D over [N, W, C]: ([biased,] in_channel, out_channel)."""
        return self._point(conv.Conv2D, args, "point_conv2D")

    def point_deconv2D(self, *args):
        return self._point(conv.Deconv2D, args, "point_deconv2D")

    def point_deconv3D(self, *args):
        return self._point(conv.Deconv3D, args, "point_deconv3D")

    # ------------------------------------------------------------------ bernouliMul
    def bernouliMul(self, *args):
        """bernouliMul([inplace,] p, v1, v2); no inplace: AlphaParam.sp_math2_inplace."""
        inplace, a = _lead_bool(args, AlphaParam.sp_math2_inplace)
        if len(a) != 3:
            raise ArgumentError(f"bernouliMul: expected ([inplace,] p, v1, v2), got {args}")
        return dropout.BernouliMul(inplace, *a)

    def _act_bernouli(self, act_name, args):
        """<act>_bernouliMul(act, bernouliMul) from units, or ([inplace,] [act params...,] p, v1, v2)."""
        who = f"{act_name}_bernouliMul"
        if args and isinstance(args[0], Unit):
            if len(args) != 2:
                raise ArgumentError(f"{who}: expected (activation, bernouliMul), got {len(args)} arguments")
            first, second = args
        else:
            inplace, a = _lead_bool(args, False)
            if len(a) < 3:
                raise ArgumentError(f"{who}: expected ([inplace,] [activation params,] p, v1, v2), got {args}")
            first, second = ACTS[act_name](inplace, *a[:-3]), dropout.BernouliMul(inplace, *a[-3:])
        return fused.check_fusable(who, first, second, (ACTS[act_name],), (dropout.BernouliMul,))

    def _linear2_act(self, act_name, args):
        """linear2_<act>(linear2, act) from units, or ([likeX1,] alpha, beta, gamma, [act params...])."""
        who = f"linear2_{act_name}"
        if args and isinstance(args[0], Unit):
            if len(args) != 2:
                raise ArgumentError(f"{who}: expected (linear2, activation), got {len(args)} arguments")
            first, second = args
        else:
            likeX1, a = _lead_bool(args, None)       # None: Linear2 reads AlphaParam.dl_likeX1
            if len(a) < 3:
                raise ArgumentError(f"{who}: expected ([likeX1,] alpha, beta, gamma, [activation params]), got {args}")
            first, second = binary.Linear2(likeX1, *a[:3]), ACTS[act_name](False, *a[3:])
        if type(first) is not binary.Linear2:
            raise ArgumentError(f"{who}: expected (Linear2, {ACTS[act_name].__name__}), got "
                                f"({type(first).__name__}, {type(second).__name__})")
        return fused.check_fusable(who, first, second, (binary.Linear2,), (ACTS[act_name],))

    # ------------------------------------------------------------------ _center forms
    @staticmethod
    def _center(cls, who, args, forms, dim2_first=False):
        """forms: {count: function(params) -> constructor params}; dim2 = -1 unless given first."""
        dim2, a = -1, tuple(args)
        if dim2_first and len(a) == 7:
            dim2, a = a[0], a[1:]
        if len(a) not in forms or any(isinstance(v, bool) for v in a):
            raise ArgumentError(f"{who}: expected {' or '.join(f'{n} numbers' for n in forms)}, got {args}")
        return cls(dim2, *forms[len(a)](*a))

    def add_center(self, *args):
        """add_center([alpha, beta]): Y = alpha*X1 + beta*X2 (X2 [dim0, dim2] over X1 [dim0, dim1, dim2])."""
        return self._center(binary_row.Linear2Center, "add_center", args,
                            {0: lambda: (1.0, 1.0, 0.0), 2: lambda a, b: (a, b, 0.0)})

    def sub_center(self, *args):
        """sub_center([alpha, beta]): Y = alpha*X1 - beta*X2."""
        return self._center(binary_row.Linear2Center, "sub_center", args,
                            {0: lambda: (1.0, -1.0, 0.0), 2: lambda a, b: (a, -b, 0.0)})

    def linear2_center(self, *args):
        """linear2_center(alpha, beta, gamma): Y = alpha*X1 + beta*X2 + gamma."""
        return self._center(binary_row.Linear2Center, "linear2_center", args, {3: lambda a, b, g: (a, b, g)})

    def mul_center(self, *args):
        """mul_center([alpha]): Y = alpha*X1*X2."""
        return self._center(binary_row.Quadratic2Center, "mul_center", args,
                            {0: lambda: (0.0, 1.0), 1: lambda a: (0.0, a)})

    def sqadd_center(self, *args):
        """sqadd_center([alpha, beta]): Y = alpha*X1^2 + beta*X2^2."""
        return self._center(binary_row.Quadratic2Center, "sqadd_center", args,
                            {0: lambda: (1.0, 0.0, 1.0), 2: lambda a, b: (a, 0.0, b)})

    def sqsub_center(self, *args):
        """sqsub_center(): Y = X1^2 - X2^2."""
        return self._center(binary_row.Quadratic2Center, "sqsub_center", args, {0: lambda: (1.0, 0.0, -1.0)})

    def quadratic2_center(self, *args):
        """quadratic2_center([dim2,] k11, k12, k22, k1, k2, C)."""
        return self._center(binary_row.Quadratic2Center, "quadratic2_center", args, {6: lambda *k: k},
                            dim2_first=True)

    # ------------------------------------------------------------------ utilities
    def print_param_stat(self, unit):
        """Print each trainable parameter's name, mean and (population) std, sorted by name (v1.2)."""
        if not isinstance(unit, Unit):
            raise ArgumentError(f"print_param_stat: expected a Unit, got {type(unit).__name__}")
        for name, p in sorted(unit.param_map().items()):
            print(f"name = [{name} ]\t, mean = [ {p.mean().get()} ]\t, std = [{p.std().get()}]")

    def constant_params(self, unit, value):
        """Set every trainable parameter of `unit` to `value` (v1.2)."""
        if not isinstance(unit, Unit):
            raise ArgumentError(f"constant_params: expected a Unit, got {type(unit).__name__}")
        for p in unit.params():
            p.constant(value)


for _name in ACTIVATIONS:                 # linear2_relu(...), relu_bernouliMul(...), ...: one per ops row
    def _l2(self, *args, _n=_name):
        return self._linear2_act(_n, args)

    def _bm(self, *args, _n=_name):
        return self._act_bernouli(_n, args)
    _l2.__name__, _bm.__name__ = f"linear2_{_name}", f"{_name}_bernouliMul"
    _l2.__doc__ = f"linear2_{_name}(linear2, {_name}) or ([likeX1,] alpha, beta, gamma, [{_name} params]): {_name}(alpha*X1 + beta*X2 + gamma)."
    _bm.__doc__ = f"{_name}_bernouliMul({_name}, bernouliMul) or ([inplace,] [{_name} params,] p, v1, v2)."
    setattr(FacadeFactory, _l2.__name__, _l2)
    setattr(FacadeFactory, _bm.__name__, _bm)
FacadeFactory.linear2_Elu = FacadeFactory.linear2_elu          # v1.2's nn spelling
