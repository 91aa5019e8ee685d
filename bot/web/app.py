"""The aiohttp application of ``deckhand web``: routes, security headers, plain errors,
per-client budgets (``bot/web/server.py`` serves it).

Decisions:
* Read-only: GET and HEAD only (anything else is 405); no forms, no cookies, no script;
  the database is opened read-only.
* With a ``Budget`` (``bot/web/limits.py``), a client past its share of server time gets
  a plain 429 with ``Retry-After``, before its request costs anything. A request costs
  the processor time spent on it (``storage.metering``), not the time it waited.
* Every response, errors included, carries the security headers below: a CSP that allows
  only the site's own style sheet and icon (SVG charts are inline markup, not script),
  no framing, no sniffing, no referrer.
* Unknown addresses, unpublished leagues and anything a slug does not name are the same
  plain 404; an unexpected error is logged here and answered with a plain 500 page, never
  a traceback.
* Binds 127.0.0.1 unless told otherwise (put a reverse proxy with TLS in front to publish).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from importlib.resources import files

from aiohttp import web

from bot.web import language, pages, paths
from bot.web.html import Safe
from bot.web.limits import Budget, Proxies
from bot.web.site import Site
from i18n import _
from storage.db import Database
from storage.metering import Meter, metered

log = logging.getLogger(__name__)

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none';"
        " form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-cache",
}
_STATIC = {
    paths.STYLE: ("site.css", "text/css"),
    paths.ICON: ("icon.svg", "image/svg+xml"),
}
SITE: web.AppKey[Site] = web.AppKey("site", Site)
BUDGET: web.AppKey[Budget] = web.AppKey("budget", Budget)
PROXIES: web.AppKey[Proxies] = web.AppKey("proxies", Proxies)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _html(body: Safe, status: int = 200) -> web.Response:
    return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")


def error(status: int, text: str) -> web.Response:
    """A plain error page (with the security headers, which every response carries)."""
    response = _html(pages.error_page(status, text), status)
    response.headers.update(SECURITY_HEADERS)
    return response


@web.middleware
async def spoken(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer in the page's language (``bot.web.language``), errors included."""
    with language.page(request.path, request.query, request.headers.get("Accept-Language", "")):
        return await handler(request)


@web.middleware
async def budgeted(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer a client within its budget of server time (see ``bot.web.limits``)."""
    budget = request.app[BUDGET]
    headers = request.headers
    client = request.app[PROXIES].client(
        request.remote or "?", headers.get("X-Forwarded-For", ""), headers.get("Forwarded", "")
    )
    wait = budget.admit(client, time.monotonic())
    if wait is not None:
        response = error(429, _("Too many requests from you at once: try again in a moment."))
        response.headers["Retry-After"] = f"{wait:.0f}"
        return response
    meter = Meter()
    try:
        return await metered(handler(request), meter)
    finally:
        budget.done(client, meter.seconds, time.monotonic())


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """GET/HEAD only; errors as plain pages without detail."""
    if request.method not in ("GET", "HEAD"):
        response = error(405, _("This site can only be read."))
        response.headers["Allow"] = "GET, HEAD"
        return response
    try:
        return await handler(request)
    except web.HTTPNotFound:
        return error(404, _("There is nothing here (or it is not published)."))
    except web.HTTPException as exc:
        if exc.status >= 400:
            return error(exc.status, exc.reason)
        raise
    except Exception:
        log.exception("page %s failed", request.path)
        return error(500, _("Something went wrong on our side."))


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)
    response.headers["Vary"] = "Accept-Language"
    response.headers.popall("Server", None)


def _page(found: Safe | None) -> web.Response:
    if found is None:
        raise web.HTTPNotFound()
    return _html(found)


def _site(request: web.Request) -> Site:
    return request.app[SITE]


async def home(request: web.Request) -> web.Response:
    """The front page."""
    return _html(pages.home())


async def guild(request: web.Request) -> web.Response:
    """A guild's published leagues."""
    return _page(await _site(request).guild(request.match_info["guild"]))


async def league(request: web.Request) -> web.Response:
    """A league's seasons."""
    return _page(await _site(request).league(request.match_info["league"]))


async def season(request: web.Request) -> web.Response:
    """A season's standings."""
    info = request.match_info
    return _page(await _site(request).season(info["league"], int(info["season"])))


async def player(request: web.Request) -> web.Response:
    """A player's page."""
    info = request.match_info
    return _page(await _site(request).player(info["league"], info["player"]))


async def event(request: web.Request) -> web.Response:
    """An event's standings and rounds."""
    info = request.match_info
    return _page(await _site(request).event(info["league"], info["event"]))


async def match(request: web.Request) -> web.Response:
    """A replay step (``?step=n``, ``&hands=1``)."""
    info, query = request.match_info, request.query
    text = query.get("step", "0")
    step = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else 0
    hands = query.get("hands") == "1"
    return _page(await _site(request).match(info["league"], info["match"], step, hands))


async def static(request: web.Request) -> web.Response:
    """The style sheet and the icon (shipped with the package)."""
    name, kind = _STATIC[request.path]
    body = files("bot.web").joinpath("static", name).read_bytes()
    return web.Response(body=body, content_type=kind)


def make_app(
    db: Database, budget: Budget | None = None, proxies: Proxies | None = None
) -> web.Application:
    """The application over ``db`` (the caller closes it); with ``budget``, each client
    (as ``proxies`` tell who it is) is held to it."""
    app = web.Application(
        middlewares=[spoken, guard, *([budgeted] if budget is not None else [])]
    )
    app[SITE] = Site(db)
    if budget is not None:
        app[BUDGET] = budget
        app[PROXIES] = proxies or Proxies()
    app.on_response_prepare.append(_headers)
    app.router.add_get("/", home)
    app.router.add_get(paths.GUILD, guild)
    app.router.add_get(paths.LEAGUE, league)
    app.router.add_get(paths.SEASON, season)
    app.router.add_get(paths.PLAYER, player)
    app.router.add_get(paths.MATCH, match)
    app.router.add_get(paths.EVENT, event)
    for path in _STATIC:
        app.router.add_get(path, static)
    return app
