"""The Preferences dialog: server address, export choices, language, and two clean-ups.

The dialog edits a `Settings` object and saves it when the person presses OK; Cancel
leaves both the object and the file as they were. What the app does with a change is
not the dialog's business: it emits `settingsChanged` after a save, and asks for the
two actions that act at once (clearing the avatar cache, signing out) by signals.

The CSV delimiter "Automatic" is decided here from Qt's locale, by the rule that
`cardviewer export` follows too (`services.csv_delimiter`), because the settings
module stays free of Qt; `export_csv_delimiter()` is what an export should use.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from itertools import pairwise

from PySide6.QtCore import QLocale, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from cardviewer import APP_NAME
from cardviewer.api import InvalidInput, normalize_server_url
from cardviewer.services.csv_delimiter import delimiter_for_decimal_point
from cardviewer.services.settings import (
    MAX_EXPORT_CONCURRENCY,
    MIN_EXPORT_CONCURRENCY,
    Settings,
)
from cardviewer.ui.error_text import error_text, failure_reason_text
from cardviewer.ui.read_only_field import make_read_only
from cardviewer.ui.removal_question import confirm_removal
from cardviewer.ui.wrapped_height import fit_height

log = logging.getLogger(__name__)

HINT_FONT_SCALE = 0.88
MESSAGE_ICON_SIZE = 16
LABEL_OVERHANG = 2
"""Pixels a field's label's text may be drawn wider than Qt measures it (hinting)."""
MIN_FIELD_WIDTH = 520
"""The fields' and hints' width: at 380 the German hints wrapped to a dialog 780 pixels
high, which scrolled on a 1366 x 768 screen; now it is 689 (716 wide)."""

# The languages the app offers, by their own names: a person who cannot read the
# current language still finds theirs, so these are never translated.
LANGUAGES = (("en", "English"), ("de", "Deutsch"))


def locale_csv_delimiter(locale: QLocale | None = None) -> str:
    """The separator the locale's spreadsheets expect: `;` where `,` is the decimal mark.

    The rule is `delimiter_for_decimal_point`'s; `locale` defaults to the
    application's default locale.
    """
    locale = locale if locale is not None else QLocale()
    return delimiter_for_decimal_point(locale.decimalPoint())


def export_csv_delimiter(settings: Settings, locale: QLocale | None = None) -> str:
    """The separator CSV exports use: the person's choice, else the locale's."""
    return settings.csv_delimiter or locale_csv_delimiter(locale)


SCREEN_FRAME = 48
"""Room kept on the screen for the window's title bar and frame."""


def screen_height(window: QWidget) -> int:
    """The height of the screen `window` is on, less the system's panels."""
    return window.screen().availableGeometry().height()


@dataclass(frozen=True)
class _Edited:
    """The values the dialog edits, to apply them in one go or put them back."""

    last_server: str
    export_format: str
    csv_delimiter: str
    export_concurrency: int
    phone_list_qr_codes: bool
    phone_list_pictures: bool
    vcard_photos: bool
    language: str

    @classmethod
    def of(cls, settings: Settings) -> _Edited:
        return cls(
            last_server=settings.last_server,
            export_format=settings.export_format,
            csv_delimiter=settings.csv_delimiter,
            export_concurrency=settings.export_concurrency,
            phone_list_qr_codes=settings.phone_list_qr_codes,
            phone_list_pictures=settings.phone_list_pictures,
            vcard_photos=settings.vcard_photos,
            language=settings.language,
        )

    def apply_to(self, settings: Settings) -> None:
        settings.last_server = self.last_server
        settings.export_format = self.export_format
        settings.csv_delimiter = self.csv_delimiter
        settings.export_concurrency = self.export_concurrency
        settings.phone_list_qr_codes = self.phone_list_qr_codes
        settings.phone_list_pictures = self.phone_list_pictures
        settings.vcard_photos = self.vcard_photos
        settings.language = self.language


