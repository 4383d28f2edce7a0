"""The window's layout between runs: its size and place, the splitter, the columns.

Qt saves each as bytes; the settings keep them as text and `decode_view_state` turns
what cannot be read back into nothing, so a damaged setting only costs the layout.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSize
from PySide6.QtGui import QAction, QScreen
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

from cardviewer.services.settings import Settings, decode_view_state, encode_view_state
from cardviewer.ui.card_area import DEFAULT_SPLITTER_SIZES
from cardviewer.ui.cards.column_layout import TableColumns
from cardviewer.ui.settings_saving import save_settings

DEFAULT_SIZE = QSize(1180, 720)
SCREEN_SHARE = 0.9
"""At most this share of the screen's free area, each way, for a window's first size:
the rest is its frame, and the desktop around it."""


def first_size(screen: QScreen | None, designed: QSize = DEFAULT_SIZE) -> QSize:
    """The `designed` size of a window, made smaller to fit `screen` (a laptop's, a
    projector's)."""
    if screen is None:
        return QSize(designed)
    free = screen.availableGeometry().size()
    return designed.boundedTo(
        QSize(int(free.width() * SCREEN_SHARE), int(free.height() * SCREEN_SHARE))
    )


class WindowLayout:
    """Restores, saves and resets the layout of `window`, whose details pane is in `splitter`."""

    def __init__(
        self,
        window: QMainWindow,
        splitter: QSplitter,
        details_pane: QWidget,
        columns: TableColumns,
        settings: Settings,
    ) -> None:
        self._window = window
        self._splitter = splitter
        self._details_pane = details_pane
        self._columns = columns
        self._settings = settings

    def restore(self) -> None:
        """The layout last saved; what was never saved stays as built."""
        settings = self._settings
        geometry = decode_view_state(settings.window_geometry)
        if geometry:
            self._window.restoreGeometry(QByteArray(geometry))
        state = decode_view_state(settings.window_state)
        if state:
            self._window.restoreState(QByteArray(state))
        splitter = decode_view_state(settings.splitter_state)
        if splitter:
            self._splitter.restoreState(QByteArray(splitter))
            self._details_pane.setVisible(settings.details_visible)

    def save(self) -> None:
        settings, window = self._settings, self._window
        settings.window_geometry = encode_view_state(bytes(window.saveGeometry().data()))
        settings.window_state = encode_view_state(bytes(window.saveState().data()))
        settings.splitter_state = encode_view_state(bytes(self._splitter.saveState().data()))
        settings.header_state = encode_view_state(self._columns.layout.to_json().encode())
        save_settings(settings)

    def first(self) -> None:
        """The window at its first size for its screen (`first_size`), the details pane
        its share of it: on a screen too small for the designed size, both shrink."""
        size = first_size(self._window.screen())
        self._window.resize(size)
        share = min(1.0, size.width() / DEFAULT_SIZE.width())
        self._splitter.setSizes([round(part * share) for part in DEFAULT_SPLITTER_SIZES])

    def reset(self, details_shown: QAction | None = None) -> None:
        """Every column in its first order and width, the window and splitter at first size;
        with `details_shown` (the command showing the details pane), the pane shown too,
        and all of it saved."""
        self._columns.reset()
        self._window.showNormal()
        self.first()
        if details_shown is not None:
            details_shown.setChecked(True)
            self.save()
