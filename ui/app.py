"""kensnap in the browser (Streamlit): photo → review and correct → solve, check or hint.

Run it with ``kensnap app [--port P] [--sample NAME]`` (or ``streamlit run ui/app.py``; the
environment variable ``KENSNAP_SAMPLE`` names a sample to open on the first visit).

The page, top to bottom: the input (photo upload, camera, bundled samples, typed text); what was
read, drawn over the square-on photo with doubtful parts highlighted, next to the answer for the
chosen mode (solve / check my grid / hint); then the corrections. Everything the person did lives
in ``st.session_state`` — the draft being corrected, the corrections made (with undo), the digits
confirmed for checking, the cells revealed, the hint level — so it survives reruns. The logic is in
``ui/app_state.py`` (corrections), ``ui/app_view.py`` (verdicts, highlights, pictures),
``ui/app_inputs.py`` (loading) and ``ui/app_hints.py`` (hints); this script only lays them out.
"""
from __future__ import annotations

import os

import streamlit as st

from solver import PuzzleError, cell_name
from solver.check import check
from ui import app_hints, app_inputs, app_models, app_state, app_view
from ui.app_state import CorrectionError, Draft
from ui.render import MARK_WRONG
from ui.text_view import conflict_text
from vision.helper import start as start_helper
from vision.read import SURE_ENTRY

MODES = ("Solve", "Check my grid", "Hint")
PREPARING_REFRESH_S = 15  # how often the page looks again while the photo-reading models are fitted
SHOWN_DOUBTS = 8  # doubtful readings listed under the review picture; more go into an expander
# (no bare string literals at the top level here: Streamlit's "magic" would print them on the page)
TYPED_EXAMPLE = """a a b b
c a d e
c c d f
c g g f
a 12x  b 2/  c 11+  d 2-  e 2  f 4+  g 3-"""


def fresh_state() -> dict:
    """The session's starting state (new objects for every session)."""
    return dict(loaded=None, draft=None, history=[], log=[], rev=0, seen={}, confirmed=None,
                revealed={}, hint=None, hint_found=None, flash=None, started=False, confirmed_clues=set(),
                pending={}, waiting=None, replaced=None)


def init_state() -> None:
    for key, value in fresh_state().items():
        st.session_state.setdefault(key, value)


# --- input -------------------------------------------------------------------------------------

def adopt(loaded: app_inputs.Loaded) -> None:
    """Make a freshly loaded input the current one (corrections of the previous one are dropped).
    An input that failed only says why: the puzzle the person was working on stays."""
    state = st.session_state
    if loaded.draft is None:
        kept = " (The puzzle below is still the one you had.)" if state.draft is not None else ""
        state.flash = ("error", (loaded.error or "Nothing could be loaded.") + kept)
        return
    state.loaded = loaded
    state.draft = loaded.draft
    state.history, state.log, state.revealed, state.confirmed_clues, state.pending = [], [], {}, set(), {}
    state.confirmed = state.hint = state.flash = None
    state.rev += 1
    state.mode = MODES[1] if loaded.draft.entries is not None else MODES[0]


def load_with_spinner(what: str, make) -> None:
    with st.spinner(f"{what}…", show_time=True):
        adopt(make())


