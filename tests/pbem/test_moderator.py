"""The moderator transaction, end to end over fakes: a mail in, events and mails out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from engine.princes.game import to_act
from engine.princes.legal import legal_commands
from pbem.store import EventRow, Game, InboundMail, OutMail, Seat, event_rows

from .fakes import NOW, PLAYERS, FakeSmtp, mail
from .helpers import keep_line, reply_address, run, send, state_of


def test_new_game_deals_and_mails_everyone(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    assert state.phase == "keep" and all(len(p.dealt) == 4 for p in state.players)
    assert sorted(str(m["To"]) for m in smtp.sent if "private" not in smtp.headline(m)) == \
        ["anna@example.org", "bas@example.org", "chris@example.org"]
    anna = smtp.to("anna@example.org")[0]
    assert str(anna["Subject"]) == "[pof-17] The Princes of Florence"
    assert smtp.headline(anna).startswith("pof-17 — Setup — your turn")
    assert str(anna["Reply-To"]).startswith("moderator+")
    assert anna["Message-ID"] and anna.get_body(("html",)) is not None
    text = smtp.text(anna)
    assert "v4" in text and "keep" in text and "commitment" in text
    assert "Europe/Amsterdam" not in text  # no deadline in this game
    assert "test-seed" not in text  # the seed stays secret


def test_accepted_move_is_echoed_with_threading(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    line = keep_line(state, 0)
    sent = send(mailbox, smtp, "anna@example.org", f"@v{state.version}\n{line.upper()}\n")
    smtp.sent.clear()
    report = run(mod, mailbox, smtp)
    assert [o.status for o in report.outcomes] == ["accepted"]
    assert mailbox.processed and not mailbox.mails
    echo = smtp.to("anna@example.org")[-1]
    assert str(echo["In-Reply-To"]) == str(sent["Message-ID"])
    assert f"Accepted from you:\n  {line}" in smtp.text(echo)
    assert len(smtp.sent) == 3  # a status mail to every seat
    for other in ("bas@example.org", "chris@example.org"):
        assert line not in smtp.text(smtp.to(other)[-1])
        assert "anna kept 3 professions" in smtp.text(smtp.to(other)[-1])


def test_whole_mail_or_nothing(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    send(mailbox, smtp, "anna@example.org", f"{keep_line(state, 0)}\nbid 400\n")
    smtp.sent.clear()
    report = run(mod, mailbox, smtp)
    assert report.outcomes[0].status == "rejected"
    assert state_of(mod, game).version == state.version  # the keep was not stored
    assert [str(m["To"]) for m in smtp.sent] == ["anna@example.org"]
    text = smtp.text(smtp.sent[0])
    assert "Line 2:" in text and "bid 400" in text and "Nothing from this mail" in text


def test_notation_error_names_line_column_and_candidates(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    send(mailbox, smtp, "bas@example.org", "\nkeep poet\nbuild theatre d1 e1 f1\n")
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    text = smtp.text(smtp.sent[0])
    assert "Line 2:" in text  # the first failing line, numbered as in the mail


def test_unknown_word_gets_did_you_mean(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    send(mailbox, smtp, "bas@example.org", "bild theater d1 e1 f1\n")
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    (reply,) = smtp.sent
    text = smtp.text(reply)
    assert "^ column 1" in text and "build" in text
    assert smtp.headline(reply).startswith("pof-17 — not applied")
    assert "Your commands now:" in text and "keep" in text


def test_illegal_move_lists_legal_alternatives(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    send(mailbox, smtp, "chris@example.org", "keep poet doctor jurist\n")
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    text = smtp.text(smtp.sent[0])
    assert "was not dealt to you" in text
    assert keep_line(state, 2) in text


def test_stale_version_is_refused(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    send(mailbox, smtp, "anna@example.org", f"@v{state.version}\n{keep_line(state, 0)}\n")
    run(mod, mailbox, smtp)
    send(mailbox, smtp, "bas@example.org", f"@v{state.version}\n{keep_line(state, 1)}\n")
    smtp.sent.clear()
    report = run(mod, mailbox, smtp)
    assert report.outcomes[0].status == "rejected"
    text = smtp.text(smtp.sent[0])
    assert f"written against v{state.version}" in text and "stale" in smtp.headline(smtp.sent[0])


def test_duplicate_message_id_is_processed_once(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    msg = send(mailbox, smtp, "anna@example.org", keep_line(state, 0))
    mailbox.put(msg)  # fetched twice (e.g. a crash before the move to `processed`)
    report = run(mod, mailbox, smtp)
    assert [o.status for o in report.outcomes] == ["accepted", "duplicate"]
    assert state_of(mod, game).version == state.version + 1
    assert len(mailbox.processed) == 2


def test_a_stranger_plays_nothing_and_is_answered_once(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    mailbox.put(mail("mallory@evil.org", "moderator@example.org",
                     f"game pof-17\n{keep_line(state, 0)}", subject="URGENT claim now"))
    mailbox.put(mail("mallory@evil.org", "moderator@example.org", "hello"))
    smtp.sent.clear()
    report = run(mod, mailbox, smtp)
    assert [o.status for o in report.outcomes] == ["rejected", "rejected"]
    assert state_of(mod, game).version == state.version
    (reply,) = smtp.sent  # the second mail of the day is not answered
    assert str(reply["To"]) == "mallory@evil.org" and "URGENT" not in str(reply["Subject"])
    assert "registered for no seat" in smtp.text(reply) and not reply["Reply-To"]


def test_game_line_no_longer_routes_but_token_line_does(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    with mod.store.read() as s:
        token = s.exec(select(Seat.token).where(Seat.name == "bas")).one()
    mailbox.put(mail("anna@example.org", "moderator@example.org",
                     f"game pof-17\n{keep_line(state, 0)}"))
    mailbox.put(mail("bas@example.org", "moderator@example.org",
                     f"token {token}\n{keep_line(state, 1)}"))
    smtp.sent.clear()
    assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["rejected", "accepted"]
    refusal = smtp.to("anna@example.org")[0]
    assert "names no seat" in smtp.text(refusal) and not refusal["Reply-To"]


def test_unknown_token_address(mod, game, mailbox, smtp) -> None:
    mailbox.put(mail("anna@example.org", "moderator+deadbeef@example.org", "pass"))
    report = run(mod, mailbox, smtp)
    assert report.outcomes[0].status == "rejected"
    assert "names no seat" in smtp.text(smtp.to("anna@example.org")[-1])


def test_bounces_and_auto_replies_are_logged_silently(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    smtp.sent.clear()
    send(mailbox, smtp, "anna@example.org", "I am away", Auto_Submitted="auto-replied")
    send(mailbox, smtp, "anna@example.org", "Out of office", X_Autoreply="yes")
    mailbox.put(mail("MAILER-DAEMON@example.org", "moderator@example.org", "undeliverable"))
    report = run(mod, mailbox, smtp)
    assert [o.status for o in report.outcomes] == ["ignored"] * 3
    assert smtp.sent == []
    with mod.store.read() as s:
        assert len(s.exec(select(InboundMail).where(InboundMail.status == "ignored")).all()) == 3


def test_bad_input_gets_a_reply_and_changes_nothing(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    version = state_of(mod, game).version
    to = reply_address(smtp, "anna@example.org")
    mailbox.put(mail("anna@example.org", to, "pass\n" * 30000))  # huge
    mailbox.put(b"From: anna@example.org\r\nTo: " + to.encode() +
                b"\r\nSubject: x\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\npass\r\n")
    mailbox.put(b"From: anna@example.org\r\nTo: " + to.encode() + b"\r\n\r\n")  # empty
    mailbox.put(b"\x00\x01garbage")  # no headers at all: nobody to answer
    smtp.sent.clear()
    report = run(mod, mailbox, smtp)
    assert [o.status for o in report.outcomes] == ["rejected", "rejected", "rejected",
                                                   "ignored"]
    texts = [smtp.text(m) for m in smtp.sent]
    assert "64 KiB" in texts[0] and "x-unknown" in texts[1] and "no commands" in texts[2]
    assert state_of(mod, game).version == version


def test_finished_and_paused_games_refuse_moves(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    mod.pause(game, NOW, "holidays")
    state = state_of(mod, game)
    send(mailbox, smtp, "anna@example.org", keep_line(state, 0))
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    assert "paused" in smtp.text(smtp.to("anna@example.org")[-1])
    with mod.store.transaction() as s:
        g = s.get(Game, game)
        assert g is not None
        g.finished = True
    send(mailbox, smtp, "anna@example.org", keep_line(state, 0))
    run(mod, mailbox, smtp)
    assert "is over" in smtp.text(smtp.to("anna@example.org")[-1])
    assert state_of(mod, game).version == state.version


def test_moderator_commands_are_announced_to_everyone(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    smtp.sent.clear()
    mod.pause(game, NOW, "a holiday")
    mod.resume(game, NOW)
    mod.extend(game, 24, NOW)
    run(mod, mailbox, smtp)
    heads = sorted(smtp.headline(m) for m in smtp.sent)
    assert heads.count("pof-17 — paused") == 3 and heads.count("pof-17 — resumed") == 3
    assert heads.count("pof-17 — deadline extended") == 3


def test_replace_keeps_the_seat_and_retires_the_token(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    old_to = reply_address(smtp, "bas@example.org")
    mod.replace(game, "bas", NOW, emails=["zoe@example.org"], person="zoe", tz="Asia/Tokyo")
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    assert {str(m["To"]) for m in smtp.sent} >= {"zoe@example.org", "bas@example.org",
                                                 "anna@example.org", "chris@example.org"}
    zoe_status = [m for m in smtp.to("zoe@example.org") if "Setup" in smtp.headline(m)]
    assert zoe_status and "dealt to you" in smtp.text(zoe_status[0])
    mailbox.put(mail("bas@example.org", old_to, keep_line(state, 1)))
    mailbox.put(mail("zoe@example.org", old_to, keep_line(state, 1)))
    assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["rejected", "rejected"]
    send(mailbox, smtp, "zoe@example.org", keep_line(state, 1))
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"


def test_events_form_a_hash_chain(mod, game, mailbox, smtp) -> None:
    """Each row chains to the one before; private events (the deals) are sealed with
    the game's seed, so the chain can be recomputed only once the seed is known."""
    from engine.chain import GENESIS, link
    from engine.princes.events import from_dict

    run(mod, mailbox, smtp)
    with mod.store.read() as s:
        rows = event_rows(s, game)
    prev = GENESIS
    for i, r in enumerate(rows):
        import json

        event = from_dict(json.loads(r.payload))
        assert r.seq == i and r.prev_hash == prev
        assert r.hash == link(prev, event, "test-seed")
        assert (r.hash == link(prev, event)) == (not event.private)
        prev = r.hash


