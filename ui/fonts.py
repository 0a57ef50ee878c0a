"""Fonts for drawing puzzles: which Debian packages provide them, how to find and load them.

Fonts are found by file name anywhere under ``/usr/share/fonts`` (Debian's font packages install
there). A font that is missing is never an error: the lists below name many faces per role,
:func:`available` keeps the ones installed, and :func:`load_font` falls back to DejaVu Sans and
finally to Pillow's built-in font.

Roles:

* ``PRINT_BOLD`` / ``PRINT_REGULAR`` — typeset clue text and printed digits (newspaper, apps, web).
* ``HANDWRITING`` — pen-like digits a person writes into the grid (entries, pencil marks).

Example::

    font = load_font(available(PRINT_BOLD)[0], 24)
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_ROOT = Path("/usr/share/fonts")

#: Debian packages that provide the faces named below (the setup script installs them).
FONT_PACKAGES = (
    "fonts-dejavu-core",
    "fonts-liberation2",
    "fonts-freefont-ttf",
    "fonts-urw-base35",
    "fonts-open-sans",
    "fonts-roboto-unhinted",
    "fonts-lato",
    "fonts-league-spartan",
    "fonts-comic-neue",
    "fonts-dkg-handwriting",
    "fonts-humor-sans",
    "fonts-breip",
    "fonts-bwht",
)

FALLBACK = "DejaVuSans.ttf"

PRINT_BOLD = (
    "DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "FreeSansBold.ttf", "NimbusSans-Bold.otf",
    "OpenSans-Bold.ttf", "Roboto-Bold.ttf", "Lato-Bold.ttf", "LeagueSpartan-Bold.otf",
    "URWGothic-Demi.otf", "LiberationSerif-Bold.ttf", "C059-Bold.otf",
)
PRINT_REGULAR = (
    "DejaVuSans.ttf", "OpenSans-Regular.ttf", "Roboto-Regular.ttf", "Lato-Regular.ttf",
    "LiberationSans-Regular.ttf", "FreeSans.ttf", "NimbusSans-Regular.otf", "Roboto-Medium.ttf",
)
PRINT_SERIF = (
    "LiberationSerif-Regular.ttf", "FreeSerif.ttf", "NimbusRoman-Regular.otf", "C059-Roman.otf",
    "DejaVuSerif.ttf",
)
HANDWRITING = (
    "ComicNeue-Regular.otf", "ComicNeue-Bold.otf", "dkg.ttf", "dkgBd.ttf", "Humor-Sans.ttf",
    "breipfont.ttf", "BecauseWeBuild-Regular.otf", "BecauseWeConnect-Regular.otf",
    "BecauseWeCreate-Regular.otf", "BecauseWeLearn-Regular.otf", "BecauseWeOrganize-Regular.otf",
)


@lru_cache(maxsize=1)
def font_index() -> dict[str, Path]:
    """Every ``.ttf``/``.otf`` file under FONT_ROOT by file name (empty when there is none)."""
    if not FONT_ROOT.is_dir():
        return {}
    found = sorted(p for p in FONT_ROOT.rglob("*") if p.suffix.lower() in (".ttf", ".otf"))
    return {p.name: p for p in found}


def find_font(name: str) -> Path | None:
    """The installed file with this name (e.g. ``'Lato-Bold.ttf'``), or None when not installed."""
    return font_index().get(name)


def available(names: tuple[str, ...]) -> tuple[Path, ...]:
    """The installed fonts among ``names``, in order; ``(DejaVu Sans,)`` when none is, or ``()``."""
    paths = tuple(p for p in map(find_font, names) if p is not None)
    if paths:
        return paths
    fallback = find_font(FALLBACK)
    return (fallback,) if fallback else ()


@lru_cache(maxsize=256)
def load_font(path: Path | None, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at ``path`` in ``size`` pixels; DejaVu Sans or Pillow's own font if it cannot load."""
    size = max(1, int(size))
    for candidate in (path, find_font(FALLBACK)):
        if candidate is None:
            continue
        try:
            return ImageFont.truetype(str(candidate), size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def has_glyph(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, char: str) -> bool:
    """True when ``font`` draws ``char`` with its own glyph (not the empty or 'missing' box)."""
    mask = font.getmask(char)
    if mask.getbbox() is None:
        return False
    return bytes(mask) != bytes(font.getmask("\U0010fffd"))
