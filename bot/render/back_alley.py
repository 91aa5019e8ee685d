"""Back Alley views and events as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render import View
from bot.render.common import cards, prettify, seat_line
from bot.render.markup import Text, line, strong
from games.cards import SUIT_NAMES, SUIT_SYMBOLS, pretty
from games.wording import number, plural, signed

_TEAMS = ("Team A", "Team B")
_MULTIPLE = {1: "board", 2: "double board", 3: "triple board", 4: "quadruple board"}


def _team(team: int, names: Sequence[str]) -> str:
    return f"{_TEAMS[team]} ({names[team]} & {names[team + 2]})"


def _trump_text(view: View) -> str:
    turned = pretty(view["turned"])
    if view["trump"] is None:
        return f"No trumps (turned {turned})"
    return f"Trumps: {SUIT_SYMBOLS[view['trump']]} {SUIT_NAMES[view['trump']]} (turned {turned})"


def _bid_text(bid: object) -> str:
    """A seat's bid as its seat line says it: ``yet to bid``, ``passed``, ``bid 3``,
    ``claimed double board``."""
    if bid is None:
        return "yet to bid"
    if bid == "pass":
        return "passed"
    if isinstance(bid, str) and bid.startswith("board x"):
        return "claimed " + _MULTIPLE[int(bid.removeprefix("board x"))]
    return f"bid {bid}"


def _contract_text(contract: dict[str, int]) -> str:
    if contract["board"]:
        return f"{_MULTIPLE[contract['board']]} ({plural(contract['tricks'], 'trick')})"
    return f"{contract['tricks']}"


def _plays(trick: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    return " · ".join(f"{names[int(seat)]} {pretty(str(card))}" for seat, card in trick)


class BackAlleyRenderer:
    """Renders Back Alley."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        lines: list[Text] = [
            line(strong("Back Alley"), f" — deal {view['deal_no']}/{view['deals']} · "
                 f"{plural(view['hand_size'], 'card')} · dealer {names[view['dealer']]}"),
            _trump_text(view),
        ]
        for seat in range(view["players"]):
            extra = (f"· {_bid_text(view['bids'][seat])}"
                     f" · {plural(view['tricks'][seat], 'trick')}"
                     f" · {plural(view['hand_counts'][seat], 'card')}")
            lines.append(seat_line(seat, names, view["to_act"], extra))
        if view["phase"] == "playing":
            for team in (0, 1):
                lines.append(
                    f"{_team(team, names)}: contract {_contract_text(view['contracts'][team])}"
                    f", {view['team_tricks'][team]} taken"
                )
            if view["trick"]:
                lines.append("Trick: " + _plays(view["trick"], names))
            elif view["last_trick"]:
                lines.append("Last trick: " + _plays(view["last_trick"], names))
        lines.append(" · ".join(
            f"{_team(t, names)} {number(view['team_scores'][t])}" for t in (0, 1)
        ))
        if view["over"]:
            a, b = view["team_scores"]
            won = "Draw!" if a == b else f"{_team(0 if a > b else 1, names)} wins!"
            lines.append(line(strong(won)))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [f"Your hand: {cards(view.get('hand', []))}", _trump_text(view)]
        seat = view["seat"]
        if seat is not None and seat in view["to_act"]:
            lines.append("Your bid." if view["phase"] == "bidding" else "Your turn to play.")
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        if kind == "deal":
            trump = (f"trumps {SUIT_SYMBOLS[event['trump']]}" if event["trump"]
                     else "no trumps")
            return (f"Deal {event['deal_no']}: {names[event['dealer']]} deals "
                    f"{plural(event['hand_size'], 'card')} each and turns {pretty(event['turned'])}"
                    f" — {trump}.")
        if kind == "joker_swap":
            return (f"{names[event['seat']]} discards the {pretty(event['card'])} and takes"
                    " the next card.")
        if kind == "bid":
            who = names[event["seat"]]
            if event["bid"] == "board":
                return f"{who} claims {_MULTIPLE[event['multiplier']]}!"
            return f"{who} passes." if event["bid"] == "pass" else f"{who} bids {event['bid']}."
        if kind == "redeal":
            return f"Everybody passed: {names[event['dealer']]} redeals."
        if kind == "contracts":
            parts = [f"{_TEAMS[t]} {_contract_text(c)}" for t, c in enumerate(event["contracts"])]
            return f"Contracts: {', '.join(parts)}. {names[event['leader']]} leads."
        if kind == "play":
            return f"{names[event['seat']]} plays {pretty(event['card'])}."
        if kind == "trick":
            return f"{names[event['seat']]} wins the trick ({cards(event['cards'])})."
        if kind == "deal_scored":
            parts = [
                f"{_TEAMS[t]} {plural(team['tricks'], 'trick')}, {signed(team['points'])}"
                for t, team in enumerate(event["teams"])
            ]
            return f"Deal {event['deal_no']} scored: {'; '.join(parts)}."
        if kind == "game_over":
            winner = event["winner"]
            if winner is None:
                return "Game over: a draw."
            return f"Game over: {_team(winner, names)} wins."
        return None

    def action_label(self, action: str) -> str:
        if action == "board":
            return "Claim board"
        return prettify(action)


RENDERER = BackAlleyRenderer()
