"""The notation contract, over every game with both rules and a grammar registered
(the test games included), and proof that its checks fail for grammars that break it."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from engine.consent import Refuse
from engine.registry import GAMES
from notation import Vocabulary
from notation.registry import GRAMMARS
from tests.games.highcard import GAME as HIGH_CARD
from tests.games.highcard import notation as hc
from tests.games.highcard.commands import Bid, Reveal

from .checks import play
from .notation_checks import (
    Commands,
    WrittenLog,
    check_chance_round_trip,
    check_commands_round_trip,
    check_garbage_commands,
    check_garbage_logs,
    check_grammar_shape,
    check_log_round_trip,
    commands_of,
    write_log,
)

SEEDS = 3  # random games per table whose commands are round-tripped
GARBAGE = 8000  # bad lines per table
GARBAGE_LOGS = 400  # mutated logs per table
PAIRS = [(game, GRAMMARS.get(game.name)) for game in GAMES.all()
         if game.name in GRAMMARS.names()]
TABLES = [
    pytest.param(game, grammar, variant, n, id=f"{game.name}-{variant.name}-{n}")
    for game, grammar in PAIRS
    for variant in game.variants.values()
    for n in range(variant.min_players, variant.max_players + 1)
]


@cache
def _commands(game: Any, variant: Any, n: int) -> Commands:
    return commands_of(play(game, variant, n, seed) for seed in range(SEEDS))


@cache
def _log(game: Any, grammar: Any, variant: Any, n: int) -> WrittenLog:
    return write_log(game, grammar, play(game, variant, n, SEEDS))


def test_the_games_with_grammars_are_checked() -> None:
    assert {g.name for g, _ in PAIRS} >= {"high-card", "princes-of-florence"}


@pytest.mark.parametrize(("game", "grammar"), PAIRS, ids=lambda x: x.name)
def test_shape(game: Any, grammar: Any) -> None:
    check_grammar_shape(game, grammar)


@pytest.mark.parametrize(("game", "grammar", "variant", "n"), TABLES)
def test_commands_round_trip(game: Any, grammar: Any, variant: Any, n: int) -> None:
    commands = _commands(game, variant, n)
    assert len(commands.player) > 3 and commands.chance, commands
    check_commands_round_trip(grammar, commands)
    check_chance_round_trip(grammar, commands)


@pytest.mark.parametrize(("game", "grammar", "variant", "n"), TABLES)
def test_log_round_trip(game: Any, grammar: Any, variant: Any, n: int) -> None:
    written = _log(game, grammar, variant, n)
    assert any(getattr(i, "command", None) == Refuse() for i in written.log.items)
    check_log_round_trip(game, grammar, written)


@pytest.mark.parametrize(("game", "grammar", "variant", "n"), TABLES)
def test_garbage_is_a_notation_error(game: Any, grammar: Any, variant: Any, n: int) -> None:
    read = check_garbage_commands(grammar, _commands(game, variant, n), "contract", GARBAGE)
    assert 0 < read < GARBAGE // 2, f"{read} of {GARBAGE} bad lines read as commands"
    check_garbage_logs(grammar, _log(game, grammar, variant, n), "contract", GARBAGE_LOGS)


# --------------------------------------------------------------------------- broken grammars


class Misformat(hc.HighCardGrammar):
    """Writes a bid one higher than it is, and a reveal as a deal."""

    name = "high-card-misformat"

    @staticmethod
    def format_command(cmd: object) -> str:
        if isinstance(cmd, Bid):
            return f"bid {cmd.amount + 1}"
        if isinstance(cmd, Reveal):
            return f"* deal nobody: {cmd.card}"
        return hc.format_command(cmd)


def _crashing_read(r: Any, players: Any) -> Any:
    if r.peek().lower() == "bid":
        return Bid(int(r.toks[1]))  # IndexError on a bare 'bid', ValueError on 'bid x'
    return hc.read_command(r, players)


def _crashing_parse(text: str, players: Any = ()) -> Any:
    toks = text.split()
    if toks and toks[0].lower() == "bid":
        return Bid(int(toks[1]))
    return hc.parse_command(text, players)


class Crashing(hc.HighCardGrammar):
    """Reads a bid's amount without looking."""

    name = "high-card-crashing"
    parse_command = staticmethod(_crashing_parse)
    read_command = staticmethod(_crashing_read)

    @staticmethod
    def fast_command(toks: list[str], players: Any) -> Any:
        return None  # every line goes to read_command


