"""Hostile logs against the installed `pbem replay`, `pbem verify` and `pbem show`.

Each runs in a subprocess with 1 GiB of address space and a timeout, so that a
regression (memory quadratic in a name, a FIFO that blocks, /dev/zero read to the
end) fails the test instead of eating the machine. Every case is refused with exit
status 1 and the exact error line (docs/logs.md, "Bounds").
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from notation.limits import MAX_LINE, MAX_LINES

ROOT = Path(__file__).resolve().parents[2]
EXPORTED = ROOT / "tests/fixtures/versions/0.2.0/3-players.log"
"""A 3-player game exported by engine 0.2.0: `pbem verify` accepts it."""

MEMORY = 1 << 30
TOOLS = ("replay", "verify", "show")


def _pbem() -> str:
    exe = Path(sys.executable).parent / "pbem"
    found = str(exe) if exe.exists() else shutil.which("pbem")
    if found is None:
        pytest.skip("the pbem entry point is not installed (pip install -e .)")
    return found


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_pbem(), *args], input=stdin.decode("latin-1") if stdin is not None else None,
        capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=120,
        preexec_fn=_limit_memory, check=False,
    )


def refused(tool: str, path: str, line: int, column: int, kind: str, message: str,
            stdin: bytes | None = None) -> None:
    """`pbem TOOL PATH` exits 1 and prints the error as that tool writes errors."""
    if tool == "verify":
        detail = f"column {column}: {message}" if kind == "syntax" else message
        want = f"{path}:{line}: {kind}: {detail}" if line else f"{path}: {kind}: {detail}"
    else:
        want = f"{path}:{line}:{column}: {kind}: {message}" if line else \
            f"{path}: {kind}: {message}"
    done = run(tool, path, stdin=stdin)
    output = done.stderr if tool == "show" else done.stdout
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert want in output.splitlines(), output[:2000]
    assert "Traceback" not in done.stderr and "internal" not in output


def exported(tmp_path: Path, name: str, change: object) -> str:
    """The exported game with `change(lines)` applied, written to tmp_path/name."""
    lines = EXPORTED.read_text(encoding="utf-8").split("\n")
    assert callable(change)
    change(lines)
    path = tmp_path / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


def test_the_exported_game_is_accepted() -> None:
    for tool in TOOLS:
        done = run(tool, str(EXPORTED))
        assert done.returncode == 0, (tool, done.stdout, done.stderr)


# -- memory: names, lines, tags --------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
def test_a_one_megabyte_players_name(tmp_path: Path, tool: str) -> None:
    name = "n" * (1 << 20)
    path = exported(tmp_path, "name.log", lambda ls: ls.__setitem__(
        5, f'[Players "anna, {name}, chris"]'))
    refused(tool, path, 6, MAX_LINE + 1, "syntax", "the line is 1,048,601 characters long; "
            "pbem reads lines of at most 4,096 characters")


@pytest.mark.parametrize("tool", TOOLS)
def test_a_very_long_comment_line(tmp_path: Path, tool: str) -> None:
    path = exported(tmp_path, "line.log", lambda ls: ls.insert(14, "# " + "x" * 100_000))
    refused(tool, path, 15, MAX_LINE + 1, "syntax", "the line is 100,002 characters long; "
            "pbem reads lines of at most 4,096 characters")


@pytest.mark.parametrize("tool", TOOLS)
def test_a_very_long_tag(tmp_path: Path, tool: str) -> None:
    path = exported(tmp_path, "tag.log", lambda ls: ls.__setitem__(
        9, '[Event "' + "x" * 2000 + '"]'))
    refused(tool, path, 10, 1009, "syntax", "the value of tag [Event] is longer than 1,000 "
            "characters, the most a tag may hold")


@pytest.mark.parametrize("tool", TOOLS)
def test_a_long_player_name(tmp_path: Path, tool: str) -> None:
    path = exported(tmp_path, "long.log", lambda ls: ls.__setitem__(
        5, f'[Players "anna, bas, {"c" * 65}"]'))
    refused(tool, path, 6, 22, "syntax", f"player name '{'c' * 37}...' is 65 characters long;"
            " a name may have at most 64")


@pytest.mark.parametrize("tool", TOOLS)
def test_too_many_names(tmp_path: Path, tool: str) -> None:
    names = ", ".join(f"p{i:02}" for i in range(25))
    path = exported(tmp_path, "many.log", lambda ls: ls.__setitem__(5, f'[Players "{names}"]'))
    refused(tool, path, 6, 11 + 20 * 5, "syntax", "the Players tag lists more than 20 names;"
            " a game seats 3 to 5 players")


# -- files that are not logs -----------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
def test_a_fifo_is_refused_at_once(tmp_path: Path, tool: str) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)  # nobody writes: reading it would block for ever
    refused(tool, str(fifo), 0, 0, "io",
            "cannot read the file: it is a FIFO (named pipe), not a regular file")


@pytest.mark.parametrize("tool", TOOLS)
def test_dev_zero_is_refused(tool: str) -> None:
    refused(tool, "/dev/zero", 0, 0, "io",
            "cannot read the file: it is a character device, not a regular file")


@pytest.mark.parametrize("tool", TOOLS)
def test_a_directory_is_refused(tmp_path: Path, tool: str) -> None:
    refused(tool, str(tmp_path), 0, 0, "io",
            "cannot read the file: it is a directory, not a regular file")


@pytest.mark.parametrize("tool", TOOLS)
def test_a_missing_file(tmp_path: Path, tool: str) -> None:
    refused(tool, str(tmp_path / "missing.log"), 0, 0, "io",
            "cannot read the file: No such file or directory")


@pytest.fixture(scope="module")
def blank_100mb(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("blank") / "blank.log"
    with path.open("wb") as f:
        for _ in range(100):
            f.write(b"\n" * (1 << 20))
    return str(path)


@pytest.mark.parametrize("tool", TOOLS)
def test_100_mb_of_blank_lines(blank_100mb: str, tool: str) -> None:
    refused(tool, blank_100mb, 0, 0, "io", "the log is 104,857,600 bytes; pbem reads logs "
            "of at most 16,777,216 bytes (16 MiB)")


@pytest.mark.parametrize("tool", TOOLS)
def test_too_many_lines(tmp_path: Path, tool: str) -> None:
    path = exported(tmp_path, "lines.log", lambda ls: ls.insert(14, "\n" * MAX_LINES))
    refused(tool, path, MAX_LINES + 1, 1, "io", "the log has more than 100,000 lines (blank "
            "lines and comments included); pbem reads logs of at most 100,000 lines")


@pytest.mark.parametrize("tool", TOOLS)
def test_standard_input_has_the_same_size_cap(tool: str) -> None:
    data = b"# " + b"x" * 4000 + b"\n"
    refused(tool, "-", 0, 0, "io", "the log is more than 16,777,216 bytes; pbem reads logs "
            "of at most 16,777,216 bytes (16 MiB)", stdin=data * 4200)


def test_standard_input_is_read() -> None:
    done = run("replay", "-", stdin=EXPORTED.read_bytes())
    assert done.returncode == 0
    assert done.stdout.startswith("OK -: finished, winner bas")


# -- numbers ---------------------------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
def test_a_4000_digit_round(tmp_path: Path, tool: str) -> None:
    path = exported(tmp_path, "round.log", lambda ls: ls.insert(14, "round " + "9" * 4000))
    refused(tool, path, 15, 7, "syntax", "expected a number of at most 9 digits after"
            " 'round', found '9999999999999999999999999999999999999...'")


@pytest.mark.parametrize("tool", TOOLS)
def test_a_4000_digit_bid(tmp_path: Path, tool: str) -> None:
    path = exported(tmp_path, "bid.log", lambda ls: ls.insert(14, "anna: bid " + "1" * 4000))
    refused(tool, path, 15, 11, "syntax", "expected a number of at most 9 digits after"
            " 'anna: bid', found '1111111111111111111111111111111111111...'")


@pytest.mark.parametrize("tool", TOOLS)
def test_a_5000_digit_version_is_a_long_line(tmp_path: Path, tool: str) -> None:
    def change(lines: list[str]) -> None:
        lines[14] = lines[14].replace("# v2 ", "# v" + "2" * 5000 + " ")
    path = exported(tmp_path, "v5000.log", change)
    refused(tool, path, 15, MAX_LINE + 1, "syntax", "the line is 5,128 characters long; "
            "pbem reads lines of at most 4,096 characters")


def test_a_3900_digit_version(tmp_path: Path) -> None:
    def change(lines: list[str]) -> None:
        lines[14] = lines[14].replace("# v2 ", "# v" + "2" * 3900 + " ")
    path = exported(tmp_path, "v3900.log", change)
    refused("verify", path, 15, 0, "chain", "the annotation's version has 3,900 digits; a"
            " version has at most 9")
    assert run("replay", path).returncode == 0  # replay does not read annotations


def test_a_long_head_version(tmp_path: Path) -> None:
    path = exported(tmp_path, "head.log", lambda ls: ls.__setitem__(12, ls[12].replace(
        '"v149 ', '"v' + "1" * 900 + " ")))
    refused("verify", path, 13, 0, "tags", "the Head tag is not 'vN sha256:' and 64 hex digits"
            " (N of at most 9 digits)")


def test_a_5000_digit_quoted_head() -> None:
    quoted = "v" + "3" * 5000 + " sha256:b8f5b125368069de"
    done = run("verify", str(EXPORTED), "--head", quoted)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        f"{EXPORTED}: head: --head 'v333333333333333333333333333333333333...' is not like "
        "'v37 sha256:ab12cd34…' (a version of at most 9 digits, at least 8 hex digits)")


# -- what a message shows --------------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
def test_invisible_characters_are_shown_escaped(tmp_path: Path, tool: str) -> None:
    path = exported(tmp_path, "zwj.log", lambda ls: ls.insert(14, "anna: ke\u200dep jurist"))
    refused(tool, path, 15, 7, "syntax",
            "unknown command 'ke\\u200dep'; did you mean 'keep'?")


def test_invisible_characters_in_names_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "name.log"
    path.write_text('[Players "ann\u200da, bas, chris"]\nbas: keep jurist\n', encoding="utf-8")
    message = ("a chance line is due before any move: expected '* deal ann\\u200da: ...' "
               "naming the 4 cards, as this log has no Seed tag")
    refused("replay", str(path), 2, 6, "illegal", message)
    done = run("replay", "--json", str(path))
    error = json.loads(done.stdout)["error"]
    assert error["message"] == message
    assert "\u200d" not in json.dumps(error, ensure_ascii=False)
