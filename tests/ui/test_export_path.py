"""Asking for the export file: the filter follows the suggestion, the suffix follows the filter."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QWidget

from cardviewer.ui.export_path import ask_export_path

CSV_FILTER = "CSV files (*.csv)"
XLSX_FILTER = "Excel workbooks (*.xlsx)"


@pytest.fixture
def parent(qtbot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def dialog(monkeypatch) -> dict[str, Any]:
    """What the file dialog was asked, and what it answers (`answer`: name, filter)."""
    seen: dict[str, Any] = {"answer": ("", "")}

    def ask(parent, title, suggested, filters, chosen):
        seen.update(parent=parent, title=title, suggested=suggested, filters=filters)
        seen["chosen"] = chosen
        return seen["answer"]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    return seen


def test_cancel_is_none(parent, dialog, tmp_path):
    assert ask_export_path(parent, tmp_path / "page.csv") is None
    assert dialog["parent"] is parent
    assert dialog["title"] == "Export Page"
    assert dialog["filters"] == f"{CSV_FILTER};;{XLSX_FILTER}"


def test_the_suggested_suffix_picks_the_filter(parent, dialog, tmp_path):
    ask_export_path(parent, tmp_path / "page.csv")
    assert dialog["chosen"] == CSV_FILTER
    ask_export_path(parent, tmp_path / "space-all.xlsx", title="Export All Pages")
    assert dialog["chosen"] == XLSX_FILTER
    assert dialog["title"] == "Export All Pages"
    assert dialog["suggested"] == str(tmp_path / "space-all.xlsx")


@pytest.mark.parametrize(
    ("name", "chosen", "expected"),
    [
        ("cards", XLSX_FILTER, "cards.xlsx"),
        ("cards", CSV_FILTER, "cards.csv"),
        ("cards.txt", XLSX_FILTER, "cards.txt"),
    ],
)
def test_a_name_without_suffix_gets_the_filter_s(parent, dialog, tmp_path, name, chosen, expected):
    dialog["answer"] = (str(tmp_path / name), chosen)
    assert ask_export_path(parent, tmp_path / "page.csv") == tmp_path / expected


def test_vcards_are_asked_for_as_vcards_only(parent, dialog, tmp_path):
    dialog["answer"] = (str(tmp_path / "team"), "vCards (*.vcf)")
    assert ask_export_path(parent, tmp_path / "space-cards.vcf") == tmp_path / "team.vcf"
    assert dialog["filters"] == "vCards (*.vcf)"
    assert dialog["chosen"] == "vCards (*.vcf)"
