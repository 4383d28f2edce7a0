"""Text from the server, shown exactly as it came: never read as markup.

Qt guesses whether a tooltip is rich text (`Qt::mightBeRichText`), so a card named
`<img src="/some/file">` would show a picture read from that file, and an error body
could show links and headings. A label can be told its text is plain; a tooltip
cannot, so its text is escaped and handed over as rich text that reads as the text did.
"""

from __future__ import annotations

WRAP_AFTER = 80
"""Lines up to this many characters stay whole, as a tooltip of plain text shows them."""


def plain_tooltip(text: str) -> str:
    """A tooltip that shows `text` literally, its line breaks and spaces kept.

    Long lines wrap, as in any rich tooltip; when no line is long, none is broken (an
    e-mail address would break at its hyphens). An empty text stays empty: no tooltip.
    """
    if not text:
        return ""
    long_lines = any(len(line) > WRAP_AFTER for line in text.splitlines())
    white_space = "pre-wrap" if long_lines else "pre"
    # Without the `html` module: the sign-in dialog paints before it is needed.
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<p style="white-space:{white_space}">{escaped}</p>'


def plain_action_text(text: str) -> str:
    """`text` for a menu entry: an `&` is shown, not taken as the entry's Alt key."""
    return text.replace("&", "&&")
