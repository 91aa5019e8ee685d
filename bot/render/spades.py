"""Two-player Spades as text: the table (bids, tricks, the trick in play), hands, events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.common import cards, prettify, scores, seat_line
from bot.render.markup import Text, line, marked, strong
from bot.wording import signed
from games.cards import pretty
from games.spades.scoring import RESULTS
from i18n import _, ngettext, number

View = dict[str, Any]



def _bid(bid: int | str) -> str:
    if bid == "blind nil":
        return _("Blind Nil")
    return _("Nil") if bid == 0 else str(bid)


def _plays(plays: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    return " · ".join(f"{names[seat]} {pretty(card)}" for seat, card in plays)


def _score_line(line: dict[str, Any], names: Sequence[str]) -> str:
    parts = [f"{_(RESULTS[line['result']])} {signed(line['contract'])}"]
    if line["bags"]:
        parts.append(ngettext("{n} bag {points}", "{n} bags {points}", line["bags"],
                              points=signed(line["bags"])))
    if line["bag_penalty"]:
        parts.append(_("bag penalty {points}", points=number(line["bag_penalty"])))
    return _(
        "{who} bid {bid}, took {tricks}: {parts} = {points} (total {total})",
        who=names[line["seat"]], bid=_bid(line["bid"]), tricks=line["tricks"],
        parts=", ".join(parts), points=signed(line["points"]), total=number(line["score"]),
    )


class SpadesRenderer:
    """The ``GameRenderer`` for two-player Spades."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        first = names[view["first_player"]]
        lines: list[Text] = [marked(
            _("**Spades** · hand {hand} · {first} drafts first · game to {target}"),
            hand=view["hand_no"], first=first, target=view["target"],
        )]
        for seat in range(view["players"]):
            bid = view["bids"][seat]
            said = _("yet to bid") if bid is None else _("bid {bid}", bid=_bid(bid))
            lines.append(seat_line(
                seat, names, view["to_act"],
                ngettext("{bid} · tricks {tricks} · bags {bags} · {n} card",
                         "{bid} · tricks {tricks} · bags {bags} · {n} cards",
                         view["hand_counts"][seat], bid=said, tricks=view["tricks"][seat],
                         bags=view["bags"][seat]),
            ))
        phase = view["phase"]
        if phase == "draft":
            lines.append(ngettext("Draft: {n} card left in the stock.",
                                  "Draft: {n} cards left in the stock.", view["stock"]))
        elif phase == "exchange":
            lines.append(_("Blind Nil: exchanging up to three cards with the discard pile."))
        elif phase == "bid":
            lines.append(_("Bidding: 0 (Nil) to 13 tricks."))
        elif phase == "play":
            lines.append(_("Trick: {plays}", plays=_plays(view["trick"], names) or "—"))
            lines.append(_("Spades are broken.") if view["spades_broken"]
                         else _("Spades not broken."))
        if view["face_up_discards"] and phase != "over":
            lines.append(_("Face-up discards: {cards}", cards=cards(view["face_up_discards"])))
        last = view["last_trick"]
        if last and phase == "play":
            lines.append(_("Last trick: {plays} — {who} won", plays=_plays(last["plays"], names),
                           who=names[last["winner"]]))
        lines.append(_("Scores: {scores}", scores=scores(view["scores"], names)))
        if view["winner"] is not None:
            lines.append(line(strong(_("{who} wins!", who=names[view["winner"]]))))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [_("Your hand: {cards}", cards=cards(view["hand"]))]
        seat, phase = view["seat"], view["phase"]
        mine = seat in view["to_act"]
        if phase == "draft" and mine:
            if view["drawn"] is None:
                lines.append(
                    _("Your first pick: declare Blind Nil now, or look at the top card."))
            else:
                lines.append(_("Top card: {card} — keep it, or discard it face up and take"
                               " the next card.", card=pretty(view["drawn"])))
        elif phase == "exchange" and mine:
            lines.append(_("Blind Nil: exchange up to three cards with the discard pile."))
        elif phase == "bid" and mine:
            lines.append(_("Your bid: how many tricks will you take? (0 is Nil)"))
        if view["bids"][seat] is not None:
            lines.append(ngettext("You bid {bid}; you have {n} trick.",
                                  "You bid {bid}; you have {n} tricks.", view["tricks"][seat],
                                  bid=_bid(view["bids"][seat])))
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "hand_start":
            return _("Hand {hand}: {first} drafts first.", hand=event["hand_no"],
                     first=names[event["first_player"]])
        if kind == "keep":
            return _("{who} kept a card.", who=who)
        if kind == "discard":
            return _("{who} discarded {card} face up.", who=who, card=pretty(event["card"]))
        if kind == "blind_nil":
            return marked(_("{who} declared **Blind Nil**!"), who=who)
        if kind == "exchange":
            return ngettext("{who} exchanged {n} card.", "{who} exchanged {n} cards.",
                            event["count"], who=who)
        if kind == "bid":
            return _("{who} bid {bid}.", who=who, bid=_bid(event["bid"]))
        if kind == "spades_broken":
            return _("Spades are broken.")
        if kind == "play":
            return _("{who} played {card}.", who=who, card=pretty(event["card"]))
        if kind == "trick":
            return _("{who} won the trick: {plays}.", who=who,
                     plays=_plays(event["plays"], names))
        if kind == "hand_scored":
            body = "; ".join(_score_line(line, names) for line in event["lines"])
            return _("Hand {hand}: {scores}", hand=event["hand_no"], scores=body)
        if kind == "game_over":
            return marked(_("**{who} wins the game** with {points}!"), who=who,
                          points=number(event["scores"][event["seat"]]))
        return None

    def action_label(self, action: str) -> str:
        if action == "look":
            return _("Look at the card")
        if action == "discard":
            return _("Discard face up")
        if action == "blindnil":
            return _("Blind Nil")
        if action == "exchange":
            return _("Exchange nothing")
        if action == "bid 0":
            return _("Bid Nil")
        return prettify(action)


RENDERER = SpadesRenderer()
