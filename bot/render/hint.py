"""``/hint`` in words: the expert's move and why."""

from __future__ import annotations

from bot.render import renderer
from games.search import Advice
from games.wording import plural


def hint_text(game_name: str, advice: Advice) -> str:
    """``/hint`` in one line: the expert's move, the rule of thumb that makes it (when
    ``normal`` plays it too), and its search's own numbers (when it searched)."""
    label = renderer(game_name).action_label
    move = f"**{label(advice.move)}**"
    ranking = advice.ranking
    others = [(a, m) for a, m in ranking.means if a != advice.move] if ranking else []
    if ranking is None or not others:
        if advice.reason:
            return f"💡 The expert would play {move}: {advice.reason}."
        return (
            f"💡 The expert would play {move}: it decides this by its rules of thumb, as"
            " nothing else is worth searching here."
        )
    mine = dict(ranking.means)[advice.move]
    runner, theirs = others[0]
    deals = f"Over {plural(ranking.worlds, 'deal')} that fit what you have seen"

    def more(gain: float, only: str = "") -> str:
        if ranking.chance:
            return f"won the game {only}{gain:.1%} more often"
        return f"scored {only}{gain:.1f} points more"

    if mine >= theirs:
        head = f"💡 The expert would play {move}"
        found = f"{deals}, it {more(mine - theirs)} than the next best ({label(runner)})."
    else:
        head = f"💡 The expert would play {move}, its rules of thumb"
        gain = more(theirs - mine, "only ")
        found = f"{deals}, {label(runner)} {gain}, too little to tell from luck."
    why = f": {advice.reason}." if advice.reason else "."
    return f"{head}{why} {found}"
