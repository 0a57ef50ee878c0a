"""Load a photo or screenshot safely: every bad file becomes one readable :class:`ImageError`.

Contract of :func:`load_image`: returns an RGB uint8 array of at most ``MAX_WORKING_PIXELS`` pixels,
turned upright by the EXIF orientation phones write. Refused with a message: a file that is not an
image, an empty or truncated one, one larger than ``MAX_PIXELS`` (a decompression bomb: the size is
read from the header before anything is decoded). JPEG photos are decoded by OpenCV
(:func:`_decoded_by_opencv`), a large one at a reduced scale directly (1/2, 1/4 or 1/8 of its side);
whatever is still larger than ``MAX_WORKING_PIXELS`` is then shrunk (:func:`_shrunk`: by area
averaging, by interpolation when the side shrinks by less than a tenth). Other images, and JPEGs
OpenCV cannot decode, go through Pillow, and come out as a person sees them (:func:`_as_seen`):
transparent parts on a plain ground that contrasts with the image's ink, 16-bit and float grey
scaled to 8 bits.
"""
from __future__ import annotations

import io
from pathlib import Path

import cv2
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
    if image.format == "JPEG" and image.mode == "RGB":
        pixels = _decoded_by_opencv(data, image, scale)
        if pixels is not None:
            return pixels
    if scale < 1 and image.format == "JPEG":
        image.draft("RGB", (int(width * scale) + 1, int(height * scale) + 1))
    try:
        image = _as_seen(ImageOps.exif_transpose(image))
    except OSError as err:
        raise ImageError(f"the image file is truncated or damaged ({err})") from None
    except Exception as err:  # Pillow raises assorted errors on corrupt streams
        raise ImageError(f"the image file is damaged ({type(err).__name__})") from None
    return _shrunk(np.asarray(image, dtype=np.uint8))


_WIDE_GREYS = ("I;16", "I;16L", "I;16B", "I;16N", "I", "F")
"""Pillow modes of one channel wider than 8 bits (a 16-bit PNG opens as "I;16" or "I")."""


def _as_seen(image: Image.Image) -> Image.Image:
    """``image`` in RGB as a person sees it. Pillow's own conversion clips a 16-bit grey to 255
    (a 16-bit PNG screenshot came out white, "no grid found") and drops transparency, whose colour
    underneath is often black (dark ink on a transparent ground came out black on black): here a
    wide grey is scaled to 8 bits (by 257 when it fits 16 bits, else by its largest value), and
    transparent parts are laid on white, or on black when what is opaque is mostly light (light
    ink on a transparent ground, as a dark-mode page exports it)."""
    if image.mode in _WIDE_GREYS:
        grey = np.asarray(image, dtype=np.float64)
        top = float(grey.max()) if grey.size else 0.0
        if image.mode == "F" and top <= 1.0:
            unit = 1 / 255  # a float image of 0..1
        elif top <= 255:
            unit = 1.0
        elif top <= 65535:
            unit = 257.0  # 16 bits
        else:
            unit = top / 255
        image = Image.fromarray(np.clip(np.round(grey / unit), 0, 255).astype(np.uint8), "L")
    has_alpha = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    if not has_alpha:
        return image.convert("RGB")
    rgba = np.asarray(image.convert("RGBA"), dtype=np.float32)
    alpha = rgba[..., 3:] / 255
    if alpha.min() >= 1:
        return Image.fromarray(rgba[..., :3].astype(np.uint8), "RGB")
    light = rgba[..., :3] @ np.float32([0.299, 0.587, 0.114])
    ink = float((light * alpha[..., 0]).sum() / max(float(alpha.sum()), 1e-6))
    ground = 255.0 if ink < 128 or alpha.sum() == 0 else 0.0
    return Image.fromarray(np.round(rgba[..., :3] * alpha + ground * (1 - alpha)).astype(np.uint8), "RGB")


MILD_SHRINK = 0.9
"""A shrink to at least this share of the side is interpolated, not area-averaged (see :func:`_shrunk`)."""


def _shrunk(pixels: np.ndarray) -> np.ndarray:
    """``pixels`` shrunk to at most MAX_WORKING_PIXELS (as they are when they fit): by area averaging,
    or, when the side shrinks by less than a tenth (a phone's 4032×3024 photo, 0.8 %), by linear
    interpolation — each output pixel from its four nearest, none dropped — in a quarter of the time
    (OpenCV averages areas by a factor that is not whole on a slow path: 0.12 s on such a photo)."""
    height, width = pixels.shape[:2]
    if width * height <= MAX_WORKING_PIXELS:
        return pixels
    scale = (MAX_WORKING_PIXELS / (width * height)) ** 0.5
    size = (max(1, int(width * scale)), max(1, int(height * scale)))
    return cv2.resize(pixels, size, interpolation=cv2.INTER_LINEAR if scale >= MILD_SHRINK else cv2.INTER_AREA)


_ORIENTED = {2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
            5: lambda a: a.transpose(1, 0, 2), 6: lambda a: np.rot90(a, -1), 7: lambda a: a.transpose(1, 0, 2)[::-1, ::-1],
            8: lambda a: np.rot90(a, 1)}
"""EXIF orientation → how the decoded pixels are turned upright (as Pillow's ``exif_transpose``)."""


_DECODE_RGB = getattr(cv2, "IMREAD_COLOR_RGB", None)
"""OpenCV's flag (4.10 and later) for a decode straight to RGB: the same pixels as a BGR decode
converted, 13–26 ms sooner on a 12-megapixel photo. Not combinable with a reduced decode."""


def _decoded_by_opencv(data: bytes, image: Image.Image, scale: float = 1.0) -> np.ndarray | None:
    """An RGB JPEG decoded by OpenCV, turned upright by its EXIF orientation. Up to
    MAX_WORKING_PIXELS (``scale`` ≥ 1) the same pixels as Pillow's decoder gives (both
    libjpeg-turbo), in a third to a half of the time of Pillow's decode and copies (12-megapixel
    photos: 0.08–0.15 s → 0.04–0.05 s). A larger one (``scale``, the side's shrink to that size, under
    1) is decoded at the smallest of 1/2, 1/4 or 1/8 of its side that is not smaller than
    that, as Pillow's draft mode does, and then shrunk by :func:`_shrunk`. None when OpenCV cannot
    decode it (a truncated or damaged file): Pillow's path then says why."""
    try:
        orientation = int(image.getexif().get(0x0112, 1))
    except Exception:  # a damaged EXIF block: Pillow's path decides
        return None
    reduce = max((f for f in (1, 2, 4, 8) if f * scale <= 1), default=1)
    rgb_out = reduce == 1 and _DECODE_RGB is not None  # libjpeg writes RGB itself: no conversion after
    flags = {1: _DECODE_RGB if rgb_out else cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
             4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[reduce]
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), flags | cv2.IMREAD_IGNORE_ORIENTATION)
    expected = (-(-image.height // reduce), -(-image.width // reduce))  # libjpeg's scaled size, rounded up
    if decoded is None or decoded.shape[:2] != expected:
        return None
    rgb = _shrunk(decoded) if rgb_out else cv2.cvtColor(_shrunk(decoded), cv2.COLOR_BGR2RGB)
    turn = _ORIENTED.get(orientation)
    return rgb if turn is None else np.ascontiguousarray(turn(rgb))


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
