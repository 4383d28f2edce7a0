"""What an error says, in the interface's language.

The API layer has no Qt; its sentences are `Sentence`s, English with the template
the catalogs know (context "ApiErrors"), and are translated here, where they are shown.
A message the server wrote itself is shown as it came.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication

from cardviewer.api.errors import TRANSLATION_CONTEXT, Sentence

log = logging.getLogger(__name__)


def error_text(error: BaseException) -> str:
    """`str(error)`, translated where the catalog has its sentence."""
    message = getattr(error, "message", None)
    if not isinstance(message, Sentence):
        return str(error)
    translated = QCoreApplication.translate(TRANSLATION_CONTEXT, message.template)
    try:
        return translated.format(**message.values)
    except (KeyError, IndexError, ValueError) as exc:
        log.warning("the translation of %r does not fit its values: %s", message.template, exc)
        return str(message)
