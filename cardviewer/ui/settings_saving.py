"""Saving the settings from the window's parts, where a failure must not stop the window."""

from __future__ import annotations

import logging

from cardviewer.services.settings import Settings

log = logging.getLogger(__name__)


def save_settings(settings: Settings) -> None:
    """Write `settings`; a disk that refuses is logged, and the window goes on without."""
    try:
        settings.save()
    except OSError as exc:
        # Settings are a convenience; the window keeps working without them.
        log.warning("settings not saved: %s", exc)
