"""Parsing and formatting one command: tables of valid lines and of rejections."""

from __future__ import annotations

import pytest

from engine.errors import AmbiguousError, NotationError
from engine.princes.commands import (
    Bid,
    Build,
    Choose,
    Deal,
    Done,
    Draw,
    Freedom,
    Keep,
    Open,
    Pass,
    Place,
    Recruit,
    Sell,
    Take,
    TakeBonus,
    TakeProfession,
    Work,
    canonical_cells,
)
from engine.princes.ruleset import STANDARD_RULES
from notation import player_vocabulary
from notation.princes import (
    BONUS_CARDS,
    CARDS,
    PROFESSIONS,
    VERBS,
    format_command,
    parse_chance,
    parse_command,
)
from notation.princes.commands import fast_command, read_command, strip_comment
from notation.reader import Reader
from notation.words import Vocabulary

PLAYERS = ("anna", "bas", "chris", "dirk")

# (line as written, canonical form)
VALID = [
    ("keep poet doctor alchemist", "keep poet doctor alchemist"),
    ("KEEP Poet  doc   alch", "keep poet doctor alchemist"),
    ("keep bell-founder organ", "keep bell-founder organ-builder"),
    ("open park", "open park"),
    ("ope pre", "open prestige"),
    ("Open RECRUITING", "open recruiting"),
    ("bid 300", "bid 300"),
    ("bid 0300", "bid 300"),
    ("  bid\t500  ", "bid 500"),
    ("pass", "pass"),
    ("PASS # nothing for me", "pass"),
    ("take builder", "take builder"),
    ("tak jes", "take jester"),
    ("place park d6 e6", "place park d6 e6"),
    ("pla for E6 d6 d7 c7", "place forest c7 d6 d7 e6"),
    ("choose poet", "choose poet"),
    ("cho per-building", "choose per-building"),
    ("choose per-building-s", "choose per-building-size"),
    ("choose fewest", "choose fewest-empty"),
    ("choose 4-b", "choose 4-buildings-2-freedoms-4-works"),
    ("build theater d1 e1 f1 e2 e3", "build theater d1 e1 e2 e3 f1"),
    ("build univ g7 g1 g2 g3 g4 g5 g6", "build university g1 g2 g3 g4 g5 g6 g7"),
    ("bui CHAPEL a7 A6 a5", "build chapel a5 a6 a7"),
    ("work poet", "work poet"),
    ("work poet +per-building pp 7", "work poet +per-building pp 7"),
    ("work poet pp 0", "work poet"),
    ("work poet pp 7 +per-lake", "work poet +per-lake pp 7"),
    ("wor phil +per-large +per-landscape-t +per-jester-", (
        "work philosopher +per-large-building +per-landscape-type +per-jester-and-freedom"
    )),
    ("work poet + per-building", "work poet +per-building"),
    ("WORK POET +PER-BUILDING PP 2", "work poet +per-building pp 2"),
    ("profession", "profession"),
    ("PROFESSION", "profession"),
    ("bonus", "bonus"),
    ("Bonus", "bonus"),
    ("freedom travel", "freedom travel"),
    ("fre rel", "freedom religion"),
    ("recruit poet from anna", "recruit poet from anna"),
    ("rec poet fro DIR", "recruit poet from dirk"),
    ("sell 3", "sell 3"),
    ("done", "done"),
    ("Done # that's all", "done"),
]


@pytest.mark.parametrize(("line", "canonical"), VALID)
def test_valid_line_has_canonical_form(line: str, canonical: str) -> None:
    command = parse_command(line, PLAYERS)
    assert format_command(command) == canonical
    assert parse_command(canonical, PLAYERS) == command


