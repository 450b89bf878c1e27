"""Mail in batches on the real servers: Dovecot hands out many mails in one FETCH and
moves them in one MOVE, also when another worker moved some of them first; Postfix
takes a whole outbox pass over one SMTP connection, or over several at once."""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest
from imap_tools import MailBoxStartTls
from sqlmodel import select

from pbem.outbound import send_due
from pbem.store import OutMail, utcnow
from pbem.transport import ImapInbox, SmtpSender

from .conftest import MailStack
from .test_moderator_mail import (
    ImapPost,
    clear_moderator,
    fresh_store,
    moderator_config,
    new_game,
)
from .test_moderator_mail import post as post  # the fixture

pytestmark = pytest.mark.integration


def processed_ids(stack: MailStack, folder: str) -> Counter[str]:
    """The Message-IDs in the moderator's processed folder (emptied afterwards); none
    before a worker made the folder (on a fresh server no test has connected one)."""
    acc = stack.moderator
    with MailBoxStartTls(stack.imap_host, stack.imap_port,
                         ssl_context=stack.ssl_context()).login(acc.address, acc.password) as mb:
        if not mb.folder.exists(folder):
            return Counter()
        mb.folder.set(folder)
        got = Counter(str(m.headers["message-id"][0]).strip()
                      for m in mb.fetch(headers_only=True, mark_seen=False, bulk=True))
        if uids := mb.uids():
            mb.delete(uids)
    return got


def assert_each_received_once(stack: MailStack, post: ImapPost, total: int) -> None:
    """Wait (30 s at most) until the first four players have `total` mails between
    them, then check that each arrived once."""
    end = time.monotonic() + 30
    while sum(post.received.values()) < total:
        assert time.monotonic() < end, post.received
        for a in stack.players[:4]:
            post.receive(a.address)
        time.sleep(0.05)
    assert set(post.received.values()) == {1}


def test_two_workers_move_overlapping_batches_each_mail_once(
        mailstack: MailStack, post: ImapPost) -> None:
    cfg = moderator_config(mailstack, "sqlite://")
    processed_ids(mailstack, cfg.processed_folder)
    for i in range(25):
        msg = EmailMessage()
        msg["From"], msg["To"] = mailstack.players[0].address, cfg.moderator_address
        msg["Subject"], msg["Message-ID"] = f"batch {i}", f"<batch-{i}@test>"
        msg.set_content(f"mail {i}\n")
        post.send(msg)
    with ImapInbox(cfg) as a, ImapInbox(cfg) as b:
        end = time.monotonic() + 30
        while len(fa := a.fetch()) < 25:
            assert time.monotonic() < end, f"{len(fa)} of 25 mails arrived"
            time.sleep(0.05)
        fb = b.fetch()
        assert [f.uid for f in fb] == [f.uid for f in fa]
        assert sorted(f.raw.split(b"Message-ID: ")[1].split(b"\r\n")[0] for f in fa) \
            == sorted(f"<batch-{i}@test>".encode() for i in range(25))
        for f in fa[:15]:
            a.done(f.uid)
        for f in fb:
            b.done(f.uid)
        a.flush()
        b.flush()  # 15 of its 25 are gone already: the other 10 are moved
        assert a.fetch() == [] and b.fetch() == []
    assert processed_ids(mailstack, cfg.processed_folder) \
        == Counter({f"<batch-{i}@test>": 1 for i in range(25)})
    clear_moderator(mailstack)


