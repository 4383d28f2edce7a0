"""A local stand-in for the card platform: its API and avatar host, sample data, faults.

Used by `python -m cardviewer.demo`, the viewer's `--demo` mode, the tests and the
benchmarks. Needs nothing beyond the app's own dependencies; Qt only to draw the sample
avatars (with its image classes, without an application or a display; see `avatars`).
"""

from cardviewer.demo.config import DemoConfig
from cardviewer.demo.data import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    DEMO_SPACE_ID,
    DEMO_SPACE_NAME,
    EMPTY_SPACE_ID,
)
from cardviewer.demo.faults import Fault, FaultInjector
from cardviewer.demo.handler import RecordedRequest
from cardviewer.demo.server import DemoServer

__all__ = [
    "DEMO_EMAIL",
    "DEMO_PASSWORD",
    "DEMO_SPACE_ID",
    "DEMO_SPACE_NAME",
    "EMPTY_SPACE_ID",
    "DemoConfig",
    "DemoServer",
    "Fault",
    "FaultInjector",
    "RecordedRequest",
]
