"""Reading the server's responses in IMAP IDLE, each line whole.

In IDLE the server sends untagged lines (`* 3 EXISTS`, `* 2 EXPUNGE`, ...) whenever
the folder changes; the client reads them until it ends IDLE with DONE. A line may
reach the client in pieces (TCP and TLS cut where they like), and imaplib reads
through a buffer (and TLS through its own) that may hold lines the socket no longer
shows as readable. So `next_line` waits for the socket only when nothing is
buffered, and then reads a line blocking until its end: never half a line, which
would leave the rest to be taken for a response of its own (`b'PUNGE'`).
"""

from __future__ import annotations

import imaplib
import io
import re
import selectors
import socket
import ssl
import time
from typing import cast

from .errors import TransportError

LINE_SECONDS = 30.0
"""How long the rest of a line that has begun to arrive may take."""

_LITERAL = re.compile(rb"\{(\d+)\}\r\n\Z")  # the line goes on after `n` bytes


def next_line(client: imaplib.IMAP4, seconds: float) -> bytes | None:
    """The next line the server sends (without its CRLF; a literal in it read
    along), or None if none begins within `seconds`.

    Raises:
        TransportError: the server closed the connection, or broke off a line.
    """
    end = time.monotonic() + seconds
    with selectors.DefaultSelector() as sel:
        sel.register(client.socket(), selectors.EVENT_READ)
        while True:
            ahead = _ready(client)
            if ahead:
                return _whole_line(client)
            if ahead is not None:
                raise TransportError("the server closed the connection")
            # A socket readable with nothing for us (a TLS record without data, or
            # part of one) comes back here, and the select waits for more.
            left = end - time.monotonic()
            if left <= 0 or not sel.select(left):
                return None


def _ready(client: imaplib.IMAP4) -> bytes | None:
    """What can be read without blocking: some bytes, b'' at the end of the
    stream, or None when nothing has arrived."""
    sock: socket.socket = client.socket()
    timeout = sock.gettimeout()
    sock.settimeout(0)
    try:
        # imaplib's buffer, else one read of what has arrived (kept in the buffer)
        ahead = cast(io.BufferedReader, client.file).peek(1)
        if ahead or isinstance(sock, ssl.SSLSocket):
            return ahead  # TLS: b'' is the end; a read that would block raises
        return sock.recv(1, socket.MSG_PEEK)  # the plain buffer was empty: b'' is the end
    except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
        return None
    finally:
        sock.settimeout(timeout)


def _whole_line(client: imaplib.IMAP4) -> bytes:
    """A line that has begun to arrive, read to its end (a literal `{n}` at the end
    of a line: `n` bytes, then the rest of the line)."""
    sock = client.socket()
    timeout = sock.gettimeout()
    sock.settimeout(LINE_SECONDS)
    try:
        parts = [client.readline()]
        while m := _LITERAL.search(parts[-1]):
            parts += [client.read(int(m.group(1))), client.readline()]
    finally:
        sock.settimeout(timeout)
    if not parts[-1].endswith(b"\r\n"):
        raise TransportError(f"the connection closed within a line: {b''.join(parts)!r:.200}")
    return b"".join(parts)[:-2]
