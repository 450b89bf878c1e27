"""scripts/bench_moderator.py --latency: the workers reach Postfix, Dovecot and
PostgreSQL through the relay (TLS end to end) and the bench prints both curves, the
relay's check and the round trips it counted (no timing is asserted)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from .conftest import MailStack

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_moderator.py"


def test_worker_curve_through_the_relay(mailstack: MailStack, database_url: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--workers", "1,4", "--backlog", "3", "--repeat", "1",
         "--latency", "0,10"],
        env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout
    check = next(line for line in text.splitlines() if line.startswith("relay check"))
    for server in ("SMTP", "IMAP", "PostgreSQL"):
        assert check.count(f"{server} ") == 2, check  # connect, then a request
    assert "servers on loopback (this machine):" in text
    assert "servers 10 ms away (round trip added by the relay):" in text
    # the relayed runs went through it: it counted round trips to every server but
    # IMAP (whose new mails may come with the wake-up), and the moves were applied
    relayed = [line for line in text.splitlines() if " at 10 ms, " in line]
    assert len(relayed) == 2
    for line in relayed:
        trips = dict(re.findall(r"(SMTP|IMAP|PostgreSQL) ([\d.]+)", line.split("round trips")[1]))
        assert float(trips["SMTP"]) > 0 and float(trips["PostgreSQL"]) > 0, line
        assert "0 duplicates (3 moves" in line, line
    assert text.count("4 workers / 1 worker: ") == 2  # next to the target, both curves
    assert "load average" in text.splitlines()[-1]
