"""Zoo layer: Dragon-Alpha v1.2's ConvNeXt family and attention blocks, as v1.2 builds them — ConvNeXtBlock,
ConvNeXt, GatedBlock, LargeKernelAttn, ChannelMHA, ImageMHA — Modules over alpha.nn units and alpha.F, with v1.2's
overloads (units may be passed for the activation / normalisation / mask; None where v1.2 passes null).
Imports nn, F and errors only."""
import math

from ..errors import ArgumentError, ShapeError, fmt_shape
from ..functional import F
from ..nn.factory import nn
from ..nn.unit import Module, Unit


def _is_unit(v):
    return v is None or isinstance(v, Unit)


def _ints(who, vals):
    if any(isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in vals):
        raise ArgumentError(f"{who}: channel/kernel arguments must be positive ints, got {list(vals)}")
    return vals


class ConvNeXtBlock(Module):
    """Y = X + pwconv2(act(pwconv1(norm(dwconv(X))))): dwconv a bias-free depthwise k x k conv (padding k/2),
    pwconv1/2 bias-free fullconnects in -> in*expand -> out over the channels (X [N, H, W, in]; out == in for the
    residual). (in, out, expand[, kernel=7]) uses gelu and layerNorm(in); or (act, norm, in, expand, out, kernel)."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 6 and _is_unit(args[0]) and _is_unit(args[1]):
            act, norm, c_in, expand, c_out, k = args
        elif len(args) in (3, 4):
            c_in, c_out, expand = args[:3]
            k = args[3] if len(args) == 4 else 7
            act, norm = nn.gelu(), nn.layerNorm(c_in)
        else:
            raise ArgumentError(f"ConvNeXtBlock: expected (in_channel, out_channel, expand[, kernel]) or "
                                f"(act, norm, in_channel, expand, out_channel, kernel), got {args}")
        _ints("ConvNeXtBlock", (c_in, expand, c_out, k))
        self.act, self.norm = act, norm
        self.dwconv = nn.depthwise_conv3D(False, c_in, k, 1, k // 2)
        self.pwconv1 = nn.fullconnect(False, c_in, c_in * expand)
        self.pwconv2 = nn.fullconnect(False, c_in * expand, c_out)
        self.add = nn.add()

    def __forward__(self, X):
        Y = self.norm(self.dwconv(X))
        Y = self.act(self.pwconv1(Y))
        return self.add(self.pwconv2(Y)[0], X)


class ConvNeXt(Module):
    """v1.2's ConvNeXt(in_channel, expand): stages of 3, 3, 9, 3 ConvNeXtBlocks on C, 2C, 4C, 8C channels, each of
    the first three followed by a patchify downsample (layerNorm, then a bias-free 2x2 stride-2 conv3D)."""

    def __init__(self, in_channel, expand):
        super().__init__()
        _ints("ConvNeXt", (in_channel, expand))
        c = [in_channel << i for i in range(4)]
        self.layer1, self.layer2, self.layer3, self.layer4 = (
            nn.sequence(*[ConvNeXtBlock(ch, ch, expand) for _ in range(n)]) for ch, n in zip(c, (3, 3, 9, 3)))
        self.downsample1, self.downsample2, self.downsample3 = (
            nn.sequence(nn.layerNorm(c[i]), nn.conv3D(False, c[i], c[i + 1], 2, 2, 0)) for i in range(3))

    def __forward__(self, X):
        X = self.downsample1(self.layer1(X))
        X = self.downsample2(self.layer2(X))
        X = self.downsample3(self.layer3(X))
        return self.layer4(X)


class GatedBlock(Module):
    """Y = X + out_fc(act(gate_fc(Z)) * [dwconv(conv_fc(Z)), idty_fc(Z)]) with Z = norm(X) (norm may be None);
    hidden = in*expand, conv_channel = int(in*conv_ratio), the identity branch takes the rest.
    (act, norm, in_channel, kernel) means conv_ratio 1, expand 1; or (act, norm, in_channel, conv_ratio, expand, kernel)."""

    def __init__(self, act, norm, in_channel, *args):
        super().__init__()
        if len(args) == 1:
            conv_ratio, expand, kernel = 1.0, 1, args[0]
        elif len(args) == 3:
            conv_ratio, expand, kernel = args
        else:
            raise ArgumentError(f"GatedBlock: expected (act, norm, in_channel, kernel) or (act, norm, in_channel, "
                                f"conv_ratio, expand, kernel), got {(act, norm, in_channel) + args}")
        _ints("GatedBlock", (in_channel, expand, kernel))
        hidden, conv_c = in_channel * expand, int(in_channel * conv_ratio)
        if not 0 < conv_c <= hidden:
            raise ArgumentError(f"GatedBlock: conv_ratio {conv_ratio} gives {conv_c} conv channels, expected 1..{hidden}")
        self.act, self.norm = act, norm
        self.gate_fc = nn.fullconnect(False, in_channel, hidden)
        self.conv_fc = nn.fullconnect(False, in_channel, conv_c)
        self.idty_fc = nn.fullconnect(False, in_channel, hidden - conv_c) if hidden > conv_c else None
        self.cat = nn.concat(-1) if hidden > conv_c else None
        self.conv = nn.depthwise_conv3D(False, conv_c, kernel, 1, kernel // 2)
        self.mul, self.out_fc, self.add = nn.mul(), nn.fullconnect(False, hidden, in_channel), nn.add()

    def __forward__(self, X):
        Z = self.norm(X) if self.norm is not None else [X]
        G = self.act(self.gate_fc(Z))[0]
        C = self.conv(self.conv_fc(Z))[0]
        if self.idty_fc is not None:
            C = self.cat(C, self.idty_fc(Z)[0])[0]
        return self.add(self.out_fc(self.mul(G, C))[0], X)


class LargeKernelAttn(Module):
    """Y = X * mask(fc3(dwconv(act(fc1(batchNorm(X)))))) (act / mask may be None): fc1 channel -> hidden (default
    channel), a bias-free depthwise kernel x kernel conv, fc3 hidden -> channel. Overloads (mask, channel, kernel),
    (mask, channel, hidden, kernel), (act, mask, channel, kernel), (act, mask, channel, hidden, kernel)."""

    def __init__(self, *args):
        super().__init__()
        units = 2 if len(args) >= 2 and _is_unit(args[0]) and _is_unit(args[1]) else 1
        if not args or not _is_unit(args[0]):
            raise ArgumentError(f"LargeKernelAttn: expected ([act,] mask, channel, [hidden,] kernel), got {args}")
        act, mask = (args[0], args[1]) if units == 2 else (None, args[0])
        rest = args[units:]
        if len(rest) == 2:
            channel, hidden, kernel = rest[0], rest[0], rest[1]
        elif len(rest) == 3:
            channel, hidden, kernel = rest
            hidden = channel if hidden == -1 else hidden
        else:
            raise ArgumentError(f"LargeKernelAttn: expected ([act,] mask, channel, [hidden,] kernel), got {args}")
        _ints("LargeKernelAttn", (channel, hidden, kernel))
        self.act, self.mask = act, mask
        self.bn = nn.batchNorm(channel)
        self.conv1 = nn.fullconnect(False, channel, hidden)
        self.conv2 = nn.depthwise_conv3D(False, hidden, kernel, 1, kernel // 2)
        self.conv3 = nn.fullconnect(False, hidden, channel)
        self.mul = nn.mul()

    def __forward__(self, X):
        Y = self.conv1(self.bn(X))
        if self.act is not None:
            Y = self.act(Y)
        Y = self.conv3(self.conv2(Y))
        if self.mask is not None:
            Y = self.mask(Y)
        return self.mul(Y[0], X)


def _mha_inputs(who, X, head):
    if len(X) != 3:
        raise ShapeError(f"{who}: expected 3 inputs (Q, K, V), got {len(X)}")
    for name, t in zip("QKV", X):
        if t.ndim() < 2:
            raise ShapeError(f"{who}: {name} {fmt_shape(t.shape)} must have rank >= 2")
    n = [t.shape[0] if t.ndim() > 2 else 1 for t in X]
    if len(set(n)) != 1:
        raise ShapeError(f"{who}: Q, K, V batches differ: {n}")
    return n[0]


class ChannelMHA(Module):
    """v1.2's channel-split multi-head attention over Q, K, V [N, ..., C] (sequence = the middle dims): each head
    takes C/head channels; P = softmax(Q_h K_h^T / sqrt(C_K)) (mask applied to P when given), Y = P V_h, heads
    concatenated back in Q's shape with V's channel count."""

    def __init__(self, head, mask=None):
        super().__init__()
        _ints("ChannelMHA", (head,))
        self.head, self.mask = head, mask

    def __forward__(self, *X):
        n = _mha_inputs("ChannelMHA", X, self.head)
        Q, K, V = X
        kc, vc = K.shape[-1], V.shape[-1]
        if Q.shape[-1] != kc or kc % self.head or vc % self.head:
            raise ShapeError(f"ChannelMHA: Q {fmt_shape(Q.shape)}, K {fmt_shape(K.shape)}, V {fmt_shape(V.shape)}: "
                             f"Q and K need equal channels, both channel counts a multiple of head={self.head}")
        ql, kl = math.prod(Q.shape) // (n * kc), math.prod(K.shape) // (n * kc)
        if kl != math.prod(V.shape) // (n * vc):
            raise ShapeError(f"ChannelMHA: K {fmt_shape(K.shape)} and V {fmt_shape(V.shape)} sequence lengths differ")
        h = self.head
        q = F.transpose(1, 2, F.view(n, ql, h, kc // h, Q))[0]             # [N, head, QL, dK]
        k = F.transpose(1, 2, F.view(n, kl, h, kc // h, K))[0]
        v = F.transpose(1, 2, F.view(n, kl, h, vc // h, V))[0]
        P = F.softmax(F.sdiv(math.sqrt(kc), F.batchMatMulT2(q, k)))        # [N, head, QL, KL]
        if self.mask is not None:
            P = self.mask(P)
        Y = F.transpose(1, 2, F.batchMatMul(P[0], v))[0]                   # [N, QL, head, dV]
        return F.view(*(Q.shape[:-1] + (vc,)), Y)


class ImageMHA(Module):
    """v1.2's spatial-split multi-head attention over Q, K, V [N, ..., C] with equal channel counts: each head takes
    L/head positions; P = softmax(Q_h^T K_h / sqrt(L/head)) over channels (mask applied to P when given),
    Y = V_h P^T (v1.2's batchMatMulT2(V, P)): output in K's shape."""

    def __init__(self, head, mask=None):
        super().__init__()
        _ints("ImageMHA", (head,))
        self.head, self.mask = head, mask

    def __forward__(self, *X):
        n = _mha_inputs("ImageMHA", X, self.head)
        Q, K, V = X
        qc, kc, vc = Q.shape[-1], K.shape[-1], V.shape[-1]
        ql, kl, vl = (math.prod(t.shape) // (n * t.shape[-1]) for t in X)
        if not qc == kc == vc or not ql == kl == vl or kl % self.head:
            raise ShapeError(f"ImageMHA: Q {fmt_shape(Q.shape)}, K {fmt_shape(K.shape)}, V {fmt_shape(V.shape)}: "
                             f"Q, K, V need equal channels and equal lengths, a multiple of head={self.head}")
        nh = n * self.head
        q, k, v = F.view(nh, kl // self.head, vc, Q)[0], F.view(nh, kl // self.head, kc, K)[0], \
            F.view(nh, vl // self.head, vc, V)[0]
        P = F.softmax(F.sdiv(math.sqrt(kl // self.head), F.batchMatMulT1(q, k)))   # [N*head, VC, KC]
        if self.mask is not None:
            P = self.mask(P)
        Y = F.batchMatMulT2(v, P[0])                                        # [N*head, dVL, C]
        return F.view(*(K.shape[:-1] + (kc,)), Y)
