"""One picture per hand of what the hand's end revealed, drawn from public events only.

The input is the stream of public events the table message already gets (``State.events``
of each move, in order), never a state or a seat's view: a picture cannot show a card
the rules keep hidden. ``hands`` cuts the stream into hands — from a hand's opening
event (a deal) up to the next one — and keeps those that were scored; ``picture`` draws
one of them:

* Gin Rummy: the knocker's melds and deadwood, the defender's melds, lay-offs (marked
  with the meld they went on) and deadwood, the result and the scores. A hand that hit
  the wall revealed nothing: its picture says so.
* Spades and Back Alley: each seat's bid against the tricks it won (a bar of tricks with
  the bid marked), then the hand's score lines (Back Alley: per team, and the trumps).
* Craits: the cards left in every hand, the cards its 3s cancelled, and the points.
* ONO 99: who went out and why (the total no card of theirs kept below 99, and the hand
  they showed), tokens lost, the round's points, and the winner when the game ended.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final

from PIL import Image, ImageDraw

from bot.art.draw import FELT, WHITE, Colour, png, suit, text_length, write
from bot.art.faces import PALETTES, face
from bot.wording import signed
from games import melds
from games.spades.scoring import RESULTS
from i18n import N_, _, ngettext, number

Event = dict[str, Any]

WIDTH: Final = 900
MARGIN: Final = 24
CARD_W: Final = 44
CARD_H: Final = 56
GAP: Final = 4
GOLD: Final[Colour] = (250, 210, 90)
PALE: Final[Colour] = (200, 225, 210)
_NAME_CHARS: Final = 24

#: The event that opens a hand and the events that close one (scored), per game.
_OPEN: Final = {"gin_rummy": "new_hand", "spades": "hand_start", "back_alley": "deal",
                "craits": "deal", "ono99": "deal"}
_CLOSE: Final = {"gin_rummy": {"hand_result"}, "spades": {"hand_scored"},
                 "back_alley": {"deal_scored"}, "craits": {"round"},
                 "ono99": {"round_over", "game_over"}}


def closes_hand(game: str, event: Event) -> bool:
    """Whether a public event scores a hand (so a picture of it can be drawn now)."""
    return event.get("type") in _CLOSE.get(game, set())


def hands(game: str, events: Sequence[Event]) -> list[list[Event]]:
    """The scored hands in a stream of public events, each from its opening event to the
    next hand's; a hand that was not scored (redealt, or still going) is left out."""
    chunks: list[list[Event]] = []
    for event in events:
        if event["type"] == _OPEN[game] or not chunks:
            chunks.append([])
        chunks[-1].append(event)
    return [c for c in chunks if any(e["type"] in _CLOSE[game] for e in c)]


