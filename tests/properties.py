"""How many inputs a property test tries: its share of the profile the run chose.

A test that needs more inputs than most (the parsers') names how many it tries under
`thorough`, the profile of `make test`; under `quick`, the profile of runs while
working, it tries as many times fewer as the profiles' counts differ.
"""

from __future__ import annotations

from hypothesis import settings

THOROUGH_EXAMPLES = 300
"""Inputs per property test under `thorough` (tests/conftest.py registers the profiles)."""


def examples(thorough: int) -> int:
    """`thorough` inputs under the `thorough` profile, proportionally fewer under `quick`."""
    current = settings.default
    chosen = current.max_examples if current is not None else THOROUGH_EXAMPLES
    return max(10, thorough * chosen // THOROUGH_EXAMPLES)
