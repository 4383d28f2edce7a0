"""The space field: recent spaces first, a space remembered once it opens, no stray activation."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from cardviewer.services.settings import Settings
from cardviewer.ui.space_field import SpaceField


@pytest.fixture
def settings() -> Settings:
    settings = Settings.load()
    settings.recent_spaces = ["alpha", "beta"]
    settings.last_space = "beta"
    return settings


@pytest.fixture
def field(qtbot, settings):
    widget = SpaceField(settings)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def items(field: SpaceField) -> list[str]:
    return [field.itemText(i) for i in range(field.count())]


def test_it_lists_the_recent_spaces_and_shows_the_last_one(field):
    assert items(field) == ["alpha", "beta"]
    assert field.currentText() == "beta"
    assert field.currentIndex() == 1, "a listed space is the current item"
    assert field.isEditable()
    assert field.space_edit.isClearButtonEnabled()


def test_the_text_typed_is_read_without_surrounding_blanks(field):
    field.setEditText("  gamma \t")
    assert field.space_text == "gamma"


def test_a_space_that_opened_moves_to_the_top_and_is_saved(field, settings):
    field.setEditText("gamma")
    field.remember_space("gamma")
    assert items(field) == ["gamma", "alpha", "beta"]
    assert field.currentText() == "gamma"
    saved = Settings.load(settings.path)
    assert saved.recent_spaces == ["gamma", "alpha", "beta"]
    assert saved.last_space == "gamma"


def test_remembering_the_space_already_first_writes_nothing(field, settings):
    field.remember_space("alpha")
    written = settings.path.stat().st_mtime_ns
    settings.path.unlink()
    field.remember_space("alpha")
    assert not settings.path.exists(), f"written again (first at {written})"


def test_an_id_typed_that_did_not_open_leaves_the_list(field, qtbot):
    field.space_edit.clear()
    qtbot.keyClicks(field.space_edit, "typo")
    qtbot.keyClick(field.space_edit, Qt.Key.Key_Return)
    assert items(field) == ["typo", "alpha", "beta"], "Enter lists what was typed"
    field.fill_recent_spaces()
    assert items(field) == ["alpha", "beta"]
    assert field.currentText() == "typo", "the text typed stays for correcting"


def test_showing_a_space_selects_its_item_without_activating_it(field, qtbot):
    with qtbot.assertNotEmitted(field.activated):
        field.show_space("alpha")
        field.show_space("delta")
    assert field.currentText() == "delta"
    assert field.currentIndex() == -1
    field.show_space("alpha")
    assert field.currentIndex() == 0


def test_enter_activates_the_space_typed(field, qtbot):
    field.space_edit.clear()
    qtbot.keyClicks(field.space_edit, "delta")
    with qtbot.waitSignal(field.activated):
        qtbot.keyClick(field.space_edit, Qt.Key.Key_Return)


def test_focus_selects_the_text_to_type_over_it(field, qtbot):
    field.focus()
    qtbot.waitUntil(field.space_edit.hasFocus)
    assert field.space_edit.selectedText() == "beta"


def test_a_settings_file_that_cannot_be_written_does_not_stop_the_field(
    field, settings, tmp_path: Path, caplog
):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    settings.path = blocker / "settings.json"
    field.remember_space("gamma")
    assert items(field)[0] == "gamma"
    assert "settings not saved" in caplog.text
