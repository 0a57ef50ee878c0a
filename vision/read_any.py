"""Which puzzle a photo holds, and its reading: a Kakuro when a Kakuro grid is found, else a KenKen.

Both looks need the KenKen grid finder (:func:`vision.grid.find_grid`): its fitted outline is one of
the Kakuro finder's candidates, and it is the KenKen reader's first stage. Here it runs once for
both (it is a third to a half of a KenKen photo's reading time). When it found no grid with clear
dark lines and no Kakuro is read surely either, it looks once more in the photo's negative
(:mod:`vision.polarity`): a grid found there is a dark-mode screenshot's, read as a KenKen. A
mostly dark photo (:func:`vision.polarity.dark_photo`) without a clear grid is looked at in the
negative first, before any reading: a dark-mode KenKen read surely there costs no look for a Kakuro.

A dark theme's Kakuro (grey blocks a little lighter than its near-black page, light numbers) is a
light page's in negative, its tones stretched (:func:`vision.polarity.stretched`): a mostly dark
photo is read so as a Kakuro, noted "read in negative", (1) when its negative passes for a
dark-mode KenKen that is not read confidently, weighed against that KenKen as below; (2) first,
before the photo's own Kakuro look (slow, and it seldom finds a dark theme's grid), when the photo
looks like a dark theme's screen (:func:`vision.polarity.dark_theme`), taken when confident; (3)
otherwise after the photo's own Kakuro look when that found no Kakuro with exactly one solution (a
light page's Kakuro with dark blocks is mostly dark too, and one read with exactly one solution
though not surely pays no look in its negative), the two readings ranked: confident first, then
exactly one solution, then the smaller share of numbers changed, a tie to the photo's own.

When neither finds a puzzle, the outlines the KenKen finder probed are probed again less a band off
one side (:func:`vision.grid.grid_in_bands`).

The solver settles doubt between the two: a KenKen photo under a shadow can pass for a Kakuro (the
shadow's edge across a cell looks like a clue cell's diagonal), so a Kakuro reading that is not
confident, of a photo where the KenKen finder also found a grid, is weighed against the KenKen
reading: the KenKen is taken when it is confident, or has exactly one solution while the Kakuro
has none or several, or is in doubt (:data:`vision.kakuro.DOUBTS`: a rival reading nearly as
likely, a bare outer line) and changed no smaller a share of its numbers than the KenKen changed of
its clues (a Kakuro photo read as a KenKen gives a small grid whose clues the solver had to change;
kk2026-0042 read as a 3×3 with three clues changed; hard kk2727-0124, a 5×5 with 3 of 9 clues
changed, against 3 of the Kakuro's 22 numbers: counted in changes, the tie went to the KenKen) —
or has an outer line of nothing but blocks, which no real Kakuro prints (none of 1,980 generated
ones), whatever either changed (k9090-0106's KenKen reading, right, changed two clues where its
reading as a Kakuro changed one number). A Kakuro in doubt with
such a line gives way to the KenKen reading even when that has no solution: the photo is a KenKen
whose clues were misread, which the person can correct, not a Kakuro made up from its lines
(hand-held k8383-0246; the Kakuro sets 2727 and 3535 read the same). So does a Kakuro in doubt for
which the solver changed more than MADE_UP_SHARE of its numbers, when the KenKen grid is SURE_SIZE
or more. And any Kakuro reading that is not confident, settled or not, gives way to a KenKen reading
whose labels show operators (:func:`_operators_printed`), whatever the solver made of either: a
Kakuro prints none (hand-held k9494-0102, a newspaper 4×4 whose big written digits made 6 of its 16
cells pass for blocks, was read as a 4×8 Kakuro with 5 of its 11 numbers changed; its KenKen
reading, every cage and clue right, had one solution with one clue changed).

Which look comes first: when under DARK_SHARE[0] of the KenKen grid's cells are dark like a
Kakuro's blocks (a Kakuro has more), or more are (a shadow's) on a grid of 5×5 or more whose places
where a Kakuro prints its clue cells show no diagonals, the KenKen is read first
(:func:`_kenken_first`), and a KenKen reading that is confident, or has exactly one solution on a
grid of 5×5 or more with at most a quarter of its clues changed, is taken without looking for a
Kakuro (:func:`_no_kakuro_look`): on a KenKen photo that look, and the look at its negative that
follows on a shadowed photo, found nothing and took 0.1–4 s. So is one whose labels show operators
(:func:`_operators_printed`), whatever the solver made of them: a Kakuro prints none. Otherwise the
Kakuro look follows and the two are weighed as above. A mostly dark photo with a clear grid (a
KenKen on a dark page or under a shadow) whose own look found no Kakuro with exactly one solution is
read as a KenKen before its negative is looked at, and that look is spared likewise.

Example::

    reading = read_any("photo.jpg")          # vision.read.Reading or vision.kakuro.KakuroReading
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from .errors import NoPuzzleFound
from .grid import GridFind, find_grid, grid_in_bands
from .glyphs import OPERATORS
from .image_io import load_image
from .kakuro import BARE_EDGE_NOTE, DOUBTS, KakuroReading, read_kakuro
from .kakuro_grid import CLUE_SHARE_FAINT, DARK_SHARE, block_share, kakuro_clue_share
from .polarity import (DARK_MODE_NOTE, clear_lines, dark_photo, dark_theme, grid_in_negative, look_in_negative,
                       stretched)
from .read import Reading, read, timed_stage
from .reconcile import CHANGE_SHARE

SURE_SIZE = 5
"""Least size of a KenKen reading with exactly one solution that is taken without a look for a
Kakuro (:func:`_no_kakuro_look`)."""
OPERATORS_SEEN = 3
"""Least number of cages whose labels show an operator (:func:`_operators_printed`) that marks a
reading as a KenKen's whatever the solver made of it. On the Kakuro photos of seeds 2727 and 6060
(360) the KenKen readings made (90) had an operator read on at most one cage; the KenKen photos of
seed 8383 that were looked at as a Kakuro (65) on none (seven, most printed without operators), on
two (two 4×4s of six and seven cages) or on 3–28 (one of them 3 of 11 cages)."""
SURE_OPERATOR = 0.5
"""Least probability of a label's best reading, with an operator, that counts it as showing one."""
MADE_UP_SHARE = 0.5
"""Largest share of its numbers the solver may change in a Kakuro reading in doubt before a KenKen
reading of a grid of SURE_SIZE or more is taken instead, even one with no solution (the person can
correct a misread KenKen; a Kakuro made up from a KenKen's lines helps no one). Hard k3131-0231, a
6×6 with labels 3.4 px tall, was read as a Kakuro with 17 of its 22 numbers changed. The unsettled
Kakuro readings that were weighed against a KenKen reading on Kakuro photos (seed 6868, made before
and since the sixty-fourth round, and seed 2727: 420 photos) changed at most 24 % of theirs."""



