"""Data layer (`alpha.data`): official-format dataset loaders, DataSet, TensorIter /
BufferedTensorIter with background prefetch, uint8 augmentation."""
from .augment import Augment, horizontal_flip, random_crop
from .dataset import DataSet
from .factory import Data, data
from .iterators import BufferedTensorIter, Pair, TensorIter

__all__ = ["data", "Data", "DataSet", "TensorIter", "BufferedTensorIter", "Pair", "Augment",
           "random_crop", "horizontal_flip"]
