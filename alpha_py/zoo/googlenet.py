"""Zoo layer: GoogLeNet (Inception v1 layout, small-input variant): stem conv3x3 -> 192 ch,
inception 3a/3b, maxPool, 4a-4e, maxPool, 5a/5b, global average pool, fullconnect."""
from ..nn.factory import nn
from ..nn.unit import Module
from .blocks import Inception
from .common import Head, check_act, check_geometry, stem

# (c1, c3_reduce, c3, c5_reduce, c5, pool_proj) per inception module, as in Szegedy et al. 2015
_CFG = [("a3", 64, 96, 128, 16, 32, 32), ("b3", 128, 128, 192, 32, 96, 64), "M",
        ("a4", 192, 96, 208, 16, 48, 64), ("b4", 160, 112, 224, 24, 64, 64),
        ("c4", 128, 128, 256, 24, 64, 64), ("d4", 112, 144, 288, 32, 64, 64),
        ("e4", 256, 160, 320, 32, 128, 128), "M",
        ("a5", 256, 160, 320, 32, 128, 128), ("b5", 384, 192, 384, 48, 128, 128)]


class GoogLeNet(Module):
    def __init__(self, act="leakyRelu", in_channels=3, num_classes=10, input_size=32):
        super().__init__()
        check_act(act, "GoogLeNet")
        check_geometry("GoogLeNet", in_channels, num_classes, input_size)
        self.stem = stem(act, in_channels, 192, input_size)
        units, c = [], 192
        for spec in _CFG:
            if spec == "M":
                units.append(nn.maxPool2D(3, 2, 1))
                continue
            block = Inception(act, c, *spec[1:])
            units.append(block)
            c = block.out_channels
        self.inception = nn.sequence(*units)
        self.head = Head(c, num_classes)

    def __forward__(self, X):
        return self.head(self.inception(self.stem(X)))
