"""Property tests: round trips for every command and whole logs, and fuzzing."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.princes.commands import (
    Agree,
    Bid,
    Build,
    ChanceCommand,
    Choose,
    Command,
    Deal,
    Done,
    Draw,
    Freedom,
    Keep,
    Open,
    Pass,
    Place,
    PlayerCommand,
    Recruit,
    Refuse,
    Sell,
    Take,
    TakeBonus,
    TakeProfession,
    Undo,
    Work,
    canonical_cells,
)
from engine.princes.ruleset import DECKS, FREEDOMS, LANDSCAPES, OBJECTS, STANDARD_RULES
from notation import (
    Chance,
    Comment,
    GameLog,
    LogItem,
    Move,
    RoundMarker,
    Vocabulary,
    format_log,
    iter_log,
    known_tags,
    parse_log,
    player_vocabulary,
)
from notation import words as generic_words
from notation.princes import (
    CELL_ORDER,
    GRAMMAR,
    format_command,
    parse_chance,
    parse_command,
)
from notation.princes import words as vocab
from notation.princes.commands import fast_command, read_command, strip_comment
from notation.reader import Reader

KNOWN_TAGS = known_tags(GRAMMAR)

EXAMPLE = Path(__file__).parent / "fixtures" / "princes-recorded-4p.log"

PROFESSION_IDS = sorted(STANDARD_RULES.professions)
BONUS_IDS = sorted(STANDARD_RULES.bonus)
PRESTIGE_IDS = sorted(STANDARD_RULES.prestige)
DECK_IDS = {"profession": PROFESSION_IDS, "prestige": PRESTIGE_IDS, "bonus": BONUS_IDS}

# Machines running other suites at the same time must not make these tests flaky.
RELAXED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- strategies ---------------------------------------------------------------------

names = st.from_regex(r"[a-z][a-z0-9_-]{0,9}", fullmatch=True)
seats = st.lists(names, min_size=1, max_size=5, unique=True)
numbers = st.integers(min_value=0, max_value=999_999_999)
cells = st.lists(st.sampled_from(sorted(CELL_ORDER)), min_size=1, max_size=8, unique=True).map(
    canonical_cells
)


def player_commands(players: list[str]) -> st.SearchStrategy[PlayerCommand]:
    """Every player command, with valid words; recruit victims from `players`."""
    professions = st.sampled_from(PROFESSION_IDS)
    return st.one_of(
        st.lists(professions, min_size=1, max_size=4).map(lambda cs: Keep(tuple(cs))),
        st.sampled_from(OBJECTS).map(Open),
        numbers.map(Bid),
        st.just(Pass()),
        st.sampled_from(OBJECTS).map(Take),
        st.builds(Place, st.sampled_from(LANDSCAPES), cells),
        st.sampled_from(PROFESSION_IDS + BONUS_IDS + PRESTIGE_IDS).map(Choose),
        st.builds(Build, st.sampled_from(sorted(STANDARD_RULES.buildings)), cells),
        st.builds(
            Work,
            professions,
            st.lists(st.sampled_from(BONUS_IDS), max_size=4).map(tuple),
            numbers,
        ),
        st.just(TakeProfession()),
        st.just(TakeBonus()),
        st.sampled_from(FREEDOMS).map(Freedom),
        st.builds(Recruit, professions, st.sampled_from(players)),
        numbers.map(Sell),
        st.just(Done()),
        st.sampled_from([Undo(), Agree(), Refuse()]),
    )


def chance_commands(players: list[str]) -> st.SearchStrategy[ChanceCommand]:
    def draw(deck: str) -> st.SearchStrategy[ChanceCommand]:
        return st.builds(
            Draw,
            st.sampled_from(players),
            st.just(deck),
            st.lists(st.sampled_from(DECK_IDS[deck]), min_size=1, max_size=5).map(tuple),
        )

    deal = st.builds(
        Deal,
        st.sampled_from(players),
        st.lists(st.sampled_from(PROFESSION_IDS), min_size=1, max_size=4).map(tuple),
    )
    return st.one_of(deal, st.sampled_from(DECKS).flatmap(draw))


@st.composite
def seated_commands(draw: st.DrawFn) -> tuple[list[str], PlayerCommand]:
    players = draw(seats)
    return players, draw(player_commands(players))


one_line = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="\n"), max_size=40
)


@st.composite
def game_logs(draw: st.DrawFn) -> GameLog:
    players = draw(seats)
    tags = [("Players", ", ".join(players))]
    for name in draw(st.lists(st.sampled_from(KNOWN_TAGS), unique=True)):
        if name == "Game":  # it names a registered game: its grammar reads the moves
            tags.append((name, draw(st.sampled_from([GRAMMAR.name, " Princes-of-FLORENCE "]))))
        elif name != "Players":
            tags.append((name, draw(one_line)))
    extra = draw(
        st.lists(
            st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,8}", fullmatch=True).filter(
                lambda n: n.lower() not in {t.lower() for t in KNOWN_TAGS}
            ),
            unique_by=str.lower,
            max_size=3,
        )
    )
    tags.extend((name, draw(one_line)) for name in extra)
    tags = draw(st.permutations(tags))
    item = st.one_of(
        st.builds(Move, st.just(0), st.sampled_from(players), player_commands(players)),
        st.builds(Chance, st.just(0), chance_commands(players)),
        st.builds(RoundMarker, st.just(0), st.integers(0, 10)),
        st.builds(Comment, st.just(0), one_line.map(str.strip)),
    )
    items: list[LogItem] = draw(st.lists(item, max_size=12))
    return GameLog(tuple(tags), tuple(items))


# -- round trips --------------------------------------------------------------------


@RELAXED
@given(seated_commands())
def test_player_command_round_trip(case: tuple[list[str], PlayerCommand]) -> None:
    players, command = case
    text = format_command(command)
    assert parse_command(text, players) == command
    assert format_command(parse_command(text, players)) == text
    assert parse_command(text) == command  # no player list: names taken as written
    assert text == text.lower().strip() and "  " not in text


@RELAXED
@given(seats.flatmap(lambda ps: chance_commands(ps).map(lambda c: (ps, c))))
def test_chance_command_round_trip(case: tuple[list[str], ChanceCommand]) -> None:
    players, command = case
    text = format_command(command)
    assert parse_chance(text, players) == command
    assert format_command(parse_chance(text, players)) == text


def _spellings(word: str, vocabularies: list[Vocabulary]) -> list[str]:
    """Every prefix of `word` (3+ letters) that still means `word` wherever it occurs."""
    holders = [v for v in vocabularies if word in v.words]
    if not holders:
        return [word]
    return [
        word[:n]
        for n in range(3, len(word))
        if all(v.lookup.get(word[:n]) == word for v in holders)
    ] + [word]


@st.composite
def respelled(draw: st.DrawFn) -> tuple[list[str], PlayerCommand, str]:
    """A command and a non-canonical spelling of it: prefixes, mixed case, spacing."""
    players, command = draw(seated_commands())
    vocabularies: list[Vocabulary] = [
        v for v in (*vars(vocab).values(), *vars(generic_words).values())
        if isinstance(v, Vocabulary)
    ]
    player_words = player_vocabulary(players)
    assert player_words is not None
    vocabularies.append(player_words)
    out = []
    for token in format_command(command).split():
        plus = token.startswith("+")
        word = token[1:] if plus else token
        word = draw(st.sampled_from(_spellings(word, vocabularies)))
        word = "".join(c.upper() if draw(st.booleans()) else c for c in word)
        out.append(("+" if plus else "") + word)
    gaps = [draw(st.sampled_from([" ", "  ", "\t", " \t "])) for _ in out]
    text = draw(st.sampled_from(["", " "])) + "".join(t + g for t, g in zip(out, gaps, strict=True))
    if draw(st.booleans()):
        text += "# " + draw(one_line)
    return players, command, text


@RELAXED
@given(respelled())
def test_respelled_command_parses_to_the_same(case: tuple[list[str], PlayerCommand, str]) -> None:
    players, command, text = case
    assert parse_command(text, players) == command


@RELAXED
@given(respelled())
def test_fast_path_equals_slow_path(case: tuple[list[str], PlayerCommand, str]) -> None:
    players, command, text = case
    content = strip_comment(text)
    vocabulary = player_vocabulary(players)
    slow = read_command(Reader(content, 0, len(content), []), vocabulary)
    fast = fast_command(content.split(), vocabulary)
    assert slow == command
    assert fast is None or fast == slow


@RELAXED
@given(game_logs())
def test_log_round_trip(log: GameLog) -> None:
    text = format_log(log)
    parsed = parse_log(text)
    assert parsed == log
    assert format_log(parsed) == text


# -- fuzzing ------------------------------------------------------------------------


def _check_column(error: NotationError, line: str) -> None:
    assert 1 <= error.column <= len(line) + 1, (error.column, line, error.message)
    assert error.message and "\n" not in error.message


def _parse_any(text: str, players: list[str] | None = None) -> None:
    """Parse `text` as a command and as a chance line: only NotationError may escape."""
    for parse in (parse_command, parse_chance):
        try:
            parse(text, players or ())
        except NotationError as error:
            _check_column(error, text)


@RELAXED
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_notation_errors(text: str) -> None:
    _parse_any(text)
    _parse_any(text, ["anna", "bas"])


ALPHABET = "abcdefgpr+*:#-0123456789 \t[]\"\\"


@st.composite
def mutated(draw: st.DrawFn) -> tuple[list[str], str]:
    """A valid line (command or chance) with a few random edits."""
    players = draw(seats)
    command: Command = draw(st.one_of(player_commands(players), chance_commands(players)))
    text = format_command(command)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "replace", "cut", "dup"]))
        char = draw(st.one_of(st.sampled_from(ALPHABET), st.characters()))
        if edit == "insert":
            text = text[:at] + char + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + 1 :]
        elif edit == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif edit == "cut":
            text = text[:at]
        else:
            text = text[:at] + text[at:at + 5] + text[at:]
    return players, text


@RELAXED
@given(mutated())
def test_mutated_lines_raise_only_notation_errors(case: tuple[list[str], str]) -> None:
    players, text = case
    _parse_any(text, players)
    _parse_any(text)


def _check_log(text: str) -> None:
    try:
        for _ in iter_log(text):
            pass
    except NotationError as error:
        assert error.line is not None
        lines = text.split("\n")
        assert 1 <= error.line <= len(lines)
        _check_column(error, lines[error.line - 1])


@RELAXED
@given(st.text(max_size=200))
def test_arbitrary_log_text_raises_only_notation_errors(text: str) -> None:
    _check_log(text)
    _check_log('[Players "anna, bas"]\n' + text)


_EXAMPLE_LINES = EXAMPLE.read_text(encoding="utf-8").split("\n")


@RELAXED
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(_EXAMPLE_LINES) - 1),
            st.integers(0, 80),
            st.sampled_from(["insert", "delete", "cut", "swap"]),
            st.sampled_from(ALPHABET),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_mutated_example_log_raises_only_notation_errors(
    edits: list[tuple[int, int, str, str]],
) -> None:
    lines = list(_EXAMPLE_LINES)
    for index, at, edit, char in edits:
        line = lines[index]
        if edit == "insert":
            lines[index] = line[:at] + char + line[at:]
        elif edit == "delete":
            lines[index] = line[:at] + line[at + 1 :]
        elif edit == "cut":
            lines[index] = line[:at]
        else:
            other = (index + at) % len(lines)
            lines[index], lines[other] = lines[other], lines[index]
    text = "\n".join(lines)
    assume(text != "\n".join(_EXAMPLE_LINES))
    _check_log(text)
