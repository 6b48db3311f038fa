"""Zoo layer: ResNet18/34/50 and SENet (SE-ResNet18) with stems for 32x32x3 (CIFAR), 28x28x1
(MNIST) or large (>= 64 px) inputs and a global-average-pool + fullconnect head."""
from ..nn.factory import nn
from ..nn.unit import Module
from .blocks import BasicBlock, BottleNeck
from .common import Head, check_act, check_geometry, stem


class ResNet(Module):
    """Stem (64 ch) -> 4 stages of `block` (64, 128, 256, 512 ch; stride 1, 2, 2, 2) -> head."""

    def __init__(self, block, layers, act="leakyRelu", in_channels=3, num_classes=10, input_size=32,
                 se_reduction=0):
        super().__init__()
        who = type(self).__name__
        check_act(act, who)
        check_geometry(who, in_channels, num_classes, input_size)
        self.stem = stem(act, in_channels, 64, input_size)
        c = 64
        stages = []
        for i, (width, n) in enumerate(zip((64, 128, 256, 512), layers)):
            blocks = []
            for j in range(n):
                stride = 2 if i > 0 and j == 0 else 1
                blocks.append(block(act, c, width, stride, se_reduction))
                c = width * block.expansion
            stages.append(nn.sequence(*blocks))
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.head = Head(c, num_classes)

    def __forward__(self, X):
        X = self.stem(X)
        for layer in (self.layer1, self.layer2, self.layer3, self.layer4):
            X = layer(X)
        return self.head(X)


class ResNet18(ResNet):
    def __init__(self, act="leakyRelu", in_channels=3, num_classes=10, input_size=32):
        super().__init__(BasicBlock, (2, 2, 2, 2), act, in_channels, num_classes, input_size)


class ResNet34(ResNet):
    def __init__(self, act="leakyRelu", in_channels=3, num_classes=10, input_size=32):
        super().__init__(BasicBlock, (3, 4, 6, 3), act, in_channels, num_classes, input_size)


class ResNet50(ResNet):
    def __init__(self, act="leakyRelu", in_channels=3, num_classes=10, input_size=32):
        super().__init__(BottleNeck, (3, 4, 6, 3), act, in_channels, num_classes, input_size)


class SENet(ResNet):
    """SE-ResNet18: every BasicBlock re-weights its residual channels with an SEBlock (reduction 16)."""

    def __init__(self, act="leakyRelu", in_channels=3, num_classes=10, input_size=32, reduction=16):
        super().__init__(BasicBlock, (2, 2, 2, 2), act, in_channels, num_classes, input_size, reduction)
