"""The toolbar's space field: type a space id, or pick one of the recent ones.

The list is the settings' recent spaces; a space whose page arrived moves to its top.
An id that was typed but did not open is dropped from the list again.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from cardviewer.services.settings import Settings
from cardviewer.ui.announcements import name_clear_button
from cardviewer.ui.settings_saving import save_settings


class SpaceField(QComboBox):
    """An editable list of recent space ids; Enter or a choice emits `activated`."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self.setEditable(True)
        # Enter adds the text to the list and emits `activated`, as choosing from it does.
        self.setInsertPolicy(QComboBox.InsertPolicy.InsertAtTop)
        self.setMaxCount(50)
        self.setMinimumContentsLength(20)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        tip = QCoreApplication.translate("MainWindow", "The id of the space whose cards to show")
        self.setToolTip(tip)
        name = QCoreApplication.translate("MainWindow", "Space id")
        self.setAccessibleName(name)
        self.space_edit = QLineEdit(self)
        self.setLineEdit(self.space_edit)
        # The text field is what a screen reader reads while typing: named, not just
        # its value (on Linux a combo box's own name is its text), and described by
        # more than its placeholder, which is its name.
        self.space_edit.setAccessibleName(name)
        self.space_edit.setAccessibleDescription(tip)
        self.space_edit.setPlaceholderText(name)
        self.space_edit.setClearButtonEnabled(True)
        name_clear_button(
            self.space_edit,
            QCoreApplication.translate("MainWindow", "Clear the space id"),
            QCoreApplication.translate("MainWindow", "Empties the field, to type another id"),
        )
        completer = self.completer()
        if completer is not None:
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseSensitive)
        self.fill_recent_spaces(settings.last_space)

    @property
    def space_text(self) -> str:
        """The space id as typed, without the spaces around it."""
        return self.currentText().strip()

    def fill_recent_spaces(self, text: str | None = None) -> None:
        """List the recent spaces; the field shows `text` (default: what it shows now)."""
        if text is None:
            text = self.currentText()
        with QSignalBlocker(self):
            self.clear()
            self.addItems(self._settings.recent_spaces)
            self.show_space(text)

    def show_space(self, space_id: str) -> None:
        """Show `space_id` in the field without emitting `activated`.

        When the text is a listed space, that item must be the current one: an editable
        combo box "activates" a matching item when the field loses focus.
        """
        with QSignalBlocker(self):
            self.setCurrentIndex(self.findText(space_id, Qt.MatchFlag.MatchExactly))
            self.setEditText(space_id)

    def remember_space(self, space_id: str) -> None:
        """Put `space_id` at the top of the recent spaces, and save them if that changed them."""
        settings = self._settings
        if settings.recent_spaces[:1] == [space_id] and settings.last_space == space_id:
            return
        settings.remember_space(space_id)
        save_settings(settings)
        self.fill_recent_spaces()

    def focus(self) -> None:
        """Put the cursor in the field with its text selected, ready to type another id."""
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.space_edit.selectAll()
