"""How long reading a reply takes: the corpus of real client shapes, and the slowest
bodies found for the reading's patterns (64 KiB, the default PBEM_MAX_BODY_BYTES).

    .venv/bin/python scripts/bench_replies.py
"""

from __future__ import annotations

import time
from pathlib import Path

from pbem.inbound import command_lines, parse_mail, split_envelope

CORPUS = Path(__file__).parents[1] / "tests" / "pbem" / "reply_corpus"
LIMIT = 64 * 1024


def read(raw: bytes) -> None:
    split_envelope(command_lines(parse_mail(raw).text))


def main() -> None:
    mails = [p.read_bytes() for p in sorted(CORPUS.glob("*.eml"))]
    rounds = 20
    t = time.perf_counter()
    for _ in range(rounds):
        for raw in mails:
            read(raw)
    per = (time.perf_counter() - t) / (rounds * len(mails))
    print(f"corpus: {len(mails)} mails, {per * 1000:.2f} ms per mail (parse and read)")
    worst = 0.0
    for width in (40, 80, 120, 121):
        for unit in ("On a ", "Il a ", "Am a schrieb ", "Op a schreef ", "On <a@", "From: a "):
            line = (unit * width)[:width].strip()
            body = "\n".join([line] * (LIMIT // (len(line) + 1)))
            t = time.perf_counter()
            split_envelope(command_lines(body))
            took = time.perf_counter() - t
            worst = max(worst, took)
            print(f"  {width:3} chars {unit!r:16} {took * 1000:7.1f} ms")
    print(f"slowest 64 KiB body: {worst * 1000:.0f} ms")


if __name__ == "__main__":
    main()
