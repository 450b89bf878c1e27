"""`ImapInbox.wait` in IDLE against a scripted server on a socket pair (imaplib and
imap-tools as in production): what ends the wait, that a line arriving in pieces
is read whole, and how the connection is closed when a stop signal cut IDLE short
(the real server: tests/integration/test_workers.py)."""

from __future__ import annotations

import array
import fcntl
import imaplib
import signal
import socket
import termios
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from imap_tools import MailBoxUnencrypted

from pbem.config import Config
from pbem.errors import TransportError
from pbem.imap_idle import next_line
from pbem.transport import ImapInbox

PATIENCE = 10.0  # the server hangs up when the client keeps it waiting this long


class Drained:
    """A step of the script: wait until the client has read all that was sent."""


class Signal:
    """A step of the script: send SIGUSR1 to the main thread (the stop signal)."""


class Server(threading.Thread):
    """The server side of one IMAP connection: greets, answers CAPABILITY, IDLE
    (`+ idling`, with `along` in the same write, then the steps of `script`), DONE
    and LOGOUT; `commands` records what the client sent. A client that keeps it
    waiting for PATIENCE seconds is hung up on, and so are the steps after the last."""

    def __init__(self, script: list[bytes | type[Drained] | type[Signal]],
                 along: bytes = b"", hang_up: bool = False) -> None:
        super().__init__(daemon=True)
        self.sock, self.peer = socket.socketpair()
        self.script, self.along, self.hang_up = script, along, hang_up
        self.commands: list[str] = []
        self.main = threading.get_ident()
        self.start()

    def run(self) -> None:
        sock = self.sock
        sock.settimeout(PATIENCE)
        lines = sock.makefile("rb")
        sock.sendall(b"* OK fake IMAP ready\r\n")
        try:
            while line := lines.readline():
                tag, _, command = line.strip().decode().partition(" ")
                self.commands.append(command or tag)
                ok = tag.encode() + b" OK done\r\n"
                if command == "CAPABILITY":
                    sock.sendall(b"* CAPABILITY IMAP4rev1 IDLE\r\n" + ok)
                elif command == "IDLE":
                    sock.sendall(b"+ idling\r\n" + self.along)
                    self.play()
                    if self.hang_up:
                        break
                    done = lines.readline().strip().decode()
                    self.commands += [done] if done else []  # else: hung up
                    if done == "DONE":
                        sock.sendall(ok)
                elif command == "LOGOUT":
                    sock.sendall(b"* BYE\r\n" + ok)
                    break
        except OSError:
            pass
        finally:
            sock.close()

    def play(self) -> None:
        for step in self.script:
            if step is Drained:
                end = time.monotonic() + PATIENCE
                while unread(self.peer) and time.monotonic() < end:
                    time.sleep(0.001)
            elif step is Signal:
                signal.pthread_kill(self.main, signal.SIGUSR1)
            else:
                assert isinstance(step, bytes)
                self.sock.sendall(step)


def unread(sock: socket.socket) -> int:
    """Bytes that arrived at `sock` and that no one has read yet."""
    n = array.array("i", [0])
    fcntl.ioctl(sock.fileno(), termios.FIONREAD, n)
    return n[0]


def inbox(server: Server) -> ImapInbox:
    """An inbox whose connection is the client end of `server`'s socket pair."""

    class Client(imaplib.IMAP4):
        def _create_socket(self, timeout: float | None) -> socket.socket:
            return server.peer

    class Box(MailBoxUnencrypted):
        def _get_mailbox_client(self) -> imaplib.IMAP4:
            return Client()

    box = ImapInbox(Config(idle=True))
    box.mb = Box()
    return box


class Stop(BaseException):
    """What the stop signal handler raises into a wait (`pbem.runner._Interrupted`)."""


@pytest.fixture
def stop_signal() -> Iterator[None]:
    """SIGUSR1 raises `Stop`, as SIGTERM does in `pbem serve`."""
    def handler(_signum: int, _frame: Any) -> None:
        raise Stop

    old = signal.signal(signal.SIGUSR1, handler)
    yield
    signal.signal(signal.SIGUSR1, old)


