"""View → Overview: the space at a glance, from its local copy or from the page loaded.

Totals (cards, public and private, with e-mails), the cards created each month as a
chart, and three lists: the most connects, the most connected cards, the latest
changes. A synced space is worked out from every card of its copy, in a process of its
own (on a thread, 100,000 cards held up the window's paints for 7 s); without a copy,
from the cards loaded, and the window says so. The chart can be saved as a PNG picture.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QLocale,
    QObject,
    QSize,
    Qt,
)
from PySide6.QtGui import QFont, QImage, QImageWriter
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStatusBar,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from cardviewer.api.models import Card
from cardviewer.services.atomic_file import write_atomically
from cardviewer.services.process_job import JobEnded, in_a_process
from cardviewer.services.space_overview import (
    RankedCard,
    SpaceOverview,
    overview_of_copy,
    space_overview,
)
from cardviewer.services.store_schema import StoreError
from cardviewer.tasks import TaskSet
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.value_text import format_local_time
from cardviewer.ui.error_bar import ErrorBar
from cardviewer.ui.error_text import store_error_text, write_failure_text
from cardviewer.ui.month_chart import MonthChart
from cardviewer.ui.whole_space_jobs import WholeSpaceJobs
from cardviewer.ui.whole_space_view import WholeSpaceView
from cardviewer.ui.window_layout import first_size

log = logging.getLogger(__name__)

ROW_PADDING = 6
"""Pixels of a list's row beyond its line of text."""
DESIGNED_SIZE = QSize(760, 640)
"""The window's size where the screen has room for it (`first_size`)."""


@dataclass(frozen=True)
class OverviewSource:
    """Where the overview's cards come from: a local copy, or the cards loaded."""

    space_id: str
    copy: Path | None = None
    cards: tuple[Card, ...] = ()
    with_emails: bool = False


