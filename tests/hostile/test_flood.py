"""Flood limits: commands per mail, and accepted mails per seat and hour."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.config import Config, load_config
from pbem.moderator import Moderator
from pbem.store import InboundMail, Store
from tests.pbem.fakes import DOMAIN, NOW, PLAYERS, FakeMailbox, FakeSmtp
from tests.pbem.helpers import keep_line, run, send, state_of

ANNA, BAS, CHRIS = "anna@example.org", "bas@example.org", "chris@example.org"
LIMIT = 4


@pytest.fixture
def mod() -> Moderator:
    store = Store("sqlite://")
    store.create_all()
    return Moderator(store, Config(moderator_address=f"moderator@{DOMAIN}",
                                   seat_mails_per_hour=LIMIT, max_commands=20))


@pytest.fixture
def game(mod: Moderator) -> str:
    return mod.new_game(PLAYERS, NOW, game_id="pof-17", seed="test-seed")


def _auction(mod: Moderator, game: str, mailbox: FakeMailbox, smtp: FakeSmtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    for seat, addr in enumerate((ANNA, BAS, CHRIS)):
        send(mailbox, smtp, addr, keep_line(state, seat))
    run(mod, mailbox, smtp)
    smtp.sent.clear()


def test_a_mail_of_500_lines_is_refused_whole(mod, game, mailbox, smtp) -> None:
    _auction(mod, game, mailbox, smtp)
    before = state_of(mod, game)
    send(mailbox, smtp, ANNA, "\n".join(["undo", "refuse"] * 250))
    outcome = run(mod, mailbox, smtp).outcomes[0]
    assert outcome.status == "rejected"
    assert outcome.note.startswith("your mail holds 500 command lines; the moderator takes "
                                   "at most 20 in one mail. Nothing was applied")
    assert state_of(mod, game) == before
    assert [str(m["To"]) for m in smtp.sent] == [ANNA]
    text = smtp.text(smtp.sent[0])
    assert "Line 21:\n  undo" in text


def test_twenty_commands_are_still_read(mod, game, mailbox, smtp) -> None:
    _auction(mod, game, mailbox, smtp)
    send(mailbox, smtp, ANNA, "\n".join(["sell 0"] * 21))
    assert "at most 20" in run(mod, mailbox, smtp).outcomes[0].note
    send(mailbox, smtp, ANNA, "\n".join(["open jester"] + ["bad"] * 19))
    # 20 lines: read, and refused for what they say, not for their number
    assert "at most 20" not in run(mod, mailbox, smtp).outcomes[0].note


def test_an_undo_refuse_loop_mails_the_table_at_most_the_limit(mod, game, mailbox,
                                                               smtp) -> None:
    _auction(mod, game, mailbox, smtp)
    send(mailbox, smtp, ANNA, "open jester")
    run(mod, mailbox, smtp)  # anna's keep and this: 2 mails played this hour
    smtp.sent.clear()
    left = LIMIT - 2
    statuses = []
    for i in range(10):
        send(mailbox, smtp, ANNA, "undo" if i % 2 == 0 else "refuse")
        statuses.append(run(mod, mailbox, smtp, NOW + timedelta(minutes=i + 1))
                        .outcomes[0].status)
    assert statuses == ["accepted"] * left + ["rejected"] * (10 - left)
    assert len(smtp.to(BAS)) == left and len(smtp.to(CHRIS)) == left
    refusals = [m for m in smtp.to(ANNA) if "did not act" in smtp.text(m)]
    assert len(refusals) == 1  # told once; later mails in the hour get no reply
    assert f"has had {LIMIT} mails played in the last hour" in smtp.text(refusals[0])
    with mod.store.read() as s:
        notes = [m.note for m in s.exec(InboundMail.__table__.select()
                                        .where(InboundMail.status == "rejected"))]
    assert len(notes) == 10 - left and all(n.startswith("flood: ") for n in notes)
    # an hour after the keep and the open, the seat may play again
    send(mailbox, smtp, ANNA, "refuse" if statuses.count("accepted") % 2 else "undo")
    assert run(mod, mailbox, smtp, NOW + timedelta(minutes=61)).outcomes[0].status == \
        "accepted"


def test_other_seats_are_not_limited_by_one_flooder(mod, game, mailbox, smtp) -> None:
    _auction(mod, game, mailbox, smtp)
    send(mailbox, smtp, ANNA, "open jester")
    run(mod, mailbox, smtp)
    for i in range(2 * LIMIT):
        send(mailbox, smtp, ANNA, "undo" if i % 2 == 0 else "refuse")
        run(mod, mailbox, smtp)
    send(mailbox, smtp, BAS, "pass")
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"


def test_the_limits_are_settings() -> None:
    cfg = load_config(env={"PBEM_SEAT_MAILS_PER_HOUR": "5", "PBEM_MAX_COMMANDS": "7"})
    assert (cfg.seat_mails_per_hour, cfg.max_commands) == (5, 7)
    assert (Config().seat_mails_per_hour, Config().max_commands) == (30, 20)
