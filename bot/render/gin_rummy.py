"""Gin Rummy as text: the table (stock, discard pile, scores, last hand), hands, events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render.common import cards, prettify, scores, seat_line
from bot.render.markup import Text, line, strong
from games.cards import pretty
from games.wording import plural, signed

View = dict[str, Any]

_KINDS: dict[str, Text] = {
    "knock": "knocked", "gin": line("went ", strong("gin")),
    "big_gin": line("went ", strong("big gin")),
}


def _melds(melds: Sequence[Sequence[str]]) -> str:
    return " | ".join(cards(m) for m in melds) or "no melds"


def _result(hand: dict[str, Any], names: Sequence[str]) -> Text:
    """One line for a finished hand's result."""
    kind = hand["result"]
    if kind == "wall":
        return f"Hand {hand['hand_no']} hit the wall: a draw, nobody scores."
    knocker = names[hand["knocker"]]
    if kind == "tie":
        return f"Hand {hand['hand_no']}: {knocker} knocked but the deadwood tied: no score."
    winner = names[hand["winner"]]
    points = hand["points"][hand["winner"]]
    if kind == "undercut":
        return line(f"Hand {hand['hand_no']}: {winner} ", strong("undercut"),
                    f" {knocker}: {signed(points)}.")
    how = {"knock": "knocked", "gin": "went gin", "big_gin": "went big gin"}[kind]
    return f"Hand {hand['hand_no']}: {winner} {how}: {signed(points)}."


def _lay_offs(lay_offs: Sequence[dict[str, Any]]) -> str:
    return ", ".join(f"{cards(lo['cards'])} on {cards(lo['onto'])}" for lo in lay_offs)


class GinRummyRenderer:
    """The ``GameRenderer`` for Gin Rummy."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        lines: list[Text] = [line(
            strong("Gin Rummy"), f" · hand {view['hand_no']} · {names[view['dealer']]} deals · "
            f"game to {view['target']}"
        )]
        for seat in range(view["players"]):
            known = view["known"][seat]
            extra = (
                f"{plural(view['hand_counts'][seat], 'card')} ·"
                f" {plural(view['hands_won'][seat], 'hand')} won"
            )
            if known:
                extra += f" · took {cards(known)}"
            lines.append(seat_line(seat, names, view["to_act"], extra))
        if view["phase"] != "over":
            top = view["discard_top"]
            lines.append(
                f"Stock: {plural(view['stock'], 'card')} · discard pile: "
                f"{pretty(top) if top else 'empty'} ({plural(len(view['discards']), 'card')})"
            )
            if view["phase"] == "offer":
                lines.append("First turn: take the upcard or pass.")
        if view["last_hand"] is not None:
            lines.append(_result(view["last_hand"], names))
        lines.append("Scores: " + scores(view["scores"], names))
        final = view["final"]
        if final is not None:
            shutout = " (shutout ×2)" if final["shutout"] else ""
            lines.append(
                f"Game bonus {signed(final['game_bonus'])}{shutout} to {names[final['reached']]}; "
                "line bonus " + scores(final["line_bonus"], names)
            )
            lines.append("Final: " + scores(final["final"], names))
            winner = final["winner"]
            lines.append(line(strong(f"{names[winner]} wins!" if winner is not None else "A tie!")))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [f"Your hand: {cards(view['hand'])}"]
        lines.append(f"Melds: {_melds(view['melds'])} · deadwood {view['deadwood']}")
        if view["seat"] in view["to_act"]:
            phase = view["phase"]
            top = view["discard_top"]
            if phase == "offer":
                lines.append(f"Take the upcard {pretty(top)} or pass?")
            elif phase == "draw" and view["stock_only"]:
                lines.append("Both passed the upcard: draw from the stock.")
            elif phase == "draw":
                lines.append(f"Draw from the stock or take {pretty(top)}.")
            elif phase == "discard":
                lines.append("Discard a card, or knock with deadwood 10 or less.")
                if view["taken"]:
                    lines.append(f"You may not discard {pretty(view['taken'])} this turn.")
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "new_hand":
            return (
                f"Hand {event['hand_no']}: {names[event['dealer']]} deals; "
                f"the upcard is {pretty(event['upcard'])}."
            )
        if kind == "pass":
            return f"{who} passed on the upcard."
        if kind == "draw":
            if event["source"] == "stock":
                return f"{who} drew from the stock."
            return f"{who} took {pretty(event['card'])} from the discard pile."
        if kind == "discard":
            return f"{who} discarded {pretty(event['card'])}."
        if kind in _KINDS:
            return line(
                f"{who} ", _KINDS[kind], f": {_melds(event['melds'])} · deadwood "
                f"{cards(event['deadwood'])} ({event['points']})"
            )
        if kind == "lay_down":
            text = f"{who} shows {_melds(event['melds'])}"
            if event["lay_offs"]:
                text += f", lays off {_lay_offs(event['lay_offs'])}"
            return f"{text} · deadwood {cards(event['deadwood'])} ({event['points']})"
        if kind == "hand_result":
            return line(_result(event, names), " Scores: " + scores(event["scores"], names))
        if kind == "game_over":
            first = (
                f"{names[event['winner']]} wins the game!"
                if event["winner"] is not None else "The game is a tie!"
            )
            return line(strong(first), " Final: " + scores(event["final"], names))
        return None

    def action_label(self, action: str) -> str:
        if action == "take":
            return "Take the discard"
        if action == "draw":
            return "Draw from the stock"
        if action == "pass":
            return "Pass"
        if action == "biggin":
            return "Big gin!"
        return prettify(action)


RENDERER = GinRummyRenderer()
