"""docs/user-install.md quotes what Deckhand says where its bot is no member: the quotes
come from the constants the bot says them from."""

from __future__ import annotations

from pathlib import Path

from bot.cogs.settings import PANELS_HERE
from bot.render.refresh import STOPS_UPDATING
from bot.ui.lobby import PRIVATE_HERE
from bot.ui.publish.hands import PANEL_EXPIRED

PAGE = Path(__file__).resolve().parents[2] / "docs" / "user-install.md"


def test_the_user_install_page_quotes_what_the_bot_says() -> None:
    page = PAGE.read_text(encoding="utf-8")
    quoted = [
        PRIVATE_HERE.split(" (")[0],
        STOPS_UPDATING.split("*")[1].split(":")[0],
        PANEL_EXPIRED.split("*")[1].split(" (")[0],
        PANELS_HERE.strip(),
    ]
    for said in quoted:
        assert said in page, f"docs/user-install.md no longer quotes: {said}"