def read_any(image: str | Path | bytes | np.ndarray, *, debug: bool = False) -> Reading | KakuroReading:
    """The Kakuro reading of ``image`` when it holds a Kakuro grid, else its KenKen reading (a
    doubtful Kakuro is weighed against the KenKen reading, see the module docstring; the reading
    taken says so in its notes and counts both readers' time).

    Raises ImageError for a file that is not a usable image and NoPuzzleFound (the KenKen
    finder's message) when neither finds a puzzle; the KenKen reader's other errors as
    :func:`vision.read.read`."""
    seconds: dict[str, float] = {}
    with timed_stage(seconds, "load"):
        pixels = image if isinstance(image, np.ndarray) else load_image(image)
    missing: NoPuzzleFound | None = None
    with timed_stage(seconds, "grid"):
        try:
            grid = find_grid(pixels)
        except NoPuzzleFound as err:
            grid, missing = None, err
    clear, dark, negative = clear_lines(grid), dark_photo(pixels), None
    inverted, tried = None, False  # the Kakuro reading of the negative, and whether it was tried
    if not clear and dark:  # a dark screen's photo: the negative first
        with timed_stage(seconds, "grid in negative"):
            negative = look_in_negative(pixels, grid)
        if negative.kenken:
            dark_kenken = read(negative.negative, debug=debug, grid=negative.grid, seconds=seconds)
            if dark_kenken.confident:
                return dark_kenken
            spent = _spent(seconds)
            with timed_stage(seconds, "kakuro in negative"):
                inverted = _kakuro_in_negative(negative.negative, negative.grid, debug, spent)
            return _weighed(replace(dark_kenken, seconds={**seconds, **dark_kenken.seconds}), inverted, seconds)
        if dark_theme(pixels):  # its Kakuro in negative first: the photo's own look seldom finds it, slowly
            spent = _spent(seconds)
            with timed_stage(seconds, "kakuro in negative"):
                inverted, tried = _kakuro_in_negative(negative.negative, negative.grid, debug, spent), True
            if inverted is not None and inverted.confident:
                return inverted
    kenken = None
    if grid is not None and _kenken_first(grid):
        kenken = read(pixels, debug=debug, grid=grid, seconds=seconds)
        if kenken.confident and not grid.flattened:
            return kenken
    look = kenken is None or inverted is not None or not _no_kakuro_look(kenken, grid)
    kakuro = None
    if look:
        with timed_stage(seconds, "kakuro look"):
            try:
                kakuro = read_kakuro(pixels, debug=debug, kenken=(grid,) if grid is not None else (),
                                     seconds=_spent(seconds))
            except NoPuzzleFound:
                pass
    if look and dark and (kakuro is None or not kakuro.confident):  # a dark theme's Kakuro?
        in_negative = not tried and (kakuro is None or kakuro.status != "unique")  # still to look there?
        if in_negative and kenken is None and clear:  # a KenKen on a dark page may spare that look
            kenken = read(pixels, debug=debug, grid=grid, seconds=seconds)
            in_negative = not (kenken.confident or _operators_printed(kenken))
        if in_negative:
            spent = _spent(seconds)
            with timed_stage(seconds, "kakuro in negative"):
                inverted = _kakuro_in_negative(255 - pixels if negative is None else negative.negative,
                                               negative.grid if negative is not None else None, debug, spent)
        if inverted is not None and (kakuro is None or _rank(inverted) > _rank(kakuro)):
            kakuro = _counting(inverted, seconds, "kakuro look")
        elif kakuro is not None:
            kakuro = _counting(kakuro, seconds, "kakuro in negative")
    if (kakuro is None or not kakuro.confident) and not clear and negative is None:
        with timed_stage(seconds, "grid in negative"):
            light_on_dark = grid_in_negative(pixels, grid)  # a light-on-dark page (vision.polarity)
        if light_on_dark is not None:
            spent = {**seconds, **(kenken.seconds if kenken is not None else {})}
            return read(light_on_dark[0], debug=debug, grid=light_on_dark[1], seconds=spent)
    if kenken is None:
        if kakuro is not None and (kakuro.confident or grid is None):
            return kakuro
        if missing is not None:
            with timed_stage(seconds, "grid, last resort"):
                grid = grid_in_bands(missing)  # no Kakuro either: a grid beside a band its outline took in
        kenken = read(pixels, debug=debug, grid=grid, seconds=seconds)
    else:  # read before the Kakuro look: it counts that look's time too (and the negative's)
        kenken = replace(kenken, seconds={**seconds, **kenken.seconds})
        if kakuro is not None and kakuro.confident:
            return _with_kenken_look(kakuro, kenken, seconds)
    return _weighed(kenken, kakuro, seconds)


