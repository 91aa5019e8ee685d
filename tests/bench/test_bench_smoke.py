"""Smoke test of the benchmark entry points on tiny inputs (the numbers are not checked,
only that each entry point runs and measures what it says)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import games
from games.rng import rng_for
from games.simulate import play_game

# bench/ is not an installed package: import it from the checkout.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import __main__ as runner
from bench import discord_bench, engines, hotspots, reference, service_memory, strength, web_bench
from tests.games.support import of_a_game


def test_gin_random_hand_ends_the_first_hand() -> None:
    moves = engines.gin_random_hand(3)
    rate, mean = engines.gin_random_hands(2, seed=3)
    assert moves >= 4  # at least offer, draw, discard… before any hand can end
    assert rate.count == 2 and rate.per_second > 0
    assert mean == pytest.approx((moves + engines.gin_random_hand(4)) / 2)


def test_deckhand_deadwood_answers() -> None:
    gin_after_discard = ["AS", "2S", "3S", "4S", "AC", "AD", "AH", "6S", "7S", "8S", "8C"]
    no_melds = ["AS", "3H", "5D", "7C", "9S", "JH", "KD", "2C", "4S", "6H", "8D"]
    rate, values = engines.deckhand_deadwood([gin_after_discard, no_melds])
    assert values == [0, 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 4 + 6 + 8 - 10]
    assert rate.count == 2
    hands = engines.random_11_card_hands(3, seed=1)
    assert [len(set(h)) for h in hands] == [11, 11, 11]
    assert hands == engines.random_11_card_hands(3, seed=1)


def test_measure_game_reports_every_number() -> None:
    g = engines.measure_game("ono99", 1, seed=5)
    assert g.players == 4 and g.random_abandoned == 0
    assert g.steps.count == round(g.random_moves_per_game)
    assert g.dumps.count == g.loads.count == round(g.normal_moves_per_game) + 1
    assert len(g.normal_move_ms) == g.dumps.count - 1
    assert g.normal_move_ms == sorted(g.normal_move_ms)
    assert 0 < g.normal_ms(0.5) <= g.normal_ms(0.99) == g.normal_move_ms[-1]
    assert g.state_bytes > 100


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert engines.percentile(values, 0.5) == 50.0
    assert engines.percentile(values, 0.99) == 99.0
    assert engines.percentile([], 0.5) == 0.0


def test_play_game_random_seats_pick_what_choose_picks() -> None:
    game = games.get("gin_rummy")
    played = play_game(game, 2, 9, ["random", "normal"], {"target": 10})
    state = game.new(2, seed=9, options={"target": 10})
    rng = rng_for(9, "bots")
    for seat, action in played.actions:
        assert game.choose(state, seat, ("random", "normal")[seat], rng) == action
        state = game.apply(state, seat, action)
    assert state.is_over and game.dumps(state) == game.dumps(played.state)


def test_profile_names_the_hot_function() -> None:
    def busy() -> int:
        return sum(i * i for i in range(20_000))

    total, top = hotspots.top_functions(busy, limit=3)
    assert total > 0 and len(top) == 3
    assert any("busy" in h.function or "genexpr" in h.function for h in top)
    assert top[0].own_seconds >= top[-1].own_seconds


async def test_memory_per_active_table_on_a_real_file(tmp_path: Path) -> None:
    size = await service_memory.memory_per_table(tmp_path / "m.db", "spades", 2, 3)
    assert (tmp_path / "m.db").stat().st_size > 0
    assert 500 < size < 1_000_000


@pytest.mark.slow
def test_runner_sections_without_the_references() -> None:
    lines = runner.gin_section(runner.QUICK)
    assert any(ln.startswith("| Deckhand (Python loop) |") for ln in lines)
    for name, err in reference.available().items():
        assert any(name in ln for ln in lines)
        if err:
            assert any(f"{name} not measured" in ln for ln in lines)
    # The runner runs every hand mode and game; the end-to-end tests play the rest.
    discord = discord_bench.run(quick=True, modes=("channel",), names=("gin_rummy", "ono99"))
    assert "| gin_rummy |" in discord and "| ono99 |" in discord
    assert "| craits |" not in discord
    assert "Interaction → callback" in discord and "p99" in discord
    assert runner.fmt(12345.6) == "12,346" and runner.fmt(1.234) == "1.23"


def test_reference_engines_agree_on_deadwood() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("rlcard")
    hands = engines.random_11_card_hands(30, seed=random.Random(2).randrange(1000))
    _, ours = engines.deckhand_deadwood(hands)
    assert reference.openspiel_deadwood(hands)[1] == ours
    assert reference.rlcard_deadwood(hands)[1] == ours
    assert reference.openspiel_cpp_hands(1).count == 1
    assert reference.rlcard_hands(1)[1] > 0


async def test_the_page_benchmark_fetches_every_kind_of_page() -> None:
    rows = await web_bench.measure(3, 4, 1)
    assert [name.split(" ")[0] for name, _, _ in rows] == [
        "season", "player", "replay", "same,", "same,"]
    assert all(0 < median <= worst for _, median, worst in rows)


def test_strength_prints_a_row_per_lineup(capsys: pytest.CaptureFixture[str]) -> None:
    strength.main(["--games", "2", "--only", "gin_rummy", "--level", "normal"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| gin")]
    assert len(rows) == 1 and "| normal vs random | 2 |" in rows[0], rows


@pytest.mark.parametrize("name", sorted(strength.PILES))
def test_clairvoyant_worlds_are_the_real_state(name: str) -> None:
    """``all`` gives the search the state itself; ``hands`` every hand, the face-down pile
    in another order."""
    game = games.get(name)
    state = game.new(game.min_players, seed=3)
    pile = strength.PILES[name]
    same = strength.reveal(state)(game, {}, random.Random(1))
    assert same is not state and game.to_json(same) == game.to_json(state)
    worlds = [strength.reveal(state, pile)(game, {}, random.Random(k)) for k in range(3)]
    for world in worlds:
        assert of_a_game(world).hands == of_a_game(state).hands
        assert sorted(getattr(world, pile)) == sorted(getattr(state, pile))
    if len(getattr(state, pile)) > 1:  # Back Alley deals all but one card
        assert any(getattr(w, pile) != getattr(state, pile) for w in worlds)


async def test_the_fair_play_benchmark_times_every_list_and_both_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import fair_play_bench

    await fair_play_bench.main(300, tmp_path / "fair.db", idle=0.1)
    out = capsys.readouterr().out
    assert out.count(" without ") == 4 and "export, league_file" in out, out


def test_the_run_rewrites_only_what_lies_between_the_markers(tmp_path: Path) -> None:
    """A full run's engines and table service land between the markers (a marker quoted
    in a sentence is not one); a file without them is refused, not appended to."""
    page = tmp_path / "B.md"
    page.write_text(
        f"# B\n\nsee `{runner.BEGIN}`\n\n{runner.BEGIN}\nold\n{runner.END}\n\n## After\n"
    )
    done = {
        "Gin Rummy against the reference engines": ["| gin |"], "Every Deckhand game": ["| g |"],
    }
    runner.splice(page, runner.reference_block(["* Date: today"], done, "Load average at end"))
    text = page.read_text()
    assert text.startswith(f"# B\n\nsee `{runner.BEGIN}`\n\n{runner.BEGIN}\n")
    assert "old" not in text and "| gin |" in text and text.endswith(f"{runner.END}\n\n## After\n")
    assert "### Table service\n\nNot measured in this run." in text
    assert "(docs/benchmarks-history.md#table-service)" in text
    quoted = tmp_path / "quoted.md"
    quoted.write_text(f"quoted only: `{runner.BEGIN}` `{runner.END}`\n")
    with pytest.raises(SystemExit):
        runner.splice(quoted, "x")
    assert quoted.read_text() == f"quoted only: `{runner.BEGIN}` `{runner.END}`\n"


async def test_the_events_benchmark_records_every_table_of_a_small_event() -> None:
    from bench import events_bench

    plain, closing = await events_bench.record(16, 3)
    # 8 tables a round, the last of each round closes it (and pairs the next)
    assert len(plain) + len(closing) == 24 and len(closing) == 3


def test_the_stall_benchmark_serves_with_the_command_deckhand_serves_with() -> None:
    from bench import stall_bench
    from bot.web import server

    assert vars(stall_bench)["serve"] is server.serve