def test_one_smtp_connection_carries_all_batches_of_a_pass(
        mailstack: MailStack, post: ImapPost, tmp_path: Path) -> None:
    cfg = moderator_config(mailstack, f"sqlite:///{tmp_path / 'db.sqlite'}")
    store = fresh_store(cfg.sqlalchemy_url())
    new_game(mailstack, store, cfg, "g1")
    new_game(mailstack, store, cfg, "g2")
    sender = SmtpSender(cfg, connections=1)
    report = send_due(store, sender, cfg, utcnow(), limit=5)  # 2 x 8 mails: 4 batches
    assert (report.sent, report.retry, report.failed) == (16, 0, 0)
    assert sender.connections == 1
    new_game(mailstack, store, cfg, "g3")
    few = SmtpSender(cfg, per_connection=3, connections=1)
    assert send_due(store, few, cfg, utcnow(), limit=5).sent == 8
    assert few.connections == 3  # a new connection after every 3 mails
    assert_each_received_once(mailstack, post, 24)
    store.dispose()


def test_a_batch_is_sent_over_several_connections_at_once(
        mailstack: MailStack, post: ImapPost, tmp_path: Path) -> None:
    """With `smtp_connections` 3 the mails of a batch go out over three connections,
    each taking the next mail when it is free; every mail arrives once, and the
    connections carry the pass's later batches too."""
    cfg = moderator_config(mailstack, f"sqlite:///{tmp_path / 'db.sqlite'}")
    store = fresh_store(cfg.sqlalchemy_url())
    new_game(mailstack, store, cfg, "g1")
    new_game(mailstack, store, cfg, "g2")
    sender = SmtpSender(cfg, connections=3)
    order: list[int] = []
    sender.send_batch([], lambda i, e: order.append(i))
    assert sender.connections == 0
    report = send_due(store, sender, cfg, utcnow(), limit=5)  # 2 x 8 mails: 4 batches
    assert (report.sent, report.retry, report.failed) == (16, 0, 0)
    assert sender.connections == 3
    assert_each_received_once(mailstack, post, 16)
    store.dispose()


def test_a_server_that_cannot_be_reached_leaves_every_mail_due(
        mailstack: MailStack, tmp_path: Path) -> None:
    """Every connection fails: the mails each had in hand and those still waiting
    are all charged a temporary failure, once each, and stay pending."""
    cfg = moderator_config(mailstack, f"sqlite:///{tmp_path / 'db.sqlite'}")
    store = fresh_store(cfg.sqlalchemy_url())
    new_game(mailstack, store, cfg, "g1")
    closed = dataclasses.replace(cfg, smtp_port=1)
    report = send_due(store, SmtpSender(closed, connections=3), closed, utcnow(), share=0)
    assert (report.sent, report.retry, report.failed) == (0, 8, 0)
    with store.read() as s:
        rows = list(s.exec(select(OutMail)))
    assert {(r.status, r.attempts, r.claimed_by) for r in rows} == {("pending", 1, "")}
    store.dispose()


def test_a_processed_folder_deleted_under_a_worker_is_made_again(
        mailstack: MailStack, post: ImapPost) -> None:
    """The folder a worker made when it connected is gone when it moves its mails
    (deleted by hand; or, on a fresh server, another session's view of it lagged):
    Dovecot refuses the MOVE with NO [TRYCREATE], the worker makes it and moves."""
    cfg = moderator_config(mailstack, "sqlite://")
    msg = EmailMessage()
    msg["From"], msg["To"] = mailstack.players[0].address, cfg.moderator_address
    msg["Subject"], msg["Message-ID"] = "gone", "<folder-gone@test>"
    msg.set_content("pass\n")
    post.send(msg)
    acc = mailstack.moderator
    with ImapInbox(cfg) as box:
        end = time.monotonic() + 30
        while not (fetched := box.fetch()):
            assert time.monotonic() < end, "the mail never arrived"
            time.sleep(0.05)
        with MailBoxStartTls(mailstack.imap_host, mailstack.imap_port,
                             ssl_context=mailstack.ssl_context()).login(
                acc.address, acc.password) as mb:
            mb.folder.delete(cfg.processed_folder)
        box.done(fetched[0].uid)
        box.flush()
        assert box.fetch() == []
    assert processed_ids(mailstack, cfg.processed_folder) == Counter({"<folder-gone@test>": 1})
    clear_moderator(mailstack)
