"""Mail transports: where raw mails come from and where messages go.

Two pairs behind the same two interfaces (`Inbox`, `outbound.Sender`):

* IMAP in (imap-tools) and SMTP out (aiosmtplib, STARTTLS), for real servers;
* a folder per address on disk (`MailDirs`), for the demo, tests and benchmarks
  with no server: `<root>/<address>/new/*.eml` is an inbox, sending writes a file
  into the recipient's `new/`, and plus-addresses (`moderator+tok@x`) are
  delivered to the base address's folder, as Postfix does.

An inbox hands out mails without changing them; `done(uid)` moves a mail to the
processed folder, and is called only after the database commit. IMAP reads a batch
of mails in one FETCH and moves the processed ones together (`flush`), so a mail
costs no round trip of its own.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import email
import email.policy
import hashlib
import logging
import os
import re
import shutil
import ssl
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import aiosmtplib

from .config import Config
from .errors import TransportError
from .imap_idle import next_line
from .mime import Outgoing
from .outbound import PermanentFailure

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Fetched:
    uid: str  # stable id within the inbox (IMAP: folder/uidvalidity/uid)
    raw: bytes
    truncated: bool = False  # larger than the read cap; `raw` holds the start only


class Inbox(Protocol):
    def __enter__(self) -> Inbox: ...

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None: ...

    def fetch(self, limit: int = 100) -> list[Fetched]:
        """Mails waiting, oldest first; none is changed or marked."""
        ...

    def done(self, uid: str) -> None:
        """Move a processed mail out of the way (to the processed folder); called
        only after its commit. The move may wait for the next `flush`."""
        ...

    def flush(self) -> None:
        """Make the moves `done` held back (the next `fetch` does it too)."""
        ...

    def failed(self, uid: str) -> None:
        """Move a mail that crashed the moderator aside, for a human to look at."""
        ...

    def wait(self, seconds: float) -> None:
        """Block until new mail may have arrived, at most `seconds`."""
        ...


def ssl_context(cfg: Config) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=cfg.ca_file or None)


def base_address(addr: str) -> str:
    """`local+tag@domain` -> `local@domain`, lowercased."""
    local, _, domain = addr.strip().lower().rpartition("@")
    return f"{local.partition('+')[0]}@{domain}"


# --------------------------------------------------------------------------- folders


_SAFE = re.compile(r"[^a-z0-9@._+-]")


class MailDirs:
    """Mail on disk: one folder per address, each with `new/`, `cur/` (read by a
    client), `processed/` and `failed/`. Files are written to `tmp/` and renamed, so
    a reader never sees half a mail. A folder made here is made whole at once, with
    `.sent/` (`SENT`), where `DirSender` notes each Message-ID it delivers there."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def folder(self, address: str) -> Path:
        return self.root / _SAFE.sub("_", base_address(address))

    def make(self, box: Path) -> None:
        """Make the folder `box` unless it exists: built aside with its `tmp/`, `new/`
        and `SENT` and renamed into place, so whoever sees it sees it whole."""
        if box.is_dir():
            return
        box.parent.mkdir(parents=True, exist_ok=True)
        aside = Path(tempfile.mkdtemp(prefix=".new-", dir=box.parent))
        for sub in ("tmp", "new", SENT):
            (aside / sub).mkdir()
        try:
            os.rename(aside, box)
        except OSError:
            if not box.is_dir():
                raise
            shutil.rmtree(aside, ignore_errors=True)  # another process made it first

    def deliver(self, to: str, raw: bytes, name: str) -> Path:
        box = self.folder(to)
        tmp, final = box / "tmp" / name, box / "new" / name
        try:
            tmp.write_bytes(raw)
        except FileNotFoundError:  # a new folder, or one made elsewhere without tmp/
            self.make(box)
            for sub in ("tmp", "new"):
                (box / sub).mkdir(exist_ok=True)
            tmp.write_bytes(raw)
        os.replace(tmp, final)
        return final

    def new(self, address: str) -> list[Path]:
        box = self.folder(address) / "new"
        if not box.is_dir():
            return []
        return sorted(box.glob("*.eml"))


