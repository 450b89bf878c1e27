"""Undo by consent through the moderator: requests, agreement, refusal, barriers."""

from __future__ import annotations

from engine.princes.events import Reverted
from engine.princes.game import replay
from pbem.moderator import Moderator
from pbem.store import Game, load_events, moves_of

from .fakes import FakeMailbox, FakeSmtp
from .helpers import keep_line, run, send, state_of

ANNA, BAS, CHRIS = "anna@example.org", "bas@example.org", "chris@example.org"


def _started(mod: Moderator, game: str, mailbox: FakeMailbox, smtp: FakeSmtp) -> None:
    """Everyone keeps: round 1's auction begins, anna to name."""
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    for seat, addr in enumerate((ANNA, BAS, CHRIS)):
        send(mailbox, smtp, addr, keep_line(state, seat))
    run(mod, mailbox, smtp)
    assert state_of(mod, game).phase == "auction"


def _say(mod: Moderator, mailbox: FakeMailbox, smtp: FakeSmtp, addr: str, body: str) -> str:
    smtp.sent.clear()
    send(mailbox, smtp, addr, body)
    outcome = run(mod, mailbox, smtp).outcomes[0]
    return outcome.status if outcome.status == "accepted" else f"{outcome.status}: {outcome.note}"


def _status_text(smtp: FakeSmtp, addr: str) -> str:
    mails = [m for m in smtp.to(addr) if "not applied" not in smtp.headline(m)]
    assert mails, f"no mail to {addr}"
    return smtp.text(mails[-1])


def test_undo_agreed_by_all_goes_back(mod, game, mailbox, smtp) -> None:
    _started(mod, game, mailbox, smtp)
    before = state_of(mod, game)
    assert _say(mod, mailbox, smtp, ANNA, "open jester") == "accepted"
    assert state_of(mod, game).lot == "jester"
    assert _say(mod, mailbox, smtp, ANNA, "undo") == "accepted"
    text = _status_text(smtp, BAS)
    assert "anna asks to take back their last command, 'open jester'" in text
    assert "Undo asked: anna asked to take back 'open jester'" in text
    assert "Reply 'agree' or 'refuse'." in text and "  agree" in text and "  refuse" in text
    assert "Reply 'agree'" not in _status_text(smtp, ANNA)
    assert state_of(mod, game).version == before.version + 1  # nothing undone yet
    assert _say(mod, mailbox, smtp, BAS, "agree") == "accepted"
    assert "still waiting for: chris" in _status_text(smtp, ANNA)
    assert _say(mod, mailbox, smtp, CHRIS, "agree") == "accepted"
    assert "Everyone agreed: anna's 'open jester' is taken back" in _status_text(smtp, BAS)
    after = state_of(mod, game)
    assert after.lot is None and after.turn == 0
    assert after.version == before.version + 2  # ObjectNamed, then Reverted
    with mod.store.read() as s:
        events = load_events(s, game)
        moves = [(m.seat, m.command) for m in moves_of(s, game)]
    assert events[-1] == Reverted(0, before.version)
    assert replay(events) == after
    assert moves[-4:] == [(0, "open jester"), (0, "undo"), (1, "agree"), (2, "agree")]
    # The game goes on from the earlier position; a second undo cannot cross the first.
    assert _say(mod, mailbox, smtp, ANNA, "undo").startswith("rejected: there is nothing")
    assert _say(mod, mailbox, smtp, ANNA, "open builder") == "accepted"


def test_refuse_or_a_move_cancels_the_request(mod, game, mailbox, smtp) -> None:
    _started(mod, game, mailbox, smtp)
    assert _say(mod, mailbox, smtp, ANNA, "open jester") == "accepted"
    assert _say(mod, mailbox, smtp, ANNA, "undo") == "accepted"
    assert _say(mod, mailbox, smtp, BAS, "refuse") == "accepted"
    assert "bas refused anna's undo; it is cancelled" in _status_text(smtp, CHRIS)
    assert _say(mod, mailbox, smtp, CHRIS, "agree").startswith("rejected: there is no undo")
    assert _say(mod, mailbox, smtp, ANNA, "undo") == "accepted"  # asked again
    assert _say(mod, mailbox, smtp, BAS, "agree") == "accepted"
    assert _say(mod, mailbox, smtp, BAS, "bid 300") == "accepted"  # bas moves on
    assert "anna's undo request was cancelled by bas's move" in _status_text(smtp, CHRIS)
    assert _say(mod, mailbox, smtp, CHRIS, "agree").startswith("rejected: there is no undo")
    assert state_of(mod, game).price == 300