class _Canvas:
    """A picture drawn top to bottom; ``image`` crops it to what was drawn."""

    def __init__(self, palette: str, title: str) -> None:
        self.palette = palette
        self.canvas = Image.new("RGB", (WIDTH, 4000), FELT)
        self.draw = ImageDraw.Draw(self.canvas)
        self.y = MARGIN
        self.text(title, 30, GOLD)
        self.y += 6

    def text(self, text: str, size: int = 22, fill: Colour = WHITE) -> None:
        """A line of text (wrapped to the width)."""
        for line in _wrap(text, size, WIDTH - 2 * MARGIN):
            write(self.draw, (MARGIN, self.y), line, size, fill)
            self.y += size + 8

    def cards(self, groups: Sequence[Sequence[str]], marks: Sequence[str] = ()) -> None:
        """Rows of small card faces, groups apart; ``marks`` are underlined (lay-offs,
        cancelled 3s). Groups that do not fit go on the next row."""
        if not any(groups):
            self.text(_("no cards"), 20, PALE)
            return
        left = MARGIN
        for group in groups:
            width = len(group) * (CARD_W + GAP)
            if left > MARGIN and left + width > WIDTH - MARGIN:
                left, self.y = MARGIN, self.y + CARD_H + 12
            for card in group:
                self.canvas.paste(_small(card, self.palette), (left, self.y))
                if card in marks:
                    self.draw.rectangle([left, self.y + CARD_H + 2, left + CARD_W,
                                         self.y + CARD_H + 5], fill=GOLD)
                left += CARD_W + GAP
            left += 14
        self.y += CARD_H + 14

    def bar(self, framed: int, tricks: int, slots: int) -> None:
        """Tricks won as white cells out of ``slots``; the first ``framed`` (the bid) are
        framed in gold."""
        cell = min(30, (WIDTH - 2 * MARGIN) // max(slots, 1) - 4)
        for k in range(slots):
            left = MARGIN + k * (cell + 4)
            box = [left, self.y, left + cell, self.y + cell]
            self.draw.rectangle(box, fill=WHITE if k < tricks else (40, 120, 85))
            if k < framed:
                self.draw.rectangle(box, outline=GOLD, width=3)
        self.y += cell + 10

    def gap(self, pixels: int = 10) -> None:
        """Space, and a faint rule across."""
        self.y += pixels // 2
        self.draw.line([(MARGIN, self.y), (WIDTH - MARGIN, self.y)], fill=(50, 125, 90))
        self.y += pixels // 2 + 4

    def image(self) -> bytes:
        """The drawn part as PNG bytes."""
        return png(self.canvas.crop((0, 0, WIDTH, self.y + MARGIN)))


def _wrap(text: str, size: int, width: int) -> list[str]:
    if text_length(text, size) <= width:
        return [text]
    lines = [""]
    for word in text.split(" "):
        trial = f"{lines[-1]} {word}".strip()
        if lines[-1] and text_length(trial, size) > width:
            lines.append(word)
        else:
            lines[-1] = trial
    return lines


@cache
def _small(card: str, palette: str) -> Image.Image:
    """A card face cut to the card and shrunk for pictures, on the felt."""
    big = face(card, palette).crop((14, 1, 114, 127))
    small = big.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)
    tile = Image.new("RGB", small.size, FELT)
    tile.paste(small, (0, 0), small)
    return tile


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat]
    return name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 1] + "…"


def _scores(values: Sequence[int], names: Sequence[str]) -> str:
    return " · ".join(f"{_name(names, s)} {number(v)}" for s, v in enumerate(values))


def _first(events: Sequence[Event], *kinds: str) -> Event | None:
    return next((e for e in events if e["type"] in kinds), None)


# -- Gin Rummy ---------------------------------------------------------------------------
_GIN_HOW: Final = {"knock": N_("{who} knocked"), "gin": N_("{who} went gin"),
                   "big_gin": N_("{who} went big gin")}
_GIN_RESULT: Final = {"knock": N_("{who} wins the hand: {points}"),
                      "gin": N_("{who} wins with gin: {points}"),
                      "big_gin": N_("{who} wins with big gin: {points}"),
                      "undercut": N_("{who} undercuts: {points}")}


def laid_on(lay_off: Event) -> list[str]:
    """A knocker's meld with the cards laid off on it, each in its place: ``A♠`` before
    ``2♠ 3♠ 4♠``, as one lays them on the table."""
    return melds.sorted_cards([*lay_off["onto"], *lay_off["cards"]])


def _gin(c: _Canvas, events: Sequence[Event], names: Sequence[str]) -> None:
    end = _first(events, "hand_result")
    assert end is not None
    knock = _first(events, *_GIN_HOW)
    shown = _first(events, "lay_down")
    if knock is None or shown is None:
        c.text(_("The hand hit the wall: nobody knocked, nothing is shown, nobody scores."))
    else:
        c.text(_(_GIN_HOW[knock["type"]], who=_name(names, knock["seat"])), 24, GOLD)
        c.cards([*knock["melds"], knock["deadwood"]])
        c.text(_("melds, then deadwood {points}", points=knock["points"]), 18, PALE)
        c.gap()
        laid = tuple(card for lo in shown["lay_offs"] for card in lo["cards"])
        c.text(_("{who} lays down", who=_name(names, shown["seat"])), 24, GOLD)
        c.cards([*shown["melds"], shown["deadwood"]])
        c.text(_("melds, then deadwood {points}", points=shown["points"]), 18, PALE)
        if laid:
            c.text(_("lays off (underlined) on the knocker's melds:"), 18, PALE)
            c.cards([laid_on(lo) for lo in shown["lay_offs"]], marks=laid)
        c.gap()
    if end["winner"] is not None:
        points = end["points"][end["winner"]]
        c.text(_(_GIN_RESULT[end["result"]], who=_name(names, end["winner"]),
                 points=signed(points)), 24)
    elif end["result"] == "tie":
        c.text(_("The deadwood tied: no score."), 24)
    c.text(_("Scores: {scores}", scores=_scores(end["scores"], names)), 20, PALE)