def test_concurrent_append_conflicts(mod, game) -> None:
    import pytest

    from engine.princes.events import TurnEnded
    from pbem.errors import ConflictError
    from pbem.store import append_events

    with mod.store.read() as s:
        stale = s.get(Game, game)  # read by a first writer...
    assert stale is not None
    with mod.store.transaction() as s:  # ...while a second one appends
        g = s.get(Game, game)
        assert g is not None
        append_events(s, g, [TurnEnded(0)], NOW)
    with pytest.raises(ConflictError), mod.store.transaction() as s:
        append_events(s, stale, [TurnEnded(1)], NOW)
    with mod.store.read() as s:
        assert len(s.exec(select(EventRow).where(EventRow.game_id == game)).all()) == 5


def test_commands_after_a_draw_are_refused_without_revealing_it(mod, mailbox, smtp) -> None:
    from pbem.inbound import Line
    from pbem.moderator import CommandFailed, play_lines

    game = mod.new_game(PLAYERS, NOW, game_id="pof-9", seed="s")
    state = state_of(mod, game)
    # Play on the engine until someone may buy a profession card.
    import random

    from engine.princes.commands import TakeProfession
    from engine.princes.game import apply, seeded_chance
    from engine.princes.state import CHANCE

    rng = random.Random(3)
    while True:
        actors = to_act(state)
        seat = actors[0]
        if seat == CHANCE:
            state, _ = apply(state, CHANCE, seeded_chance(state, "s"))
            continue
        options = legal_commands(state, seat, free=False)
        if TakeProfession() in options:
            break
        state, _ = apply(state, seat, rng.choice(options))
    lines = [Line(1, "profession"), Line(2, "choose poet")]
    try:
        play_lines(state, seat, lines, "s")
    except CommandFailed as f:
        assert f.error.rule == "after-draw"  # type: ignore[attr-defined]
        assert "which draws cards you have not seen yet" in str(f.error)  # the game's word
    else:
        raise AssertionError("the second line should be refused")

    # The shell's own word, for a game whose presenter names none: never "cards".
    from engine.registry import get_game
    from notation.registry import grammar_for
    from pbem.playing import Played, play_mail
    from pbem.registry import presenter_for

    class Plain:
        private_news = staticmethod(presenter_for(None).private_news)

    game_rules = get_game()
    played = Played.on(game_rules, grammar_for(game_rules.name), state, seed="s")
    with pytest.raises(CommandFailed, match="which draws values you have not seen yet"):
        play_mail(played, seat, lines, Plain())  # type: ignore[arg-type]


