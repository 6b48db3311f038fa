"""Zoo layer: blocks and nets built from alpha.nn units; every public name here is reachable as
nn.<Name> (BasicBlock, BottleNeck, SEBlock, Inception, ResNet18/34/50, VGG16/19, GoogLeNet,
SENet, HairNet, MnistCNN; v1.2's ConvNeXtBlock, ConvNeXt, GatedBlock, LargeKernelAttn, ChannelMHA, ImageMHA)
plus the CLI registry get_model(name, in_channels, num_classes)."""
from .blocks import BasicBlock, BottleNeck, Inception, SEBlock
from .blocks_v12 import ChannelMHA, ConvNeXt, ConvNeXtBlock, GatedBlock, ImageMHA, LargeKernelAttn
from .common import ChannelScale
from .googlenet import GoogLeNet
from .hairnet import DepthwiseSeparable, HairNet
from .mnist_cnn import MnistCNN
from .registry import MODELS, get_model
from .resnet import ResNet, ResNet18, ResNet34, ResNet50, SENet
from .vgg import VGG, VGG16, VGG19

mnist_cnn = MnistCNN

__all__ = ["BasicBlock", "BottleNeck", "SEBlock", "Inception", "ChannelScale", "ResNet", "ResNet18",
           "ResNet34", "ResNet50", "SENet", "VGG", "VGG16", "VGG19", "GoogLeNet", "HairNet",
           "DepthwiseSeparable", "MnistCNN", "mnist_cnn", "MODELS", "get_model", "ConvNeXtBlock", "ConvNeXt",
           "GatedBlock", "LargeKernelAttn", "ChannelMHA", "ImageMHA"]
