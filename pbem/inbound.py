"""Mail in, commands out: read a raw mail into who sent it, for which seat, and the
command lines it holds. Nothing here touches the database or the engine.

`parse_mail` reads headers and the text body (capped), `auto_reason` spots
auto-replies and bounces, `command_lines` keeps what the sender wrote now (quoted
text and signatures dropped, `pbem.replies`), and `split_envelope` takes out the
`@vN`, `game` and `token` lines and sorts the rest into commands and ignored lines.
"""

from __future__ import annotations

import codecs
import email
import email.errors
import email.header
import email.parser
import email.policy
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser
from typing import TypeVar

from notation import Grammar, grammar_for

from .headers import clean_address, clean_msgids, clean_text, unmangle
from .i18n import LANGUAGE_LINE
from .mail_settings import MAIL_LINE
from .replies import Line, clean_body, is_command_line, own_lines

T = TypeVar("T")
MAX_FROM = 20_000  # characters of a From header read at most


class MailRejected(Exception):
    """A mail that cannot be acted on. `reason` is written for the sender and safe to
    show them; `reply` False means log it and stay silent (bounces, auto-replies)."""

    def __init__(self, reason: str, *, reply: bool = True, status: str = "rejected") -> None:
        super().__init__(reason)
        self.reason = reason
        self.reply = reply
        self.status = status


@dataclass
class ParsedMail:
    message_id: str
    sender: str  # lowercased address, "" if none
    subject: str
    recipients: list[str]
    references: list[str]
    auto: str | None  # why this is an auto-reply or bounce, if it is one
    text: str  # the body text ("" when `problem` is set)
    problem: str | None = None  # why the body could not be read (for the reply)
    headers: dict[str, str] = field(default_factory=dict)
    auth_results: list[str] = field(default_factory=list)  # Authentication-Results, top first
    date: str = ""  # the Date header as written ("" if none)
    in_reply_to: str = ""  # the In-Reply-To header ("" if none)


@dataclass
class Envelope:
    game: str | None
    token: str | None
    version: int | None
    version_line: Line | None
    commands: list[Line]
    ignored: list[Line] = field(default_factory=list)  # lines with no command word
    mail: Line | None = None  # a `mail SETTING` line (pbem.mail_settings), the last one
    language: Line | None = None  # a `language CODE` line (pbem.i18n), the last one


# --------------------------------------------------------------------------- headers


def message_key(msg: Message, raw: bytes) -> str:
    """The mail's Message-ID (cleaned, at most 500 characters), or a digest of its
    bytes when it has none."""
    mid = clean_text(str(msg.get("Message-ID", "") or ""), 500)
    if mid:
        return mid
    return "<sha256." + hashlib.sha256(raw).hexdigest() + "@pbem.invalid>"


def auto_reason(msg: Message) -> str | None:
    """Why a mail was sent by a machine (vacation reply, bounce, list), or None.

    Checks: Auto-Submitted other than "no", an empty Return-Path (<>), X-Autoreply /
    X-Autorespond, Precedence bulk/junk/list/auto_reply, a delivery report body, and
    mailer-daemon/postmaster senders.
    """
    auto = str(msg.get("Auto-Submitted", "") or "").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    rp = msg.get("Return-Path")
    if rp is not None and str(rp).strip().strip("<>").strip() == "":
        return "Return-Path: <>"
    for h in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"):
        if msg.get(h) is not None and h != "X-Auto-Response-Suppress":
            return f"{h} header"
    prec = str(msg.get("Precedence", "") or "").strip().lower()
    if prec in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {prec}"
    if msg.get_content_type() == "multipart/report":
        return "delivery report"
    local = parseaddr(str(msg.get("From", "") or ""))[1].partition("@")[0].lower()
    if local in ("mailer-daemon", "postmaster"):
        return f"sender {local}"
    return None


def _addresses(msg: Message, *names: str) -> list[str]:
    values = [str(v) for n in names for v in (msg.get_all(n) or [])]
    found = [clean_address(unmangle(a).lower()) for _, a in getaddresses(values) if a]
    return [a for a in found if a]


_COMMENT = re.compile(r"\([^()]*\)")


def sender_address(msg: Message) -> str:
    """The From address, lowercased and cleaned; "" when there is none to reply to.

    The email package parses nested comments recursively; a From with thousands of
    them is read again with the comments taken out from the inside.
    """
    value = str(msg.get("From", "") or "")[:MAX_FROM]
    try:
        addr = parseaddr(value)[1]
    except RecursionError:
        while (stripped := _COMMENT.sub(" ", value)) != value:
            value = stripped
        addr = parseaddr(value)[1]
    return clean_address(unmangle(addr).lower())


# --------------------------------------------------------------------------- body


_QUOTE_CLASSES = ("gmail_quote", "yahoo_quoted", "protonmail_quote")
"""Classes of the `<div>` that webmail clients wrap the quoted mail in."""