# -- Spades and Back Alley -----------------------------------------------------------------
def _board(multiplier: int) -> str:
    return _("board") if multiplier == 1 else _("board ×{times}", times=multiplier)


#: One seat's row: what it bid (words), how many cells the bid frames, tricks won.
_Row = tuple[str, int, int]


def _bids_rows(c: _Canvas, names: Sequence[str], rows: Sequence[_Row], slots: int) -> None:
    """Per seat: name, bid and tricks won in words, then a bar of ``slots`` cells: white
    for tricks won, gold frames for the bid."""
    for seat, (bid, framed, won) in enumerate(rows):
        c.text(_("{who}: {bid}, took {won}", who=_name(names, seat), bid=bid, won=won), 22)
        c.bar(framed, won, slots)
    c.text(_("Gold frames: the bid · white: tricks taken"), 18, PALE)


def _spades_line(line: dict[str, Any], names: Sequence[str]) -> str:
    parts = [f"{_(RESULTS[line['result']])} {signed(line['contract'])}"]
    if line["bags"]:
        parts.append(_("bags {bags}", bags=signed(line["bags"])))
    if line["bag_penalty"]:
        parts.append(_("bag penalty {points}", points=number(line["bag_penalty"])))
    return _("{who}: {parts} = {points}, total {total}", who=_name(names, line["seat"]),
             parts=", ".join(parts), points=signed(line["points"]), total=number(line["score"]))


def _spades(c: _Canvas, events: Sequence[Event], names: Sequence[str]) -> None:
    end = _first(events, "hand_scored")
    assert end is not None
    lines = end["lines"]
    words = {0: _("bid Nil"), "blind nil": _("Blind Nil")}
    rows = [(words.get(ln["bid"], _("bid {bid}", bid=ln["bid"])),
             ln["bid"] if isinstance(ln["bid"], int) else 0, ln["tricks"]) for ln in lines]
    _bids_rows(c, names, rows, 13)
    c.gap()
    for line in lines:
        c.text(_spades_line(line, names), 20)


_TEAMS: Final = (N_("Team A"), N_("Team B"))


def _back_alley(c: _Canvas, events: Sequence[Event], names: Sequence[str]) -> None:
    deal, end = _first(events, "deal"), _first(events, "deal_scored")
    assert deal is not None and end is not None
    size = deal["hand_size"]
    bids: list[tuple[str, int]] = [(_("no bid"), 0)] * len(names)
    tricks = [0] * len(names)
    for e in events:
        if e["type"] == "bid":
            bids[e["seat"]] = (
                (_("bid {bid}", bid=_board(e["multiplier"])), size) if e["bid"] == "board"
                else (_("passed"), 0) if e["bid"] == "pass"
                else (_("bid {bid}", bid=e["bid"]), e["bid"])
            )
        elif e["type"] == "trick":
            tricks[e["seat"]] += 1
    c.text(ngettext("{n} card each · turned up, trumps:", "{n} cards each · turned up, trumps:",
                    size) if deal["trump"]
           else ngettext("{n} card each · turned up, no trumps (a joker)",
                         "{n} cards each · turned up, no trumps (a joker)", size), 20, PALE)
    if deal["trump"]:
        _trump_mark(c, deal["trump"], MARGIN + CARD_W + 16)
    c.cards([[deal["turned"]]])
    _bids_rows(c, names, [(*b, t) for b, t in zip(bids, tricks, strict=True)], size)
    c.gap()
    for team, result in enumerate(end["teams"]):
        contract = (_("{board} (all {size})", board=_board(result["board"]), size=size)
                    if result["board"]
                    else _("contract {tricks}", tricks=result["contract"]))
        c.text(_("{team} ({first} & {second}): {contract}, took {tricks}: {points}, total"
                 " {total}", team=_(_TEAMS[team]), first=_name(names, team),
                 second=_name(names, team + 2), contract=contract, tricks=result["tricks"],
                 points=signed(result["points"]), total=number(end["scores"][team])), 20)


