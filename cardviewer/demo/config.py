"""How a demo server is set up: read by the server, its handlers and the command line,
so it stands apart from all three."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta


@dataclass
class DemoConfig:
    """What the server holds and how it behaves; `latency` etc. may change while it runs."""

    card_count: int = 240
    per_page: int = 10
    latency: float = 0.0
    """Seconds to wait before each API answer."""
    avatar_latency: float = 0.0
    """Seconds to wait before each avatar answer."""
    token_lifetime: timedelta = field(default_factory=lambda: timedelta(hours=8))
    seed: int = 1
