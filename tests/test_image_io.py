"""Bad image files get one clear message; big ones are shrunk safely."""
import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from conftest import REPO
from vision import image_io
from vision.image_io import MAX_WORKING_PIXELS, ImageError, load_image

SAMPLE = REPO / "samples" / "app-4x4-clean.jpg"


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims width × height (the pixel data is a stub)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 16)) + chunk(b"IEND", b"")


def jpeg(rgb: np.ndarray, orientation: int, quality: int) -> bytes:
    """``rgb`` saved as a JPEG whose EXIF says ``orientation``."""
    image = Image.fromarray(rgb)
    exif = image.getexif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality, exif=exif)
    return buffer.getvalue()


@pytest.mark.parametrize("data, words", [
    (b"", "empty"),
    (b"just some text, not a picture", "not an image"),
    (None, "truncated or damaged"),
    (png_header(40000, 40000), "decompression bomb"),
    (png_header(10, 10), "too small"),
])
def test_bad_files_get_one_clear_message(data, words):
    if data is None:
        data = SAMPLE.read_bytes()[: SAMPLE.stat().st_size // 2]
    with pytest.raises(ImageError, match=words):
        load_image(data)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(ImageError, match="is a folder"):
        load_image(tmp_path)


def test_a_large_photo_is_shrunk_to_the_working_size():
    buffer = io.BytesIO()
    Image.fromarray(np.full((4000, 5000, 3), 200, np.uint8)).save(buffer, "JPEG", quality=50)
    pixels = load_image(buffer.getvalue())
    assert pixels.shape[0] * pixels.shape[1] <= MAX_WORKING_PIXELS and pixels.shape[2] == 3


@pytest.mark.parametrize("width, height, orientation", [(4032, 3024, 1), (8000, 6000, 6)])
def test_a_photo_over_the_working_size_reads_as_pillow_would_shrink_it(width, height, orientation):
    """A 12-megapixel phone photo (4032×3024, a little over the limit) and a 48-megapixel one (decoded
    at half its side) come out at the working size, upright, with the pixels Pillow's decode and
    Lanczos shrink give, to within a few grey levels."""
    from PIL import ImageOps

    xs, ys = np.arange(width), np.arange(height)
    rgb = np.empty((height, width, 3), np.uint8)
    rgb[..., 0] = (xs // 40 % 2 * 180 + 40)[None, :]  # stripes across, stripes down, a diagonal ramp
    rgb[..., 1] = (ys // 30 % 2 * 150 + 60)[:, None]
    rgb[..., 2] = ys.astype(np.uint8)[:, None] + xs.astype(np.uint8)[None, :]
    data = jpeg(rgb, orientation, quality=90)
    scale = (MAX_WORKING_PIXELS / (width * height)) ** 0.5
    assert image_io._decoded_by_opencv(data, Image.open(io.BytesIO(data)), scale) is not None  # OpenCV's way
    pixels = load_image(data)
    upright = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")
    expected = np.asarray(upright.resize((int(upright.width * scale), int(upright.height * scale)), Image.LANCZOS))
    assert pixels.shape == expected.shape and pixels.shape[0] * pixels.shape[1] <= MAX_WORKING_PIXELS
    assert np.abs(pixels.astype(int) - expected).mean() < 4  # measured: 1.0 and 2.8 (edges)


def test_exif_orientation_is_applied():
    buffer = io.BytesIO()
    image = Image.fromarray(np.zeros((100, 200, 3), np.uint8))
    exif = image.getexif()
    exif[0x0112] = 6  # rotated 90°: the upright picture is 100 wide, 200 tall
    image.save(buffer, "JPEG", exif=exif)
    assert load_image(buffer.getvalue()).shape[:2] == (200, 100)


def test_heic_photos_open_like_jpeg():
    import pillow_heif

    pillow_heif.register_heif_opener()
    rgb = np.zeros((40, 60, 3), np.uint8)
    rgb[:, :30] = (200, 30, 30)
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="HEIF", quality=95)
    pixels = load_image(buffer.getvalue())
    assert pixels.shape == (40, 60, 3)
    assert pixels[20, 10, 0] > 150 and pixels[20, 50, 0] < 60


@pytest.mark.parametrize("orientation", range(1, 9))
def test_jpegs_decoded_by_opencv_are_the_pixels_pillow_decodes(orientation):
    from PIL import ImageOps

    rng = np.random.default_rng(orientation)
    rgb = (rng.random((90, 140, 3)) * 255).astype(np.uint8)
    rgb[10:30, 20:70] = (250, 20, 40)  # a block, so that a wrong turn cannot pass by symmetry
    data = jpeg(rgb, orientation, quality=85)
    by_pillow = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))
    by_opencv = image_io._decoded_by_opencv(data, Image.open(io.BytesIO(data)))
    assert by_opencv is not None and by_opencv.flags["C_CONTIGUOUS"]
    assert np.array_equal(by_opencv, by_pillow) and np.array_equal(load_image(data), by_pillow)


def test_a_truncated_jpeg_is_left_to_pillow_which_says_so():
    data = SAMPLE.read_bytes()
    assert image_io._decoded_by_opencv(data[: len(data) - 200], Image.open(io.BytesIO(data))) is None
    with pytest.raises(ImageError, match="truncated or damaged"):
        load_image(data[: len(data) - 200])


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_a_16_bit_grey_png_reads_as_its_8_bit_grey():
    # Pillow's own conversion clips 16-bit grey to 255: the screenshot came out white ("no grid found").
    grey = np.asarray(Image.open(SAMPLE).convert("L"))
    wide = Image.fromarray(grey.astype(np.uint16) * 257)
    assert wide.mode.startswith("I")
    pixels = load_image(png(wide))
    assert np.array_equal(pixels[..., 0], grey) and np.array_equal(pixels[..., 2], grey)


def test_transparent_parts_lie_on_a_ground_that_contrasts_with_the_ink():
    grey = np.asarray(Image.open(SAMPLE).convert("L")).astype(np.int16)
    ink = 255 - grey  # how much of each pixel is ink
    dark = np.zeros(grey.shape + (4,), np.uint8)  # black ink on a transparent ground (its colour black too)
    dark[..., 3] = ink
    pixels = load_image(png(Image.fromarray(dark, "RGBA")))
    assert np.abs(pixels[..., 1].astype(np.int16) - grey).max() <= 1  # as if printed on white
    light = np.full(grey.shape + (4,), 255, np.uint8)  # white ink, as a dark-mode page exports it
    light[..., 3] = ink
    pixels = load_image(png(Image.fromarray(light, "RGBA")))
    assert np.abs(pixels[..., 1].astype(np.int16) - ink).max() <= 1  # on black
    opaque = np.asarray(Image.open(SAMPLE).convert("RGBA"))  # nothing transparent: the pixels as they are
    assert np.array_equal(load_image(png(Image.fromarray(opaque, "RGBA"))), opaque[..., :3])


def test_transparent_and_16_bit_screenshots_are_read():
    grey = np.asarray(Image.open(SAMPLE).convert("L")).astype(np.uint16)
    from vision.read import read
    wide = read(load_image(png(Image.fromarray(grey * 257))))
    inked = np.zeros(grey.shape + (4,), np.uint8)
    inked[..., 3] = 255 - grey
    on_clear = read(load_image(png(Image.fromarray(inked, "RGBA"))))
    for reading in (wide, on_clear):
        assert reading.puzzle.size == 4 and reading.status == "unique" and reading.confident
