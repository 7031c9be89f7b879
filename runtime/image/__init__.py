"""``tf.image``: colour, geometry, resizing, image statistics, boxes, random augmentation
and PNG coding, eager and staged."""
from runtime.image.color import (adjust_brightness, adjust_contrast, adjust_gamma,  # noqa: F401
                                 adjust_hue, adjust_saturation, grayscale_to_rgb, hsv_to_rgb,
                                 rgb_to_grayscale, rgb_to_hsv, rgb_to_yiq, rgb_to_yuv,
                                 yiq_to_rgb, yuv_to_rgb)
from runtime.image.convert import convert_image_dtype  # noqa: F401
from runtime.image.geometry import (ResizeMethod, central_crop,  # noqa: F401
                                    crop_to_bounding_box, extract_patches, flip_left_right,
                                    flip_up_down, pad_to_bounding_box, resize,
                                    resize_with_crop_or_pad, resize_with_pad, rot90, transpose)
from runtime.image import grads as _grads  # noqa: F401  (registers the resize gradients)
from runtime.image.quality import (image_gradients, per_image_standardization,  # noqa: F401
                                   psnr, sobel_edges, ssim, total_variation)
from runtime.image.random import (random_brightness, random_contrast, random_crop,  # noqa: F401
                                  random_flip_left_right, random_flip_up_down, random_hue,
                                  random_saturation, stateless_random_brightness,
                                  stateless_random_contrast, stateless_random_crop,
                                  stateless_random_flip_left_right,
                                  stateless_random_flip_up_down, stateless_random_hue,
                                  stateless_random_saturation)
from runtime.image.boxes import (crop_and_resize, draw_bounding_boxes,  # noqa: F401
                                 non_max_suppression, non_max_suppression_padded,
                                 non_max_suppression_with_scores)
from runtime.image.png import decode_image, decode_png, encode_png, is_jpeg  # noqa: F401