def input_section() -> None:
    state = st.session_state
    if not state.started:
        state.started = True
        name = os.environ.get("KENSNAP_SAMPLE", "").strip()
        kept = app_models.kept_photo()
        if kept is not None:  # given on a page closed before the models were ready: read it (or keep it) now
            read_photo(*kept)
        elif name:
            path = app_inputs.sample_path(name)
            if path is None:
                state.flash = ("error", f"There is no sample '{name}' (the samples are: "
                                        f"{', '.join(app_inputs.sample_names()) or 'none bundled'}).")
            else:
                open_file(path)
    with st.expander("Puzzle: photo, camera, sample or typed", expanded=state.draft is None):
        photo, camera, sample, typed = st.tabs(["Photo", "Camera", "Samples", "Type it"])
        with photo:
            upload = st.file_uploader("A photo or screenshot of a KenKen (JPEG, PNG, WebP or HEIC, up to "
                                      f"{app_inputs.MAX_UPLOAD_MB} MB)", type=app_inputs.PHOTO_TYPES,
                                      max_upload_size=app_inputs.MAX_UPLOAD_MB, key="upload")
            _take_new("upload", upload, "photo")
        with camera:
            if st.toggle("Use the camera", key="use_camera",
                         help="Point it at the puzzle: the whole grid, flat and square-on, in even light."):
                shot = st.camera_input("Snap the puzzle", key="camera")
                _take_new("camera", shot, "camera photo")
        with sample:
            names = app_inputs.sample_names()
            if names:
                st.selectbox("A bundled sample", names, key="sample_name")
                st.button("Open this sample", key="open_sample", on_click=_open_sample)
            else:
                st.info("No samples are bundled with this installation.")
        with typed:
            st.text_area("Type a puzzle: a letter map of the cages, then one clue per letter (also JSON or a "
                         "Keen game ID). Optional: 'entries:' and N rows of digits, '.' for empty.",
                         key="typed_text", height=180, placeholder=TYPED_EXAMPLE)
            st.button("Use this puzzle", key="use_typed", on_click=_use_typed)


def _take_new(kind: str, file, label: str) -> None:
    """Load an uploaded file when it is new for this widget (the widget keeps it across reruns)."""
    if file is None:
        return
    seen = st.session_state.seen
    if seen.get(kind) == file.file_id:
        return
    seen[kind] = file.file_id
    read_photo(file.getvalue(), file.name, label)


def _open_sample() -> None:
    path = app_inputs.sample_path(st.session_state.sample_name)
    if path is not None:
        open_file(path, spinner=False)  # a button's callback: the page is drawn after it


def open_file(path, kind: str = "sample", spinner: bool = True) -> None:
    """Open a sample or other file: a photo is read (or kept until photo reading is ready), puzzle text parsed."""
    if app_inputs.is_photo(path):
        try:
            data = path.read_bytes()
        except OSError:
            pass  # load_file says why
        else:
            read_photo(data, path.name, kind, spinner)
            return
    adopt(app_inputs.load_file(path, kind))


def read_photo(data: bytes, name: str, kind: str, spinner: bool = True) -> None:
    """Read a photo now; while the photo-reading models are still being fitted (:mod:`ui.app_models`),
    keep it in the session, and on disk for a page opened after this one is closed
    (:func:`ui.app_models.keep_photo`), and read it as soon as they are ready (:func:`preparing_banner`)."""
    state = st.session_state
    if app_models.preparing() is not None:
        app_models.start_fitting()
        before = state.waiting
        if before is not None and before[:2] != (data, name):  # one photo is kept: say which it replaced
            state.replaced = f"{before[2]} {before[1]}"
        state.waiting = (data, name, kind)  # preparing_banner says so
        try:
            app_models.keep_photo(data, name, kind)  # and it outlives the page
        except OSError:
            pass  # the session keeps it still
        return
    state.waiting = state.replaced = None
    app_models.forget_kept_photo()  # read now: not again on the next page
    make = lambda: app_inputs.load_photo(data, name, kind)
    if spinner:
        load_with_spinner(f"Reading the {kind} {name}", make)
    else:
        adopt(make())


@st.fragment(run_every=PREPARING_REFRESH_S)
def preparing_banner() -> None:
    """While the photo-reading models are fitted: what is being done, looked at again every
    PREPARING_REFRESH_S seconds; once they are ready, the whole page again (a kept photo is read)."""
    prep = app_models.preparing()
    if prep is None:
        if st.session_state.waiting is not None:
            st.rerun()
        return
    app_models.start_fitting()
    (st.error if prep.failed else st.info)(prep.message())
    if st.session_state.waiting is not None:
        _, name, kind = st.session_state.waiting
        instead = f" in place of the {st.session_state.replaced} you gave before it" if st.session_state.replaced else ""
        st.info(f"Your {kind} {name} is kept{instead}: it will be read as soon as photo reading is ready.")


def _use_typed() -> None:
    text = st.session_state.typed_text
    if not text.strip():
        st.session_state.flash = ("error", "Type a puzzle first (the box shows an example).")
        return
    adopt(app_inputs.load_typed(text))


