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
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.exc import DBAPIError

from .config import Config
from .deadlines import DeadlineReport, check_deadlines
from .errors import PbemError, StoreError, TransportError
from .moderator import MailCrashed, Moderator, Outcome
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
                  limit: int = 100, stop: threading.Event | None = None,
                  others: set[str] | None = None) -> int:
    """Process the waiting mails of an open inbox; returns how many were fetched.

    Each transaction claims the next mail that no other worker holds or has stored,
    in one statement for all the mails fetched (`Moderator.process_next`); when none
    is left, those stored are moved out as duplicates and the rest are left to the
    workers that hold them.

    `others` (a worker that serves, across its passes): the Message-IDs of the mails
    found stored by another worker last time and left to it, since the worker that
    stored a mail moves it itself once it is through its batch (moving it here too
    would only race that move). A mail found stored again on the next pass (its
    worker stopped before it moved it) is moved then, as a duplicate. The set is
    updated to this pass's. Without it, every stored mail is moved at once.

    With `stop` set, the mail in hand is finished and the rest are left in the inbox
    for the next pass (0 is returned, so callers do not fetch again). The mails
    committed are moved out of the inbox at the end, together (`Inbox.flush`); a
    crash before that leaves them to the next pass, as duplicates by Message-ID."""
    fetched = inbox.fetch(limit)
    seen = set(others or ())
    left: set[str] = set()  # found stored by another worker, left to it
    try:
        waiting = [mod.waiting(f.uid, f.raw, truncated=f.truncated) for f in fetched]
        while waiting:
            if stop is not None and stop.is_set():
                return 0
            try:
                claimed, stored = mod.process_next(waiting, clock())
            except MailCrashed as e:  # a bug: never let one mail stop the loop
                log.exception("mail %s crashed the moderator; moved aside", e.mail.uid)
                report.errors.append(f"{e.mail.uid}: {type(e.__cause__).__name__}")
                inbox.failed(e.mail.uid)
                waiting.remove(e.mail)
                continue
            except (DBAPIError, StoreError) as e:
                # The database is the problem, not the mail: leave it for the next pass.
                raise StoreError(f"database: {e}") from e
            for mail in stored:
                if others is not None and mail.message_id not in seen:
                    left.add(mail.message_id)
                    continue
                report.outcomes.append(Outcome("duplicate", note=mail.message_id))
                inbox.done(mail.uid)
            if claimed is None:
                break  # the rest another worker has; it moves them once committed
            mail, outcome = claimed
            waiting.remove(mail)
            if outcome.status == "busy":
                continue  # another worker has it; it moves the mail once committed
            report.outcomes.append(outcome)
            inbox.done(mail.uid)
    finally:
        inbox.flush()  # the committed mails' moves, together
        if others is not None:
            others.clear()
            others.update(left)
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


class _Interrupted(BaseException):
    """Raised by the stop signal handler to end a wait for new mail early (a
    BaseException, so that no `except Exception` in a transport swallows it)."""


class Stopper:
    """SIGTERM and SIGINT set `event`; while the loop only waits for mail, the signal
    also ends the wait at once. A mail in hand is always finished first."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.waiting = False

    def __call__(self, signum: int, _frame: object) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt  # a second signal: stop now
        log.info("signal %d: stopping after the mail in hand", signum)
        self.event.set()
        if self.waiting:
            raise _Interrupted

    def install(self) -> None:
        """Handle SIGTERM and SIGINT (main thread only)."""
        signal.signal(signal.SIGTERM, self)
        signal.signal(signal.SIGINT, self)

    def wait(self, inbox: Inbox, seconds: float) -> None:
        """`inbox.wait(seconds)`, ended early by a stop signal."""
        if self.event.is_set():
            return
        self.waiting = True
        try:
            inbox.wait(seconds)
        except _Interrupted:
            pass
        finally:
            self.waiting = False


def serve(mod: Moderator, inbox_factory: Callable[[], Inbox], sender: Sender,
          stop: threading.Event | Stopper | None = None, clock: Clock = utcnow) -> None:
    """Run until `stop` is set: process mail as it arrives, check deadlines and send
    the outbox at least every `poll_seconds`; server outages are retried.

    A `Stopper` (installed as the handler of SIGTERM and SIGINT by `pbem serve`) ends
    the loop cleanly: the mail in hand is finished and committed, and the wait for new
    mail is cut short."""
    stopper = stop if isinstance(stop, Stopper) else Stopper()
    if isinstance(stop, threading.Event):
        stopper.event = stop
    halt = stopper.event
    cfg = mod.cfg
    pause = 1.0
    others: set[str] = set()  # stored by other workers, left to them (`process_inbox`)
    while not halt.is_set():
        try:
            with inbox_factory() as inbox:
                pause = 1.0
                while not halt.is_set():
                    report = PassReport()
                    while process_inbox(mod, inbox, clock, report, stop=halt,
                                        others=others) == 100:
                        pass
                    if halt.is_set():
                        break
                    report.deadlines = check_deadlines(mod, clock())
                    report.sent = send_due(mod.store, sender, cfg, clock())
                    if report.outcomes or report.sent.sent:
                        log.info("%s", report.summary())
                    stopper.wait(inbox, cfg.poll_seconds)
        except (PbemError, DBAPIError) as e:
            log.warning("%s; retrying in %.0f s", e, pause)
            stopper.waiting = True
            try:
                if not halt.is_set():
                    halt.wait(pause)
            except _Interrupted:
                pass
            finally:
                stopper.waiting = False
            pause = min(pause * 2, 300)
        except _Interrupted:
            pass
        except KeyboardInterrupt:
            if halt.is_set():
                raise  # a second stop signal
            return


def warm(mod: Moderator, clock: Clock = utcnow) -> None:
    """Warm a worker up before it serves (`pbem.warming`); a failure is logged and the
    worker serves unwarmed."""
    from .warming import warm_up

    t0 = time.perf_counter()
    try:
        games = warm_up(mod, clock())
    except Exception:  # the warm-up only saves time: never let it stop a worker
        log.warning("the warm-up failed; serving without it", exc_info=True)
        return
    log.info("warmed up (%s) in %.2f s", ", ".join(games), time.perf_counter() - t0)


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
