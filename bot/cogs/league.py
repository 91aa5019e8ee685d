"""``/league create|join|standings|history|export|publish`` and ``/league season new|list``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.cogs import NAME_LENGTH, anywhere, app, game_choices
from bot.render import columns
from bot.render.messages import MessageSpec
from bot.render.scoring import scoring_words
from bot.services import exports, publication
from bot.services.leagues import LeagueService, Standings
from bot.text import plain
from bot.ui import places
from bot.ui.answers import CONTENT_LIMIT, defer, privately, publicly, reply
from bot.web import paths
from i18n import N_, _, ngettext, number
from storage.leagues import League
from storage.matches import PlayedMatch

ROWS_SHOWN = 15


def fit_lines(
    lines: list[str], more: Callable[[int], str], limit: int = CONTENT_LIMIT - 40
) -> str:
    """As many whole lines as fit in one message, and how many more there are (``more``
    says it for a count)."""
    shown: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            return "\n".join(shown) + "\n" + more(len(lines) - len(shown))
        shown.append(line)
        size += len(line) + 1
    return "\n".join(shown)


def standings_text(st: Standings) -> str:
    """Standings as a short monospace table (provisional players, apart under their
    heading, have no rank)."""
    if st.game is None or not st.rows:
        return _("No games have counted toward **{league}** in season {season} yet.",
                 league=plain(st.league.name), season=number(st.season))
    title = _(games.get(st.game).title)
    season = (_("season {season}", season=number(st.season)) if st.current
              else _("season {season} (finished)", season=number(st.season)))
    head = f"**{plain(st.league.name)}** · {title} · {season} · {st.scoring}"
    points = st.scoring != "rating"
    column = columns.points() if points else _("Rating")
    player, played = _("Player"), columns.played()
    (won, drawn, lost), streak = columns.won_drawn_lost(), _("Streak")
    shown = st.rows[:ROWS_SHOWN]
    lines = columns.grid([
        "#", player, column, played, won, drawn, lost, streak
    ], [
        ["" if r.provisional else str(r.position), r.name[:18].replace("`", "'"),
         str(r.points if points else r.rating_display), str(r.games), str(r.wins),
         str(r.draws), str(r.losses), r.streak]
        for r in shown
    ])
    first = next((i for i, r in enumerate(shown) if r.provisional), None)
    if first is not None:  # the provisional players apart, after the ranked ones
        lines.insert(1 + first, st.provisional_heading)
    more = ("\n" + _("…and {more} more", more=number(st.total - ROWS_SHOWN))
            if st.total > ROWS_SHOWN else "")
    return head + "\n```\n" + "\n".join(lines) + "\n```" + more


REPLAY_HINT = N_("Replay a game with `/game replay id:`.")


def history_text(matches: list[PlayedMatch]) -> str:
    """The last matches, newest first, one line each with the match's number (to replay)."""
    if not matches:
        return _("No games yet.")
    out = []
    for m in matches:
        seats = sorted(m.seats, key=lambda s: (s.rank, s.seat))
        result = " · ".join(f"{s.rank}. {plain(str(s.name))} {s.score}" for s in seats)
        out.append(
            f"<t:{int(m.finished_at)}:d> #{m.match_id} **{_(games.get(m.game).title)}** — {result}"
        )
    older = fit_lines(out, lambda n: ngettext("…and {n} older game", "…and {n} older games", n),
                      CONTENT_LIMIT - 80)
    return f"{older}\n{_(REPLAY_HINT)}"


