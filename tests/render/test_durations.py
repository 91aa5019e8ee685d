"""Turn timers as people write them (``timer:``) and as the table shows them."""

from __future__ import annotations

import pytest

from bot.render.durations import describe, parse_timer, timer_text
from storage.models import MAX_TURN_TIMER


@pytest.mark.parametrize(
    ("typed", "seconds"),
    [("30m", 1800), ("2h", 7200), ("1d", 86400), ("1h30m", 5400), ("1D 12H", 129600),
     ("5", 300), ("off", 0), ("0", 0), (" 7d ", MAX_TURN_TIMER)],
)
def test_a_timer_is_days_hours_and_minutes(typed: str, seconds: int) -> None:
    assert parse_timer(typed) == seconds


@pytest.mark.parametrize("typed", ["soon", "1w", "1.5h", "h", "-5", "1d x", "9999999"])
def test_anything_else_is_refused_with_an_example(typed: str) -> None:
    with pytest.raises(ValueError, match="such as 30m, 2h, 1d"):
        parse_timer(typed)


def test_a_timer_longer_than_the_table_allows_is_refused_in_its_own_words() -> None:
    with pytest.raises(ValueError, match="at most 7 days"):
        parse_timer("7d1m")


def test_a_timer_is_shown_in_its_largest_whole_units() -> None:
    assert [describe(s) for s in (0, 300, 7200, 129600, 86400 + 60, 90)] == [
        "off", "5 min", "2 hours", "1 day 12 hours", "1 day 1 min", "90 s"
    ]
    assert timer_text(86400) == "1 day per turn" and timer_text(0) == "no turn timer"
