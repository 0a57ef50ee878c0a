"""Typed failures of the vision stages; every message is meant for a person."""
from __future__ import annotations


class VisionError(Exception):
    """Reading a puzzle from an image failed; the message says why in plain words."""


class NoPuzzleFound(VisionError):
    """No KenKen grid could be found in the image. ``search``: what the grid finder looked at, when
    it got that far (for its last resort, :func:`vision.grid.grid_in_bands`), else None."""

    def __init__(self, message: str, search: object | None = None):
        super().__init__(message)
        self.search = search


class TesseractMissing(VisionError):
    """The tesseract OCR program is not installed (or not at the configured path)."""


class TesseractFailed(VisionError):
    """Tesseract ran but failed: a non-zero exit, a timeout, or output that cannot be parsed."""
