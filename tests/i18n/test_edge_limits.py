"""The Discord edge's own texts (``bot/ui``, ``bot/cogs``: answers, refusals, notices,
pings, league and settings answers) stay within Discord's limits in every language and in
the 40 % longer pseudo-language, their placeholders filled as long as they get; and a hand
panel's last edit, the longest hand with the note that it stops updating, still fits."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.render.refresh import REFRESH
from bot.ui.answers import CONTENT_LIMIT
from bot.ui.publish.hands import PANEL_EXPIRED, expiring
from i18n import PSEUDO, _, languages, ngettext, speaking
from tests.i18n.surfaces import limit_problems, messages

TEMPLATE = Path(__file__).parents[2] / "i18n" / "locales" / "deckhand.pot"
#: The longest a placeholder gets: a name or league name (100), a channel or user mention.
LONGEST = "x" * 100


def edge_messages() -> Iterator[tuple[str, str | None]]:
    """Every message id of the edge's code (``(singular, plural)``), from the template."""
    with TEMPLATE.open("rb") as f:
        template = read_po(f)
    for message in template:
        if message.id and not message.context and any(
            path.startswith(("bot/ui/", "bot/cogs/")) for path, _line in message.locations
        ):
            if isinstance(message.id, tuple | list):
                yield message.id[0], message.id[1]
            else:
                yield message.id, None


def filled(singular: str, plural: str | None) -> str:
    """The message in the language spoken, each placeholder at its longest."""
    names = {name: LONGEST for name in re.findall(r"{(\w+)}", singular + (plural or ""))}
    if plural is None:
        return _(singular, **names)
    return ngettext(singular, plural, 1_000_000, **{k: v for k, v in names.items() if k != "n"})


def test_the_edge_has_messages_to_check() -> None:
    assert len(list(edge_messages())) > 100


@pytest.mark.parametrize("lang", [*languages(), PSEUDO])
def test_every_edge_text_fits_a_message(lang: str) -> None:
    with speaking(lang):
        long = {ids: len(filled(*ids)) for ids in edge_messages()}
        assert len(_(REFRESH)) <= 80  # a button's label
    over = {ids[0][:60]: n for ids, n in long.items() if n > CONTENT_LIMIT // 2}
    assert not over, over  # room to spare beside the rest of a message


@pytest.mark.parametrize("lang", [*languages(), PSEUDO])
def test_a_panels_last_edit_fits_in_every_language(lang: str) -> None:
    checked = 0
    with speaking(lang):
        for where, spec in messages():
            if where.endswith(" hand"):
                note = expiring(spec)
                assert not limit_problems(note), (where, limit_problems(note))
                assert note.content.endswith(_(PANEL_EXPIRED))
                checked += 1
    assert checked > 100
