"""Back Alley views and events as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render import View
from bot.render.common import cards, prettify, seat_line
from bot.render.markup import Text, line, strong
from bot.wording import signed
from games.cards import SUIT_NAMES, SUIT_SYMBOLS, pretty
from i18n import N_, _, ngettext, number

_TEAMS = (N_("Team A"), N_("Team B"))
_MULTIPLE = {1: N_("board"), 2: N_("double board"), 3: N_("triple board"),
             4: N_("quadruple board")}


def _team(team: int, names: Sequence[str]) -> str:
    return _("{team} ({first} & {second})", team=_(_TEAMS[team]), first=names[team],
             second=names[team + 2])


def _trump_text(view: View) -> str:
    turned = pretty(view["turned"])
    if view["trump"] is None:
        return _("No trumps (turned {card})", card=turned)
    return _("Trumps: {symbol} {suit} (turned {card})", symbol=SUIT_SYMBOLS[view["trump"]],
             suit=_(SUIT_NAMES[view["trump"]]), card=turned)


def _bid_text(bid: object) -> str:
    """A seat's bid as its seat line says it: ``yet to bid``, ``passed``, ``bid 3``,
    ``claimed double board``."""
    if bid is None:
        return _("yet to bid")
    if bid == "pass":
        return _("passed")
    if isinstance(bid, str) and bid.startswith("board x"):
        return _("claimed {board}", board=_(_MULTIPLE[int(bid.removeprefix("board x"))]))
    return _("bid {bid}", bid=bid)


def _contract_text(contract: dict[str, int]) -> str:
    if contract["board"]:
        return ngettext("{board} ({n} trick)", "{board} ({n} tricks)", contract["tricks"],
                        board=_(_MULTIPLE[contract["board"]]))
    return f"{contract['tricks']}"


def _plays(trick: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    return " · ".join(f"{names[int(seat)]} {pretty(str(card))}" for seat, card in trick)


class BackAlleyRenderer:
    """Renders Back Alley."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        lines: list[Text] = [
            line(strong(_("Back Alley")), ngettext(
                " — deal {deal}/{deals} · {n} card · dealer {dealer}",
                " — deal {deal}/{deals} · {n} cards · dealer {dealer}",
                view["hand_size"], deal=view["deal_no"], deals=view["deals"],
                dealer=names[view["dealer"]],
            )),
            _trump_text(view),
        ]
        for seat in range(view["players"]):
            tricks = ngettext("{n} trick", "{n} tricks", view["tricks"][seat])
            extra = ngettext("· {bid} · {tricks} · {n} card", "· {bid} · {tricks} · {n} cards",
                             view["hand_counts"][seat], bid=_bid_text(view["bids"][seat]),
                             tricks=tricks)
            lines.append(seat_line(seat, names, view["to_act"], extra))
        if view["phase"] == "playing":
            for team in (0, 1):
                lines.append(_("{team}: contract {contract}, {taken} taken",
                               team=_team(team, names),
                               contract=_contract_text(view["contracts"][team]),
                               taken=view["team_tricks"][team]))
            if view["trick"]:
                lines.append(_("Trick: {plays}", plays=_plays(view["trick"], names)))
            elif view["last_trick"]:
                lines.append(_("Last trick: {plays}", plays=_plays(view["last_trick"], names)))
        lines.append(" · ".join(
            f"{_team(t, names)} {number(view['team_scores'][t])}" for t in (0, 1)
        ))
        if view["over"]:
            a, b = view["team_scores"]
            won = (_("Draw!") if a == b
                   else _("{team} wins!", team=_team(0 if a > b else 1, names)))
            lines.append(line(strong(won)))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [_("Your hand: {cards}", cards=cards(view.get("hand", []))),
                             _trump_text(view)]
        seat = view["seat"]
        if seat is not None and seat in view["to_act"]:
            lines.append(_("Your bid.") if view["phase"] == "bidding"
                         else _("Your turn to play."))
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        if kind == "deal":
            args = {"deal": event["deal_no"], "dealer": names[event["dealer"]],
                    "card": pretty(event["turned"])}
            if event["trump"]:
                return ngettext(
                    "Deal {deal}: {dealer} deals {n} card each and turns {card} — trumps {suit}.",
                    "Deal {deal}: {dealer} deals {n} cards each and turns {card} — trumps"
                    " {suit}.", event["hand_size"], suit=SUIT_SYMBOLS[event["trump"]], **args)
            return ngettext(
                "Deal {deal}: {dealer} deals {n} card each and turns {card} — no trumps.",
                "Deal {deal}: {dealer} deals {n} cards each and turns {card} — no trumps.",
                event["hand_size"], **args)
        if kind == "joker_swap":
            return _("{who} discards the {card} and takes the next card.",
                     who=names[event["seat"]], card=pretty(event["card"]))
        if kind == "bid":
            who = names[event["seat"]]
            if event["bid"] == "board":
                return _("{who} claims {board}!", who=who,
                         board=_(_MULTIPLE[event["multiplier"]]))
            if event["bid"] == "pass":
                return _("{who} passes.", who=who)
            return _("{who} bids {bid}.", who=who, bid=event["bid"])
        if kind == "redeal":
            return _("Everybody passed: {dealer} redeals.", dealer=names[event["dealer"]])
        if kind == "contracts":
            parts = [f"{_(_TEAMS[t])} {_contract_text(c)}"
                     for t, c in enumerate(event["contracts"])]
            return _("Contracts: {contracts}. {leader} leads.", contracts=", ".join(parts),
                     leader=names[event["leader"]])
        if kind == "play":
            return _("{who} plays {card}.", who=names[event["seat"]], card=pretty(event["card"]))
        if kind == "trick":
            return _("{who} wins the trick ({cards}).", who=names[event["seat"]],
                     cards=cards(event["cards"]))
        if kind == "deal_scored":
            parts = [
                ngettext("{team} {n} trick, {points}", "{team} {n} tricks, {points}",
                         team["tricks"], team=_(_TEAMS[t]), points=signed(team["points"]))
                for t, team in enumerate(event["teams"])
            ]
            return _("Deal {deal} scored: {teams}.", deal=event["deal_no"],
                     teams="; ".join(parts))
        if kind == "game_over":
            winner = event["winner"]
            if winner is None:
                return _("Game over: a draw.")
            return _("Game over: {team} wins.", team=_team(winner, names))
        return None

    def action_label(self, action: str) -> str:
        if action == "board":
            return _("Claim board")
        return prettify(action)


RENDERER = BackAlleyRenderer()
