"""CLI layer: `alpha convert` — a dataset (MNIST, Fashion-MNIST, CIFAR-10/100, an image folder, the mnist5k
sample) written as Parquet part files (image binary: raw uint8 HWC pixels, label int), the input fit() reads
as pathlib.Path(out) on Spark, each executor reading only its own files. Imports alpha_py.data and
alpha_py.distributed.parquet."""
import argparse
import sys

from .errors import AlphaError

SOURCES = ("mnist", "fashion_mnist", "cifar10", "cifar100", "image_folder", "mnist5k")


def parser():
    p = argparse.ArgumentParser(prog="alpha convert", description="Write a dataset as Parquet (image binary, "
                                "label int) part files for Spark training (alpha_py.distributed.fit).")
    p.add_argument("--dataset", choices=SOURCES, required=True)
    p.add_argument("--data-dir", dest="data_dir", default=None,
                   help="folder with the dataset's files (image_folder: ROOT/<class>/<image>)")
    p.add_argument("--split", choices=("train", "test"), default="train")
    p.add_argument("--out", required=True, help="output folder (part-00000.parquet, ...)")
    p.add_argument("--partitions", type=int, default=8, help="part files (>= the Spark workers that will read)")
    p.add_argument("--size", type=int, default=32, help="image_folder: resize to SIZE x SIZE")
    p.add_argument("--channels", type=int, choices=(1, 3), default=3, help="image_folder: 1 (L) or 3 (RGB)")
    p.add_argument("--seed", type=int, default=0, help="rows are written in a random order drawn with this seed "
                   "(each Spark rank reads whole part files: a class-sorted source would give ranks disjoint classes)")
    p.add_argument("--keep-order", dest="keep_order", action="store_true", help="write the rows in the source's order")
    return p


def load(args):
    from .data.factory import data
    train = args.split == "train"
    if args.dataset == "mnist5k":
        return data.mnist_5k(train)
    if args.dataset == "image_folder":
        if not args.data_dir:
            raise AlphaError("alpha convert: --dataset image_folder needs --data-dir ROOT")
        return data.image_folder(args.data_dir, args.size, args.channels)
    return getattr(data, args.dataset)(train, args.data_dir)


def main(argv=None):
    args = parser().parse_args(argv)
    if args.partitions < 1:
        parser().error(f"--partitions must be >= 1, got {args.partitions}")
    try:
        from .distributed.parquet import write_parquet
        ds = load(args)
        paths = write_parquet(ds.images, ds.labels, args.out, args.partitions, ds.num_class,
                              seed=None if args.keep_order else args.seed)
    except AlphaError as e:
        print(f"alpha convert: error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {len(ds.labels)} images {list(ds.images.shape[1:])} x {ds.num_class} classes into "
          f"{len(paths)} part file(s) in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
