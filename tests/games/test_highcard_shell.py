"""high-card through the shell, with nothing in pbem/ naming it: its presenter and
templates (kept in tests), `pbem replay`, `pbem selfplay` and `pbem show` on its logs,
and whole games moderated by mail, exported and verified."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.protocol import CHANCE
from engine.selfplay import play_random
from pbem.cli import app
from pbem.export import export_game
from pbem.logs import replay_log
from pbem.moderator import Moderator
from pbem.outbound import Renderer, status_context
from pbem.presenter import Presenter
from pbem.registry import PRESENTERS, presenter_for
from pbem.store import Game, event_rows, load_events
from pbem.verify import verify_log
from tests.games import register_test_games
from tests.games.highcard import GAME
from tests.games.highcard.events import HandDealt
from tests.games.highcard.notation import format_command
from tests.games.highcard.presenter import PRESENTER, TEMPLATES
from tests.games.highcard.state import State
from tests.pbem.fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp, mail, make_moderator
from tests.pbem.helpers import reply_address, run

runner = CliRunner()
NAMES = [p.name for p in PLAYERS]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    unregister = register_test_games()
    yield
    unregister()


def cli(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


def test_the_presenter_is_registered_by_the_tests_only() -> None:
    members = [*Presenter.__annotations__,
               *(n for n, v in vars(Presenter).items() if callable(v) and not n.startswith("_"))]
    assert len(members) == 14
    for member in members:
        assert getattr(PRESENTER, member, None) is not None, member
    assert presenter_for("high-card") is PRESENTER
    assert not Path(PRESENTER.template_dir).is_relative_to(Path(__file__).parents[2] / "templates")
    assert {p.name for p in (TEMPLATES / "status.txt", TEMPLATES / "status.html")} <= \
        {p.name for p in TEMPLATES.iterdir()}


def test_registering_again_changes_nothing() -> None:
    unregister = register_test_games()  # registers nothing: the fixture did
    unregister()
    assert "high-card" in PRESENTERS.names()


# --------------------------------------------------------------------------- logs


def _standings(seed: str) -> list[dict[str, object]]:
    final = play_random(GAME, 3, seed, variant="standard").state
    result = GAME.result(final)
    assert result is not None
    return [{"name": s.name, "score": s.score, **s.fields} for s in result.standings]


@pytest.mark.parametrize("recorded", [False, True], ids=["seeded", "recorded"])
def test_a_self_played_log_replays_with_its_standings(tmp_path: Path, recorded: bool) -> None:
    log = cli("selfplay", "--game", "high-card", "--players", "3", "--seed", "toy",
              *(["--recorded"] if recorded else []))
    assert log.startswith('[Game "high-card"]')
    assert ("* deal anna:" in log) == recorded and ("[Seed " in log) != recorded
    path = tmp_path / "hc.log"
    path.write_text(log)
    data = json.loads(cli("replay", "--json", str(path)))
    assert data["ok"] and data["finished"] and data["phase"] == "over"
    assert data["players"] == _standings("toy")
    assert data["winners"] == [p["name"] for p in data["players"]
                               if p["score"] == max(q["score"] for q in data["players"])
                               and p["coins"] == max(q["coins"] for q in data["players"]
                                                     if q["score"] == p["score"])]
    again = replay_log(log, file="hc.log")
    assert again.ok and again.game is GAME and again.state == \
        play_random(GAME, 3, "toy", variant="standard").state


def test_show_renders_a_log_through_the_presenter(tmp_path: Path) -> None:
    log = cli("selfplay", "--game", "high-card", "--players", "3", "--seed", "toy", "--recorded")
    path = tmp_path / "hc.log"
    path.write_text(log)
    hands = {m.group(1): m.group(2) for m in re.finditer(r"\* deal (\w+): (.+)", log)}
    at = next(i for i, line in enumerate(log.splitlines(), 1) if line.startswith("anna: "))
    public = cli("show", str(path), "--at", str(at))
    assert "Round 1 of 3, auction phase" in public and "public view" in public
    assert not any(h in public for h in hands.values())
    anna = cli("show", str(path), "--at", str(at), "--as", "anna")
    assert f"hand {hands['anna']}" in anna
    assert hands["bas"] not in anna and hands["chris"] not in anna
    full = cli("show", str(path), "--at", str(at), "--full")
    assert all(f"hand {h}" in full for h in hands.values())
    data = json.loads(cli("show", str(path), "--json", "--as", "bas"))
    assert data["ok"] and data["view"]["phase"] == "over"
    assert [p["hand"] is None for p in data["view"]["players"]] == [True, False, True]
    end = cli("show", str(path))
    assert "Game over after round 3: won by" in end
    # its presenter draws no picture of a board: --png is a usage error
    result = runner.invoke(app, ["show", str(path), "--png", str(tmp_path / "hc.png")])
    assert result.exit_code == 2 and "no picture of its board" in result.output
    assert not (tmp_path / "hc.png").exists()


# --------------------------------------------------------------------------- moderated


def _state(mod: Moderator, game_id: str) -> State:
    with mod.store.read() as s:
        row = s.get(Game, game_id)
        assert row is not None
        return mod.load(s, row)[1]


def _play(mod: Moderator, game_id: str, mailbox: FakeMailbox, smtp: FakeSmtp,
          rng: random.Random, *, stop: int | None = None) -> int:
    """Mail every seat's commands in the notation, one mail each, as the players would
    (a random legal command, `@vN` first), until the game ends (or `stop` mails)."""
    mails = 0
    while not _state(mod, game_id).finished and (stop is None or mails < stop):
        state = _state(mod, game_id)
        seat = rng.choice(GAME.to_act(state))
        assert seat != CHANCE  # the moderator resolves chance itself
        command = format_command(GAME.random_command(state, seat, rng))
        sender = PLAYERS[seat].email
        mailbox.put(mail(sender, reply_address(smtp, sender), f"@v{state.version}\n{command}\n"))
        report = run(mod, mailbox, smtp)
        assert [o.status for o in report.outcomes] == ["accepted"], report.outcomes
        mails += 1
    return mails


@pytest.fixture
def moderated() -> tuple[Moderator, str, FakeMailbox, FakeSmtp]:
    mod = make_moderator()
    game_id = mod.new_game(PLAYERS, NOW, game="high-card", seed="toy-seed")
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    run(mod, mailbox, smtp)
    return mod, game_id, mailbox, smtp


def _text(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def _html(msg: EmailMessage) -> str:
    """The HTML part, a line per element's text."""
    body = msg.get_body(preferencelist=("html",))
    assert body is not None
    content = str(body.get_content())
    assert "</html>" in content
    return html.unescape(re.sub(r"<[^>]+>", "\n", content))


