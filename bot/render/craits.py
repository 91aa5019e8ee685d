"""Craits views and events as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.render import View
from bot.render.common import cards, prettify, scores, seat_line
from bot.render.markup import Text, line, strong
from games.cards import SUIT_SYMBOLS, pretty
from i18n import _, listing, ngettext, number


def _drew(who: str, count: int, reason: str) -> str:
    """A player drew: why, after the count, is the card played that made them draw."""
    if reason == "seven":
        return ngettext("{who} draws {n} card (7 played).", "{who} draws {n} cards (7 played).",
                        count, who=who)
    if reason == "five":
        return ngettext("{who} draws {n} card (5 played).", "{who} draws {n} cards (5 played).",
                        count, who=who)
    if reason == "callout":
        return ngettext("{who} draws {n} card (called out).",
                        "{who} draws {n} cards (called out).", count, who=who)
    return ngettext("{who} draws {n} card.", "{who} draws {n} cards.", count, who=who)


class CraitsRenderer:
    """How Craits is shown: the discard top, the suit to follow, the crank, hand sizes."""

    def table(self, view: View, names: Sequence[str]) -> list[Text]:
        lines: list[Text] = [
            line(strong(_("Craits")), ngettext(
                " · round {round}/{rounds} ({n} card dealt) · dealer {dealer}",
                " · round {round}/{rounds} ({n} cards dealt) · dealer {dealer}",
                view["deal_size"], round=view["round_no"], rounds=view["rounds"],
                dealer=names[view["dealer"]],
            )),
        ]
        if view["phase"] != "over":
            top: Text = _("Top: {card} · follow {suit}", card=pretty(view["top"]),
                          suit=SUIT_SYMBOLS[view["suit"]])
            if view["crank"]:
                top = line(top, " · ", strong(_("crank {count}", count=view["crank"])),
                           _(": play an ace or a 2, or with neither draw {count}",
                             count=view["crank"]))
            way = _("clockwise") if view["direction"] == 1 else _("anticlockwise")
            lines.append(line(top, " · ", _("{way} · draw pile {pile}", way=way,
                                            pile=view["draw_pile"])))
            current = [view["current"]]
            for seat, count in enumerate(view["hand_counts"]):
                notes = [ngettext("{n} card", "{n} cards", count)]
                if count == 1:
                    notes.append(_("last card!") if view["announced"][seat]
                                 else _("unannounced"))
                if view["skipped"][seat]:
                    notes.append(_("loses a turn"))
                lines.append(seat_line(seat, names, current, " · ".join(notes)))
        lines.append(_("Scores (lowest wins): {scores}", scores=scores(view["scores"], names)))
        return lines

    def hand(self, view: View) -> list[Text]:
        lines: list[Text] = [_("Your hand: {cards}", cards=cards(view["hand"]))]
        if view["phase"] == "crank":
            lines.append(_("The crank is at {count}: play an ace or a 2; only if you hold"
                           " neither, draw {count}.", count=view["crank"]))
        elif view["phase"] == "play":
            lines.append(_("Match {suit} or {rank} — an 8 is always playable.",
                           suit=SUIT_SYMBOLS[view["suit"]], rank=pretty(view["top"])[:-1]))
        if len(view["hand"]) == 1 and not view["announced"][view["seat"]]:
            lines.append(_("You hold one card: announce it before someone calls you out!"))
        return lines

    def event(self, event: dict[str, Any], names: Sequence[str]) -> Text | None:
        kind = event["type"]
        who = names[event["seat"]] if event.get("seat") is not None else ""
        if kind == "deal":
            return ngettext("Round {round}: {dealer} deals {n} card each.",
                            "Round {round}: {dealer} deals {n} cards each.", event["size"],
                            round=event["round_no"], dealer=names[event["dealer"]])
        if kind == "turn_up":
            return _("{who} turns up {card}.", who=who, card=pretty(event["card"]))
        if kind == "play":
            args = {"who": who, "card": pretty(event["card"]), "suit": SUIT_SYMBOLS[event["suit"]]}
            if event["card"][0] == "8" or event["suit"] != event["card"][1]:
                return (_("{who} plays {card} and names {suit} — last card!", **args)
                        if event["last"] else _("{who} plays {card} and names {suit}.", **args))
            return (_("{who} plays {card} — last card!", **args) if event["last"]
                    else _("{who} plays {card}.", **args))
        if kind == "draw":
            if event["reason"] == "crank":
                return None  # told by the crank_end event
            return _drew(who, event["count"], event["reason"])
        if kind == "reshuffle":
            return ngettext("The discards are shuffled into a new draw pile ({n} card).",
                            "The discards are shuffled into a new draw pile ({n} cards).",
                            event["cards"])
        if kind == "skip":
            if event["reason"] == "four":
                return _("{who} loses a turn (4 played).", who=who)
            return _("{who} loses a turn (called out).", who=who)
        if kind == "again":
            return _("{who} plays again (6 played).", who=who)
        if kind == "reverse":
            return (_("Play reverses: clockwise.") if event["direction"] == 1
                    else _("Play reverses: anticlockwise."))
        if kind == "crank":
            return _("The crank is at {count}.", count=event["count"])
        if kind == "crank_end":
            if event["seat"] is None:
                return _("The crank ends; nobody is left to draw.")
            return ngettext("The crank ends at {count}: {who} draws {n} card.",
                            "The crank ends at {count}: {who} draws {n} cards.", event["drew"],
                            count=event["count"], who=who)
        if kind == "announce":
            return _("{who}: last card!", who=who)
        if kind == "callout":
            return _("{who} calls out {target}, who draws two and loses a turn.", who=who,
                     target=names[event["target"]])
        if kind == "out":
            return _("{who} goes out!", who=who)
        if kind == "round":
            parts = []
            for seat, hand in enumerate(event["hands"]):
                shown = cards(hand["cards"])
                if hand["cancelled"]:
                    shown = _("{cards} (3s cancel {cancelled})", cards=shown,
                              cancelled=cards(hand["cancelled"]))
                parts.append(f"{names[seat]} {number(hand['points'])}: {shown}")
            return _("Round {round} scored — {hands}.", round=event["round_no"],
                     hands="; ".join(parts))
        if kind == "game_over":
            best = min(event["scores"])
            winners = [names[s] for s, v in enumerate(event["scores"]) if v == best]
            if len(winners) == 1:
                return _("Game over: {who} wins with {points}.", who=winners[0],
                         points=number(best))
            return _("Game over: {who} share the win with {points}.", who=listing(winners),
                     points=number(best))
        return None

    def action_label(self, action: str) -> str:
        words = action.split()
        if words[0] == "callout":
            return _("Call out seat {seat}", seat=words[1])
        if words[0] == "announce":
            return _("Announce last card")
        label = prettify(" ".join(words[:2]))
        if len(words) > 3 and words[2] == "as":
            label = _("{move} as {suit}", move=label, suit=SUIT_SYMBOLS[words[3]])
        if words[-1] == "last":
            label = _("{move} (last card!)", move=label)
        return label


RENDERER = CraitsRenderer()
