"""Whole games of Signorie played by mail through the moderator, among scripted players
who read their status mails and answer in the notation (now and then with a typo, which
earns an error reply): for 2 and 4 players, to the game-over mail and the result, and
the export of the finished game verifies. No mail names a face-down alliance tile
before the final scoring, not even to its owner (S8)."""

from __future__ import annotations

import html
import random
import re
from datetime import timedelta
from email.message import EmailMessage

import pytest

from engine.protocol import CHANCE
from engine.signorie.events import AllianceDrawn, AlliancesLaid, GameEnded
from pbem.export import export_game
from pbem.loading import Rules
from pbem.logs import replay_log
from pbem.moderator import Moderator
from pbem.scripted import ScriptedPlayer, pick_actor
from pbem.snapshots import restore
from pbem.store import Game, load_events
from pbem.verify import verify_log

from .fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp
from .helpers import run

RULES = Rules.named("signorie")


def _bodies(msg: EmailMessage) -> str:
    """Both parts of a mail, the HTML a line per element's text."""
    return "\n".join(re.sub(r"<[^>]+>", "\n", html.unescape(str(part.get_content())))
                     for part in msg.walk()
                     if part.get_content_type() in ("text/plain", "text/html"))


def _state(mod: Moderator, game_id: str):
    with mod.store.read() as s:
        row = s.get(Game, game_id)
        assert row is not None
        return mod.load(s, row)[1]


def _events(mod: Moderator, game_id: str) -> list:
    with mod.store.read() as s:
        return list(load_events(s, game_id))


def _tile_words() -> re.Pattern[str]:
    """An alliance tile id (family and VP) as a word."""
    from engine.signorie.ruleset import load

    families = "|".join(load().families)
    return re.compile(rf"\b(?:{families})\d+\b")


TILE = _tile_words()


def play_by_mail(mod: Moderator, mailbox: FakeMailbox, smtp: FakeSmtp, game_id: str,
                 players: int, *, typo_rate: float = 0.03,
                 ) -> list[tuple[int, str, EmailMessage]]:
    """Play the game to its end by mail; every mail sent, with the version of the game
    when it was sent and its text."""
    specs = PLAYERS[:players]
    scripted = [ScriptedPlayer(p.name, i, p.email, random.Random(f"sig{i}"),
                               typo_rate=typo_rate, rules=RULES) for i, p in enumerate(specs)]
    emails = [p.email for p in specs]
    rng = random.Random(players)
    sent: list[tuple[int, str, EmailMessage]] = []
    for step in range(6000):
        # a few minutes per mail keeps every seat under the hourly limit (pbem.guard)
        run(mod, mailbox, smtp, NOW + timedelta(minutes=3 * step))
        state = _state(mod, game_id)
        for msg in smtp.sent:
            sent.append((state.version, _bodies(msg), msg))
            scripted[emails.index(str(msg["To"]))].read(msg)
        smtp.sent.clear()
        if state.finished:
            break
        assert RULES.game.to_act(state) != (CHANCE,)  # the moderator resolves chance
        actor = pick_actor(state, scripted, rng)
        assert actor is not None, f"nobody can act at v{state.version}"
        mailbox.put(actor.move(state))
    else:
        raise AssertionError("the game did not end")
    return sent


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_by_mail_ends_with_the_result(mod, mailbox, smtp, players: int) -> None:
    game_id = mod.new_game(PLAYERS[:players], NOW, game="signorie", seed=f"mail-{players}")
    assert game_id == "sig-1"
    sent = play_by_mail(mod, mailbox, smtp, game_id, players)
    state = _state(mod, game_id)
    result = RULES.game.result(state)
    assert state.finished and result is not None
    names = state.names
    winners = ", ".join(names[w] for w in result.winners)
    last = {str(m["To"]): text for _, text, m in sent}
    for p in PLAYERS[:players]:
        first = last[p.email].lstrip().splitlines()[0]
        assert "game over" in first and winners in first, first
        assert "final scoring" in last[p.email]
    texts = [text for _, text, _ in sent]
    assert any("not applied" in t for t in texts)  # the typos got error replies
    assert any("Your commands now:" in t and "take " in t for t in texts)
    assert any("Dice on offer (your cost):" in t for t in texts)
    assert {str(m["Subject"]) for _, _, m in sent} == {f"[{game_id}] {RULES.game.title}"}
    # the finished game exports, verifies and replays to the same end
    log = export_game(mod, game_id)
    checked = verify_log(log, file=f"{game_id}.log")
    assert checked.ok, checked.problem
    assert checked.winners == tuple(names[w] for w in result.winners)
    replayed = replay_log(log)
    assert replayed.ok and replayed.state == state
    # a cold start reads the stored snapshot (its rules data pickled too)
    with mod.store.read() as s:
        row = s.get(Game, game_id)
        assert row is not None
        restored = restore(s, row, RULES.game)
    assert restored is not None and restored[0] == state


