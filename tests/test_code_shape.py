"""No class grows past what a reader can hold in mind at once.

A class longer than `MAX_CLASS_LINES` (from its `class` line to the end of its last
statement) has taken on more than one job; its parts belong in classes of their own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cardviewer

ROOT = Path(cardviewer.__file__).parent
MAX_CLASS_LINES = 450


def long_classes(source: str, max_lines: int = MAX_CLASS_LINES) -> list[tuple[str, int]]:
    """Each class in `source` (nested ones too) longer than `max_lines`, with its length."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            end = node.end_lineno if node.end_lineno is not None else node.lineno
            length = end - node.lineno + 1
            if length > max_lines:
                found.append((node.name, length))
    return found


def test_long_classes_are_found_by_name() -> None:
    body = "\n".join(f"    x{number} = {number}" for number in range(3))
    source = f"class Short:\n    pass\n\n\nclass Long:\n{body}\n"
    assert long_classes(source, max_lines=3) == [("Long", 4)]


def test_no_class_is_longer_than_the_limit() -> None:
    too_long = [
        f"{path.relative_to(ROOT.parent)}: {name} has {length} lines"
        for path in sorted(ROOT.rglob("*.py"))
        for name, length in long_classes(path.read_text(encoding="utf-8"))
    ]
    assert not too_long, f"classes longer than {MAX_CLASS_LINES} lines:\n" + "\n".join(too_long)
