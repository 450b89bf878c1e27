"""The loop: fetch, process, deadlines, send. `poll_once` is one pass (for cron and
tests); `serve` repeats it, waiting with IMAP IDLE (or polling) in between.

Each mail is processed in its own transaction and moved to the processed folder only
after the commit; the outbox is sent last. Killing the process anywhere loses
nothing: the next pass sees an unmoved mail as a duplicate (by Message-ID) and
moves it, and sends what the outbox still holds. Several workers may run on one
PostgreSQL database (`pbem.workers` says who claims what); on SQLite, one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.exc import DBAPIError

from .config import Config
from .deadlines import DeadlineReport, check_deadlines
from .errors import PbemError, StoreError, TransportError
from .moderator import Moderator, Outcome
from .outbound import Sender, SendReport, send_due
from .store import Store, utcnow
from .transport import DirInbox, DirSender, ImapInbox, Inbox, MailDirs, SmtpSender

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


@dataclass
class PassReport:
    outcomes: list[Outcome] = field(default_factory=list)
    deadlines: DeadlineReport = field(default_factory=DeadlineReport)
    sent: SendReport = field(default_factory=SendReport)
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for o in self.outcomes:
            counts[o.status] = counts.get(o.status, 0) + 1
        mails = ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no mail"
        return (f"{mails}; sent {self.sent.sent}, retry {self.sent.retry}, "
                f"failed {self.sent.failed}" + (f"; errors: {len(self.errors)}"
                                                 if self.errors else ""))


def transports(cfg: Config) -> tuple[Callable[[], Inbox], Sender]:
    """The inbox factory and the sender the configuration names."""
    if cfg.transport == "imap":
        return (lambda: ImapInbox(cfg)), SmtpSender(cfg)
    dirs = MailDirs(cfg.mail_dir)
    return (lambda: DirInbox(dirs, cfg.moderator_address, cfg.max_mail_bytes)), DirSender(dirs)


def process_inbox(mod: Moderator, inbox: Inbox, clock: Clock, report: PassReport,
                  limit: int = 100) -> int:
    """Process the waiting mails of an open inbox; returns how many were fetched."""
    fetched = inbox.fetch(limit)
    for f in fetched:
        try:
            outcome = mod.process_mail(f.raw, clock(), uid=f.uid, truncated=f.truncated)
        except (DBAPIError, StoreError) as e:
            # The database is the problem, not the mail: leave it for the next pass.
            raise StoreError(f"database: {e}") from e
        except Exception as e:  # a bug: never let one mail stop the loop
            log.exception("mail %s crashed the moderator; moved aside", f.uid)
            report.errors.append(f"{f.uid}: {type(e).__name__}")
            inbox.failed(f.uid)
            continue
        if outcome.status == "busy":
            continue  # another worker has it; it moves the mail once committed
        report.outcomes.append(outcome)
        inbox.done(f.uid)
    return len(fetched)


def poll_once(mod: Moderator, inbox_factory: Callable[[], Inbox], sender: Sender,
              clock: Clock = utcnow, *, send: bool = True) -> PassReport:
    """One pass: all waiting mail, then deadlines, then the outbox.

    Raises:
        TransportError: the mail server could not be reached (the outbox is still
            sent when only IMAP failed).
    """
    report = PassReport()
    inbox_error: TransportError | None = None
    try:
        with inbox_factory() as inbox:
            while process_inbox(mod, inbox, clock, report) == 100:
                pass
    except TransportError as e:
        inbox_error = e
        report.errors.append(str(e))
    report.deadlines = check_deadlines(mod, clock())
    if send:
        report.sent = send_due(mod.store, sender, mod.cfg, clock())
    if inbox_error is not None:
        raise inbox_error
    return report


def serve(mod: Moderator, inbox_factory: Callable[[], Inbox], sender: Sender,
          stop: threading.Event | None = None, clock: Clock = utcnow) -> None:
    """Run until `stop` is set: process mail as it arrives, check deadlines and send
    the outbox at least every `poll_seconds`; server outages are retried."""
    stop = stop or threading.Event()
    cfg = mod.cfg
    pause = 1.0
    while not stop.is_set():
        try:
            with inbox_factory() as inbox:
                pause = 1.0
                while not stop.is_set():
                    report = PassReport()
                    while process_inbox(mod, inbox, clock, report) == 100:
                        pass
                    report.deadlines = check_deadlines(mod, clock())
                    report.sent = send_due(mod.store, sender, cfg, clock())
                    if report.outcomes or report.sent.sent:
                        log.info("%s", report.summary())
                    inbox.wait(cfg.poll_seconds)
        except (PbemError, DBAPIError) as e:
            log.warning("%s; retrying in %.0f s", e, pause)
            stop.wait(pause)
            pause = min(pause * 2, 300)
        except KeyboardInterrupt:
            return


def open_moderator(cfg: Config) -> Moderator:
    store = Store(cfg.sqlalchemy_url())
    store.create_all()
    return Moderator(store, cfg)


def wait_until(pred: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()
