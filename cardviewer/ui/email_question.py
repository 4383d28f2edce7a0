"""Asked before vCards, a PDF or a print of cards loaded without their e-mail addresses.

Contacts and a phone list are much less use without e-mail addresses, and the page was
perhaps loaded without them only because *Include e-mails* was left unticked. Loading
them is offered where it can be done at once (a page: it is loaded again with them);
a whole space's copy has them only after a sync with *Include e-mails* ticked.
"""

from __future__ import annotations

import enum

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget


class EmailChoice(enum.Enum):
    """What the person chose: load the addresses first, continue without, or stop."""

    LOAD = "load"
    WITHOUT = "without"
    CANCEL = "cancel"


def ask_about_emails(parent: QWidget | None, *, can_load: bool) -> EmailChoice:
    """Ask whether to load the e-mail addresses first (`can_load`) or continue without them."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(QCoreApplication.translate("MainWindow", "No E-mail Addresses"))
    box.setText(
        QCoreApplication.translate(
            "MainWindow", "These cards were loaded without their e-mail addresses."
        )
    )
    if can_load:
        info = QCoreApplication.translate(
            "MainWindow", "Load them first? The page is loaded again with them, then saved."
        )
    else:
        info = QCoreApplication.translate(
            "MainWindow",
            "The local copy has none. To have them, sync the space again with Include e-mails "
            "ticked.",
        )
    box.setInformativeText(info)
    load = (
        box.addButton(
            QCoreApplication.translate("MainWindow", "Load E-mails"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        if can_load
        else None
    )
    without = box.addButton(
        QCoreApplication.translate("MainWindow", "Continue Without E-mails"),
        QMessageBox.ButtonRole.ActionRole,
    )
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(load or without)
    box.exec()
    clicked = box.clickedButton()
    if load is not None and clicked is load:
        return EmailChoice.LOAD
    if clicked is without:
        return EmailChoice.WITHOUT
    return EmailChoice.CANCEL
