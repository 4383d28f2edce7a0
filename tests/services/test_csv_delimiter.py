"""The CSV separator rule the window and `cardviewer export` share, and the locale without Qt."""

from __future__ import annotations

import locale

import pytest

from cardviewer.services.csv_delimiter import delimiter_for_decimal_point, system_decimal_point


@pytest.mark.parametrize(("decimal_point", "delimiter"), [(",", ";"), (".", ","), ("", ",")])
def test_a_decimal_comma_means_semicolons(decimal_point, delimiter):
    assert delimiter_for_decimal_point(decimal_point) == delimiter


@pytest.fixture
def numeric_locale_kept():
    before = locale.setlocale(locale.LC_NUMERIC)
    yield before
    locale.setlocale(locale.LC_NUMERIC, before)


def test_the_c_locale_has_a_point(monkeypatch, numeric_locale_kept):
    monkeypatch.setenv("LC_ALL", "C")
    assert system_decimal_point() == "."
    assert locale.setlocale(locale.LC_NUMERIC) == numeric_locale_kept


def test_a_locale_the_system_lacks_counts_as_c(monkeypatch, numeric_locale_kept):
    monkeypatch.setenv("LC_ALL", "xx_NOWHERE.UTF-8")
    assert system_decimal_point() == "."
    assert locale.setlocale(locale.LC_NUMERIC) == numeric_locale_kept


def test_the_users_numeric_locale_is_read_and_the_process_locale_put_back(
    monkeypatch, numeric_locale_kept
):
    """As in a German locale; simulated, since a system may have no German locale installed."""
    calls: list[tuple[int, str | None]] = []
    real_setlocale = locale.setlocale

    def setlocale(category: int, name: str | None = None) -> str:
        calls.append((category, name))
        return real_setlocale(category, "C" if name == "" else name)

    monkeypatch.setattr(locale, "setlocale", setlocale)
    monkeypatch.setattr(locale, "localeconv", lambda: {"decimal_point": ","})
    assert system_decimal_point() == ","
    assert calls == [
        (locale.LC_NUMERIC, None),
        (locale.LC_NUMERIC, ""),
        (locale.LC_NUMERIC, numeric_locale_kept),
    ]
