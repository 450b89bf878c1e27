"""Mail out: render per-seat mails from views, queue them in the outbox, send them.

Rendering takes a game's view for one seat (never its state) plus lines already
written for that seat by the game's presenter (`pbem.presenter`). Mails are queued
as `OutMail` rows in the same transaction as the change that caused them; `send_due`
delivers what is due and backs off on failure, so a dead SMTP server delays mail but
never loses it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jinja2 import (
    BytecodeCache,
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    pass_eval_context,
    select_autoescape,
)
from jinja2.nodes import EvalContext
from markupsafe import Markup
from sqlalchemy import Row, bindparam, event, func, insert, union_all, update
from sqlmodel import Session, select

from . import i18n
from .config import Config
from .errors import PbemError, TransportError
from .headers import (
    MAX_ADDRESS,
    clean_address,
    clean_msgid,
    clean_msgids,
    clean_subject,
    clean_text,
    is_header_name,
)
from .mime import IMAGE_CID, Outgoing, compose, read_back
from .presenter import Presenter
from .registry import presenter_for
from .store import OUTBOX, MailRow, OutMail, Store, as_utc, claim_due, release_claim, writing
from .workers import void_dead_claims, worker_name

log = logging.getLogger(__name__)

def _template_dir() -> Path:
    """$PBEM_TEMPLATES, else the checkout's templates/, else the installed copy."""
    if os.environ.get("PBEM_TEMPLATES"):
        return Path(os.environ["PBEM_TEMPLATES"])
    checkout = Path(__file__).resolve().parent.parent / "templates"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "pbem" / "templates"


TEMPLATE_DIR = _template_dir()

MAX_BACKOFF = timedelta(hours=6)


def bytecode_cache(setting: str) -> BytecodeCache | None:
    """Where compiled templates are kept between processes (`Config.template_cache`):
    "" a per-user folder in the system temp dir (Jinja2's own choice, checked to be
    the user's alone), "off" nowhere, else that folder. Jinja2 recompiles a template
    whose source changed."""
    if setting == "off":
        return None
    if setting:
        Path(setting).mkdir(parents=True, exist_ok=True)
        return FileSystemBytecodeCache(setting)
    try:
        return FileSystemBytecodeCache()
    except RuntimeError as e:  # a temp dir another user made unsafe: compile each time
        log.warning("no template cache: %s", e)
        return None


class Renderer:
    """Jinja2 templates `NAME.txt` (plain) and `NAME.html` (autoescaped), looked up in
    the game's folder (`Presenter.template_dir`) first, then among the shared ones;
    compiled once a process, and kept compiled in `cache` between processes (a
    `pbem poll --once` from cron then loads them instead of compiling). They speak
    the language `pbem.i18n.speaking` set (Jinja2's i18n extension, newstyle
    gettext: `{{ _("Deadline: %(when)s", when=...) }}`)."""

    def __init__(self, template_dir: Path = TEMPLATE_DIR,
                 cache: BytecodeCache | None = None) -> None:
        self.template_dir = template_dir
        self.cache = cache
        self._envs: dict[str, Environment] = {}
        self._kept: dict[tuple[Any, ...], str] = {}  # `kept` parts by what made them

    def env(self, folder: str) -> Environment:
        """The templates of the game whose folder is `folder`."""
        env = self._envs.get(folder)
        if env is None:
            paths = [str(self.template_dir / folder), str(self.template_dir)] if folder \
                else [str(self.template_dir)]
            env = Environment(
                loader=FileSystemLoader(paths),
                autoescape=select_autoescape(enabled_extensions=("html",), default=False),
                undefined=StrictUndefined, trim_blocks=False, keep_trailing_newline=True,
                bytecode_cache=self.cache, extensions=["jinja2.ext.i18n"],
                auto_reload=False)  # no stat of each template file at every mail
            # the words of the language `pbem.i18n.speaking` set for the mail
            env.install_gettext_callables(  # type: ignore[attr-defined]
                gettext=i18n.gettext, ngettext=i18n.ngettext, pgettext=i18n.pgettext,
                newstyle=True)
            env.globals.update(_=_gettext, gettext=_gettext, ngettext=_ngettext,
                               pgettext=_pgettext, kept=self._keeper(env, folder))
            self._envs[folder] = env
        return env

    def _keeper(self, env: Environment, folder: str) -> Callable[..., str]:
        """The templates' `kept(NAME, **values)`: the template NAME rendered with
        `values` alone (no name of the calling template's), in the words in use, and
        kept for the next mail that passes the same values (which must be hashable):
        a part that is the same for every seat of a position is written once."""

        @pass_eval_context
        def kept(eval_ctx: EvalContext, name: str, /, **values: Any) -> str:
            key = (folder, name, eval_ctx.autoescape, i18n.words_in_use(),
                   tuple(sorted(values.items())))
            out = self._kept.get(key)
            if out is None:
                if len(self._kept) >= KEPT_PARTS:
                    self._kept.clear()
                out = env.get_template(name).render(values)
                out = self._kept[key] = Markup(out) if eval_ctx.autoescape else out
            return out

        return kept

    def render(self, name: str, ctx: dict[str, Any],
               folder: str | None = None) -> tuple[str, str]:
        """The plain and HTML mail; `folder`: the game's template folder (None: the
        default game's)."""
        env = self.env(presenter_for(None).template_dir if folder is None else folder)
        text = env.get_template(f"{name}.txt").render(ctx)
        html = env.get_template(f"{name}.html").render(ctx)
        return _tidy(text), html


