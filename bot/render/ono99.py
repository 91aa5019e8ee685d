"""ONO 99 views and events as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render import View
from bot.render.common import scores, seat_line
from bot.render.markup import Text, line, strong
from bot.wording import signed
from games.ono99.cards import MINUS, ONO, P2, REV
from i18n import N_, _, ngettext, number

_PRETTY = {REV: N_("⟲ Reverse"), MINUS: "−10", P2: N_("⏩ Play 2"), ONO: N_("ONO 99")}
_ARROW = {1: N_("↻ clockwise"), -1: N_("↺ counter-clockwise")}


def pretty(card: str) -> str:
    """An ONO 99 card for people: ``−10``, ``⟲ Reverse``, ``⏩ Play 2``, ``ONO 99``, ``7``."""
    return _(_PRETTY[card]) if card in _PRETTY else card


def pretty_cards(codes: Sequence[str]) -> str:
    """Cards separated by ``·``, or an em dash when there are none."""
    return " · ".join(pretty(c) for c in codes) or "—"


def _seat_extra(view: View, seat: int) -> str:
    if view["out"][seat]:
        return _("· out of the game")
    parts = []
    if view["eliminated"][seat]:
        parts.append(_("out of the round, shows {cards}",
                       cards=pretty_cards(view["revealed"][seat] or [])))
    else:
        parts.append(ngettext("{n} card", "{n} cards", view["hand_counts"][seat]))
    if view["tokens"] is not None:
        parts.append(ngettext("{n} token", "{n} tokens", view["tokens"][seat]))
    if view["points"] is not None:
        parts.append(ngettext("{n} point", "{n} points", view["points"][seat]))
    return "· " + " · ".join(parts)


class Ono99Renderer:
    """Renders ONO 99."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        mode = view["scoring"]
        head = line(strong(_("ONO 99")))
        if mode != "elimination":
            head += _(" — round {round}", round=view["round_no"])
        if view["target"] is not None:
            head += _(" · target {target}", target=view["target"])
        top = view["discard_top"]
        lines: list[Text] = [
            head,
            line(_("Total: "), strong(number(view["total"])),
                 _(" · {direction} · discard {card} · draw pile {pile}",
                   direction=_(_ARROW[view["direction"]]), card=pretty(top) if top else "—",
                   pile=view["draw_pile"])),
        ]
        lines.extend(
            seat_line(seat, names, view["to_act"], _seat_extra(view, seat))
            for seat in range(view["players"])
        )
        if view["over"]:
            best = [names[s] for s, r in enumerate(view["ranks"]) if r == 1]
            lines.append(line(strong(_("{who} wins!", who=" & ".join(best)))))
        elif view["must_play"] == 2:
            lines.append(_("{who} must play two cards.", who=names[view["to_act"][0]]))
        else:
            lines.append(_("{who} to play.", who=names[view["to_act"][0]]))
        if mode == "points":
            lines.append(_("Points: {scores}", scores=scores(view["points"], names)))
        elif mode == "tokens":
            lines.append(_("Tokens: {scores}", scores=scores(view["tokens"], names)))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [
            _("Your hand: {cards}", cards=pretty_cards(view.get("hand", []))),
            _("Total: {total} ({direction})", total=number(view["total"]),
              direction=_(_ARROW[view["direction"]])),
        ]
        seat = view["seat"]
        if seat is not None and seat in view["to_act"]:
            lines.append(
                _("Your turn: play two cards (or pass it on with ⟲ Reverse or ⏩ Play 2).")
                if view["must_play"] == 2
                else _("Your turn: play a card that keeps the total below 99.")
            )
        elif seat is not None and view["eliminated"][seat]:
            lines.append(_("You are out of the round."))
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "deal":
            return _("Round {round}: {dealer} deals four cards each.", round=event["round"],
                     dealer=names[event["dealer"]])
        if kind == "play":
            return line(_("{who} plays {card}: total ", who=who, card=pretty(event["card"])),
                        strong(number(event["total"])), ".")
        if kind == "draw":
            count = event["count"]
            if count == 1:
                return _("{who} draws a card.", who=who)
            return ngettext("{who} draws {n} card.", "{who} draws {n} cards.", count, who=who)
        if kind == "reshuffle":
            return ngettext("The discard pile is shuffled into a new draw pile ({n} card).",
                            "The discard pile is shuffled into a new draw pile ({n} cards).",
                            event["cards"])
        if kind == "reverse":
            return _("Play now goes {direction}.", direction=_(_ARROW[event["direction"]]))
        if kind == "play_two":
            args = {"by": names[event["by"]], "who": who}
            if event["passed_on"]:
                return _("{by} passes Play 2 on: {who} must play two cards.", **args)
            return _("{by} gives Play 2 on: {who} must play two cards.", **args)
        if kind == "swap":
            return _("{who} swaps four ONO 99 for four new cards.", who=who)
        if kind == "pass":
            return _("{who} holds four ONO 99 and passes.", who=who)
        if kind == "eliminated":
            return _("{who} has no card that keeps the total ({total}) below 99 and shows"
                     " {cards}.", who=who, total=number(event["total"]),
                     cards=pretty_cards(event["hand"]))
        if kind == "stuck":
            if event["survivor"] is None:
                return _("Nobody can play a card: the round ends.")
            return _("Nobody can play a card: {who} played last and survives the round.",
                     who=names[event["survivor"]])
        if kind == "token_lost":
            return _("{who} loses a token ({tokens} left).", who=who, tokens=event["tokens"])
        if kind == "out":
            return _("{who} is out of the game.", who=who)
        if kind == "round_over":
            if "gained" in event:
                gained = ", ".join(
                    f"{names[s]} {signed(g)}" for s, g in enumerate(event["gained"])
                    if event["hands"][s] is not None
                )
                return _("Round {round} scored: {gained}.", round=event["round"], gained=gained)
            return _("Round {round} is over.", round=event["round"])
        if kind == "game_over":
            return _("Game over: {who} wins.",
                     who=" & ".join(names[s] for s in event["winners"]))
        return None

    def action_label(self, action: str) -> str:
        if action == "swap":
            return _("Swap four ONO 99")
        return _("Play {what}", what=pretty(action.split()[1]))


RENDERER = Ono99Renderer()