def test_no_mail_names_a_face_down_tile_before_the_final_scoring(mod, mailbox, smtp) -> None:
    game_id = mod.new_game(PLAYERS[:3], NOW, game="signorie", seed="leak-3")
    sent = play_by_mail(mod, mailbox, smtp, game_id, 3, typo_rate=0.05)
    events = _events(mod, game_id)
    drawn = [e for e in events if isinstance(e, AllianceDrawn)]
    assert drawn, "no face-down tile was drawn: the test proves nothing"
    end = next(i for i, e in enumerate(events) if isinstance(e, GameEnded))
    checked = 0
    for version, text, _ in sent:
        if version > end:
            continue  # the game-over mail reveals them
        # every tile a mail names was laid face up by then, for everyone to see
        shown = {t for e in events[:version] if isinstance(e, AlliancesLaid)
                 for _, _, t in e.tiles}
        named = set(TILE.findall(text))
        assert named <= shown, (version, named - shown)
        for line in text.splitlines():
            if "face-down alliance tile" in line:  # a draw, or what brings one
                assert not TILE.search(line), (version, line)
                checked += 1
    assert checked, "no mail told of a face-down tile"


def test_a_public_export_of_a_running_game_writes_each_draw_as_unknown(mod, mailbox,
                                                                       smtp) -> None:
    game_id = mod.new_game(PLAYERS[:2], NOW, game="signorie", seed="export-2")
    specs = PLAYERS[:2]
    scripted = [ScriptedPlayer(p.name, i, p.email, random.Random(f"x{i}"), rules=RULES)
                for i, p in enumerate(specs)]
    emails = [p.email for p in specs]
    rng = random.Random(5)
    for step in range(6000):
        run(mod, mailbox, smtp, NOW + timedelta(minutes=3 * step))
        for msg in smtp.sent:
            scripted[emails.index(str(msg["To"]))].read(msg)
        smtp.sent.clear()
        state = _state(mod, game_id)
        if any(isinstance(e, AllianceDrawn) for e in _events(mod, game_id)) \
                or state.finished:
            break
        actor = pick_actor(state, scripted, rng)
        assert actor is not None
        mailbox.put(actor.move(state))
    assert not state.finished
    drawn = [e for e in _events(mod, game_id) if isinstance(e, AllianceDrawn)]
    assert drawn
    public, full = export_game(mod, game_id), export_game(mod, game_id, full=True)
    draws = [line.split("#")[0].split() for line in public.splitlines()
             if line.startswith("* draw ")]
    assert len(draws) == len(drawn) and all(d[-1] == "?" for d in draws)
    full_draws = [line.split("#")[0].split() for line in full.splitlines()
                  if line.startswith("* draw ")]
    assert [d[-1] for d in full_draws] == [e.tile for e in drawn]
    replayed = replay_log(public)
    assert replayed.ok and replayed.hidden  # read up to the first hidden draw


def test_a_late_player_is_played_for_by_the_late_policy(mod, mailbox, smtp) -> None:
    from freezegun import freeze_time

    from pbem.runner import poll_once
    from pbem.store import utcnow

    def run_at(when):  # the real clock, frozen
        with freeze_time(when):
            return poll_once(mod, lambda: mailbox, smtp)

    with freeze_time(NOW):
        game_id = mod.new_game(PLAYERS[:3], utcnow(), game="signorie", seed="late-3",
                               turn_hours=24, late_policy="auto")
    run_at(NOW)
    before = _state(mod, game_id)
    late = RULES.game.to_act(before)
    assert len(late) == 1 and before.phase == "actions"
    smtp.sent.clear()
    report = run_at(NOW + timedelta(hours=24, seconds=1))
    assert report.deadlines.auto
    after = _state(mod, game_id)
    assert after.version > before.version
    name = before.names[late[0]]
    assert late[0] in after.passed  # the late command: a pass
    assert smtp.sent
    for m in smtp.sent:
        assert f"played for {name}" in smtp.text(m), smtp.text(m)