KEPT_PARTS = 128  # parts `kept` holds at most (then it starts afresh)


# Jinja2's newstyle gettext (`jinja2.ext._make_new_gettext`) with the same result, in
# one call instead of three through the template's context: the words of the
# language in use, marked safe in an HTML template, then always formatted with the
# values given (escaped in HTML); words without a `%` are what formatting gives.


def _format(autoescape: bool, text: str, values: dict[str, Any]) -> str:
    if autoescape:
        text = Markup(text)
    return text % values if "%" in text else text


@pass_eval_context
def _gettext(eval_ctx: EvalContext, message: str, /, **values: Any) -> str:
    return _format(eval_ctx.autoescape, i18n.gettext(message), values)


@pass_eval_context
def _ngettext(eval_ctx: EvalContext, singular: str, plural: str, n: int, /,
              **values: Any) -> str:
    values.setdefault("num", n)
    return _format(eval_ctx.autoescape, i18n.ngettext(singular, plural, n), values)


@pass_eval_context
def _pgettext(eval_ctx: EvalContext, context: str, message: str, /, **values: Any) -> str:
    values.setdefault("context", context)
    return _format(eval_ctx.autoescape, i18n.pgettext(context, message), values)


def _tidy(text: str) -> str:
    lines = [ln if ln == "-- " else ln.rstrip() for ln in text.splitlines()]
    out: list[str] = []
    for ln in lines:
        if ln or (out and out[-1]):
            out.append(ln)
    return "\n".join(out).strip("\n") + "\n"


# --------------------------------------------------------------------------- contexts


def when(dt: datetime | None, tz: str) -> tuple[str, str]:
    """A deadline in UTC and in the player's zone ("" if the zone is UTC or unknown)."""
    if dt is None:
        return "", ""
    dt = as_utc(dt)
    assert dt is not None
    utc = dt.strftime("%a %d %b %Y %H:%M UTC")
    if tz in ("", "UTC"):
        return utc, ""
    try:
        local = dt.astimezone(ZoneInfo(tz))
    except (ZoneInfoNotFoundError, ValueError):
        return utc, ""
    return utc, local.strftime(f"%a %d %b %H:%M {tz}")


def status_context(view: Any, *, game_id: str, changes: Sequence[str], echo: Sequence[str],
                   legal: Sequence[str], deadline: datetime | None, tz: str,
                   ignored: Sequence[str] = (), notice: str = "", position: str = "",
                   undo_line: str = "", presenter: Presenter | None = None,
                   picture: bool = False) -> dict[str, Any]:
    """Everything the status templates show, from one seat's view: the shared part
    here, the game's own from its presenter (None: the default game's). `picture`:
    the mail carries the board's picture (`board_cid` names it, else "")."""
    presenter = presenter or presenter_for(None)
    utc, local = when(deadline, tz)
    return {
        "game_id": game_id, "version": view.version,
        "position": position or f"v{view.version}",
        "echo": list(echo), "ignored": list(ignored), "notice": notice,
        "deadline_utc": utc, "deadline_local": local, "undo_line": undo_line,
        "changes": list(changes), "legal": list(legal),
        "board_cid": IMAGE_CID if picture else "",
        **presenter.status_context(view),
    }


