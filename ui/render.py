"""Drawing KenKen puzzles: the project's one drawing module.

Two jobs:

* :func:`render` draws a puzzle the way newspapers, phone apps and web sites print it, for tests
  and for the photo simulator (:mod:`ui.photo`). A :class:`RenderStyle` is a *family* of looks with
  ranges (line widths, fonts, colours); :func:`sample_look` turns it and a seed into a :class:`Look`
  where every choice is made; :func:`render` draws that look and returns a :class:`Rendering`: the
  image and the exact grid geometry (outer corners, line positions).
* :func:`draw_solution` writes digits into the cells of any image — a rendering or a phone photo —
  given the grid's four corners, in perspective (drawn flat, warped by a homography, alpha-blended).

Words: *cell* ``(row, col)``; *entries* are big digits written in cells (``None`` where empty);
*pencil* marks are small candidate digits and are not entries; *corners* are ``(x, y)`` pixel
coordinates (pixel centres at integers, as OpenCV uses) of the grid's outer corners in the order
top-left, top-right, bottom-right, bottom-left, on the centre line of the outer border.

Example::

    rendering = render(puzzle, "newspaper", seed=3, entries=make_entries(solution, seed=3))
    Image.fromarray(rendering.image).save("puzzle.png")
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from solver.puzzle import Cage, Cell, Grid, Puzzle

from .fonts import HANDWRITING, PRINT_BOLD, PRINT_REGULAR, available, has_glyph, load_font

RGB = tuple[int, int, int]
Range = tuple[float, float]
Pencil = Sequence[Sequence[Iterable[int] | None]]

#: Printed variants of each operator; a rendering picks one per operator and keeps it.
GLYPH_VARIANTS: dict[str, tuple[str, ...]] = {
    "+": ("+",),
    "-": ("−", "-", "–"),
    "*": ("×", "x", "*"),
    "/": ("÷", "/", ":"),
}
ASCII_GLYPHS = {"+": "+", "-": "-", "*": "x", "/": "/"}

PEN_BLUE: RGB = (25, 60, 190)
PEN_LIGHT: RGB = (120, 190, 255)
"""The solution's ink over a dark page (a dark-mode screenshot), where PEN_BLUE would hardly show."""
DARK_PAGE = 110
"""A page whose mean grey (0..255) inside the grid is under this is dark (see :func:`legible_pen`)."""
DARK_MODE_TONES: tuple[int, int] = (18, 230)
"""The grey of the page and of the print in :func:`dark_mode` unless told (a near-black app theme)."""
MARK_RIGHT: RGB = (0, 150, 40)
MARK_WRONG: RGB = (215, 20, 20)


# ---------------------------------------------------------------------------------------------
# Styles and looks
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RenderStyle:
    """A family of looks. Widths, sizes and paddings are fractions of the cell side; a pair is a
    ``(low, high)`` range and a tuple of colours or fonts is a set to choose from."""

    name: str
    paper: tuple[RGB, ...]
    cage_width: Range
    grid_width: Range
    border_width: Range
    cage_colors: tuple[RGB, ...]
    grid_colors: tuple[RGB, ...]
    clue_fonts: tuple[str, ...]
    clue_size: Range
    clue_colors: tuple[RGB, ...]
    clue_pad: Range
    digit_fonts: tuple[str, ...]
    digit_colors: tuple[RGB, ...]
    pencil_colors: tuple[RGB, ...]
    margin: Range
    glyphs: dict[str, tuple[str, ...]]
    grid_dash: tuple[Range, Range] | None = None
    """Dash and gap lengths of inner grid lines (dotted), None for solid lines."""
    handwritten: float = 0.0
    """Probability that entries are handwritten (pen) rather than typed digits."""
    hand_fonts: tuple[str, ...] = HANDWRITING
    pen_colors: tuple[RGB, ...] = (PEN_BLUE,)
    highlight_colors: tuple[RGB, ...] = ()
    """Fill colours for one selected cell, as apps show it (empty: never)."""
    big_givens: float = 0.0
    """Probability that single-cell '=' cages also show their digit big (not an entry), as some apps do."""


NEWSPAPER = RenderStyle(
    name="newspaper",
    paper=((255, 255, 255), (250, 248, 240), (243, 239, 226)),
    cage_width=(0.045, 0.085), grid_width=(0.008, 0.02), border_width=(0.05, 0.1),
    cage_colors=((0, 0, 0), (25, 25, 25)),
    grid_colors=((160, 160, 160), (120, 120, 120), (70, 70, 70), (0, 0, 0)),
    clue_fonts=PRINT_BOLD, clue_size=(0.17, 0.26), clue_colors=((0, 0, 0), (30, 30, 30)),
    clue_pad=(0.04, 0.09),
    digit_fonts=PRINT_BOLD, digit_colors=((0, 0, 0),),
    pencil_colors=((90, 90, 90), (40, 40, 40), (30, 50, 140)),
    margin=(0.2, 0.8), glyphs=GLYPH_VARIANTS,
    handwritten=0.85,
    pen_colors=(PEN_BLUE, (20, 30, 110), (30, 30, 30), (10, 10, 10)),
)

