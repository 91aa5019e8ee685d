"""One step of ``/game replay`` as a message: the move that led to it and what it made
happen, the public table drawn from the spectator view, every seat's hand when asked, and
◀◀ ◀ ▶ ▶▶ · Hands.

Decisions:
* The step is shown by ``bot.render.steps``, as the standings page and the terminal show
  it: the table by the game's renderer from the step's spectator view, as the live table
  message is; the hands come only from ``ReplayStep.hands``, which the replay service
  fills only for a finished game.
* Each button's custom id names the step it shows and whether hands are shown
  (``custom_ids.replay_id``), so a click needs no memory; the buttons that would go
  nowhere are disabled, and each still has an id of its own (Discord refuses two equal
  ids in one message).
* Names are shown as given: the caller escapes them for Discord.
"""

from __future__ import annotations

from collections.abc import Sequence

import games
from bot.custom_ids import replay_id
from bot.render.common import cards
from bot.render.markup import Text, line, markdown_lines, strong
from bot.render.messages import FINISHED_COLOUR, Button, EmbedSpec, MessageSpec
from bot.render.ono99 import pretty_cards
from bot.render.steps import shown
from bot.services.replays import ReplayStep
from bot.text import cut
from i18n import _

#: Discord's limits on an embed's description and on a field's value.
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024


def _hand(game: str, codes: Sequence[str]) -> str:
    """A revealed hand as text (ONO 99's cards are numbers and words, not suits)."""
    return pretty_cards(codes) if game == "ono99" else cards(codes)


def step_lines(rep: ReplayStep, names: Sequence[str]) -> list[Text]:
    """``3/41 · Alice: Draw from the stock`` (``0/41 · The deal``) in strong, what the move
    made happen, then the table."""
    move = None if rep.move is None else (rep.move.seat, rep.move.action, rep.move.timed_out)
    step = shown(rep.game, rep.public, rep.events, names, move)
    return [line(strong(f"{rep.step}/{rep.last} · {step.moved}")), *step.events, "",
            *step.table]


def replay_message(rep: ReplayStep, names: Sequence[str]) -> MessageSpec:
    """The replay at ``rep.step`` with its buttons (hands shown when ``rep.hands``)."""
    game = games.get(rep.game)
    body = markdown_lines(step_lines(rep, names))
    fields: tuple[tuple[str, str], ...] = ()
    if rep.hands is not None:
        hands = "\n".join(
            f"**{names[seat]}**: {_hand(rep.game, hand)}" for seat, hand in enumerate(rep.hands)
        )
        fields = ((_("Hands"), cut(hands, FIELD_LIMIT)),)
    shown = rep.hands is not None
    match, step, last = rep.match_id, rep.step, rep.last

    def to(label: str, target: int, button: str) -> Button:
        return Button(
            label, replay_id(match, target, shown, button), disabled=target == step
        )

    rows = (
        (
            to("◀◀", 0, "first"),
            to("◀", max(step - 1, 0), "back"),
            to("▶", min(step + 1, last), "next"),
            to("▶▶", last, "last"),
            Button(
                _("Hide hands") if shown else _("Hands"),
                replay_id(match, step, not shown, "hands"),
                "primary" if shown else "secondary",
            ),
        ),
    )
    embed = EmbedSpec(
        title=_("{game} — replay of game #{match}", game=_(game.title), match=match),
        description=cut("\n".join(body), DESCRIPTION_LIMIT),
        colour=FINISHED_COLOUR,
        fields=fields,
        footer=_("The hands are shown because the game is over.") if shown
        else _("Hands shows every seat's cards at this step."),
    )
    return MessageSpec(embed=embed, rows=rows)
