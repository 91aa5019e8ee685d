"""A league's scoring as a reader reads it (its stored form, ``rating`` or
``points:3/1/0``, is what an admin types)."""

from __future__ import annotations

from bot.services.leagues.scoring import Scoring
from i18n import _, number


def scoring_words(spec: str) -> str:
    """``rating``, or points with what a win, a draw and a loss earn, in the reader's
    language (``points: win 3, draw 1, loss 0``)."""
    scoring = Scoring.parse(spec)
    if scoring.kind == "rating":
        return _("rating")
    return _("points: win {win}, draw {draw}, loss {loss}", win=number(scoring.win),
             draw=number(scoring.draw), loss=number(scoring.loss))
