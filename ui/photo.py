"""A phone-photo simulator: turns a :class:`~ui.render.Rendering` into a believable snapshot.

The recipe, one function per stage:

1. :func:`compose_page` sets the rendered grid on a page: newspaper print around it (a title, text
   columns, another puzzle's grid) for the newspaper look, an app or web screen (coloured
   background, title, keypad) for the others.
2. :func:`pose_camera` picks where the camera is: a pinhole camera tilted and rotated around the
   grid, at a distance that gives the level's pixels per cell, and at the hard level a page curl
   (a smooth non-linear bend, so grid lines are neither straight nor evenly spaced; a screen
   gets a third of it, as lens distortion).
3. :func:`photograph` warps the page into the frame over a table, then :func:`develop` adds what a
   phone adds: uneven light, a hard shadow, colour cast, blur, noise and JPEG artefacts.
4. Asked for (``pen``), :func:`lay_pen` first lays a pen across the grid (:func:`pen_across`): a
   shaded rod with a tapered tip and its soft shadow, at a slant, as a person checking a
   half-filled grid leaves it on the page.

Everything is drawn from ``seed``; the same rendering, level and seed give the same bytes. The
returned corners are where the grid's outer corners really are in the photo (the curl included):
the same mapping that moves the pixels moves them.

Example::

    photo = simulate(render(puzzle, "newspaper", seed=1), "handheld", seed=1)
    Image.fromarray(photo.image).save("photo.jpg")
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw

from .fonts import PRINT_BOLD, PRINT_REGULAR, PRINT_SERIF, available, load_font
from .render import RGB, Range, Rendering, choose, dark_mode, seeded_rng

@dataclass(frozen=True)
class PhotoLevel:
    """How hard a photo is. Pairs are ``(low, high)`` ranges; angles in degrees, blur and noise in
    pixels and grey levels of the final photo, distances as fractions of the grid side."""

    name: str
    px_per_cell: Range
    """Longest grid edge in the photo divided by N."""
    rotation: float
    tilt: float
    curl: Range
    blur: Range
    motion_blur: float
    """Longest shake, in pixels of the final photo: each photo's is drawn evenly from 0 to it."""
    noise: Range
    shade: Range
    shadow: float
    """Probability of a hard shadow across the frame."""
    shadow_depth: Range
    """Brightness left inside the shadow."""
    cast: float
    jpeg: tuple[int, int]
    surround: Range
    """Margin of the frame around the grid."""
    coarse_shake: bool = False
    """Shake with the simulator's kernel before the sixty-fourth round (:func:`coarse_shake_kernel`:
    every shake of 1–2.5 px drawn 3 px long, none under 1 px) instead of one ``motion_blur`` long.
    The networks fitted at first use learn from photos shaken so (a heavier smear than the levels
    name), and keep doing so, so that a fresh machine fits the same networks as before; photos of
    the corpus and the samples are shaken as the level says."""


LEVELS: dict[str, PhotoLevel] = {
    level.name: level for level in (
        PhotoLevel("clean", px_per_cell=(60, 90), rotation=3, tilt=4, curl=(0, 0), blur=(0.0, 0.5),
                   motion_blur=0, noise=(1, 3), shade=(0.0, 0.15), shadow=0.0, shadow_depth=(1, 1),
                   cast=0.03, jpeg=(85, 95), surround=(0.06, 0.3)),
        PhotoLevel("handheld", px_per_cell=(35, 60), rotation=10, tilt=12, curl=(0, 0), blur=(0.4, 1.0),
                   motion_blur=2.5, noise=(3, 6), shade=(0.1, 0.35), shadow=0.3, shadow_depth=(0.7, 0.85),
                   cast=0.08, jpeg=(60, 85), surround=(0.08, 0.5)),
        PhotoLevel("hard", px_per_cell=(25, 35), rotation=20, tilt=20, curl=(0.04, 0.1), blur=(0.2, 0.5),
                   motion_blur=1.0, noise=(3, 7), shade=(0.25, 0.5), shadow=0.85, shadow_depth=(0.45, 0.7),
                   cast=0.15, jpeg=(60, 80), surround=(0.08, 0.6)),
    )
}


@dataclass(frozen=True, eq=False)
class Photo:
    """A simulated phone photo of a puzzle."""

    image: np.ndarray
    """H×W×3 uint8 RGB."""
    corners: np.ndarray
    """4×2 float: the grid's outer corners (x, y) in the photo, TL, TR, BR, BL."""
    level: str
    size: int

    @property
    def px_per_cell(self) -> float:
        """The longest grid edge in the photo divided by N."""
        edges = np.linalg.norm(self.corners - np.roll(self.corners, -1, axis=0), axis=1)
        return float(edges.max() / self.size)


