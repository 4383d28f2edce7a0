"""A printer as the print dialog set it up, in a form another process can take.

A whole space's phone list is painted for the printer in a process of its own
(`phone_list.OffscreenPainting`); the person chose the printer and its settings in the
window's. `PrinterSetup.of(printer)` keeps what they chose (the printer or the file,
paper, orientation, margins, copies, sides, colour, resolution) as plain values, and
`printer()` makes a `QPrinter` set up the same where it is called.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QMarginsF, QSizeF
from PySide6.QtGui import QPageLayout, QPageSize
from PySide6.QtPrintSupport import QPrinter


class PrinterUnavailable(OSError):
    """The printer cannot be had here (a process of its own may not see the system's
    printers as the window does)."""


@dataclass(frozen=True)
class PrinterSetup:
    """What the print dialog set on a `QPrinter`, as values that pickle."""

    printer_name: str
    output_format: int
    """`QPrinter.OutputFormat`: the system's printer, or a PDF file."""
    output_file: str
    page_size_id: int
    """`QPageSize.PageSizeId`; for a custom size, `page_size_points` and its name."""
    page_size_points: tuple[float, float]
    page_size_name: str
    orientation: int
    margins: tuple[float, float, float, float]
    """Left, top, right, bottom, in `margin_unit`s."""
    margin_unit: int
    copy_count: int
    collate_copies: bool
    duplex: int
    color_mode: int
    resolution: int
    full_page: bool
    page_order: int
    paper_source: int
    doc_name: str

    @classmethod
    def of(cls, printer: QPrinter) -> PrinterSetup:
        """How `printer` is set up now."""
        layout = printer.pageLayout()
        size = layout.pageSize()
        points = size.size(QPageSize.Unit.Point)
        unit = layout.units()
        margins = layout.margins(unit)
        return cls(
            printer_name=printer.printerName(),
            output_format=printer.outputFormat().value,
            output_file=printer.outputFileName(),
            page_size_id=size.id().value,
            page_size_points=(points.width(), points.height()),
            page_size_name=size.name(),
            orientation=layout.orientation().value,
            margins=(margins.left(), margins.top(), margins.right(), margins.bottom()),
            margin_unit=unit.value,
            copy_count=printer.copyCount(),
            collate_copies=printer.collateCopies(),
            duplex=printer.duplex().value,
            color_mode=printer.colorMode().value,
            resolution=printer.resolution(),
            full_page=printer.fullPage(),
            page_order=printer.pageOrder().value,
            paper_source=printer.paperSource().value,
            doc_name=printer.docName(),
        )

    def printer(self) -> QPrinter:
        """A printer set up as the one this was taken `of`; raises `PrinterUnavailable`
        when the printer it names cannot be had here."""
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        output = QPrinter.OutputFormat(self.output_format)
        printer.setOutputFormat(output)
        if output is QPrinter.OutputFormat.NativeFormat:
            printer.setPrinterName(self.printer_name)
            named = self.printer_name and printer.printerName() != self.printer_name
            if not printer.isValid() or named:
                raise PrinterUnavailable(f"the printer {self.printer_name!r} is not to be had")
        printer.setOutputFileName(self.output_file)  # "print to file" on a system printer too
        printer.setResolution(self.resolution)
        size_id = QPageSize.PageSizeId(self.page_size_id)
        if size_id is QPageSize.PageSizeId.Custom:
            width, height = self.page_size_points
            size = QPageSize(QSizeF(width, height), QPageSize.Unit.Point, self.page_size_name)
        else:
            size = QPageSize(size_id)
        printer.setPageLayout(
            QPageLayout(
                size,
                QPageLayout.Orientation(self.orientation),
                QMarginsF(*self.margins),
                QPageLayout.Unit(self.margin_unit),
            )
        )
        printer.setCopyCount(self.copy_count)
        printer.setCollateCopies(self.collate_copies)
        printer.setDuplex(QPrinter.DuplexMode(self.duplex))
        printer.setColorMode(QPrinter.ColorMode(self.color_mode))
        printer.setFullPage(self.full_page)
        printer.setPageOrder(QPrinter.PageOrder(self.page_order))
        printer.setPaperSource(QPrinter.PaperSource(self.paper_source))
        printer.setDocName(self.doc_name)
        return printer