@pytest.mark.parametrize(("line", "canonical"), VALID)
def test_fast_path_agrees_with_reader(line: str, canonical: str) -> None:
    content = strip_comment(line)
    vocabulary = player_vocabulary(PLAYERS)
    slow = read_command(Reader(content, 0, len(content), []), vocabulary)
    fast = fast_command(content.split(), vocabulary)
    assert fast is None or fast == slow


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("keep poet doctor alchemist", Keep(("poet", "doctor", "alchemist"))),
        ("open park", Open("park")),
        ("bid 300", Bid(300)),
        ("pass", Pass()),
        ("take builder", Take("builder")),
        ("place park e6 d6", Place("park", ("d6", "e6"))),
        ("choose most-works", Choose("most-works")),
        (
            "build university g7 g6 g5 g4 g3 g2 g1",
            Build("university", ("g1", "g2", "g3", "g4", "g5", "g6", "g7")),
        ),
        (
            "work philosopher +per-large-building +per-jester pp 7",
            Work("philosopher", ("per-large-building", "per-jester"), 7),
        ),
        ("work poet", Work("poet")),
        ("profession", TakeProfession()),
        ("bonus", TakeBonus()),
        ("freedom opinion", Freedom("opinion")),
        ("recruit organ-builder from dirk", Recruit("organ-builder", "dirk")),
        ("sell 1", Sell(1)),
        ("done", Done()),
    ],
)
def test_parse_gives_the_command(line: str, command: object) -> None:
    assert parse_command(line, PLAYERS) == command


def test_cells_are_in_canonical_order() -> None:
    command = parse_command("build university c2 a1 b2 a2 d1 c1 b1")
    assert isinstance(command, Build)
    assert command.cells == canonical_cells(list(command.cells))


def test_exact_word_beats_longer_word() -> None:
    assert parse_command("choose per-building") == Choose("per-building")
    assert parse_command("work poet +per-builder") == Work("poet", ("per-builder",))


def test_players_without_list_are_taken_as_written_lowercased() -> None:
    assert parse_command("recruit poet from Eve") == Recruit("poet", "eve")


def test_player_prefix_resolves_against_list() -> None:
    assert parse_command("recruit poet from chr", PLAYERS) == Recruit("poet", "chris")
    assert parse_command("recruit poet from ann", ("ann", "anna")) == Recruit("poet", "ann")


# (line, error type, column, expected, candidates); candidates None = not checked
REJECTED: list[tuple[str, type[NotationError], int, tuple[str, ...], tuple[str, ...] | None]] = [
    ("build univrsity a1", NotationError, 7, ("building",), ("university",)),
    ("choose per-bui", AmbiguousError, 8,
     ("profession", "bonus card", "prestige card"),
     ("per-builder", "per-builder-and-lake", "per-building", "per-building-size")),
    ("work poet +per-bui", AmbiguousError, 12, ("bonus card",),
     ("per-builder", "per-builder-and-lake", "per-building", "per-building-size")),
    ("work poet +  per-bui", AmbiguousError, 14, ("bonus card",), None),
    ("build university h9", NotationError, 18, ("cell",), ()),
    ("build university a1 a8", NotationError, 21, ("cell",), ()),
    ("build university", NotationError, 17, ("cell",), ()),
    ("build university a1 foo", NotationError, 21, ("cell", "end of line"), ()),
    ("place park a1 a1", NotationError, 15, ("cell", "end of line"), ()),
    ("bid", NotationError, 4, ("number",), ()),
    ("bid three", NotationError, 5, ("number",), ()),
    ("bid -100", NotationError, 5, ("number",), ()),
    ("sell 1234567890", NotationError, 6, ("number",), ()),
    ("work poet pp", NotationError, 13, ("number",), ()),
    ("work poet pp 3 pp 4", NotationError, 16, ("bonus card", "end of line"), ()),
    ("work poet per-lake", NotationError, 11, ("bonus card", "pp", "end of line"), ()),
    ("work poet 7", NotationError, 11, ("bonus card", "pp", "end of line"), ()),
    ("pass now", NotationError, 6, ("end of line",), ()),
    ("bid 300 400", NotationError, 9, ("end of line",), ()),
    ("open park please # comment", NotationError, 11, ("end of line",), ()),
    ("recruit poet from eve", NotationError, 19, ("player",), ()),
    ("recruit poet from dirc", NotationError, 19, ("player",), ("dirk",)),
    ("recruit poet form anna", NotationError, 14, ("'from'",), ()),
    ("recruit poet", NotationError, 13, ("'from'",), ()),
    ("fly", NotationError, 1, ("command",), ()),
    ("bild university", NotationError, 1, ("command",), ("build", "bid")),
    ("bu university", NotationError, 1, ("command",), ("build",)),
    ("p", NotationError, 1, ("command",), ("pass", "place", "profession")),
    ("", NotationError, 1, ("command",), ()),
    ("   # only a comment", NotationError, 1, ("command",), ()),
    ("* deal anna: poet doctor alchemist botanist", NotationError, 1, ("command",), ()),
    ("open", NotationError, 5, ("object",), ()),
    ("open xyz", NotationError, 6, ("object",), ()),
    ("freedom speech", NotationError, 9, ("freedom",), ()),
    ("choose most-b", AmbiguousError, 8,
     ("profession", "bonus card", "prestige card"), ("most-builders", "most-buildings")),
    ("take pa", NotationError, 6, ("object",), ("park",)),
    ("take per", NotationError, 6, ("object",), ()),
    ("keep", NotationError, 5, ("profession",), ()),
    ("keep poet doctr", NotationError, 11, ("profession",), ("doctor",)),
    ("choose", NotationError, 7, ("profession", "bonus card", "prestige card"), ()),
    ("place lake", NotationError, 11, ("cell",), ()),
    ("place pond a1", NotationError, 7, ("landscape",), None),
]


