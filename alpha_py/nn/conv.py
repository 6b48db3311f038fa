"""nn layer: convolution units over NHWC (conv3D, pointwise_conv3D, deconv3D, depthwise_conv3D,
and the 1D conv2D/deconv2D over NWC). Forward/backward are engine primitives only."""
import math

import numpy as np

from ..core.autograd import GradBits
from ..errors import ArgumentError, fmt_shape
from .unit import Unit


def _pair(v, name, unit):
    if isinstance(v, (list, tuple)):
        if len(v) != 2:
            raise ArgumentError(f"{unit}: {name} must be an int or a pair, got {v!r}")
        return int(v[0]), int(v[1])
    return int(v), int(v)


class _ConvBase(Unit):
    """Shared hyper-parameter handling: kernel (kh, kw), stride, padding, bias."""

    def __init__(self, biased, in_channels, out_channels, kernel, stride, padding):
        super().__init__()
        who = type(self).__name__
        self.biased = bool(biased)
        self.in_channels, self.out_channels = int(in_channels), int(out_channels)
        self.kernel = _pair(kernel, "kernel", who)
        self.stride = _pair(stride, "stride", who)
        self.padding = _pair(padding, "padding", who)
        if self.in_channels <= 0 or self.out_channels <= 0:
            raise ArgumentError(f"{who}: channels must be positive, got in={in_channels}, out={out_channels}")
        if min(self.kernel) <= 0 or min(self.stride) <= 0 or min(self.padding) < 0:
            raise ArgumentError(f"{who}: need kernel>0, stride>0, padding>=0; got kernel={self.kernel}, "
                                f"stride={self.stride}, padding={self.padding}")

    def needs_init(self):
        return True

    def weight(self):
        return self._params["weight"]

    def bias(self):
        return self._params.get("bias")

    def _init_wb(self, eg, w_shape, fan_in, bias_len):
        w = self._param("weight", eg.backend.empty(w_shape))
        eg.kaiming_uniform(w, fan_in)
        if self.biased:
            bound = 1.0 / math.sqrt(fan_in)
            self._param("bias", eg.backend.uniform((bias_len,), -bound, bound))

    def _check_nhwc(self, xs, channels):
        x = xs[0]
        if x.ndim() != 4:
            raise self.error(f"input {fmt_shape(x.shape)} must be 4D [N,H,W,C=={channels}]")
        if x.shape[3] != channels:
            n, h, w, c = x.shape
            raise self.error(f"input [N={n},H={h},W={w},C={c}], expected C={channels}")
        (kh, kw), (ph, pw) = self.kernel, self.padding
        if x.shape[1] + 2 * ph < kh or x.shape[2] + 2 * pw < kw:
            raise self.error(f"input {fmt_shape(x.shape)} with padding {self.padding} is smaller "
                             f"than the kernel {self.kernel}")

    def _add_bias(self, eg, y):
        return eg.backend.add(y, self.bias().data) if self.biased else y

    def _bias_grad(self, eg, gy):
        if self.biased:
            self.bias().accumulate_grad(eg.backend.bias_grad(gy))