# --------------------------------------------------------------------------- mails


def new_message_id(cfg: Config, kind: str, game_id: str | None = None,
                   version: int | None = None) -> str:
    """`<pbem.KIND.RANDOM@domain>`, or `<pbem.KIND.GAME.vN.RANDOM@domain>` for a mail
    showing a game at version N: a reply to it is judged against that version."""
    if game_id is not None and version is not None:
        # 64 random bits keep the header short enough not to be folded
        return (f"<pbem.{kind}.{game_id}.v{version}.{uuid.uuid4().hex[:16]}"
                f"@{cfg.moderator_domain}>")
    return f"<pbem.{kind}.{uuid.uuid4().hex}@{cfg.moderator_domain}>"


_VERSIONED_ID = re.compile(r"^<pbem\.[a-z]+\.([A-Za-z0-9_-]+)\.v(\d+)\.[0-9a-f]+@([^>]+)>$")


def answered_version(cfg: Config, message_id: str) -> tuple[str, int] | None:
    """The game and version a moderator Message-ID names, if it is one of ours."""
    m = _VERSIONED_ID.match(message_id.strip())
    if m is None or m.group(3).lower() != cfg.moderator_domain.lower():
        return None
    return m.group(1), int(m.group(2))


MAX_REFS = 10  # Message-IDs in a References header: the thread's first and the last 9


def chain(ids: Iterable[str]) -> list[str]:
    """A References list: the well-formed ids of `ids`, each once (where it first
    stands), at most `MAX_REFS` of them, the first (the thread's root) always kept."""
    refs = list(dict.fromkeys(clean_msgids([i for i in ids if i])))
    return refs if len(refs) <= MAX_REFS else [refs[0], *refs[1 - MAX_REFS:]]


def thread_of(s: Session, game_id: str, to: str) -> tuple[str, ...]:
    """The Message-IDs of the first and the last mail of game `game_id` queued to `to`
    (one id when that is one mail, none before the first): the thread a new mail of
    the game to `to` continues. The threads of all the game's recipients are read in
    one query, the first time a transaction asks (`_threads`); `note_queued` keeps
    them up to date as the transaction queues more."""
    ids = _threads(s, game_id).get(stored_address(to), [])
    return tuple(ids[:1]) if len(ids) < 2 or ids[0] == ids[-1] else (ids[0], ids[-1])


def _thread_ends() -> Any:
    """The statement `_threads` runs (built once): recipient and Message-ID of the
    first and the last mail of the game `:game` to each recipient, oldest first."""
    t = OUTBOX.c
    of_game = t.game_id == bindparam("game")
    ends = union_all(select(func.min(t.id)).where(of_game).group_by(t.to_addr),
                     select(func.max(t.id)).where(of_game).group_by(t.to_addr))
    return select(t.to_addr, t.message_id).where(t.id.in_(ends)).order_by(t.id)


_THREAD_ENDS = _thread_ends()


def _threads(s: Session, game_id: str) -> dict[str, list[str]]:
    """Recipient -> the Message-IDs of its first and last mail of the game (one when
    they are the same mail), read once per session."""
    key = ("threads", game_id)
    known: dict[str, list[str]] | None = s.info.get(key)
    if known is None:
        known = {}
        s.flush()  # as a query of the session would: rows added to it are counted
        insert_queued(s)
        for to, mid in s.connection().execute(_THREAD_ENDS, {"game": game_id}):
            known.setdefault(to, []).append(mid)
        s.info[key] = known
    return known


def note_queued(s: Session, values: dict[str, Any]) -> None:
    """A mail of a game queued in this session (`mail_row`'s columns): the last of its
    recipient's thread."""
    known: dict[str, list[str]] | None = s.info.get(("threads", values["game_id"]))
    if known is not None:
        ids = known.setdefault(values["to_addr"], [])
        ids[1:] = [values["message_id"]]


_QUEUED = "outbox rows queued"  # the session's `queue_mail` rows not inserted yet