@anywhere
class LeagueCommands(commands.GroupCog, group_name="league", group_description="Leagues"):
    """Every finished game counts toward the server's league (a DM's or group DM's own, in
    one); named leagues are extra. What needs Manage Server in a server needs the keeper
    of a DM or group DM there (``bot.ui.places``). Each command acknowledges first (the
    database may be slow) and fails through the one error path (``bot.ui.answers``)."""

    season = app_commands.Group(name="season", description="League seasons")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> LeagueService:
        return app(self.bot).leagues

    @app_commands.command(name="create", description="Create a league (Manage Server)")
    @app_commands.describe(
        name="League name",
        game="Only this game counts (default: every game)",
        scoring="rating, points, or points:W/D/L such as points:3/1/0",
        provisional="Games a player needs before being ranked (default 5)",
    )
    @app_commands.choices(game=game_choices())
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, NAME_LENGTH],
        game: str | None = None,
        scoring: app_commands.Range[str, 1, 40] = "rating",
        provisional: app_commands.Range[int, 0, 1000] = 5,
    ) -> None:
        guild_id = _guild(interaction)

        async def work() -> dict[str, Any]:
            admin = await places.is_admin(self.service.db, interaction, _("create leagues"))
            league = await self.service.create_league(
                guild_id, name, is_admin=admin, game=game, scoring=scoring,
                provisional_games=provisional,
            )
            what = _(games.get(league.game).title) if league.game else _("every game")
            return {
                "content": _(
                    "League **{league}** created ({what}, {scoring}; ranked after {games})."
                    " Play toward it with `/table new … league:{league}`.",
                    league=plain(league.name), what=what, scoring=scoring_words(league.scoring),
                    games=ngettext("{n} game", "{n} games", league.provisional_games),
                ),
            }

        await publicly(interaction, work)

    @app_commands.command(name="join", description="How to play in a league, and your place in it")
    @app_commands.describe(name="League name (default: the server's league)")
    async def join(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
    ) -> None:
        guild_id = _guild(interaction)

        async def work() -> str:
            league = await self.service.league(guild_id, name)
            what = _(games.get(league.game).title) if league.game else _("any game")
            how = (
                _("every finished game here counts")
                if league.is_default
                else _("open tables with `/table new game:… league:{league}`",
                       league=plain(league.name))
            )
            return _(
                "There is nothing to sign: in **{league}** ({what}, {scoring}) {how}. You"
                " appear in `/league standings` after your first counted game.",
                league=plain(league.name), what=what, scoring=scoring_words(league.scoring),
                how=how,
            )

        await privately(interaction, work)

    @app_commands.command(name="standings", description="League standings")
    @app_commands.describe(
        league="League name (default: the server's league)",
        game="Which game's standings",
        season="Season number (default: current)",
    )
    @app_commands.choices(game=game_choices())
    async def standings(
        self,
        interaction: discord.Interaction,
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
        game: str | None = None,
        season: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        guild_id = _guild(interaction)

        async def work() -> dict[str, Any]:
            st = await self.service.standings(guild_id, league, game=game, season=season)
            return {"content": standings_text(st) + await self._page_link(st.league, st.season)}

        await publicly(interaction, work)

    async def _page_link(self, league: League, season: int) -> str:
        """A line linking the season's page, when the site is set up and the league
        published; else nothing."""
        base = app(self.bot).settings.web_url
        slugs = await publication.slugs(app(self.bot).db) if base and league.published else None
        if slugs is None:
            return ""
        page = f"<{base}{paths.season(slugs, league.id, season)}>"
        return "\n" + _("Standings page: {page}", page=page)

    @app_commands.command(
        name="publish",
        description="Show a league on the standings web page, or not (Manage Server)",
    )
    @app_commands.describe(
        state="on: publish the league's standings, players and finished games; off: take it off",
        league="League name (default: the server's league)",
    )
    async def publish(
        self,
        interaction: discord.Interaction,
        state: Literal["on", "off"],
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
    ) -> None:
        guild_id = _guild(interaction)

        async def work() -> dict[str, Any]:
            found = await self.service.league(guild_id, league)
            on = state == "on"
            admin = await places.is_admin(self.service.db, interaction, _("publish its leagues"))
            await publication.set_published(app(self.bot).db, found, on, is_admin=admin)
            name = plain(found.name)
            if not on:
                return {"content": _("**{league}** is no longer on the standings page.",
                                     league=name)}
            published = await self.service.league(guild_id, found.name)
            return {
                "content": _(
                    "**{league}** is now on the standings page: its standings, players'"
                    " records and finished games (never a running game's cards).", league=name,
                ) + await self._page_link(published, published.season)
            }

        await publicly(interaction, work)

    @app_commands.command(name="history", description="Recent games of a league or a player")
    @app_commands.describe(
        league="League name (default: the server's league)", user="Only this player's games"
    )
    async def history(
        self,
        interaction: discord.Interaction,
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
        user: discord.User | None = None,
    ) -> None:
        guild_id = _guild(interaction)

        async def work() -> str:
            if user is not None:
                matches = await self.service.player_history(guild_id, user.id, league=league)
            else:
                matches = await self.service.league_history(guild_id, league)
            return history_text(matches)

        await privately(interaction, work)

    @app_commands.command(
        name="export",
        description="A league's finished games as a JSON-lines file (Manage Server, or a"
        " published league)",
    )
    @app_commands.describe(league="League name (default: the server's league)")
    async def export(
        self,
        interaction: discord.Interaction,
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        await defer(interaction)
        found = await self.service.league(guild_id, league)
        unpublished = None if found.published else _("export a league that is not published")
        admin = await places.is_admin(self.service.db, interaction, unpublished)
        export = await exports.league_file(self.service.db, found, is_admin=admin)
        name = "".join(c if c.isalnum() else "-" for c in found.name.lower())
        counted = ngettext("{n} game", "{n} games", export.games)
        await reply(interaction, MessageSpec(
            content=_("{games} of **{league}** (schema: `deckhand.game/1`; check them with"
                      " `deckhand replay {file}`).", games=counted, league=plain(found.name),
                      file=f"{name}.jsonl"),
            files=((f"{name}.jsonl", export.data),),
        ))

    @season.command(name="new", description="End the season and start the next (Manage Server)")
    @app_commands.describe(league="League name (default: the server's league)")
    async def season_new(
        self,
        interaction: discord.Interaction,
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
    ) -> None:
        guild_id = _guild(interaction)

        async def work() -> dict[str, Any]:
            admin = await places.is_admin(self.service.db, interaction, _("start a new season"))
            s = await self.service.new_season(guild_id, league, is_admin=admin)
            return {
                "content": _(
                    "Season {season} has started; the last season's standings stay viewable"
                    " with `/league standings season:{last}`.", season=number(s.season),
                    last=s.season - 1,
                ),
            }

        await publicly(interaction, work)

    @season.command(name="list", description="A league's seasons")
    @app_commands.describe(league="League name (default: the server's league)")
    async def season_list(
        self,
        interaction: discord.Interaction,
        league: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
    ) -> None:
        guild_id = _guild(interaction)

        async def work() -> str:
            seasons = await self.service.seasons(guild_id, league)
            lines = [
                _("Season {season}: {start} – {end}", season=number(s.season),
                  start=f"<t:{int(s.started_at)}:d>",
                  end=f"<t:{int(s.ended_at)}:d>" if s.ended_at else _("now"))
                for s in reversed(seasons)
            ]
            earlier = fit_lines(lines, lambda n: ngettext(
                "…and {n} earlier season", "…and {n} earlier seasons", n))
            return earlier or _("No seasons yet.")

        await privately(interaction, work)


def _guild(interaction: discord.Interaction) -> int:
    """The league scope: the server's, or a DM's or group DM's own."""
    scope = places.scope_of(interaction)
    assert scope is not None  # not offered in the bot's own DM
    return scope


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(LeagueCommands(bot))
