"""Every message stays within Discord's limits in every language Deckhand has, and in the
pseudo-language (40 % longer than English): each seat's full hand panel, the table message
after every move of a seeded game of each kind, the rules' pages, replays and an event's
messages. A catalog added later is checked by the same test."""

from __future__ import annotations

import pytest

from bot.render.messages import Button, EmbedSpec, MessageSpec
from i18n import PSEUDO, languages, speaking
from tests.i18n.surfaces import limit_problems, messages


@pytest.mark.parametrize("lang", [*languages(), PSEUDO])
def test_every_message_stays_within_discords_limits(lang: str) -> None:
    checked = 0
    with speaking(lang):
        for where, spec in messages():
            assert not limit_problems(spec), (where, limit_problems(spec))
            checked += 1
    assert checked > 500


def test_the_limit_check_finds_an_overlong_label() -> None:
    spec = MessageSpec(content="x" * 2001, embed=EmbedSpec("t" * 257, "", 0),
                       rows=((Button("b" * 81, "id"),),))
    assert len(limit_problems(spec)) == 3
