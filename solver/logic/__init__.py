"""Human-style solving: named techniques step by step, hints, why an entry is wrong, difficulty."""
from .deduce import Explanation, explain
from .steps import TECHNIQUES, Step, Technique

__all__ = ["Explanation", "Step", "TECHNIQUES", "Technique", "explain"]