@dataclass(frozen=True, eq=False)
class Page:
    """The rendered grid set on a page (paper or screen), and where the grid's corners are on it."""

    image: np.ndarray
    corners: np.ndarray
    cell_px: float
    paper: bool
    """True for print on paper (it may curl), False for a screen (only lens distortion bends it)."""


@dataclass(frozen=True, eq=False)
class Curl:
    """A smooth bend of the page (see :func:`bend`); zero ``bow`` and ``stretch`` mean a flat page."""

    axis: int
    """0: the page bends along x (columns get uneven, rows bow); 1: along y."""
    bow: float
    stretch: float
    centre: np.ndarray
    """The grid centre on the page."""
    side: float
    """The grid side on the page, in page pixels."""


@dataclass(frozen=True, eq=False)
class Camera:
    """Where the camera is: a homography from the flat page to the photo, the page's curl (the page
    point seen where the flat page has ``u`` is ``u + bend(u, curl)``), and the frame size."""

    homography: np.ndarray
    curl: Curl
    frame: tuple[int, int]
    """(width, height) of the photo in pixels."""


def simulate(rendering: Rendering, level: PhotoLevel | str = "handheld", *, seed: int,
             titles: tuple[str, ...] | None = None, dark: bool = False, pen: bool = False) -> Photo:
    """A phone photo of ``rendering`` at ``level`` (a name from LEVELS or a PhotoLevel), drawn
    from ``seed``; the page's title is one of ``titles`` (default :data:`TITLES`, KenKen's names).
    With ``dark``, a screen (not a newspaper page) is shown in dark mode (:func:`compose_page`),
    and the room's light is reflected in it (:func:`glare`). With ``pen``, a pen lies across the
    grid (:func:`pen_across`, :func:`lay_pen`; everything else as without it).
    Raises KeyError for an unknown level name."""
    level = LEVELS[level] if isinstance(level, str) else level
    target = seeded_rng(seed, "photo-scale").uniform(*level.px_per_cell)
    page = compose_page(_shrunk(rendering, target), rendering, seed, titles or TITLES, dark)
    camera = pose_camera(page, rendering.size, target, level, seed)
    image, corners, cover = photograph(page, camera, seed)
    if pen:
        image = lay_pen(image, pen_across(corners, rendering.size, seed), seed)
    glowing = None
    if dark and not page.paper:  # a screen gives its own light: a hand's shadow does not darken it
        image, glowing = image + glare(camera.frame, seed)[..., None], cover
    image = develop(image, level, seed, glowing)
    corners.flags.writeable = False
    image.flags.writeable = False
    return Photo(image, corners, level.name, rendering.size)


# ---------------------------------------------------------------------------------------------
# 1. The page
# ---------------------------------------------------------------------------------------------