SENT = ".sent"
"""A mail folder's record of the Message-IDs `DirSender` delivered to it: an empty
file named for each (`_digest`), written just before the mail."""


def _digest(msg_id: str) -> str:
    return hashlib.sha256(msg_id.encode()).hexdigest()[:16]


def _eml_name(msg_id: str) -> str:
    """`<microseconds>-<digest of Message-ID>.eml`: sorts by arrival, names the mail."""
    return f"{time.time_ns() // 1000:017d}-{_digest(msg_id)}.eml"


class DirInbox:
    """The moderator's inbox as a folder (see `MailDirs`)."""

    def __init__(self, dirs: MailDirs, address: str, max_bytes: int = 1024 * 1024,
                 poll: float = 0.2) -> None:
        self.dirs = dirs
        self.address = address
        self.max_bytes = max_bytes
        self.poll = poll

    def __enter__(self) -> DirInbox:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def fetch(self, limit: int = 100) -> list[Fetched]:
        out = []
        for path in self.dirs.new(self.address)[:limit]:
            try:
                with path.open("rb") as f:
                    raw = f.read(self.max_bytes + 1)
            except FileNotFoundError:
                continue  # another worker moved it meanwhile
            out.append(Fetched(path.name, raw[:self.max_bytes], len(raw) > self.max_bytes))
        return out

    def _move(self, uid: str, sub: str) -> None:
        box = self.dirs.folder(self.address)
        (box / sub).mkdir(exist_ok=True)
        with contextlib.suppress(FileNotFoundError):  # another worker moved it first
            os.replace(box / "new" / uid, box / sub / uid)

    def done(self, uid: str) -> None:
        self._move(uid, "processed")

    def flush(self) -> None:
        return None  # `done` moved each file at once

    def failed(self, uid: str) -> None:
        self._move(uid, "failed")

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.dirs.new(self.address):
                return
            time.sleep(min(self.poll, max(0.0, end - time.monotonic())))


def message_bytes(msg: EmailMessage) -> bytes:
    """The bytes a message is sent as: an outbox mail's as they were built
    (`pbem.mime.Outgoing`), any other message flattened for SMTP."""
    if isinstance(msg, Outgoing) and msg.raw:
        return msg.raw
    return msg.as_bytes(policy=email.policy.SMTP)


def recipients(msg: EmailMessage) -> list[str]:
    if isinstance(msg, Outgoing) and msg.to:
        return list(msg.to)
    values = [str(v) for h in ("To", "Cc", "Bcc") for v in (msg.get_all(h) or [])]
    return [a for _, a in getaddresses(values) if a]