APP = RenderStyle(
    name="app",
    paper=((255, 255, 255), (250, 250, 250)),
    cage_width=(0.012, 0.03), grid_width=(0.006, 0.014), border_width=(0.015, 0.06),
    cage_colors=((40, 40, 40), (70, 70, 70), (0, 0, 0)),
    grid_colors=((228, 228, 228), (238, 238, 238), (212, 212, 218)),
    clue_fonts=PRINT_REGULAR + ("Roboto-Bold.ttf", "OpenSans-Bold.ttf"),
    clue_size=(0.22, 0.34), clue_pad=(0.04, 0.1),
    clue_colors=((50, 50, 50), (49, 46, 150), (30, 90, 160), (150, 30, 30)),
    digit_fonts=PRINT_BOLD, digit_colors=((50, 50, 50), (30, 30, 120), (20, 20, 20)),
    pencil_colors=((130, 20, 20), (100, 100, 100), (40, 90, 160)),
    margin=(0.1, 0.5),
    glyphs={"+": ("+",), "-": ("−", "-"), "*": ("×", "x"), "/": ("÷", "/")},
    highlight_colors=((255, 255, 160), (205, 228, 255), (255, 236, 200)),
    big_givens=0.5,
)

WEB = RenderStyle(
    name="web",
    paper=((255, 255, 255),),
    cage_width=(0.01, 0.02), grid_width=(0.006, 0.012), border_width=(0.015, 0.04),
    cage_colors=((0, 0, 0), (40, 40, 40)),
    grid_colors=((165, 165, 165), (190, 190, 190), (140, 150, 140)),
    grid_dash=((0.008, 0.02), (0.015, 0.035)),
    clue_fonts=("LeagueSpartan-Bold.otf", "Lato-Bold.ttf", "Roboto-Bold.ttf", "OpenSans-Bold.ttf",
                "DejaVuSans-Bold.ttf"),
    clue_size=(0.26, 0.36), clue_pad=(0.005, 0.03),
    clue_colors=((55, 50, 160), (40, 40, 140), (0, 0, 0)),
    digit_fonts=PRINT_BOLD, digit_colors=((20, 20, 20), (55, 50, 160)),
    pencil_colors=((120, 120, 120), (130, 20, 20)),
    margin=(0.05, 0.4),
    glyphs={"+": ("+",), "-": ("-", "−"), "*": ("x", "×", "*"), "/": ("/", "÷")},
    handwritten=0.3,
)

STYLES: dict[str, RenderStyle] = {style.name: style for style in (NEWSPAPER, APP, WEB)}


@dataclass(frozen=True)
class Look:
    """One member of a style, every choice made; pixel sizes for a given cell side."""

    style: str
    cell_px: int
    paper: RGB
    cage_px: int
    grid_px: int
    border_px: int
    cage_color: RGB
    grid_color: RGB
    grid_dash: tuple[int, int] | None
    clue_font: Path | None
    clue_px: int
    clue_color: RGB
    clue_pad_px: int
    glyphs: tuple[tuple[str, str], ...]
    digit_font: Path | None
    digit_color: RGB
    handwritten: bool
    hand_font: Path | None
    pen_color: RGB
    pen_stroke: int
    """Extra pen thickness in pixels for handwritten digits."""
    pencil_font: Path | None
    pencil_px: int
    pencil_color: RGB
    pencil_layout: str
    """``'rows'`` (candidates written in lines, as apps do) or ``'slots'`` (digit d at a fixed spot)."""
    margin_px: int
    highlight: RGB | None
    big_givens: bool

    def glyph(self, op: str) -> str:
        """The printed glyph of ``op`` in this look ('' for '=' and '?')."""
        return dict(self.glyphs).get(op, "")


def seeded_rng(seed: int, purpose: str) -> np.random.Generator:
    """An independent random stream for one purpose of one seed (same inputs, same stream)."""
    return np.random.default_rng([int(seed) % 2**63, zlib.crc32(purpose.encode())])


def choose(rng: np.random.Generator, options: Sequence):
    """One element of a non-empty sequence, uniformly."""
    return options[int(rng.integers(len(options)))]


def _px(rng: np.random.Generator, span: Range, cell_px: int, low: int = 1) -> int:
    """A pixel size drawn from a fraction range of the cell, at least ``low``."""
    return max(low, int(round(rng.uniform(*span) * cell_px)))


def _glyphs_for(font_path: Path | None, variants: dict[str, tuple[str, ...]], rng, size: int):
    """One glyph per operator, chosen among ``variants``; ASCII when the font lacks the glyph."""
    font = load_font(font_path, size)
    chosen = []
    for op in ("+", "-", "*", "/"):
        glyph = choose(rng, variants.get(op, (ASCII_GLYPHS[op],)))
        chosen.append((op, glyph if has_glyph(font, glyph) else ASCII_GLYPHS[op]))
    return tuple(chosen)