def _kenken_first(grid: GridFind) -> bool:
    """Whether the KenKen grid found is read as a KenKen before any look for a Kakuro: under
    DARK_SHARE[0] of its cells are dark like a Kakuro's blocks, or more (a shadow's) on a grid of at
    least SURE_SIZE (a smaller one's reading never spares the look) whose places where a Kakuro prints
    its clue cells show no diagonal (:func:`kakuro_clue_share` under CLUE_SHARE_FAINT: 74 of seed
    8383's 79 shadowed KenKen grids; it looks at the grid turned sideways too, so a Kakuro
    photographed sideways is not read as a KenKen first: 8 s on seed 5454's photo 20 turned). A
    Kakuro photo whose KenKen finder took a few white cells for a small grid is looked at as a
    Kakuro first, as before (read as a KenKen first, seed 2727 took 10 % longer in all)."""
    if block_share(grid) < DARK_SHARE[0]:
        return True
    return grid.size >= SURE_SIZE and kakuro_clue_share(grid) < CLUE_SHARE_FAINT


def _no_kakuro_look(kenken: Reading, grid: GridFind) -> bool:
    """Whether a KenKen reading, though not confident, makes a look for a Kakuro pointless: its
    labels show operators (:func:`_operators_printed`), or it has exactly one solution on a grid of
    at least SURE_SIZE (not found in a flattened copy), for which the solver changed at most
    CHANGE_SHARE of its clues (the first search's own cap, :mod:`vision.reconcile`). A Kakuro photo
    read as a KenKen gave one on a few white cells taken for a 3×3 or 4×4 grid, or by changing many
    clues (Kakuro seed 2727, hard kk2727-0141: a 5×5 with 8 of 15 changed); a KenKen photo's look
    found nothing (seed 8383: 0.1–4 s a photo, half of it in the negative)."""
    return _operators_printed(kenken) or (
        kenken.status == "unique" and kenken.puzzle.size >= SURE_SIZE and not grid.flattened
        and len(kenken.changes) <= CHANGE_SHARE * len(kenken.puzzle.cages))


def _operators_printed(kenken: Reading) -> bool:
    """Whether the labels read show operators, as a KenKen prints them and a Kakuro never does: at
    least OPERATORS_SEEN of the cages of two or more cells, and half of them, have a label whose best
    reading (as read, before the solver) has an operator with probability SURE_OPERATOR or more."""
    cages = [cage.cells for cage in kenken.puzzle.cages if len(cage.cells) > 1]
    shown = sum(1 for cells in cages if (clue := kenken.clues.get(min(cells))) is not None and clue.best is not None
                and clue.best[0] in OPERATORS and clue.best[2] >= SURE_OPERATOR)
    return shown >= OPERATORS_SEEN and 2 * shown >= len(cages)