class DirSender:
    """Sends by writing `.eml` files into each recipient's folder, each Message-ID
    once: a resend (a crash came between the delivery and the row's mark) finds the
    mail delivered and writes nothing.

    Whether it was delivered is known without listing the folder: each delivery's
    Message-ID is noted in the folder's `SENT` first, so no note there means never
    delivered. A note (the crash may have come between it and the mail), or a
    folder made before there were notes (no `SENT`), sends it to the folders'
    listings, as before: a mail of that Message-ID in `new/`, `cur/` or
    `processed/` is the earlier delivery."""

    def __init__(self, dirs: MailDirs) -> None:
        self.dirs = dirs
        self._seq = 0

    def send_batch(self, messages: Sequence[EmailMessage],
                   done: Callable[[int, Exception | None], None]) -> None:
        for i, msg in enumerate(messages):
            try:
                raw = message_bytes(msg)
                mid = msg.message_id if isinstance(msg, Outgoing) and msg.message_id \
                    else str(msg["Message-ID"])
                for to in recipients(msg):
                    self._deliver_once(to, raw, mid)
            except OSError as e:
                done(i, TransportError(f"cannot write mail: {e}"))
                continue
            done(i, None)

    def _deliver_once(self, to: str, raw: bytes, mid: str) -> None:
        box, digest = self.dirs.folder(to), _digest(mid)
        try:
            self._note(box, digest)
        except FileExistsError:
            if self._delivered(box, digest):  # noted: perhaps before a crash
                return
        except FileNotFoundError:  # no such folder yet, or one without `SENT`
            if box.is_dir():
                if self._delivered(box, digest):
                    return
            else:
                self.dirs.make(box)
                self._note(box, digest)
        self.dirs.deliver(to, raw, _eml_name(mid))

    @staticmethod
    def _note(box: Path, digest: str) -> None:
        """Note `digest` in the folder's `SENT`; FileExistsError if it is there."""
        os.close(os.open(box / SENT / digest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))

    @staticmethod
    def _delivered(box: Path, digest: str) -> bool:
        """Whether the folder holds a mail of the Message-ID with this digest."""
        return any(next((box / sub).glob(f"*-{digest}.eml"), None)
                   for sub in ("new", "cur", "processed"))


# --------------------------------------------------------------------------- IMAP


_NEW_MAIL = re.compile(rb"\* \d+ EXISTS")  # an untagged IDLE response: the folder grew
_UID = re.compile(rb"\bUID (\d+)")
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d+)")

FETCH_BYTES = 8 * 1024 * 1024
"""Bytes of mail one FETCH reads at most (a single larger mail is read alone)."""

MOVE_BATCH = 25
"""Processed mails moved in one MOVE at most: other workers, which list the folder
too, see a committed mail there for at most this many mails' time."""


def _uid_set(nums: Sequence[str]) -> str:
    """UIDs as an IMAP sequence set, runs written as ranges: `3,5:9,12`."""
    ints = sorted({int(n) for n in nums})
    runs: list[list[int]] = []
    for n in ints:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ",".join(str(a) if a == b else f"{a}:{b}" for a, b in runs)


def _groups(items: Sequence[str], sizes: Sequence[int], budget: int) -> list[list[str]]:
    """`items` in order, cut into groups whose sizes add up to at most `budget` (a
    larger item is a group of its own)."""
    groups: list[list[str]] = []
    total = 0
    for item, size in zip(items, sizes, strict=True):
        if not groups or total + size > budget:
            groups.append([])
            total = 0
        groups[-1].append(item)
        total += size
    return groups


_TRYCREATE = "[TRYCREATE]"  # a COPY or MOVE to a folder that does not exist (RFC 3501)


def _make_folder(mb: Any, folder: str) -> None:
    """Create the IMAP folder `folder` unless it exists (another worker may make it
    at the same moment: its CREATE refused, the folder is there)."""
    if not mb.folder.exists(folder):
        try:
            mb.folder.create(folder)
        except Exception:
            if not mb.folder.exists(folder):  # else: another worker made it
                raise


