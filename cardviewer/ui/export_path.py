"""Asking where an export goes: a CSV file, an Excel workbook, vCards or a QR code's
picture, by name or by filter."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from cardviewer.services.card_export import ExportFormat
from cardviewer.services.card_qr import PNG_SUFFIX, SVG_SUFFIX
from cardviewer.services.vcard_export import SUFFIX as VCARD_SUFFIX


def ask_export_path(parent: QWidget, suggested: Path, title: str = "") -> Path | None:
    """The file to export to, chosen by the person; None when they cancel.

    The suffix follows the type chosen in the dialog when the name has none.
    """
    csv_filter = QCoreApplication.translate("MainWindow", "CSV files (*.csv)")
    xlsx_filter = QCoreApplication.translate("MainWindow", "Excel workbooks (*.xlsx)")
    vcard_filter = QCoreApplication.translate("MainWindow", "vCards (*.vcf)")
    suffixes = {csv_filter: ExportFormat.CSV.value, xlsx_filter: ExportFormat.XLSX.value}
    if suggested.suffix == VCARD_SUFFIX:
        suffixes = {vcard_filter: VCARD_SUFFIX}  # contacts, not a table
    elif suggested.suffix in (PNG_SUFFIX, SVG_SUFFIX):  # a picture: a card's QR code
        suffixes = {
            QCoreApplication.translate("MainWindow", "PNG pictures (*.png)"): PNG_SUFFIX,
            QCoreApplication.translate("MainWindow", "SVG pictures (*.svg)"): SVG_SUFFIX,
        }
    chosen_filter = next(
        (kind for kind, suffix in suffixes.items() if suffix == suggested.suffix),
        next(iter(suffixes)),
    )
    name, chosen_filter = QFileDialog.getSaveFileName(
        parent,
        title or QCoreApplication.translate("MainWindow", "Export Page"),
        str(suggested),
        ";;".join(suffixes),
        chosen_filter,
    )
    if not name:
        return None
    path = Path(name)
    if not path.suffix:
        path = path.with_suffix(suffixes.get(chosen_filter, next(iter(suffixes.values()))))
    return path
