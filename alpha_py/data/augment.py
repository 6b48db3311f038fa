"""Data layer: uint8 image augmentation on host NHWC batches (before the engine converts them):
random crop with zero padding and random horizontal flip. NumPy only; each call takes a Generator."""
import numpy as np

from ..errors import ArgumentError


def random_crop(images, pad, rng):
    """Zero-pad each image by `pad` pixels per side, then crop a random HxW window per image."""
    if pad <= 0:
        return images
    n, h, w, c = images.shape
    padded = np.zeros((n, h + 2 * pad, w + 2 * pad, c), dtype=images.dtype)
    padded[:, pad:pad + h, pad:pad + w] = images
    dy = rng.integers(0, 2 * pad + 1, size=n)
    dx = rng.integers(0, 2 * pad + 1, size=n)
    rows = dy[:, None] + np.arange(h)[None, :]                      # [N,H]
    cols = dx[:, None] + np.arange(w)[None, :]                      # [N,W]
    return padded[np.arange(n)[:, None, None], rows[:, :, None], cols[:, None, :]]


def horizontal_flip(images, rng, p=0.5):
    """Mirror each image left-right with probability p."""
    flip = rng.random(images.shape[0]) < p
    out = images.copy()
    out[flip] = images[flip, :, ::-1]
    return out


class Augment:
    """Callable (images_u8, rng) -> images_u8: optional random crop (padding `crop_pad`) then an
    optional horizontal flip with probability `flip_p`."""

    def __init__(self, crop_pad=0, flip=False, flip_p=0.5):
        if int(crop_pad) != crop_pad or crop_pad < 0:
            raise ArgumentError(f"augment: crop_pad must be an int >= 0, got {crop_pad!r}")
        if not 0.0 <= flip_p <= 1.0:
            raise ArgumentError(f"augment: flip_p must lie in [0, 1], got {flip_p!r}")
        self.crop_pad, self.flip, self.flip_p = int(crop_pad), bool(flip), float(flip_p)

    def __call__(self, images, rng):
        if images.dtype != np.uint8 or images.ndim != 4:
            raise ArgumentError(f"augment: expected uint8 NHWC images, got {images.dtype} {list(images.shape)}")
        if self.crop_pad:
            images = random_crop(images, self.crop_pad, rng)
        if self.flip:
            images = horizontal_flip(images, rng, self.flip_p)
        return images

    def __repr__(self):
        return f"Augment(crop_pad={self.crop_pad}, flip={self.flip})"