@pytest.mark.parametrize(("line", "kind", "column", "expected", "candidates"), REJECTED)
def test_rejected_line(
    line: str,
    kind: type[NotationError],
    column: int,
    expected: tuple[str, ...],
    candidates: tuple[str, ...] | None,
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(line, PLAYERS)
    error = caught.value
    assert type(error) is kind
    assert error.column == column
    assert error.expected == expected
    if candidates is not None:
        assert error.candidates == candidates
    assert error.line is None
    assert "\n" not in error.message


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("build univrsity a1", "unknown building 'univrsity'; did you mean 'university'?"),
        (
            "build university",
            "expected a cell like 'd4' after 'build university', found end of line",
        ),
        (
            "build univ a1 h9",
            "expected a cell like 'd4' after 'build university a1', found 'h9',"
            " which is off the grid (a1 to g7)",
        ),
        ("bid", "expected a number like '3' after 'bid', found end of line"),
        ("pass now", "expected end of line after 'pass', found 'now'"),
        (
            "choose most-b",
            "ambiguous card 'most-b'; did you mean 'most-builders' or 'most-buildings'?",
        ),
        (
            "take per",
            "unknown object 'per'; expected 'forest', 'lake', 'park', 'jester', 'builder',"
            " 'prestige', 'recruiting' or 'landscape'",
        ),
        (
            "freedom speech",
            "unknown freedom 'speech'; expected 'travel', 'religion' or 'opinion'",
        ),
        (
            "freedom",
            "expected a freedom (travel, religion or opinion) after 'freedom',"
            " found end of line",
        ),
        ("recruit poet from eve",
         "unknown player 'eve'; expected 'anna', 'bas', 'chris' or 'dirk'"),
        (
            "work poet per-lake",
            "expected '+per-lake' after 'work poet', found 'per-lake';"
            " bonus cards are written with '+' in front",
        ),
        (
            "bu",
            "command 'bu' is too short (write at least 3 letters); did you mean 'build'?",
        ),
    ],
)
def test_error_message(line: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(line, PLAYERS)
    assert caught.value.message == message
    assert str(caught.value) == message


def test_long_tokens_are_shortened_in_messages() -> None:
    with pytest.raises(NotationError) as caught:
        parse_command("build " + "x" * 500)
    assert len(caught.value.message) < 120


def test_end_of_line_column_ignores_comment_and_trailing_space() -> None:
    with pytest.raises(NotationError) as caught:
        parse_command("bid   # a comment")
    assert caught.value.column == 4


# -- chance lines -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command", "canonical"),
    [
        (
            "* deal anna: alchemist composer theologian sculptor",
            Deal("anna", ("alchemist", "composer", "theologian", "sculptor")),
            "* deal anna: alchemist composer theologian sculptor",
        ),
        (
            "*DEAL Ann : alch comp theo sculp",
            Deal("anna", ("alchemist", "composer", "theologian", "sculptor")),
            "* deal anna: alchemist composer theologian sculptor",
        ),
        (
            "* draw chris prestige: all-freedoms fewest-empty most-parks",
            Draw("chris", "prestige", ("all-freedoms", "fewest-empty", "most-parks")),
            "* draw chris prestige: all-freedoms fewest-empty most-parks",
        ),
        (
            "* draw bas bon: per-builder per-category  # two left in the deck",
            Draw("bas", "bonus", ("per-builder", "per-category")),
            "* draw bas bonus: per-builder per-category",
        ),
        (
            "* draw dirk profession:poet",
            Draw("dirk", "profession", ("poet",)),
            "* draw dirk profession: poet",
        ),
    ],
)
def test_chance_line(line: str, command: object, canonical: str) -> None:
    parsed = parse_chance(line, PLAYERS)
    assert parsed == command
    assert format_command(parsed) == canonical
    assert parse_chance(canonical, PLAYERS) == parsed


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        ("deal anna: poet", 1, ("'*'",)),
        ("* deal anna poet doctor", 13, ("':'",)),
        ("* deal anna", 12, ("':'",)),
        ("* deal: poet", 7, ("player",)),
        ("* draw bas: poet", 11, ("deck",)),
        ("* draw bas hand: poet", 12, ("deck",)),
        ("* draw eve bonus: per-park", 8, ("player",)),
        ("* draw bas bonus:", 18, ("bonus card",)),
        ("* draw bas bonus: poet", 19, ("bonus card",)),
        ("* deal anna: per-park", 14, ("profession",)),
        ("* shuffle anna: poet", 3, ("chance event",)),
    ],
)
def test_rejected_chance_line(line: str, column: int, expected: tuple[str, ...]) -> None:
    with pytest.raises(NotationError) as caught:
        parse_chance(line, PLAYERS)
    assert caught.value.column == column
    assert caught.value.expected == expected


