"""A printer as the print dialog set it up, taken to another process and set up again."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from PySide6.QtCore import QMarginsF, QSizeF
from PySide6.QtGui import QPageLayout, QPageSize
from PySide6.QtPrintSupport import QPrinter

from cardviewer.services.printer_setup import PrinterSetup, PrinterUnavailable


def chosen(tmp_path, size: QPageSize) -> QPrinter:
    """A printer as a person might leave the dialog: nothing as it was at first."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "phones.pdf"))
    printer.setResolution(600)
    printer.setPageLayout(
        QPageLayout(
            size,
            QPageLayout.Orientation.Landscape,
            QMarginsF(7, 9, 11, 13),
            QPageLayout.Unit.Millimeter,
        )
    )
    printer.setCopyCount(3)
    printer.setCollateCopies(False)
    printer.setDuplex(QPrinter.DuplexMode.DuplexLongSide)
    printer.setColorMode(QPrinter.ColorMode.GrayScale)
    printer.setFullPage(True)
    printer.setPageOrder(QPrinter.PageOrder.LastPageFirst)
    printer.setPaperSource(QPrinter.PaperSource.Manual)
    printer.setDocName("Phone list of Acme")
    return printer


def settings(printer: QPrinter) -> dict[str, object]:
    layout = printer.pageLayout()
    return {
        "format": printer.outputFormat(),
        "file": printer.outputFileName(),
        "resolution": printer.resolution(),
        "size": layout.pageSize().size(QPageSize.Unit.Point),
        "size name": layout.pageSize().name(),
        "orientation": layout.orientation(),
        "margins": layout.margins(QPageLayout.Unit.Millimeter),
        "copies": printer.copyCount(),
        "collate": printer.collateCopies(),
        "duplex": printer.duplex(),
        "colour": printer.colorMode(),
        "full page": printer.fullPage(),
        "order": printer.pageOrder(),
        "source": printer.paperSource(),
        "title": printer.docName(),
    }


@pytest.mark.parametrize(
    "size",
    [
        QPageSize(QPageSize.PageSizeId.A5),
        QPageSize(QSizeF(100, 150), QPageSize.Unit.Millimeter, "Index card"),
    ],
    ids=["standard", "custom"],
)
def test_a_printer_set_up_elsewhere_is_set_up_as_the_dialog_left_it(qapp, tmp_path, size):
    printer = chosen(tmp_path, size)
    setup = pickle.loads(pickle.dumps(PrinterSetup.of(printer)))
    again = setup.printer()
    assert settings(again) == settings(printer)
    assert settings(again)["copies"] == 3, "set up as chosen, not as a printer is at first"


def test_a_system_printer_that_cannot_be_had_here_is_said_to_be_unavailable(qapp, tmp_path):
    setup = PrinterSetup.of(chosen(tmp_path, QPageSize(QPageSize.PageSizeId.A4)))
    native = QPrinter.OutputFormat.NativeFormat.value
    named = dataclasses.replace(setup, printer_name="No such printer", output_format=native)
    with pytest.raises(PrinterUnavailable, match="No such printer"):
        named.printer()


def system_printers() -> list[str]:
    from PySide6.QtPrintSupport import QPrinterInfo

    return [info.printerName() for info in QPrinterInfo.availablePrinters()]


def test_a_system_printer_is_set_up_again_by_its_name(qapp, tmp_path):
    """Where the system has a printer (a CUPS queue on Linux): the same one, not the default."""
    names = system_printers()
    if not names:
        pytest.skip("no system printer here")
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPrinterName(names[-1])
    printer.setCopyCount(2)
    assert printer.outputFormat() is QPrinter.OutputFormat.NativeFormat
    again = pickle.loads(pickle.dumps(PrinterSetup.of(printer))).printer()
    assert again.isValid()
    assert again.outputFormat() is QPrinter.OutputFormat.NativeFormat
    assert again.printerName() == names[-1]
    assert again.copyCount() == 2