def _trump_mark(c: _Canvas, letter: str, x: int) -> None:
    colour = PALETTES[c.palette][letter]
    c.draw.rounded_rectangle([x, c.y + 4, x + 48, c.y + 52], radius=8, fill=WHITE)
    suit(c.draw, letter, x + 24, c.y + 28, 36, colour)


# -- Craits ------------------------------------------------------------------------------
def _craits(c: _Canvas, events: Sequence[Event], names: Sequence[str]) -> None:
    end = _first(events, "round")
    assert end is not None
    for seat, hand in enumerate(end["hands"]):
        went_out = end["out"] == seat
        c.text(ngettext("{who} went out: {n} point", "{who} went out: {n} points",
                        hand["points"], who=_name(names, seat)) if went_out
               else ngettext("{who}: {n} point", "{who}: {n} points", hand["points"],
                             who=_name(names, seat)), 22, GOLD if went_out else WHITE)
        if hand["cards"]:
            c.cards([hand["cards"]], marks=tuple(hand["cancelled"]))
    if any(h["cancelled"] for h in end["hands"]):
        c.text(_("Underlined: cards a 3 cancelled (no points)."), 18, PALE)
    c.gap()
    c.text(_("Scores (lowest wins): {scores}", scores=_scores(end["scores"], names)), 20, PALE)


# -- ONO 99 ------------------------------------------------------------------------------
def _ono99(c: _Canvas, events: Sequence[Event], names: Sequence[str]) -> None:
    """Eliminations in order, each with the hand shown — unless the round is scored
    (points), which shows every hand left once, at the end."""
    scored = any(e["type"] == "round_over" and "hands" in e for e in events)
    for e in events:
        kind = e["type"]
        if kind == "eliminated":
            args = {"who": _name(names, e["seat"]), "total": number(e["total"])}
            c.text(_("{who} had no card to keep the total ({total}) below 99 and is out of the"
                     " round.", **args) if scored
                   else _("{who} had no card to keep the total ({total}) below 99 and showed:",
                          **args), 22, GOLD)
            if not scored:
                c.cards([e["hand"]])
        elif kind == "stuck":
            c.text(_("Nobody could play a card: nobody played last and survived.")
                   if e["survivor"] is None
                   else _("Nobody could play a card: {who} played last and survived.",
                          who=_name(names, e["survivor"])), 22)
        elif kind == "token_lost":
            c.text(_("{who} loses a token ({tokens} left).", who=_name(names, e["seat"]),
                     tokens=e["tokens"]), 20)
        elif kind == "out":
            c.text(_("{who} is out of the game.", who=_name(names, e["seat"])), 20)
        elif kind == "round_over" and "gained" in e:
            c.gap()
            for seat, hand in enumerate(e["hands"]):
                if hand is not None:
                    c.text(f"{_name(names, seat)} {signed(e['gained'][seat])}", 20)
                    c.cards([hand])
            c.text(_("Points: {scores}", scores=_scores(e["points"], names)), 20, PALE)
        elif kind == "game_over":
            c.gap()
            c.text(_("{who} wins the game!",
                     who=" & ".join(_name(names, s) for s in e["winners"])), 24, GOLD)


_DRAW: Final[dict[str, Callable[[_Canvas, Sequence[Event], Sequence[str]], None]]] = {
    "gin_rummy": _gin, "spades": _spades, "back_alley": _back_alley, "craits": _craits,
    "ono99": _ono99,
}


def _title(game: str, opening: Event) -> str:
    if game == "gin_rummy":
        return _("Gin Rummy · hand {hand}", hand=opening["hand_no"])
    if game == "spades":
        return _("Spades · hand {hand}", hand=opening["hand_no"])
    if game == "back_alley":
        return _("Back Alley · deal {deal}", deal=opening["deal_no"])
    if game == "craits":
        return _("Craits · round {round}", round=opening["round_no"])
    return _("ONO 99 · round {round}", round=opening["round"])


def picture(game: str, hand: Sequence[Event], names: Sequence[str],
            palette: str = "two") -> bytes:
    """The PNG of one scored hand (one of ``hands``), seats named by ``names``."""
    if game not in _DRAW:
        raise ValueError(f"No hand-end picture for {game!r}.")
    if not hand or hand[0]["type"] != _OPEN[game]:
        raise ValueError("A hand's events start with the event that opened it.")
    canvas = _Canvas(palette, _title(game, hand[0]))
    _DRAW[game](canvas, hand, names)
    return canvas.image()
