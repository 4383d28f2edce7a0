"""The window's toolbar: the space field, its commands, and whether e-mails come along."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSizePolicy, QToolBar, QWidget

from cardviewer.services.settings import Settings
from cardviewer.ui.space_field import SpaceField


class SpaceToolbar(QToolBar):
    """The space field with the actions beside it; the e-mails check; the actions at the end.

    The check starts as the settings say; what it means for the page shown is the
    window's to decide.
    """

    def __init__(
        self,
        settings: Settings,
        space_actions: list[QAction],
        end_actions: list[QAction],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(QCoreApplication.translate("MainWindow", "Space"), parent)
        self.setObjectName("spaceToolbar")
        self.setMovable(False)
        self.setFloatable(False)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setIconSize(QSize(16, 16))
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.PreventContextMenu)

        # The label beside the field, not in a box of its own: a screen reader finds a
        # field's label among the field's siblings.
        space_label = QLabel(QCoreApplication.translate("MainWindow", "S&pace:"), self)
        space_label.setContentsMargins(4, 0, 6, 0)
        self.space_field = SpaceField(settings, self)
        space_label.setBuddy(self.space_field)

        self.include_emails_check = QCheckBox(
            QCoreApplication.translate("MainWindow", "Include e-&mails"), self
        )
        self.include_emails_check.setChecked(settings.include_emails)
        self.include_emails_check.setToolTip(
            QCoreApplication.translate(
                "MainWindow", "Also load the cards' e-mail addresses (shown as an extra column)"
            )
        )

        self.addWidget(space_label)
        self.addWidget(self.space_field)
        self.addActions(space_actions)
        self.addSeparator()
        self.addWidget(_padded(self.include_emails_check, left=4, right=4))
        spacer = QWidget(self)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.addWidget(spacer)
        self.addActions(end_actions)
        self._width_with_texts = self._width_with_icons = 0
        self._measure()

    def minimumSizeHint(self) -> QSize:
        """As narrow as the toolbar with icons only: the window is never narrower."""
        return QSize(self._width_with_icons, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Buttons with their texts where they fit; with icons only where they do not.

        A toolbar too narrow for its buttons hides the last ones behind a » menu, out of
        reach of Tab; icons with the texts as tooltips keep every command in view.
        """
        super().resizeEvent(event)
        self._fit_buttons()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.FontChange):
            self._measure()  # the new texts or font take another width
            self._fit_buttons()

    def _measure(self) -> None:
        """How wide the toolbar is with icons only, and with the texts beside them."""
        before = self.toolButtonStyle()
        self._width_with_icons = self._width_in(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self._width_with_texts = self._width_in(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setToolButtonStyle(before)
        self.updateGeometry()

    def _width_in(self, style: Qt.ToolButtonStyle) -> int:
        self.setToolButtonStyle(style)
        layout = self.layout()
        if layout is not None:  # a toolbar's own; it keeps the sizes of the style before
            layout.invalidate()
        return self.sizeHint().width()

    def _fit_buttons(self) -> None:
        fits = self.width() >= self._width_with_texts
        self.setToolButtonStyle(
            Qt.ToolButtonStyle.ToolButtonTextBesideIcon
            if fits
            else Qt.ToolButtonStyle.ToolButtonIconOnly
        )


def _padded(widget: QWidget, *, left: int = 0, right: int = 0) -> QWidget:
    """`widget` with some room either side, for toolbars that pack widgets tightly."""
    box = QWidget(widget.parentWidget())
    layout = QHBoxLayout(box)
    layout.setContentsMargins(left, 0, right, 0)
    layout.addWidget(widget)
    return box