class OverviewWindow(QDialog):
    """Shows a `SpaceOverview`; `show_working()` until it is worked out."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("SpaceOverview", "Space Overview"))
        self.source_label = QLabel(self)
        self.source_label.setWordWrap(True)
        self.source_label.setTextFormat(Qt.TextFormat.PlainText)
        self.totals = QFormLayout()
        self._totals: dict[str, QLabel] = {}
        self._titles: dict[str, str] = {}
        for key, title in (
            ("cards", QCoreApplication.translate("SpaceOverview", "Cards")),
            ("public", QCoreApplication.translate("SpaceOverview", "Public")),
            ("private", QCoreApplication.translate("SpaceOverview", "Private")),
            ("emails", QCoreApplication.translate("SpaceOverview", "With e-mails")),
        ):
            value = QLabel(self)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.totals.addRow(title, value)
            self._totals[key] = value
            self._titles[key] = title
        self.chart_title = QLabel(
            QCoreApplication.translate("SpaceOverview", "Cards created per month"), self
        )
        heading = QFont(self.chart_title.font())
        heading.setBold(True)
        self.chart_title.setFont(heading)
        self.chart = MonthChart(self)
        self.lists = QTabWidget(self)
        self.lists.setAccessibleName(QCoreApplication.translate("SpaceOverview", "Lists of cards"))
        self.most_connects = self._list(QCoreApplication.translate("SpaceOverview", "Connects"))
        self.most_connected = self._list(
            QCoreApplication.translate("SpaceOverview", "Connected cards")
        )
        self.recently_updated = self._list(QCoreApplication.translate("SpaceOverview", "Updated"))
        for table, tab, tip in (
            (
                self.most_connects,
                QCoreApplication.translate("SpaceOverview", "Most connects"),
                QCoreApplication.translate(
                    "SpaceOverview", "The cards with the highest count in the Connects column"
                ),
            ),
            (
                self.most_connected,
                QCoreApplication.translate("SpaceOverview", "Most connected cards"),
                QCoreApplication.translate(
                    "SpaceOverview",
                    "The cards with the highest count in the Connected cards column",
                ),
            ),
            (
                self.recently_updated,
                QCoreApplication.translate("SpaceOverview", "Recently updated"),
                QCoreApplication.translate("SpaceOverview", "The cards updated last"),
            ),
        ):
            self.lists.setTabToolTip(self.lists.addTab(table, tab), tip)
        self.save_chart_button = QPushButton(
            QCoreApplication.translate("SpaceOverview", "Save Chart…"), self
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.save_chart_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.source_label)
        layout.addLayout(self.totals)
        layout.addSpacing(8)
        # The chart and the lists share the room as the person drags their border.
        chart_part = QWidget(self)
        chart_layout = QVBoxLayout(chart_part)
        chart_layout.setContentsMargins(0, 0, 0, 0)
        chart_layout.addWidget(self.chart_title)
        chart_layout.addWidget(self.chart, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(chart_part)
        self.splitter.addWidget(self.lists)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(buttons)
        self.resize(first_size(self.screen(), DESIGNED_SIZE))

    def _list(self, heading: str) -> QTableWidget:
        table = QTableWidget(0, 2, self)
        table.setHorizontalHeaderLabels(
            [QCoreApplication.translate("SpaceOverview", "Name"), heading]
        )
        table.horizontalHeader().setStretchLastSection(False)
        table.horizontalHeader().setSectionResizeMode(
            0, table.horizontalHeader().ResizeMode.Stretch
        )
        table.verticalHeader().hide()
        # Rows as high as a line of text: a small screen still shows several names.
        rows = table.verticalHeader()
        rows.setSectionResizeMode(rows.ResizeMode.Fixed)
        rows.setDefaultSectionSize(table.fontMetrics().height() + ROW_PADDING)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setTabKeyNavigation(False)  # Tab leaves the list; the arrows move in it
        table.setAccessibleName(heading)
        return table

    def show_working(self, source: str) -> None:
        """Say what is being worked out, with the figures empty meanwhile."""
        self.source_label.setText(source)
        for key in self._totals:
            self._set_total(key, "…")
        self.save_chart_button.setEnabled(False)

    def show_overview(self, overview: SpaceOverview, source: str) -> None:
        locale = QLocale()
        self.source_label.setText(source)
        self._set_total("cards", locale.toString(overview.cards))
        self._set_total("public", locale.toString(overview.public))
        self._set_total("private", locale.toString(overview.private))
        self._set_total(
            "emails",
            QCoreApplication.translate("SpaceOverview", "not loaded")
            if overview.with_emails is None
            else locale.toString(overview.with_emails),
        )
        self.chart.set_months(overview.per_month)
        self._fill(self.most_connects, overview.most_connects)
        self._fill(self.most_connected, overview.most_connected)
        self._fill(self.recently_updated, overview.recently_updated)
        self.save_chart_button.setEnabled(bool(overview.per_month))

    def total(self, key: str) -> str:
        """A figure as shown: "cards", "public", "private" or "emails"."""
        return self._totals[key].text()

    def _set_total(self, key: str, text: str) -> None:
        """Show `text`, heard with its field ("Cards: 240") as the details pane does."""
        self._totals[key].setText(text)
        self._totals[key].setAccessibleName(f"{self._titles[key]}: {text}")

    def _fill(self, table: QTableWidget, ranked: list[RankedCard]) -> None:
        table.setRowCount(len(ranked))
        for row, card in enumerate(ranked):
            name = QTableWidgetItem(
                card.name or QCoreApplication.translate("SpaceOverview", "(no name)")
            )
            value = card.value
            text = (
                format_local_time(value)
                if isinstance(value, datetime)
                else QLocale().toString(value)
            )
            number = QTableWidgetItem(text)
            number.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(row, 0, name)
            table.setItem(row, 1, number)
        table.resizeColumnToContents(1)


class OverviewWindowParts(Protocol):
    """What the command reads of the main window (its parent)."""

    model: CardTableModel
    whole_space: WholeSpaceView
    error_bar: ErrorBar
    jobs: WholeSpaceJobs

    def ask_export_path(self, suggested: Path, title: str = "") -> Path | None: ...

    def statusBar(self) -> QStatusBar: ...


class OverviewCommand(QObject):
    """Opens the overview of the space shown and works it out off the window's thread."""

    def __init__(self, window: QWidget, parts: OverviewWindowParts) -> None:
        super().__init__(window)
        self._parent, self._parts = window, parts
        self._tasks = TaskSet()
        self.window: OverviewWindow | None = None

    def _source(self) -> OverviewSource | None:
        """The whole space's copy, shown or not, else the page's cards; None: no space."""
        space = self._parts.whole_space.model
        if space is not None:
            return OverviewSource(space.path.stem, copy=space.path)
        page, request = self._parts.model.page, self._parts.model.current_request
        if request is None or page is None:
            return None
        copy = self._parts.whole_space.store_path(request.space_id)
        if copy is not None and copy.is_file():
            return OverviewSource(request.space_id, copy=copy)
        return OverviewSource(
            request.space_id, cards=tuple(page.cards), with_emails=request.with_emails
        )

    def _note(self, text: str, milliseconds: int) -> None:
        self._parts.statusBar().showMessage(text, milliseconds)

    def _failed(self, message: str, detail: str) -> None:
        self._parts.error_bar.show_error(message, detail, retryable=False)

    def _ask_path(self, suggested: Path, title: str) -> Path | None:
        return self._parts.ask_export_path(suggested, title)

    def open(self) -> None:
        """Show the overview of the space shown (the window comes up at once)."""
        source = self._source()
        if source is None:
            self._note(QCoreApplication.translate("SpaceOverview", "Open a space first."), 5000)
            return
        if self.window is None:
            self.window = OverviewWindow(self._parent)
            self.window.save_chart_button.clicked.connect(self.save_chart)
        window = self.window
        window.setWindowTitle(
            QCoreApplication.translate("SpaceOverview", "Overview of %1").replace(
                "%1", source.space_id
            )
        )
        window.show_working(self._working_text(source))
        window.show()
        window.raise_()
        self._tasks.start(self._work_out(source), name="overview")

    def save_chart(self) -> None:
        """Ask where, then save the chart as a PNG picture."""
        if self.window is None:
            return
        name = f"{self.window.windowTitle()}.png".replace("/", "-")
        path = self._ask_path(
            self._parts.jobs.export_dir / name,
            QCoreApplication.translate("SpaceOverview", "Save Chart"),
        )
        if path is None:
            return
        if not path.suffix:
            path = path.with_suffix(".png")
        try:
            write_atomically(path, png_bytes(self.window.chart.image()))
        except OSError as error:
            log.warning("saving the chart to %s failed: %s", path, error)
            message = QCoreApplication.translate(
                "SpaceOverview", "The chart could not be saved as %1. %2"
            ).replace("%1", str(path))
            self._failed(message.replace("%2", write_failure_text(error)), repr(error))
            return
        self._parts.jobs.remember_folder(path)
        self._note(
            QCoreApplication.translate("SpaceOverview", "Saved the chart to %1").replace(
                "%1", str(path)
            ),
            5000,
        )

    async def aclose(self) -> None:
        await self._tasks.aclose()

    def _working_text(self, source: OverviewSource) -> str:
        if source.copy is not None:
            return QCoreApplication.translate(
                "SpaceOverview", "Working out the overview of every card of the local copy…"
            )
        return self._page_text(source)

    def _page_text(self, source: OverviewSource) -> str:
        text = QCoreApplication.translate(
            "SpaceOverview",
            "Only the %1 cards loaded from the server: sync the space (View → Sync Space) "
            "for an overview of every card.",
        )
        return text.replace("%1", QLocale().toString(len(source.cards)))

    async def _work_out(self, source: OverviewSource) -> None:
        window = self.window
        try:
            if source.copy is not None:  # a process: on a thread it held up every paint
                overview, synced = await in_a_process(overview_of_copy, source.copy)
            else:
                overview, synced = await asyncio.to_thread(_overview_of, source)
        except (StoreError, sqlite3.Error, OSError, JobEnded) as error:
            log.warning("the overview of %s failed: %r", source.space_id, error)
            if window is not None:
                window.show_working(_failure_text(error))
            return
        if window is None:
            return
        if synced is not None:
            when = format_local_time(synced)
            text = QCoreApplication.translate(
                "SpaceOverview", "Every card of the local copy synced %1."
            ).replace("%1", when)
        else:
            text = self._page_text(source)
        window.show_overview(overview, text)


def png_bytes(image: QImage) -> bytes:
    """`image` as a PNG file's bytes."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QImageWriter(buffer, QByteArray(b"png"))
    if not writer.write(image):
        raise OSError(writer.errorString())
    return bytes(buffer.data().data())


def _overview_of(source: OverviewSource) -> tuple[SpaceOverview, None]:
    """The overview of the cards loaded (a copy's is `overview_of_copy`)."""
    return space_overview(source.cards, with_emails=source.with_emails), None


def _failure_text(error: Exception) -> str:
    """Why the overview of a local copy could not be worked out."""
    if isinstance(error, StoreError):
        return store_error_text(error)
    if isinstance(error, JobEnded):
        return QCoreApplication.translate(
            "SpaceOverview", "Working out the overview stopped unexpectedly; open it again."
        )
    return QCoreApplication.translate(
        "SpaceOverview", "The local copy could not be read: %1"
    ).replace("%1", str(error))
