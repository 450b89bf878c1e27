"""`pbem replay --jobs N`: worker processes give the very output, order and exit code
of a serial run (`pbem.parallel`)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.parallel import chunk_size, ordered_map

from .helpers import playout, recorded_log, seeded_log


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory, example_text: str) -> list[Path]:
    """30 logs: finished and unfinished games of 3 to 5 players, and bad ones of every
    kind (an illegal move, a bad word, a wrong result, bytes that are not UTF-8, an
    empty file, a folder, a missing file)."""
    folder = tmp_path_factory.mktemp("archive")
    texts: list[str | bytes | None] = []
    for seed in range(18):
        p = playout(3 + seed % 3, seed)
        text = recorded_log(p) if seed % 2 else seeded_log(p)
        texts.append(text if seed % 5 else "\n".join(text.split("\n")[:40 + seed]))
    texts[3] = example_text.replace("chris: bid 300\n", "chris: bid 350\n", 1)
    texts[7] = example_text.replace("chris: bid 300\n", "chris: bif 300\n", 1)
    texts[11] = example_text.replace("[Result", "[Result \"anna 99\"]\n[X", 1)
    texts += [example_text, b"[Game \"princes-of-florence\"]\n\xff\xfe bad\n", "", None]
    texts += [seeded_log(playout(4, seed)) for seed in range(20, 27)]
    files = []
    for n, text in enumerate(texts):
        path = folder / f"game-{n:02d}.log"
        if isinstance(text, bytes):
            path.write_bytes(text)
        elif text is not None:
            path.write_text(text, encoding="utf-8")
        files.append(path)
    (folder / "sub").mkdir()
    files.insert(9, folder / "sub")
    assert len(files) == 30
    return files


def _pbem() -> str:
    exe = Path(sys.executable).parent / "pbem"
    if not exe.exists():
        pytest.skip("the pbem entry point is not installed (pip install -e .)")
    return str(exe)


def _replay(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([_pbem(), "replay", *map(str, args)], capture_output=True,
                          check=False, timeout=300)


@pytest.mark.parametrize("form", [(), ("--json",)], ids=["text", "json"])
def test_jobs_give_the_serial_output(archive: list[Path], form: tuple[str, ...]) -> None:
    serial = _replay(*form, "--jobs", "1", *archive)
    assert serial.returncode == 1 and serial.stderr == b""
    out = serial.stdout.decode()
    where = [out.index(f"{f}") for f in archive]  # every file reported, in input order
    assert where == sorted(where)
    assert 15 <= out.count("OK ") + out.count('"ok": true') < len(archive)
    for jobs in ("3", "2"):
        parallel = _replay(*form, "--jobs", jobs, *archive)
        assert (parallel.returncode, parallel.stdout, parallel.stderr) == \
            (serial.returncode, serial.stdout, serial.stderr), jobs
    default = _replay(*form, *archive)  # the CPU count
    assert (default.returncode, default.stdout) == (serial.returncode, serial.stdout)


def test_jobs_exit_zero_when_every_log_is_valid(archive: list[Path]) -> None:
    good = [archive[n] for n in (0, 1, 2, 4, 5, 6)]
    serial, parallel = _replay("-j", "1", *good), _replay("-j", "4", *good)
    assert serial.returncode == parallel.returncode == 0
    assert serial.stdout == parallel.stdout
    assert _replay("--jobs", "0", *good).returncode == 2


def test_a_terminal_gets_a_progress_bar_and_the_same_reports(archive: list[Path]) -> None:
    serial = _replay("--jobs", "1", *archive)
    main, child = pty.openpty()
    try:
        proc = subprocess.Popen([_pbem(), "replay", "--jobs", "3", *map(str, archive)],
                                stdout=subprocess.PIPE, stderr=child)
        os.close(child)
        shown = b""
        while True:
            ready, _, _ = select.select([main], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(main)
    assert proc.returncode == serial.returncode == 1
    assert out == serial.stdout
    assert b"replaying" in shown


def _square(n: int) -> int:
    if n == 13:
        raise ValueError("thirteen")
    return n * n


def test_ordered_map_keeps_the_order_and_raises_at_the_item() -> None:
    items = list(range(12)) + list(range(14, 60))
    assert list(ordered_map(_square, items, jobs=3)) == [n * n for n in items]
    assert list(ordered_map(_square, [2], jobs=8)) == [4]
    got = []
    with pytest.raises(ValueError, match="thirteen"):
        for value in ordered_map(_square, list(range(40)), jobs=2):
            got.append(value)
    assert got == [n * n for n in range(13)]


def test_chunks_leave_every_worker_several() -> None:
    assert chunk_size(10, 4) == 1
    assert chunk_size(500, 2) == 32
    assert chunk_size(100, 2) == 12
