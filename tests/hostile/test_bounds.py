"""The bounds of log reading at their edges: the last value accepted, the first refused."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from engine.errors import NotationError
from notation import parse_log
from notation.limits import MAX_LINE, MAX_LINES, MAX_NAME, MAX_NAMES, MAX_TAG_VALUE
from pbem import logfile
from pbem.logfile import LogFileError, read_log_file

HEADER = '[Players "anna, bas, chris"]\n'


def refusal(text: str) -> tuple[int | None, int, str]:
    with pytest.raises(NotationError) as raised:
        parse_log(text)
    return raised.value.line, raised.value.column, raised.value.message


def test_line_length() -> None:
    parse_log(HEADER + "#" + "x" * (MAX_LINE - 1) + "\r\n")
    line, column, message = refusal(HEADER + "#" + "x" * MAX_LINE)
    assert (line, column) == (2, MAX_LINE + 1)
    assert message == ("the line is 4,097 characters long; pbem reads lines of at most 4,096"
                       " characters")


def test_tag_value_length() -> None:
    log = parse_log('[Event "' + "\\\"" * MAX_TAG_VALUE + '"]\n' + HEADER)
    assert log.tag("Event") == '"' * MAX_TAG_VALUE
    assert refusal('[Event "' + "x" * (MAX_TAG_VALUE + 1) + '"]\n') == (
        1, 8 + MAX_TAG_VALUE + 1, "the value of tag [Event] is longer than 1,000 characters,"
        " the most a tag may hold")


def test_name_length_and_number() -> None:
    assert parse_log(f'[Players "{"a" * MAX_NAME}, bas"]').players == ("a" * MAX_NAME, "bas")
    assert refusal(f'[Players "bas,  {"a" * (MAX_NAME + 1)}"]')[:2] == (1, 17)
    names = [f"p{i}" for i in range(MAX_NAMES + 1)]
    assert len(parse_log(f'[Players "{", ".join(names[:-1])}"]').players) == MAX_NAMES
    line, column, message = refusal(f'[Players "{", ".join(names)}"]')
    assert (line, column) == (1, 11 + 4 * 10 + 5 * 10)
    assert message.startswith("the Players tag lists more than 20 names")


def test_number_of_lines() -> None:
    assert parse_log(HEADER + "\n" * (MAX_LINES - 1)).players == ("anna", "bas", "chris")
    assert parse_log(HEADER + "\n" * (MAX_LINES - 2) + "# last").items[-1].line == MAX_LINES
    line, column, message = refusal(HEADER + "\n" * (MAX_LINES - 1) + "# one more")
    assert (line, column) == (MAX_LINES + 1, 1)
    assert message.startswith("the log has more than 100,000 lines")
    # a bad line before the bound is reported first
    assert refusal(HEADER + "oops\n" + "\n" * MAX_LINES)[:2] == (2, 1)


def test_file_size_and_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logfile, "MAX_LOG_BYTES", 100)
    path = tmp_path / "game.log"
    path.write_bytes(b"x" * 100)
    assert read_log_file(path) == "x" * 100
    path.write_bytes(b"x" * 101)
    with pytest.raises(LogFileError) as raised:
        read_log_file(path)
    assert raised.value.message == ("the log is 101 bytes; pbem reads logs of at most 100 bytes"
                                    " (0 MiB)")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"y" * 100)))
    assert read_log_file("-") == "y" * 100
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"y" * 101)))
    with pytest.raises(LogFileError, match="more than 100 bytes"):
        read_log_file("-")


def test_file_lines(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    path.write_bytes(b"\n" * MAX_LINES)
    assert read_log_file(path) == "\n" * MAX_LINES
    path.write_bytes(b"\n" * MAX_LINES + b"x")
    with pytest.raises(LogFileError) as raised:
        read_log_file(path)
    assert raised.value.line == MAX_LINES + 1
