"""``deckhand play`` end to end: the real program over pipes (and a pseudo-terminal),
full games of every game, resuming, bad input, interrupts; ``deckhand standings``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.services.tables.hints import UNRATED
from bot.terminal.app import LOCAL_USER_ID, channel_for
from bot.terminal.lines import columns_of
from tests.terminal.driver import ALL_ONES, ENV, RAN, USER, Live, cli, hands, headings, query
from tests.waiting import DEADLINE

SHORT = {
    "gin_rummy": ["-o", "target=10"],
    "spades": ["-o", "target=50"],
    "back_alley": ["-o", "deals=2"],
    "craits": ["-o", "short=on"],
    "ono99": ["--players", "3"],
}
TITLES = {
    "gin_rummy": "Gin Rummy", "spades": "Spades (two players)", "back_alley": "Back Alley",
    "craits": "Craits", "ono99": "ONO 99",
}


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text and "Error:" not in text, text[-3000:]


@pytest.mark.parametrize("game", sorted(SHORT))
def test_a_full_game_against_computers(tmp_path: Path, game: str) -> None:
    db = tmp_path / "d.db"
    run = cli("play", game, "--db", str(db), "--seed", "11", *SHORT[game], stdin=ALL_ONES)
    no_traceback(run.stdout, run.stderr)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert f"── {TITLES[game]} · game over" in out
    placings = out.split("Final placings:\n")[1].split("The game counts")[0].splitlines()
    assert len(placings) == (4 if game == "back_alley" else 3 if game == "ono99" else 2)
    assert any(re.match(rf"\s+\d+(st|nd|rd|th)\s+{USER}\s+−?\d+$", p) for p in placings)
    assert out.rstrip().endswith(f"Thanks for playing! Your results: {RAN} standings")
    # Every move the player made was accepted and logged under their id; computers moved too.
    moves = out.count("Your move [")
    (status, version), = query(db, "SELECT status, version FROM tables")
    assert status == "finished"
    logged = query(db, "SELECT by_user, count(*) FROM table_actions GROUP BY by_user"
                       " ORDER BY by_user IS NULL")
    assert logged[0] == (LOCAL_USER_ID, moves)
    assert logged[1][0] is None and logged[1][1] == version - moves > 0
    assert re.search(r"^Computer \(normal\) \d .+", out, re.M)  # their event lines
    assert not re.search(r"^Scores.*\nScores", out, re.M)  # the table's scores, once
    # The match is recorded with the human in it, and counted in the offline league.
    seats = query(db, "SELECT user_id, name FROM match_seats WHERE user_id IS NOT NULL")
    assert seats == [(LOCAL_USER_ID, USER)]
    assert query(db, "SELECT guild_id, channel_id, game FROM matches") == [
        (0, channel_for(game), game)
    ]
    assert query(db, "SELECT count(*) FROM league_matches") == [(1,)]


@pytest.mark.parametrize("game", sorted(SHORT))
def test_expert_computers_play_a_full_game(tmp_path: Path, game: str) -> None:
    """``--ai expert`` seats searching computers in every game (issue #20)."""
    db = tmp_path / "d.db"
    # (the searches' CPU: Craits took 41 s on a busy two-core machine, over 120 s beside
    # another suite)
    run = cli("play", game, "--db", str(db), "--seed", "7", "--ai", "expert", *SHORT[game],
              stdin=ALL_ONES, timeout=10 * DEADLINE)
    no_traceback(run.stdout, run.stderr)
    assert run.returncode == 0, run.stderr
    assert f"── {TITLES[game]} · game over" in run.stdout
    assert re.search(r"^Computer \(expert\) \d .+", run.stdout, re.M)
    assert query(db, "SELECT status FROM tables") == [("finished",)]


def test_quit_then_the_same_command_resumes_where_it_stopped(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    args = ["play", "gin_rummy", "--db", str(db), "--seed", "5"]
    first = cli(*args, stdin="1\n1\n1\nquit\n")
    no_traceback(first.stdout, first.stderr)
    assert first.returncode == 0
    saved = f"Your game is saved. Run `{RAN} play gin_rummy --db {db}` again"
    assert saved in first.stdout
    stopped_at, hand = headings(first.stdout)[-1], hands(first.stdout)[-1]
    (version,), = query(db, "SELECT version FROM tables WHERE status = 'playing'")
    assert stopped_at.split(" · ")[1] == f"move {version + 1}"

    again = cli("play", "gin_rummy", "--db", str(db), stdin=ALL_ONES)
    no_traceback(again.stdout, again.stderr)
    assert again.returncode == 0
    assert again.stdout.startswith(f"Resuming your Gin Rummy game at move {version + 1} (")
    assert headings(again.stdout)[0] == stopped_at
    assert hands(again.stdout)[0] == hand
    assert "── Gin Rummy · game over" in again.stdout
    # One table, played on: its log runs 1..N without a gap.
    assert query(db, "SELECT count(*), max(status) FROM tables") == [(1, "finished")]
    versions = [v for (v,) in query(db, "SELECT version FROM table_actions ORDER BY version")]
    assert versions == list(range(1, len(versions) + 1))


def test_bad_input_gets_a_message_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    args = ["play", "gin_rummy", "--db", str(db), "--seed", "5", "--hints"]
    script = "xyzzy\n999\n\n0\n-3\ndiscard ZZ\nknock\nhelp\nrules\nhint\n"
    run = cli(*args, stdin=script)  # then EOF mid-game
    no_traceback(run.stdout, run.stderr)
    assert run.returncode == 0
    out = run.stdout
    assert "Unknown move 'xyzzy'" in out
    assert "There is no move 999: pick 1-2." in out
    assert "There is no move 0: pick 1-2." in out
    assert "There is no move -3: pick 1-2." in out
    assert "Type 1-2 to pick from the list (1 is " in out
    assert "'ZZ' is not a card" in out
    assert "How to play:" in out
    assert "Gin Rummy for two players: form melds" in out
    assert "target: Points that end the game (default 100)" in out
    assert re.search(r"Hint: the normal computer would pick [12]\) [^:\n]+: [^\n]+\.\n", out)
    assert out.rstrip().endswith("again to continue it.")
    assert out.count("Your move [") == 11  # ten lines, then EOF
    assert query(db, "SELECT count(*) FROM table_actions WHERE by_user IS NOT NULL") == [(0,)]
    before = headings(out)

    resumed = cli(*args[:-1], stdin="quit\n")
    assert headings(resumed.stdout) == before


def test_sigint_at_the_prompt_keeps_the_game(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    live = Live("play", "spades", "--db", str(db), "--seed", "3", "-o", "target=50")
    live.expect("Your move [")
    live.send("1")
    live.expect("Your move [")
    live.interrupt()
    code, rest = live.finish()
    no_traceback(rest)
    assert code == 130
    assert "Stopped. Your game is saved." in rest
    assert query(db, "SELECT count(*) FROM table_actions WHERE by_user = ?", (LOCAL_USER_ID,)) \
        == [(1,)]
    finish = cli("play", "spades", "--db", str(db), stdin=ALL_ONES)
    no_traceback(finish.stdout, finish.stderr)
    assert finish.stdout.startswith("Resuming your Spades (two players) game")
    assert "── Spades (two players) · game over" in finish.stdout


def test_on_a_terminal_red_suits_and_ctrl_c(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    live = Live("play", "gin_rummy", "--db", str(db), "--seed", "5", tty=True)
    live.expect("Your move [")
    assert "\x1b[31m" in live.seen and "♥" in live.seen  # red hearts and diamonds
    assert "\x1b[1mGin Rummy\x1b[0m" in live.seen  # the renderer's **bold**
    live.expect("or help]: ")
    live.interrupt(ctrl_c=True)
    code, rest = live.finish()
    no_traceback(rest)
    assert code == 130
    assert "Stopped. Your game is saved." in rest


def test_no_color_turns_colour_off_on_a_terminal(tmp_path: Path) -> None:

    db = tmp_path / "d.db"
    live = Live("play", "gin_rummy", "--db", str(db), "--seed", "5", tty=True,
                env={**ENV, "NO_COLOR": "1"})
    live.expect("Your move [")
    assert "\x1b[" not in live.seen and "♥" in live.seen and "**" not in live.seen
    live.send("quit")
    code, rest = live.finish()
    assert code == 0 and "Your game is saved." in rest


def test_play_again_starts_a_rematch(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    live = Live("play", "ono99", "--db", str(db), "--seed", "2")
    while live.expect("Your move [", "Play again? [y/N]") != "Play again? [y/N]":
        live.send("1")
    live.send("y")
    live.expect("Rematch! A new ONO 99 game has started.")
    live.expect("Your move [")
    live.send("quit")
    code, rest = live.finish()
    assert code == 0 and "Your game is saved." in rest
    assert query(db, "SELECT status, seed FROM tables ORDER BY id") == [
        ("finished", 2), ("playing", 3)
    ]


def test_a_practice_game_gives_hints_and_counts_in_no_league(tmp_path: Path) -> None:
    """``--hints`` opens a practice game, which says so at once and at its end; hints are
    given, and the game is recorded but not counted (the rule ``/hint`` follows too)."""
    db = tmp_path / "d.db"
    run = cli("play", "ono99", "--db", str(db), "--seed", "4", "--hints",
              stdin="hint\nhint\n" + ALL_ONES)
    no_traceback(run.stdout, run.stderr)
    out = run.stdout
    assert out.count(UNRATED) == 2  # when the game starts, and at its end
    assert out.index(UNRATED) < out.index("Your move [")
    assert out.count("Hint: the normal computer would pick") == 2
    assert "The game counts in the local league" not in out
    assert query(db, "SELECT unrated FROM matches") == [(1,)]
    assert query(db, "SELECT count(*) FROM league_matches") == [(0,)]


def test_no_hint_in_a_rated_game_which_counts(tmp_path: Path) -> None:
    """Today's code gave the hint and took the game out of the league: a hint on the last
    turn erased the result. Here every turn asks for one; none is given, and it counts."""
    db = tmp_path / "d.db"
    run = cli("play", "ono99", "--db", str(db), "--seed", "4", stdin="hint\n1\n" * 3000)
    no_traceback(run.stdout, run.stderr)
    out = run.stdout
    turns = len(headings(out))
    assert out.count("Hints are off at this table") == turns > 3  # the last turn too
    assert f"{RAN} play ono99 --new --hints" in out
    assert "Hint: the" not in out and UNRATED not in out
    assert "The game counts in the local league" in out
    assert query(db, "SELECT unrated FROM matches") == [(0,)]
    assert query(db, "SELECT count(*) FROM league_matches") == [(1,)]


def test_standings_show_the_player_after_a_game(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    missing = cli("standings", "--db", str(db))  # today's code: "no games yet", status 0
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.strip().splitlines() == [
        f"{RAN} standings: There is no database at {db}: check --db (or DECKHAND_DB), or play"
        " a game"
        f" first ({RAN} play gin_rummy)."]
    assert not db.exists()

    cli("play", "ono99", "--db", str(db), "--seed", "4", stdin=ALL_ONES)
    run = cli("standings", "--db", str(db))
    no_traceback(run.stdout, run.stderr)
    lines = run.stdout.splitlines()
    assert lines[0] == "ONO 99 · Default league, season 1"
    assert lines[1].split() == ["#", "Player", "Rating", "Games", "W", "D", "L", "Win", "%",
                                "Avg", "score", "Streak"]
    row = next(line for line in lines if f" {USER} " in line)
    assert row.split()[0] == USER and row.split()[2] == "1"  # provisional: no rank; 1 game
    assert "Provisional (fewer than 5 games), not ranked:" in lines
    assert len({len(line) for line in lines[1:3]}) == 1  # header and rule align
    other = cli("standings", "--game", "gin_rummy", "--db", str(db))
    assert other.stdout.startswith(f"No games in the local standings ({db}) yet.")
    bad = cli("standings", "--game", "chess", "--db", str(db))
    assert bad.returncode == 2 and "Unknown game 'chess'" in bad.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "Unknown game 'chess'"),
        (["play", "gin_rummy", "--players", "3"], "Gin Rummy is for 2 players, not 3."),
        (["play", "gin_rummy", "-o", "target=5"], "Option 'target' must be at least 10."),
        (["play", "gin_rummy", "-o", "colour=red"], "Unknown option for Gin Rummy: colour"),
    ],
)
def test_bad_command_lines_are_refused_plainly(
    tmp_path: Path, args: list[str], message: str
) -> None:
    run = cli(*args, "--db", str(tmp_path / "d.db"))
    no_traceback(run.stdout, run.stderr)
    assert run.returncode == 2
    assert message in run.stdout + run.stderr


def test_a_saved_game_says_its_options_and_new_abandons_it(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    cli("play", "spades", "--db", str(db), "--seed", "1", "-o", "target=200", stdin="quit\n")
    again = cli("play", "spades", "--db", str(db), "-o", "target=300", "--ai", "expert",
                "--hints", stdin="quit\n")
    assert "(2 players; blind_nil=on target=200)" in again.stdout
    assert ("--ai, -o, --hints apply to new games, so not to this one: add --new to abandon"
            in again.stdout), again.stdout
    fresh = cli("play", "spades", "--db", str(db), "-o", "target=300", "--new", stdin="quit\n")
    assert fresh.returncode == 0 and "is abandoned (not counted)" in fresh.stdout
    rows = query(db, "SELECT status, options FROM tables ORDER BY id")
    assert [(status, json.loads(options)["target"]) for status, options in rows] == [
        ("aborted", 200), ("playing", 300)
    ]


def test_two_terminals_on_one_save_see_each_others_moves(tmp_path: Path) -> None:
    """The second terminal's move reaches the first: its stale move is refused plainly and
    it shows the game as it now is (no Discord words, no waiting for ever)."""
    db = tmp_path / "d.db"
    first = Live("play", "gin_rummy", "--db", str(db), "--seed", "3")
    first.expect("Your move [")
    second = Live("play", "gin_rummy", "--db", str(db))
    second.expect("Resuming your Gin Rummy game")
    second.expect("Your move [")
    second.send("2")  # pass (or the second move offered)
    second.expect("Your move [", "Play again?")
    first.send("1")
    first.expect("moved on in another terminal")
    first.expect("Your move [", "Play again?")
    for live in (first, second):
        live.send("quit")
        code, rest = live.finish()
        assert code == 0 and "button" not in rest and "Traceback" not in rest
    (version,), = query(db, "SELECT version FROM tables WHERE status = 'playing'")
    assert version >= 2


def test_bids_are_listed_under_their_own_number(tmp_path: Path) -> None:
    """'3' bids three, whatever else the list holds ('pass' and 'board' by name): today's
    list put 'Bid 2' under 3."""
    run = cli("play", "back_alley", "--db", str(tmp_path / "d.db"), "--seed", "2",
              stdin="3\nquit\n")
    assert run.returncode == 0, run.stderr
    assert re.search(r"^3\) Bid 3\b", run.stdout, re.M), run.stdout[-1500:]
    assert re.search(r"\bpass\) Pass\b", run.stdout) and "board) Claim board" in run.stdout
    assert "Your move [1-" in run.stdout and ", pass, board, or help]: " in run.stdout
    assert "You bid 3" in run.stdout or "bids 3" in run.stdout, run.stdout[-800:]
    spades = cli("play", "spades", "--db", str(tmp_path / "s.db"), "--seed", "3",
                 "-o", "target=50", stdin="2\n" * 13 + "0\nquit\n")
    assert "0) Bid Nil" in spades.stdout and "Your move [0-13, or help]: " in spades.stdout
    assert re.search(r"(You bid|tester bids) Nil", spades.stdout), spades.stdout[-1500:]


def test_blind_nil_and_the_board_are_asked_first_on_a_terminal(tmp_path: Path) -> None:
    """One key no longer declares Blind Nil: on a terminal it is asked, and no keeps the
    move to choose again (typed by name, too); piped, scripts play as they did."""
    live = Live("play", "spades", "--db", str(tmp_path / "d.db"), "--seed", "3", tty=True)
    while live.expect("Your move [", timeout=60) and "Blind Nil" not in live.seen:
        live.send("1")
    menu = re.search(r"(\d+)\) Blind Nil", live.seen)
    assert menu is not None, live.seen[-1500:]
    live.send(menu[1])
    live.expect("Declare Blind Nil? [y/N] ")
    live.send("n")
    live.expect("Not played: pick your move again.")
    live.expect("Your move [")
    live.send("blindnil")
    live.expect("Declare Blind Nil? [y/N] ")
    live.send("y")
    live.expect("Blind Nil", "blind nil")
    live.expect("Your move [", "Play again?")
    live.send("quit")
    code, rest = live.finish()
    assert code == 0, rest
    piped = cli("play", "back_alley", "--db", str(tmp_path / "b.db"), "--seed", "2",
                stdin="board\nquit\n")
    assert "Claim it?" not in piped.stdout and "board" in piped.stdout.lower()


def test_new_asks_before_it_abandons_on_a_terminal(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    cli("play", "ono99", "--db", str(db), "--seed", "4", stdin="quit\n")
    live = Live("play", "ono99", "--db", str(db), "--new", tty=True)
    live.expect("Abandon your unfinished ONO 99 game at move 1? It counts nowhere and cannot"
                " be resumed. [y/N] ")
    live.send("n")
    code, rest = live.finish()
    assert code == 1 and "Nothing was abandoned. Run `" in rest, rest
    assert query(db, "SELECT status FROM tables") == [("playing",)]
    live = Live("play", "ono99", "--db", str(db), "--new", tty=True)
    live.expect("[y/N] ")
    live.send("y")
    live.expect("is abandoned (not counted)")
    live.expect("Your move [")
    live.send("quit")
    assert live.finish()[0] == 0
    assert query(db, "SELECT status FROM tables ORDER BY id") == [("aborted",), ("playing",)]


def test_a_bad_option_with_new_keeps_the_saved_game(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    cli("play", "spades", "--db", str(db), "--seed", "1", stdin="quit\n")
    bad = cli("play", "spades", "--db", str(db), "--new", "-o", "blind_nil=maybe")
    assert bad.returncode == 2, bad.stderr
    assert bad.stderr.splitlines() == [
        f"{RAN} play: Option 'blind_nil' must be on or off, not 'maybe'."], bad.stderr
    assert "abandon" not in bad.stdout
    assert query(db, "SELECT status FROM tables") == [("playing",)]


def test_the_rules_a_bare_number_and_help_agree_on_bidding(tmp_path: Path) -> None:
    """One meaning for a bare number: it picks from the list, in the rules too."""
    import games

    rules = games.get("back_alley").rules
    assert "'bid 3'" in rules and "just 3" not in rules
    run = cli("play", "back_alley", "--db", str(tmp_path / "d.db"), "--seed", "2",
              stdin="help\n3\nquit\n")
    assert "A bare number always picks from the list: type `bid 3` to bid three." in run.stdout
    menu = re.search(r"^3\) (Bid \d+)", run.stdout, re.M) or re.search(
        r"\s3\) (Bid \d+)", run.stdout)
    assert menu is not None and f"You {menu.group(1).lower()}" in run.stdout.replace(
        "tester bids", "You bid"), run.stdout[-1500:]


def test_a_refused_card_by_its_place_names_the_card(tmp_path: Path) -> None:
    """'play 5' is the 5th card in hand, not list item 5: a refusal names the card."""
    script = "".join(f"play {n}\n" for n in range(1, 14)) + "quit\n"
    run = cli("play", "spades", "--db", str(tmp_path / "d.db"), "--seed", "3",
              "-o", "target=50", stdin="1\n" * 3 + script)
    no_traceback(run.stdout, run.stderr)
    refused = re.findall(r"^Play (?:10|[2-9JQKA])[♠♥♦♣]: .+", run.stdout, re.M)
    assert refused, run.stdout[-2000:]


def test_ctrl_c_at_play_again_does_not_speak_of_a_saved_game(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    live = Live("play", "ono99", "--db", str(db), "--seed", "4")
    while live.expect("Your move [", "Play again?") != "Play again?":
        live.send("1")
    live.interrupt()
    code, rest = live.finish()
    no_traceback(rest)
    assert code == 130 and "Stopped." in rest and "saved" not in rest, rest[-500:]


def test_ctrl_c_with_searching_computers_is_clean(tmp_path: Path) -> None:
    """Ctrl-C at a terminal reaches the search's worker processes too: today they each
    printed a traceback (25 lines). Now they ignore it, and the game says it is saved."""
    db = tmp_path / "d.db"
    live = Live("play", "gin_rummy", "--ai", "expert", "--db", str(db), "--seed", "5",
                tty=True)
    live.expect("Your move [", timeout=60)
    live.send("1")  # the expert answers, searching in its workers
    live.expect("Your move [", "Play again?", timeout=120)
    live.interrupt(ctrl_c=True)
    code, rest = live.finish()
    out = live.seen + rest
    assert code == 130, out[-2000:]
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out[-3000:]
    assert f"{RAN} play: Stopped. Your game is saved." in out, out[-1000:]
    assert query(db, "SELECT status FROM tables") == [("playing",)]


ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("width", [80, 100])
def test_no_word_is_broken_at_the_terminals_edge(tmp_path: Path, width: int) -> None:
    """Lines longer than the terminal (the pseudo-language's are 40 % longer) are cut
    between words: today's table lines broke mid-word at 80 and 100 columns."""
    script = ["1"] * 6 + ["help", "quit"]
    args = ["--lang", "en_XA", "play", "back_alley", "--seed", "3"]
    piped = cli(*args, "--db", str(tmp_path / "p.db"), stdin="\n".join(script) + "\n")
    live = Live(*args, "--db", str(tmp_path / "t.db"), tty=True,
                env={**ENV, "COLUMNS": str(width), "NO_COLOR": "1"})
    for line in script:
        live.expect(":", timeout=60)
        live.send(line)
    code, rest = live.finish()
    shown = ANSI.sub("", live.seen + live.buffer + rest).replace("\r", "")
    assert code == 0, shown[-2000:]
    too_wide = [ln for ln in shown.splitlines() if columns_of(ln) > width and " " in ln]
    assert not too_wide, too_wide[:3]
    assert max(columns_of(ln) for ln in piped.stdout.splitlines()) > width  # cut, not short
    words = set(piped.stdout.replace("p.db", "t.db").split()) | set(script)
    assert set(shown.split()) <= words, sorted(set(shown.split()) - words)[:10]