# --- corrections ---------------------------------------------------------------------------------

def apply(change, what: str) -> bool:
    """Apply a correction (a function Draft → Draft); keep the old draft for undo. False when the
    correction was refused (the reason is flashed)."""
    state = st.session_state
    try:
        new = change(state.draft)
    except CorrectionError as err:
        state.flash = ("error", str(err))
        return False
    if new == state.draft:
        return True
    state.history.append(state.draft)
    state.log.append(what)
    state.draft = new
    state.rev += 1
    state.flash = ("success", f"Done: {what}.")
    return True


def undo() -> None:
    state = st.session_state
    if state.history:
        state.draft = state.history.pop()
        state.flash = ("info", f"Undone: {state.log.pop()}.")
        state.rev += 1


def _set_clue(anchor, key: str) -> None:
    state = st.session_state
    text = state[key]
    if text.strip() == state.draft.clue_at().get(anchor):  # the person confirms the clue as read
        if (anchor, text.strip()) not in state.confirmed_clues:
            state.confirmed_clues.add((anchor, text.strip()))
            state.flash = ("success", f"Confirmed: the clue at {cell_name(anchor)} is {text.strip()}.")
        return
    apply(lambda d: app_state.set_clue(d, anchor, text), f"clue at {cell_name(anchor)} set to {text.strip() or '(none)'}")


def _cells_picked(key: str) -> list:
    return [_cell_from_name(name) for name in st.session_state.get(key, [])]


def _merge(key: str) -> None:
    cells = _cells_picked(key)
    apply(lambda d: app_state.merge(d, cells), "merged the cages of " + ", ".join(map(cell_name, cells)))


def _split(key: str) -> None:
    cells = _cells_picked(key)
    apply(lambda d: app_state.split_off(d, cells), "made a cage of " + ", ".join(map(cell_name, cells)))


def _keep_typing(kind: str, key: str) -> None:
    """Remember what was typed in a text box until it is applied, so no correction or rerun loses it."""
    st.session_state.pending[kind] = st.session_state[key]


def _set_entries(key: str) -> bool:
    text = st.session_state[key]
    if apply(lambda d: app_state.set_entries_text(d, text), "written digits changed"):
        st.session_state.pending.pop("entries", None)
        return True
    st.session_state.pending["entries"] = text
    return False


def _resize(key: str) -> None:
    size = int(st.session_state[key])
    apply(lambda d: app_state.resize(d, size), f"size set to {size}×{size}")


def _set_rules(key: str) -> None:
    choice = {"decide from the clues": None, "classic": False, "Calcudoku": True}[st.session_state[key]]
    apply(lambda d: app_state.set_rules(d, choice), f"rules set to {st.session_state[key]}")


def _replace_text(key: str) -> None:
    text = st.session_state[key]
    if apply(lambda d: _keep_entries(app_state.draft_from_text(text), d), "puzzle replaced by the typed text"):
        st.session_state.pending.pop("text", None)
    else:
        st.session_state.pending["text"] = text


def _keep_entries(new: Draft, old: Draft) -> Draft:
    """Typed text without 'entries:' keeps the digits already there (when the size still fits)."""
    if new.entries is None and old.entries is not None and new.size == old.size:
        return Draft(new.size, new.cages, old.entries, new.calcudoku)
    return new


def _cell_from_name(name: str):
    row, col = name[1:].split("c")
    return int(row) - 1, int(col) - 1


