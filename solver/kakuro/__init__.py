"""Kakuro: the second puzzle kensnap grew from (seed 003), on the same engine ideas as KenKen.

A *run* is a sum cage whose digits 1..9 all differ: the model (:mod:`.model`), its JSON and text
formats (:mod:`.formats`), the PySAT engine (:mod:`.engine`), checks of written digits (:mod:`.check`),
human-style steps and hints (:mod:`.logic`) and a generator of unique puzzles (:mod:`.generator`).
"""
from .formats import (format_kakuro_text, is_kakuro_json, kakuro_entries_in, kakuro_from_json, kakuro_to_json,
                      looks_like_kakuro_text, parse_kakuro_text)
from .model import BLOCK, WHITE, Clue, KakuroPuzzle, Run, clue_problems, combinations

__all__ = ["BLOCK", "WHITE", "Clue", "KakuroPuzzle", "Run", "clue_problems", "combinations",
           "format_kakuro_text", "is_kakuro_json", "kakuro_entries_in", "kakuro_from_json", "kakuro_to_json",
           "looks_like_kakuro_text", "parse_kakuro_text"]
