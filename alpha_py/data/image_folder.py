"""Data layer: `image_folder(root, size)` — one sub-folder per class, images decoded with Pillow,
converted to RGB (or L) and resized to a fixed size. Imports numpy, PIL and alpha_py.errors."""
import os

import numpy as np

from ..errors import DataError

EXTENSIONS = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".ppm", ".pgm", ".tif", ".tiff", ".webp")


def load_image_folder(root, size, channels=3):
    """-> (images uint8 [N,H,W,C], labels int64 [N], class names sorted)."""
    from PIL import Image, UnidentifiedImageError

    if isinstance(size, int):
        size = (size, size)
    h, w = int(size[0]), int(size[1])
    if channels not in (1, 3):
        raise DataError(f"image_folder: channels must be 1 or 3, got {channels}")
    if not os.path.isdir(root):
        raise DataError(f"image_folder: root {root!r} is not a directory")
    classes = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    if not classes:
        raise DataError(f"image_folder: {root!r} has no class sub-folders (expected root/<class>/<image>)")
    images, labels = [], []
    for ci, cname in enumerate(classes):
        folder = os.path.join(root, cname)
        for fname in sorted(os.listdir(folder)):
            if not fname.lower().endswith(EXTENSIONS):
                continue
            path = os.path.join(folder, fname)
            try:
                with Image.open(path) as im:
                    im = im.convert("RGB" if channels == 3 else "L")
                    if im.size != (w, h):
                        im = im.resize((w, h), Image.BILINEAR)
                    arr = np.asarray(im, dtype=np.uint8)
            except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:
                raise DataError(f"image_folder: cannot decode image {path!r} ({e})") from None
            images.append(arr.reshape(h, w, channels))
            labels.append(ci)
    if not images:
        raise DataError(f"image_folder: no images with extensions {EXTENSIONS} under {root!r}")
    return np.stack(images), np.asarray(labels, dtype=np.int64), classes