class PreferencesDialog(QDialog):
    """Edits the preferences in `settings`; OK saves them, Cancel changes nothing.

    `server_locked`: the administrator set the server address, so it is shown but
    cannot be changed. `signed_in`: whether Sign Out has anything to do; the app
    updates it with `set_signed_in()` once it has signed out. `has_copies`: whether
    there is a synced space to remove (`set_has_copies()` as a sync or a removal ends).
    """

    settingsChanged = Signal()
    """The edited values were saved into the settings (and the file)."""
    clearAvatarCacheRequested = Signal()
    """The person asked to delete the stored profile pictures."""
    removeLocalCopiesRequested = Signal()
    """The person asked, and confirmed, to delete every synced space from this computer."""
    signOutRequested = Signal()
    """The person asked to sign out; the dialog stays open until the app closes it."""

    def __init__(
        self,
        settings: Settings,
        *,
        server_locked: bool = False,
        signed_in: bool = False,
        has_copies: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self._server_locked = server_locked
        self.setWindowTitle(self.tr("Preferences"))
        self.setSizeGripEnabled(False)

        self._create_fields()
        self._create_buttons()
        self._build_layout()
        self._show_settings(settings)
        self.set_signed_in(signed_in)
        self.set_has_copies(has_copies)
        self._set_tab_order()
        self._check_server()
        (self.format_combo if server_locked else self.server_edit).setFocus()

    # Building

    def _create_fields(self) -> None:
        self.server_edit = QLineEdit(self)
        self.server_edit.setPlaceholderText(self.tr("https://cards.example.com"))
        self.server_edit.setAccessibleName(self.tr("Server address"))
        self.server_edit.setMinimumWidth(MIN_FIELD_WIDTH)
        self.server_edit.textChanged.connect(self._check_server)
        if self._server_locked:
            make_read_only(self.server_edit)
            self.server_edit.setToolTip(self.tr("Set by your administrator"))
            server_hint = self.tr("Set by your administrator.")
        else:
            server_hint = self.tr("The address of your card platform, used when you sign in.")
        self.server_hint = self._hint(server_hint, self.server_edit)
        self._create_server_message()

        self.format_combo = QComboBox(self)
        self.format_combo.addItem(self.tr("CSV"), "csv")
        self.format_combo.addItem(self.tr("Excel workbook (.xlsx)"), "xlsx")
        self.format_combo.setAccessibleName(self.tr("Default export format"))
        self.format_hint = self._hint(
            self.tr("The file type the exports suggest; you can still pick the other."),
            self.format_combo,
        )

        automatic = self.tr("a comma") if locale_csv_delimiter() == "," else self.tr("a semicolon")
        self.delimiter_combo = QComboBox(self)
        self.delimiter_combo.addItem(self.tr("Automatic (from the language: ; or ,)"), "")
        self.delimiter_combo.addItem(self.tr("Comma (,)"), ",")
        self.delimiter_combo.addItem(self.tr("Semicolon (;)"), ";")
        self.delimiter_combo.setAccessibleName(self.tr("CSV delimiter"))
        self.delimiter_hint = self._hint(
            self.tr(
                "German Excel expects semicolons, English Excel commas. Automatic uses %1 here."
            ).replace("%1", automatic),
            self.delimiter_combo,
        )

        self.concurrency_spin = QSpinBox(self)
        self.concurrency_spin.setRange(MIN_EXPORT_CONCURRENCY, MAX_EXPORT_CONCURRENCY)
        self.concurrency_spin.setAccessibleName(self.tr("Pages at once"))
        self.concurrency_hint = self._hint(
            self.tr("How many pages Export All Pages and Sync Space fetch at the same time."),
            self.concurrency_spin,
        )

        self.qr_codes_check = QCheckBox(self.tr("A &QR code beside each card"), self)
        self.qr_codes_hint = self._hint(
            self.tr("Printed and PDF phone lists: a phone's camera reads each card's contact."),
            self.qr_codes_check,
        )

        self.pictures_check = QCheckBox(self.tr("&Each card's picture"), self)
        self.pictures_hint = self._hint(
            self.tr(
                "At the start of each row; a card without one shows its initials. Pictures "
                "not kept on this computer are downloaded, which takes longer."
            ),
            self.pictures_check,
        )

        self.photos_check = QCheckBox(self.tr("Each card's &picture as its photo"), self)
        self.photos_hint = self._hint(
            self.tr(
                "Export as vCards: each contact gets the card's picture. Pictures not kept "
                "on this computer are downloaded, which takes longer."
            ),
            self.photos_check,
        )

        self.language_combo = QComboBox(self)
        self.language_combo.addItem(self.tr("System default"), "")
        for name, native_name in LANGUAGES:
            self.language_combo.addItem(native_name, name)
        self.language_combo.setAccessibleName(self.tr("Language"))
        self.language_hint = self._hint(
            self.tr("Takes effect after %1 is restarted.").replace("%1", APP_NAME),
            self.language_combo,
        )

    def _create_server_message(self) -> None:
        """A warning beside an address that cannot be used, like the sign-in dialog's."""
        self.server_message_icon = QLabel(self)
        icon = QIcon.fromTheme(
            QIcon.ThemeIcon.DialogWarning,
            self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning),
        )
        self.server_message_icon.setPixmap(icon.pixmap(MESSAGE_ICON_SIZE, MESSAGE_ICON_SIZE))
        self.server_message_label = QLabel(self)
        self.server_message_label.setObjectName("preferencesServerMessage")
        self.server_message_label.setTextFormat(Qt.TextFormat.PlainText)  # echoes the input
        self.server_message_label.setWordWrap(True)
        self.server_message_label.setMinimumWidth(MIN_FIELD_WIDTH - MESSAGE_ICON_SIZE - 6)
        self.server_message_frame = QFrame(self)
        layout = self._server_message_layout = QHBoxLayout(self.server_message_frame)
        layout.setContentsMargins(0, 0, 0, 6)
        layout.setSpacing(6)
        layout.addWidget(self.server_message_icon, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.server_message_label, 1)

    def _hint(self, text: str, field: QWidget) -> QLabel:
        """A short explanation under a field, smaller and greyer than the labels."""
        hint = QLabel(text, self)
        hint.setTextFormat(Qt.TextFormat.PlainText)
        hint.setWordWrap(True)
        # Wrapped at the fields' width: left to itself a wrapped label picks a narrower
        # one, and the form then reserves the height of that many lines.
        hint.setMinimumWidth(MIN_FIELD_WIDTH)
        font = hint.font()
        font.setPointSizeF(font.pointSizeF() * HINT_FONT_SCALE)
        hint.setFont(font)
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        hint.setContentsMargins(0, 0, 0, 6)  # room before the next field
        field.setAccessibleDescription(text)
        return hint

    def _create_buttons(self) -> None:
        self.sign_out_button = QPushButton(self.tr("Sign &Out"), self)
        self.sign_out_button.setAutoDefault(False)
        self.sign_out_button.clicked.connect(self.signOutRequested)
        self.sign_out_hint = self._hint(
            self.tr("Forgets the sign-in on this computer, and the spaces it synced."),
            self.sign_out_button,
        )
        self.clear_cache_button = QPushButton(self.tr("Clear &Avatar Cache"), self)
        self.clear_cache_button.setAutoDefault(False)
        self.clear_cache_button.clicked.connect(self.clearAvatarCacheRequested)
        self.clear_cache_hint = self._hint(
            self.tr("Profile pictures are downloaded again when they are next shown."),
            self.clear_cache_button,
        )

        self.remove_copies_button = QPushButton(self.tr("Remove Local &Copies"), self)
        self.remove_copies_button.setAutoDefault(False)
        self.remove_copies_button.clicked.connect(self._remove_copies)
        self.remove_copies_hint = self._hint(
            self.tr(
                "Deletes the spaces synced to browse offline from this computer; "
                "a new sync brings one back."
            ),
            self.remove_copies_button,
        )

        self.button_box = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.button_box.button(QDialogButtonBox.StandardButton.Ok)
        self.cancel_button = self.button_box.button(QDialogButtonBox.StandardButton.Cancel)
        self.button_box.accepted.connect(self.accept)
        self.button_box.rejected.connect(self.reject)

    def _build_layout(self) -> None:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        form.setHorizontalSpacing(10)
        form.setVerticalSpacing(4)
        self._form = form
        self._add_row(self.tr("&Server address:"), self.server_edit)
        form.addRow("", self.server_message_frame)
        form.addRow("", self.server_hint)
        self._add_row(self.tr("E&xport format:"), self.format_combo, self.format_hint)
        self._add_row(self.tr("CSV &delimiter:"), self.delimiter_combo, self.delimiter_hint)
        self._add_row(
            self.tr("Pages at o&nce:"),
            self.concurrency_spin,
            self.concurrency_hint,
            narrow=True,
        )
        self._add_row(self.tr("Phone list:"), self.qr_codes_check, self.qr_codes_hint)
        self._form.addRow("", self.pictures_check)
        self._form.addRow("", self.pictures_hint)
        self._add_row(self.tr("vCards:"), self.photos_check, self.photos_hint)
        self._add_row(self.tr("&Language:"), self.language_combo, self.language_hint)
        # The buttons below act at once, not on OK: set apart from the preferences.
        separator = QFrame(self)
        separator.setFrameShape(QFrame.Shape.HLine)
        separator.setFrameShadow(QFrame.Shadow.Sunken)
        form.addRow(separator)
        self._add_row(self.tr("Account:"), self.sign_out_button, self.sign_out_hint, narrow=True)
        self._add_row(
            self.tr("Pictures:"), self.clear_cache_button, self.clear_cache_hint, narrow=True
        )
        self._add_row(
            self.tr("Spaces:"),
            self.remove_copies_button,
            self.remove_copies_hint,
            narrow=True,
        )

        # Scrolled only where the screen is lower than the form (800 x 600): OK and
        # Cancel stay on the screen.
        self._fields = QWidget(self)
        self._fields.setLayout(form)
        self._scroll = QScrollArea(self)
        self._scroll.setWidget(self._fields)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._scroll.setAccessibleName(self.tr("Preferences"))
        self._scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # its fields take the focus
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 16)
        layout.setSpacing(14)
        layout.addWidget(self._scroll, 1)
        layout.addWidget(self.button_box)
        self._layout = layout

    def _add_row(
        self, text: str, field: QWidget, hint: QLabel | None = None, *, narrow: bool = False
    ) -> None:
        """A labelled row whose label is the field's buddy (its "&" letter focuses it).

        A `narrow` field keeps its natural width: a spin box or button stretched across
        the dialog looks odd.
        """
        label = FieldLabel(text, self)
        label.setBuddy(field)
        self._form.addRow(label, _at_natural_width(field) if narrow else field)
        if hint is not None:
            self._form.addRow("", hint)

    def _set_tab_order(self) -> None:
        chain = (
            self.server_edit,
            self.format_combo,
            self.delimiter_combo,
            self.concurrency_spin,
            self.qr_codes_check,
            self.pictures_check,
            self.photos_check,
            self.language_combo,
            self.sign_out_button,
            self.clear_cache_button,
            self.remove_copies_button,
            self.ok_button,
            self.cancel_button,
        )
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

    def _show_settings(self, settings: Settings) -> None:
        self.server_edit.setText(settings.last_server)
        _select(self.format_combo, settings.export_format)
        _select(self.delimiter_combo, settings.csv_delimiter)
        self.concurrency_spin.setValue(settings.export_concurrency)
        self.qr_codes_check.setChecked(settings.phone_list_qr_codes)
        self.pictures_check.setChecked(settings.phone_list_pictures)
        self.photos_check.setChecked(settings.vcard_photos)
        if self.language_combo.findData(settings.language) < 0:
            # A language this version does not offer (set by a newer one) stays chosen.
            native = QLocale(settings.language).nativeLanguageName() or settings.language
            self.language_combo.addItem(native, settings.language)
        _select(self.language_combo, settings.language)

    # State

    def confirm_removal(self) -> bool:
        """Whether the person agrees that every synced space goes (asked, modal)."""
        return confirm_removal(self)

    def _remove_copies(self) -> None:
        if self.confirm_removal():
            self.removeLocalCopiesRequested.emit()

    def set_has_copies(self, has_copies: bool) -> None:
        """Enable Remove Local Copies only while a synced space is kept on this computer."""
        self.remove_copies_button.setEnabled(has_copies)

    def set_signed_in(self, signed_in: bool) -> None:
        """Enable Sign Out only while there is a sign-in to end."""
        self.sign_out_button.setEnabled(signed_in)

    def _server_url(self) -> str:
        """The address to save: "" for none, else normalized. Raises `InvalidInput`."""
        text = self.server_edit.text().strip()
        return normalize_server_url(text) if text else ""

    def _check_server(self) -> None:
        """Say at once why an address cannot be used, and keep OK disabled until it can."""
        message = ""
        if not self._server_locked:
            try:
                self._server_url()
            except InvalidInput as exc:
                message = error_text(exc)  # in the interface's language
        self.server_message_label.setText(message)
        self._form.setRowVisible(self.server_message_frame, bool(message))
        self._form.setRowVisible(self.server_hint, not message)
        self.ok_button.setEnabled(not message)
        self._fit_height()

    def _fit_height(self) -> None:
        """At least as high as the wrapped hints and the warning need at the narrowest.

        Qt keeps a window only as high as one line of each wrapped text needs: the
        second line of a hint, or of the warning, would be cut off.
        """
        self._server_message_layout.activate()  # the warning's text has changed
        self._form.activate()
        fields = self._fields
        width = fields.minimumSizeHint().width()
        needed = max(fields.minimumSizeHint().height(), fields.heightForWidth(width))
        room = screen_height(self) - self.button_box.sizeHint().height() - 18 - 16 - 14
        room -= SCREEN_FRAME
        if needed > room:  # scrolled: the scroll bar takes room beside the fields
            width += self._scroll.verticalScrollBar().sizeHint().width()
        self._scroll.setMinimumSize(width, max(0, min(needed, room)))
        fit_height(self, self._layout)

    def _edited(self) -> _Edited:
        """What the form holds. Raises `InvalidInput` for an unusable server address."""
        return _Edited(
            last_server=self.settings.last_server if self._server_locked else self._server_url(),
            export_format=str(self.format_combo.currentData()),
            csv_delimiter=str(self.delimiter_combo.currentData()),
            export_concurrency=self.concurrency_spin.value(),
            phone_list_qr_codes=self.qr_codes_check.isChecked(),
            phone_list_pictures=self.pictures_check.isChecked(),
            vcard_photos=self.photos_check.isChecked(),
            language=str(self.language_combo.currentData()),
        )

    # Closing

    def accept(self) -> None:
        """Save what the form holds; stay open when the address or the save fails."""
        try:
            edited = self._edited()
        except InvalidInput as exc:
            log.info("preferences refused: %s", exc)
            self._check_server()
            self.server_edit.setFocus()
            self.server_edit.selectAll()
            return
        before = _Edited.of(self.settings)
        edited.apply_to(self.settings)
        try:
            self.settings.save()
        except OSError as exc:
            before.apply_to(self.settings)  # Cancel after this must still change nothing
            log.warning("preferences not saved to %s: %s", self.settings.path, exc)
            self._tell_not_saved(exc)
            return
        log.info("preferences saved")
        self.settingsChanged.emit()
        super().accept()

    def _tell_not_saved(self, error: OSError) -> None:
        """Say why, without waiting: the dialog stays open to try again or cancel."""
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("Preferences Not Saved"),
            self.tr("The preferences could not be saved to %1.").replace(
                "%1", str(self.settings.path)
            ),
            QMessageBox.StandardButton.Ok,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)  # a path may hold "<"
        box.setInformativeText(failure_reason_text(error))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()


def _select(combo: QComboBox, data: str) -> None:
    """Choose the item holding `data`; the first when none does."""
    combo.setCurrentIndex(max(0, combo.findData(data)))


class FieldLabel(QLabel):
    """A field's label with room for its text as drawn: QLabel clips its text to its
    size, measured a pixel or two short of hinted glyphs ("CSV-Trennzeichen:" lost its
    colon)."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width() + LABEL_OVERHANG, hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(hint.width() + LABEL_OVERHANG, hint.height())


def _at_natural_width(field: QWidget) -> QWidget:
    """`field` in a box that lets it keep its own width, on the left."""
    box = QWidget(field.parentWidget())
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(field)
    layout.addStretch(1)
    field.setParent(box)
    return box