def queue_mail(s: Session, values: dict[str, Any]) -> None:
    """Queue an outbox row (`mail_row`'s columns) in the session's transaction, and
    note it in its thread. The rows a transaction queues are inserted together, by
    one executemany Core INSERT (no ORM objects; one statement on PostgreSQL), when
    it commits or `_threads` reads the outbox."""
    s.info.setdefault(_QUEUED, []).append(values)
    if values["game_id"] is not None:
        note_queued(s, values)


@event.listens_for(Session, "before_commit")
def insert_queued(s: Session) -> None:
    """Insert the rows `queue_mail` queued in the session (at its commit, before its
    last flush)."""
    rows = s.info.pop(_QUEUED, None)
    if rows:
        s.connection().execute(insert(OUTBOX), rows)


@event.listens_for(Session, "after_rollback")
def _drop_queued(s: Session) -> None:
    s.info.pop(_QUEUED, None)


def stored_address(to: str) -> str:
    """The recipient as an outbox row stores it."""
    return clean_address(to) or clean_text(to, MAX_ADDRESS)


def make_mail(cfg: Config, *, game_id: str | None, kind: str, to: str, subject: str,
              text: str, html: str, now: datetime, reply_to: str | None = None,
              in_reply_to: str | None = None, references: Iterable[str] = (),
              thread: Sequence[str] = (), version: int | None = None,
              image: bytes | None = None) -> OutMail:
    """An outbox row, ready to queue (`mail_row`, as an ORM object)."""
    return OutMail(**mail_row(cfg, game_id=game_id, kind=kind, to=to, subject=subject,
                              text=text, html=html, now=now, reply_to=reply_to,
                              in_reply_to=in_reply_to, references=references, thread=thread,
                              version=version, image=image))


def mail_row(cfg: Config, *, game_id: str | None, kind: str, to: str, subject: str,
             text: str, html: str, now: datetime, reply_to: str | None = None,
             in_reply_to: str | None = None, references: Iterable[str] = (),
             thread: Sequence[str] = (), version: int | None = None,
             image: bytes | None = None) -> dict[str, Any]:
    """The columns of an outbox row, ready to queue (`queue_mail`); its Message-ID is fixed
    now, so a resend after a crash carries the same id. `version`: the game version the
    mail shows. `thread`: the first and the previous mail of the recipient's thread
    (`thread_of`): the mail answers `in_reply_to` (a player's mail), its References the
    thread's first mail, then that mail's `references` and the mail itself, oldest first
    as RFC 5322 builds them; or else it answers the previous mail, its References the
    first and the previous mail; each id once. `image`: the HTML's inline picture (PNG
    bytes, `pbem.mime.IMAGE_CID`). Every header value is cleaned (`pbem.headers`): a
    malformed In-Reply-To or reference is dropped, never copied."""
    headers: dict[str, str] = {}
    if reply_to and (reply := clean_address(reply_to)):
        headers["Reply-To"] = reply
    answered = clean_msgid(in_reply_to or "")
    parent = answered or (clean_msgid(thread[-1]) if thread else None)
    if parent:
        headers["In-Reply-To"] = parent
    # an answer's ancestors are the root and the answered mail's own; the recipient's
    # previous mail came after some of them, and is no ancestor of it
    refs = chain([*thread[:1], *references, parent] if answered else [*thread, parent or ""])
    if refs:
        headers["References"] = " ".join(refs)
    if kind in ("status", "private", "notice", "reminder"):
        headers["Auto-Submitted"] = "auto-generated"
    elif kind == "error":
        headers["Auto-Submitted"] = "auto-replied"
    return {**_ROW_DEFAULTS, "message_id": new_message_id(cfg, kind, game_id, version),
            "game_id": game_id, "kind": kind, "to_addr": stored_address(to),
            "subject": clean_subject(subject), "text": text, "html": html,
            "headers": json.dumps(headers), "image": image or None, "next_attempt": now,
            "created": now}


_ROW_DEFAULTS = {"sent_at": None, "claimed_until": None,
                 **{name: f.default for name, f in OutMail.model_fields.items()
                    if name != "id" and not f.is_required()}}
"""The columns `mail_row` leaves at the model's defaults (every row of one batched
INSERT names the same columns)."""


class UnsendableMail(PbemError):
    """An outbox row that cannot become a mail (no valid recipient, a broken row)."""


