"""Saving the settings: written when it can be, logged and survived when it cannot."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from cardviewer.services.settings import Settings
from cardviewer.ui.settings_saving import save_settings


def test_the_settings_are_written(tmp_path: Path):
    settings = Settings.load(tmp_path / "settings.json")
    settings.last_space = "alpha"
    save_settings(settings)
    assert Settings.load(settings.path).last_space == "alpha"


def test_a_file_that_cannot_be_written_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    settings = Settings.load(blocker / "settings.json")
    with caplog.at_level(logging.WARNING, logger="cardviewer.ui.settings_saving"):
        save_settings(settings)
    assert "settings not saved" in caplog.text