class Conv3D(_ConvBase):
    """2D convolution over NHWC images; weight [OC, FH, FW, IC]; Y = conv(X, W) + b."""

    _stores_bits = True         # bf16 training: its output may be stored as bf16 bits (a LazyData, _bf16_out)

    def _create_params(self, eg):
        (kh, kw), ic, oc = self.kernel, self.in_channels, self.out_channels
        self._init_wb(eg, (oc, kh, kw, ic), ic * kh * kw, oc)

    def check_inputs(self, xs):
        self._check_nhwc(xs, self.in_channels)

    def _reads_lazy(self, eg):
        """bf16 training on the wgmma kernels reads a lazy BatchNorm output's bits (no fp32 copy)."""
        return self.training and eg.precision() == "bf16" and eg.backend.wgmma_ok()

    def _fwd(self, eg, x):
        b = eg.backend
        if self.training and eg.precision() == "bf16":       # keep the forward's bf16 cast of x for gW ...
            twin = b.twin_of(x) if b.wgmma_ok() else None
            bits = self._stores_bits and not self.biased and not eg.anomaly and b.conv_bits_ok(self.out_channels)
            gbits = bits and b.conv_grad_bits_ok(self.weight().shape, self.stride, self.padding)
            if twin is not None:                 # ... or the bits the unit that made x made once for every reader
                y = b.conv_fwd(x, self.weight().data, self.stride, self.padding, x_bf16=twin[0], y_bits=bits)
                gxbits = not eg.anomaly and b.dgrad_bits_wanted(x)     # gX handed back as bits to x's maker
                return (self._bf16_out(eg, y, gbits),), (x.shape, twin[1], gbits, gxbits)
            keep = []                            # (y comes back as bits only where a wgmma kernel kept x's cast)
            y = b.conv_fwd(x, self.weight().data, self.stride, self.padding, keep=keep, y_bits=bits)
            return (self._bf16_out(eg, y, gbits),), ((x.shape, keep[0], gbits, False) if keep else x)  # not x itself
        if self.biased:                          # (the CPU kernels add the bias as they write each output tile)
            y = b.conv_fwd_biased(x, self.weight().data, self.bias().data, self.stride, self.padding, not self.training)
            return (y,), x
        fwd = b.conv_fwd if self.training else getattr(b, "conv_fwd_eval", b.conv_fwd)   # CPU: F(4x4) at inference
        return (fwd(x, self.weight().data, self.stride, self.padding),), x

    def _bf16_out(self, eg, y, grad_bits):
        """A bf16 training forward's output: stored as the bf16 bits the kernel wrote (uint16; a BatchNorm reads them
        as they are, anything else their widening; grad_bits: its gradient is taken as bf16 bits too), else fp32
        plus the bias."""
        return eg.backend.stored(y, grad_bits) if y.dtype == np.uint16 else self._add_bias(eg, y)

    def takes_grad_bits(self, ctx):
        """bf16 training on the wgmma kernels: gY's bf16 bits feed both gradients (conv_grad_bits_ok)."""
        return isinstance(ctx, tuple) and ctx[2]

    def _bwd(self, eg, ctx, gys, needs):
        (gy,), b, w = gys, eg.backend, self.weight()
        if type(gy) is GradBits:                       # (takes_grad_bits) bf16 bits, uint16
            gy = gy.bits
        gxbits = False
        if isinstance(ctx, tuple):                     # bf16: x's cast only (the wgmma kernels read it), or a twin's
            x_shape, xb, _, gxbits = ctx               # Recast that rebuilds it
            w.accumulate_grad(b.conv_bwd_filter(None, gy, w.shape, self.stride, self.padding,
                                                x_bf16=b.twin_bits(xb)))
        else:
            x_shape = ctx.shape
            w.accumulate_grad(b.conv_bwd_filter(ctx, gy, w.shape, self.stride, self.padding))
        self._bias_grad(eg, gy)
        if not needs[0]:
            return (None,)
        gx = b.conv_bwd_data(gy, w.data, x_shape, self.stride, self.padding, **({"gx_bits": True} if gxbits else {}))
        return (GradBits(gx) if gx.dtype == np.uint16 else gx,)    # (bits where a stride-1 wgmma kernel ran)


