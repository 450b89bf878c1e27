"""The game seam of the notation: the [Game] tag picks the grammar that reads a log's
moves, a log without it is the default game's, and a game's own tags are known only
through its grammar."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest
from toy_grammar import TOY, ToyGrammar, registered

from engine.errors import GameError, NotationError
from engine.princes.commands import Bid, Deal
from engine.registry import UnknownGameError
from notation import (
    KNOWN_TAGS,
    Chance,
    Grammar,
    Move,
    RoundMarker,
    Tag,
    format_log,
    grammar_for,
    iter_log,
    known_tags,
    parse_log,
)
from notation.princes import GRAMMAR
from notation.registry import GRAMMARS

PLAYERS = '[Players "anna, bas, chris"]\n'
PRINCES_BODY = "* deal anna: poet alchemist\nanna: bid 3\n"


@pytest.fixture
def toy() -> Iterator[ToyGrammar]:
    with registered() as grammar:
        yield grammar


def test_princes_grammar_is_a_grammar_and_the_default() -> None:
    assert isinstance(GRAMMAR, Grammar)
    assert isinstance(TOY, Grammar)
    assert grammar_for(None) is GRAMMAR
    assert grammar_for("princes-of-florence") is GRAMMAR


def test_log_without_game_tag_reads_as_princes() -> None:
    log = parse_log(PLAYERS + PRINCES_BODY)
    assert log.game == "princes-of-florence"
    assert log.items == (Chance(0, Deal("anna", ("poet", "alchemist"))), Move(0, "anna", Bid(3)))


def test_game_tag_names_the_game_read() -> None:
    log = parse_log('[Game " Princes-of-Florence "]\n' + PLAYERS + PRINCES_BODY)
    assert log.game == "princes-of-florence"
    assert log.items[1] == Move(0, "anna", Bid(3))


def test_unknown_game_is_an_error_at_the_tag_naming_known_games() -> None:
    text = PLAYERS + '[Game "no-such-game"]\nanna: bid 3\n'
    with pytest.raises(NotationError) as caught:
        parse_log(text)
    error = caught.value
    assert (error.line, error.column) == (2, 8)
    assert error.message == ("unknown game 'no-such-game' in tag [Game]; known games:"
                             " 'princes-of-florence' and 'signorie'")
    assert error.expected == ("game",)
    assert error.candidates == ("princes-of-florence", "signorie")


def test_unknown_game_message_lists_every_registered_game(toy: ToyGrammar) -> None:
    with pytest.raises(NotationError) as caught:
        parse_log('[Game ""]\n')
    assert caught.value.message == ("unknown game '' in tag [Game]; known games:"
                                    " 'princes-of-florence', 'signorie' and 'toy-test'")
    assert caught.value.column == 8


def test_registered_grammar_is_picked_by_its_game_tag(toy: ToyGrammar) -> None:
    text = ('[Game "toy-test"]\n[colour "red"]\n[money "open"]\n[Players "anna, bas"]\n'
            "* roll 4\nround 1\nanna: say Hello\nbas: undo\n")
    log = parse_log(text)
    assert log.game == "toy-test"
    assert log.tags == (("Game", "toy-test"), ("Colour", "red"), ("money", "open"),
                        ("Players", "anna, bas"))
    assert log.items == (Chance(5, ("roll", 4)), RoundMarker(6, 1),
                         Move(7, "anna", ("say", "hello")), Move(8, "bas", ("undo",)))
    assert parse_log(format_log(log)) == log
    assert "anna: say hello" in format_log(log)


def test_registered_grammar_places_its_errors(toy: ToyGrammar) -> None:
    with pytest.raises(NotationError) as caught:
        parse_log('[Game "toy-test"]\n[Players "anna, bas"]\nanna: bid 3\n')
    assert (caught.value.line, caught.value.column) == (3, 7)
    assert caught.value.message == (
        "unknown command 'bid'; expected 'say', 'undo', 'agree' or 'refuse'")
    with pytest.raises(NotationError) as caught:
        parse_log('[Game "toy-test"]\n[Players "anna, bas"]\nsay hi\n')
    assert caught.value.expected == ("player",)  # a toy verb without its player


def test_forced_grammar_reads_whatever_the_tag_says(toy: ToyGrammar) -> None:
    text = '[Game "princes-of-florence"]\n[Money "open"]\n[Players "anna, bas"]\nanna: say x\n'
    log = parse_log(text, grammar=TOY)
    assert log.game == "toy-test"
    assert log.items == (Move(4, "anna", ("say", "x")),)
    assert ("money", "open") not in log.tags and ("Money", "open") in log.tags  # as written
    entries = list(iter_log('[money "open"]\n', grammar=TOY))
    assert entries == [Tag(1, "money", "open")]


def test_money_is_a_princes_tag_only() -> None:
    assert "Money" not in KNOWN_TAGS
    assert "Money" in GRAMMAR.tags
    assert known_tags(GRAMMAR) == (
        "Game", "Rules", "Engine", "Variant", "Money", "Freedoms", "Expansions",
        "CharacterRaise", "MerchantPoints", "MusePrincess", "Players", "SeedCommit", "Seed",
        "Salt", "Event", "Date", "Result", "Head")
    # spelled as the Princes tag in a Princes log, also before [Game] (the default game)
    assert list(iter_log('[money "open"]\n[Game "princes-of-florence"]\n')) == [
        Tag(1, "Money", "open"), Tag(2, "Game", "princes-of-florence")]


def test_a_game_tag_after_its_own_tags_spells_them_as_the_default_game(
    toy: ToyGrammar,
) -> None:
    tags = list(iter_log('[colour "red"]\n[Game "toy-test"]\n[colour2 "x"]\n'))
    assert [t.name for t in tags if isinstance(t, Tag)] == ["colour", "Game", "colour2"]


def test_registry_refuses_unknown_and_duplicate_grammars(toy: ToyGrammar) -> None:
    with pytest.raises(UnknownGameError):
        grammar_for("no-such-game")
    assert grammar_for("toy-test") is TOY
    with pytest.raises(GameError):
        GRAMMARS.register(GRAMMAR)


def test_an_unknown_game_error_crosses_a_process_boundary() -> None:
    """Raised in a worker process (`pbem replay --jobs`, the benchmark's log makers),
    the error must be rebuilt whole in the parent, not break the pool."""
    with pytest.raises(UnknownGameError) as raised:
        grammar_for("no-such-game")
    again = pickle.loads(pickle.dumps(raised.value))
    assert (type(again), str(again), again.name) == (UnknownGameError, str(raised.value),
                                                  "no-such-game")