# Headers a stored row may not set: the ones `to_message` writes itself, and every
# other one that names recipients or shapes the MIME structure.
_NOT_EXTRA = frozenset({"from", "to", "cc", "bcc", "sender", "subject", "message-id", "date",
                        "return-path", "delivered-to", "mime-version"})


def _extra_allowed(name: object) -> bool:
    if not isinstance(name, str) or not is_header_name(name):
        return False
    low = name.lower()
    return low not in _NOT_EXTRA and not low.startswith(("resent-", "content-"))


def message_headers(cfg: Config, row: MailRow) -> list[tuple[str, str]]:
    """The header fields of an outbox row's mail, in order, every value cleaned again
    (so a row queued before the cleaning existed, or written by hand, cannot break
    the mail either).

    Raises:
        UnsendableMail: the row has no valid recipient or a malformed header list.
    """
    to = clean_address(row.to_addr)
    if not to:
        raise UnsendableMail(f"not a valid recipient address: {row.to_addr[:80]!r}")
    try:
        extra = json.loads(row.headers or "{}")
    except ValueError as e:
        raise UnsendableMail(f"the stored headers are not valid JSON: {e}") from None
    if not isinstance(extra, dict):
        raise UnsendableMail("the stored headers are not a JSON object")
    mid = clean_msgid(row.message_id)
    if mid is None:
        raise UnsendableMail(f"not a valid Message-ID: {row.message_id[:80]!r}")
    created = as_utc(row.created)
    assert created is not None
    headers = [("From", formataddr((clean_text(cfg.moderator_name, 100),
                                    clean_address(cfg.moderator_address)))),
               ("To", to), ("Subject", clean_subject(row.subject)), ("Message-ID", mid),
               ("Date", format_datetime(created))]
    names = {k.lower() for k, _ in headers}
    for k, v in extra.items():
        if not _extra_allowed(k) or k.lower() in names:
            log.warning("outbox %s: header %r left out", row.id, str(k)[:40])
            continue
        if k == "In-Reply-To":
            value = clean_msgid(str(v)) or ""
        elif k == "References":
            value = " ".join(chain(str(v).split()))
        elif k == "Reply-To":
            value = clean_address(str(v))
        else:
            value = clean_text(str(v))
        if value:
            headers.append((k, value))
            names.add(k.lower())
    return headers


def to_message(cfg: Config, row: MailRow) -> Outgoing:
    """The mail of an outbox row: multipart/alternative, plain text first (plain text
    alone when the row has no HTML; the HTML with the row's inline picture in a
    multipart/related), built once as the bytes the transports send
    (`pbem.mime`) and read back: it must come back with exactly the headers it was
    given (no value folded into a new header).

    Raises:
        UnsendableMail: the row has no valid recipient, a malformed header list, or a
            header value that would break the mail's headers.
    """
    headers = message_headers(cfg, row)
    fields = dict(headers)
    raw = compose(headers, row.text, row.html, row.image or b"")
    msg = read_back(raw, [fields["To"]], fields["Message-ID"])
    body = ["content-type"] if row.html else ["content-type", "content-transfer-encoding"]
    if [k.lower() for k in msg.keys()] != [*(k.lower() for k, _ in headers), "mime-version",
                                           *body]:
        raise UnsendableMail("a header value would break the mail's headers")
    return msg


def build_message(cfg: Config, row: MailRow) -> Outgoing:
    """`to_message`, with any failure of the email package as `UnsendableMail`.

    Raises:
        UnsendableMail: the row cannot become a mail.
    """
    try:
        return to_message(cfg, row)
    except UnsendableMail:
        raise
    except Exception as e:  # the email package raises several kinds; all mean "cannot"
        raise UnsendableMail(f"cannot build the mail: {type(e).__name__}: {e}") from e


# --------------------------------------------------------------------------- sending


class Sender(Protocol):
    """Delivers messages; calls `done(i, error)` once for each, as it is through
    with it (not necessarily in order: `pbem.transport.SmtpSender` sends over
    several connections at once)."""

    def send_batch(self, messages: Sequence[EmailMessage],
                   done: Callable[[int, Exception | None], None]) -> None: ...


class PermanentFailure(TransportError):
    """The server refused the message for good (e.g. unknown recipient)."""


