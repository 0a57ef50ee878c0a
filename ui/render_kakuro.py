"""Drawing Kakuro puzzles in printed styles, with :mod:`ui.render`'s helpers (seeded looks, fitted
fonts, text placed by its ink box) so both puzzles are drawn the same way.

* :func:`render_kakuro` draws a puzzle as newspapers, apps and web sites print it: blocks grey or
  black; a clue cell split by its diagonal from the top-left to the bottom-right corner, the down
  clue in the lower-left half, the across clue in the upper-right half. A :class:`KakuroStyle` is a
  family of looks; :func:`sample_kakuro_look` picks one for a seed. The :class:`KakuroRendering`
  has the geometry the photo simulator (:func:`ui.photo.simulate`) needs: image, outer corners,
  ``size`` (the longer side in cells), ``cell_px`` and the look's ``style`` and ``paper``.
* :func:`draw_kakuro_solution` writes digits into the white cells of any image (a rendering or a
  photo) given the grid's corners, through :func:`ui.render.draw_solution`.
* :func:`make_kakuro_entries` makes half-filled grids (some digits wrong) for tests and the corpus.

Example::

    rendering = render_kakuro(puzzle, "newspaper", seed=3)
    photo = simulate(rendering, "handheld", seed=3)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from solver.kakuro.model import BLOCK, Clue, KakuroPuzzle
from solver.puzzle import Cell, Grid

from .fonts import HANDWRITING, PRINT_BOLD, PRINT_REGULAR, available
from .render import PEN_BLUE, RGB, Range, _draw_text_at, _fitted_font, _px, choose, draw_solution, seeded_rng


@dataclass(frozen=True)
class KakuroStyle:
    """A family of Kakuro looks; widths and sizes are fractions of the cell side, pairs are ranges,
    tuples of colours or fonts are sets to choose from."""

    name: str
    paper: tuple[RGB, ...]
    grid_width: Range
    border_width: Range
    grid_colors: tuple[RGB, ...]
    shades: tuple[tuple[RGB, RGB], ...]
    """(fill of blocks and clue cells, ink of the clue numbers) pairs."""
    diagonal_width: Range
    clue_fonts: tuple[str, ...]
    clue_size: Range
    digit_fonts: tuple[str, ...]
    digit_colors: tuple[RGB, ...]
    margin: Range
    handwritten: float = 0.0
    """Probability that entries are handwritten rather than typed."""
    pen_colors: tuple[RGB, ...] = (PEN_BLUE,)


KAKURO_NEWSPAPER = KakuroStyle(
    name="newspaper", paper=((255, 255, 255), (250, 248, 240), (243, 239, 226)),
    grid_width=(0.02, 0.04), border_width=(0.04, 0.08), grid_colors=((0, 0, 0), (30, 30, 30)),
    shades=(((0, 0, 0), (255, 255, 255)), ((40, 40, 40), (255, 255, 255)), ((150, 150, 150), (0, 0, 0)),
            ((185, 185, 185), (0, 0, 0))),
    diagonal_width=(0.02, 0.04), clue_fonts=PRINT_BOLD, clue_size=(0.28, 0.36),
    digit_fonts=PRINT_BOLD, digit_colors=((0, 0, 0),), margin=(0.2, 0.8), handwritten=0.85,
    pen_colors=(PEN_BLUE, (20, 30, 110), (30, 30, 30)),
)
KAKURO_APP = KakuroStyle(
    name="app", paper=((255, 255, 255), (250, 250, 250)),
    grid_width=(0.01, 0.025), border_width=(0.02, 0.05), grid_colors=((120, 120, 120), (80, 80, 90)),
    shades=(((60, 64, 72), (255, 255, 255)), ((45, 60, 90), (255, 255, 255)), ((90, 90, 90), (250, 250, 250))),
    diagonal_width=(0.012, 0.025), clue_fonts=PRINT_REGULAR + ("Roboto-Bold.ttf", "OpenSans-Bold.ttf"),
    clue_size=(0.3, 0.38), digit_fonts=PRINT_BOLD, digit_colors=((30, 30, 120), (20, 20, 20)), margin=(0.1, 0.5),
)
KAKURO_WEB = KakuroStyle(
    name="web", paper=((255, 255, 255),),
    grid_width=(0.012, 0.025), border_width=(0.02, 0.05), grid_colors=((0, 0, 0), (60, 60, 60)),
    shades=(((200, 200, 200), (0, 0, 0)), ((170, 170, 170), (0, 0, 0)), ((215, 215, 225), (20, 20, 90))),
    diagonal_width=(0.012, 0.03), clue_fonts=PRINT_BOLD, clue_size=(0.3, 0.38),
    digit_fonts=PRINT_BOLD, digit_colors=((20, 20, 20), (40, 40, 140)), margin=(0.05, 0.4), handwritten=0.3,
)
KAKURO_STYLES: dict[str, KakuroStyle] = {s.name: s for s in (KAKURO_NEWSPAPER, KAKURO_APP, KAKURO_WEB)}


@dataclass(frozen=True)
class KakuroLook:
    """One member of a Kakuro style, every choice made, in pixels for ``cell_px``."""

    style: str
    cell_px: int
    paper: RGB
    grid_px: int
    border_px: int
    grid_color: RGB
    fill: RGB
    clue_ink: RGB
    diagonal_px: int
    clue_font: Path | None
    clue_px: int
    digit_font: Path | None
    digit_color: RGB
    handwritten: bool
    hand_font: Path | None
    pen_color: RGB
    margin_px: int


def sample_kakuro_look(style: KakuroStyle, cell_px: int, seed: int, for_dark_mode: bool = False) -> KakuroLook:
    """The look of ``style`` that ``seed`` picks, in pixels for cells of ``cell_px``. With
    ``for_dark_mode``, the same look but for its blocks: light with dark clue numbers (a dark fill's
    shade pair inverted), so that :func:`ui.render.dark_mode` shows them as a dark theme does, grey
    blocks a little lighter than the near-black page, with light numbers."""
    rng = seeded_rng(seed, "kakuro-look")
    grid_px = _px(rng, style.grid_width, cell_px)
    fill, ink = choose(rng, style.shades)
    if for_dark_mode and sum(fill) < 3 * 128:
        fill, ink = _inverse(fill), _inverse(ink)
    return KakuroLook(
        style=style.name, cell_px=cell_px, paper=choose(rng, style.paper), grid_px=grid_px,
        border_px=max(grid_px, _px(rng, style.border_width, cell_px)), grid_color=choose(rng, style.grid_colors),
        fill=fill, clue_ink=ink, diagonal_px=_px(rng, style.diagonal_width, cell_px),
        clue_font=choose(rng, available(style.clue_fonts) or (None,)), clue_px=_px(rng, style.clue_size, cell_px, 6),
        digit_font=choose(rng, available(style.digit_fonts) or (None,)), digit_color=choose(rng, style.digit_colors),
        handwritten=bool(rng.random() < style.handwritten), hand_font=choose(rng, available(HANDWRITING) or (None,)),
        pen_color=choose(rng, style.pen_colors), margin_px=_px(rng, style.margin, cell_px, 2),
    )


def _inverse(color: RGB) -> RGB:
    """``color`` with its tones inverted."""
    return tuple(255 - v for v in color)


@dataclass(frozen=True, eq=False)
class KakuroRendering:
    """A drawn Kakuro and its exact geometry."""

    image: np.ndarray
    """H×W×3 uint8 RGB."""
    corners: np.ndarray
    """4×2 float: outer grid corners (x, y), TL, TR, BR, BL, on the outer border's centre line."""
    rows: int
    cols: int
    cell_px: int
    lines_x: tuple[float, ...]
    lines_y: tuple[float, ...]
    look: KakuroLook
    puzzle: KakuroPuzzle

    @property
    def size(self) -> int:
        """The longer side in cells (the photo simulator's pixels-per-cell measure)."""
        return max(self.rows, self.cols)

    def cell_box(self, cell: Cell) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of a cell between the centres of its surrounding grid lines."""
        r, c = cell
        return self.lines_x[c], self.lines_y[r], self.lines_x[c + 1], self.lines_y[r + 1]


def render_kakuro(puzzle: KakuroPuzzle, style: KakuroStyle | str = "newspaper", *, seed: int, cell_px: int = 80,
                  entries: Grid | None = None, solution: Grid | None = None,
                  for_dark_mode: bool = False) -> KakuroRendering:
    """Draw ``puzzle`` in a look of ``style`` chosen by ``seed``; the same inputs give the same bytes.

    ``entries`` (default: the puzzle's own) are drawn big, handwritten or typed as the look says;
    ``solution`` digits are typed into white cells without an entry. ``for_dark_mode``: light blocks
    whatever the look (see :func:`sample_kakuro_look`), for a screen then shown in dark mode. Raises
    KeyError for an unknown style."""
    style = KAKURO_STYLES[style] if isinstance(style, str) else style
    look = sample_kakuro_look(style, cell_px, seed, for_dark_mode)
    m = look.margin_px
    xs = tuple(float(m + i * cell_px) for i in range(puzzle.cols + 1))
    ys = tuple(float(m + i * cell_px) for i in range(puzzle.rows + 1))
    page = Image.new("RGB", (2 * m + puzzle.cols * cell_px, 2 * m + puzzle.rows * cell_px), look.paper)
    draw = ImageDraw.Draw(page)
    for r, row in enumerate(puzzle.grid):
        for c, square in enumerate(row):
            if square == BLOCK or isinstance(square, Clue):
                draw.rectangle([xs[c], ys[r], xs[c + 1], ys[r + 1]], fill=look.fill)
    _draw_lines(draw, xs, ys, look)
    for r, row in enumerate(puzzle.grid):
        for c, square in enumerate(row):
            if isinstance(square, Clue):
                _draw_clue_cell(draw, square, (xs[c], ys[r], xs[c + 1], ys[r + 1]), look)
    corners = _draw_border(draw, xs, ys, look)
    entries = puzzle.entries if entries is None else entries
    rng = seeded_rng(seed, "kakuro-digits")
    for r, c in puzzle.whites:
        box = (xs[c], ys[r], xs[c + 1], ys[r + 1])
        if entries is not None and entries[r][c] is not None:
            if look.handwritten:
                _draw_handwritten(page, entries[r][c], box, look, rng)
            else:
                _draw_typed(draw, entries[r][c], box, look)
        elif solution is not None and solution[r][c] is not None:
            _draw_typed(draw, solution[r][c], box, look)
    pixels = np.asarray(page, dtype=np.uint8).copy()
    pixels.flags.writeable = False
    corners.flags.writeable = False
    return KakuroRendering(pixels, corners, puzzle.rows, puzzle.cols, cell_px, xs, ys, look, puzzle)


def _draw_lines(draw: ImageDraw.ImageDraw, xs, ys, look: KakuroLook) -> None:
    """The thin lines between all cells."""
    w = look.grid_px
    for x in xs[1:-1]:
        draw.rectangle([x - (w - 1) // 2, ys[0], x + w // 2, ys[-1]], fill=look.grid_color)
    for y in ys[1:-1]:
        draw.rectangle([xs[0], y - (w - 1) // 2, xs[-1], y + w // 2], fill=look.grid_color)


def _draw_border(draw: ImageDraw.ImageDraw, xs, ys, look: KakuroLook) -> np.ndarray:
    """The outer border; returns its centre-line corners TL, TR, BR, BL as a 4×2 float array."""
    w = look.border_px
    a = (w - 1) // 2
    x0, x1, y0, y1 = xs[0], xs[-1], ys[0], ys[-1]
    for box in ([x0 - a, y0 - a, x1 + w // 2, y0 + w // 2], [x0 - a, y1 - a, x1 + w // 2, y1 + w // 2],
                [x0 - a, y0 - a, x0 + w // 2, y1 + w // 2], [x1 - a, y0 - a, x1 + w // 2, y1 + w // 2]):
        draw.rectangle(box, fill=look.grid_color)
    lo_x, hi_x = x0 + (w // 2 - a) / 2, x1 + (w // 2 - a) / 2
    lo_y, hi_y = y0 + (w // 2 - a) / 2, y1 + (w // 2 - a) / 2
    return np.array([[lo_x, lo_y], [hi_x, lo_y], [hi_x, hi_y], [lo_x, hi_y]], dtype=np.float64)


def clue_spots(box: tuple[float, float, float, float]) -> dict[str, tuple[float, float, float]]:
    """Where a clue cell's numbers go: direction → (centre x, centre y, widest text) inside the
    lower-left (``down``) and upper-right (``across``) halves of the cell."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return {"down": (x0 + 0.3 * w, y0 + 0.7 * h, 0.4 * w), "across": (x0 + 0.7 * w, y0 + 0.3 * h, 0.4 * w)}


def _draw_clue_cell(draw: ImageDraw.ImageDraw, clue: Clue, box, look: KakuroLook) -> None:
    """The diagonal from the top-left to the bottom-right corner and the two numbers."""
    x0, y0, x1, y1 = box
    inset = look.grid_px / 2
    draw.line([(x0 + inset, y0 + inset), (x1 - inset, y1 - inset)], fill=look.clue_ink if look.fill != look.grid_color
              else look.paper, width=look.diagonal_px)
    for direction, (cx, cy, room) in clue_spots(box).items():
        value = clue.total(direction)
        if value is None:
            continue
        font = _fitted_font(look.clue_font, look.clue_px, "45", room, 0.36 * (y1 - y0))
        _draw_text_at(draw, (cx, cy), str(value), font, look.clue_ink, anchor="mm")


def _draw_typed(draw: ImageDraw.ImageDraw, value: int, box, look: KakuroLook) -> None:
    """A big typed digit in the middle of a white cell."""
    x0, y0, x1, y1 = box
    font = _fitted_font(look.digit_font, int(0.62 * (y1 - y0)), "8", 0.6 * (x1 - x0), 0.6 * (y1 - y0))
    _draw_text_at(draw, ((x0 + x1) / 2, (y0 + y1) / 2), str(value), font, look.digit_color, anchor="mm")


def _draw_handwritten(page: Image.Image, value: int, box, look: KakuroLook, rng: np.random.Generator) -> None:
    """A digit written as with a pen: handwriting font, random size, tilt and offset."""
    x0, y0, x1, y1 = box
    side = x1 - x0
    scale = rng.uniform(0.8, 1.05)
    font = _fitted_font(look.hand_font, int(0.7 * side * scale), str(value), 0.6 * side * scale, 0.62 * side * scale)
    pad = int(side)
    patch = Image.new("L", (2 * pad, 2 * pad), 0)
    _draw_text_at(ImageDraw.Draw(patch), (pad, pad), str(value), font, 255, anchor="mm")
    patch = patch.rotate(rng.uniform(-12, 12), resample=Image.BICUBIC, center=(pad, pad))
    jitter = rng.uniform(-0.06, 0.06, size=2) * side
    ink = Image.new("RGB", patch.size, look.pen_color)
    page.paste(ink, (round((x0 + x1) / 2 + jitter[0]) - pad, round((y0 + y1) / 2 + jitter[1]) - pad), patch)


def make_kakuro_entries(puzzle: KakuroPuzzle, solution: Grid, fill: float = 0.4, wrong: float = 0.1, *,
                        seed: int) -> Grid:
    """A half-filled grid: about ``fill`` of the white cells hold a digit, about ``wrong`` of those a
    wrong one (another digit 1..9), None elsewhere. Deterministic for a seed."""
    rng = seeded_rng(seed, "kakuro-entries")
    whites = puzzle.whites
    chosen = rng.permutation(len(whites))[: int(round(fill * len(whites)))]
    n_wrong = int(round(wrong * len(chosen)))
    grid = puzzle.empty_grid()
    for k, index in enumerate(chosen):
        r, c = whites[index]
        value = solution[r][c]
        if k < n_wrong:
            value = int(choose(rng, [d for d in range(1, 10) if d != value]))
        grid[r][c] = value
    return tuple(map(tuple, grid))


def draw_kakuro_solution(image, corners, rows: int, cols: int, solution: Grid, **options) -> np.ndarray:
    """A copy of ``image`` with ``solution`` digits (None skipped) written into the R×C grid whose
    outer corners are ``corners`` (TL, TR, BR, BL), in perspective: the grid is extended to the
    square of its longer side and drawn by :func:`ui.render.draw_solution` (``options`` go there)."""
    import cv2
    n = max(rows, cols)
    quad = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    flat = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    homography = cv2.getPerspectiveTransform(flat, quad)
    square = np.float32([[0, 0], [n, 0], [n, n], [0, n]]).reshape(-1, 1, 2)
    extended = cv2.perspectiveTransform(square, homography).reshape(4, 2)
    padded = tuple(tuple(solution[r][c] if r < rows and c < cols else None for c in range(n)) for r in range(n))
    return draw_solution(image.image if isinstance(image, KakuroRendering) else image, extended, n, padded, **options)
