"""Each game names its game: `--game` on new, selfplay, replay, show and demo, the
games listed by --help, and the game stored with every game (pbem.games)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import pytest
from typer.testing import CliRunner

from engine.protocol import Variant
from engine.registry import GAMES, UnknownGameError, default_name
from pbem.cli import app
from pbem.games import listing
from pbem.store import Game

from .fakes import NOW, PLAYERS, make_moderator

runner = CliRunner()
RECORDED = Path(__file__).resolve().parents[1] / "logs" / "fixtures" / "princes-recorded-4p.log"
DEFAULT = "princes-of-florence"


@dataclass(frozen=True)
class TinyGame:
    """A registered game with no rules: enough for names, variants and ids."""

    name: str = "tiny-test-game"
    title: str = "Tiny Test Game"
    variants: MappingProxyType[str, Variant] = field(default_factory=lambda: MappingProxyType(
        {"duel": Variant("duel", 2, 2), "melee": Variant("melee", 3, 6)}))


@pytest.fixture
def tiny() -> Iterator[TinyGame]:
    game = TinyGame()
    unregister = GAMES.register(game)
    try:
        yield game
    finally:
        unregister()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def flat(text: str) -> str:
    """Help text without rich's boxes and line breaks."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


# --------------------------------------------------------------------- the store


def test_the_default_game_is_the_first_game() -> None:
    assert default_name() == DEFAULT
    assert listing()[0] == f"{DEFAULT}: standard (3-5), two-player (2) (default)"


def test_new_game_stores_its_game_and_takes_its_id_prefix() -> None:
    mod = make_moderator()
    first = mod.new_game(PLAYERS, NOW)
    named = mod.new_game(PLAYERS, NOW, game=DEFAULT)
    assert (first, named) == ("pof-1", "pof-2")  # the presenter's id_prefix
    with mod.store.read() as s:
        stored = {g: s.get(Game, g) for g in (first, named)}
    assert {g: row.game for g, row in stored.items() if row is not None} == \
        {"pof-1": DEFAULT, "pof-2": DEFAULT}


def test_new_game_refuses_an_unknown_game() -> None:
    mod = make_moderator()
    with pytest.raises(UnknownGameError, match="'chess'; known games: princes-of-florence"):
        mod.new_game(PLAYERS, NOW, game="chess")
    with mod.store.read() as s:
        assert s.get(Game, "pof-1") is None


# ----------------------------------------------------------------------- --help


@pytest.mark.parametrize("command", [[], ["new"], ["selfplay"], ["replay"], ["show"], ["demo"]])
def test_help_lists_the_games_with_their_variants(tiny: TinyGame, command: list[str]) -> None:
    code, out = invoke(*command, "--help")
    assert code == 0
    text = flat(out)
    assert f"{DEFAULT}: standard (3-5), two-player (2) (default)" in text
    assert "tiny-test-game: duel (2), melee (3-6)" in text


def test_help_of_commands_without_game_does_not_list_them() -> None:
    code, out = invoke("status", "--help")
    assert code == 0 and DEFAULT not in out


# ---------------------------------------------------------------- the log tools


def test_selfplay_game_defaults_accepts_and_refuses() -> None:
    code, plain = invoke("selfplay", "--seed", "7", "-n", "3")
    assert code == 0 and plain.startswith(f'[Game "{DEFAULT}"]')
    code, named = invoke("selfplay", "--seed", "7", "-n", "3", "--game", "Princes-of-Florence")
    assert (code, named) == (0, plain)
    code, out = invoke("selfplay", "--game", "chess")
    assert code == 2
    assert "unknown game 'chess'; known games: princes-of-florence" in flat(out)


def test_replay_game_accepted_defaulted_unknown(tmp_path: Path) -> None:
    assert invoke("replay", str(RECORDED))[0] == 0
    assert invoke("replay", str(RECORDED), "--game", DEFAULT)[0] == 0
    untagged = tmp_path / "untagged.log"
    untagged.write_text(re.sub(r'\[Game "[^"]*"\]\n', "", RECORDED.read_text()))
    assert "[Game" not in untagged.read_text()
    assert invoke("replay", str(untagged), "--game", DEFAULT)[0] == 0
    code, out = invoke("replay", str(RECORDED), "--game", "chess")
    assert code == 2 and "known games: princes-of-florence" in flat(out)


def test_replay_tag_and_game_that_differ_are_an_error(tiny: TinyGame, tmp_path: Path) -> None:
    code, out = invoke("replay", str(RECORDED), "--game", tiny.name, "--json")
    assert code == 1
    assert "this is a log of 'princes-of-florence', not of 'tiny-test-game' (--game)" in out
    untagged = tmp_path / "untagged.log"
    untagged.write_text(re.sub(r'\[Game "[^"]*"\]\n', "", RECORDED.read_text()))
    code, out = invoke("replay", str(untagged), "--game", tiny.name)
    # the fake game has rules but no notation: a log of it cannot be read
    assert code == 1 and "unknown game 'tiny-test-game'" in out and "(--game)" in out