def test_new_mail_ends_the_wait_and_another_workers_move_does_not() -> None:
    server = Server([b"* 3 EXPUNGE\r\n", Drained, b"* 2 EXPUNGE\r\n* 0 RECENT\r\n",
                     b"* 3 FLAGS (\\Seen)\r\n", Drained, b"* 3 EXISTS\r\n* 1 RECENT\r\n"])
    box = inbox(server)
    box.wait(60)
    assert server.commands == ["CAPABILITY", "IDLE", "DONE"]
    box.__exit__(None, None, None)
    server.join()
    assert server.commands[-1] == "LOGOUT"


def test_a_line_split_across_two_reads_is_read_whole() -> None:
    """The client reads `* 12 EX` before `PUNGE` is sent: imap-tools' `idle.poll`
    returned the half line, and the server's next line was `PUNGE`."""
    server = Server([b"* 12 EX", Drained, b"PUNGE\r\n* 13 EX", Drained, b"ISTS\r\n"])
    box = inbox(server)
    client = box.mb.client
    box.mb.idle.start()
    assert next_line(client, 60) == b"* 12 EXPUNGE"
    assert next_line(client, 60) == b"* 13 EXISTS"
    box.mb.idle.stop()
    box.__exit__(None, None, None)
    server.join()
    assert server.commands == ["CAPABILITY", "IDLE", "DONE", "LOGOUT"]


def test_a_wait_reads_split_lines_and_ends_idle_cleanly() -> None:
    server = Server([b"* 12 EX", Drained, b"PUNGE\r\n", Drained, b"* 13 EXI", Drained,
                     b"STS\r\n"])
    box = inbox(server)
    box.wait(60)
    assert server.commands == ["CAPABILITY", "IDLE", "DONE"]
    assert not box.idling


def test_a_line_already_buffered_ends_the_wait() -> None:
    """`* 4 EXISTS` came in the same read as `+ idling`: it waits in imaplib's buffer,
    and the socket has nothing more to read."""
    server = Server([], along=b"* 4 EXISTS\r\n")
    box = inbox(server)
    box.wait(60)  # not woken: the server hangs up after PATIENCE, and the wait raises
    assert server.commands == ["CAPABILITY", "IDLE", "DONE"]


def test_a_literal_is_read_with_its_line() -> None:
    server = Server([b"* 3 FETCH (X {5}\r\n", Drained, b"a\r\nbc)\r\n* 4 EXISTS\r\n"])
    box = inbox(server)
    box.mb.idle.start()
    assert next_line(box.mb.client, 60) == b"* 3 FETCH (X {5}\r\na\r\nbc)"
    assert next_line(box.mb.client, 60) == b"* 4 EXISTS"


def test_time_up_ends_the_wait_with_done() -> None:
    server = Server([b"* 3 EXPUNGE\r\n"])
    box = inbox(server)
    box.wait(1)
    assert server.commands == ["CAPABILITY", "IDLE", "DONE"]
    assert not box.idling


@pytest.mark.parametrize("last", [b"", b"* BYE shutting down\r\n", b"* 5 EXI"])
def test_a_connection_lost_in_idle_raises(last: bytes) -> None:
    """The server hangs up (after a BYE, or within a line): the loop connects again."""
    server = Server([b"* 3 EXPUNGE\r\n", last], hang_up=True)
    box = inbox(server)
    with pytest.raises(TransportError, match="IMAP IDLE"):
        box.wait(60)
    box.__exit__(TransportError, None, None)
    assert box.mb is None


def test_a_wait_cut_short_closes_the_connection_without_logout(stop_signal: None) -> None:
    """The server in IDLE answers nothing but DONE: a LOGOUT would wait forever."""
    server = Server([b"* 3 EXPUNGE\r\n", Drained, Signal])
    box = inbox(server)
    with pytest.raises(Stop):
        box.wait(60)
    box.__exit__(Stop, None, None)  # as leaving `with ImapInbox(cfg)` does
    server.join()
    assert server.commands == ["CAPABILITY", "IDLE"]
    assert box.mb is None and not box.idling
