"""Zoo layer: the residual / attention / multi-branch blocks of API.md — BasicBlock, BottleNeck,
SEBlock, Inception — as nn.Modules over alpha.nn units and alpha.F. Imports nn, F and zoo.common only."""
from ..functional import F
from ..nn.factory import nn
from ..nn.unit import Module
from .common import ChannelScale, add_act, check_act, conv_bn, conv_bn_act


class BasicBlock(Module):
    """ResNet basic block: conv3x3(stride)-BN-act-conv3x3-BN, plus the shortcut (identity, or
    conv1x1(stride)-BN when the shape changes), then act(sum). Optional SE on the residual."""

    expansion = 1

    def __init__(self, act="leakyRelu", in_channels=64, out_channels=64, stride=1, se_reduction=0):
        super().__init__()
        self.act = check_act(act, "BasicBlock")
        self.conv1 = conv_bn_act(act, in_channels, out_channels, 3, stride, 1)
        self.conv2 = conv_bn(out_channels, out_channels, 3, 1, 1)
        self.se = SEBlock(act, out_channels, se_reduction) if se_reduction else None
        self.shortcut = (conv_bn(in_channels, out_channels, 1, stride, 0)
                         if stride != 1 or in_channels != out_channels else None)

    def __forward__(self, X):
        res = self.conv2(self.conv1(X))
        if self.se is not None:
            res = self.se(res)
        sc = self.shortcut(X) if self.shortcut is not None else [X]
        return add_act(self.act, res[0], sc[0])


class BottleNeck(Module):
    """ResNet bottleneck: conv1x1 (in->mid)-BN-act, conv3x3(stride) mid->mid-BN-act,
    conv1x1 mid->mid*4-BN, shortcut, act(sum). out_channels = mid * 4."""

    expansion = 4

    def __init__(self, act="leakyRelu", in_channels=64, mid_channels=64, stride=1, se_reduction=0):
        super().__init__()
        self.act = check_act(act, "BottleNeck")
        out = mid_channels * self.expansion
        self.conv1 = conv_bn_act(act, in_channels, mid_channels, 1, 1, 0)
        self.conv2 = conv_bn_act(act, mid_channels, mid_channels, 3, stride, 1)
        self.conv3 = conv_bn(mid_channels, out, 1, 1, 0)
        self.se = SEBlock(act, out, se_reduction) if se_reduction else None
        self.shortcut = conv_bn(in_channels, out, 1, stride, 0) if stride != 1 or in_channels != out else None

    def __forward__(self, X):
        res = self.conv3(self.conv2(self.conv1(X)))
        if self.se is not None:
            res = self.se(res)
        sc = self.shortcut(X) if self.shortcut is not None else [X]
        return add_act(self.act, res[0], sc[0])


class SEBlock(Module):
    """Squeeze-and-excitation: s = sigmoid(fc2(act(fc1(avgpool(X))))), Y = X * s per channel."""

    def __init__(self, act="leakyRelu", channels=64, reduction=16):
        super().__init__()
        self.act = check_act(act, "SEBlock")
        hidden = max(channels // max(int(reduction), 1), 4)
        self.squeeze = nn.sequence(nn.adaptive_avgPool2D(1), nn.flatten())
        self.fc1 = nn.fullconnect(channels, hidden)
        self.fc2 = nn.fullconnect(hidden, channels)
        self.scale = ChannelScale()

    def __forward__(self, X):
        s = self.squeeze(X)
        s = getattr(F, self.act)(self.fc1(s))
        s = F.sigmoid(self.fc2(s))
        return self.scale(X, s)


class Inception(Module):
    """GoogLeNet inception: four branches concatenated on channels — 1x1; 1x1->3x3; 1x1->3x3->3x3
    (the 5x5 branch as two 3x3); maxPool3x3 -> 1x1. Output channels c1 + c3 + c5 + pool_proj."""

    def __init__(self, act="leakyRelu", in_channels=192, c1=64, c3_reduce=96, c3=128, c5_reduce=16,
                 c5=32, pool_proj=32):
        super().__init__()
        check_act(act, "Inception")
        self.out_channels = c1 + c3 + c5 + pool_proj
        self.b1 = conv_bn_act(act, in_channels, c1, 1, 1, 0)
        self.b2 = nn.sequence(conv_bn_act(act, in_channels, c3_reduce, 1, 1, 0),
                              conv_bn_act(act, c3_reduce, c3, 3, 1, 1))
        self.b3 = nn.sequence(conv_bn_act(act, in_channels, c5_reduce, 1, 1, 0),
                              conv_bn_act(act, c5_reduce, c5, 3, 1, 1),
                              conv_bn_act(act, c5, c5, 3, 1, 1))
        self.b4 = nn.sequence(nn.maxPool2D(3, 1, 1), conv_bn_act(act, in_channels, pool_proj, 1, 1, 0))
        self.cat = nn.concat(-1)

    def __forward__(self, X):
        return self.cat(self.b1(X), self.b2(X), self.b3(X), self.b4(X))

