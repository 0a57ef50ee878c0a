"""Load a photo or screenshot safely: every bad file becomes one readable :class:`ImageError`.

Contract of :func:`load_image`: returns an RGB uint8 array of at most ``MAX_WORKING_PIXELS`` pixels,
turned upright by the EXIF orientation phones write. Refused with a message: a file that is not an
image, an empty or truncated one, one larger than ``MAX_PIXELS`` (a decompression bomb: the size is
read from the header before anything is decoded). Large JPEGs are decoded at a reduced scale
directly (Pillow's draft mode), other large images are decoded and then shrunk.
"""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from .errors import VisionError

MAX_PIXELS = 250_000_000
"""Header sizes above this are refused unread (a 100-megapixel photo is fine, a bomb is not)."""
MAX_WORKING_PIXELS = 12_000_000
"""Images are shrunk to at most this many pixels before any vision stage runs."""
MAX_FILE_BYTES = 60_000_000


class ImageError(VisionError):
    """A file that cannot be used as an image; the message says why and what to try."""


def load_image(source: str | Path | bytes) -> np.ndarray:
    """Decode a path or raw bytes into an upright RGB array (see the module contract)."""
    data = _read_bytes(source)
    if not data:
        raise ImageError("the file is empty")
    Image.MAX_IMAGE_PIXELS = None  # our own limit below replaces Pillow's warning/error
    _register_heif()
    try:
        image = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        raise ImageError("not an image kensnap can read (use a JPEG, PNG, WebP or HEIC photo or screenshot)") from None
    except OSError as err:
        raise ImageError(f"the image file is truncated or damaged ({err})") from None
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ImageError(f"the image claims {width}×{height} pixels, more than kensnap opens "
                         f"({MAX_PIXELS // 1_000_000} megapixels): refused as a possible decompression bomb")
    if width < 32 or height < 32:
        raise ImageError(f"the image is only {width}×{height} pixels: too small to hold a puzzle")
    scale = (MAX_WORKING_PIXELS / (width * height)) ** 0.5
    if scale < 1 and image.format == "JPEG":
        image.draft("RGB", (int(width * scale) + 1, int(height * scale) + 1))
    try:
        image = ImageOps.exif_transpose(image).convert("RGB")
    except OSError as err:
        raise ImageError(f"the image file is truncated or damaged ({err})") from None
    except Exception as err:  # Pillow raises assorted errors on corrupt streams
        raise ImageError(f"the image file is damaged ({type(err).__name__})") from None
    if image.width * image.height > MAX_WORKING_PIXELS:
        scale = (MAX_WORKING_PIXELS / (image.width * image.height)) ** 0.5
        image = image.resize((max(1, int(image.width * scale)), max(1, int(image.height * scale))), Image.LANCZOS)
    return np.asarray(image, dtype=np.uint8)


def _register_heif() -> None:
    """Let Pillow open HEIC/HEIF photos (iPhones) when pillow-heif is installed; without it such a
    file is reported as not readable, like any other unknown format."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:
        return
    register_heif_opener()


def _read_bytes(source: str | Path | bytes) -> bytes:
    """The raw bytes of a path or of bytes; raises ImageError for a missing or unreadable file."""
    if isinstance(source, (bytes, bytearray)):
        return bytes(source)
    path = Path(source)
    if not path.exists():
        raise ImageError(f"no such file: {path}")
    if path.is_dir():
        raise ImageError(f"{path} is a folder, not an image")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ImageError(f"the file is {path.stat().st_size // 1_000_000} MB, more than kensnap reads "
                         f"({MAX_FILE_BYTES // 1_000_000} MB)")
    try:
        return path.read_bytes()
    except OSError as err:
        raise ImageError(f"cannot read {path} ({err.strerror})") from None
