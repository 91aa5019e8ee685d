"""``/hint`` in words: the expert's move and why."""

from __future__ import annotations

from bot.render import renderer
from games.search import Advice
from i18n import _, decimal, ngettext


def hint_text(game_name: str, advice: Advice) -> str:
    """``/hint`` in one line: the expert's move, the rule of thumb that makes it (when
    ``normal`` plays it too), and its search's own numbers (when it searched)."""
    label = renderer(game_name).action_label
    move = f"**{label(advice.move)}**"
    ranking = advice.ranking
    others = [(a, m) for a, m in ranking.means if a != advice.move] if ranking else []
    if ranking is None or not others:
        if advice.reason:
            return _("💡 The expert would play {move}: {reason}.", move=move, reason=advice.reason)
        return _(
            "💡 The expert would play {move}: it decides this by its rules of thumb, as"
            " nothing else is worth searching here.", move=move,
        )
    mine = dict(ranking.means)[advice.move]
    runner, theirs = others[0]
    deals = ngettext("Over {n} deal that fit what you have seen",
                     "Over {n} deals that fit what you have seen", ranking.worlds)
    better = mine >= theirs
    gain = abs(mine - theirs)
    if ranking.chance:
        percent = decimal(gain * 100) + "%"
        more = (_("won the game {gain} more often", gain=percent) if better
                else _("won the game only {gain} more often", gain=percent))
    else:
        more = (_("scored {gain} points more", gain=decimal(gain)) if better
                else _("scored only {gain} points more", gain=decimal(gain)))
    if better:
        head = _("💡 The expert would play {move}", move=move)
        found = _("{deals}, it {more} than the next best ({runner}).", deals=deals, more=more,
                  runner=label(runner))
    else:
        head = _("💡 The expert would play {move}, its rules of thumb", move=move)
        found = _("{deals}, {runner} {more}, too little to tell from luck.", deals=deals,
                  runner=label(runner), more=more)
    why = _(": {reason}.", reason=advice.reason) if advice.reason else "."
    return f"{head}{why} {found}"
