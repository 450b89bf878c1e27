#!/usr/bin/env python3
"""A TCP relay that puts servers on loopback some milliseconds away (bench only).

  python scripts/latency_relay.py --ms 20 127.0.0.1:10025 127.0.0.1:10143 ...

For each target it listens on a free port of 127.0.0.1 and prints one line
`relay 127.0.0.1:<port> -> <target>`, then `ready`; it runs until SIGINT or SIGTERM.
Every chunk of bytes is held MS/2 ms on its way to the server and MS/2 ms on its way
back, so a request and its answer cost MS ms more than on loopback; the connection to
the server is opened MS/2 ms after the client's (a server that speaks first, like SMTP
and IMAP, greets MS ms after the connect). The bytes are forwarded as they are, in
order, so TLS (STARTTLS included) runs end to end between client and server and the
certificate names still verify: the client connects to 127.0.0.1 as before.

What it leaves out (`tc netem` is not available here): the client's own connect
returns at once (the kernel completes the handshake), so a client that speaks first
(PostgreSQL) pays one round trip less to open a connection than on a real network;
there is no bandwidth limit, no loss, and no TCP slow start.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass
class Counts:
    """What went through the relay to one server: connections opened, round trips
    (the server sending after the client had sent: a request answered, each one a
    wait of the whole added round trip), bytes each way."""

    connections: int = 0
    round_trips: int = 0
    bytes_up: int = 0
    bytes_down: int = 0

    def line(self) -> str:
        return f"{self.connections} {self.round_trips} {self.bytes_up} {self.bytes_down}"


class _Conn:
    """One relayed connection: which way its last chunk went, for the round trips."""

    def __init__(self, counts: Counts) -> None:
        self.counts, self.last_up = counts, False
        counts.connections += 1

    def chunk(self, up: bool, size: int) -> None:
        if up:
            self.counts.bytes_up += size
        else:
            self.counts.bytes_down += size
            self.counts.round_trips += self.last_up
        self.last_up = up


class _Pipe:
    """One direction of one connection: chunks wait here until their time comes."""

    def __init__(self, loop: asyncio.AbstractEventLoop, delay: float, conn: _Conn,
                 up: bool) -> None:
        self.loop, self.delay, self.conn, self.up = loop, delay, conn, up
        self.target: _Side | None = None
        self.queue: collections.deque[tuple[float, bytes | None]] = collections.deque()
        self.ended = False  # the end of the stream was pushed

    def push(self, data: bytes | None) -> None:
        """`data`, or None for the end of the stream, to be passed on `delay` from now."""
        if self.ended:
            return
        self.ended = data is None
        if data is not None:
            self.conn.chunk(self.up, len(data))
        when = self.loop.time() + self.delay
        self.queue.append((when, data))
        self.loop.call_at(when, self.pump, when)

    def attach(self, target: _Side) -> None:
        self.target = target
        self.pump(0.0)

    def pump(self, due: float) -> None:
        """Pass on, in order, every chunk whose time has come: each chunk's timer
        passes on it and those before it (timers may fire in any order, and a hair
        before their time)."""
        if self.target is None:
            return
        now = max(self.loop.time(), due)
        while self.queue and self.queue[0][0] <= now:
            data = self.queue.popleft()[1]
            if data is None:
                self.target.send_eof()
            else:
                self.target.send(data)


class _Side(asyncio.Protocol):
    """One socket of a relayed connection: what it reads goes into `out`, what comes
    out of `back` is written to it. It is closed once the stream has ended both ways."""

    def __init__(self, out: _Pipe, back: _Pipe) -> None:
        self.out, self.back = out, back
        self.transport: asyncio.Transport | None = None
        self.got_eof = self.sent_eof = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.back.attach(self)

    def data_received(self, data: bytes) -> None:
        self.out.push(data)

    def eof_received(self) -> bool:
        self.got_eof = True
        self.out.push(None)
        self._close_when_done()
        return True  # half-closed: the other direction still flows

    def connection_lost(self, exc: Exception | None) -> None:
        self.got_eof = self.sent_eof = True
        self.out.push(None)

    def send(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def send_eof(self) -> None:
        self.sent_eof = True
        if self.transport is None or self.transport.is_closing():
            return
        try:
            if self.transport.can_write_eof():
                self.transport.write_eof()
                self._close_when_done()
                return
        except OSError:
            pass  # the peer is gone already
        self.transport.close()

    def _close_when_done(self) -> None:
        if self.got_eof and self.sent_eof and self.transport is not None:
            self.transport.close()


async def _connect_later(loop: asyncio.AbstractEventLoop, client: _Side, host: str,
                         port: int, delay: float) -> None:
    """The connection to the server, `delay` after the client's (the SYN's way)."""
    await asyncio.sleep(delay)
    try:
        await loop.create_connection(lambda: _Side(client.back, client.out), host, port)
    except OSError:
        client.back.push(None)  # the client sees the connection end


def _client_factory(loop: asyncio.AbstractEventLoop, host: str, port: int, delay: float,
                    tasks: set[asyncio.Task[None]], counts: Counts) -> Callable[[], _Side]:
    def make() -> _Side:
        conn = _Conn(counts)
        side = _Side(_Pipe(loop, delay, conn, up=True), _Pipe(loop, delay, conn, up=False))
        task = loop.create_task(_connect_later(loop, side, host, port, delay))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return side
    return make


async def serve(targets: list[tuple[str, int]], ms: float) -> None:
    loop = asyncio.get_running_loop()
    delay = ms / 2000
    tasks: set[asyncio.Task[None]] = set()
    servers = []
    counts = {target: Counts() for target in targets}
    for host, port in targets:
        srv = await loop.create_server(
            _client_factory(loop, host, port, delay, tasks, counts[(host, port)]),
            "127.0.0.1", 0)
        servers.append(srv)
        print(f"relay 127.0.0.1:{srv.sockets[0].getsockname()[1]} -> {host}:{port}")
    print("ready", flush=True)
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)

    def report() -> None:
        for (host, port), c in counts.items():
            print(f"counts {host}:{port} {c.line()}")
        print("end", flush=True)

    loop.add_signal_handler(signal.SIGUSR1, report)
    await stop.wait()
    for srv in servers:
        srv.close()


def _target(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


@dataclass(frozen=True)
class Relay:
    """A running relay process: its pid and the local port for each target."""

    proc: subprocess.Popen[str]
    ports: dict[tuple[str, int], int]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def port(self, host: str, port: int) -> int:
        return self.ports[(host, port)]

    def counts(self) -> dict[tuple[str, int], Counts]:
        """What went through to each server since the relay started."""
        assert self.proc.stdout is not None
        self.proc.send_signal(signal.SIGUSR1)
        got: dict[tuple[str, int], Counts] = {}
        for line in self.proc.stdout:
            if line.strip() == "end":
                return got
            _, target, *numbers = line.split()
            got[_target(target)] = Counts(*map(int, numbers))
        raise RuntimeError(f"the relay stopped ({self.proc.wait()})")


@contextlib.contextmanager
def relay(targets: list[tuple[str, int]], ms: float) -> Iterator[Relay]:
    """A relay process for `targets`, `ms` round trip, stopped on leaving."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--ms", str(ms), *(f"{h}:{p}" for h, p in targets)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ports = {}
        for line in proc.stdout:
            if line.strip() == "ready":
                break
            _, local, _, target = line.split()
            ports[_target(target)] = int(local.rpartition(":")[2])
        else:
            raise RuntimeError(f"the relay stopped before it was ready ({proc.wait()})")
        yield Relay(proc, ports)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


