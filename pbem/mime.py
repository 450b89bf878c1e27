"""An outgoing mail's bytes, built once.

The email package's `EmailMessage` parses every header it is given into a header
object and folds it again when it is flattened, and a transport flattens the
message once more: about 4 ms a mail. Here a mail is written straight to the bytes
the transports send (`compose`): a short ASCII header value as it is, any other one
folded by the email package's own header classes (`email.policy.SMTP`), and each
body part as the email package would encode it (7bit when every line is short ASCII,
else quoted-printable; an inline picture base64). The bytes are read back once
(`read_back`), their header block only, as the check that no value made a header
of its own; the transports send `Outgoing.raw` as it is. Quoted-printable is
`binascii`'s encoder (RFC 2045, like the email package's own but in C; it writes a
line of a lone "." as "=2E").
"""

from __future__ import annotations

import base64
import binascii
import email.parser
import email.policy
import uuid
from collections.abc import Sequence
from email.message import EmailMessage

POLICY = email.policy.SMTP  # CRLF line ends, lines of at most 78 characters
CRLF = b"\r\n"
LINE = 78  # the longest header line written as it is, and line a 7bit part keeps


# One boundary for every mail (it need only be absent from the parts; a quoted-
# printable part never holds "=_"): a reader's pattern for it is compiled once.
BOUNDARY = "=_pbem_alternative_c3a1e0f5"
RELATED = "=_pbem_related_9d4b27a1"  # the HTML and its inline picture
IMAGE_CID = "board@pbem"  # the inline picture's Content-ID: `<img src="cid:board@pbem">`


class Outgoing(EmailMessage):
    """A message's headers read back from the bytes it is sent as (`raw`, the whole
    mail), with its envelope recipients and Message-ID as they were written
    (`read_back`). Its body is left unparsed: whoever wants the parts reads `raw`
    (`email.message_from_bytes`)."""

    raw: bytes = b""
    to: tuple[str, ...] = ()
    message_id: str = ""


def header_line(name: str, value: str) -> bytes:
    """One header field with its line end: as it is when it is ASCII and fits on
    one line, else folded (and encoded) by the email package's header class."""
    if value.isascii() and len(name) + 2 + len(value) <= LINE \
            and value == value.strip() and "\n" not in value and "\r" not in value:
        return f"{name}: {value}".encode("ascii") + CRLF
    folded: str = POLICY.header_factory(name, value).fold(policy=POLICY)
    return folded.encode("ascii")


def encode_text(text: str) -> tuple[str, bytes]:
    """A text part's transfer encoding and body (UTF-8): 7bit when every line is
    ASCII of at most 78 characters, else quoted-printable."""
    lines = text.encode("utf-8").splitlines()
    if text.isascii() and all(len(ln) <= LINE for ln in lines):
        return "7bit", CRLF.join(lines) + CRLF
    data = binascii.b2a_qp(CRLF.join(lines) + CRLF, quotetabs=False, istext=True,
                           header=False)
    return "quoted-printable", data if data.endswith(CRLF) else data + CRLF


def _text_part(text: str, subtype: str) -> tuple[bytes, bytes]:
    cte, body = encode_text(text)
    head = (f'Content-Type: text/{subtype}; charset="utf-8"\r\n'
            f"Content-Transfer-Encoding: {cte}\r\n").encode("ascii")
    return head, body


def _boundary(first: str, parts: Sequence[bytes]) -> str:
    """`first`, or a new random boundary if a part holds it (a 7bit part may)."""
    boundary = first
    while any(boundary.encode("ascii") in p for p in parts):
        boundary = f"=_pbem_{uuid.uuid4().hex}"
    return boundary


def _multipart(subtype: str, first: str, parts: Sequence[tuple[bytes, bytes]],
               params: str = "") -> tuple[bytes, bytes]:
    """A multipart's head and body of `parts` (each its head and body)."""
    boundary = _boundary(first, [body for _, body in parts])
    delimiter = f"--{boundary}\r\n".encode("ascii")
    head = f'Content-Type: multipart/{subtype};{params}\r\n boundary="{boundary}"\r\n'
    body: list[bytes] = []
    for part_head, part_body in parts:
        body += [delimiter, part_head, CRLF, part_body, CRLF]
    body.append(f"--{boundary}--\r\n".encode("ascii"))
    return head.encode("ascii"), b"".join(body)


def _image_part(png: bytes) -> tuple[bytes, bytes]:
    """The inline PNG picture, base64 in lines of 76 characters."""
    head = ("Content-Type: image/png\r\n"
            "Content-Transfer-Encoding: base64\r\n"
            f"Content-ID: <{IMAGE_CID}>\r\n"
            'Content-Disposition: inline; filename="board.png"\r\n').encode("ascii")
    data = base64.b64encode(png)
    lines = [data[i:i + 76] for i in range(0, len(data), 76)]
    return head, CRLF.join(lines) + CRLF


def compose(headers: Sequence[tuple[str, str]], text: str, html: str = "",
            image: bytes = b"") -> bytes:
    """The mail's bytes: `headers` (name, value) in order, then MIME-Version and the
    body: `text` as text/plain, or multipart/alternative of `text` and `html`; with
    `image` (PNG bytes, shown by the HTML as `cid:` `IMAGE_CID`), the HTML part is a
    multipart/related of the HTML and the picture."""
    out = [header_line(k, v) for k, v in headers]
    out.append(b"MIME-Version: 1.0\r\n")
    text_head, text_body = _text_part(text, "plain")
    if not html:
        out += [text_head, CRLF, text_body]
        return b"".join(out)
    html_part = _text_part(html, "html")
    if image:
        html_part = _multipart("related", RELATED, [html_part, _image_part(image)],
                               ' type="text/html";')
    head, body = _multipart("alternative", BOUNDARY, [(text_head, text_body), html_part])
    out += [head, CRLF, body]
    return b"".join(out)


# compat32 reads the header block without making a header object of every value; the
# message is then given the default policy, whose header objects are made from the
# same stored values when a header is read.
_PARSER = email.parser.BytesParser(Outgoing, policy=email.policy.compat32)


def read_back(raw: bytes, to: Sequence[str] = (), message_id: str = "") -> Outgoing:
    """The headers of the mail `raw` as an `Outgoing` message (their values parsed
    only when asked for; the body not parsed), sent to `to` under `message_id`."""
    head = raw.split(CRLF + CRLF, 1)[0] + CRLF + CRLF
    msg = _PARSER.parsebytes(head.replace(CRLF, b"\n"), headersonly=True)
    assert isinstance(msg, Outgoing)
    msg.policy = email.policy.default
    msg.raw, msg.to, msg.message_id = raw, tuple(to), message_id
    return msg
