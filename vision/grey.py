"""One conversion to grey for every vision stage.

Contract of :func:`to_grey`: an RGB or RGBA uint8 array becomes its luma (OpenCV's RGB→GRAY
weights, 0.299 R + 0.587 G + 0.114 B, rounded), a grey array is returned as it is (not copied).
An alpha channel is ignored. Any view is accepted (OpenCV is handed a contiguous copy when needed).
"""
from __future__ import annotations

import cv2
import numpy as np


def to_grey(image: np.ndarray) -> np.ndarray:
    """``image`` (RGB, RGBA or grey) in grey (see the module contract)."""
    if image.ndim == 2:
        return image
    return cv2.cvtColor(np.ascontiguousarray(image[..., :3]), cv2.COLOR_RGB2GRAY)
