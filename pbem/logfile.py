"""Reading a log file for `pbem replay`, `show` and `verify`, within bounds.

Only a regular file is read (or standard input, given as `-`): a FIFO, a device or a
directory is refused before a byte is read, so nothing blocks or reads without end.
The size is checked before reading and the lines are counted in the bytes before they
are decoded, so an oversized log costs no more than its first `MAX_LOG_BYTES`.
The notation bounds the rest (notation/limits.py); docs/logs.md lists every bound.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from notation.limits import MAX_LINES

MAX_LOG_BYTES = 16 * 1024 * 1024
"""Largest log file read, in bytes (16 MiB; a whole game is some 100 KB)."""

STDIN = "-"
"""The file name that stands for standard input."""

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class LogFileError(Exception):
    """A log file that is not read: `message` says why; `line` is the first line over
    a bound (0: none)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def read_log_file(path: Path | str) -> str:
    """The text of a log file (`-`: standard input). Bytes that are not UTF-8 are
    replaced (the notation reader then refuses the line they are on).

    Raises:
        LogFileError: the file cannot be opened or read, is not a regular file, is
            larger than MAX_LOG_BYTES or has more than notation.limits.MAX_LINES lines.
    """
    if str(path) == STDIN:
        data = _read_capped(sys.stdin.buffer)
    else:
        data = _read_regular(str(path))
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    if lines > MAX_LINES:
        raise LogFileError(f"the log has more than {MAX_LINES:,} lines (blank lines and "
                           f"comments included); pbem reads logs of at most {MAX_LINES:,} "
                           "lines", MAX_LINES + 1)
    return data.decode("utf-8", errors="replace")


def _read_regular(name: str) -> bytes:
    # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(name, flags)
    except OSError as e:
        raise LogFileError(f"cannot read the file: {e.strerror or e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = next((w for test, w in _KINDS if test(info.st_mode)), "a special file")
            raise LogFileError(f"cannot read the file: it is {what}, not a regular file")
        if info.st_size > MAX_LOG_BYTES:
            raise LogFileError(_too_large(info.st_size))
        with open(fd, "rb", closefd=False) as f:
            return _read_capped(f)
    except OSError as e:
        raise LogFileError(f"cannot read the file: {e.strerror or e}") from None
    finally:
        os.close(fd)


def _read_capped(stream: BinaryIO) -> bytes:
    """At most MAX_LOG_BYTES from `stream`, read in chunks (a file may grow while it
    is read, and standard input has no size)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(min(1 << 20, MAX_LOG_BYTES + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_LOG_BYTES:
            raise LogFileError(_too_large(size, more=True))
    return b"".join(chunks)


def _too_large(size: int, more: bool = False) -> str:
    said = f"more than {MAX_LOG_BYTES:,}" if more else f"{size:,}"
    return (f"the log is {said} bytes; pbem reads logs of at most {MAX_LOG_BYTES:,} bytes "
            f"({MAX_LOG_BYTES // (1024 * 1024)} MiB)")
