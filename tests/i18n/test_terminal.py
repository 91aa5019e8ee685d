"""The terminal in a language: ``--lang`` (before or after the command) or the locale
variables, as gettext reads them; every line of a game in the pseudo-language is out of
the catalogs, and a language Deckhand does not have is refused in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import language
from i18n import SOURCE, _, languages, speaking
from i18n.catalogs import PSEUDO_SWITCH
from tests.i18n.surfaces import leftovers
from tests.terminal.driver import ENV, RAN, USER, cli

#: The terminal's environment with the pseudo-language allowed.
PSEUDO_ENV = {**ENV, PSEUDO_SWITCH: "1"}
#: What the terminal prints that is not prose: the player, and commands to type.
TYPED = (USER, RAN, "play … -o name=value", "play … --ai LEVEL", "play gin_rummy", "standings",
         "hint", "help", "rules", "quit")


def _prose(out: str) -> list[str]:
    for typed in sorted(TYPED, key=len, reverse=True):
        out = out.replace(typed, " ")
    return leftovers(out)


def test_a_game_in_the_pseudo_language_says_nothing_in_plain_english(tmp_path: Path) -> None:
    db = str(tmp_path / "d.db")
    played = cli("--lang", "en_XA", "play", "back_alley", "--db", db, "--seed", "3",
                 stdin="1\nhint\nhelp\nrules\n" + "1\n" * 40 + "quit\n", env=PSEUDO_ENV)
    assert played.returncode == 0, played.stderr
    assert "Ýöûŕ ĥåñď" in played.stdout and "Your hand" not in played.stdout
    assert not _prose(played.stdout + played.stderr)
    shown = cli("standings", "--db", db, "--lang", "en_XA", env=PSEUDO_ENV)
    assert shown.returncode == 0 and not _prose(shown.stdout.replace(db, " ")), shown.stdout


def test_the_locale_variables_choose_the_language(tmp_path: Path) -> None:
    env = {**PSEUDO_ENV, "LANGUAGE": "xx:en_XA", "LANG": "en_US.UTF-8"}
    out = subprocess.run([sys.executable, "-m", "bot", "standings", "--db",
                          str(tmp_path / "none.db")], capture_output=True, text=True,
                         env=env, cwd=Path(__file__).resolve().parents[2], check=False)
    assert out.returncode == 0 and "Ñö ğåɱéš" in out.stdout, out.stdout


def test_a_language_deckhand_lacks_is_refused_in_one_line() -> None:
    refused = cli("--lang", "xx", "standings")
    assert refused.returncode == 2
    spoken = ", ".join(languages())
    assert refused.stderr.strip() == f"deckhand: Deckhand speaks {spoken}, not 'xx'."
    huge = cli("--lang", "x" * 2000, "standings")  # echoed clipped, on one short line
    assert huge.returncode == 2 and len(huge.stderr) < 200 and "…" in huge.stderr


def test_the_pseudo_language_is_only_for_the_tests_that_ask_for_it() -> None:
    """Without ``DECKHAND_PSEUDO=1`` nobody can choose it: ``--lang en_XA`` and the locale
    variables read it as the English it is a variant of."""
    shown = cli("--lang", "en_XA", "standings", "--db", "none.db")
    assert shown.returncode == 0 and "Ñö ğåɱéš" not in shown.stdout, shown.stdout
    assert language(["play", "--lang", "en_XA"], {}) == SOURCE
    assert language(["play"], {"LANG": "en_XA.UTF-8"}) == SOURCE


def test_the_run_language_is_lang_then_the_environment_then_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(PSEUDO_SWITCH, "1")
    assert language(["play", "x", "--lang=en_XA"], {"LANG": "en_US"}) == "en_XA"
    assert language(["play"], {"LC_ALL": "en_XA.UTF-8"}) == "en_XA"
    assert language(["play"], {"LANG": "C.UTF-8"}) == "en"


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != SOURCE])
def test_a_game_in_each_language(tmp_path: Path, lang: str) -> None:
    """The terminal plays in every shipped language: the hand, the table and the prompts
    are the catalog's, not English."""
    played = cli("--lang", lang, "play", "back_alley", "--db", str(tmp_path / "d.db"),
                 "--seed", "3", stdin="1\n" * 20 + "quit\n")
    assert played.returncode == 0, played.stderr
    with speaking(lang):
        hand = _("Your hand: {cards}").split("{", 1)[0]
        bid = _("Your bid.")
    assert hand in played.stdout and bid in played.stdout, played.stdout
    assert "Your hand" not in played.stdout and "Your bid" not in played.stdout