def test_chance_player_without_list_is_taken_as_written() -> None:
    assert parse_chance("* deal Zoe: poet") == Deal("zoe", ("poet",))


# -- vocabularies -------------------------------------------------------------------


def test_vocabularies_hold_the_rules_ids() -> None:
    assert set(PROFESSIONS.words) == set(STANDARD_RULES.professions)
    assert set(BONUS_CARDS.words) == set(STANDARD_RULES.bonus)
    assert set(CARDS.words) == (set(STANDARD_RULES.professions) | set(STANDARD_RULES.bonus)
                                | set(STANDARD_RULES.prestige))


WHOLE = ("done", "pass", "undo", "agree", "refuse", "bonus", "profession")


def test_every_three_letter_verb_prefix_is_unique() -> None:
    # the documentation promises 3 letters are enough for a command not taken only whole
    for verb in VERBS.words:
        if verb not in WHOLE:
            assert VERBS.resolve(verb[:3]) == verb


def test_commands_taken_only_whole() -> None:
    for verb in WHOLE:
        assert VERBS.resolve(verb.upper()) == verb
        for n in range(3, len(verb)):
            assert verb[:n] not in VERBS
            with pytest.raises(NotationError) as caught:
                parse_command(verb[:n].capitalize())
            assert caught.value.message == (
                f"command '{verb[:n].capitalize()}' is too short: write '{verb}' in full")
            assert caught.value.column == 1
            assert caught.value.candidates == (verb,)


@pytest.mark.parametrize("word", ["Don", "Und", "Bon", "Pro", "Ref", "Pas", "Agr"])
def test_greeting_words_are_never_commands(word: str) -> None:
    assert word not in VERBS
    with pytest.raises(NotationError):
        parse_command(word)


def test_whole_keyword_on_any_vocabulary() -> None:
    words = Vocabulary("thing", ("dock", "done", "donkey"), whole=("done",))
    assert words.resolve("doc") == "dock"
    assert words.resolve("donk") == "donkey"
    with pytest.raises(AmbiguousError):  # shared by a whole and a plain word: still ambiguous
        words.resolve("don")
    with pytest.raises(NotationError, match="write 'done' in full"):
        Vocabulary("thing", ("done", "dock"), whole=("done",)).resolve("don")


def test_format_rejects_non_commands() -> None:
    with pytest.raises(TypeError):
        format_command("pass")  # type: ignore[arg-type]
