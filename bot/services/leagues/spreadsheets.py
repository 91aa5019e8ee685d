"""Standings and a league's matches as CSV, with text cells that spreadsheets will not
run as formulas."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import UTC, datetime

from bot.services.leagues.standings import Standings
from storage.matches import PlayedMatch


def standings_csv(st: Standings) -> str:
    """The standings as CSV (header row first; a provisional player's rank is empty)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "user_id", "name", "rating", "ordinal", "mu", "sigma", "points",
                "games", "wins", "draws", "losses", "win_rate", "average_score", "streak"])
    for r in st.rows:
        w.writerow([r.rank, r.user_id, _cell(r.name), r.rating_display, f"{r.rating:.4f}",
                    f"{r.mu:.4f}", f"{r.sigma:.4f}", r.points, r.games, r.wins, r.draws,
                    r.losses, f"{r.win_rate:.4f}", f"{r.average_score:.2f}", r.streak])
    return out.getvalue()


def history_csv(matches: Iterable[PlayedMatch]) -> str:
    """Matches as CSV, one row per seat, in the order given."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["match_id", "finished_at", "game", "seat", "user_id", "computer", "name",
                "team", "score", "rank"])
    for m in matches:
        for s in m.seats:
            w.writerow([m.match_id, _when(m.finished_at), m.game, s.seat,
                        "" if s.user_id is None else s.user_id, s.bot_level or "",
                        _cell(str(s.name)), s.team, s.score, s.rank])
    return out.getvalue()


def _cell(text: str) -> str:
    """A text cell that spreadsheets will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")