def sample_look(style: RenderStyle, cell_px: int, seed: int) -> Look:
    """The look of ``style`` that ``seed`` picks, in pixels for cells of ``cell_px``."""
    rng = seeded_rng(seed, "look")
    grid_px = _px(rng, style.grid_width, cell_px)
    cage_px = max(grid_px, _px(rng, style.cage_width, cell_px))
    clue_font = choose(rng, available(style.clue_fonts) or (None,))
    clue_px = _px(rng, style.clue_size, cell_px, low=6)
    dash = None
    if style.grid_dash:
        dash = (_px(rng, style.grid_dash[0], cell_px), _px(rng, style.grid_dash[1], cell_px))
    handwritten = bool(rng.random() < style.handwritten)
    hand_font = choose(rng, available(style.hand_fonts) or (None,))
    digit_font = choose(rng, available(style.digit_fonts) or (None,))
    return Look(
        style=style.name, cell_px=cell_px, paper=choose(rng, style.paper),
        cage_px=cage_px, grid_px=grid_px,
        border_px=max(cage_px, _px(rng, style.border_width, cell_px)),
        cage_color=choose(rng, style.cage_colors), grid_color=choose(rng, style.grid_colors),
        grid_dash=dash, clue_font=clue_font, clue_px=clue_px,
        clue_color=choose(rng, style.clue_colors), clue_pad_px=_px(rng, style.clue_pad, cell_px, 0),
        glyphs=_glyphs_for(clue_font, style.glyphs, rng, clue_px),
        digit_font=digit_font, digit_color=choose(rng, style.digit_colors),
        handwritten=handwritten, hand_font=hand_font, pen_color=choose(rng, style.pen_colors),
        pen_stroke=int(rng.integers(0, 2 + cell_px // 60)),
        pencil_font=hand_font if handwritten else choose(rng, available(PRINT_REGULAR) or (None,)),
        pencil_px=_px(rng, (0.15, 0.26), cell_px, low=5),
        pencil_color=choose(rng, style.pencil_colors),
        pencil_layout=choose(rng, ("rows", "slots")),
        margin_px=_px(rng, style.margin, cell_px, low=2),
        highlight=choose(rng, style.highlight_colors) if style.highlight_colors and rng.random() < 0.5 else None,
        big_givens=bool(rng.random() < style.big_givens),
    )


# ---------------------------------------------------------------------------------------------
# The rendering
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Rendering:
    """A drawn puzzle and its exact geometry."""

    image: np.ndarray
    """H×W×3 uint8 RGB."""
    corners: np.ndarray
    """4×2 float: outer grid corners (x, y), TL, TR, BR, BL, on the outer border's centre line."""
    size: int
    cell_px: int
    lines: tuple[float, ...]
    """Nominal centres of the N+1 grid lines; the same numbers serve as x (columns) and y (rows)."""
    look: Look
    puzzle: Puzzle

    def cell_box(self, cell: Cell) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of a cell between the centres of its surrounding grid lines."""
        r, c = cell
        return self.lines[c], self.lines[r], self.lines[c + 1], self.lines[r + 1]


def render(puzzle: Puzzle, style: RenderStyle | str = "newspaper", *, seed: int, cell_px: int = 80,
           entries: Grid | None = None, pencil: Pencil | None = None,
           solution: Grid | None = None) -> Rendering:
    """Draw ``puzzle`` in a look of ``style`` chosen by ``seed``; the same inputs give the same bytes.

    ``entries`` (default: the puzzle's own) are drawn big, handwritten or typed as the look says;
    ``solution`` digits are typed into the cells that have no entry; ``pencil`` candidate sets are
    drawn small below the clue, in cells without a big digit. Raises KeyError for an unknown style.
    """
    style = STYLES[style] if isinstance(style, str) else style
    look = sample_look(style, cell_px, seed)
    n, m = puzzle.size, look.margin_px
    side = 2 * m + n * cell_px
    lines = tuple(float(m + i * cell_px) for i in range(n + 1))
    page = np.empty((side, side, 3), np.uint8)
    page[:] = look.paper
    if look.highlight is not None:
        _fill_cell(page, lines, choose(seeded_rng(seed, "highlight"), puzzle.cells), look)
    _draw_inner_lines(page, lines, look)
    _draw_cage_walls(page, puzzle, lines, look)
    corners = _draw_border(page, lines, look)
    image = Image.fromarray(page)
    draw = ImageDraw.Draw(image)
    for cage in puzzle.cages:
        _draw_clue(draw, cage, puzzle.operators_shown, lines, look)
    entries = puzzle.entries if entries is None else entries
    _draw_digits(image, puzzle, entries, solution, pencil, lines, look, seeded_rng(seed, "digits"))
    pixels = np.asarray(image, dtype=np.uint8).copy()
    pixels.flags.writeable = False
    corners.flags.writeable = False
    return Rendering(pixels, corners, n, cell_px, lines, look, puzzle)


def _span(center: float, width: int) -> tuple[int, int]:
    """The pixel range [start, stop) of a line of ``width`` pixels centred at pixel ``center``."""
    start = int(center) - (width - 1) // 2
    return start, start + width


def _fill_cell(page: np.ndarray, lines: tuple[float, ...], cell: Cell, look: Look) -> None:
    """Paint one cell's inside in the look's highlight colour."""
    r, c = cell
    page[int(lines[r]):int(lines[r + 1]), int(lines[c]):int(lines[c + 1])] = look.highlight


def _draw_inner_lines(page: np.ndarray, lines: tuple[float, ...], look: Look) -> None:
    """Draw the thin grid lines between all cells, solid or dotted."""
    lo, hi = int(lines[0]), int(lines[-1])
    mask = np.ones(hi - lo, bool)
    if look.grid_dash:
        dash, gap = look.grid_dash
        mask = (np.arange(hi - lo) % (dash + gap)) < dash
    for pos in lines[1:-1]:
        a, b = _span(pos, look.grid_px)
        band = page[a:b, lo:hi]
        band[:, mask] = look.grid_color
        band = page[lo:hi, a:b]
        band[mask, :] = look.grid_color


def cage_walls(puzzle: Puzzle) -> list[tuple[Cell, Cell]]:
    """Pairs of orthogonally adjacent cells (second right of or below the first) in different cages;
    a cell in no cage is walled off from everything."""
    def group(cell: Cell) -> int:
        return puzzle.cage_of.get(cell, -1 - cell[0] * puzzle.size - cell[1])

    walls = []
    for r, c in puzzle.cells:
        for nb in ((r, c + 1), (r + 1, c)):
            if nb[0] < puzzle.size and nb[1] < puzzle.size and group((r, c)) != group(nb):
                walls.append(((r, c), nb))
    return walls


def _draw_cage_walls(page: np.ndarray, puzzle: Puzzle, lines: tuple[float, ...], look: Look) -> None:
    """Draw every wall between two cages, extended by half a width so corners close squarely."""
    w = look.cage_px
    for (r, c), (r2, c2) in cage_walls(puzzle):
        if r2 == r:  # vertical wall right of (r, c)
            x0, x1 = _span(lines[c + 1], w)
            y0, y1 = _span(lines[r], w)[0], _span(lines[r + 1], w)[1]
        else:  # horizontal wall below (r, c)
            y0, y1 = _span(lines[r + 1], w)
            x0, x1 = _span(lines[c], w)[0], _span(lines[c + 1], w)[1]
        page[y0:y1, x0:x1] = look.cage_color


def _draw_border(page: np.ndarray, lines: tuple[float, ...], look: Look) -> np.ndarray:
    """Draw the outer border; return its centre-line corners TL, TR, BR, BL as a 4×2 float array."""
    (a0, a1), (b0, b1) = _span(lines[0], look.border_px), _span(lines[-1], look.border_px)
    color = look.cage_color
    page[a0:a1, a0:b1] = color
    page[b0:b1, a0:b1] = color
    page[a0:b1, a0:a1] = color
    page[a0:b1, b0:b1] = color
    lo, hi = (a0 + a1 - 1) / 2, (b0 + b1 - 1) / 2
    return np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float64)


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

def clue_text(cage: Cage, operators_shown: bool, look: Look) -> str:
    """The clue as this look prints it: ``'12×'``, or only the number for a single given cell,
    a hidden operator, or a puzzle printed without operators."""
    glyph = look.glyph(cage.op) if operators_shown else ""
    return f"{cage.target}{glyph}"


def _fitted_font(path: Path | None, size: int, text: str, max_w: float, max_h: float | None = None):
    """The font at the largest size ≤ ``size`` whose drawing of ``text`` fits ``max_w``×``max_h``."""
    size = max(4, size)
    while True:
        font = load_font(path, size)
        x0, y0, x1, y1 = font.getbbox(text)
        if size <= 4 or (x1 - x0 <= max_w and (max_h is None or y1 - y0 <= max_h)):
            return font
        size -= 1


def _draw_text_at(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font, fill: RGB,
                  anchor: str = "tl", stroke: int = 0) -> None:
    """Draw ``text`` so the corner (``'tl'``) or centre (``'mm'``) of its ink box lands on ``xy``."""
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font, stroke_width=stroke)
    if anchor == "mm":
        ox, oy = xy[0] - (x0 + x1) / 2, xy[1] - (y0 + y1) / 2
    else:
        ox, oy = xy[0] - x0, xy[1] - y0
    draw.text((round(ox), round(oy)), text, font=font, fill=fill, stroke_width=stroke, stroke_fill=fill)


def _inner_top_left(cell: Cell, lines: tuple[float, ...], look: Look) -> tuple[float, float]:
    """The top-left point inside a cell, clear of its (widest possible) walls, plus the clue padding."""
    r, c = cell
    clear = max(look.cage_px, look.border_px) / 2 + look.clue_pad_px + 1
    return lines[c] + clear, lines[r] + clear


def _draw_clue(draw: ImageDraw.ImageDraw, cage: Cage, operators_shown: bool,
               lines: tuple[float, ...], look: Look) -> None:
    """Print the cage's clue in the top-left corner of its anchor cell, shrunk to fit the cell."""
    text = clue_text(cage, operators_shown, look)
    x, y = _inner_top_left(cage.anchor, lines, look)
    room = lines[cage.anchor[1] + 1] - x - look.cage_px / 2 - 1
    font = _fitted_font(look.clue_font, look.clue_px, text, room)
    _draw_text_at(draw, (x, y), text, font, look.clue_color)


def clue_glyph_boxes(rendering: Rendering, cage: Cage) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each character of ``cage``'s printed clue with its ink box ``(x0, y0, x1, y1)`` in page
    pixels, left to right, exactly as :func:`render` placed it (kerning aside): the truth that
    trains the clue reader to find characters in a label without cutting it first."""
    look = rendering.look
    text = clue_text(cage, rendering.puzzle.operators_shown, look)
    x, y = _inner_top_left(cage.anchor, rendering.lines, look)
    room = rendering.lines[cage.anchor[1] + 1] - x - look.cage_px / 2 - 1
    font = _fitted_font(look.clue_font, look.clue_px, text, room)
    bx0, by0, _, _ = font.getbbox(text)
    ox, oy = round(x - bx0), round(y - by0)
    boxes = []
    for i, ch in enumerate(text):
        advance = font.getlength(text[:i])
        cx0, cy0, cx1, cy1 = font.getbbox(ch)
        if cx1 > cx0:
            boxes.append((ch, (ox + advance + cx0, oy + cy0, ox + advance + cx1, oy + cy1)))
    return boxes


def _clue_band(look: Look) -> float:
    """Height from a cell's top line that the clue may occupy."""
    return max(look.cage_px, look.border_px) / 2 + look.clue_pad_px + 1.15 * look.clue_px


def _draw_digits(image: Image.Image, puzzle: Puzzle, entries: Grid | None, solution: Grid | None,
                 pencil: Pencil | None, lines: tuple[float, ...], look: Look,
                 rng: np.random.Generator) -> None:
    """Draw one thing per cell, the first that applies: its entry (handwritten or typed), its given
    digit typed big (looks with ``big_givens``), its solution digit typed, its pencil candidates."""
    draw = ImageDraw.Draw(image)
    givens = {cage.anchor: cage.target for cage in puzzle.cages if cage.op == "=" and look.big_givens}
    for r, c in puzzle.cells:
        entry = entries[r][c] if entries is not None else None
        typed = givens.get((r, c), solution[r][c] if solution is not None else None)
        if entry is not None and look.handwritten:
            _draw_handwritten(image, entry, (r, c), lines, look, rng)
        elif entry is not None or typed is not None:
            _draw_typed(draw, entry if entry is not None else typed, (r, c), lines, look, look.digit_color)
        elif pencil is not None and pencil[r][c]:
            _draw_pencil(draw, sorted(pencil[r][c]), (r, c), lines, look)


def _digit_area(cell: Cell, lines: tuple[float, ...], look: Look) -> tuple[float, float, float, float]:
    """Centre x, centre y, width and height of the room for a big digit (below the clue band)."""
    x0, y0, x1, y1 = lines[cell[1]], lines[cell[0]], lines[cell[1] + 1], lines[cell[0] + 1]
    top = y0 + min(_clue_band(look), 0.4 * look.cell_px)
    bottom = y1 - max(look.cage_px, look.border_px) / 2 - 0.04 * look.cell_px
    return (x0 + x1) / 2, (top + bottom) / 2, 0.8 * (x1 - x0), bottom - top


def _draw_typed(draw: ImageDraw.ImageDraw, value: int, cell: Cell, lines: tuple[float, ...],
                look: Look, color: RGB) -> None:
    """Type a big digit (or 10..16) in the cell's digit area."""
    cx, cy, w, h = _digit_area(cell, lines, look)
    font = _fitted_font(look.digit_font, int(h * 1.1), str(value), w, h * 0.85)
    _draw_text_at(draw, (cx, cy), str(value), font, color, anchor="mm")


def _draw_handwritten(image: Image.Image, value: int, cell: Cell, lines: tuple[float, ...],
                      look: Look, rng: np.random.Generator) -> None:
    """Write a digit as with a pen: handwriting font, random size, tilt, offset and ink weight."""
    cx, cy, w, h = _digit_area(cell, lines, look)
    text = str(value)
    scale = rng.uniform(0.8, 1.05)
    font = _fitted_font(look.hand_font, int(h * 1.15 * scale), text, w * scale, h * scale)
    stroke = look.pen_stroke
    pad = look.cell_px
    patch = Image.new("L", (2 * pad, 2 * pad), 0)
    _draw_text_at(ImageDraw.Draw(patch), (pad, pad), text, font, 255, anchor="mm", stroke=stroke)
    patch = patch.rotate(rng.uniform(-12, 12), resample=Image.BICUBIC, center=(pad, pad))
    ink_weight = rng.uniform(0.8, 1.0)
    alpha = patch.point(lambda v: int(v * ink_weight))
    jitter = rng.uniform([-0.06, -0.02], [0.06, 0.06]) * look.cell_px  # hardly upwards: the clue is there
    ink = Image.new("RGB", patch.size, look.pen_color)
    image.paste(ink, (round(cx + jitter[0]) - pad, round(cy + jitter[1]) - pad), alpha)


def _draw_pencil(draw: ImageDraw.ImageDraw, digits: list[int], cell: Cell,
                 lines: tuple[float, ...], look: Look) -> None:
    """Write small candidate digits below the clue band: packed in lines from the left ('rows', as
    apps do) or digit d at the d-th spot of a k×k layout ('slots', as people do on paper)."""
    wall = max(look.cage_px, look.border_px) / 2 + 0.04 * look.cell_px
    x0, x1 = lines[cell[1]] + wall, lines[cell[1] + 1] - wall
    y0 = lines[cell[0]] + min(_clue_band(look), 0.4 * look.cell_px)
    y1 = lines[cell[0] + 1] - wall
    n = len(lines) - 1
    per_row = int(np.ceil(np.sqrt(n)))
    slot_w, slot_h = (x1 - x0) / per_row, (y1 - y0) / int(np.ceil(n / per_row))
    widest = "16" if n > 9 else "8"
    font = _fitted_font(look.pencil_font, look.pencil_px, widest, slot_w * 0.9, slot_h * 0.9)
    if look.pencil_layout == "rows":
        slot_w = min(slot_w, 1.6 * font.getlength(widest))
        slot_h = min(slot_h, 1.15 * look.pencil_px)
    for i, digit in enumerate(digits):
        r, c = divmod(i if look.pencil_layout == "rows" else digit - 1, per_row)
        center = (x0 + (c + 0.5) * slot_w, y0 + (r + 0.5) * slot_h)
        _draw_text_at(draw, center, str(digit), font, look.pencil_color, anchor="mm")


# ---------------------------------------------------------------------------------------------
# Written digits for tests and demos
# ---------------------------------------------------------------------------------------------

def make_entries(solution: Grid, fill: float = 0.4, wrong: float = 0.1, *, seed: int) -> Grid:
    """A half-filled grid: about ``fill`` of the cells hold a digit, about ``wrong`` of those a wrong
    one (another digit 1..N), the rest ``None``. Deterministic for a seed."""
    n = len(solution)
    rng = seeded_rng(seed, "entries")
    cells = [(r, c) for r in range(n) for c in range(n)]
    chosen = rng.permutation(len(cells))[: int(round(fill * len(cells)))]
    n_wrong = int(round(wrong * len(chosen)))
    grid = [[None] * n for _ in range(n)]
    for k, index in enumerate(chosen):
        r, c = cells[index]
        value = solution[r][c]
        if k < n_wrong:
            value = int(choose(rng, [d for d in range(1, n + 1) if d != value]))
        grid[r][c] = value
    return tuple(tuple(row) for row in grid)


def make_pencil(solution: Grid, entries: Grid | None = None, fill: float = 0.3, *,
                seed: int) -> tuple[tuple[frozenset[int], ...], ...]:
    """Pencil marks: about ``fill`` of the cells without an entry get a few candidates, always
    including the solution digit; the other cells get an empty set. Deterministic for a seed."""
    n = len(solution)
    rng = seeded_rng(seed, "pencil")
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            if (entries is not None and entries[r][c] is not None) or rng.random() >= fill:
                row.append(frozenset())
                continue
            others = rng.permutation([d for d in range(1, n + 1) if d != solution[r][c]])
            row.append(frozenset([solution[r][c], *map(int, others[: rng.integers(1, max(2, n // 2))])]))
        grid.append(tuple(row))
    return tuple(grid)


# ---------------------------------------------------------------------------------------------
# Digits over photos
# ---------------------------------------------------------------------------------------------

def draw_solution(image: np.ndarray | Rendering, corners, size: int, solution: Grid,
                  marks: Sequence[Sequence[RGB | None]] | None = None, *,
                  color: RGB | None = None) -> np.ndarray:
    """A copy of ``image`` (RGB array or Rendering) with ``solution`` digits written into the grid
    whose outer corners (TL, TR, BR, BL; x, y) are ``corners``, in the grid's perspective.

    ``None`` digits are skipped; ``marks[r][c]``, when given and not None, colours that digit
    (e.g. MARK_RIGHT / MARK_WRONG), otherwise ``color`` is used (default: :func:`legible_pen`).
    Digits sit in the lower part of the cell so the clue stays readable. The page is assumed flat
    (a homography maps the grid).
    """
    base = image.image if isinstance(image, Rendering) else np.asarray(image)
    quad = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    color = color or legible_pen(base, quad)
    edge = np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)])
    cell = int(np.clip(1.5 * edge / size, 24, 160))
    mask = Image.new("L", (size * cell, size * cell), 0)
    inks = np.empty((size * cell, size * cell, 3), np.uint8)
    draw = ImageDraw.Draw(mask)
    font_path = (available(PRINT_BOLD) or (None,))[0]
    font = _fitted_font(font_path, int(cell * 0.6), "16" if size > 9 else "8", cell * 0.7, cell * 0.55)
    for r in range(size):
        for c in range(size):
            ink = marks[r][c] if marks is not None and marks[r][c] is not None else color
            inks[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell] = ink
            if solution[r][c] is not None:
                _draw_text_at(draw, ((c + 0.55) * cell, (r + 0.62) * cell), str(solution[r][c]), font,
                              255, anchor="mm")
    flat = np.float32([[0, 0], [size * cell, 0], [size * cell, size * cell], [0, size * cell]]) - 0.5
    homography = cv2.getPerspectiveTransform(flat, quad)
    h, w = base.shape[:2]
    warp = dict(dsize=(w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = cv2.warpPerspective(np.asarray(mask), homography, **warp)[..., None] / np.float32(255)
    ink = cv2.warpPerspective(inks, homography, **warp).astype(np.float32)
    out = base[..., :3].astype(np.float32) * (1 - alpha) + ink * alpha
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def dark_mode(image: np.ndarray, tones: tuple[int, int] = DARK_MODE_TONES) -> np.ndarray:
    """``image`` (uint8) as an app's or a site's dark mode shows it: its tones inverted, white
    paper turned to the page grey ``tones[0]`` and black print to ``tones[1]`` (colours inverted too)."""
    page, ink = tones
    return (page + (255 - image.astype(np.float32)) * ((ink - page) / 255)).astype(np.uint8)


def legible_pen(image: np.ndarray, quad: np.ndarray) -> RGB:
    """PEN_BLUE on a light page, PEN_LIGHT on a dark one (mean grey inside ``quad`` under DARK_PAGE)."""
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(quad.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0)).astype(int) + 1, 0, [w, h])
    box = image[y0:y1, x0:x1]
    grey = box if box.ndim == 2 else cv2.cvtColor(np.ascontiguousarray(box[..., :3]), cv2.COLOR_RGB2GRAY)
    inside = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad - [x0, y0]).astype(np.int32), 1)
    dark = inside.any() and float(grey[inside > 0].mean()) < DARK_PAGE
    return PEN_LIGHT if dark else PEN_BLUE


# ---------------------------------------------------------------------------------------------
# Boards for the app (ui/app.py): what was read, the corrections, the answers
# ---------------------------------------------------------------------------------------------

BOARD_INK: RGB = (25, 25, 25)
BOARD_GRID: RGB = (200, 200, 200)
BOARD_WALL_ON_PHOTO: RGB = (20, 110, 235)
"""Cage walls drawn over a photo: a translucent blue that lets the printed walls show through."""


def draw_board(size: int, cage_of: Mapping[Cell, int], clues: Mapping[Cell, str], *,
               background: np.ndarray | None = None,
               lines: tuple[Sequence[float], Sequence[float]] | None = None,
               cell_px: int = 72,
               fills: Mapping[Cell, RGB] | None = None,
               edge_colors: Mapping[tuple[Cell, Cell], RGB] | None = None,
               clue_colors: Mapping[Cell, RGB] | None = None,
               digits: Mapping[Cell, tuple[int, RGB]] | None = None,
               notes: Mapping[Cell, tuple[str, RGB]] | None = None) -> np.ndarray:
    """A schematic N×N board as an RGB array, on white or over a square-on photo of the grid.

    ``cage_of`` maps each caged cell to its cage's id (cells not in it belong to no cage); a wall is
    drawn between two cells of different cages and around the grid. ``clues`` maps anchors to the
    label drawn in that cell (in a box; its border takes ``clue_colors[anchor]`` when given).
    ``background`` is a rectified photo whose grid lines sit at ``lines = (xs, ys)`` (N+1 positions
    each, in its pixels); it is scaled to about ``cell_px`` per cell and the walls are drawn
    translucent over it, with the clue labels moved to the bottom-left corner so the printed clue
    stays visible. ``fills`` tint cells, ``edge_colors`` mark edges (dashed, wall or not; an edge is
    a pair of neighbouring cells, the smaller first), ``digits`` are written big in the cell centre
    and ``notes`` small in the bottom-right corner.
    """
    margin = max(6, cell_px // 5)
    if background is not None:
        xs, ys = (np.asarray(v, dtype=np.float64) for v in lines)
        scale = size * cell_px / max(xs[-1] - xs[0], ys[-1] - ys[0], 1.0)
        height, width = background.shape[:2]
        scaled = cv2.resize(np.ascontiguousarray(background[..., :3]),
                            (max(1, round(width * scale)), max(1, round(height * scale))),
                            interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
        page = np.full((scaled.shape[0] + 2 * margin, scaled.shape[1] + 2 * margin, 3), 255, np.uint8)
        page[margin:margin + scaled.shape[0], margin:margin + scaled.shape[1]] = scaled
        xs, ys = xs * scale + margin, ys * scale + margin
    else:
        side = size * cell_px + 2 * margin
        page = np.full((side, side, 3), 255, np.uint8)
        xs = ys = np.array([margin + i * cell_px for i in range(size + 1)], dtype=np.float64)
    on_photo = background is not None
    image = Image.fromarray(page).convert("RGBA")
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for (r, c), color in (fills or {}).items():
        draw.rectangle([xs[c], ys[r], xs[c + 1], ys[r + 1]], fill=(*color, 95))
    wall_px = max(2, cell_px // (14 if on_photo else 16))
    if not on_photo:
        for i in range(1, size):
            draw.line([(xs[i], ys[0]), (xs[i], ys[-1])], fill=(*BOARD_GRID, 255), width=max(1, cell_px // 60))
            draw.line([(xs[0], ys[i]), (xs[-1], ys[i])], fill=(*BOARD_GRID, 255), width=max(1, cell_px // 60))
    wall_ink = (*BOARD_WALL_ON_PHOTO, 170) if on_photo else (*BOARD_INK, 255)
    for a, b in _board_edges(size):
        if a not in cage_of or b not in cage_of or cage_of[a] != cage_of[b]:
            draw.line(_edge_segment(a, b, xs, ys), fill=wall_ink, width=wall_px)
    draw.rectangle([xs[0], ys[0], xs[-1], ys[-1]], outline=wall_ink, width=wall_px + (0 if on_photo else 2))
    for (a, b), color in (edge_colors or {}).items():
        _dashed(draw, _edge_segment(a, b, xs, ys), (*color, 235), wall_px + 3, max(4, cell_px // 9))
    image = Image.alpha_composite(image, layer)
    draw = ImageDraw.Draw(image)
    font_path = (available(PRINT_BOLD) or (None,))[0]
    widest = max(clues.values(), key=len, default="")
    clue_font = _fitted_font(font_path, int(cell_px * (0.2 if on_photo else 0.24)), widest or "0", cell_px * 0.8)
    for (r, c), text in clues.items():
        if not text:
            continue
        x0, y0 = xs[c] + wall_px + 2, ys[r] + wall_px + 2
        box = draw.textbbox((0, 0), text, font=clue_font)
        w, h = box[2] - box[0] + 6, box[3] - box[1] + 6
        if on_photo:
            y0 = ys[r + 1] - wall_px - h - 1
        frame = (clue_colors or {}).get((r, c))
        draw.rectangle([x0, y0, x0 + w, y0 + h], fill=(255, 255, 255, 235),
                       outline=(*frame, 255) if frame else None, width=max(2, cell_px // 28) if frame else 0)
        _draw_text_at(draw, (x0 + 3, y0 + 3), text, clue_font, (*BOARD_INK, 255))
    if digits:
        digit_font = _fitted_font(font_path, int(cell_px * 0.55), "16" if size > 9 else "8", cell_px * 0.7)
        for (r, c), (value, color) in digits.items():
            centre = ((xs[c] + xs[c + 1]) / 2, ys[r] + 0.6 * (ys[r + 1] - ys[r]))
            _draw_text_at(draw, centre, str(value), digit_font, (*color, 255), anchor="mm")
    if notes:
        note_font = load_font(font_path, max(8, int(cell_px * 0.2)))
        for (r, c), (text, color) in notes.items():
            box = draw.textbbox((0, 0), text, font=note_font)
            x1, y1 = xs[c + 1] - wall_px - 2, ys[r + 1] - wall_px - 2
            x0, y0 = x1 - (box[2] - box[0]) - 6, y1 - (box[3] - box[1]) - 6
            draw.rectangle([x0, y0, x1, y1], fill=(255, 255, 255, 225), outline=(*color, 255), width=2)
            _draw_text_at(draw, (x0 + 3, y0 + 3), text, note_font, (*color, 255))
    return np.asarray(image.convert("RGB"), dtype=np.uint8)


def _board_edges(size: int) -> list[tuple[Cell, Cell]]:
    """Every pair of orthogonally neighbouring cells, the smaller first."""
    return [((r, c), (r, c + 1)) for r in range(size) for c in range(size - 1)] + \
           [((r, c), (r + 1, c)) for r in range(size - 1) for c in range(size)]


def _edge_segment(a: Cell, b: Cell, xs, ys) -> list[tuple[float, float]]:
    """The two end points of the line between neighbouring cells ``a`` and ``b``."""
    (r, c), (r2, c2) = sorted((a, b))
    if r == r2:
        return [(xs[c + 1], ys[r]), (xs[c + 1], ys[r + 1])]
    return [(xs[c], ys[r + 1]), (xs[c + 1], ys[r + 1])]


def _dashed(draw: ImageDraw.ImageDraw, segment, fill, width: int, dash: int) -> None:
    """A dashed straight line (dashes and gaps of ``dash`` pixels)."""
    (x0, y0), (x1, y1) = segment
    length = float(np.hypot(x1 - x0, y1 - y0))
    steps = max(1, int(length // (2 * dash)))
    for k in range(steps + 1):
        t0, t1 = min(1.0, 2 * k * dash / length), min(1.0, (2 * k + 1) * dash / length)
        if t0 < t1:
            draw.line([(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0), (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)],
                      fill=fill, width=width)


# ---------------------------------------------------------------------------------------------
# Candidate grids (pencil marks) for explanations and hints
# ---------------------------------------------------------------------------------------------

CANDIDATE_GREY: RGB = (110, 110, 110)
HINT_FILL: RGB = (255, 244, 170)


def draw_candidates(puzzle: Puzzle, candidates: Sequence[Sequence[Iterable[int]]], *, cell_px: int = 72,
                    entries: Grid | None = None, highlight: Iterable[Cell] = (),
                    removed: Iterable[tuple[Cell, int]] = (), placed: Iterable[tuple[Cell, int]] = ()) -> np.ndarray:
    """The grid with every cell's candidates, as in seed 000's pictures: an RGB array.

    A cell with one candidate shows it big (``entries`` in black, digits found by logic in blue); a cell
    with several shows them small, digit d at the d-th spot. ``highlight`` cells get a yellow
    background (where a hint says to look), ``removed`` (cell, digit) pairs are drawn small in red
    where they stood (what a step crosses out), ``placed`` (cell, digit) big in green (what a step
    fixes). Deterministic: the same inputs give the same pixels.
    """
    look = sample_look(APP, cell_px, seed=0)
    look = Look(**{**look.__dict__, "paper": (255, 255, 255), "grid_dash": None, "highlight": HINT_FILL,
                   "grid_color": (200, 200, 200), "cage_color": (20, 20, 20), "clue_color": (20, 20, 20),
                   "digit_color": PEN_BLUE, "pencil_color": CANDIDATE_GREY, "pencil_layout": "slots",
                   "clue_font": (available(PRINT_BOLD) or (None,))[0],
                   "pencil_font": (available(PRINT_REGULAR) or (None,))[0],
                   "digit_font": (available(PRINT_BOLD) or (None,))[0]})
    clue_font = load_font(look.clue_font, look.clue_px)
    look = Look(**{**look.__dict__, "glyphs": tuple((op, g if has_glyph(clue_font, g) else ASCII_GLYPHS[op])
                                                   for op, g in (("+", "+"), ("-", "−"), ("*", "×"), ("/", "÷")))})
    n, m = puzzle.size, look.margin_px
    side = 2 * m + n * cell_px
    lines = tuple(float(m + i * cell_px) for i in range(n + 1))
    page = np.empty((side, side, 3), np.uint8)
    page[:] = look.paper
    for cell in set(highlight):
        _fill_cell(page, lines, cell, look)
    _draw_inner_lines(page, lines, look)
    _draw_cage_walls(page, puzzle, lines, look)
    _draw_border(page, lines, look)
    image = Image.fromarray(page)
    draw = ImageDraw.Draw(image)
    for cage in puzzle.cages:
        _draw_clue(draw, cage, puzzle.operators_shown, lines, look)
    gone: dict[Cell, list[int]] = {}
    for cell, digit in removed:
        gone.setdefault(cell, []).append(digit)
    fixed = dict(placed)
    red = Look(**{**look.__dict__, "pencil_color": MARK_WRONG})
    for r, c in puzzle.cells:
        digits = sorted(set(candidates[r][c]))
        entry = entries[r][c] if entries is not None else None
        if (r, c) in fixed:
            _draw_typed(draw, fixed[(r, c)], (r, c), lines, look, MARK_RIGHT)
        elif entry is not None or len(digits) == 1:
            _draw_typed(draw, entry if entry is not None else digits[0], (r, c), lines, look,
                        (0, 0, 0) if entry is not None else look.digit_color)
        elif digits:
            _draw_pencil(draw, [d for d in digits if d not in gone.get((r, c), ())], (r, c), lines, look)
        if (r, c) in gone and (r, c) not in fixed and entry is None:
            _draw_pencil(draw, sorted(gone[(r, c)]), (r, c), lines, red)
    return np.asarray(image, dtype=np.uint8).copy()