def corrections(draft: Draft, found: app_view.Doubts, expanded: bool) -> None:
    state = st.session_state
    rev = state.rev
    with st.expander("Fix what was read", expanded=expanded):
        clue_tab, cage_tab, digit_tab, size_tab, text_tab = st.tabs(["Clue", "Cages", "Written digits",
                                                                     "Size and rules", "As text"])
        with clue_tab:
            anchors = [cage.anchor for cage in draft.cages]
            if anchors:
                doubtful = [a for a in anchors if a in found.clues or a in found.changed or not draft.clue_at()[a]]
                start = anchors.index(doubtful[0]) if doubtful else 0
                clue_of = draft.clue_at()

                def describe(anchor) -> str:
                    cage = draft.cages[draft.cage_index(anchor)]
                    note = f" — read with {found.clues[anchor]:.0%}, check it" if anchor in found.clues else ""
                    note += " — changed by the solver" if anchor in found.changed else ""
                    return f"{cell_name(anchor)}: {clue_of[anchor] or '(no clue)'} · {len(cage.cells)} cells{note}"

                anchor = st.selectbox("Cage (by the cell that holds its clue)", anchors, index=start,
                                      format_func=describe, key=f"clue_cage_{rev}")
                key = f"clue_text_{rev}_{anchor[0]}_{anchor[1]}"
                st.text_input("Its clue, as printed (12x, 3-, 2/, 11+, or a lone number)", value=clue_of[anchor],
                              key=key, on_change=_set_clue, args=(anchor, key))
                st.button("Set the clue (or confirm it as read)", key=f"set_clue_{rev}", on_click=_set_clue,
                          args=(anchor, key))
        with cage_tab:
            names = [cell_name((r, c)) for r in range(draft.size) for c in range(draft.size)]
            key = f"cells_{rev}"
            st.multiselect("Cells", names, key=key, placeholder="pick cells, like r1c1 and r1c2")
            left, right = st.columns(2)
            left.button("Merge their cages into one", key=f"merge_{rev}", on_click=_merge, args=(key,))
            right.button("Make them a cage of their own", key=f"split_{rev}", on_click=_split, args=(key,))
            st.caption("A cage split off gets no clue yet: give it one in the Clue tab.")
        with digit_tab:
            entries_editor(draft, f"entries_fix_{rev}")
        with size_tab:
            key = f"size_{rev}"
            st.number_input("Size (N×N)", min_value=3, max_value=16, value=draft.size, key=key)
            st.button("Change the size", key=f"resize_{rev}", on_click=_resize, args=(key,))
            rules = {None: "decide from the clues", False: "classic", True: "Calcudoku"}
            key = f"rules_{rev}"
            st.radio("Rules for − and ÷ on three or more cells", list(rules.values()), horizontal=True,
                     index=list(rules).index(draft.calcudoku), key=key, on_change=_set_rules, args=(key,))
        with text_tab:
            key = f"text_{rev}"
            st.text_area("The whole puzzle as text (edit anything, then replace)",
                         value=state.pending.get("text", draft.to_text()), key=key,
                         height=80 + 22 * (draft.size + 2), on_change=_keep_typing, args=("text", key))
            st.button("Replace the puzzle with this text", key=f"replace_{rev}", on_click=_replace_text, args=(key,))
        left, right = st.columns([1, 3])
        left.button("Undo the last correction", key="undo", on_click=undo, disabled=not state.history)
        if state.log:
            right.caption("Your corrections: " + "; ".join(state.log))


def entries_editor(draft: Draft, key: str) -> None:
    st.text_area(f"The digits written in the grid: {draft.size} rows, '.' for an empty cell",
                 value=st.session_state.pending.get("entries", app_state.entries_text(draft)), key=key,
                 height=40 + 24 * draft.size, on_change=_keep_typing, args=("entries", key))
    st.button("Set these digits", key=f"set_{key}", on_click=_set_entries, args=(key,))


# --- the answer of each mode --------------------------------------------------------------------

