"""scripts/latency_relay.py (the bench's stand-in for servers far away): bytes go
through intact, in order, both ways, with ends of stream, and each way waits."""

from __future__ import annotations

import importlib.util
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "latency_relay.py"
MS = 40.0


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("latency_relay", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


relay_module = _load()


def _recv_all(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture
def server() -> Iterator[tuple[int, list[bytes]]]:
    """A server on loopback that greets, then answers each connection with what it
    read, reversed, once the client has ended its side; what it read is kept."""
    listener = socket.create_server(("127.0.0.1", 0))
    got: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"hello\n")
                data = _recv_all(conn)
                got.append(data)
                conn.sendall(data[::-1])

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1], got
    listener.shutdown(socket.SHUT_RDWR)  # wakes the accept
    listener.close()
    thread.join(5)


def test_bytes_pass_intact_both_ways_and_each_way_waits(
        server: tuple[int, list[bytes]]) -> None:
    port, got = server
    payload = os.urandom(300_000)
    with relay_module.relay([("127.0.0.1", port)], MS) as r:
        t0 = time.perf_counter()
        with socket.create_connection(("127.0.0.1", r.port("127.0.0.1", port))) as sock:
            assert sock.recv(6) == b"hello\n"
            greeted = time.perf_counter() - t0
            for i in range(0, len(payload), 7000):  # many chunks, in order
                sock.sendall(payload[i:i + 7000])
            sock.shutdown(socket.SHUT_WR)  # the end of stream goes through too
            t1 = time.perf_counter()
            back = _recv_all(sock)
            answered = time.perf_counter() - t1
        counts = r.counts()[("127.0.0.1", port)]
    assert got == [payload]
    assert back == payload[::-1]
    # lower bounds only: the relay's own delays (half the round trip to open the
    # server's connection, half to bring the greeting back; the same for the answer)
    assert greeted >= MS / 1000 * 0.95
    assert answered >= MS / 1000 * 0.95
    assert (counts.connections, counts.bytes_up, counts.bytes_down) == (
        1, len(payload), len(payload) + 6)
    assert counts.round_trips == 1  # the greeting came first; the answer after a request


def test_a_server_that_is_down_ends_the_clients_connection() -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # free once closed
    with relay_module.relay([("127.0.0.1", port)], MS) as r:
        with socket.create_connection(("127.0.0.1", r.port("127.0.0.1", port))) as sock:
            sock.settimeout(10)
            assert sock.recv(1) == b""


def test_first_byte_ms_measures_the_relay(server: tuple[int, list[bytes]]) -> None:
    port, _ = server
    with relay_module.relay([("127.0.0.1", port)], MS) as r:
        assert relay_module.first_byte_ms("127.0.0.1", r.port("127.0.0.1", port)) >= MS * 0.95