_RULE = "_" * 32
"""What `<hr>` becomes: the line Outlook writes above a quoted mail (`pbem.replies`
stops reading there)."""


class _TextFromHtml(HTMLParser):
    """Text of an HTML body: block elements become line breaks, scripts are dropped,
    blockquotes and the quote `<div>`s of webmail clients are marked as quotes, and
    `<hr>` becomes a line of underscores."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
              "table", "ul", "ol"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0
        self.divs: list[bool] = []  # open <div>s: whether each is a quote

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head"):
            self.skip += 1
        elif tag == "blockquote":
            self.quote += 1
            self.parts.append("\n")
        elif tag == "hr":
            self.parts.append(f"\n{_RULE}\n")
        elif tag in self.BLOCKS:
            if tag == "div":
                classes = (dict(attrs).get("class") or "").split()
                self.divs.append(any(c in _QUOTE_CLASSES for c in classes))
                self.quote += self.divs[-1]
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag == "blockquote":
            self.quote = max(0, self.quote - 1)
            self.parts.append("\n")
        elif tag in self.BLOCKS:
            if tag == "div" and self.divs:
                self.quote = max(0, self.quote - self.divs.pop())
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.quote:
            data = "\n".join("> " + ln for ln in data.split("\n"))
        self.parts.append(data)


def html_to_text(html: str) -> str:
    """A plain-text reading of an HTML mail body (stdlib html.parser only)."""
    p = _TextFromHtml()
    p.feed(html)
    p.close()
    text = clean_body("".join(p.parts)).replace("\xa0", " ")
    return "\n".join(ln.strip() for ln in text.splitlines())


def _decode(part: Message, limit: int) -> str:
    """The text of one part, decoded by its charset.

    Raises:
        MailRejected: too large, or a charset unknown or not matching the bytes.
    """
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload = b""
    if len(payload) > limit:
        raise MailRejected(
            f"your mail's text is {len(payload) // 1024} KiB; the moderator reads at most "
            f"{limit // 1024} KiB. Send only your commands, without attachments or quotes.")
    declared = part.get_content_charset()
    charset = declared or "us-ascii"
    try:
        codecs.lookup(charset)
    except LookupError:
        raise MailRejected(
            f"your mail declares the character set {charset[:40]!r}, which the moderator "
            "does not know. Please send plain text in UTF-8.") from None
    try:
        return payload.decode(charset)
    except UnicodeDecodeError:
        if declared is None:  # undeclared: UTF-8 is the common case
            try:
                return payload.decode("utf-8")
            except UnicodeDecodeError:
                pass
        raise MailRejected(
            f"your mail's text is not valid {charset!r} as its header declares. "
            "Please send plain text in UTF-8.") from None


def body_text(msg: Message, limit: int) -> str:
    """The text to read commands from: the first text/plain part, else the first
    text/html part converted to text. Attachments are ignored.

    Raises:
        MailRejected: no text part, or one that cannot be read.
    """
    plain: Message | None = None
    html: Message | None = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        disposition = str(part.get("Content-Disposition", "") or "").lower()
        if disposition.startswith("attachment"):
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and html is None:
            html = part
    if plain is not None:
        return _decode(plain, limit)
    if html is not None:
        return html_to_text(_decode(html, limit))
    raise MailRejected("your mail has no text the moderator can read; "
                       "please send your commands as plain text.")


def _read(raw: bytes) -> tuple[Message, str | None]:
    """The parsed mail, or only its headers (and why) when the body cannot be parsed
    (parts nested a thousand deep exhaust the email package's recursion)."""
    try:
        return email.message_from_bytes(raw, policy=email.policy.compat32), None
    except Exception:
        pass
    try:
        msg = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    except Exception:
        msg = Message()
    return msg, "your mail's structure could not be read; please send plain text."


def _guarded(read: Callable[[], T], default: T) -> T:
    """`read()`, or `default` when a hostile header makes the email package fail."""
    try:
        return read()
    except (RecursionError, LookupError, UnicodeError, ValueError, TypeError,
            email.errors.MessageError):
        return default


def _subject(msg: Message) -> str:
    value = str(msg.get("Subject", "") or "")
    try:
        value = str(email.header.make_header(email.header.decode_header(value)))
    except (LookupError, UnicodeError, ValueError, email.errors.HeaderParseError):
        pass
    return clean_text(value, 300)


def mail_key(raw: bytes) -> str:
    """The Message-ID `parse_mail` gives a raw mail (`message_key`), read from its
    headers alone: a worker reads this of every mail it fetched, and the rest of a
    mail only once it has taken it."""
    try:
        msg = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    except Exception:
        msg = Message()
    return _guarded(lambda: message_key(msg, raw), message_key(Message(), raw))


def parse_mail(raw: bytes, *, max_body: int = 64 * 1024, truncated: bool = False) -> ParsedMail:
    """Read a raw mail. Never raises for bad input: problems end up in `problem`, and
    every header value is cleaned (`pbem.headers`), so it can be stored and quoted."""
    msg, problem = _read(raw)
    refs: list[str] = _guarded(lambda: clean_msgids(" ".join(
        str(msg.get(h, "") or "") for h in ("References", "In-Reply-To"))), [])
    replied: list[str] = _guarded(
        lambda: clean_msgids(str(msg.get("In-Reply-To", "") or "")), [])
    parsed = ParsedMail(
        message_id=_guarded(lambda: message_key(msg, raw), message_key(Message(), raw)),
        sender=_guarded(lambda: sender_address(msg), ""),
        subject=_guarded(lambda: _subject(msg), ""),
        recipients=_guarded(lambda: _addresses(
            msg, "To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"), []),
        references=refs[-10:],
        auto=_guarded(lambda: auto_reason(msg), None), text="", problem=problem,
        auth_results=_guarded(lambda: [str(v) for v in
                                       msg.get_all("Authentication-Results") or []][:50], []),
        date=_guarded(lambda: clean_text(str(msg.get("Date", "") or ""), 200), ""),
        in_reply_to=(replied or [""])[0])
    if problem:
        return parsed
    if truncated:
        parsed.problem = (f"your mail is larger than the moderator reads "
                          f"(over {len(raw) // 1024} KiB). Send only your commands, "
                          "without attachments.")
        return parsed
    try:
        parsed.text = body_text(msg, max_body).replace("\x00", "\ufffd")
    except MailRejected as e:
        parsed.problem = e.reason
    except Exception:  # a broken MIME structure: never crash the loop
        parsed.problem = "your mail could not be read; please send plain text."
    return parsed


def as_email(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=email.policy.SMTP)


# --------------------------------------------------------------------------- lines

def command_lines(text: str, grammar: Grammar | None = None) -> list[Line]:
    """The lines of a reply the sender wrote now, with their line numbers: quoted
    text, attributions, header blocks and signatures dropped (`pbem.replies`; the
    command words are `grammar`'s, by default the default game's)."""
    return own_lines(text, grammar=grammar or grammar_for(None))


SHELL_WORDS = ("game", "token", "mail", "language")
"""The first words of the lines `split_envelope` takes out of a mail before a game's
command lines are read (with `@vN`): no game may have them as command words
(tests/contract checks every registered grammar)."""

MAX_VERSION_DIGITS = 9
_VERSION = re.compile(r"^@\s*v?(\d+)$", re.IGNORECASE)
_GAME = re.compile(r"^game\s*:?\s+([a-z0-9][a-z0-9._-]*)$", re.IGNORECASE)
_TOKEN = re.compile(r"^token\s*:?\s+([a-z0-9_-]+)$", re.IGNORECASE)


def split_envelope(lines: list[Line], grammar: Grammar | None = None) -> Envelope:
    """Take the `@vN`, `game ID`, `token TOKEN`, `mail SETTING` and `language CODE`
    lines (the last two: the player's mail setting, `pbem.mail_settings`, and
    language, `pbem.i18n`) out of the lines, and sort the rest into command lines
    and ignored lines (`pbem.replies.is_command_line`, with `grammar`'s command
    words, by default the default game's).

    Raises:
        MailRejected: a version line with more than `MAX_VERSION_DIGITS` digits.
    """
    env = Envelope(None, None, None, None, [])
    grammar = grammar or grammar_for(None)
    for ln in lines:
        if m := _VERSION.match(ln.text):
            if len(m.group(1)) > MAX_VERSION_DIGITS:
                raise MailRejected(
                    f"line {ln.number}: a version line is '@v' and at most "
                    f"{MAX_VERSION_DIGITS} digits, as in your latest status mail; this one "
                    f"has {len(m.group(1))}.")
            env.version, env.version_line = int(m.group(1)), ln
        elif m := _GAME.match(ln.text):
            env.game = m.group(1).lower()
        elif m := _TOKEN.match(ln.text):
            env.token = m.group(1)
        elif MAIL_LINE.match(ln.text):
            env.mail = ln
        elif LANGUAGE_LINE.match(ln.text):
            env.language = ln
        elif is_command_line(ln.text, grammar=grammar):
            env.commands.append(ln)
        else:
            env.ignored.append(ln)
    return env


def token_from(recipients: list[str], local: str, domain: str) -> str | None:
    """The token of the first `local+TOKEN@domain` recipient, if any."""
    prefix = local.lower() + "+"
    for addr in recipients:
        loc, _, dom = addr.rpartition("@")
        if dom == domain.lower() and loc.startswith(prefix) and len(loc) > len(prefix):
            return loc[len(prefix):]
    return None