PG_SSL_REQUEST = struct.pack("!ii", 8, 80877103)
"""A PostgreSQL client's first message when it asks for TLS; the server answers one
byte (`S` or `N`)."""


def first_byte_ms(host: str, port: int, send: bytes = b"") -> float:
    """Milliseconds from connecting to the first byte back: the greeting of a server
    that speaks first, or the answer to `send`."""
    t0 = time.perf_counter()
    with socket.create_connection((host, port), timeout=10) as sock:
        if send:
            sock.sendall(send)
        if not sock.recv(1):
            raise ConnectionError(f"{host}:{port} closed without a byte")
        return (time.perf_counter() - t0) * 1000


def _line(sock: socket.socket) -> bytes:
    got = b""
    while not got.endswith(b"\r\n"):
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("closed in the middle of a line")
        got += chunk
    return got


def exchange_ms(host: str, port: int, request: bytes, tries: int) -> list[float]:
    """Milliseconds for each of `tries` requests of one line (`NOOP`) answered with one
    line, on one open connection to a server that greets first (SMTP, IMAP)."""
    times = []
    with socket.create_connection((host, port), timeout=10) as sock:
        _line(sock)
        for _ in range(tries):
            t0 = time.perf_counter()
            sock.sendall(request)
            _line(sock)
            times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ms", type=float, required=True, help="round trip to add, in ms")
    ap.add_argument("targets", nargs="+", type=_target, help="HOST:PORT of each server")
    args = ap.parse_args()
    asyncio.run(serve(args.targets, args.ms))


if __name__ == "__main__":
    main()
