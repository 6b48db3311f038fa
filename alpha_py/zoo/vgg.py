"""Zoo layer: VGG16 / VGG19 (optionally with BatchNorm) for small inputs: 3x3 conv stages with
maxPool 2/2 between them (skipped once the map is 1 pixel), global average pool, fullconnect."""
from ..nn.factory import nn
from ..nn.unit import Module
from .common import Head, act_unit, bn_act, check_act, check_geometry

CFG = {16: (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"),
       19: (64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M",
            512, 512, 512, 512, "M")}


class VGG(Module):
    def __init__(self, depth, act="leakyRelu", batchNorm=True, in_channels=3, num_classes=10,
                 input_size=32):
        super().__init__()
        who = f"VGG{depth}"
        check_act(act, who)
        check_geometry(who, in_channels, num_classes, input_size)
        units, c, size = [], in_channels, input_size
        for v in CFG[depth]:
            if v == "M":
                if size >= 2:
                    units.append(nn.maxPool2D(2, 2, 0))
                    size //= 2
                continue
            units.append(nn.conv3D(not batchNorm, c, v, 3, 1, 1))
            units.append(bn_act(act, v) if batchNorm else act_unit(act))
            c = v
        self.features = nn.sequence(*units)
        self.head = Head(c, num_classes)

    def __forward__(self, X):
        return self.head(self.features(X))


class VGG16(VGG):
    def __init__(self, act="leakyRelu", batchNorm=True, in_channels=3, num_classes=10, input_size=32):
        super().__init__(16, act, batchNorm, in_channels, num_classes, input_size)


class VGG19(VGG):
    def __init__(self, act="leakyRelu", batchNorm=True, in_channels=3, num_classes=10, input_size=32):
        super().__init__(19, act, batchNorm, in_channels, num_classes, input_size)
