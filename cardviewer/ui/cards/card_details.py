"""One card at a readable size: its picture, every field, and buttons to copy from it.

A table row squeezes a card into one line; here each value gets room to wrap, can be
selected, a nested object reads as one `Key: value` line per field and a list as a
short line per item (`value_text`). No value widens the pane: text wraps within its
width, and a word too long for it is cut off at the edge, its whole in the tooltip.
A value that did not validate is shown as the JSON it came as. The copy buttons hand
the handle, the e-mail addresses and the whole card to whatever the person pastes
into next.

A screen reader hears each value with its field ("Position: Head of Sales"), a value
not set as "not set", the picture as whose it is, and the buttons by the words they
show; a description adds only what the name does not say (the exact time, what an
invalid value was), never markup.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication, QPalette, QPixmap
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from cardviewer.api.models import Card
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.card_columns import (
    ID_KEY,
    Column,
    ValueKind,
    build_columns,
)
from cardviewer.services.store_copies import Change
from cardviewer.ui.cards.card_qr_code import AskPath, CardQrCode
from cardviewer.ui.cards.card_table_model import avatar_url, picture_text
from cardviewer.ui.cards.change_marks import changed_columns, changed_fields_text
from cardviewer.ui.cards.columns import (
    column_titles,
)
from cardviewer.ui.cards.detail_row import SELECTABLE, DetailRow, fit_width, json_ready
from cardviewer.ui.cards.form_wrapping import FormWrapping
from cardviewer.ui.export_path import ask_export_path
from cardviewer.ui.plain_text import plain_tooltip
from cardviewer.ui.wrapping_row import WrappingRow

AVATAR_SIZE = 128
"""Width and height of the picture in logical pixels; a loader of this size keeps it sharp."""
NAME_KEY = "display_name"


def _set_tip(widget: QWidget, text: str, *, plain: bool = False) -> None:
    """`text` as the tooltip of `widget` and what a screen reader says after its name.

    `plain`: text from the server, shown literally; the reader gets it without the
    markup that keeps it literal in a tooltip.
    """
    widget.setToolTip(plain_tooltip(text) if plain else text)
    widget.setAccessibleDescription(text)


def card_json(card: Card) -> str:
    """The card as the server sent it, pretty-printed: unknown fields and bad values included.

    Fields the server left out stay out; a value that did not validate is put back as
    it came. Times are written as the platform writes them (UTC, microseconds, `Z`).
    """
    fields = card.model_dump(exclude_unset=True)
    invalid = card.invalid_fields
    ordered: dict[str, Any] = {}
    for key in Card.model_fields:
        if key in invalid:
            ordered[key] = invalid[key]
        elif key in fields:
            ordered[key] = fields[key]
    ordered.update(card.extra_fields)
    return json.dumps(json_ready(ordered), ensure_ascii=False, indent=2, default=str)


class CardDetailsPane(QWidget):
    """Shows the card given to `set_card()`, or a short hint while there is none.

    `avatars` supplies the picture; one made with `size=AVATAR_SIZE` gives a sharp one,
    a smaller one is scaled up smoothly. `copied` carries a line for the status bar,
    `failed` a file that could not be saved (the message and its detail). Below the
    fields, the card's contact as a QR code; `ask_path` asks where to save it, `saved`
    tells the file it went to.
    """

    copied = Signal(str)
    failed = Signal(str, str)
    saved = Signal(Path)

    def __init__(
        self,
        avatars: AvatarLoader | None,
        parent: QWidget | None = None,
        ask_path: AskPath | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("cardDetailsPane")
        self._avatars = avatars
        self._card: Card | None = None
        self._avatar_url: str | None = None
        self._rows: list[DetailRow] = []
        if avatars is not None:
            avatars.avatarReady.connect(self._on_avatar_ready)

        self.placeholder_label = QLabel(self)
        self.offer_hint(True)
        self.placeholder_label.setObjectName("cardDetailsPlaceholder")
        self.placeholder_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder_label.setWordWrap(True)
        self.placeholder_label.setMargin(24)
        self.placeholder_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)

        self.avatar_label = QLabel(self)
        self.avatar_label.setObjectName("cardDetailsAvatar")
        self.avatar_label.setFixedSize(AVATAR_SIZE, AVATAR_SIZE)
        self.avatar_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.avatar_label.setAccessibleName(self.tr("Picture"))  # whose, once a card is shown
        self.avatar_label.setVisible(avatars is not None)

        self.name_label = QLabel(self)
        self.name_label.setObjectName("cardDetailsName")
        self.name_label.setTextFormat(Qt.TextFormat.PlainText)
        self.name_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.name_label.setWordWrap(True)
        self.name_label.setTextInteractionFlags(SELECTABLE)
        heading = QFont(self.name_label.font())
        heading.setPointSizeF(heading.pointSizeF() * 1.4)
        heading.setBold(True)
        self.name_label.setFont(heading)
        # Under the name: what the last sync did to the card (removed it, changed fields).
        self.change_label = QLabel(self)
        self.change_label.setTextFormat(Qt.TextFormat.PlainText)
        self.change_label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.change_label.setWordWrap(True)
        self.change_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.change_label.hide()
        fit_width(self.name_label)

        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.form.setFormAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.form.setHorizontalSpacing(16)
        self.form.setVerticalSpacing(8)

        content = QWidget()
        content.setObjectName("cardDetailsContent")
        content_layout = self._content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(16, 16, 16, 16)
        content_layout.setSpacing(8)
        content_layout.addWidget(self.avatar_label, 0, Qt.AlignmentFlag.AlignHCenter)
        content_layout.addWidget(self.name_label)
        content_layout.addWidget(self.change_label)
        content_layout.addSpacing(8)
        content_layout.addLayout(self.form)
        self.qr_code = CardQrCode(ask_path or self._ask_qr_path, content)
        self.qr_code.copied.connect(self.copied)
        self.qr_code.failed.connect(self.failed)
        self.qr_code.saved.connect(self.saved)
        self.qr_code.codeShown.connect(self.updateGeometry)  # its code's may be wider
        content_layout.addWidget(self.qr_code)
        content_layout.addStretch(1)

        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("cardDetailsScroll")
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.scroll_area.setWidget(content)
        # A stop of its own for Tab, where the arrow and page keys scroll a long card.
        self.scroll_area.setAccessibleName(self.tr("Card details"))
        self._form_wrapping = FormWrapping(self.form, self.scroll_area, self._form_room)

        # Named by the words they show, so that a person who says them is understood.
        self.copy_handle_button = self._button(self.tr("Copy Username"), self._copy_handle)
        self.copy_emails_button = self._button(self.tr("Copy E-mails"), self._copy_emails)
        self.copy_json_button = self._button(self.tr("Copy as JSON"), self._copy_json)
        self.copy_json_button.setToolTip(self.tr("All of the card's data, as the server sent it"))
        buttons = WrappingRow(spacing=6)
        buttons.setContentsMargins(12, 8, 12, 12)
        for button in (self.copy_handle_button, self.copy_emails_button, self.copy_json_button):
            buttons.addWidget(button)

        details = QWidget(self)
        details_layout = QVBoxLayout(details)
        details_layout.setContentsMargins(0, 0, 0, 0)
        details_layout.setSpacing(0)
        details_layout.addWidget(self.scroll_area, 1)
        details_layout.addLayout(buttons)

        self._stack = QStackedWidget(self)
        self._stack.addWidget(self.placeholder_label)
        self._stack.addWidget(details)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._stack)
        self.set_card(None)

    def _form_room(self) -> int:
        """The form's width, as if the scroll bar were shown: the choice of layout must
        not turn on the bar it brings or takes away."""
        margins = self._content_layout.contentsMargins()
        bar = self.scroll_area.verticalScrollBar().sizeHint().width()
        return self.scroll_area.width() - bar - margins.left() - margins.right()

    def _ask_qr_path(self, suggested: Path) -> Path | None:
        return ask_export_path(self, suggested, self.tr("Save QR Code"))

    def _button(self, text: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text, self)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        button.clicked.connect(slot)
        return button

    # State

    @property
    def card(self) -> Card | None:
        """The card on show."""
        return self._card

    def offer_hint(self, offered: bool) -> None:
        """Say how to see a card's details only while there are cards to select: beside
        a page saying no space is open, or that it has no cards, the pane stays blank."""
        self.placeholder_label.setText(
            self.tr("Select a card to see its details.") if offered else ""
        )

    def set_card(
        self,
        card: Card | None,
        columns: Sequence[Column] | None = None,
        *,
        change: Change | None = None,
        before: Card | None = None,
    ) -> None:
        """Show `card` with the rows of `columns` (the table's), or the hint for None;
        a card the last sync added or removed (as the sync before had it) says so, and
        a changed one names its changed fields and shows what they were `before`.

        Without `columns` the card's own fields decide: e-mails if they were loaded,
        and every field the specification does not list.
        """
        self._card = card
        if card is None:
            self._clear_rows()
            self._avatar_url = None
            self.change_label.hide()
            self.avatar_label.clear()
            self.name_label.clear()
            self.qr_code.set_card(None)
            self._stack.setCurrentWidget(self.placeholder_label)
            self.updateGeometry()
            return
        if columns is None:
            columns = build_columns(
                (card,), with_emails=card.emails is not None, titles=column_titles()
            )
        name = card.display_name if NAME_KEY not in card.invalid_fields else None
        self.name_label.setText(name or self.tr("(no name)"))
        self.avatar_label.setAccessibleName(picture_text(card))
        changed = changed_columns(columns, card, before) if before is not None else frozenset()
        if change is Change.ADDED:
            self.change_label.setText(self.tr("Added by the last sync"))
        elif change is Change.REMOVED:
            self.change_label.setText(self.tr("Removed by the last sync"))
        elif before is not None:
            self.change_label.setText(
                changed_fields_text([columns[number].title for number in sorted(changed)])
            )
        noted = change in (Change.ADDED, Change.REMOVED) or before is not None
        self.change_label.setVisible(noted)
        whose = self.name_label.text()
        if noted:
            whose = f"{whose}. {self.change_label.text()}"
        self.scroll_area.setAccessibleDescription(whose)  # whose details
        fields = []
        for number, column in enumerate(columns):
            was = before if number in changed else None
            if column.key == ID_KEY:
                continue  # for files and programs; the table shows it on request
            shown_above = column.kind is ValueKind.AVATAR or (column.key == NAME_KEY and name)
            if shown_above and was is None:
                continue  # the picture and the heading already show these
            fields.append((column, was))
        self._fill_rows(fields, card)
        self._form_wrapping.update()
        self.updateGeometry()
        self._avatar_url = avatar_url(card)
        if self._avatars is not None:
            self._avatars.request(self._avatar_url)
        self._show_avatar()
        self._update_buttons(card)
        self.qr_code.set_card(card)
        self.scroll_area.verticalScrollBar().setValue(0)
        self._stack.setCurrentIndex(1)

    # Rows

    def _clear_rows(self) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._rows.clear()

    def _fill_rows(self, fields: Sequence[tuple[Column, Card | None]], card: Card) -> None:
        """A row per field, each with what it was before if given: the rows already
        there are filled anew, more are made or the surplus removed."""
        while len(self._rows) > len(fields):
            self._rows.pop()
            self.form.removeRow(len(self._rows))
        while len(self._rows) < len(fields):
            row = DetailRow()
            self.form.addRow(row.title, row.field)
            self._rows.append(row)
        for row, (column, before) in zip(self._rows, fields, strict=True):
            row.show(column, card, before)

    # The picture

    def _on_avatar_ready(self, url: str) -> None:
        if url == self._avatar_url:
            self._show_avatar()

    def _show_avatar(self) -> None:
        if self._avatars is None or self._card is None:
            return
        pixmap = self._avatars.pixmap(self._avatar_url) or self._avatars.placeholder()
        self.avatar_label.setPixmap(self._scaled(pixmap))

    def _scaled(self, pixmap: QPixmap) -> QPixmap:
        """`pixmap` at the picture's size with as many pixels as the screen has there."""
        ratio = self.devicePixelRatioF()
        side = max(1, math.ceil(AVATAR_SIZE * ratio))
        if pixmap.width() != side or pixmap.height() != side:
            pixmap = pixmap.scaled(
                side,
                side,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        pixmap.setDevicePixelRatio(ratio)
        return pixmap

    def minimumSizeHint(self) -> QSize:
        """Never narrower than the card it shows: scrolled sideways, the pane hid the end
        of every value, and the QR code's buttons.

        Worked out afresh while a card is shown, as its code and rows settle; without
        one (as the window is built, when layouts ask some forty times) the hint alone.
        """
        hint = super().minimumSizeHint()
        area, content = self.scroll_area, self.scroll_area.widget()
        if self._card is None or content is None:
            return hint
        bar = area.verticalScrollBar().sizeHint().width()
        least = content.minimumSizeHint().width() + bar + 2 * area.frameWidth()
        return hint.expandedTo(QSize(least, 0))

    def changeEvent(self, event: QEvent) -> None:
        # Moved to a screen of another pixel density, or a new palette: redraw the picture.
        if event.type() in (QEvent.Type.DevicePixelRatioChange, QEvent.Type.PaletteChange):
            self._show_avatar()
        super().changeEvent(event)

    # Copying

    def _update_buttons(self, card: Card) -> None:
        self.copy_handle_button.setEnabled(bool(card.username))
        if card.username:
            _set_tip(self.copy_handle_button, card.username, plain=True)
        else:
            _set_tip(self.copy_handle_button, self.tr("This card has no handle."))
        emails = card.emails
        self.copy_emails_button.setEnabled(bool(emails))
        if emails is None:
            tip = self.tr("Turn on “Include e-mails” to load the cards' e-mail addresses.")
            _set_tip(self.copy_emails_button, tip)
        elif not emails:
            _set_tip(self.copy_emails_button, self.tr("This card has no e-mail addresses."))
        else:
            _set_tip(self.copy_emails_button, "\n".join(emails), plain=True)

    def _copy_handle(self) -> None:
        if self._card is None or not self._card.username:
            return
        self._copy(self._card.username, self.tr("Copied the username"))

    def _copy_emails(self) -> None:
        emails = self._card.emails if self._card is not None else None
        if not emails:
            return
        if len(emails) == 1:
            message = self.tr("Copied the e-mail address")
        else:
            message = self.tr("Copied %n e-mail addresses", "", len(emails))
        self._copy("\n".join(emails), message)

    def _copy_json(self) -> None:
        if self._card is not None:
            self._copy(card_json(self._card), self.tr("Copied the card as JSON"))

    def _copy(self, text: str, message: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(message)
