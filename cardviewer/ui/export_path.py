"""Asking where an export goes: a CSV file or an Excel workbook, by name or by filter."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from cardviewer.services.card_export import ExportFormat


def ask_export_path(parent: QWidget, suggested: Path, title: str = "") -> Path | None:
    """The file to export to, chosen by the person; None when they cancel.

    The suffix follows the type chosen in the dialog when the name has none.
    """
    csv_filter = QCoreApplication.translate("MainWindow", "CSV files (*.csv)")
    xlsx_filter = QCoreApplication.translate("MainWindow", "Excel workbooks (*.xlsx)")
    chosen_filter = xlsx_filter if suggested.suffix == ExportFormat.XLSX.value else csv_filter
    name, chosen_filter = QFileDialog.getSaveFileName(
        parent,
        title or QCoreApplication.translate("MainWindow", "Export Page"),
        str(suggested),
        ";;".join([csv_filter, xlsx_filter]),
        chosen_filter,
    )
    if not name:
        return None
    path = Path(name)
    if not path.suffix:
        wanted = ExportFormat.XLSX if chosen_filter == xlsx_filter else ExportFormat.CSV
        path = path.with_suffix(wanted.value)
    return path
