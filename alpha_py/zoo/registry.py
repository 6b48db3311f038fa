"""Zoo layer: the model registry behind `alpha train --model NAME`."""
from ..errors import ArgumentError
from .googlenet import GoogLeNet
from .hairnet import HairNet
from .mnist_cnn import MnistCNN
from .resnet import ResNet18, ResNet34, ResNet50, SENet
from .vgg import VGG16, VGG19

MODELS = {"mnist_cnn": MnistCNN, "resnet18": ResNet18, "resnet34": ResNet34, "resnet50": ResNet50,
          "vgg16": VGG16, "vgg19": VGG19, "googlenet": GoogLeNet, "senet": SENet, "hairnet": HairNet}


def get_model(name, in_channels=3, num_classes=10, input_size=None, act="leakyRelu"):
    """A fresh (not yet init-ed) zoo net by CLI name; input_size defaults to 28 for 1 channel, else 32."""
    if name not in MODELS:
        raise ArgumentError(f"get_model: unknown model {name!r}, expected one of {sorted(MODELS)}")
    if input_size is None:
        input_size = 28 if in_channels == 1 else 32
    return MODELS[name](act, in_channels=in_channels, num_classes=num_classes, input_size=input_size)
