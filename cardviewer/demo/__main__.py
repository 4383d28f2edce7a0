"""`python -m cardviewer.demo`: run the demo server until Ctrl+C."""

from __future__ import annotations

import argparse
import logging
import sys
import time

from cardviewer.demo.cards_in_the_making import CardsInTheMaking
from cardviewer.demo.config import DemoConfig
from cardviewer.demo.server import DemoServer

WAKE_INTERVAL = 0.25
"""Seconds between two looks at whether Ctrl+C was pressed."""


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _milliseconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of milliseconds: {text!r}") from None
    if not value >= 0:  # also refuses NaN
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value / 1000


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m cardviewer.demo",
        description="Serve the card platform's API with sample data, for trying CardViewer "
        "without an account. Avatars are served from a second port, like the platform's "
        "image host.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    parser.add_argument(
        "--port", type=_non_negative_int, default=8765, help="API port; 0 picks a free one"
    )
    parser.add_argument(
        "--avatar-port",
        type=_non_negative_int,
        default=None,
        metavar="N",
        help="avatar port (default: the API port's next while free, else a free one)",
    )
    parser.add_argument(
        "--cards",
        type=_non_negative_int,
        default=DemoConfig.card_count,
        metavar="N",
        help="number of sample cards in the demo space (%(default)s)",
    )
    parser.add_argument(
        "--latency",
        type=_milliseconds,
        default=0.0,
        metavar="MS",
        help="delay before each API answer, in milliseconds",
    )
    parser.add_argument(
        "--avatar-latency",
        type=_milliseconds,
        default=0.0,
        metavar="MS",
        help="delay before each avatar answer, in milliseconds",
    )
    parser.add_argument("--seed", type=int, default=DemoConfig.seed, help="sample data seed")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every request")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    config = DemoConfig(
        card_count=args.cards,
        latency=args.latency,
        avatar_latency=args.avatar_latency,
        seed=args.seed,
    )
    # The avatars at the same address at every start, as the platform's image host: a
    # new one would make every card's picture "changed" at the next sync of a space.
    follows = args.avatar_port is None and 0 < args.port < 65535
    avatar_port = args.port + 1 if follows else args.avatar_port or 0
    server = DemoServer(config, host=args.host, port=args.port, avatar_port=avatar_port)
    try:
        server.start(free_avatar_port_if_taken=follows)
    except OSError as exc:
        print(f"Cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        print(
            "CardViewer demo server\n"
            f"  Server address: {server.base_url}\n"
            f"  Avatars:        {server.avatar_base_url}\n"
            f"  Space id:       {server.space_id} ({config.card_count} cards)\n"
            f"  Empty space id: {server.empty_space_id}\n"
            f"  E-mail:         {server.email}\n"
            f"  Password:       {server.password}",
            flush=True,
        )
        cards = server.spaces[server.space_id].cards
        if isinstance(cards, CardsInTheMaking) and not cards.wait(0):
            # Served meanwhile: a page waits only for its own cards.
            print(f"Making {len(cards):,} sample cards; their first pages are served already…")
            started = time.perf_counter()
            cards.wait()
            print(f"Made {len(cards):,} cards in {time.perf_counter() - started:.1f} s.")
        print("Press Ctrl+C to stop.", flush=True)
        # Waiting in steps: the kernel may give Ctrl+C's signal to a server thread, and
        # Python acts on it in the main thread only once that thread runs again.
        while True:
            time.sleep(WAKE_INTERVAL)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