def solve_view(draft: Draft, loaded, analysis: app_view.Analysis) -> None:
    result = analysis.result
    if result is None:
        return
    for note in analysis.warnings:
        st.caption(f"Note: {note}")
    if result.status == "unique":
        if loaded.photo is not None and loaded.reading is not None:
            overlay = app_view.overlay_image(loaded.photo, loaded.reading, draft, result.solution, loaded.photo_scale)
            st.image(overlay, caption="The solution drawn into your photo", width="stretch")
            st.download_button("Download this picture (PNG)", lambda: app_view.png_bytes(overlay),
                               "kensnap-photo.png", "image/png", key="download_overlay", on_click="ignore")
        wrong = {cell: MARK_WRONG for cell in _wrong_entries(draft, result.solution)}
        clean = app_view.clean_image(draft, result.solution, colors=wrong)
        st.image(clean, caption="The solution" + (" (red: where a written digit is wrong)" if wrong else ""),
                 width="content")
        st.download_button("Download the solution (PNG)", lambda: app_view.png_bytes(clean),
                           "kensnap-solution.png", "image/png", key="download_clean", on_click="ignore")
    elif result.status == "multiple":
        fills = {cell: app_view.DIFFER for cell in result.differ}
        left, right = st.columns(2)
        left.image(app_view.clean_image(draft, result.solution, fills=fills, cell_px=56), caption="One solution")
        right.image(app_view.clean_image(draft, result.other, fills=fills, cell_px=56), caption="Another one")
    else:
        st.caption("The conflicting cages are shown in red on the left.")


def _wrong_entries(draft: Draft, solution) -> list:
    """Cells whose written digit is not the solution's."""
    if draft.entries is None:
        return []
    return [(r, c) for r, row in enumerate(draft.entries) for c, v in enumerate(row)
            if v is not None and v != solution[r][c]]


def check_view(draft: Draft, loaded, analysis: app_view.Analysis) -> None:
    state = st.session_state
    if analysis.puzzle is None:
        return
    if draft.entries is None:
        st.info("No written digits yet. Type the digits you have written (below) to check them.")
    elif app_view.on_photo(draft, loaded.reading):
        st.image(app_view.clean_image(draft, draft.entries, cell_px=56), caption="The digits read from your grid")
    with st.container(border=True):
        key = f"entries_check_{state.rev}"
        entries_editor(draft, key)
        if draft.entries is not None or "entries" in state.pending:
            st.button("These are my digits: check them", key="confirm", type="primary", on_click=_confirm,
                      args=(key,))
    if draft.entries is None or state.confirmed != (state.rev, draft.entries):
        if draft.entries is not None:
            st.caption("Confirm the digits first: kensnap checks only what you confirm.")
        return
    try:
        verdict = check(analysis.puzzle, draft.entries)
    except PuzzleError as err:
        st.error(str(err))
        return
    if verdict.status == "none":
        st.error("The puzzle itself has no solution, so no digit can be judged: fix the clues first ("
                 + conflict_text(verdict.conflict, "") + ").")
        return
    right = verdict.filled - len(verdict.wrong)
    wrong = ", ".join(cell_name(cell) for cell in verdict.wrong)
    if verdict.wrong:
        st.error(f"{len(verdict.wrong)} wrong ({wrong}) and {right} right of {verdict.filled} written digits.")
    else:
        st.success(f"All {verdict.filled} written digits are right so far.")
    if verdict.completable:
        st.success("The grid can still be completed from here.")
    else:
        names = conflict_text(verdict.conflict, "")
        st.warning(f"The grid cannot be completed as it is: {names}.")
    for clash in verdict.clashes:
        st.warning(f"Repeated: {clash}.")
    if verdict.status == "multiple":
        st.caption("Note: this puzzle has several solutions; a digit is 'right' when one of them has it.")
    revealed = {cell: v for cell, v in state.revealed.items() if cell[0] < draft.size and cell[1] < draft.size}
    st.image(app_view.check_image(draft, draft.entries, verdict, revealed),
             caption="Green: right. Red: wrong." + (" Cyan: revealed." if revealed else ""))
    if revealed:
        st.caption("Revealed: " + ", ".join(f"{cell_name(cell)} is {value}" for cell, value in sorted(revealed.items())))
    reveal_control(draft, analysis, verdict)


def _confirm(key: str) -> None:
    """Take the digits in the box (applying any not set yet) as the ones to check."""
    state = st.session_state
    if "entries" in state.pending and not _set_entries(key):
        return
    state.confirmed = (state.rev, state.draft.entries)


