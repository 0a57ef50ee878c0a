"""Typed failures of the vision stages; every message is meant for a person."""
from __future__ import annotations


class VisionError(Exception):
    """Reading a puzzle from an image failed; the message says why in plain words."""


class NoPuzzleFound(VisionError):
    """No KenKen grid could be found in the image."""


class TesseractMissing(VisionError):
    """The tesseract OCR program is not installed (or not at the configured path)."""


class TesseractFailed(VisionError):
    """Tesseract ran but failed: a non-zero exit, a timeout, or output that cannot be parsed."""