def _hands(mod: Moderator, game_id: str) -> dict[int, tuple[str, ...]]:
    with mod.store.read() as s:
        return {e.seat: e.cards for e in load_events(s, game_id) if isinstance(e, HandDealt)}


_MINE = re.compile(r"(?:your hand|face down|you were dealt|you played):?\s+([\d ]+)",
                   re.IGNORECASE)


def test_a_whole_game_by_mail_renders_every_mail_and_leaks_no_card(moderated) -> None:
    mod, game_id, mailbox, smtp = moderated
    assert game_id == "hc-1"
    mails = _play(mod, game_id, mailbox, smtp, random.Random(7))
    state = _state(mod, game_id)
    assert state.finished and GAME.result(state) is not None
    sent = smtp.history
    status = [m for m in sent if "private to" not in _text(m).splitlines()[0]]
    private = [m for m in sent if "private to" in _text(m).splitlines()[0]]
    assert len(status) == 3 * (1 + mails) and len(private) == 3
    # one thread: the game's subject on every mail, what changed in the first line
    assert {str(m["Subject"]) for m in sent} == {f"[{game_id}] {GAME.title}"}
    for m in sent:
        assert _text(m).strip() and _html(m).strip()
        # no picture of a board: no inline part, no cid
        assert [p.get_content_type() for p in m.walk()] == \
            ["multipart/alternative", "text/plain", "text/html"]
        assert "cid:" not in _html(m)
    winners = ", ".join(NAMES[w] for w in state.winners)
    last = _text(status[-1])
    assert winners in last.splitlines()[0] and "The seed of this game" in last

    hands = _hands(mod, game_id)
    assert sorted(hands) == [0, 1, 2]
    checked = 0
    for m in sent:
        seat = NAMES.index(str(m["To"]).split("@")[0])
        others = [hands[o] for o in hands if o != seat]
        for body in (_text(m), _html(m)):
            for hand in others:
                assert " ".join(hand) not in body, (seat, hand, body)
            for line in body.splitlines():
                for found in _MINE.findall(line):  # the cards a mail calls the seat's own
                    assert set(found.split()) <= set(hands[seat]), (seat, line)
                    checked += 1
                if any(NAMES[o] in line for o in range(3) if o != seat) and \
                        ("face down" in line or "dealt" in line):
                    counted = re.sub(r"\b\d+ cards\b", "", line)  # how many: public
                    assert not re.search(r"\d", counted), (seat, line)  # no card of another
    assert checked > len(sent)


