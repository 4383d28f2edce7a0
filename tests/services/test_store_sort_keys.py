"""How a local copy sorts: texts ranked under a collation, ties shared."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardviewer.services import store_sort_keys


@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.text(alphabet="aAbBcäÄ ", max_size=3), unique=True, max_size=40),
    run=st.integers(1, 7),
)
def test_texts_ranked_in_runs_get_the_ranks_one_sort_gives(texts, run):
    """Long lists are sorted in runs and merged (`SORT_RUN`); ranks and ties are as one sort."""

    def key(text: str) -> str:
        return text.casefold()

    expected: dict[str, int] = {}
    for rank, folded in enumerate(sorted({key(text) for text in texts})):
        expected.update({text: rank for text in texts if key(text) == folded})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store_sort_keys, "SORT_RUN", run)
        ranked = list(store_sort_keys.ranks(texts, key))
    assert dict(ranked) == expected
    assert [rank for _, rank in ranked] == sorted(rank for _, rank in ranked)
