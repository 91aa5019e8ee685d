"""Two-player Spades as text: the table (bids, tricks, the trick in play), hands, events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.common import cards, prettify, scores, seat_line
from bot.render.markup import Text, line, strong
from games.cards import pretty
from games.wording import number, plural, signed

View = dict[str, Any]


def _bid(bid: int | str) -> str:
    if bid == "blind nil":
        return "Blind Nil"
    return "Nil" if bid == 0 else str(bid)


def _plays(plays: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    return " · ".join(f"{names[seat]} {pretty(card)}" for seat, card in plays)


def _score_line(line: dict[str, Any], names: Sequence[str]) -> str:
    parts = [f"{line['result']} {signed(line['contract'])}"]
    if line["bags"]:
        parts.append(f"{plural(line['bags'], 'bag')} {signed(line['bags'])}")
    if line["bag_penalty"]:
        parts.append(f"bag penalty {number(line['bag_penalty'])}")
    return (
        f"{names[line['seat']]} bid {_bid(line['bid'])}, took {line['tricks']}: "
        f"{', '.join(parts)} = {signed(line['points'])} (total {number(line['score'])})"
    )


class SpadesRenderer:
    """The ``GameRenderer`` for two-player Spades."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        first = names[view["first_player"]]
        lines: list[Text] = [line(strong("Spades"), f" · hand {view['hand_no']} · {first}"
                                  f" drafts first · game to {view['target']}")]
        for seat in range(view["players"]):
            lines.append(seat_line(
                seat, names, view["to_act"],
                ("yet to bid" if view["bids"][seat] is None else f"bid {_bid(view['bids'][seat])}")
                + f" · tricks {view['tricks'][seat]}"
                f" · bags {view['bags'][seat]} · {plural(view['hand_counts'][seat], 'card')}",
            ))
        phase = view["phase"]
        if phase == "draft":
            lines.append(f"Draft: {plural(view['stock'], 'card')} left in the stock.")
        elif phase == "exchange":
            lines.append("Blind Nil: exchanging up to three cards with the discard pile.")
        elif phase == "bid":
            lines.append("Bidding: 0 (Nil) to 13 tricks.")
        elif phase == "play":
            lines.append(f"Trick: {_plays(view['trick'], names) or '—'}")
            lines.append("Spades are broken." if view["spades_broken"] else "Spades not broken.")
        if view["face_up_discards"] and phase != "over":
            lines.append(f"Face-up discards: {cards(view['face_up_discards'])}")
        last = view["last_trick"]
        if last and phase == "play":
            lines.append(f"Last trick: {_plays(last['plays'], names)}"
                         f" — {names[last['winner']]} won")
        lines.append("Scores: " + scores(view["scores"], names))
        if view["winner"] is not None:
            lines.append(line(strong(f"{names[view['winner']]} wins!")))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [f"Your hand: {cards(view['hand'])}"]
        seat, phase = view["seat"], view["phase"]
        mine = seat in view["to_act"]
        if phase == "draft" and mine:
            if view["drawn"] is None:
                lines.append("Your first pick: declare Blind Nil now, or look at the top card.")
            else:
                lines.append(f"Top card: {pretty(view['drawn'])} — keep it, or discard it"
                             " face up and take the next card.")
        elif phase == "exchange" and mine:
            lines.append("Blind Nil: exchange up to three cards with the discard pile.")
        elif phase == "bid" and mine:
            lines.append("Your bid: how many tricks will you take? (0 is Nil)")
        if view["bids"][seat] is not None:
            lines.append(f"You bid {_bid(view['bids'][seat])}; "
                         f"you have {plural(view['tricks'][seat], 'trick')}.")
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "hand_start":
            return f"Hand {event['hand_no']}: {names[event['first_player']]} drafts first."
        if kind == "keep":
            return f"{who} kept a card."
        if kind == "discard":
            return f"{who} discarded {pretty(event['card'])} face up."
        if kind == "blind_nil":
            return line(f"{who} declared ", strong("Blind Nil"), "!")
        if kind == "exchange":
            return f"{who} exchanged {plural(event['count'], 'card')}."
        if kind == "bid":
            return f"{who} bid {_bid(event['bid'])}."
        if kind == "spades_broken":
            return "Spades are broken."
        if kind == "play":
            return f"{who} played {pretty(event['card'])}."
        if kind == "trick":
            return f"{who} won the trick: {_plays(event['plays'], names)}."
        if kind == "hand_scored":
            body = "; ".join(_score_line(line, names) for line in event["lines"])
            return f"Hand {event['hand_no']}: {body}"
        if kind == "game_over":
            return line(strong(f"{who} wins the game"),
                        f" with {number(event['scores'][event['seat']])}!")
        return None

    def action_label(self, action: str) -> str:
        if action == "look":
            return "Look at the card"
        if action == "discard":
            return "Discard face up"
        if action == "blindnil":
            return "Blind Nil"
        if action == "exchange":
            return "Exchange nothing"
        if action == "bid 0":
            return "Bid Nil"
        return prettify(action)


RENDERER = SpadesRenderer()
