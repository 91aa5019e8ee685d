"""Gin Rummy as text: the table (stock, discard pile, scores, last hand), hands, events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.common import cards, prettify, scores, seat_line
from bot.render.markup import Text, line, marked, strong
from bot.wording import signed
from games.cards import pretty
from i18n import _, ngettext

View = dict[str, Any]


def _melds(melds: Sequence[Sequence[str]]) -> str:
    return " | ".join(cards(m) for m in melds) or _("no melds")


def _result(hand: dict[str, Any], names: Sequence[str]) -> Text:
    """One line for a finished hand's result."""
    kind = hand["result"]
    number = hand["hand_no"]
    if kind == "wall":
        return _("Hand {hand} hit the wall: a draw, nobody scores.", hand=number)
    knocker = names[hand["knocker"]]
    if kind == "tie":
        return _("Hand {hand}: {knocker} knocked but the deadwood tied: no score.",
                 hand=number, knocker=knocker)
    args = {"hand": number, "winner": names[hand["winner"]],
            "points": signed(hand["points"][hand["winner"]])}
    if kind == "undercut":
        return marked(_("Hand {hand}: {winner} **undercut** {knocker}: {points}."),
                      knocker=knocker, **args)
    if kind == "knock":
        return _("Hand {hand}: {winner} knocked: {points}.", **args)
    if kind == "gin":
        return _("Hand {hand}: {winner} went gin: {points}.", **args)
    return _("Hand {hand}: {winner} went big gin: {points}.", **args)


def _lay_offs(lay_offs: Sequence[dict[str, Any]]) -> str:
    return ", ".join(_("{cards} on {meld}", cards=cards(lo["cards"]), meld=cards(lo["onto"]))
                     for lo in lay_offs)


class GinRummyRenderer:
    """The ``GameRenderer`` for Gin Rummy."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        lines: list[Text] = [marked(
            _("**Gin Rummy** · hand {hand} · {dealer} deals · game to {target}"),
            hand=view["hand_no"], dealer=names[view["dealer"]], target=view["target"],
        )]
        for seat in range(view["players"]):
            known = view["known"][seat]
            cards_held = ngettext("{n} card", "{n} cards", view["hand_counts"][seat])
            won = view["hands_won"][seat]
            extra = (
                ngettext("{cards} · {n} hand won · took {took}",
                         "{cards} · {n} hands won · took {took}", won, cards=cards_held,
                         took=cards(known))
                if known else
                ngettext("{cards} · {n} hand won", "{cards} · {n} hands won", won,
                         cards=cards_held)
            )
            lines.append(seat_line(seat, names, view["to_act"], extra))
        if view["phase"] != "over":
            top = view["discard_top"]
            stock = ngettext("{n} card", "{n} cards", view["stock"])
            lines.append(ngettext(
                "Stock: {stock} · discard pile: {top} ({n} card)",
                "Stock: {stock} · discard pile: {top} ({n} cards)", len(view["discards"]),
                stock=stock, top=pretty(top) if top else _("empty"),
            ))
            if view["phase"] == "offer":
                lines.append(_("First turn: take the upcard or pass."))
        if view["last_hand"] is not None:
            lines.append(_result(view["last_hand"], names))
        lines.append(_("Scores: {scores}", scores=scores(view["scores"], names)))
        final = view["final"]
        if final is not None:
            args = {"bonus": signed(final["game_bonus"]), "who": names[final["reached"]],
                    "lines": scores(final["line_bonus"], names)}
            lines.append(
                _("Game bonus {bonus} (shutout ×2) to {who}; line bonus {lines}", **args)
                if final["shutout"] else _("Game bonus {bonus} to {who}; line bonus {lines}",
                                           **args)
            )
            lines.append(_("Final: {scores}", scores=scores(final["final"], names)))
            winner = final["winner"]
            lines.append(line(strong(
                _("{who} wins!", who=names[winner]) if winner is not None else _("A tie!")
            )))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [_("Your hand: {cards}", cards=cards(view["hand"]))]
        lines.append(_("Melds: {melds} · deadwood {deadwood}", melds=_melds(view["melds"]),
                       deadwood=view["deadwood"]))
        if view["seat"] in view["to_act"]:
            phase = view["phase"]
            top = view["discard_top"]
            if phase == "offer":
                lines.append(_("Take the upcard {card} or pass?", card=pretty(top)))
            elif phase == "draw" and view["stock_only"]:
                lines.append(_("Both passed the upcard: draw from the stock."))
            elif phase == "draw":
                lines.append(_("Draw from the stock or take {card}.", card=pretty(top)))
            elif phase == "discard":
                lines.append(_("Discard a card, or knock with deadwood 10 or less."))
                if view["taken"]:
                    lines.append(_("You may not discard {card} this turn.",
                                   card=pretty(view["taken"])))
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "new_hand":
            return _("Hand {hand}: {dealer} deals; the upcard is {card}.",
                     hand=event["hand_no"], dealer=names[event["dealer"]],
                     card=pretty(event["upcard"]))
        if kind == "pass":
            return _("{who} passed on the upcard.", who=who)
        if kind == "draw":
            if event["source"] == "stock":
                return _("{who} drew from the stock.", who=who)
            return _("{who} took {card} from the discard pile.", who=who,
                     card=pretty(event["card"]))
        if kind == "discard":
            return _("{who} discarded {card}.", who=who, card=pretty(event["card"]))
        if kind in ("knock", "gin", "big_gin"):
            args = {"who": who, "melds": _melds(event["melds"]),
                    "deadwood": cards(event["deadwood"]), "points": event["points"]}
            if kind == "knock":
                return _("{who} knocked: {melds} · deadwood {deadwood} ({points})", **args)
            if kind == "gin":
                return marked(_("{who} went **gin**: {melds} · deadwood {deadwood} ({points})"),
                              **args)
            return marked(
                _("{who} went **big gin**: {melds} · deadwood {deadwood} ({points})"), **args)
        if kind == "lay_down":
            args = {"who": who, "melds": _melds(event["melds"]),
                    "deadwood": cards(event["deadwood"]), "points": event["points"]}
            if event["lay_offs"]:
                return _("{who} shows {melds}, lays off {lay_offs} · deadwood {deadwood}"
                         " ({points})", lay_offs=_lay_offs(event["lay_offs"]), **args)
            return _("{who} shows {melds} · deadwood {deadwood} ({points})", **args)
        if kind == "hand_result":
            return line(_result(event, names), " ",
                        _("Scores: {scores}", scores=scores(event["scores"], names)))
        if kind == "game_over":
            first = (
                _("{who} wins the game!", who=names[event["winner"]])
                if event["winner"] is not None else _("The game is a tie!")
            )
            return line(strong(first), " ",
                        _("Final: {scores}", scores=scores(event["final"], names)))
        return None

    def action_label(self, action: str) -> str:
        if action == "take":
            return _("Take the discard")
        if action == "draw":
            return _("Draw from the stock")
        if action == "pass":
            return _("Pass")
        if action == "biggin":
            return _("Big gin!")
        return prettify(action)


RENDERER = GinRummyRenderer()
