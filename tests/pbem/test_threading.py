"""One thread per game: every mail of a game to a player has the game's subject and
is chained to the first mail of the game to that player (In-Reply-To, References)."""

from __future__ import annotations

from email.message import EmailMessage

from pbem.outbound import MAX_REFS, chain

from .fakes import NOW, FakeSmtp
from .helpers import keep_line, run, send, state_of

ANNA, BAS, CHRIS = "anna@example.org", "bas@example.org", "chris@example.org"
SUBJECT = "[pof-17] The Princes of Florence"


def _all_to(smtp: FakeSmtp, addr: str) -> list[EmailMessage]:
    return [m for m in smtp.history if str(m["To"]) == addr]


def _reply(mailbox, smtp: FakeSmtp, sender: str, body: str) -> EmailMessage:
    """A reply as a mail client writes it: to the last mail the sender got, its
    References that mail's References and Message-ID."""
    last = _all_to(smtp, sender)[-1]
    refs = " ".join([*str(last["References"] or "").split(), str(last["Message-ID"])])
    return send(mailbox, smtp, sender, body, subject="Re: " + str(last["Subject"]),
                in_reply_to=str(last["Message-ID"]), references=refs)


def _game(mod, game, mailbox, smtp) -> None:
    """Setup, everyone keeps (anna and bas in replies), a refused command, an undo
    asked and agreed, and a moderator's notice."""
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    for addr, seat in ((ANNA, 0), (BAS, 1)):
        _reply(mailbox, smtp, addr, keep_line(state, seat))
        assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    send(mailbox, smtp, CHRIS, keep_line(state, 2))  # a mail that answers none
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    _reply(mailbox, smtp, BAS, "open jester")  # not bas's turn: refused
    assert run(mod, mailbox, smtp).outcomes[0].status == "rejected"
    for addr, body in ((ANNA, "open jester"), (ANNA, "undo"), (BAS, "agree"),
                       (CHRIS, "agree")):
        _reply(mailbox, smtp, addr, body)
        assert run(mod, mailbox, smtp).outcomes[0].status == "accepted", body
    mod.pause(game, NOW, "a holiday")
    run(mod, mailbox, smtp)


def test_every_mail_of_a_game_to_a_player_is_one_thread(mod, game, mailbox, smtp) -> None:
    _game(mod, game, mailbox, smtp)
    for addr in (ANNA, BAS, CHRIS):
        mails = _all_to(smtp, addr)
        assert len(mails) >= 7, [smtp.headline(m) for m in mails]
        assert {str(m["Subject"]) for m in mails} == {SUBJECT}
        root = str(mails[0]["Message-ID"])
        assert mails[0]["In-Reply-To"] is None and mails[0]["References"] is None
        for m in mails[1:]:
            refs = str(m["References"]).split()
            parent = str(m["In-Reply-To"])
            assert refs[0] == root, f"{addr}: {smtp.headline(m)}"
            assert len(refs) == len(set(refs)), f"{addr}: duplicate in {refs}"
            assert refs[-1] == parent and len(refs) <= MAX_REFS


def test_a_mail_answers_the_players_mail_or_else_the_previous_one(mod, game, mailbox,
                                                                 smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    first = smtp.to(ANNA)[-1]
    smtp.sent.clear()
    sent = _reply(mailbox, smtp, ANNA, keep_line(state, 0))
    run(mod, mailbox, smtp)
    (to_anna,) = smtp.to(ANNA)
    assert str(to_anna["In-Reply-To"]) == str(sent["Message-ID"])
    (to_bas,) = smtp.to(BAS)
    bas_before = _all_to(smtp, BAS)[-2]
    assert str(to_bas["In-Reply-To"]) == str(bas_before["Message-ID"])
    refs = str(to_anna["References"]).split()
    assert refs[0] == str(_all_to(smtp, ANNA)[0]["Message-ID"])
    assert refs[-2:] == [str(first["Message-ID"]), str(sent["Message-ID"])]


def test_an_undo_request_names_no_actor_in_its_subject(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    for seat, addr in enumerate((ANNA, BAS, CHRIS)):
        send(mailbox, smtp, addr, keep_line(state, seat))
    run(mod, mailbox, smtp)
    for body in ("open jester", "undo"):
        smtp.sent.clear()
        send(mailbox, smtp, ANNA, body)
        run(mod, mailbox, smtp)
    (ask,) = smtp.to(BAS)
    assert "Reply 'agree' or 'refuse'." in smtp.text(ask)
    assert str(ask["Subject"]) == SUBJECT and "to act" not in str(ask["Subject"])


def test_chain_keeps_each_id_once_and_the_first_always() -> None:
    ids = [f"<m{i}@x.org>" for i in range(15)]
    assert chain([ids[0], ids[1], ids[0], ids[1], "", "not an id", ids[2]]) == ids[:3]
    long = chain(ids)
    assert len(long) == MAX_REFS and long[0] == ids[0] and long[1:] == ids[-MAX_REFS + 1:]


def test_an_answer_to_an_older_mail_lists_only_its_ancestors(mod, game, mailbox, smtp) -> None:
    """A player answers an older mail of the game (a client writes that mail's
    References and its Message-ID): the answer's References are the root, then the
    player's, oldest first; the mail the player did not answer is no ancestor."""
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    older = _all_to(smtp, ANNA)[-1]
    send(mailbox, smtp, BAS, keep_line(state, 1))
    run(mod, mailbox, smtp)  # another mail to anna, which she does not answer
    newer = _all_to(smtp, ANNA)[-1]
    assert newer["Message-ID"] != older["Message-ID"]
    refs = [*str(older["References"] or "").split(), str(older["Message-ID"])]
    sent = send(mailbox, smtp, ANNA, keep_line(state, 0), subject="Re: " + SUBJECT,
                in_reply_to=str(older["Message-ID"]), references=" ".join(refs))
    run(mod, mailbox, smtp)
    answer = _all_to(smtp, ANNA)[-1]
    root = str(_all_to(smtp, ANNA)[0]["Message-ID"])
    assert str(answer["In-Reply-To"]) == str(sent["Message-ID"])
    assert str(answer["References"]).split() == chain([root, *refs, str(sent["Message-ID"])])
    assert str(newer["Message-ID"]) not in str(answer["References"])