@dataclass
class SendReport:
    sent: int = 0
    retry: int = 0
    failed: int = 0
    problems: list[str] = field(default_factory=list)  # one line per failed row


def backoff(attempts: int) -> timedelta:
    """Wait before retry number `attempts` (1-based): 30 s doubling, at most 6 h."""
    return min(timedelta(seconds=30 * 2 ** max(0, attempts - 1)), MAX_BACKOFF)


def _mark_failed(mail_id: object, to: str, error: str, report: SendReport) -> dict[str, Any]:
    report.failed += 1
    report.problems.append(f"outbox {mail_id} to {to[:80]!r}: {error[:200]}")
    log.error("outbox %s to %r failed for good: %s", mail_id, to[:80], error)
    return {"status": "failed", "last_error": error[:500]}


class Marks:
    """The results of one claimed batch's sends, recorded on their rows together in
    one transaction (`flush`): sent; failed for good (a permanent refusal, a mail
    that cannot be built, or the `max_attempts`th temporary failure); or pending
    with a later `next_attempt`. A row is marked only while it is pending and, with
    `claim`, while that batch's lease on it still holds: the sent ones by one UPDATE
    that says so in its WHERE clause, the others each by its own after reading its
    row locked."""

    def __init__(self, store: Store, report: SendReport, now: datetime, max_attempts: int,
                 claim: str = "") -> None:
        self.store, self.report, self.now = store, report, now
        self.max_attempts, self.claim = max_attempts, claim
        self.results: list[tuple[MailRow, Exception | None]] = []

    def record(self, row: MailRow, error: Exception | None) -> None:
        self.results.append((row, error))

    def flush(self) -> None:
        """Mark every recorded result, in one transaction."""
        results, self.results = self.results, []
        if not results:
            return
        ours = [OUTBOX.c.status == "pending"]
        if self.claim:
            ours.append(OUTBOX.c.claimed_by == self.claim)
        sent = [row.id for row, error in results if error is None]
        with writing(self.store) as conn:
            marked: set[int] = set()
            if sent:
                marked = set(conn.execute(
                    update(OUTBOX).where(OUTBOX.c.id.in_(sent), *ours)
                    .values(status="sent", sent_at=self.now, attempts=OUTBOX.c.attempts + 1,
                            claimed_until=None).returning(OUTBOX.c.id)).scalars())
                self.report.sent += len(marked)
            rest = [(row, error) for row, error in results if row.id not in marked]
            if not rest:
                return
            fresh = {r.id: r for r in conn.execute(
                select(OUTBOX.c.id, OUTBOX.c.status, OUTBOX.c.claimed_by, OUTBOX.c.attempts)
                .where(OUTBOX.c.id.in_([row.id for row, _ in rest])).with_for_update())}
            for row, error in rest:
                mail = fresh.get(row.id)
                if mail is None or mail.status != "pending":
                    continue
                if self.claim and mail.claimed_by != self.claim:
                    # Our lease ran out and another worker took the row: it decides.
                    log.warning("outbox %s: the send lease passed to %s before it was marked",
                                row.id, mail.claimed_by or "nobody")
                    continue
                if error is not None:
                    conn.execute(update(OUTBOX).where(OUTBOX.c.id == row.id, *ours)
                                 .values(claimed_until=None, **self._failure(mail, row, error)))

    def _failure(self, fresh: Row[Any], row: MailRow, error: Exception) -> dict[str, Any]:
        """The columns a failed send sets on its row (`fresh`: as read now)."""
        report, attempts = self.report, fresh.attempts + 1
        if isinstance(error, PermanentFailure | UnsendableMail):
            return {"attempts": attempts, **_mark_failed(row.id, row.to_addr, str(error),
                                                        report)}
        if attempts >= self.max_attempts:
            return {"attempts": attempts, **_mark_failed(
                row.id, row.to_addr, f"{error} (attempt {attempts} of {self.max_attempts})",
                report)}
        retry = self.now + backoff(attempts)
        report.retry += 1
        log.warning("outbox %s to %r: %s; retry at %s", row.id, row.to_addr[:80], error, retry)
        return {"attempts": attempts, "next_attempt": retry, "last_error": str(error)[:500],
                "claimed_by": ""}


