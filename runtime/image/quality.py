"""Image statistics: per_image_standardization, total_variation, image_gradients,
sobel_edges, psnr and ssim, composed of tensor ops as TensorFlow writes them (so their
gradients come from the ops')."""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.image.convert import checked_image, convert_image_dtype
from runtime.ops import array_ops as A, math_ops as M, nn_ops
from runtime.ops.core import convert_to_tensor
from runtime.tensor import Tensor


def per_image_standardization(image) -> Tensor:
    """``(x - mean) / max(stddev, 1 / sqrt(N))`` over each image (float32 for integers)."""
    image = checked_image(image, "per_image_standardization")
    if not image.dtype.is_floating:
        image = M.cast(image, dtypes.float32)
    axes = [-1, -2, -3]
    count = M.cast(M.reduce_prod(A.shape(image)[-3:]), image.dtype)
    mean = M.reduce_mean(image, axis=axes, keepdims=True)
    stddev = M.sqrt(M.reduce_mean(M.square(M.subtract(image, mean)), axis=axes, keepdims=True))
    return M.divide(M.subtract(image, mean), M.maximum(stddev, M.rsqrt(count)))


def total_variation(images, name=None) -> Tensor:
    """The sum of absolute differences of neighbouring pixels (one value per image)."""
    images = checked_image(images, "total_variation")
    if images.shape.rank == 3:
        dy, dx, axes = images[1:] - images[:-1], images[:, 1:] - images[:, :-1], None
    elif images.shape.rank == 4:
        dy = images[:, 1:] - images[:, :-1]
        dx = images[:, :, 1:] - images[:, :, :-1]
        axes = [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return M.add(M.reduce_sum(M.abs(dy), axis=axes), M.reduce_sum(M.abs(dx), axis=axes))


def _batch4(image, op: str) -> Tensor:
    image = convert_to_tensor(image, name="image")
    if image.shape.rank != 4:
        shape = None if image.shape.rank is None else list(image.shape.as_tuple())
        raise ValueError(f"{op} expects a 4D tensor [batch_size, h, w, d], not {shape}.")
    return image


def image_gradients(image):
    """``(dy, dx)``: forward differences along height and width, zero on the last row/col."""
    image = _batch4(image, "image_gradients")
    dy = image[:, 1:] - image[:, :-1]
    dx = image[:, :, 1:] - image[:, :, :-1]
    dy = A.concat([dy, A.zeros_like(image[:, :1])], axis=1)
    dx = A.concat([dx, A.zeros_like(image[:, :, :1])], axis=2)
    return dy, dx


_SOBEL_Y = ((-1, -2, -1), (0, 0, 0), (1, 2, 1))
_SOBEL_X = ((-1, 0, 1), (-2, 0, 2), (-1, 0, 1))


def sobel_edges(image) -> Tensor:
    """``[batch, h, w, d, 2]``: the vertical and horizontal Sobel responses of each channel
    (the image reflected at its borders)."""
    image = _batch4(image, "sobel_edges")
    padded = A.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    height, width = A.shape(image)[1], A.shape(image)[2]
    outputs = []
    for kernel in (_SOBEL_Y, _SOBEL_X):
        total = None
        for i in range(3):
            for j in range(3):
                if kernel[i][j]:
                    window = A.slice(padded, [0, i, j, 0], A.stack([-1, height, width, -1]))
                    term = M.multiply(window, M.cast(kernel[i][j], image.dtype))
                    total = term if total is None else M.add(total, term)
        outputs.append(total)
    return A.stack(outputs, axis=-1)


def _float32_scale(a, b, max_val):
    """Both images and ``max_val`` (given in the images' dtype) on the float32 scale."""
    max_val = convert_image_dtype(M.cast(max_val, a.dtype), dtypes.float32)
    return convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32), max_val


def psnr(a, b, max_val, name=None) -> Tensor:
    """The peak signal-to-noise ratio between two images (float32 scale for integers)."""
    a, b, max_val = _float32_scale(convert_to_tensor(a), convert_to_tensor(b), max_val)
    mse = M.reduce_mean(M.squared_difference(a, b), axis=[-3, -2, -1])
    return M.subtract(M.divide(M.multiply(20.0, M.log(max_val)), float(np.log(10.0))),
                      M.multiply(np.float32(10 / np.log(10)), M.log(mse)))


def _gaussian_kernel(size: int, sigma: float) -> np.ndarray:
    coords = np.arange(size, dtype=np.float32) - np.float32((size - 1) / 2.0)
    g = -np.square(coords) / np.float32(2.0 * sigma ** 2)
    g = g[:, None] + g[None, :]
    g = np.exp(g - g.max()) / np.exp(g - g.max()).sum()
    return g.astype(np.float32)


def _ssim_parts(img1, img2, max_val, filter_size, filter_sigma, k1, k2):
    channels = img1.shape[-1]
    kernel = np.tile(_gaussian_kernel(filter_size, filter_sigma)[:, :, None, None],
                     (1, 1, channels, 1))
    kernel = convert_to_tensor(kernel)

    def blur(x):
        return nn_ops.depthwise_conv2d(x, kernel, strides=[1, 1, 1, 1], padding="VALID")
    c1, c2 = M.square(M.multiply(k1, max_val)), M.square(M.multiply(k2, max_val))
    mean1, mean2 = blur(img1), blur(img2)
    num0 = M.multiply(M.multiply(mean1, mean2), 2.0)
    den0 = M.add(M.square(mean1), M.square(mean2))
    luminance = M.divide(M.add(num0, c1), M.add(den0, c1))
    num1 = M.multiply(blur(M.multiply(img1, img2)), 2.0)
    den1 = blur(M.add(M.square(img1), M.square(img2)))
    cs = M.divide(M.add(M.subtract(num1, num0), c2), M.add(M.subtract(den1, den0), c2))
    return (M.reduce_mean(M.multiply(luminance, cs), axis=[-3, -2]),
            M.reduce_mean(cs, axis=[-3, -2]))


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False) -> Tensor:
    """The structural similarity of two images (batches), averaged over each image."""
    if return_index_map:
        raise NotImplementedError("ssim(return_index_map=True) is not supported")
    img1, img2 = convert_to_tensor(img1, name="img1"), convert_to_tensor(img2, name="img2")
    img1, img2, max_val = _float32_scale(img1, img2, max_val)
    was_batch = img1.shape.rank == 4
    if not was_batch:
        img1, img2 = A.expand_dims(img1, 0), A.expand_dims(img2, 0)
    per_channel, _ = _ssim_parts(img1, img2, max_val, filter_size, filter_sigma, k1, k2)
    value = M.reduce_mean(per_channel, axis=[-1])
    return value if was_batch else A.squeeze(value, axis=[0])
