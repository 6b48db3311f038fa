"""Zoo layer: HairNet, the depthwise-separable "thinned" CNN of ../shared/seeds/hairnet-thinned-cnn.txt
(Table 1): Conv-BN-act 32 -> [maxPool] -> DW blocks x2 (64) -> maxPool -> x3 (128) -> maxPool
-> x3 (256) -> maxPool -> x3 (512) -> maxPool -> x2 (top) -> global average pool [-> dense]."""
from ..nn.factory import nn
from ..nn.unit import Module
from .common import Head, bn_act, check_act, check_geometry, conv_bn_act

STAGES = ((64, 2), (128, 3), (256, 3), (512, 3))


class DepthwiseSeparable(Module):
    """The HairNet block (paper Fig. 2): depthwise 3x3 -> BN -> act -> pointwise 1x1 -> BN -> act."""

    def __init__(self, act="leakyRelu", in_channels=32, out_channels=64, stride=1):
        super().__init__()
        check_act(act, "DepthwiseSeparable")
        self.depthwise = nn.depthwise_conv3D(False, in_channels, 3, stride, 1)
        self.bn1 = bn_act(act, in_channels)
        self.pointwise = nn.pointwise_conv3D(False, in_channels, out_channels)
        self.bn2 = bn_act(act, out_channels)

    def __forward__(self, X):
        return self.bn2(self.pointwise(self.bn1(self.depthwise(X))))


class HairNet(Module):
    """dense=True (the paper's better variant): the last stage has `top` filters (1000 in Table 1),
    then GAP and one fullconnect(top, num_classes). dense=False: fully convolutional, the last stage
    has num_classes filters and GAP gives the logits. For inputs < 64 px the max pool after the stem
    is left out, and a stage's pool is skipped once the map is below 4x4 (28x28 ends at 3x3)."""

    def __init__(self, act="leakyRelu", in_channels=3, num_classes=10, input_size=32, dense=True, top=1000):
        super().__init__()
        check_act(act, "HairNet")
        check_geometry("HairNet", in_channels, num_classes, input_size)
        stem = [conv_bn_act(act, in_channels, 32, 3, 1, 1)]
        if input_size >= 64:
            stem.append(nn.maxPool2D(2, 2, 0))
        self.stem = nn.sequence(*stem)
        units, c = [], 32
        size = input_size // 2 if input_size >= 64 else input_size
        last = top if dense else num_classes
        for i, (width, n) in enumerate(STAGES + ((last, 2),)):
            if i > 0 and size >= 4:            # keep the last maps >= 2x2 (BatchNorm needs spread)
                units.append(nn.maxPool2D(2, 2, 0))
                size //= 2
            for _ in range(n):
                units.append(DepthwiseSeparable(act, c, width))
                c = width
        self.body = nn.sequence(*units)
        self.dense = bool(dense)
        self.head = Head(c, num_classes) if dense else nn.sequence(nn.adaptive_avgPool2D(1), nn.flatten())

    def __forward__(self, X):
        return self.head(self.body(self.stem(X)))
