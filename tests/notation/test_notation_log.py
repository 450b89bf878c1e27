"""Game logs: the shared example, tags, items, and errors with line and column."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.errors import AmbiguousError, NotationError
from engine.princes.commands import Deal, Draw, Keep, Pass, Recruit, Work
from notation import (
    Chance,
    Comment,
    GameLog,
    Move,
    RoundMarker,
    Tag,
    format_log,
    iter_log,
    parse_log,
)
from notation.log import iter_log_raw

# A copy of ../shared/examples/princes-recorded-4p.log, read as is.
EXAMPLE = Path(__file__).parent / "fixtures" / "princes-recorded-4p.log"

HEADER = '[Game "princes-of-florence"]\n[Players "anna, bas, chris, dirk"]\n'


def test_example_log_parses() -> None:
    log = parse_log(EXAMPLE.read_text(encoding="utf-8"))
    assert log.players == ("anna", "bas", "chris", "dirk")
    assert log.tag("Game") == "princes-of-florence"
    assert log.tag("variant") == "standard"
    assert log.tag("Seed") is None
    moves = [item for item in log.items if isinstance(item, Move)]
    chances = [item for item in log.items if isinstance(item, Chance)]
    rounds = [item for item in log.items if isinstance(item, RoundMarker)]
    assert len(moves) == 121
    assert len(chances) == 16
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5, 6, 7]
    assert len(log.items) == 144  # 147 lines: 3 tags, no blanks
    assert chances[0] == Chance(4, Deal("anna", ("alchemist", "composer", "theologian",
                                                   "sculptor")))
    assert chances[0].line == 4
    assert moves[0] == Move(8, "anna", Keep(("alchemist", "composer", "sculptor")))
    assert moves[0].line == 8
    assert Move(0, "bas", Recruit("organ-builder", "dirk")) in moves
    assert moves[-5].command == Work(
        "philosopher", ("per-large-building", "per-landscape-type", "per-jester"), 7
    )
    assert Chance(0, Draw("bas", "bonus", ("per-builder", "per-category", "per-prestige",
                                           "per-park", "per-table-card"))) in chances


def test_example_log_round_trips() -> None:
    log = parse_log(EXAMPLE.read_text(encoding="utf-8"))
    text = format_log(log)
    assert parse_log(text) == log
    assert format_log(parse_log(text)) == text


def test_example_lines_are_already_canonical() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    canonical = {line for line in format_log(parse_log(text)).splitlines() if line}
    assert canonical == {line for line in text.splitlines() if line}


def test_iter_log_is_lazy_and_stops_at_first_bad_line() -> None:
    text = HEADER + "round 1\nanna: pass\nbas: fly away\nchris: pass\n"
    items = iter_log(text)
    assert next(items) == Tag(1, "Game", "princes-of-florence")
    assert next(items) == Tag(2, "Players", "anna, bas, chris, dirk")
    assert next(items) == RoundMarker(3, 1)
    assert next(items) == Move(4, "anna", Pass())
    with pytest.raises(NotationError) as caught:
        next(items)
    assert (caught.value.line, caught.value.column) == (5, 6)
    assert caught.value.message == "unknown command 'fly'"


def test_comments_blank_lines_and_inline_comments() -> None:
    text = (
        "# a recorded game\n"
        '[Event "Club #3"]  # the third table\n'
        + HEADER
        + "\n   \n# setup\n"
        "anna: pass   # inline comments are dropped\n"
        "#\n"
    )
    log = parse_log(text)
    assert log.tag("event") == "Club #3"
    assert log.items == (
        Comment(1, "a recorded game"),
        Comment(7, "setup"),
        Move(8, "anna", Pass()),
        Comment(9, ""),
    )
    assert [item.line for item in log.items] == [1, 7, 8, 9]
    assert parse_log(format_log(log)) == log


def test_a_repeated_move_line_is_read_again_with_its_own_line_number() -> None:
    # The reader keeps the moves of lines it has read (no comment): the same text
    # later gives the same move at its own line, and a comment, a CR or blank lines
    # in between change nothing.
    body = ("anna: pass\r\n\r\nanna: pass\r\nanna: pass # again\r\n\r\n"
            "ann: pass\r\nanna: pass\r\nbas: pass\r\nanna: pass\r\n")
    log = parse_log(HEADER.replace("\n", "\r\n") + body)
    assert [(item.line, item) for item in log.items] == [
        (3, Move(3, "anna", Pass())), (5, Move(5, "anna", Pass())),
        (6, Move(6, "anna", Pass())), (8, Move(8, "anna", Pass())),
        (9, Move(9, "anna", Pass())), (10, Move(10, "bas", Pass())),
        (11, Move(11, "anna", Pass())),
    ]
    with pytest.raises(NotationError) as caught:  # a bad line after the same good one
        parse_log(HEADER + "anna: pass\nanna: pass\nanna: pass pass\nanna: pass\n")
    assert caught.value.line == 5


def test_known_tag_names_are_canonical_and_others_kept() -> None:
    log = parse_log('[players "Anna, Bas"]\n[Table "3"]\n[round-Robin "yes"]\nANNA: pass\n')
    assert log.tags == (("Players", "Anna, Bas"), ("Table", "3"), ("round-Robin", "yes"))
    assert log.players == ("anna", "bas")
    assert log.items == (Move(4, "anna", Pass()),)


def test_tag_value_escapes_round_trip() -> None:
    log = GameLog(
        tags=(("Players", "a, b"), ("Event", 'The "big" one \\ final')),
        items=(),
    )
    text = format_log(log)
    assert '[Event "The \\"big\\" one \\\\ final"]' in text
    assert parse_log(text) == log


def test_actor_and_player_prefixes() -> None:
    log = parse_log(HEADER + "chr: recruit poet from ann\nDIRK: pass\n")
    assert log.items == (Move(3, "chris", Recruit("poet", "anna")), Move(4, "dirk", Pass()))


def test_crlf_and_byte_order_mark() -> None:
    text = "\ufeff" + HEADER.replace("\n", "\r\n") + "anna: pass\r\n"
    assert parse_log(text).items == (Move(3, "anna", Pass()),)


def test_empty_log() -> None:
    assert parse_log("") == GameLog()
    assert format_log(GameLog()) == ""


# (text, line, column, expected); columns are 1-based in the whole line
LOG_ERRORS = [
    ("anna: pass\n", 1, 1, ("tag",)),
    ('[Game "princes-of-florence"]\nround 1\n', 2, 1, ("tag",)),
    (HEADER + "eve: pass\n", 3, 1, ("player",)),
    (HEADER + "  eve: pass\n", 3, 3, ("player",)),
    (HEADER + ": pass\n", 3, 1, ("player",)),
    (HEADER + "anna bas: pass\n", 3, 6, ("':'",)),
    (HEADER + "anna: build university h9\n", 3, 24, ("cell",)),
    (HEADER + "anna: bid\n", 3, 10, ("number",)),
    (HEADER + "anna:\n", 3, 6, ("command",)),
    (HEADER + "anna: recruit poet from eve\n", 3, 25, ("player",)),
    (HEADER + "anna: * deal anna: poet\n", 3, 7, ("command",)),
    (HEADER + "pass\n", 3, 1, ("player",)),
    (HEADER + "hello world\n", 3, 1, ("move", "round marker", "chance line", "tag")),
    (HEADER + "round\n", 3, 6, ("number",)),
    (HEADER + "round one\n", 3, 7, ("number",)),
    (HEADER + "round 1 2\n", 3, 9, ("end of line",)),
    (HEADER + "* deal anna poet\n", 3, 13, ("':'",)),
    (HEADER + "* draw anna deck: poet\n", 3, 13, ("deck",)),
    (HEADER + "* draw eve bonus: per-park\n", 3, 8, ("player",)),
    (HEADER + '[Game "again"]\n', 3, 2, ("tag",)),
    (HEADER + '[GAME "again"]\n', 3, 2, ("tag",)),
    (HEADER + 'anna: pass\n[Event "late"]\n', 4, 1, ("move",)),
    ('[Players "anna, bas, Anna"]\n', 1, 22, ("player",)),
    ('[Players "anna,, bas"]\n', 1, 16, ("player",)),
    ('[Players ""]\n', 1, 11, ("player",)),
    ('[Players "anna, b:s"]\n', 1, 17, ("player",)),
    ('[Players "anna, bas"\n', 1, 21, ("']'",)),
    ('[Players "anna, bas]\n', 1, 21, ("'\"'",)),
    ("[Players anna]\n", 1, 10, ("'\"'",)),
    ('[ "x"]\n', 1, 3, ("tag name",)),
    ('[1st "x"]\n', 1, 2, ("tag name",)),
    ('[Event "x"] extra\n', 1, 13, ("end of line",)),
]


@pytest.mark.parametrize(("text", "line", "column", "expected"), LOG_ERRORS)
def test_log_error_position(
    text: str, line: int, column: int, expected: tuple[str, ...]
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_log(text)
    error = caught.value
    assert (error.line, error.column) == (line, column), error.message
    assert error.expected == expected
    bad_line = text.split("\n")[line - 1]
    assert 1 <= error.column <= len(bad_line) + 1


def test_ambiguous_actor() -> None:
    with pytest.raises(AmbiguousError) as caught:
        parse_log('[Players "anna, annabel"]\nann: pass\nanna: pass\n')
    assert caught.value.line == 2
    assert caught.value.candidates == ("anna", "annabel")


def test_exact_player_name_beats_longer_name() -> None:
    log = parse_log('[Players "anna, annabel"]\nanna: pass\nannab: pass\n')
    assert [item.actor for item in log.items if isinstance(item, Move)] == ["anna", "annabel"]


def test_duplicate_tag_message_names_first_line() -> None:
    with pytest.raises(NotationError) as caught:
        parse_log(HEADER + '[Game "again"]\n')
    assert caught.value.message == "duplicate tag [Game]; it was already given on line 1"


def test_move_before_players_message() -> None:
    with pytest.raises(NotationError) as caught:
        parse_log('[Game "princes-of-florence"]\nanna: pass\n')
    assert caught.value.message == (
        "expected a [Players \"...\"] tag before the first move or round, found 'anna:'"
    )


def test_commands_naming_players_are_read_per_log() -> None:
    # Command texts are shared across logs (`notation.log._shared`), but a command
    # that names a player is read by each log's own players.
    body = "xena: pass\nxena: recruit poet from and\nxena: recruit poet from and\n"
    first = parse_log('[Players "andrea, xena"]\n' + body)
    second = parse_log('[Players "andy, xena"]\n' + body)
    assert [i.command for i in first.items][1:] == [Recruit("poet", "andrea")] * 2
    assert [i.command for i in second.items][1:] == [Recruit("poet", "andy")] * 2
    assert first.items[0].command == second.items[0].command == Pass()


def test_shared_commands_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import notation.log as log_module

    monkeypatch.setattr(log_module, "SHARED_COMMANDS", 3)
    monkeypatch.setattr(log_module, "_shared", {})
    bids = "".join(f"anna: bid {n}\n" for n in range(300, 1300, 100))
    log = parse_log(HEADER + bids + bids)
    assert [i.command.amount for i in log.items] == [*range(300, 1300, 100)] * 2
    (shared,) = log_module._shared.values()
    assert 0 < len(shared) <= 3


def test_a_players_value_is_checked_once_and_its_errors_every_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A good Players value's vocabulary is remembered (`notation.log._PLAYERS`), at
    # most SHARED_PLAYERS of them; a bad value is never remembered, and its error
    # keeps the column of the line it is on.
    import notation.log as log_module

    monkeypatch.setattr(log_module, "SHARED_PLAYERS", 2)
    monkeypatch.setattr(log_module, "_PLAYERS", {})
    for names in ("anna, bas", "cor, dirk", "anna, bas", "eva, fay"):
        log = parse_log(f'[Players "{names}"]\n{names[:4].strip(",")}: pass\n')
        assert log.players == tuple(names.split(", "))
    assert 0 < len(log_module._PLAYERS) <= 2
    for indent in ("", "   "):
        with pytest.raises(NotationError) as info:
            parse_log(f'{indent}[Players "anna, bas, anna"]\n')
        assert (info.value.line, info.value.column) == (1, len(indent) + 22)
        assert "listed twice" in info.value.message
    assert "anna, bas, anna" not in log_module._PLAYERS


def _entries(entries: Iterable[Any]) -> list[tuple[int, object]]:
    """(line, entry) of each entry, a raw move made a `Move` (`Move.line` is not
    compared)."""
    out: list[tuple[int, object]] = []
    for e in entries:
        item = Move(*e) if type(e) is tuple else e
        out.append((item.line, item))
    return out


def test_the_raw_reading_gives_the_same_lines_most_moves_as_tuples() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    raw = list(iter_log_raw(text))
    assert _entries(raw) == _entries(iter_log(text))
    moves = [e for e in raw if type(e) in (tuple, Move)]
    assert sum(type(e) is tuple for e in moves) > len(moves) // 2  # read the quick way
    assert all(type(e) is not tuple for e in iter_log(text))
    body = "anna: pass\nanna: pass\nbas: open jester # c\nbas: open jester\nanna: pass pass\n"
    for read in (iter_log, iter_log_raw):
        with pytest.raises(NotationError) as caught:
            _entries(read(HEADER + body))
        assert caught.value.line == 7


def test_a_raw_move_is_never_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    # Were the grammar's fast path to read a hidden command, the raw reading gives
    # it as a Move (read the general way), which a replayer checks for hidden values.
    import notation.log as log
    from notation.registry import grammar_for

    grammar = grammar_for("princes-of-florence")
    quick = type(grammar).fast_command

    def fast(toks: list[str], players: Any) -> Any:
        return Keep(("?", "?", "?")) if toks[:1] == ["keep"] else quick(toks, players)

    monkeypatch.setattr(type(grammar), "fast_command", staticmethod(fast))
    monkeypatch.setattr(log, "_shared", {})
    text = HEADER + "anna: pass\nbas: pass\nanna: keep ? ? ?\nanna: keep ? ? ?\nbas: pass\n"
    raw = list(iter_log_raw(text))  # (the first line of the body: read the general way)
    assert [type(e) for e in raw[2:]] == [Move, tuple, Move, Move, tuple]
    assert _entries(raw) == _entries(iter_log(text))