class ImapInbox:
    """The moderator's IMAP folder (imap-tools). UIDs are `folder/uidvalidity/uid`."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.mb: Any = None
        self.uidvalidity = "0"
        self.idling = False  # in IDLE now (the server answers nothing but DONE)
        self.pending: list[str] = []  # UIDs marked done, not yet moved (`flush`)

    def __enter__(self) -> ImapInbox:
        from imap_tools import MailBox, MailBoxStartTls, MailBoxUnencrypted

        cfg = self.cfg
        try:
            if cfg.imap_tls == "ssl":
                mb: Any = MailBox(cfg.imap_host, cfg.imap_port, ssl_context=ssl_context(cfg))
            elif cfg.imap_tls == "starttls":
                mb = MailBoxStartTls(cfg.imap_host, cfg.imap_port, ssl_context=ssl_context(cfg))
            else:
                mb = MailBoxUnencrypted(cfg.imap_host, cfg.imap_port)
            mb.login(cfg.imap_user, cfg.imap_password, initial_folder=cfg.imap_folder)
            for folder in (cfg.processed_folder, f"{cfg.processed_folder}-failed"):
                _make_folder(mb, folder)
            status = mb.folder.status(cfg.imap_folder, ["UIDVALIDITY"])
            self.uidvalidity = str(status.get("UIDVALIDITY", "0"))
        except Exception as e:  # imap-tools raises many kinds; none may reach a player
            raise TransportError(f"IMAP {cfg.imap_host}:{cfg.imap_port}: {e}") from e
        self.mb = mb
        return self

    def __exit__(self, *exc: object) -> None:
        if self.mb is not None:
            if self.pending and not self.idling:
                with contextlib.suppress(Exception):  # else: duplicates on the next pass
                    self.flush()
            try:
                if self.idling:
                    # A stop signal cut IDLE short: the server waits for DONE and would
                    # never answer a LOGOUT, so the connection is just closed.
                    self.mb.client.shutdown()
                else:
                    self.mb.logout()
            except Exception:  # the connection may be gone already
                pass
            self.mb = None
            self.idling = False

    def _uid(self, uid: str) -> str:
        return f"{self.cfg.imap_folder}/{self.uidvalidity}/{uid}"

    def fetch(self, limit: int = 100) -> list[Fetched]:
        """The first `limit` mails of the folder in a few round trips, whatever their
        number: one FETCH lists the UIDs and sizes, then one FETCH reads the bodies
        of a batch of UIDs (`FETCH_BYTES` at most at once). Mails marked `done`
        are moved first, so they are not listed again."""
        self.flush()
        try:
            sizes = self._sizes()
            uids = sorted(sizes, key=int)[:limit]
            cap = self.cfg.max_mail_bytes
            out = []
            for group in _groups(uids, [min(sizes[u], cap) for u in uids], FETCH_BYTES):
                bodies = self._bodies(group, cap)
                out += [Fetched(self._uid(u), bodies[u][1], bodies[u][0] > cap)
                        for u in group if u in bodies]  # else: another worker moved it
            return out
        except TransportError:
            raise
        except Exception as e:
            raise TransportError(f"IMAP fetch: {e}") from e

    def _sizes(self) -> dict[str, int]:
        """The UID and size of every mail in the folder."""
        typ, data = self.mb.client.uid("FETCH", "1:*", "(UID RFC822.SIZE)")
        if typ != "OK":
            if not self.mb.uids("ALL"):
                return {}  # a server that refuses `1:*` in an empty folder
            raise TransportError(f"IMAP FETCH sizes: {typ} {data!r:.200}")
        out = {}
        for item in data:
            line = item[0] if isinstance(item, tuple) else item
            if isinstance(line, bytes) and (m := _UID.search(line)) \
                    and (n := _SIZE.search(line)):
                out[m.group(1).decode()] = int(n.group(1))
        return out

    def _bodies(self, uids: Sequence[str], cap: int) -> dict[str, tuple[int, bytes]]:
        """UID -> (size, the first `cap` bytes) of the mails still in the folder."""
        typ, data = self.mb.client.uid(
            "FETCH", _uid_set(uids), f"(UID RFC822.SIZE BODY.PEEK[]<0.{cap}>)")
        if typ != "OK":
            raise TransportError(f"IMAP FETCH {_uid_set(uids)}: {typ} {data!r:.200}")
        out = {}
        for i, item in enumerate(data):
            if not isinstance(item, tuple):
                continue
            # the UID may come after the body: then in the next, closing, item
            tail = data[i + 1] if i + 1 < len(data) and isinstance(data[i + 1], bytes) \
                else b""
            m = _UID.search(item[0]) or _UID.search(tail)
            n = _SIZE.search(item[0]) or _SIZE.search(tail)
            if m:
                out[m.group(1).decode()] = (int(n.group(1)) if n else len(item[1]), item[1])
        return out

    def done(self, uid: str) -> None:
        """Mark a processed (committed) mail to be moved to the processed folder; the
        moves are made together by `flush`, at the latest every `MOVE_BATCH` mails (a
        crash before that leaves the mail in the folder, a duplicate by its
        Message-ID on the next pass)."""
        *_, validity, num = uid.split("/")
        if validity == self.uidvalidity:  # else the folder was rebuilt: the
            self.pending.append(num)      # Message-ID check covers this mail
        if len(self.pending) >= MOVE_BATCH:
            self.flush()

    def flush(self) -> None:
        """Move every mail marked `done` to the processed folder, in one MOVE."""
        nums, self.pending = self.pending, []
        self._move(nums, self.cfg.processed_folder)

    def failed(self, uid: str) -> None:
        *_, validity, num = uid.split("/")
        if validity == self.uidvalidity:
            self._move([num], f"{self.cfg.processed_folder}-failed")

    def _move(self, nums: list[str], folder: str) -> None:
        """Move the mails `nums` (UIDs); those other workers moved first are skipped.
        A folder the server says is missing (NO [TRYCREATE]: deleted since this
        connection made it, or not yet seen by this session) is made, and the move
        tried once more."""
        made = False
        while nums:
            try:
                self.mb.move(_uid_set(nums), folder)
                return
            except Exception as e:
                if not made and _TRYCREATE in str(e):
                    made = True
                    log.warning("IMAP move: folder %r missing (%s); making it", folder,
                                str(e)[:200])
                    try:
                        _make_folder(self.mb, folder)
                    except Exception as e2:
                        raise TransportError(f"IMAP create {folder!r}: {e2}") from e2
                    continue
                # Dovecot refuses a set with a mail another worker moved meanwhile
                # (NO [EXPUNGEISSUED]): move again what is still here. Each retry has
                # fewer mails; a refusal with every mail still here is a real one.
                left = self._present(nums)
                if left is None or len(left) == len(nums):
                    raise TransportError(f"IMAP move {_uid_set(nums)}: {e}") from e
                nums = left

    def _present(self, nums: Sequence[str]) -> list[str] | None:
        """Which of the UIDs `nums` are still in the folder (None if unsure)."""
        try:
            self.mb.client.noop()  # take in the expunges of other sessions
            found = set(self.mb.uids(f"UID {_uid_set(nums)}"))
        except Exception:
            return None
        return [n for n in nums if n in found]

    def wait(self, seconds: float) -> None:
        """Until new mail arrives (with IDLE), or `seconds` pass. Other news of the
        folder (another worker moving a mail away: EXPUNGE) does not end the wait,
        so several workers on one folder do not wake each other for nothing. The
        server's lines are read whole (`pbem.imap_idle`); a connection lost or
        closed raises `TransportError` (the loop connects again)."""
        if not self.cfg.idle:
            time.sleep(seconds)
            return
        end = time.monotonic() + max(1, int(seconds))
        try:
            self.idling = True
            self.mb.idle.start()
            while (line := next_line(self.mb.client, end - time.monotonic())) is not None:
                if _NEW_MAIL.match(line):
                    break
                if line.startswith(b"* BYE"):
                    raise TransportError(f"the server hung up: {line!r:.200}")
            self.mb.idle.stop()  # DONE, and the server's tagged OK
            self.idling = False
        except Exception as e:
            raise TransportError(f"IMAP IDLE: {e}") from e


# --------------------------------------------------------------------------- SMTP


MAILS_PER_CONNECTION = 100
"""Mails one SMTP connection carries before it is closed and opened again (servers
limit this; Postfix does not by default)."""


class SmtpSender:
    """aiosmtplib; STARTTLS unless `smtp_tls` says otherwise, verified against
    `ca_file` (or the system CAs).

    A batch is sent over up to `connections` SMTP connections at once (`smtp_connections`:
    one mail takes four round trips, MAIL, RCPT, DATA and the message, and aiosmtplib
    does not pipeline them, so a worker far from its server spends most of a batch
    waiting; several connections overlap that waiting). The batch's mails to one
    recipient go over one connection, in the batch's order (a recipient gets them
    in the order they were queued, as over a single connection); each connection
    takes the next recipient's mails as soon as it is free, so `done` is called in
    the order the server answers, not in the batch's. A connection that fails
    charges its recipient's mails not yet sent a temporary failure and stops; the
    others send the rest, and when none is left the mails still waiting are charged
    the failure too.

    Inside `session()` the connections carry every batch (each up to
    `MAILS_PER_CONNECTION` mails; `pbem.outbound.send_due` opens a session per pass),
    so a batch costs no TLS handshake of its own; outside, each batch has its own."""

    def __init__(self, cfg: Config, timeout: float = 30,
                 per_connection: int = MAILS_PER_CONNECTION,
                 connections: int | None = None) -> None:
        self.cfg = cfg
        self.timeout = timeout
        self.per_connection = per_connection
        self.lanes = max(1, cfg.smtp_connections if connections is None else connections)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._open: list[_Connection] = []
        self.connections = 0  # opened so far (for tests and benchmarks)

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """Keep the connections open for every batch sent inside the block."""
        if self._loop is not None:
            yield  # in a session already
            return
        self._loop = asyncio.new_event_loop()
        try:
            yield
        finally:
            try:
                self._loop.run_until_complete(self._hang_up_all())
            finally:
                self._open = []
                self._loop.close()
                self._loop = None

    def send_batch(self, messages: Sequence[EmailMessage],
                   done: Callable[[int, Exception | None], None]) -> None:
        if not messages:
            return
        if self._loop is None:
            with self.session():
                self.send_batch(messages, done)
            return
        self._loop.run_until_complete(self._send(messages, done))

    async def _connect(self, conn: _Connection) -> aiosmtplib.SMTP:
        """`conn`'s open connection; a new one when it has none or it has carried its
        share of mails."""
        if conn.smtp is not None and conn.carried >= self.per_connection:
            await self._hang_up(conn)
        if conn.smtp is None:
            cfg = self.cfg
            smtp = aiosmtplib.SMTP(
                hostname=cfg.smtp_host, port=cfg.smtp_port, timeout=self.timeout,
                use_tls=cfg.smtp_tls == "ssl", start_tls=cfg.smtp_tls == "starttls",
                tls_context=ssl_context(cfg) if cfg.smtp_tls != "none" else None)
            await smtp.connect()
            self.connections += 1
            if cfg.smtp_user:
                try:
                    await smtp.login(cfg.smtp_user, cfg.smtp_password)
                except BaseException:
                    smtp.close()
                    raise
            conn.smtp, conn.carried = smtp, 0
        return conn.smtp

    async def _hang_up(self, conn: _Connection) -> None:
        smtp, conn.smtp = conn.smtp, None
        if smtp is None:
            return
        try:
            await smtp.quit()
        except (aiosmtplib.SMTPException, OSError):
            smtp.close()

    async def _hang_up_all(self) -> None:
        await asyncio.gather(*(self._hang_up(c) for c in self._open))

    async def _still_there(self, conn: _Connection) -> None:
        """Drop `conn`'s connection if it was idle a while and the server closed it
        meanwhile (a NOOP; not between batches that follow each other at once)."""
        if conn.smtp is None or time.monotonic() - conn.used < IDLE_CHECK_SECONDS:
            return
        try:
            await conn.smtp.noop()
        except (aiosmtplib.SMTPException, OSError):
            conn.smtp.close()
            conn.smtp = None

    async def _send(self, messages: Sequence[EmailMessage],
                    done: Callable[[int, Exception | None], None]) -> None:
        by_recipient: dict[tuple[str, ...], list[tuple[int, EmailMessage]]] = {}
        for i, msg in enumerate(messages):
            key = tuple(sorted(a.lower() for a in recipients(msg)))
            by_recipient.setdefault(key, []).append((i, msg))
        waiting = collections.deque(by_recipient.values())
        lanes = min(self.lanes, len(waiting))
        while len(self._open) < lanes:
            self._open.append(_Connection())
        lost: list[TransportError] = []
        ended = await asyncio.gather(
            *(self._lane(conn, waiting, done, lost) for conn in self._open[:lanes]),
            return_exceptions=True)
        for i, _msg in (m for group in waiting for m in group):  # every connection failed
            done(i, lost[-1])
        for result in ended:  # a bug in a lane: raised once every lane has finished
            if isinstance(result, BaseException):
                raise result

    async def _lane(self, conn: _Connection,
                    waiting: collections.deque[list[tuple[int, EmailMessage]]],
                    done: Callable[[int, Exception | None], None],
                    lost: list[TransportError]) -> None:
        """Send the next waiting recipient's mails over `conn` until none is left or
        the connection fails (that recipient's mails not yet sent are charged; the
        other connections go on)."""
        await self._still_there(conn)
        while waiting:
            group = waiting.popleft()
            for k, (i, msg) in enumerate(group):
                error = await self._send_one(conn, msg)
                if isinstance(error, _Lost):
                    lost.append(error.error)
                    for j, _msg in group[k:]:
                        done(j, error.error)
                    return
                if error is None:
                    conn.carried += 1
                done(i, error)

    async def _send_one(self, conn: _Connection, msg: EmailMessage
                        ) -> TransportError | _Lost | None:
        """Send `msg` over `conn`: None, the mail's own failure, or `_Lost` when the
        connection could not be opened or was lost."""
        cfg = self.cfg
        try:
            smtp = await self._connect(conn)
        except (aiosmtplib.SMTPException, OSError) as e:
            return _Lost(TransportError(f"SMTP {cfg.smtp_host}:{cfg.smtp_port}: {e}"))
        try:
            if isinstance(msg, Outgoing) and msg.raw:
                await smtp.sendmail(base_address(cfg.moderator_address), recipients(msg),
                                    msg.raw)
            else:
                await smtp.send_message(msg, sender=base_address(cfg.moderator_address))
        except aiosmtplib.SMTPRecipientsRefused as e:
            codes = [r.code for r in e.recipients]
            cls = PermanentFailure if codes and all(500 <= c < 600 for c in codes) \
                else TransportError
            return cls(f"recipient refused: {e}")
        except (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPConnectError,
                OSError) as e:
            smtp.close()
            conn.smtp = None
            return _Lost(TransportError(f"SMTP connection lost: {e}"))
        except aiosmtplib.SMTPResponseException as e:
            cls = PermanentFailure if 500 <= e.code < 600 else TransportError
            return cls(f"SMTP {e.code}: {e.message}")
        except aiosmtplib.SMTPException as e:
            return TransportError(f"SMTP: {e}")
        finally:
            conn.used = time.monotonic()
        return None


@dataclass(frozen=True)
class _Lost:
    """A connection that could not be opened or was lost while sending."""

    error: TransportError


IDLE_CHECK_SECONDS = 5.0
"""A connection idle longer than this is checked with a NOOP before a batch (the
server may have closed it); batches that follow each other at once are not."""


@dataclass
class _Connection:
    """One of a sender's SMTP connections: open or not, the mails it carried, and
    when it was last used (`time.monotonic`)."""

    smtp: aiosmtplib.SMTP | None = None
    carried: int = 0
    used: float = 0.0


def parse_raw(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def iter_eml(folder: Path) -> Iterator[tuple[Path, EmailMessage]]:
    for p in sorted(folder.glob("*.eml")):
        yield p, parse_raw(p.read_bytes())
