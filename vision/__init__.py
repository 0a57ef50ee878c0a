"""kensnap vision: pixels of a photo or screenshot → a puzzle with confidences.

``read(image) -> Reading`` is the entry point (:mod:`vision.read`); the stages live in modules named
after what they do: ``image_io``, ``grid``, ``cages``, ``clues`` (with ``label_reader``), ``digits``, ``tesseract``,
``reconcile``.
"""
from .errors import NoPuzzleFound, VisionError
from .read import Reading, read

__all__ = ["NoPuzzleFound", "Reading", "VisionError", "read"]