def _weighed(kenken: Reading, kakuro: KakuroReading | None, seconds: dict[str, float]) -> Reading | KakuroReading:
    """The KenKen reading, or the Kakuro reading when there is one and the solver prefers it
    (:func:`_kenken_rather`), noted so and counting the KenKen reader's time beyond ``seconds``."""
    if kakuro is None:
        return kenken
    if _kenken_rather(kenken, kakuro):
        return replace(kenken, notes=kenken.notes + (
            f"a Kakuro grid was seen too; read as a KenKen (as a Kakuro: {_verdict(kakuro)})",))
    return replace(_with_kenken_look(kakuro, kenken, seconds),
                   notes=kakuro.notes + (f"read as a Kakuro (as a KenKen: {_verdict(kenken)})",))


def _kakuro_in_negative(negative: np.ndarray, grid: GridFind | None, debug: bool,
                        seconds: dict[str, float]) -> KakuroReading | None:
    """The Kakuro reading of a dark photo's ``negative``, its tones stretched (a dark theme's grey
    blocks and light numbers turn to a light page's), ``grid`` what the KenKen finder found there
    (None for nothing or not looked), noted DARK_MODE_NOTE, counting ``seconds`` spent before; None
    when no Kakuro grid is found there."""
    try:
        kakuro = read_kakuro(stretched(negative), debug=debug, kenken=(grid,) if grid is not None else (),
                             seconds=seconds)
    except NoPuzzleFound:
        return None
    return replace(kakuro, notes=kakuro.notes + (DARK_MODE_NOTE,))


def _spent(seconds: dict[str, float]) -> dict[str, float]:
    """The stages timed so far, as the Kakuro reader counts them before its own (the KenKen finder's
    "grid" named "kenken grid")."""
    return {("kenken grid" if stage == "grid" else stage): time for stage, time in seconds.items()}


def _counting(kakuro: KakuroReading, seconds: dict[str, float], stage: str) -> KakuroReading:
    """``kakuro`` counting ``stage`` of ``seconds`` too (the other Kakuro look, whose reading was not
    taken), unless it counts it already (a look in negative made after the photo's own counts that)."""
    if stage in seconds and stage not in kakuro.seconds:
        return replace(kakuro, seconds={**kakuro.seconds, stage: seconds[stage]})
    return kakuro


def _rank(kakuro: KakuroReading) -> tuple[bool, bool, float]:
    """How a Kakuro reading ranks against another of the same photo (the photo's own against its
    negative's): confident first, then exactly one solution, then the smaller share of numbers changed."""
    return kakuro.confident, kakuro.status == "unique", -_share(kakuro.changes, kakuro.puzzle.runs)


def _with_kenken_look(kakuro: KakuroReading, kenken: Reading, seconds: dict[str, float]) -> KakuroReading:
    """``kakuro`` counting the time the KenKen reader took beyond the stages both shared (``seconds``)."""
    return replace(kakuro, seconds={**kakuro.seconds, "kenken look": sum(kenken.seconds.values()) - sum(seconds.values())})


def _kenken_rather(kenken: Reading, kakuro: KakuroReading) -> bool:
    """Whether the KenKen reading is taken rather than a Kakuro reading that is not confident (see
    the module docstring)."""
    if kenken.confident or (not kakuro.confident and _operators_printed(kenken)):
        return True
    settled = kakuro.status == "unique" and not any(note.startswith(DOUBTS) for note in kakuro.notes)
    bare = any(note.startswith(BARE_EDGE_NOTE) for note in kakuro.notes)  # no real Kakuro has one
    kakuro_changed = _share(kakuro.changes, kakuro.puzzle.runs)
    guessed_less = (kakuro.status != "unique" or bare
                    or _share(kenken.changes, kenken.puzzle.cages) <= kakuro_changed)
    made_up = kenken.puzzle.size >= SURE_SIZE and kakuro_changed > MADE_UP_SHARE
    return not settled and ((kenken.status == "unique" and guessed_less) or bare or made_up)


def _share(changes: tuple, clues: tuple) -> float:
    """The share of the clues read (KenKen cages, Kakuro sums) that the solver changed."""
    return len(changes) / max(1, len(clues))


def _verdict(reading: Reading | KakuroReading) -> str:
    """'exactly one solution, not confident' and the like, for a note."""
    status = {"unique": "exactly one solution", "multiple": "several solutions", "none": "no solution"}
    return f"{status.get(reading.status, reading.status)}, {'confident' if reading.confident else 'not confident'}"
