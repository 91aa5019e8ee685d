"""Craits views and events as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render import View
from bot.render.common import cards, prettify, scores, seat_line
from bot.render.markup import Text, line, strong
from games.cards import SUIT_SYMBOLS, pretty
from games.wording import number, plural

#: Why a player drew, after the count: the card played that made them draw, not a card drawn.
_REASONS = {
    "turn": "",
    "seven": " (7 played)",
    "five": " (5 played)",
    "callout": " (called out)",
}


class CraitsRenderer:
    """How Craits is shown: the discard top, the suit to follow, the crank, hand sizes."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        lines: list[Text] = [
            line(strong("Craits"), f" · round {view['round_no']}/{view['rounds']}"
                 f" ({plural(view['deal_size'], 'card')} dealt) · dealer {names[view['dealer']]}"),
        ]
        if view["phase"] != "over":
            top: Text = f"Top: {pretty(view['top'])} · follow {SUIT_SYMBOLS[view['suit']]}"
            if view["crank"]:
                top = line(top, " · ", strong(f"crank {view['crank']}"),
                           f": play an ace or a 2, or with neither draw {view['crank']}")
            way = "clockwise" if view["direction"] == 1 else "anticlockwise"
            lines.append(line(top, f" · {way} · draw pile {view['draw_pile']}"))
            current = [view["current"]]
            for seat, count in enumerate(view["hand_counts"]):
                notes = [plural(count, 'card')]
                if count == 1:
                    notes.append("last card!" if view["announced"][seat] else "unannounced")
                if view["skipped"][seat]:
                    notes.append("loses a turn")
                lines.append(seat_line(seat, names, current, " · ".join(notes)))
        lines.append("Scores (lowest wins): " + scores(view["scores"], names))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [f"Your hand: {cards(view['hand'])}"]
        if view["phase"] == "crank":
            lines.append(f"The crank is at {view['crank']}: play an ace or a 2; only if you"
                         f" hold neither, draw {view['crank']}.")
        elif view["phase"] == "play":
            lines.append(
                f"Match {SUIT_SYMBOLS[view['suit']]} or {pretty(view['top'])[:-1]}"
                " — an 8 is always playable."
            )
        if len(view["hand"]) == 1 and not view["announced"][view["seat"]]:
            lines.append("You hold one card: announce it before someone calls you out!")
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if event.get("seat") is not None else ""
        if kind == "deal":
            return (f"Round {event['round_no']}: {names[event['dealer']]} deals"
                    f" {plural(event['size'], 'card')} each.")
        if kind == "turn_up":
            return f"{who} turns up {pretty(event['card'])}."
        if kind == "play":
            text = f"{who} plays {pretty(event['card'])}"
            if event["card"][0] == "8" or event["suit"] != event["card"][1]:
                text += f" and names {SUIT_SYMBOLS[event['suit']]}"
            return text + (" — last card!" if event["last"] else ".")
        if kind == "draw":
            if event["reason"] == "crank":
                return None  # told by the crank_end event
            return f"{who} draws {plural(event['count'], 'card')}{_REASONS[event['reason']]}."
        if kind == "reshuffle":
            pile = plural(event["cards"], "card")
            return f"The discards are shuffled into a new draw pile ({pile})."
        if kind == "skip":
            why = "4 played" if event["reason"] == "four" else "called out"
            return f"{who} loses a turn ({why})."
        if kind == "again":
            return f"{who} plays again (6 played)."
        if kind == "reverse":
            return "Play reverses: " + ("clockwise." if event["direction"] == 1 else
                                        "anticlockwise.")
        if kind == "crank":
            return f"The crank is at {event['count']}."
        if kind == "crank_end":
            if event["seat"] is None:
                return "The crank ends; nobody is left to draw."
            drawn = plural(event["drew"], "card")
            return f"The crank ends at {event['count']}: {who} draws {drawn}."
        if kind == "announce":
            return f"{who}: last card!"
        if kind == "callout":
            return f"{who} calls out {names[event['target']]}, who draws two and loses a turn."
        if kind == "out":
            return f"{who} goes out!"
        if kind == "round":
            parts = []
            for seat, hand in enumerate(event["hands"]):
                shown = cards(hand["cards"])
                if hand["cancelled"]:
                    shown += f" (3s cancel {cards(hand['cancelled'])})"
                parts.append(f"{names[seat]} {number(hand['points'])}: {shown}")
            return f"Round {event['round_no']} scored — " + "; ".join(parts) + "."
        if kind == "game_over":
            best = min(event["scores"])
            winners = [names[s] for s, v in enumerate(event["scores"]) if v == best]
            verb = "wins" if len(winners) == 1 else "share the win"
            return f"Game over: {' and '.join(winners)} {verb} with {number(best)}."
        return None

    def action_label(self, action: str) -> str:
        words = action.split()
        if words[0] == "callout":
            return f"Call out seat {words[1]}"
        if words[0] == "announce":
            return "Announce last card"
        label = prettify(" ".join(words[:2]))
        if len(words) > 3 and words[2] == "as":
            label += f" as {SUIT_SYMBOLS[words[3]]}"
        if words[-1] == "last":
            label += " (last card!)"
        return label


RENDERER = CraitsRenderer()