def test_undo_refusals(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    assert _say(mod, mailbox, smtp, ANNA, keep_line(state, 0)) == "accepted"
    # Keeping shows which professions went back into the deck: a barrier.
    assert "may not go back past a deal" in _say(mod, mailbox, smtp, ANNA, "undo")
    for seat, addr in ((1, BAS), (2, CHRIS)):
        send(mailbox, smtp, addr, keep_line(state, seat))
    run(mod, mailbox, smtp)
    assert _say(mod, mailbox, smtp, ANNA, "open park") == "accepted"
    assert "you may take back only your own" in _say(mod, mailbox, smtp, BAS, "undo")
    assert "no undo request to agree" in _say(mod, mailbox, smtp, BAS, "agree")
    assert _say(mod, mailbox, smtp, ANNA, "undo") == "accepted"
    assert "already waiting" in _say(mod, mailbox, smtp, ANNA, "undo")
    assert "you asked for this undo" in _say(mod, mailbox, smtp, ANNA, "agree")
    assert _say(mod, mailbox, smtp, BAS, "agree") == "accepted"
    assert "agreed to this undo already" in _say(mod, mailbox, smtp, BAS, "agree")
    assert _say(mod, mailbox, smtp, ANNA, "refuse") == "accepted"
    assert "anna withdrew their undo request" in _status_text(smtp, BAS)


def test_a_fresh_moderator_rebuilds_the_pending_request(mod, game, mailbox, smtp) -> None:
    """The tracker comes from the stored commands: a restart loses no agreement."""
    _started(mod, game, mailbox, smtp)
    assert _say(mod, mailbox, smtp, ANNA, "open jester\nundo") == "accepted"
    assert _say(mod, mailbox, smtp, BAS, "agree") == "accepted"
    fresh = Moderator(mod.store, mod.cfg)
    with fresh.store.read() as s:
        g = s.get(Game, game)
        assert g is not None
        tracker = fresh.tracker(s, g)
    assert tracker.request is not None and tracker.request.agreed == {1}
    assert _say(fresh, mailbox, smtp, CHRIS, "agree") == "accepted"
    assert state_of(fresh, game).lot is None


def test_commands_are_stored_with_the_version_they_were_given_at(mod, game, mailbox,
                                                                  smtp) -> None:
    _started(mod, game, mailbox, smtp)
    v = state_of(mod, game).version
    assert _say(mod, mailbox, smtp, ANNA, "open jester") == "accepted"
    assert _say(mod, mailbox, smtp, BAS, "bid 300\nsell 0").startswith("rejected")
    with mod.store.read() as s:
        rows = moves_of(s, game)
    assert (rows[-1].command, rows[-1].version) == ("open jester", v)
    chance = [r.version for r in rows if r.seat == -1]
    assert chance == sorted(set(chance))  # each deal at its own version


def test_notices_and_the_first_mail_quote_the_position_and_the_stamp(mod, game, mailbox,
                                                                     smtp) -> None:
    from engine import __version__
    from engine.princes.ruleset import STANDARD_RULES

    from .fakes import NOW

    run(mod, mailbox, smtp)
    first = smtp.text(smtp.to(ANNA)[0])
    assert f"engine {__version__} with the rules edition {STANDARD_RULES.edition}" in first
    assert "commitment is sha256:" in first
    smtp.sent.clear()
    mod.pause(game, NOW, "holiday")
    run(mod, mailbox, smtp)
    notice = smtp.text(smtp.to(BAS)[0])
    assert "paused" in notice and f"Position: v{state_of(mod, game).version} sha256:" in notice
