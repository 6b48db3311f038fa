"""Zoo layer: MnistCNN (`mnist_cnn`), a small CNN for 28x28x1 digits: two conv3x3-BN-act-maxPool
stages (`width`, 2*`width` channels; 16, 32 by default) -> flatten -> fullconnect `hidden` (128) -> act ->
fullconnect num_classes."""
from ..nn.factory import nn
from ..nn.unit import Module
from .common import check_act, check_geometry, check_positive, conv_bn_act


class MnistCNN(Module):
    def __init__(self, act="leakyRelu", in_channels=1, num_classes=10, input_size=28, width=16, hidden=128):
        super().__init__()
        check_act(act, "MnistCNN")
        check_geometry("MnistCNN", in_channels, num_classes, input_size)
        check_positive("MnistCNN", width=width, hidden=hidden)
        self.conv1 = conv_bn_act(act, in_channels, width, 3, 1, 1, nn.maxPool2D(2, 2, 0))
        self.conv2 = conv_bn_act(act, width, 2 * width, 3, 1, 1, nn.maxPool2D(2, 2, 0))
        self.flatten = nn.flatten()
        side = input_size // 4
        self.fc1 = nn.fullconnect(side * side * 2 * width, hidden)
        self.act = getattr(nn, act)()
        self.fc2 = nn.fullconnect(hidden, num_classes)

    def __forward__(self, X):
        X = self.conv2(self.conv1(X))
        return self.fc2(self.act(self.fc1(self.flatten(X))))
