"""Which separator a CSV export uses: the person's choice, else what their Excel expects.

Excel splits a CSV file on the system's list separator, which is `;` in locales that
write decimals with a comma (German, French, ...) and `,` elsewhere. The window asks
Qt for the locale's decimal mark, `cardviewer export` asks the C library
(`system_decimal_point`); both then follow the one rule here.
"""

from __future__ import annotations

import locale
import logging

log = logging.getLogger(__name__)

COMMA = ","
SEMICOLON = ";"
TAB = "\t"


def delimiter_for_decimal_point(decimal_point: str) -> str:
    """The separator a spreadsheet expects where numbers are written with `decimal_point`."""
    return SEMICOLON if decimal_point == "," else COMMA


def system_decimal_point() -> str:
    """The decimal mark of the user's locale (`LC_NUMERIC`, `LC_ALL`, `LANG`), without Qt.

    The process's numeric locale is put back afterwards: Python runs in the "C"
    locale until told otherwise, and formatting elsewhere relies on that. A locale the
    system does not have installed counts as "C" (a point).
    """
    previous = locale.setlocale(locale.LC_NUMERIC)
    try:
        locale.setlocale(locale.LC_NUMERIC, "")
        return str(locale.localeconv()["decimal_point"])
    except locale.Error as error:
        log.debug("the system's number locale cannot be used: %s", error)
        return "."
    finally:
        locale.setlocale(locale.LC_NUMERIC, previous)