def test_outbox_survives_a_dead_smtp_server(mod, game, mailbox) -> None:
    smtp = FakeSmtp(down=True)
    report = run(mod, mailbox, smtp)
    assert report.sent.sent == 0 and report.sent.retry == 6
    with mod.store.read() as s:
        rows = s.exec(select(OutMail)).all()
        assert all(r.status == "pending" and r.attempts == 1 for r in rows)
    smtp.down = False
    assert run(mod, mailbox, smtp, NOW + timedelta(seconds=10)).sent.sent == 0  # backing off
    assert run(mod, mailbox, smtp, NOW + timedelta(minutes=1)).sent.sent == 6
    assert len(smtp.sent) == 6


def test_a_crashing_mail_is_moved_aside(mod, game, mailbox, smtp, monkeypatch, caplog) -> None:
    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(mod, "_handle", boom)
    mailbox.put(mail("anna@example.org", "moderator@example.org", "pass"))
    report = run(mod, mailbox, smtp)
    assert mailbox.failed_uids and report.errors
    for r in caplog.records:
        r.expected = True  # type: ignore[attr-defined]


def test_private_draw_mail_goes_to_the_drawer_only(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    privates = [m for m in smtp.sent if "private" in smtp.headline(m)]
    assert sorted(str(m["To"]) for m in privates) == \
        ["anna@example.org", "bas@example.org", "chris@example.org"]
    state = state_of(mod, game)
    for m in privates:
        seat = ["anna", "bas", "chris"].index(str(m["To"]).split("@")[0])
        assert ", ".join(state.players[seat].dealt) in smtp.text(m)


def test_moves_are_stored_for_export(mod, game, mailbox, smtp) -> None:
    from pbem.store import moves_of

    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    send(mailbox, smtp, "anna@example.org", keep_line(state, 0))
    run(mod, mailbox, smtp)
    with mod.store.read() as s:
        moves = [(m.seat, m.command) for m in moves_of(s, game)]
    assert [seat for seat, _ in moves[:3]] == [-1, -1, -1]
    assert all(text.startswith("* deal ") for _, text in moves[:3])
    assert moves[3] == (0, keep_line(state, 0))  # the canonical form is stored


def test_html_mails_escape_what_players_wrote(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    send(mailbox, smtp, "anna@example.org", "<script>alert(1)</script>\n")
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    html = smtp.sent[0].get_body(("html",)).get_content()
    assert "<script>" not in html and "&lt;script&gt;" in html