class FastAndLoose(hc.HighCardGrammar):
    """Its fast path reads every bid as a bid of 1."""

    name = "high-card-fast-and-loose"

    @staticmethod
    def fast_command(toks: list[str], players: Any) -> Any:
        if toks and toks[0] == "bid":
            return Bid(1)
        return hc.fast_command(toks, players)


class WrongTags(hc.HighCardGrammar):
    """Knows no option tag, and lets 'und' stand for 'undo'."""

    name = "high-card"
    tags: tuple[str, ...] = ()
    verbs = Vocabulary("command", hc.VERBS.words, whole=("pass",))


@pytest.fixture
def commands() -> Commands:
    return _commands(HIGH_CARD, HIGH_CARD.variants["standard"], 3)


def _registered(grammar: Any) -> Iterator[Any]:
    unregister = GRAMMARS.register(grammar)
    try:
        yield grammar
    finally:
        unregister()


def test_the_high_card_grammar_passes(commands: Commands) -> None:
    check_commands_round_trip(hc.GRAMMAR, commands)
    check_chance_round_trip(hc.GRAMMAR, commands)


def test_a_format_that_does_not_read_back_fails(commands: Commands) -> None:
    with pytest.raises(AssertionError, match=r"Bid\(amount=\d+\) is written 'bid \d+', read"):
        check_commands_round_trip(Misformat(), commands)
    with pytest.raises(AssertionError, match="Reveal"):
        check_chance_round_trip(Misformat(), commands)


def test_a_fast_path_that_differs_fails(commands: Commands) -> None:
    with pytest.raises(AssertionError, match="the fast path reads 'bid"):
        check_commands_round_trip(FastAndLoose(), commands)


class GuessesPlayers(hc.HighCardGrammar):
    """Its fast path reads a bid with no player known as a bid of 1 (as if it read a
    player's name into it): the log reader would share that across logs."""

    name = "high-card-guesses-players"

    @staticmethod
    def fast_command(toks: list[str], players: Any) -> Any:
        if toks and toks[0] == "bid" and players is not None and not players.words:
            return Bid(1)
        return hc.fast_command(toks, players)


def test_a_fast_path_that_needs_players_and_answers_without_fails(
        commands: Commands) -> None:
    with pytest.raises(AssertionError, match="with no player known as Bid"):
        check_commands_round_trip(GuessesPlayers(), commands)


def test_a_parser_that_crashes_on_garbage_fails(commands: Commands) -> None:
    with pytest.raises(AssertionError, match=r"parse_command\('.*'\) raises (Index|Value)Error"):
        check_garbage_commands(Crashing(), commands, "contract", 500)


def test_a_log_reader_that_crashes_on_garbage_fails() -> None:
    game = HIGH_CARD
    variant = game.variants["standard"]
    written = _log(game, hc.GRAMMAR, variant, 3)
    crashing = WrittenLog(written.text.replace('"high-card"', '"high-card-crashing"'),
                          written.log, written.seed, written.events)
    for _ in _registered(Crashing()):
        with pytest.raises(AssertionError, match="parse_log raises (Index|Value)Error"):
            check_garbage_logs(Crashing(), crashing, "contract", 300)


def test_a_log_read_by_another_grammar_fails() -> None:
    game = HIGH_CARD
    written = _log(game, hc.GRAMMAR, game.variants["standard"], 3)
    other = WrittenLog(written.text.replace('"high-card"', '"high-card-misformat"'),
                       written.log, written.seed, written.events)
    for _ in _registered(Misformat()):
        with pytest.raises(AssertionError, match="is read as 'high-card-misformat'"):
            check_log_round_trip(game, hc.GRAMMAR, other)


def test_wrong_tags_and_abbreviated_undo_fail() -> None:
    with pytest.raises(AssertionError, match="'undo' may be abbreviated"):
        check_grammar_shape(HIGH_CARD, WrongTags())
    tagless = WrongTags()
    tagless.verbs = hc.VERBS
    with pytest.raises(AssertionError, match=r"tags \[\], options \['Purse'\]"):
        check_grammar_shape(HIGH_CARD, tagless)


def test_a_verb_the_shell_reads_first_fails() -> None:
    # A game whose command 'mailbox' a line 'mail ...' would stand for: the moderator
    # takes 'mail SETTING' lines (the player's mail setting) out of a mail first.
    mailing = hc.HighCardGrammar()
    mailing.verbs = Vocabulary("command", (*hc.VERBS.words, "mailbox"),
                               whole=hc.VERBS.whole)
    with pytest.raises(AssertionError, match="'mail' reads as the verb 'mailbox'"):
        check_grammar_shape(HIGH_CARD, mailing)
