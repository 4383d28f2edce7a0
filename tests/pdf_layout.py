"""Where a PDF page puts its texts, lines, shapes and pictures, as a reader sees them on paper.

A text extractor gives the words; this gives their place, size, weight and colour too,
by following the page's drawing operators (PDF 1.7, sections 8 and 9): enough to check a layout
without rendering the page. Texts, lines and shapes are in the page's drawing units
(those of `cm`'s scale, as the writer set them); pictures are in points of the paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pypdf
from pypdf.generic import ContentStream

Matrix = tuple[float, float, float, float, float, float]
Colour = tuple[float, ...]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Text:
    """A run of text: its words, where its baseline begins, its size, weight and colour."""

    words: str
    x: float
    y: float
    size: float
    bold: bool
    colour: Colour


@dataclass(frozen=True)
class Rule:
    """A straight line stroked from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    colour: Colour
    width: float


@dataclass(frozen=True)
class Shape:
    """A filled path (a disc, a letter's outline): the box around its points, its colour."""

    left: float
    top: float
    right: float
    bottom: float
    colour: Colour


@dataclass(frozen=True)
class Picture:
    """A picture's place on the paper, in points from the page's lower left corner."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class PageLayout:
    texts: list[Text]
    rules: list[Rule]
    pictures: list[Picture]
    shapes: list[Shape]
    scale: Matrix
    """The page's own transformation (`cm` before anything is drawn)."""


def _times(a: Matrix, b: Matrix) -> Matrix:
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    )


def _numbers(arguments: list[Any]) -> tuple[float, ...]:
    return tuple(round(float(argument), 3) for argument in arguments)


def page_layout(reader: pypdf.PdfReader, page: pypdf.PageObject) -> PageLayout:
    """The texts, rules and pictures of `page`, in the order they are drawn."""
    found: list[tuple[str, Any, Any, float]] = []

    def visit(words: str, _cm: Any, tm: Any, font: Any, size: float) -> None:
        if words.strip():
            found.append((" ".join(words.split()), tm, font, size))

    page.extract_text(visitor_text=visit)
    fills: list[Colour] = []
    rules: list[Rule] = []
    pictures: list[Picture] = []
    shapes: list[Shape] = []
    fill: Colour = (0.0, 0.0, 0.0)
    stroke: Colour = (0.0, 0.0, 0.0)
    width = 1.0
    matrix, scale = IDENTITY, None
    saved: list[tuple[Matrix, Colour, Colour, float]] = []
    path: list[tuple[float, ...]] = []  # the subpath being drawn
    outline: list[tuple[float, ...]] = []  # every subpath since the last was painted
    for arguments, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"q":
            saved.append((matrix, fill, stroke, width))
        elif operator == b"Q":
            matrix, fill, stroke, width = saved.pop()
        elif operator == b"cm":
            matrix = _times(tuple(map(float, arguments)), matrix)  # type: ignore[arg-type]
            scale = scale or matrix
        elif operator in (b"scn", b"rg", b"g"):
            fill = _numbers(arguments)
        elif operator in (b"SCN", b"RG", b"G"):
            stroke = _numbers(arguments)
        elif operator == b"w":
            width = float(arguments[0])
        elif operator == b"BT":
            fills.append(fill)
        elif operator == b"m":
            path = [_numbers(arguments)]
            outline += path
        elif operator == b"l":
            path.append(_numbers(arguments))
            outline.append(path[-1])
        elif operator == b"c":  # a curve: its control points are near enough its box
            numbers = _numbers(arguments)
            points = [numbers[0:2], numbers[2:4], numbers[4:6]]
            path += points
            outline += points
        elif operator in (b"f", b"f*") and outline:
            xs, ys = [point[0] for point in outline], [point[1] for point in outline]
            shapes.append(Shape(min(xs), min(ys), max(xs), max(ys), fill))
            outline = []
        elif operator == b"S" and len(path) == 2:
            (x1, y1), (x2, y2) = path
            rules.append(Rule(x1, y1, x2, y2, stroke, width))
            outline = []
        elif operator in (b"S", b"n"):
            outline = []
        elif operator == b"Do":
            pictures.append(Picture(matrix[4], matrix[5], matrix[0], matrix[3]))
    assert len(fills) == len(found), "one run of text a text object, as Qt writes them"
    texts = [
        Text(
            words,
            float(tm[4]),
            float(tm[5]),
            float(size),
            "Bold" in str(font.get("/BaseFont", "")),
            colour,
        )
        for (words, tm, font, size), colour in zip(found, fills, strict=True)
    ]
    return PageLayout(texts, rules, pictures, shapes, scale or IDENTITY)


def layouts(path: Any) -> list[PageLayout]:
    """The layout of every page of the PDF at `path`."""
    reader = pypdf.PdfReader(path)
    return [page_layout(reader, page) for page in reader.pages]