class Deconv3D(_ConvBase):
    """Transposed convolution over NHWC; weight [IC, FH, FW, OC]; output (I-1)*s - 2p + F."""

    def _create_params(self, eg):
        (kh, kw), ic, oc = self.kernel, self.in_channels, self.out_channels
        self._init_wb(eg, (ic, kh, kw, oc), oc * kh * kw, oc)

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() != 4 or x.shape[3] != self.in_channels:
            raise self.error(f"input {fmt_shape(x.shape)}, expected [N,H,W,C={self.in_channels}]")
        if self._out_hw(x.shape)[0] <= 0 or self._out_hw(x.shape)[1] <= 0:
            raise self.error(f"input {fmt_shape(x.shape)} gives an empty output with "
                             f"kernel {self.kernel}, stride {self.stride}, padding {self.padding}")

    def _out_hw(self, shape):
        (kh, kw), (sh, sw), (ph, pw) = self.kernel, self.stride, self.padding
        return (shape[1] - 1) * sh - 2 * ph + kh, (shape[2] - 1) * sw - 2 * pw + kw

    def _fwd(self, eg, x):
        oh, ow = self._out_hw(x.shape)
        y_shape = (x.shape[0], oh, ow, self.out_channels)
        y = eg.backend.conv_bwd_data(x, self.weight().data, y_shape, self.stride, self.padding)
        return (self._add_bias(eg, y),), x

    def _bwd(self, eg, x, gys, needs):
        (gy,), b, w = gys, eg.backend, self.weight()
        w.accumulate_grad(b.conv_bwd_filter(gy, x, w.shape, self.stride, self.padding))
        self._bias_grad(eg, gy)
        return (b.conv_fwd(gy, w.data, self.stride, self.padding) if needs[0] else None,)


class DepthwiseConv3D(_ConvBase):
    """Depthwise convolution (one filter per channel) over NHWC; weight [FH, FW, C]."""

    def __init__(self, biased, channels, kernel, stride, padding):
        super().__init__(biased, channels, channels, kernel, stride, padding)

    def _create_params(self, eg):
        (kh, kw), c = self.kernel, self.in_channels
        self._init_wb(eg, (kh, kw, c), kh * kw, c)

    def check_inputs(self, xs):
        self._check_nhwc(xs, self.in_channels)

    def _fwd(self, eg, x):
        y = eg.backend.dwconv_fwd(x, self.weight().data, self.stride, self.padding)
        return (self._add_bias(eg, y),), x

    def _bwd(self, eg, x, gys, needs):
        (gy,), b, w = gys, eg.backend, self.weight()
        w.accumulate_grad(b.dwconv_bwd_filter(x, gy, w.shape, self.stride, self.padding))
        self._bias_grad(eg, gy)
        return (b.dwconv_bwd_data(gy, w.data, x.shape, self.stride, self.padding) if needs[0] else None,)


class _Conv1D:
    """Mixin: 1D convolution over NWC, run as the 2D unit on [N,1,W,C] (its output reshaped: always fp32)."""

    _stores_bits = False

    def check_inputs(self, xs):
        x = xs[0]
        if x.ndim() != 3 or x.shape[2] != self.in_channels:
            raise self.error(f"input {fmt_shape(x.shape)}, expected 3D [N,W,C={self.in_channels}]")

    def _fwd(self, eg, x):
        (y,), ctx = super()._fwd(eg, x.reshape(x.shape[0], 1, x.shape[1], x.shape[2]))
        return (y.reshape(y.shape[0], y.shape[2], y.shape[3]),), ctx

    def _bwd(self, eg, ctx, gys, needs):
        gy = gys[0]
        (gx,) = super()._bwd(eg, ctx, (gy.reshape(gy.shape[0], 1, gy.shape[1], gy.shape[2]),), needs)
        return (None if gx is None else gx.reshape(gx.shape[0], gx.shape[2], gx.shape[3]),)


class Conv2D(_Conv1D, Conv3D):
    """1D convolution over NWC; weight [OC, 1, FW, IC]."""

    def __init__(self, biased, in_channels, out_channels, kernel, stride=1, padding=0):
        super().__init__(biased, in_channels, out_channels, (1, int(kernel)), (1, int(stride)),
                         (0, int(padding)))


class Deconv2D(_Conv1D, Deconv3D):
    """1D transposed convolution over NWC; weight [IC, 1, FW, OC]."""

    def __init__(self, biased, in_channels, out_channels, kernel, stride=1, padding=0):
        super().__init__(biased, in_channels, out_channels, (1, int(kernel)), (1, int(stride)),
                         (0, int(padding)))