def reveal_control(draft: Draft, analysis: app_view.Analysis, verdict) -> None:
    state = st.session_state
    if analysis.result.status != "unique":
        st.caption("Revealing a cell needs a puzzle with exactly one solution.")
        return
    wrong = set(verdict.wrong)
    cells = [(r, c) for r in range(draft.size) for c in range(draft.size)
             if (draft.entries[r][c] is None or (r, c) in wrong) and (r, c) not in state.revealed]
    if not cells:
        return
    left, right = st.columns([2, 1])
    key = f"reveal_cell_{state.rev}"
    left.selectbox("Reveal one cell", cells, format_func=cell_name, key=key, label_visibility="collapsed")
    right.button("Reveal this cell", key="reveal", on_click=_reveal, args=(key, analysis.result.solution))


def _reveal(key: str, solution) -> None:
    cell = st.session_state[key]
    st.session_state.revealed[cell] = solution[cell[0]][cell[1]]


def hint_view(draft: Draft, analysis: app_view.Analysis) -> tuple:
    """Show the hint buttons and the current hint; returns the cells to highlight."""
    state = st.session_state
    if analysis.puzzle is None:
        return ()
    cols = st.columns(3)
    for level, column in zip(app_hints.LEVELS, cols):
        column.button(f"{level}. {app_hints.LEVELS[level].capitalize()}", key=f"hint_{level}",
                      on_click=_ask_hint, args=(level,), type="primary" if level == 1 else "secondary")
    asked = state.hint
    if asked is None or asked[0] != state.rev:
        st.caption("Hints use the digits written in your grid (fix them under 'Written digits' if needed).")
        return ()
    if state.hint_found is None or state.hint_found[0] != asked:  # computed once per draft and level
        try:
            with st.spinner("Looking for the next step…", show_time=True):
                state.hint_found = (asked, app_hints.hint(analysis.puzzle, draft.entries, asked[1]))
        except PuzzleError as err:
            state.hint_found = (asked, str(err))
    given = state.hint_found[1]
    if isinstance(given, str):
        st.warning(given)
        return ()
    st.info(f"Hint {given.level} of 3 ({app_hints.LEVELS[given.level]}): {given.text}")
    if given.steps:
        with st.expander(f"It builds on {len(given.steps)} earlier step{'s' if len(given.steps) > 1 else ''}"):
            st.markdown("\n".join(f"1. {step}" for step in given.steps))
    if given.level >= 2 and given.source == "solver":
        st.caption("Plain solver hint: the human-style hint engine is not installed.")
    digits = dict()
    if draft.entries is not None:
        digits = {(r, c): v for r, row in enumerate(draft.entries) for c, v in enumerate(row) if v is not None}
    colors = {}
    if given.value is not None:
        digits[given.cell] = given.value
        colors[given.cell] = app_view.HINT
        st.button(f"Write {given.value} in {cell_name(given.cell)}", key="write_hint", on_click=_write_hint,
                  args=(given.cell, given.value))
    elif given.level == 3 and given.cell is not None and given.cell in digits:
        st.button(f"Erase the {digits[given.cell]} in {cell_name(given.cell)}", key="erase_hint",
                  on_click=_write_hint, args=(given.cell, None))
    grid = tuple(tuple(digits.get((r, c)) for c in range(draft.size)) for r in range(draft.size))
    fills = {cell: app_view.HINT for cell in given.cells}
    st.image(app_view.clean_image(draft, grid, colors=colors, fills=fills, cell_px=56), caption="Where to look")
    return given.cells


def _ask_hint(level: int) -> None:
    st.session_state.hint = (st.session_state.rev, level)


def _write_hint(cell, value: int | None) -> None:
    what = f"wrote the hinted {value} in {cell_name(cell)}" if value else f"erased the digit in {cell_name(cell)}"
    apply(lambda d: app_state.set_entry(d, cell, value), what)


# --- the page ----------------------------------------------------------------------------------

def read_summary(loaded) -> None:
    total = sum(loaded.seconds.values())
    stages = ", ".join(f"{stage} {seconds:.2f} s" for stage, seconds in loaded.seconds.items())
    reading = loaded.reading
    if reading is not None:
        label = (f"Read a {reading.puzzle.size}×{reading.puzzle.size} puzzle from the {loaded.source} "
                 f"in {total:.1f} s" + (" — confident" if reading.confident else " — please review"))
    else:
        label = f"Opened the {loaded.source}"
    with st.status(label, state="complete", expanded=False):
        st.write(f"Stage timings: {stages}.")
        if reading is not None:
            for note in reading.notes:
                st.write(f"Note: {note}")
    if reading is not None:
        from vision.read import RETAKE_NOTE  # vision is loaded once a photo has been read
        for note in reading.notes:
            if note.startswith(RETAKE_NOTE):  # what would help, where it is seen
                st.warning(note[0].upper() + note[1:] + ".")