def test_show_game_option(tiny: TinyGame) -> None:
    code, out = invoke("show", str(RECORDED), "--at", "5", "--game", DEFAULT)
    assert code == 0 and "after line 5" in out
    code, out = invoke("show", str(RECORDED), "--game", tiny.name)
    assert code == 1 and "not of 'tiny-test-game' (--game)" in out
    assert invoke("show", str(RECORDED), "--game", "chess")[0] == 2


# ------------------------------------------------------------- new and demo


SEATS = ("-p", "anna:anna@example.org", "-p", "bas:bas@example.org",
         "-p", "chris:chris@example.org")


def stored_games(env: Path) -> dict[str, str]:
    from sqlmodel import select

    from pbem.store import Store

    store = Store(f"sqlite:///{env / 'var' / 'pbem.sqlite'}")
    with store.read() as s:
        found = {g.id: g.game for g in s.exec(select(Game))}
    store.dispose()
    return found


def test_new_game_option_default_named_and_the_old_id_spelling(env: Path) -> None:
    assert invoke("new", *SEATS)[1].startswith("created pof-1:")
    assert invoke("new", *SEATS, "--game", DEFAULT)[1].startswith("created pof-2:")
    code, out = invoke("new", *SEATS, "--game", DEFAULT, "--id", "pof-9")
    assert code == 0 and out.startswith("created pof-9:")
    # Before --id, --game gave the game's id: a value naming no game still does.
    code, out = invoke("new", *SEATS, "--game", "pof-17")
    assert code == 0 and out.startswith("created pof-17:")
    assert stored_games(env) == dict.fromkeys(("pof-1", "pof-2", "pof-9", "pof-17"), DEFAULT)


def test_new_unknown_game_with_an_id_is_a_usage_error(env: Path) -> None:
    code, out = invoke("new", *SEATS, "--game", "chess", "--id", "c-1")
    assert code == 2 and "unknown game 'chess'; known games: princes-of-florence" in flat(out)


def test_demo_unknown_game_is_a_usage_error(env: Path) -> None:
    code, out = invoke("demo", "--out", str(env / "demo"), "--game", "chess")
    assert code == 2 and "known games: princes-of-florence" in flat(out)
    assert not (env / "demo").exists()


def first_event_options(env: Path, game_id: str) -> dict[str, str]:
    from engine.registry import get_game
    from pbem.store import Store, load_events

    store = Store(f"sqlite:///{env / 'var' / 'pbem.sqlite'}")
    with store.read() as s:
        options = dict(get_game().setup(load_events(s, game_id)[0]).options)
    store.dispose()
    return options


def test_new_takes_game_options_by_name_and_by_flag(env: Path) -> None:
    # --option NAME=VALUE for any game's options; --NAME-CHOICE as the old flags were
    assert invoke("new", *SEATS)[0] == 0
    assert invoke("new", *SEATS, "--option", "money=open")[0] == 0
    assert invoke("new", *SEATS, "--money-open")[0] == 0
    assert invoke("new", *SEATS, "--money-open", "--no-money-open")[0] == 0
    assert [first_event_options(env, f"pof-{n}")["money"] for n in (1, 2, 3, 4)] == \
        ["hidden", "open", "open", "hidden"]
    code, out = invoke("new", *SEATS, "--option", "colour=red")
    assert code == 2 and "unknown game option 'colour=red'" in flat(out)
    code, out = invoke("new", *SEATS, "--bogus")
    assert code == 2 and "no such option: --bogus" in flat(out)
    code, out = invoke("new", *SEATS, "--option", "money=purple")
    assert code == 2 and "'open' or 'hidden', not 'purple'" in flat(out)
    assert set(stored_games(env)) == {"pof-1", "pof-2", "pof-3", "pof-4"}
    assert "--option money=hidden|open (also --money-open)" in flat(invoke("new", "--help")[1])


def test_new_takes_the_expansion_as_option_flag_and_value(env: Path) -> None:
    # --expansion VALUE and --expansion=VALUE for any game's option, as well as the others
    assert invoke("new", *SEATS, "--expansion", "muse-and-princess")[0] == 0
    assert invoke("new", *SEATS, "--expansion=muse-and-princess")[0] == 0
    assert invoke("new", *SEATS, "--option", "expansion=muse-and-princess")[0] == 0
    assert invoke("new", *SEATS)[0] == 0
    assert [first_event_options(env, f"pof-{n}")["expansion"] for n in (1, 2, 3, 4)] == \
        ["muse-and-princess"] * 3 + ["none"]
    code, out = invoke("new", *SEATS, "--expansion", "cities")
    assert code == 2 and "'none' or 'muse-and-princess', not 'cities'" in flat(out)
