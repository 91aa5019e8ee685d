"""The standings site in the reader's language: the browser's ``Accept-Language`` (by
weight, the first language Deckhand has), else English; ``?lang=`` chooses one and its
links carry it; every page ends with a switch; and the site's leak checks hold unchanged
in every language, crawled over every page and replay step."""

from __future__ import annotations

import re

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from bot.web.language import accepted
from i18n import SOURCE, _, language_name, languages, speaking
from tests.web.test_site import crawl
from tests.web.world import GUILD, HOSTILE_NAMES, USERS, World, start_links

Client = TestClient[web.Request, web.Application]
WORLD_NAMES = HOSTILE_NAMES
OTHERS = [lang for lang in languages() if lang != SOURCE]
_LANG = re.compile(r'<html lang="([^"]+)"')


def page_lang(body: str) -> str:
    """The language a page says it is in (``<html lang>``)."""
    found = _LANG.search(body)
    assert found is not None, body[:200]
    return found[1]


def _foot(lang: str) -> str:
    """The foot of every page, in ``lang``."""
    with speaking(lang):
        return _("Deckhand standings · read-only · names as players chose them on Discord")


@pytest.mark.parametrize(
    ("header", "found"),
    [("cy-GB,cy;q=0.9,en;q=0.8", "cy"), ("fr, is;q=0.5, sw;q=0.7", "sw"),
     ("en-US", "en"), ("fr,de;q=0.9", None), ("*", None), ("tl;q=0, en;q=0.1", "en"),
     ("is;q=abc, tl", "tl"), ("", None)],
)
def test_accept_language_by_weight(header: str, found: str | None) -> None:
    assert accepted(header) == found


@pytest.mark.parametrize("lang", OTHERS)
async def test_the_browsers_language_else_english(client: Client, lang: str) -> None:
    r = await client.get("/", headers={"Accept-Language": f"xx, {lang};q=0.8, en;q=0.5"})
    body = await r.text()
    assert r.status == 200 and "Accept-Language" in r.headers["Vary"]
    assert page_lang(body) == lang
    assert _foot(lang) in body and _foot(SOURCE) not in body
    plain = await (await client.get("/", headers={"Accept-Language": "fr"})).text()
    assert page_lang(plain) == SOURCE and _foot(SOURCE) in plain


async def test_lang_chooses_and_the_switch_offers_every_language(client: Client) -> None:
    body = await (await client.get("/?lang=is", headers={"Accept-Language": "cy"})).text()
    assert page_lang(body) == "is" and _foot("is") in body
    links = [link for link in re.findall(r'href="(/[^"]*)"', body)
             if not link.startswith("/static/")]
    assert links and all("lang=" in link for link in links)  # the brand link too
    for lang in languages():
        assert f"?lang={lang}" in body and language_name(lang) in body


@pytest.mark.parametrize("lang", OTHERS)
async def test_no_hidden_card_or_id_appears_in_any_language(
    client: Client, world: World, lang: str
) -> None:
    pages = await crawl(client, world, start=[f"{p}?lang={lang}" for p in start_links(world)])
    replays = [p for p in pages if "/m/" in p]
    assert len(replays) > 300 and all(f"lang={lang}" in p for p in replays)
    running = world.running_markup()
    with speaking(lang):
        hand_header = f"<th>{_('Hand')}</th>"
    for path, body in pages.items():
        if "<html" in body:
            assert page_lang(body) == lang, path
        for user in (*USERS, GUILD):
            assert str(user) not in body and str(user) not in path, path
        for hand in running:
            assert hand not in body, f"{path} shows a running game's hand"
        assert "<b>" not in body and "Secret" not in body, path
        assert "Hidden Cup" not in body and "Loose Event" not in body, path
        if "/m/" in path and "hands=1" not in path:
            assert hand_header not in body, path



def test_the_pseudo_language_is_never_served(monkeypatch: pytest.MonkeyPatch) -> None:
    """``?lang=en_XA`` and a browser asking for ``en-XA`` get English: the pseudo-language
    is for the tests that ask for it (``DECKHAND_PSEUDO=1``), never for a reader."""
    from bot.web.language import page

    monkeypatch.delenv("DECKHAND_PSEUDO", raising=False)
    with page("/", {"lang": "en_XA"}, "cy") as lang:
        assert lang == SOURCE
    assert accepted("en-XA,cy;q=0.5") == SOURCE
