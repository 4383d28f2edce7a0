"""Colours from the palette: WCAG contrast, muted text kept readable, a scheme asked for."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from cardviewer.ui.colour_scheme import (
    READABLE,
    SCHEME_VARIABLE,
    TEXT_CONTRAST,
    contrast,
    dark_palette,
    follow_colour_scheme,
    luminance,
    over,
    readable,
)

ROLE = QPalette.ColorRole
GROUPS = (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive)
BLACK, WHITE = QColor("#000000"), QColor("#ffffff")


def muted_contrast(palette: QPalette, group: QPalette.ColorGroup, background: ROLE) -> float:
    """How the muted colour of `palette` reads on its `background`."""
    ground = palette.color(group, background)
    return contrast(over(palette.color(group, ROLE.PlaceholderText), ground), ground)


def reads_well(palette: QPalette) -> bool:
    return all(
        muted_contrast(palette, group, background) >= READABLE
        for group in GROUPS
        for background in (ROLE.Base, ROLE.Window)
    )


@pytest.fixture(autouse=True)
def no_scheme_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCHEME_VARIABLE, raising=False)


def test_contrast_is_wcag_s():
    assert luminance(BLACK) == 0
    assert luminance(WHITE) == 1
    assert contrast(BLACK, WHITE) == pytest.approx(21)
    assert contrast(WHITE, BLACK) == pytest.approx(21)
    assert contrast(QColor("#777777"), WHITE) == pytest.approx(4.48, abs=0.01)
    assert contrast(QColor("#767676"), WHITE) >= TEXT_CONTRAST  # the palest grey that passes


def test_a_translucent_colour_counts_as_it_shows_on_its_background():
    half_black = QColor(0, 0, 0, 128)
    assert over(half_black, WHITE).name() == "#7f7f7f"
    assert over(half_black, BLACK).name() == "#000000"


def test_a_colour_that_reads_well_is_kept_as_it_is():
    grey = QColor(0, 0, 0, 200)
    assert readable(grey, [WHITE], BLACK).rgba() == grey.rgba()


def test_a_pale_colour_is_darkened_just_enough_on_every_background():
    window, base = QColor("#efefef"), WHITE
    pale = QColor(0, 0, 0, 128)
    made = readable(pale, [base, window], BLACK)
    assert min(contrast(made, window), contrast(made, base)) >= READABLE
    assert contrast(made, window) < READABLE + 0.5  # still muted, not black
    assert made.alpha() == 255


def test_on_a_dark_background_a_colour_moves_toward_the_light_text():
    window = QColor("#353535")
    made = readable(QColor("#555555"), [window], QColor("#eeeeec"))
    assert contrast(made, window) >= READABLE
    assert luminance(made) > luminance(QColor("#555555"))


def test_where_nothing_reads_well_the_best_mix_is_taken():
    grey = QColor("#808080")
    made = readable(QColor("#7a7a7a"), [grey], QColor("#909090"))
    assert made.name() == "#909090"


def test_muted_text_reads_well_while_following_the_scheme(qapp: QApplication):
    before = QGuiApplication.palette()
    assert not reads_well(before)  # Qt's own: the text at half strength
    with follow_colour_scheme(qapp):
        assert reads_well(QGuiApplication.palette())
        # The rest of the palette is the desktop's, untouched.
        for role in (ROLE.Window, ROLE.Base, ROLE.Text, ROLE.Highlight):
            assert QGuiApplication.palette().color(role) == before.color(role)
    assert QGuiApplication.palette().color(ROLE.PlaceholderText) == before.color(
        ROLE.PlaceholderText
    )


def test_a_new_palette_is_made_readable_too(qapp: QApplication):
    with follow_colour_scheme(qapp):
        dark = dark_palette()
        dark.setColor(ROLE.PlaceholderText, QColor("#3a3a3a"))  # all but invisible on it
        QApplication.setPalette(dark)
        palette = QGuiApplication.palette()
        assert palette.color(ROLE.Window) == dark.color(ROLE.Window)
        assert reads_well(palette)


def test_a_placeholder_colour_that_reads_well_is_the_desktop_s_own(qapp: QApplication):
    with follow_colour_scheme(qapp):
        own = dark_palette()
        own.setColor(ROLE.PlaceholderText, QColor(255, 255, 255, 200))
        QApplication.setPalette(own)
        assert QGuiApplication.palette().color(ROLE.PlaceholderText) == own.color(
            ROLE.PlaceholderText
        )


def test_when_the_desktop_changes_its_colours_the_muted_one_follows(qapp: QApplication):
    with follow_colour_scheme(qapp):
        raised = QGuiApplication.palette()
        # The desktop turns dark; the muted colour set for the light one stays set.
        changed = QGuiApplication.palette()
        for role, name in ((ROLE.Window, "#353535"), (ROLE.Base, "#2d2d2d"), (ROLE.Text, "#eee")):
            changed.setColor(role, QColor(name))
        QApplication.setPalette(changed)
        palette = QGuiApplication.palette()
        assert palette.color(ROLE.PlaceholderText) != raised.color(ROLE.PlaceholderText)
        assert reads_well(palette)
        assert luminance(palette.color(ROLE.PlaceholderText)) > luminance(
            palette.color(ROLE.Window)
        )


def test_the_app_s_dark_palette_reads_well_everywhere():
    palette = dark_palette()
    pairs = [
        (ROLE.WindowText, ROLE.Window),
        (ROLE.Text, ROLE.Base),
        (ROLE.Text, ROLE.AlternateBase),
        (ROLE.ButtonText, ROLE.Button),
        (ROLE.HighlightedText, ROLE.Highlight),
        (ROLE.ToolTipText, ROLE.ToolTipBase),
        (ROLE.Link, ROLE.Base),
        (ROLE.PlaceholderText, ROLE.Base),
        (ROLE.PlaceholderText, ROLE.Window),
    ]
    for text, ground in pairs:
        assert contrast(palette.color(text), palette.color(ground)) >= READABLE, (text, ground)
    assert luminance(palette.color(ROLE.Window)) < 0.05


def test_a_scheme_asked_for_is_shown_and_undone(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch
):
    before = QGuiApplication.palette().color(ROLE.Window)
    monkeypatch.setenv(SCHEME_VARIABLE, "dark")
    with follow_colour_scheme(qapp):
        assert luminance(QGuiApplication.palette().color(ROLE.Window)) < 0.05
    assert QGuiApplication.palette().color(ROLE.Window) == before
    monkeypatch.setenv(SCHEME_VARIABLE, "light")
    with follow_colour_scheme(qapp):
        assert luminance(QGuiApplication.palette().color(ROLE.Window)) > 0.5


@pytest.mark.parametrize("value", ["", "no such scheme"])
def test_without_a_scheme_asked_for_the_desktop_s_is_kept(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch, value: str
):
    monkeypatch.setenv(SCHEME_VARIABLE, value)
    before = QGuiApplication.palette()
    with follow_colour_scheme(qapp):
        for role in (ROLE.Window, ROLE.Base, ROLE.Text):
            assert QGuiApplication.palette().color(role) == before.color(role)


def test_fields_stand_out_of_the_dark_window_as_of_the_light_one(qapp: QApplication):
    """Fields and check boxes are drawn on `Base`, framed in a shade of `Window`: in the
    dark palette both were so alike (1.06:1) that the space field, the filter and the
    check boxes all but vanished."""
    from PySide6.QtWidgets import QStyleFactory

    fusion = QStyleFactory.create("Fusion")
    assert fusion is not None
    light = fusion.standardPalette()
    dark = dark_palette()
    stands_out = contrast(light.color(ROLE.Base), light.color(ROLE.Window))
    assert contrast(dark.color(ROLE.Base), dark.color(ROLE.Window)) >= stands_out
    assert contrast(dark.color(ROLE.AlternateBase), dark.color(ROLE.Base)) > 1.05, "rows told apart"