def _shrunk(rendering: Rendering, target: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The rendering resized (never enlarged) to about 1.25×``target`` px per cell, to avoid
    aliasing when warping: ``(image, corners, cell_px)`` in the resized pixels."""
    scale = min(1.0, 1.25 * target / rendering.cell_px)
    h, w = rendering.image.shape[:2]
    size = (max(8, round(w * scale)), max(8, round(h * scale)))
    image = cv2.resize(rendering.image, size, interpolation=cv2.INTER_AREA) if scale < 1 else rendering.image
    sx, sy = size[0] / w, size[1] / h
    corners = (rendering.corners + 0.5) * [sx, sy] - 0.5
    return image, corners, rendering.cell_px * sx


def compose_page(shrunk: tuple[np.ndarray, np.ndarray, float], rendering: Rendering, seed: int,
                 titles: tuple[str, ...] | None = None, dark: bool = False) -> Page:
    """The (shrunk) grid image on a larger page with print or screen furniture around it, titled
    with one of ``titles`` (default :data:`TITLES`). With ``dark``, a screen is drawn on a light
    background and then shown in an app's dark mode: light print on a near-black page, its two
    tones drawn from DARK_PAGE_GREY and DARK_PRINT_GREY (a newspaper page stays as printed)."""
    titles = titles or TITLES
    grid, corners, cell = shrunk
    rng = seeded_rng(seed, "page")
    side = grid.shape[0]
    left, right, top, bottom = (int(rng.uniform(0.35, 0.8) * side) for _ in range(4))
    w, h = left + grid.shape[1] + right, top + side + bottom
    on_paper = rendering.look.style == "newspaper"
    dark = dark and not on_paper
    background = rendering.look.paper if on_paper else choose(rng, LIGHT_SCREEN_COLORS if dark else SCREEN_COLORS)
    page = Image.new("RGB", (w, h), background)
    box = (left, top, left + grid.shape[1], top + side)
    if on_paper:
        _print_furniture(page, box, cell, rendering, rng, titles)
    else:
        _screen_furniture(page, box, cell, rendering, background, rng, titles)
    page.paste(Image.fromarray(grid), box[:2])
    pixels = np.asarray(page).copy()
    if on_paper:
        grain = rng.normal(0, 2.5, pixels.shape[:2])[..., None]
        pixels = np.clip(pixels + grain, 0, 255).astype(np.uint8)
    if dark:
        tones = seeded_rng(seed, "dark-mode")
        pixels = dark_mode(pixels, (int(tones.integers(*DARK_PAGE_GREY)), int(tones.integers(*DARK_PRINT_GREY))))
    return Page(pixels, corners + [left, top], cell, on_paper)


SCREEN_COLORS: tuple[RGB, ...] = ((78, 134, 192), (46, 78, 78), (250, 250, 250), (235, 235, 240), (35, 35, 40))
LIGHT_SCREEN_COLORS: tuple[RGB, ...] = ((250, 250, 250), (235, 235, 240), (255, 255, 255))
"""The screens a dark mode is made from (:func:`compose_page`): their light page turns near black."""
DARK_PAGE_GREY: tuple[int, int] = (10, 50)
"""The grey of a dark mode's page (low inclusive, high exclusive): from pure black themes to dark grey ones."""
DARK_PRINT_GREY: tuple[int, int] = (190, 240)
"""The grey a dark mode gives black print."""
TITLES = ("KENKEN", "CALCUDOKU", "MATHDOKU", "KENDOKU", "Calcudoku", "Mathdoku", "KenKen®", "Inky")
"""The page titles of a simulated KenKen photo (:func:`simulate` takes others)."""
WORD_LETTERS = "etaoinshrdlucmfwypvbgkjqxz"
WORD_WEIGHTS = np.array([12, 9, 8, 7.5, 7, 6.7, 6.3, 6, 6, 4.3, 4, 2.8, 2.8, 2.4, 2.2, 2.4, 2, 1.9, 1, 1.5, 2,
                         0.8, 0.2, 0.1, 0.2, 0.1])


def _random_font(rng: np.random.Generator, names: tuple[str, ...], px: float):
    """One installed font of ``names`` (DejaVu when none is) at ``px`` pixels."""
    return load_font(choose(rng, available(names) or (None,)), max(5, int(px)))


def _words(rng: np.random.Generator, count: int) -> list[str]:
    """Random word-like strings with English letter frequencies."""
    p = WORD_WEIGHTS / WORD_WEIGHTS.sum()
    return ["".join(rng.choice(list(WORD_LETTERS), size=int(rng.integers(1, 10)), p=p)) for _ in range(count)]


def _text_block(size: tuple[int, int], px: int, rng: np.random.Generator, ink: RGB, paper: RGB,
                bold_every: int = 0) -> Image.Image:
    """An image of ``size`` filled with justified-looking lines of random words at ``px`` pixels."""
    block = Image.new("RGB", size, paper)
    draw = ImageDraw.Draw(block)
    font = _random_font(rng, PRINT_SERIF + PRINT_REGULAR, px)
    bold = _random_font(rng, PRINT_BOLD, px * 1.3)
    y, line = 0.0, 0
    while y < size[1]:
        heading = bold_every and line % bold_every == 0
        face = bold if heading else font
        text = " ".join(_words(rng, 3 if heading else max(2, size[0] // max(1, 3 * px))))
        draw.text((0, y), text, font=face, fill=ink)
        y += (1.6 if heading else 1.25) * px
        line += 1
    return block


def _print_furniture(page: Image.Image, box: tuple[int, int, int, int], cell: float,
                     rendering: Rendering, rng: np.random.Generator, titles: tuple[str, ...] = TITLES) -> None:
    """Newspaper print around the grid: a title above, instructions below, text columns and
    another puzzle at the sides, thin column rules."""
    paper, ink = rendering.look.paper, (25, 25, 25)
    draw = ImageDraw.Draw(page)
    w, h = page.size
    x0, y0, x1, y1 = box
    gap = int(0.3 * cell)
    title_px = int(rng.uniform(0.4, 0.7) * cell)
    title = titles[int(rng.integers(len(titles)))] + (f" No. {int(rng.integers(10, 999))}" if rng.random() < 0.5 else "")
    title_font = _random_font(rng, PRINT_BOLD, title_px)
    draw.text((x0, max(0, y0 - gap - 1.2 * title_px)), title, font=title_font, fill=ink)
    body_px = max(5, int(rng.uniform(0.12, 0.22) * cell))
    regions = [
        (0, 0, w, max(0, y0 - 2 * gap - int(1.3 * title_px))),  # above the title
        (x0, y1 + gap, x1, h),  # below the grid
        (0, y0, max(0, x0 - gap), h),  # left column
        (x1 + gap, 0, w, h),  # right column
    ]
    for rx0, ry0, rx1, ry1 in regions:
        if rx1 - rx0 < 3 * body_px or ry1 - ry0 < 2 * body_px:
            continue
        if rng.random() < 0.3 and min(rx1 - rx0, ry1 - ry0) > 4 * cell:
            _other_puzzle(draw, (rx0 + gap, ry0 + gap, rx1 - gap, ry1 - gap), cell, ink, rng)
            continue
        block = _text_block((rx1 - rx0, ry1 - ry0), body_px, rng, ink, paper, bold_every=int(rng.choice([0, 5, 8, 12])))
        page.paste(block, (rx0, ry0))
    for x in (x0 - gap // 2, x1 + gap // 2):
        if rng.random() < 0.6:
            draw.line([(x, 0), (x, h)], fill=(90, 90, 90), width=max(1, int(0.02 * cell)))


def _other_puzzle(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cell: float, ink: RGB,
                  rng: np.random.Generator) -> None:
    """A distracting grid in ``box``: a sudoku (thin and thick lines) or a crossword (black cells)."""
    n = 9 if rng.random() < 0.5 else int(rng.integers(9, 15))
    side = min(box[2] - box[0], box[3] - box[1], int(n * cell * rng.uniform(0.4, 0.7)))
    step = side / n
    x0, y0 = box[0], box[1]
    for i in range(n + 1):
        width = 3 if (n == 9 and i % 3 == 0) or i in (0, n) else 1
        draw.line([(x0 + i * step, y0), (x0 + i * step, y0 + side)], fill=ink, width=width)
        draw.line([(x0, y0 + i * step), (x0 + side, y0 + i * step)], fill=ink, width=width)
    if n != 9:
        for r, c in zip(rng.integers(0, n, n * 2), rng.integers(0, n, n * 2)):
            draw.rectangle([x0 + c * step, y0 + r * step, x0 + (c + 1) * step, y0 + (r + 1) * step], fill=ink)


def _screen_furniture(page: Image.Image, box: tuple[int, int, int, int], cell: float,
                      rendering: Rendering, background: RGB, rng: np.random.Generator,
                      titles: tuple[str, ...] = TITLES) -> None:
    """An app or web screen around the grid: a title bar above, a keypad of digits below."""
    draw = ImageDraw.Draw(page)
    x0, y0, x1, y1 = box
    dark = sum(background) < 400
    ink = (255, 255, 255) if dark else (40, 40, 40)
    title_px = int(rng.uniform(0.4, 0.6) * cell)
    font = _random_font(rng, PRINT_BOLD, title_px)
    title = titles[int(rng.integers(len(titles)))]
    title_w = font.getlength(title)
    draw.text(((x0 + x1 - title_w) / 2, max(0, y0 - 1.8 * title_px)), title, font=font, fill=ink)
    small = _random_font(rng, PRINT_REGULAR, 0.25 * cell)
    draw.text((int(0.2 * cell), int(0.1 * cell)), f"{int(rng.integers(1, 13))}:{int(rng.integers(0, 60)):02d}",
              font=small, fill=ink)
    keys = min(rendering.size, 9)
    key = min(1.0 * cell, (x1 - x0) / keys)
    digit_font = _random_font(rng, PRINT_BOLD, 0.5 * key)
    face = (255, 255, 255) if background != (250, 250, 250) else (225, 225, 230)
    top = y1 + 0.4 * cell
    for i in range(keys):
        kx = (x0 + x1) / 2 + (i - keys / 2) * key
        draw.rounded_rectangle([kx + 2, top, kx + key - 2, top + key], radius=int(0.1 * key), fill=face)
        draw.text((kx + key / 2, top + key / 2), str(i + 1), font=digit_font, fill=(40, 40, 40), anchor="mm")


# ---------------------------------------------------------------------------------------------
# 2. The camera
# ---------------------------------------------------------------------------------------------

def bend(points: np.ndarray, curl: Curl) -> np.ndarray:
    """The page curl's displacement at ``points`` (…×2, page pixels). With ``s`` the position along
    the curl axis in grid sides from the grid centre: along the axis ``stretch·sin(πs)/π`` (cells
    wider in the middle than at the ends), across it ``bow·(1 − cos(πs))/π`` (lines bowed), both
    times the grid side. Smooth everywhere, slope at most ``max(|stretch|, |bow|)`` (far below 1), so
    ``u + bend(u)`` is inverted by fixed-point iteration in :func:`unbend`."""
    axis, bow, stretch, centre, side = curl.axis, curl.bow, curl.stretch, curl.centre, curl.side
    if bow == 0 and stretch == 0:
        return np.zeros_like(points)
    s = np.pi * (points[..., axis] - centre[axis]) / side
    shift = np.empty_like(points)
    shift[..., axis] = stretch * side * np.sin(s) / np.pi
    shift[..., 1 - axis] = bow * side * (1 - np.cos(s)) / np.pi
    return shift


def unbend(points: np.ndarray, curl: Curl) -> np.ndarray:
    """The points ``u`` with ``u + bend(u) = points``: where page points appear on the flat page."""
    u = points.copy()
    for _ in range(30):
        u = points - bend(u, curl)
    return u


def _plane_to_photo(tilt_x: float, tilt_y: float, roll: float, focal: float) -> np.ndarray:
    """The homography of a pinhole camera (focal length ``focal`` px) looking at a plane through
    the optical axis at distance ``focal``, turned by the angles (degrees); it maps plane (x, y)
    around (0, 0) to photo (x, y) around (0, 0), with scale 1 at the centre."""
    ax, ay, az = np.radians([tilt_x, tilt_y, roll])
    rx = np.array([[1, 0, 0], [0, np.cos(ax), -np.sin(ax)], [0, np.sin(ax), np.cos(ax)]])
    ry = np.array([[np.cos(ay), 0, np.sin(ay)], [0, 1, 0], [-np.sin(ay), 0, np.cos(ay)]])
    rz = np.array([[np.cos(az), -np.sin(az), 0], [np.sin(az), np.cos(az), 0], [0, 0, 1]])
    rot = rz @ ry @ rx
    extrinsic = np.column_stack([rot[:, 0], rot[:, 1], [0, 0, focal]])
    return np.diag([focal, focal, 1.0]) @ extrinsic


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (…×2) mapped by a 3×3 homography."""
    p = points @ h[:, :2].T + h[:, 2]
    return p[..., :2] / p[..., 2:3]


def pose_camera(page: Page, size: int, target: float, level: PhotoLevel, seed: int) -> Camera:
    """A camera that sees the grid tilted, rotated and curled as ``level`` allows, its longest edge
    ``target``×``size`` pixels long, with a margin of the page around it."""
    rng = seeded_rng(seed, "camera")
    centre = page.corners.mean(axis=0)
    side = float(np.linalg.norm(page.corners[1] - page.corners[0]))
    stiffness = 1.0 if page.paper else 0.3
    bow = rng.uniform(*level.curl) * rng.choice([-1, 1]) * stiffness
    stretch = rng.uniform(*level.curl) * rng.choice([-1, 1]) * 2 * stiffness
    curl = Curl(int(rng.integers(2)), bow, stretch, centre, side)
    focal = rng.uniform(1.2, 2.5) * target * size
    tilt = [rng.uniform(-level.tilt, level.tilt) for _ in range(2)]
    plane = _plane_to_photo(*tilt, rng.uniform(-level.rotation, level.rotation), focal)
    to_plane = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]])
    homography = plane @ to_plane
    quad = _apply(homography, unbend(page.corners, curl))
    edges = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    homography = np.diag([target * size / edges.max()] * 2 + [1.0]) @ homography
    quad = _apply(homography, unbend(page.corners, curl))
    grid_side = target * size
    lo = quad.min(axis=0) - rng.uniform(*level.surround, size=2) * grid_side
    hi = quad.max(axis=0) + rng.uniform(*level.surround, size=2) * grid_side
    width, height = _photo_aspect(hi - lo)
    shift = (lo + hi) / 2 - np.array([width, height]) / 2
    homography = np.array([[1, 0, -shift[0]], [0, 1, -shift[1]], [0, 0, 1]]) @ homography
    return Camera(homography, curl, (width, height))


def _photo_aspect(extent: np.ndarray) -> tuple[int, int]:
    """A frame at least ``extent`` (w, h) large, widened to a phone's 3:4 (or 4:3) aspect."""
    w, h = extent
    if h >= w:
        w = max(w, h * 3 / 4)
        h = max(h, w * 4 / 3)
    else:
        h = max(h, w * 3 / 4)
        w = max(w, h * 4 / 3)
    return int(np.ceil(w)), int(np.ceil(h))


# ---------------------------------------------------------------------------------------------
# 3. The photo
# ---------------------------------------------------------------------------------------------

TABLE_COLORS: tuple[RGB, ...] = ((120, 86, 58), (70, 70, 72), (185, 183, 176), (150, 120, 90), (40, 52, 70))


def _table(frame: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A blotchy table or cloth texture of the frame's size."""
    w, h = frame
    base = np.array(choose(rng, TABLE_COLORS), np.float32)
    blotches = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    grain = rng.normal(0, 1, (h, w)).astype(np.float32)
    shade = 1 + 0.12 * blotches + 0.04 * grain
    return np.clip(base * shade[..., None], 0, 255)


def photograph(page: Page, camera: Camera, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The page seen by the camera over a table: the photo (float32 RGB), the grid's corners
    in it (4×2 float) and where the page covers the photo (float32, 0..1)."""
    rng = seeded_rng(seed, "table")
    w, h = camera.frame
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    photo_points = np.stack([xs, ys], axis=-1)
    flat = _apply(np.linalg.inv(camera.homography), photo_points)
    source = (flat + bend(flat, camera.curl)).astype(np.float32)
    warp = dict(interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    seen = cv2.remap(page.image, source[..., 0], source[..., 1], **warp).astype(np.float32)
    cover = cv2.remap(np.full(page.image.shape[:2], 255, np.uint8), source[..., 0], source[..., 1], **warp)
    alpha = cover[..., None].astype(np.float32) / 255
    image = seen * alpha + _table(camera.frame, rng) * (1 - alpha)
    corners = _apply(camera.homography, unbend(page.corners, camera.curl))
    return image, corners, alpha[..., 0]


PEN_COLOURS: tuple[RGB, ...] = ((25, 25, 30), (28, 40, 105), (150, 28, 32), (225, 225, 218), (145, 145, 150),
                                (22, 88, 52))
"""Pen bodies: black, navy, red, white, silver, green."""
PEN_WIDTH: Range = (0.25, 0.6)
"""A pen's width in cells (a pen about 1 cm across on a newspaper puzzle of 1.5–4 cm cells)."""
PEN_LENGTH: Range = (0.7, 1.4)
"""A pen's length in grid sides."""
PEN_SLANT: Range = (12.0, 78.0)
"""A pen's angle to the grid's rows, in degrees either way (one lying along a row is not drawn)."""


@dataclass(frozen=True)
class Pen:
    """A pen lying on the page, in photo pixels: its tip, its other end, and its width."""

    tip: tuple[float, float]
    end: tuple[float, float]
    width: float


def pen_across(corners: np.ndarray, size: int, seed: int) -> Pen:
    """A pen drawn from ``seed`` lying across the grid with outer ``corners`` (TL, TR, BR, BL) and
    ``size`` cells a side: its middle over the grid's middle three fifths, at a slant of PEN_SLANT
    to the rows, PEN_LENGTH grid sides long and PEN_WIDTH cells wide."""
    rng = seeded_rng(seed, "pen")
    corners = np.asarray(corners, np.float64)
    a, b = rng.uniform(0.2, 0.8, 2)
    top = corners[0] + a * (corners[1] - corners[0])
    bottom = corners[3] + a * (corners[2] - corners[3])
    middle = top + b * (bottom - top)
    across = corners[1] - corners[0]
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
    angle = np.arctan2(across[1], across[0]) + np.radians(rng.uniform(*PEN_SLANT) * rng.choice([-1, 1]))
    way = np.array([np.cos(angle), np.sin(angle)]) * rng.choice([-1, 1])
    length = rng.uniform(*PEN_LENGTH) * side
    middle = middle + way * rng.uniform(-0.25, 0.25) * length
    tip, end = middle - way * length / 2, middle + way * length / 2
    return Pen((float(tip[0]), float(tip[1])), (float(end[0]), float(end[1])),
               float(rng.uniform(*PEN_WIDTH) * side / size))


def lay_pen(image: np.ndarray, pen: Pen, seed: int) -> np.ndarray:
    """``image`` (float32 RGB, before :func:`develop`) with ``pen`` on it: a rod shaded as a
    cylinder lit from one side with a highlight along it, its tip tapered over 1.5 widths, its
    other end round, and its shadow (the pen's outline moved off the page by a third to a whole
    width and blurred) darkening the page beside it."""
    rng = seeded_rng(seed, "pen-look")
    colour = np.array(choose(rng, PEN_COLOURS), np.float32)
    h, w = image.shape[:2]
    tip, end = np.array(pen.tip), np.array(pen.end)
    length = max(1.0, float(np.linalg.norm(end - tip)))
    way = (end - tip) / length
    normal = np.array([-way[1], way[0]])
    half = pen.width / 2

    def coverage(shift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        rel_x, rel_y = xs - tip[0] - shift[0], ys - tip[1] - shift[1]
        along = rel_x * way[0] + rel_y * way[1]
        off = rel_x * normal[0] + rel_y * normal[1]
        radius = half * np.clip(0.2 + 0.8 * along / (3 * half), 0.2, 1.0)
        distance = np.where(along < 0, np.hypot(along, off), np.abs(off))
        distance = np.where(along > length, np.hypot(along - length, off), distance)
        alpha = np.clip(radius - distance + 0.5, 0, 1).astype(np.float32)
        return alpha, np.clip(off / np.maximum(radius, 1e-6), -1, 1).astype(np.float32)

    offset = (normal * rng.choice([-1, 1]) + way * rng.uniform(-0.5, 0.5)) * rng.uniform(0.35, 1.0) * pen.width
    shadow, _ = coverage(offset)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.5, 0.35 * pen.width))
    image = image * (1 - rng.uniform(0.25, 0.5) * shadow)[..., None]
    alpha, across = coverage(np.zeros(2))
    light = rng.uniform(-0.6, 0.6)
    shade = 0.55 + 0.45 * np.sqrt(np.clip(1 - across ** 2, 0, 1))
    shine = rng.uniform(60, 140) * np.exp(-((across - light) / 0.18) ** 2)
    body = colour * shade[..., None] + shine[..., None]
    return (image * (1 - alpha[..., None]) + np.clip(body, 0, 255) * alpha[..., None]).astype(np.float32)


GLARE: Range = (15.0, 60.0)
"""How many grey levels a reflection adds at its brightest (:func:`glare`)."""


def glare(frame: tuple[int, int], seed: int) -> np.ndarray:
    """The room's light reflected in a dark screen: a soft oval blob (float32, ``frame`` (w, h)),
    GLARE grey levels at its brightest, somewhere in the frame, a fifth to a half of it across."""
    rng = seeded_rng(seed, "glare")
    w, h = frame
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    sx, sy = (rng.uniform(0.1, 0.25) * max(w, h) for _ in range(2))
    angle = rng.uniform(0, np.pi)
    u = ((xs - cx) * np.cos(angle) + (ys - cy) * np.sin(angle)) / sx
    v = (-(xs - cx) * np.sin(angle) + (ys - cy) * np.cos(angle)) / sy
    return (rng.uniform(*GLARE) * np.exp(-0.5 * (u * u + v * v))).astype(np.float32)


def develop(image: np.ndarray, level: PhotoLevel, seed: int, glowing: np.ndarray | None = None) -> np.ndarray:
    """What the phone does to the light: shading, a hard shadow, a warm or cool colour cast with a
    slight green/magenta tint, blur, noise, JPEG. Where ``glowing`` (0..1, the frame's size) is 1
    the picture gives its own light (a screen): the hard shadow does not darken it there.
    Takes and returns RGB (float32 in, uint8 out) of the same size."""
    rng = seeded_rng(seed, "develop")
    h, w = image.shape[:2]
    light = _shading((w, h), rng.uniform(*level.shade), rng)
    if rng.random() < level.shadow:
        shadow = _shadow((w, h), rng.uniform(*level.shadow_depth), rng)
        light = light * (shadow if glowing is None else shadow + (1 - shadow) * glowing)
    warmth, tint = rng.uniform(-level.cast, level.cast), rng.uniform(-level.cast, level.cast) / 3
    cast = np.array([1 + warmth, 1 + tint, 1 - warmth])
    image = image * light[..., None] * cast.astype(np.float32)
    image = _blurred(image, rng.uniform(*level.blur), rng.uniform(0, level.motion_blur), rng.uniform(0, 180),
                     coarse=level.coarse_shake)
    sigma = rng.uniform(*level.noise)
    noise = rng.normal(0, sigma, (h, w, 1)) + rng.normal(0, sigma * 0.4, (h, w, 3))
    image = np.clip(image + noise.astype(np.float32), 0, 255).astype(np.uint8)
    return _jpeg(image, int(rng.integers(level.jpeg[0], level.jpeg[1] + 1)))


def _shading(frame: tuple[int, int], strength: float, rng: np.random.Generator) -> np.ndarray:
    """A smooth light field (≤ 1): a gradient in a random direction and a vignette."""
    w, h = frame
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * xs / w + np.sin(angle) * ys / h)
    ramp = (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
    radius = ((xs / w - 0.5) ** 2 + (ys / h - 0.5) ** 2) * 2
    return (1 - strength * ramp) * (1 - 0.5 * strength * radius)


def _shadow(frame: tuple[int, int], depth: float, rng: np.random.Generator) -> np.ndarray:
    """A hard shadow (a phone's or a hand's): a random polygon from one side of the frame, darkened
    to ``depth``, with a slightly soft edge."""
    w, h = frame
    mask = np.zeros((h, w), np.uint8)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    side = int(rng.integers(4))
    a, b = corners[side], corners[(side + 1) % 4]
    inward = np.array([a[1] - b[1], b[0] - a[0]]) / np.hypot(*(b - a))
    reach = rng.uniform(0.2, 0.65) * (h if side % 2 == 0 else w)
    t = np.sort(rng.uniform(0, 1, 3))
    edge = [a + (b - a) * ti + inward * reach * rng.uniform(0.5, 1.2) for ti in t]
    polygon = np.array([a - inward * 10, *edge, b - inward * 10], np.int32)
    cv2.fillPoly(mask, [polygon], 255)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(0.6, 0.004 * max(w, h)))
    return 1 - (1 - depth) * soft


def _blurred(image: np.ndarray, sigma: float, motion: float, angle: float, coarse: bool = False) -> np.ndarray:
    """The image defocused (Gaussian ``sigma``) and shaken along a line ``motion`` px long at
    ``angle`` degrees (:func:`shake_kernel`; with ``coarse``, :func:`coarse_shake_kernel`)."""
    if sigma > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    kernel = coarse_shake_kernel(motion, angle) if coarse else shake_kernel(motion, angle)
    if kernel is not None:
        image = cv2.filter2D(image, -1, kernel)
    return image


SHAKE_STEPS_PER_PX = 64
"""Points per pixel of shake that :func:`shake_kernel` averages over."""


def _cubic_weights(offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Catmull–Rom (Keys, a = −0.5) interpolation of a shift by each ``offset``: the first of the
    four pixels it reads (relative to the centre) and their four weights, one row per offset.
    The weights sum to 1 and move the picture's centre of light by the offset exactly, adding no
    spread of their own (second-order accurate), unlike a bilinear shift."""
    first = np.floor(offset).astype(int) - 1
    d = offset[:, None] - (first[:, None] + np.arange(4))  # distances to the four pixels, in (-2, 2)
    x = np.abs(d)
    a = -0.5
    near = (a + 2) * x ** 3 - (a + 3) * x ** 2 + 1
    far = a * x ** 3 - 5 * a * x ** 2 + 8 * a * x - 4 * a
    return first, np.where(x <= 1, near, np.where(x < 2, far, 0.0))


def shake_kernel(length: float, angle: float) -> np.ndarray | None:
    """The blur of a camera moving evenly ``length`` px along ``angle`` degrees during the
    exposure: the average of the picture shifted to every point of a segment that long centred on
    it (SHAKE_STEPS_PER_PX points a pixel), each shift resampled by Catmull–Rom interpolation
    (:func:`_cubic_weights`). A point's light so spreads L²/12 px² along the shake and none across
    it. Odd-sized, sums to 1, symmetric about its centre (so correlation and convolution are the
    same); None for a shake under a twentieth of a pixel."""
    if length < 0.05:
        return None
    half = length / 2
    k = 2 * int(np.ceil(half)) + 5
    c = k // 2
    t = np.linspace(-half, half, max(2, int(np.ceil(length * SHAKE_STEPS_PER_PX)) + 1))
    x_first, x_weights = _cubic_weights(t * np.cos(np.radians(angle)))
    y_first, y_weights = _cubic_weights(t * np.sin(np.radians(angle)))
    kernel = np.zeros((k, k), np.float64)
    for i in range(4):
        for j in range(4):
            np.add.at(kernel, (c + y_first + i, c + x_first + j), y_weights[:, i] * x_weights[:, j])
    return (kernel / kernel.sum()).astype(np.float32)


def coarse_shake_kernel(motion: float, angle: float) -> np.ndarray | None:
    """The shake kernel the simulator drew before the sixty-fourth round, kept for the networks'
    training photos (``PhotoLevel.coarse_shake``): a one-pixel line on a grid of ceil(motion)|1
    pixels from the centre ± motion/2 rounded to whole pixels. Any motion from about 1.1 to 2.5
    px so becomes a 3-px line at nearly every angle, and none under 1 px shakes at all."""
    if motion < 1:
        return None
    k = int(np.ceil(motion)) | 1
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = np.cos(np.radians(angle)) * motion / 2, np.sin(np.radians(angle)) * motion / 2
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    return kernel / kernel.sum()


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The RGB image after a round trip through JPEG at ``quality``."""
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        return image
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