def _marker(marks: Marks, rows: Sequence[MailRow]) -> Callable[[int, Exception | None], None]:
    """The sender's `done` for `rows`: record the result of `rows[i]` in `marks`."""
    def done(i: int, error: Exception | None) -> None:
        marks.record(rows[i], error)

    return done


SHARE_FLOOR = 6
"""The smallest batch `send_due` splits the due mails into (`store.claim_due`'s
`share`): a move's status mails, up to five players, are one batch."""


def send_due(store: Store, sender: Sender, cfg: Config, now: datetime,
             limit: int = 20, worker: str = "", share: int = SHARE_FLOOR) -> SendReport:
    """Send every outbox mail that is due, a claimed batch at a time; mark the batch's
    rows in one transaction once the sender is through it. A temporary failure leaves
    the mail pending with a later `next_attempt`, until `cfg.send_attempts` attempts
    failed; then it is marked failed, as is a mail the server refuses for good or that
    cannot be built at all.

    Each row is built on its own, so one bad row is marked failed and never holds
    back another; nothing one row does makes this raise (a database error does).

    Each batch is claimed first (`store.claim_due`: a lease of `cfg.send_lease_seconds`
    committed before sending), so several workers never send the same row; a row
    is marked only while its lease is still this batch's. A claim takes at most
    half of the mails due (at least `share`, at most `limit`; `share` 0: `limit`),
    so the end of a backlog is split among the workers sending it, not left to the
    one that claimed a whole batch of it. An exception out of the
    sender marks what it reported and frees the batch's other rows at once; a killed
    worker's rows wait for their lease to expire and are then sent by another worker
    or the next pass.

    A crash between the server taking a mail and its batch being marked sends the
    mails of that batch the server took again, with the same Message-IDs
    (at-least-once; the window is one batch, `limit` mails, wide; the file transport
    delivers each Message-ID once).

    A sender with a `session()` (SMTP) keeps its connections for all the batches of
    the pass.
    """
    report = SendReport()
    lease = timedelta(seconds=cfg.send_lease_seconds)
    void_dead_claims(store, now)
    with _session(sender):
        while True:
            claim = f"{worker or worker_name()}/{uuid.uuid4().hex[:12]}"
            rows = claim_due(store, now, limit, claim, lease, share)
            if not rows:
                return report
            log.info("claim %s: sending outbox %s", claim, ",".join(str(r.id) for r in rows))
            marks = Marks(store, report, now, cfg.send_attempts, claim)
            try:
                ready: list[MailRow] = []
                messages: list[EmailMessage] = []
                for row in rows:
                    try:
                        messages.append(build_message(cfg, row))
                        ready.append(row)
                    except UnsendableMail as e:
                        marks.record(row, e)
                retries = report.retry
                crashed = _send(sender, messages, _marker(marks, ready))
                marks.flush()
            except BaseException:
                with contextlib.suppress(Exception):
                    marks.flush()  # what the server took is marked sent
                with contextlib.suppress(Exception):
                    release_claim(store, claim)
                raise
            if crashed:
                release_claim(store, claim)
                continue  # the mails after the crash are still due
            if report.retry > retries or len(rows) < min(limit, share or limit):
                return report  # (a claim takes `share` rows while as many are due)


def _session(sender: Sender) -> contextlib.AbstractContextManager[object]:
    """The sender's `session()` if it has one: one connection for every batch of a
    pass (`pbem.transport.SmtpSender`)."""
    opener = getattr(sender, "session", None)
    return opener() if opener is not None else contextlib.nullcontext()


def _send(sender: Sender, messages: Sequence[EmailMessage],
          done: Callable[[int, Exception | None], None]) -> bool:
    """`sender.send_batch`, with a crash of the sender charged to the mail it was
    sending (a temporary failure: retried later, failed after `send_attempts`); the
    mails after it stay due. Returns whether the sender crashed."""
    reported: set[int] = set()

    def tracked(i: int, error: Exception | None) -> None:
        reported.add(i)
        done(i, error)

    try:
        sender.send_batch(messages, tracked)
    except Exception as e:  # a bug in a transport must not stop every later mail
        log.exception("the sender crashed")
        first = next((i for i in range(len(messages)) if i not in reported), None)
        if first is not None:
            done(first, TransportError(f"the sender crashed: {type(e).__name__}: {e}"))
        return True
    return False
