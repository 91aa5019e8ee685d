"""One winner everywhere: when Gin Rummy's bonuses put the player who did not reach the
target first, the engine's event, the table message and the league all name that player."""

from __future__ import annotations

from bot.render import renderer
from bot.render.markup import markdown, markdown_lines
from bot.services.leagues import LeagueService
from games.gin_rummy import GAME as GIN
from games.gin_rummy.state import GinState
from games.simulate import play_game
from storage.matches import MatchRecord, SeatResult
from tests.leagues.conftest import Kit

NAMES = ("Alice", "Bob")


def flipped_finish() -> tuple[GinState, int]:
    """A real game's last hand, replayed with totals where the line bonuses flip the order:
    the knocker reaches 100 and gets the game bonus, the other player won 12 hands."""
    played = play_game(GIN, 2, 9, ["normal", "normal"], {"target": 100})
    state = GIN.new(2, seed=9, options={"target": 100})
    for seat, action in played.actions[:-1]:
        state = GIN.apply(state, seat, action)
    seat, action = played.actions[-1]
    assert isinstance(played.state, GinState) and played.state.final is not None
    reaching = played.state.final["reached"]
    state.scores = [99, 99]
    state.scores[1 - reaching] = 90
    state.hands_won = [0, 0]
    state.hands_won[1 - reaching] = 12
    state.hand_no = 13
    return GIN.apply(state, seat, action), reaching


async def test_gin_bonuses_flip_the_order_and_everyone_names_the_same_winner(kit: Kit) -> None:
    state, reaching = flipped_finish()
    other = 1 - reaching
    out = GIN.outcome(state)
    assert state.is_over and out.ranks[other] == 1 and out.ranks[reaching] == 2
    final = state.final
    assert final is not None
    assert final["reached"] == reaching and final["winner"] == other
    assert final["final"][other] == 90 + 12 * 25 > final["final"][reaching]
    over = next(e for e in state.events if e["type"] == "game_over")
    assert over["winner"] == other
    r = renderer("gin_rummy")
    said = r.event(over, NAMES)
    assert said is not None
    assert markdown(said).startswith(f"**{NAMES[other]} wins the game!**")
    table = markdown_lines(r.table(GIN.view(state, None), NAMES))
    assert f"**{NAMES[other]} wins!**" in table
    assert f"Game bonus +100 to {NAMES[reaching]}" in " ".join(table)

    seats = tuple(
        SeatResult(s, 100 + s, None, NAMES[s], s, out.scores[s], out.ranks[s]) for s in (0, 1)
    )
    match: MatchRecord = kit.match("gin_rummy", seats)
    await kit.record(match)
    svc: LeagueService = kit.svc
    standings = await svc.standings(kit.guild, game="gin_rummy")
    by_user = {row.user_id: (row.wins, row.losses) for row in standings.rows}
    assert by_user == {100 + other: (1, 0), 100 + reaching: (0, 1)}
