"""Asked before local copies of synced spaces are deleted: syncing one again can take minutes.

Remove Local Copies (Preferences) deletes every one; Sign Out deletes the account's.
Neither can be undone, and nothing else in the window says what goes with them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget


def confirm_removal(parent: QWidget | None, *, signing_out: bool = False) -> bool:
    """Whether the person agrees that the local copies go (with the sign-in, `signing_out`)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    if signing_out:
        title = QCoreApplication.translate("RemovalQuestion", "Sign Out")
        text = QCoreApplication.translate(
            "RemovalQuestion",
            "Signing out also removes the spaces this account synced from this computer.",
        )
        action = QCoreApplication.translate("RemovalQuestion", "Sign Out")
    else:
        title = QCoreApplication.translate("RemovalQuestion", "Remove Local Copies")
        text = QCoreApplication.translate(
            "RemovalQuestion", "Remove all synced spaces from this computer?"
        )
        action = QCoreApplication.translate("RemovalQuestion", "Remove")
    box.setWindowTitle(title)
    box.setText(text)
    box.setInformativeText(
        QCoreApplication.translate(
            "RemovalQuestion",
            "To browse a space offline again, Sync Space fetches all of its cards again.",
        )
    )
    confirm = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is confirm
