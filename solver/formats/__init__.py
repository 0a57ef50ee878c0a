"""Puzzle formats: the JSON schema (a contract), a typed text format, Simon Tatham's Keen IDs."""
from .json_schema import dumps, loads, puzzle_from_json, puzzle_to_json
from .keen import format_keen, looks_like_keen, parse_keen
from .text import format_text, parse_text
from .detect import entries_in, puzzles_in

__all__ = ["dumps", "entries_in", "puzzles_in", "format_keen", "format_text", "loads", "looks_like_keen", "parse_keen", "parse_text",
           "puzzle_from_json", "puzzle_to_json"]
