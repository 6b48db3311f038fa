"""Zoo layer: the model registry behind `alpha train --model NAME`, and the options (beyond geometry)
each model takes there (`--width`, `--hidden` for mnist_cnn)."""
from ..errors import ArgumentError
from .googlenet import GoogLeNet
from .hairnet import HairNet
from .mnist_cnn import MnistCNN
from .resnet import ResNet18, ResNet34, ResNet50, SENet
from .vgg import VGG16, VGG19

MODELS = {"mnist_cnn": MnistCNN, "resnet18": ResNet18, "resnet34": ResNet34, "resnet50": ResNet50,
          "vgg16": VGG16, "vgg19": VGG19, "googlenet": GoogLeNet, "senet": SENet, "hairnet": HairNet}
MODEL_OPTIONS = {"mnist_cnn": ("width", "hidden")}     # keyword arguments get_model passes on; others take none


def get_model(name, in_channels=3, num_classes=10, input_size=None, act="leakyRelu", **options):
    """A fresh (not yet init-ed) zoo net by CLI name; input_size defaults to 28 for 1 channel, else 32.
    options: the model's MODEL_OPTIONS (e.g. width=32, hidden=128 for mnist_cnn)."""
    if name not in MODELS:
        raise ArgumentError(f"get_model: unknown model {name!r}, expected one of {sorted(MODELS)}")
    unknown = sorted(set(options) - set(MODEL_OPTIONS.get(name, ())))
    if unknown:
        raise ArgumentError(f"get_model: model {name!r} takes no option {unknown} (its options: "
                            f"{list(MODEL_OPTIONS.get(name, ())) or 'none'})")
    if input_size is None:
        input_size = 28 if in_channels == 1 else 32
    return MODELS[name](act, in_channels=in_channels, num_classes=num_classes, input_size=input_size, **options)
