"""Discord's rate limits, as the fake applies them to the bot's requests.

Each route has a bucket per major parameter (channel, guild, or webhook and token): a
fixed window of ``limit`` requests per ``per`` seconds that opens with its first request.
Every response carries the ``X-RateLimit-*`` headers discord.py reads; a request beyond
the window's limit gets 429 with ``retry_after`` and scope ``user``. On top of that the bot
token may make 50 requests per second across all routes (scope ``global``); interaction
callbacks and webhooks called with an interaction token are exempt, as on Discord.

Every request made with one interaction token — its callback, follow-ups, and the edits,
reads and deletes of its messages — shares one window of ``TOKEN_LIMIT`` (5 per 2 s),
never shortened by ``window_scale``. Discord documents only that a webhook's token is a
top-level resource of its limits (developers/topics/rate-limits.mdx: "webhooks
(``webhook_id`` or ``webhook_id + webhook_token``)"); the numbers are reported:
discord/discord-api-docs#2701 measured "5/2s per interaction" on the follow-up routes,
and Discord's reply there says "the rate limits used are identical to webhook rate
limits"; #7243 reports that 429s on the follow-up route counted toward the invalid-request
limit (10,000 per 10 minutes, rate-limits.mdx) and got bots banned.

Discord publishes no per-route numbers (clients must read the headers); the fake uses
what Discord's headers report for the routes Deckhand leans on: creating and editing
messages 5 per 5 s per channel, deleting 5 per second, anything else 50 per second.

``RateLimits.window_scale`` shortens every route's window (the counts stay): tests that
drive hundreds of moves as fast as a robot can click set it below 1 so that a whole game
does not take minutes of waiting; the limits themselves are still announced and enforced.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from tests.e2e.fake_state import Clock, RequestRecord

GLOBAL_PER_SECOND = 50
MESSAGES = "/channels/{channel_id}/messages"
ROUTE_LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("POST", MESSAGES): (5, 5.0),
    ("PATCH", MESSAGES + "/{message_id}"): (5, 5.0),
    ("DELETE", MESSAGES + "/{message_id}"): (5, 1.0),
}
DEFAULT_LIMIT = (50, 1.0)
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")
#: Requests per window with one interaction token, across its routes (reported, see above).
TOKEN_LIMIT = (5, 2.0)


@dataclass
class Window:
    """``limit`` requests per ``per`` seconds, the window opening with its first request."""

    limit: int
    per: float
    start: float = -math.inf
    used: int = 0

    def take(self, now: float) -> float:
        """Count one request; 0 if it may go, else the seconds until the window resets."""
        if now >= self.start + self.per or now < self.start:
            self.start, self.used = now, 0
        if self.used >= self.limit:
            return self.start + self.per - now
        self.used += 1
        return 0.0

    def reset_after(self, now: float) -> float:
        return max(self.start + self.per - now, 0.0)


@dataclass
class Verdict:
    """What the limiter says about one request: headers to send and, if refused, why."""

    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str = ""

    @property
    def refused(self) -> bool:
        return self.retry_after > 0


class RateLimits:
    """The buckets of one bot token."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.windows: dict[tuple[str, str, str], Window] = {}
        self.global_window = Window(GLOBAL_PER_SECOND, 1.0)
        self._scale = 1.0

    @property
    def window_scale(self) -> float:
        return self._scale

    @window_scale.setter
    def window_scale(self, scale: float) -> None:
        """Shorten (or restore) every route window from now on."""
        self._scale = scale
        self.windows.clear()

    def check(
        self, method: str, template: str, params: dict[str, str], *, global_limited: bool
    ) -> Verdict:
        now = self.clock.now()
        if global_limited:
            wait = self.global_window.take(now)
            if wait:
                return Verdict(_headers(self.global_window, now, "global"), wait, "global")
        if "webhook_token" in params:
            # One interaction token, whichever of its routes: not shortened by the scale.
            key = ("token", "", params["webhook_token"])
            window = self.windows.setdefault(key, Window(*TOKEN_LIMIT))
            route = "interaction token"
        else:
            major = ":".join(params[p] for p in MAJOR_PARAMETERS if p in params)
            limit, per = ROUTE_LIMITS.get((method, template), DEFAULT_LIMIT)
            key = (method, template, major)
            window = self.windows.setdefault(key, Window(limit, per * self._scale))
            route = f"{method} {template}"
        wait = window.take(now)
        headers = _headers(window, now, route)
        return Verdict(headers, wait, "user" if wait else "")


def _headers(window: Window, now: float, route: str) -> dict[str, str]:
    reset_after = window.reset_after(now)
    return {
        "X-RateLimit-Limit": str(window.limit),
        "X-RateLimit-Remaining": str(max(window.limit - window.used, 0)),
        "X-RateLimit-Reset": f"{now + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
    }


def too_many_body(retry_after: float, scope: str) -> tuple[dict[str, object], dict[str, str]]:
    """The 429 body and the headers Discord adds to it."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": scope == "global",
        "code": 0,
    }
    # discord.py reads a 429 without Google's ``Via`` header as a Cloudflare ban.
    headers = {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
    if scope == "global":
        headers["X-RateLimit-Global"] = "true"
    return body, headers


def token_of(record: RequestRecord) -> str | None:
    """The interaction token a request was made with (its path's third part), if any."""
    if not record.interaction_response:
        return None
    parts = record.path.split("/")
    return parts[3] if len(parts) > 3 else None


def busiest(requests: Iterable[RequestRecord], per: float = TOKEN_LIMIT[1]) -> dict[str, int]:
    """For each interaction token, the most requests made with it in any ``per`` seconds
    (a sliding window on the fake's clock, whatever Discord's own windows counted)."""
    times: dict[str, list[float]] = defaultdict(list)
    for record in requests:
        token = token_of(record)
        if token is not None:
            times[token].append(record.at)
    peaks: dict[str, int] = {}
    for token, seen in times.items():
        seen.sort()
        start, peak = 0, 0
        for end, at in enumerate(seen):
            while at - seen[start] >= per:
                start += 1
            peak = max(peak, end - start + 1)
        peaks[token] = peak
    return peaks
