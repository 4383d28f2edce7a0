"""A card as a line of JSON, exactly as the server sent it."""

from __future__ import annotations

import json

from cardviewer.api.models import parse_page_json
from cardviewer.services.jsonl_export import card_line, page_lines


def test_a_line_is_compact_utf8_and_keeps_what_utf8_cannot_carry_escaped():
    assert card_line({"name": "Zoë", "n": [1, 2]}) == '{"name":"Zoë","n":[1,2]}\n'.encode()
    assert card_line({"name": "\ud800"}) == b'{"name":"\\ud800"}\n'
    assert json.loads(card_line({"name": "\ud800"})) == {"name": "\ud800"}


def test_a_page_gives_its_cards_as_sent_a_line_each():
    sent = [{"z": 1, "uuid": "a", "public": "yes"}, {"uuid": "b", "text": "two\nlines"}]
    meta = {"current_page": 1, "last_page": 1, "per_page": 2, "total": 2}
    page = parse_page_json(json.dumps({"data": sent, "links": {}, "meta": meta}).encode())
    lines = list(page_lines(page))
    assert [json.loads(line) for line in lines] == sent
    assert all(line.endswith(b"\n") and line.count(b"\n") == 1 for line in lines)
