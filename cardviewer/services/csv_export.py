"""Saving a table as a CSV file that Excel, Numbers and LibreOffice open correctly.

- UTF-8 with a byte order mark: without it Excel reads the file as the legacy code
  page and turns "Müller" into "MÃ¼ller".
- CRLF line ends and minimal quoting, as RFC 4180 and Excel expect; line breaks
  inside a cell are kept (the cell is quoted).
- A cell that starts like a formula (`=`, `+`, `-`, `@`, tab, carriage return) gets a
  leading `'`, so text from the server can never run as a formula when the file is
  opened (OWASP "CSV Injection").
- The file is replaced in one step: an earlier file of that name survives a failure,
  and the error then says in plain words what went wrong (`file_errors`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from cardviewer.services.atomic_file import open_atomically
from cardviewer.services.file_errors import in_plain_words

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_UNSAFE_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]')
# File names may have 255 bytes on most file systems; leave room for the rest.
_MAX_SPACE_BYTES = 150


_NEGATIVE_NUMBER = re.compile(r"-(?:0|[1-9][0-9]{0,14})")
"""A negative whole number a spreadsheet reads as itself: no leading zero to lose, no
more than the 15 digits it keeps, no decimal mark that reads otherwise in German."""


def neutralize_formula(cell: str) -> str:
    """The cell as text a spreadsheet shows literally, never evaluates.

    A negative whole number is left as it is (`_NEGATIVE_NUMBER`): a spreadsheet reads
    it as that number, and the guard made the count -3 the text "'-3".
    """
    if cell.startswith(FORMULA_PREFIXES) and not _NEGATIVE_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def write_csv(
    path: Path,
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    delimiter: str = ",",
) -> int:
    """Write `header` and `rows` to `path`; returns the number of rows written.

    Raises `OSError` when the file cannot be written (the earlier file stays intact):
    of the kind the system raised (`PermissionError`, ...), with its `errno`, and a
    message in plain words. Raises `ValueError` for a delimiter that cannot separate
    cells.
    """
    if len(delimiter) != 1 or delimiter in "\"'\r\n":
        raise ValueError(f"Cannot separate CSV cells with {delimiter!r}.")
    count = 0
    try:
        with open_atomically(Path(path)) as file:
            # Row by row into the file: a whole space is never one string in memory.
            # "replace": a lone surrogate the server sent becomes "?", not a failure.
            text = io.TextIOWrapper(file, "utf-8-sig", errors="replace", newline="")
            writer = csv.writer(
                text, delimiter=delimiter, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n"
            )
            writer.writerow([neutralize_formula(cell) for cell in header])
            for row in rows:
                writer.writerow([neutralize_formula(cell) for cell in row])
                count += 1
            text.flush()
            text.detach()  # the file is closed by `open_atomically`, after its fsync
    except OSError as error:
        raise in_plain_words(error, Path(path)) from error
    return count


def safe_file_stem(text: str) -> str:
    """`text` usable as the start of a file name on Windows, macOS and Linux."""
    # Windows drops trailing dots and spaces; a leading dot would hide the file.
    stem = _UNSAFE_IN_FILE_NAMES.sub("_", text).strip(" .")
    stem = stem.encode("utf-8", "ignore")[:_MAX_SPACE_BYTES].decode("utf-8", "ignore")
    return stem.rstrip(" .") or "cards"


def suggested_filename(space_id: str, page: int) -> str:
    """A file name for one page of a space."""
    return f"{safe_file_stem(space_id)}-page-{page}.csv"
