"""ONO 99 views and events as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render import View
from bot.render.common import scores, seat_line
from bot.render.markup import Text, line, strong
from games.ono99.cards import MINUS, ONO, P2, REV
from games.wording import number, plural, signed

_PRETTY = {REV: "⟲ Reverse", MINUS: "−10", P2: "⏩ Play 2", ONO: "ONO 99"}
_ARROW = {1: "↻ clockwise", -1: "↺ counter-clockwise"}


def pretty(card: str) -> str:
    """An ONO 99 card for people: ``−10``, ``⟲ Reverse``, ``⏩ Play 2``, ``ONO 99``, ``7``."""
    return _PRETTY.get(card, card)


def pretty_cards(codes: Sequence[str]) -> str:
    """Cards separated by ``·``, or an em dash when there are none."""
    return " · ".join(pretty(c) for c in codes) or "—"


def _seat_extra(view: View, seat: int) -> str:
    if view["out"][seat]:
        return "· out of the game"
    parts = []
    if view["eliminated"][seat]:
        parts.append("out of the round, shows " + pretty_cards(view["revealed"][seat] or []))
    else:
        parts.append(plural(view['hand_counts'][seat], "card"))
    if view["tokens"] is not None:
        parts.append(plural(view['tokens'][seat], "token"))
    if view["points"] is not None:
        parts.append(plural(view['points'][seat], "point"))
    return "· " + " · ".join(parts)


def _must_play(view: View) -> str:
    return "must play two cards" if view["must_play"] == 2 else "to play"


class Ono99Renderer:
    """Renders ONO 99."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        mode = view["scoring"]
        head = line(strong("ONO 99"))
        if mode != "elimination":
            head += f" — round {view['round_no']}"
        if view["target"] is not None:
            head += f" · target {view['target']}"
        lines: list[Text] = [
            head,
            line("Total: ", strong(number(view["total"])), f" · {_ARROW[view['direction']]}"
                 f" · discard {pretty(view['discard_top']) if view['discard_top'] else '—'}"
                 f" · draw pile {view['draw_pile']}"),
        ]
        lines.extend(
            seat_line(seat, names, view["to_act"], _seat_extra(view, seat))
            for seat in range(view["players"])
        )
        if view["over"]:
            best = [s for s, r in enumerate(view["ranks"]) if r == 1]
            lines.append(line(strong(" & ".join(names[s] for s in best) + " wins!")))
        else:
            lines.append(f"{names[view['to_act'][0]]} {_must_play(view)}.")
        if mode == "points":
            lines.append("Points: " + scores(view["points"], names))
        elif mode == "tokens":
            lines.append("Tokens: " + scores(view["tokens"], names))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [f"Your hand: {pretty_cards(view.get('hand', []))}",
                 f"Total: {number(view['total'])} ({_ARROW[view['direction']]})"]
        seat = view["seat"]
        if seat is not None and seat in view["to_act"]:
            lines.append(
                "Your turn: play two cards (or pass it on with ⟲ Reverse or ⏩ Play 2)."
                if view["must_play"] == 2
                else "Your turn: play a card that keeps the total below 99."
            )
        elif seat is not None and view["eliminated"][seat]:
            lines.append("You are out of the round.")
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "deal":
            return f"Round {event['round']}: {names[event['dealer']]} deals four cards each."
        if kind == "play":
            return line(f"{who} plays {pretty(event['card'])}: total ",
                        strong(number(event["total"])), ".")
        if kind == "draw":
            count = event["count"]
            return f"{who} draws {'a card' if count == 1 else f'{count} cards'}."
        if kind == "reshuffle":
            pile = plural(event["cards"], "card")
            return f"The discard pile is shuffled into a new draw pile ({pile})."
        if kind == "reverse":
            return f"Play now goes {_ARROW[event['direction']]}."
        if kind == "play_two":
            verb = "passes" if event["passed_on"] else "gives"
            return f"{names[event['by']]} {verb} Play 2 on: {who} must play two cards."
        if kind == "swap":
            return f"{who} swaps four ONO 99 for four new cards."
        if kind == "pass":
            return f"{who} holds four ONO 99 and passes."
        if kind == "eliminated":
            return (f"{who} has no card that keeps the total ({number(event['total'])}) below 99"
                    f" and shows {pretty_cards(event['hand'])}.")
        if kind == "stuck":
            if event["survivor"] is None:
                return "Nobody can play a card: the round ends."
            return (f"Nobody can play a card: {names[event['survivor']]} played last and"
                    " survives the round.")
        if kind == "token_lost":
            return f"{who} loses a token ({event['tokens']} left)."
        if kind == "out":
            return f"{who} is out of the game."
        if kind == "round_over":
            if "gained" in event:
                gained = ", ".join(
                    f"{names[s]} {signed(g)}" for s, g in enumerate(event["gained"])
                    if event["hands"][s] is not None
                )
                return f"Round {event['round']} scored: {gained}."
            return f"Round {event['round']} is over."
        if kind == "game_over":
            return "Game over: " + " & ".join(names[s] for s in event["winners"]) + " wins."
        return None

    def action_label(self, action: str) -> str:
        if action == "swap":
            return "Swap four ONO 99"
        return "Play " + pretty(action.split()[1])


RENDERER = Ono99Renderer()
