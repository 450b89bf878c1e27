"""Hostile mails for the hostile tests: header variants that once made the error reply
impossible to build, and helpers to send them.

`tests/pbem/fakes.py` is loaded by path: this folder's package name cannot reach it
(`pbem` is the project's own package).
"""

from __future__ import annotations

import base64
import importlib.util
import sys
from pathlib import Path

_FAKES = Path(__file__).resolve().parent.parent / "pbem" / "fakes.py"


def _load_fakes():  # type: ignore[no-untyped-def]
    name = "hostile_pbem_fakes"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _FAKES)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


fakes = _load_fakes()


def _q(text: str) -> str:
    """An RFC 2047 Q-encoded word of `text` (every byte as =XX)."""
    return "=?utf-8?q?" + "".join(f"={b:02X}" for b in text.encode("utf-8")) + "?="


def _b(text: str) -> str:
    return "=?utf-8?b?" + base64.b64encode(text.encode("utf-8")).decode() + "?="


INJECT = "Bcc: victim@evil.example"

# name -> the header lines (raw, CRLF-separated) that replace the mail's Subject,
# Message-ID, From name or references. `{addr}` is the sender's address.
VARIANTS: dict[str, str] = {
    "subject-q-lf": "Subject: =?utf-8?q?hi=0ABcc:_victim@evil.example?=",
    "subject-q-cr": f"Subject: {_q('hi' + chr(13) + INJECT)}",
    "subject-q-crlf": f"Subject: {_q('hi' + chr(13) + chr(10) + INJECT)}",
    "subject-b-lf": f"Subject: {_b('hi' + chr(10) + INJECT)}",
    "subject-b-crlf": f"Subject: {_b('hi' + chr(13) + chr(10) + INJECT)}",
    "subject-u2028": f"Subject: {_q('hi' + chr(0x2028) + INJECT)}",
    "subject-u2029": f"Subject: {_q('hi' + chr(0x2029) + INJECT)}",
    "subject-u0085": f"Subject: {_q('hi' + chr(0x85) + INJECT)}",
    "subject-ff": f"Subject: {_q('hi' + chr(12) + INJECT)}",
    "subject-vt": f"Subject: {_q('hi' + chr(11) + INJECT)}",
    "subject-1c": f"Subject: {_q('hi' + chr(0x1C) + INJECT)}",
    "subject-1d": f"Subject: {_q('hi' + chr(0x1D) + INJECT)}",
    "subject-1e": f"Subject: {_q('hi' + chr(0x1E) + INJECT)}",
    "subject-1f": f"Subject: {_q('hi' + chr(0x1F) + INJECT)}",
    "subject-nul": f"Subject: {_q('hi' + chr(0) + INJECT)}",
    "subject-del-c1": f"Subject: {_q('hi' + chr(0x7F) + chr(0x9B) + INJECT)}",
    "subject-raw-u2028": "Subject: hi\u2028" + INJECT,  # 8-bit bytes, no encoded word
    "subject-raw-latin1": "Subject: caf\udce9 \udcff\udcfe",  # bytes E9 FF FE: not UTF-8
    "subject-long": "Subject: " + _q("x" * 3000 + chr(10) + INJECT),
    "subject-long-word": "Subject: " + "y" * 5000,
    "subject-rtl-override": f"Subject: {_q('move ' + chr(0x202E) + 'txt.exe')}",
    "subject-bidi-isolates": f"Subject: {_q(chr(0x2067) + 'anna' + chr(0x2069) + chr(0x200F))}",
    "subject-unknown-charset": "Subject: =?x-no-such-charset?q?hi=0A?=",
    "message-id-folded": "Message-ID: <fold.{n}@evil.example>\r\n <fold.2@evil.example>",
    "message-id-spaces": "Message-ID: <a b {n}@evil.example>",
    "message-id-encoded-lf": f"Message-ID: {_q('<x{n}' + chr(10) + 'y@evil.example>')}",
    "message-id-ff": "Message-ID: <ff{n}\x0c@evil.example>",
    "message-id-100k": "Message-ID: <{n}" + "m" * 100_000 + "@evil.example>",
    "from-ff-display-name": 'From: "An\x0cna" <{addr}>',
    "from-encoded-name-lf": f"From: {_q('Anna' + chr(10) + INJECT)} <{{addr}}>",
    "from-u2028-name": "From: =?utf-8?q?Anna=E2=80=A8x?= <{addr}>",
    "references-encoded-lf": f"References: <ok@evil.example> {_q('<r' + chr(10) + 's@e>')}",
    "in-reply-to-vt": "In-Reply-To: <a@evil.example>\x0b<b@evil.example>",
}


def poison_mail(variant: str, sender: str, to: str, body: str, n: int = 0) -> bytes:
    """A raw mail from `sender` to `to` whose headers carry `VARIANTS[variant]`."""
    special = VARIANTS[variant].replace("{addr}", sender).replace("{n}", str(n))
    special = special.replace("=7B=6E=7D", "".join(f"={ord(c):02X}" for c in str(n)))
    field = special.split(":", 1)[0].lower()
    lines = [f"From: {sender}" if field != "from" else special, f"To: {to}",
             "Subject: move" if field != "subject" else special,
             f"Message-ID: <poison.{n}.{variant}@evil.example>"
             if field != "message-id" else special,
             "Date: Tue, 01 Dec 2026 12:00:00 +0000", "MIME-Version: 1.0",
             "Content-Type: text/plain; charset=utf-8"]
    if field in ("references", "in-reply-to"):
        lines.append(special)
    head = "\r\n".join(lines).encode("utf-8", "surrogateescape")
    return head + b"\r\n\r\n" + body.encode() + b"\r\n"