def test_export_of_a_finished_game_verifies_with_the_stored_head(moderated) -> None:
    mod, game_id, mailbox, smtp = moderated
    _play(mod, game_id, mailbox, smtp, random.Random(3))
    log = export_game(mod, game_id)
    assert log == export_game(mod, game_id, full=True)
    with mod.store.read() as s:
        rows = event_rows(s, game_id)
        row = s.get(Game, game_id)
        assert row is not None and row.finished
    assert '[Seed "toy-seed"]' in log and "?" not in log
    result = verify_log(log, file="hc-1.log")
    assert result.ok, result.problem
    assert result.finished and result.head == rows[-1].hash and result.version == len(rows)
    assert result.game is GAME and result.chance == 3 + 3
    state = _state(mod, game_id)
    assert result.winners == tuple(NAMES[w] for w in state.winners)
    replayed = replay_log(log)
    assert replayed.ok and replayed.state == state


def test_public_export_of_a_running_game_hides_the_cards(moderated) -> None:
    mod, game_id, mailbox, smtp = moderated
    rng = random.Random(5)
    while _state(mod, game_id).phase != "play" or \
            not any(p.played for p in _state(mod, game_id).players):
        _play(mod, game_id, mailbox, smtp, rng, stop=1)
    state = _state(mod, game_id)
    log = export_game(mod, game_id)
    full = export_game(mod, game_id, full=True)
    hands = _hands(mod, game_id)
    for seat, hand in hands.items():
        assert f"* deal {NAMES[seat]}: ? ? ?  # v" in log
        assert f"* deal {NAMES[seat]}: {' '.join(hand)}  # v" in full
    face_down = [(NAMES[i], p.played) for i, p in enumerate(state.players) if p.played]
    for name, card in face_down:
        assert f"{name}: play ?  # v" in log and f"{name}: play {card}  # v" in full
    assert "[Seed " not in log and "[Seed " not in full
    lines = log.splitlines()
    assert len(lines) == len(full.splitlines())
    first_hidden = next(i for i, line in enumerate(lines, 1) if "?" in line.split("#")[0])
    replayed = replay_log(log)
    assert replayed.ok and replayed.hidden == first_hidden
    assert replayed.state is not None and replayed.state.version == 1  # up to the first deal
    assert verify_log(full).problem is not None  # a running game cannot be verified yet
    with mod.store.read() as s:
        head = event_rows(s, game_id)[-1].hash
    assert f'[Head "v{state.version} sha256:{head}"]' in log


def test_the_status_mail_renders_from_the_templates_in_tests() -> None:
    state = play_random(GAME, 2, "r", variant="duel").state
    view = GAME.view(state, 1)
    ctx = status_context(view, game_id="hc-9", changes=["x"], echo=[], legal=[], deadline=None,
                         tz="UTC", presenter=PRESENTER)
    text, html = Renderer().render("status", ctx, PRESENTER.template_dir)
    assert "Cards left in the deck:" in text and "<h3>Players</h3>" in html
    assert text.startswith("hc-9 — game over:")


def test_selfplay_takes_the_player_counts_of_the_chosen_game() -> None:
    # high-card seats 2 or 3; The Princes of Florence 2 to 5: the game decides
    assert '[Players "anna, bas"]' in cli("selfplay", "--game", "high-card", "-n", "2")
    out = cli("selfplay", "--game", "high-card", "-n", "4", code=2)
    assert "2 to 3" in out or "not 4" in out
    cli("selfplay", "-n", "6", code=2)


def test_demo_plays_the_chosen_game_with_its_own_scripted_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the scripted players once read every game as the default game's state
    for var in ("DATABASE_URL", "PBEM_CONFIG", "PBEM_DB", "PBEM_TRANSPORT"):
        monkeypatch.delenv(var, raising=False)  # `export --db` reads the demo's file
    out = cli("demo", "--game", "high-card", "--players", "3", "--out", str(tmp_path / "d"))
    assert "played to the end by mail" in out and "scores: " in out
    exported = cli("export", "hc-1", "--db", str(tmp_path / "d" / "pbem.sqlite"))
    assert exported.startswith('[Game "high-card"]')
    assert verify_log(exported).ok


def test_a_missing_chance_line_is_hinted_in_the_shells_words() -> None:
    """The hint names the values a chance line states in the presenter's word; high-card's
    presenter has none, so the shell's neutral word, never The Princes's "cards"."""
    assert getattr(PRESENTER, "chance_noun", None) is None
    r = replay_log('[Game "high-card"]\n[Players "anna, bas"]\n\nanna: bid 2\n')
    assert r.error is not None and r.error.rule == "chance-missing"
    assert "expected '* deal anna: ...' naming the 3 values, as this log has no Seed tag" \
        in r.error.message
