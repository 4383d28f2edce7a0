"""What a screen reader says on its own, and the names of the small buttons Qt adds.

A change that appears somewhere other than where the keyboard is (a page arrives, a
filter leaves three cards, an error shows above the table) is seen, not heard: a
screen reader reads what has the focus. `announce()` hands such a change to it as an
announcement (`QAccessibleAnnouncementEvent`, on Linux AT-SPI's `Announcement`),
spoken once, after what it is saying (polite) or at once (assertive, for errors).

Qt's own clear button of a text field, and any icon a field shows, has no name;
`name_clear_button()` and `name_field_button()` give them one.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QAction
from PySide6.QtWidgets import QLineEdit, QToolButton

CLEAR_ACTION = "_q_qlineeditclearaction"
"""The object name Qt gives the action behind a text field's clear button."""


def announce(source: QObject, message: str, *, assertive: bool = False) -> None:
    """Have a screen reader say `message`, as said by `source` (a widget of the window).

    Without a screen reader (accessibility not active) this does nothing.
    """
    message = message.strip()
    if not message or not QAccessible.isActive():
        return
    event = QAccessibleAnnouncementEvent(source, message)
    politeness = QAccessible.AnnouncementPoliteness
    event.setPoliteness(politeness.Assertive if assertive else politeness.Polite)
    QAccessible.updateAccessibility(event)


def name_clear_button(edit: QLineEdit, name: str, tip: str) -> None:
    """Name the clear button of `edit`, which Qt leaves without one, and give it `tip`.

    The tip is the button's tooltip and what a screen reader says after its name, so it
    says more than the name. Call after `setClearButtonEnabled(True)`.
    """
    action = edit.findChild(QAction, CLEAR_ACTION)
    if action is not None:
        name_field_button(edit, action, name, tip)


def name_field_button(edit: QLineEdit, action: QAction, name: str, tip: str = "") -> None:
    """Name the icon button that shows `action` inside `edit`; `tip` is its tooltip.

    The name goes to the button, not to the action's text, which the button would
    count as text it shows (it shows only the icon).
    """
    if tip:
        action.setToolTip(tip)
    for button in edit.findChildren(QToolButton):
        if button.defaultAction() is action:
            button.setAccessibleName(name)