def review_notes(found: app_view.Doubts, draft: Draft) -> None:
    lines = []
    for anchor, p in sorted(found.clues.items()):
        lines.append(f"- clue {draft.clue_at().get(anchor) or '?'} at {cell_name(anchor)} read with only {p:.0%}: check it")
    for (a, b), p in sorted(found.walls.items()):
        lines.append(f"- the line between {cell_name(a)} and {cell_name(b)}: a cage wall with {p:.0%}?")
    for cell, p in sorted(found.entries.items()):
        lines.append(f"- the digit written in {cell_name(cell)} read with only {p:.0%}" if p < SURE_ENTRY
                     else f"- the digit written in {cell_name(cell)} may be misread")
    for anchor, said in sorted(found.changed.items()):
        lines.append(f"- the solver changed {said}")
    if lines:
        st.markdown("**To check** (orange: read with low confidence, violet: changed by the solver):\n"
                    + "\n".join(lines[:SHOWN_DOUBTS]))
        if len(lines) > SHOWN_DOUBTS:
            with st.expander(f"{len(lines) - SHOWN_DOUBTS} more to check"):
                st.markdown("\n".join(lines[SHOWN_DOUBTS:]))
    missing = [cell_name(cage.anchor) for cage in draft.cages if not cage.clue]
    if missing:
        st.markdown(f"**No clue yet** at {', '.join(missing)}: give one under *Fix what was read → Clue*.")


def main() -> None:
    st.set_page_config(page_title="kensnap", page_icon=":material/grid_on:", layout="wide")
    start_helper()  # once per app process: ready, on the other core, by the time a photo comes
    init_state()
    state = st.session_state
    st.title("kensnap")
    st.caption("Snap a KenKen (Calcudoku, MathDoku): kensnap reads it, you check what it read, "
               "then solve it, check your digits, or ask for a hint.")
    ready = app_models.preparing() is None
    banner = st.container()  # above the input, drawn after it (a photo given now is kept there)
    if ready and state.waiting is not None:
        read_photo(*state.waiting)
    input_section()
    if not ready:
        with banner:
            preparing_banner()
    if state.flash:
        kind, text = state.flash
        getattr(st, kind)(text)
        state.flash = None
    loaded, draft = state.loaded, state.draft
    if loaded is None or draft is None:
        if state.waiting is None:
            st.info("Start with a photo or screenshot of a puzzle — or open a sample, or type one.")
        return
    read_summary(loaded)
    analysis = app_view.analyse(draft)
    found = app_view.doubts(draft, loaded.reading, frozenset(state.confirmed_clues))
    st.radio("What do you want?", MODES, horizontal=True, key="mode")
    kind, text = app_view.status_message(analysis, loaded.reading, solving=state.mode == MODES[0])
    getattr(st, kind)(text)
    left, right = st.columns(2, gap="large")
    with right:
        hint_cells = ()
        if state.mode == MODES[0]:
            solve_view(draft, loaded, analysis)
        elif state.mode == MODES[1]:
            check_view(draft, loaded, analysis)
        else:
            hint_cells = hint_view(draft, analysis)
    with left:
        st.image(app_view.review_image(draft, loaded.reading, analysis, found, hint_cells=hint_cells),
                 caption=("What kensnap read (drawn over your photo)" if app_view.on_photo(draft, loaded.reading)
                          else "The puzzle" if loaded.reading is None else "What kensnap read (corrected)"),
                 width="stretch")
        review_notes(found, draft)
    needs_fixing = bool(found.clues or found.walls or found.changed or analysis.puzzle is None
                        or analysis.result.status != "unique")
    corrections(draft, found, expanded=needs_fixing)


main()
