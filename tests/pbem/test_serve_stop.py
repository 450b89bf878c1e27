"""`pbem serve` stops cleanly on SIGTERM and SIGINT: it finishes the mail in hand,
then exits 0. The wait for new mail is long (60 s) here, so a signal that did not cut
it short would fail these tests by the subprocess timeout."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CLI = [sys.executable, "-c", "from pbem.cli import app; app()"]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PBEM_") and k != "DATABASE_URL"}
    env.update(PBEM_DB=str(tmp_path / "pbem.sqlite"), PBEM_TRANSPORT="files",
               PBEM_MAIL_DIR=str(tmp_path / "mail"), PBEM_POLL_SECONDS="60",
               PBEM_MODERATOR_ADDRESS="moderator@example.org")
    return env


def _run(env: dict[str, str], *args: str) -> None:
    subprocess.run([*CLI, *args], env=env, check=True, capture_output=True, timeout=60)


def _inbox(tmp_path: Path, address: str) -> list[Path]:
    return sorted((tmp_path / "mail" / address / "new").glob("*.eml"))


def _wait_for(pred: object, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("condition never met")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_cleanly_on_a_signal(tmp_path: Path, signum: int) -> None:
    env = _env(tmp_path)
    _run(env, "new", "-p", "anna:anna@example.org", "-p", "bas:bas@example.org",
         "-p", "chris:chris@example.org", "--game", "pof-1")
    proc = subprocess.Popen([*CLI, "serve"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        # the first pass sends everyone's first mails, then serve waits for mail
        _wait_for(lambda: len(_inbox(tmp_path, "anna@example.org")) == 2)
        time.sleep(0.3)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "pbem serve: stopped" in out
    assert "Traceback" not in err


def test_a_signal_during_a_pass_finishes_the_mail_in_hand(tmp_path: Path) -> None:
    """A stop asked for while mails are processed: each mail is either processed
    whole (stored, moved, answered) or left untouched in the inbox for the next run."""
    env = _env(tmp_path)
    _run(env, "new", "-p", "anna:anna@example.org", "-p", "bas:bas@example.org",
         "-p", "chris:chris@example.org", "--game", "pof-1")
    _run(env, "poll", "--once")
    inbox = tmp_path / "mail" / "moderator@example.org" / "new"
    inbox.mkdir(parents=True, exist_ok=True)
    for i in range(40):  # strangers' mails: each is processed and answered on its own
        (inbox / f"m{i:03}.eml").write_bytes(
            f"From: x{i}@example.net\r\nTo: moderator@example.org\r\n"
            f"Message-ID: <m{i}@example.net>\r\nSubject: hi\r\n\r\nbid 300\r\n".encode())
    proc = subprocess.Popen([*CLI, "serve"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: len(list(inbox.glob("*.eml"))) < 40)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    left = {p.name for p in inbox.glob("*.eml")}
    processed = {p.name for p in (tmp_path / "mail" / "moderator@example.org" / "processed")
                 .glob("*.eml")}
    assert len(left) + len(processed) == 40 and not left & processed
    # the next run takes up the rest: every mail is processed exactly once
    _run(env, "poll", "--once")
    import sqlite3

    with sqlite3.connect(tmp_path / "pbem.sqlite") as db:
        ids = [r[0] for r in db.execute("select message_id from pbem_inbound")]
    assert sorted(ids) == sorted(f"<m{i}@example.net>" for i in range(40))
