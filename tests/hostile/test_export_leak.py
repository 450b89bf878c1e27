"""`pbem export` of a running game shows only what every player may see; `--full`
is the referee's view; `pbem replay` reads the public log sensibly."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from engine.princes.events import (
    CardChosen,
    CardsDrawn,
    Event,
    ProfessionsDealt,
    ProfessionsKept,
    Recruited,
    WorkCompleted,
)
from engine.princes.game import to_act
from engine.princes.state import State
from notation import parse_log
from pbem.config import Config
from pbem.logs import replay_log
from pbem.moderator import Moderator
from pbem.scripted import ScriptedPlayer, pick_actor
from pbem.store import Store, load_events
from tests.pbem.fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp
from tests.pbem.helpers import run, state_of

PBEM = str(Path(sys.executable).parent / "pbem")
WORD = re.compile(r"[a-z][a-z0-9-]*")


def hidden_cards(state: State, events: list[Event]) -> set[str]:
    """Every card some seat saw alone and that never came onto the table: hands,
    deals, draws, kept and chosen cards, and the cards put back under a deck."""
    private: set[str] = set()
    for e in events:
        if isinstance(e, ProfessionsDealt | CardsDrawn):
            private |= set(e.cards)
        elif isinstance(e, ProfessionsKept):
            private |= set(e.kept) | set(e.returned)
        elif isinstance(e, CardChosen):
            private |= {e.card, *e.returned}
    for p in state.players:
        private |= set(p.hand) | set(p.bonus_hand) | set(p.prestige_hand) | set(p.dealt)
    public: set[str] = set()
    for e in events:
        if isinstance(e, WorkCompleted):
            public |= {e.profession, *e.bonuses}
        elif isinstance(e, Recruited):
            public.add(e.profession)
    for p in state.players:
        public |= set(p.table)
    return private - public


def _running_game(tmp_path: Path) -> tuple[Path, str, State, list[Event]]:
    """A game played by mail into round 3, with draws and choices made."""
    db = tmp_path / "pbem.sqlite"
    store = Store(f"sqlite:///{db}")
    store.create_all()
    mod = Moderator(store, Config(moderator_address="moderator@example.org"))
    game = mod.new_game(PLAYERS, NOW, game_id="pof-live", seed="export-leak")
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    players = [ScriptedPlayer(p.name, i, p.email, random.Random(i))
               for i, p in enumerate(PLAYERS)]
    rng = random.Random(3)
    for step in range(2000):
        run(mod, mailbox, smtp, NOW + timedelta(minutes=3 * step))
        for msg in smtp.sent:
            players[[p.email for p in PLAYERS].index(str(msg["To"]))].read(msg)
        smtp.sent.clear()
        state = state_of(mod, game)
        with store.read() as s:
            events = load_events(s, game)
        if state.round >= 3 and any(isinstance(e, CardChosen) for e in events):
            break
        actor = pick_actor(state, players, rng)
        assert actor is not None
        mailbox.put(actor.move(state))
    assert not state.finished and state.round >= 3 and to_act(state)
    store.dispose()
    return db, game, state, events


def _pbem(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PBEM_CONFIG")}
    env["PBEM_DB"] = str(db)
    return subprocess.run([PBEM, *args], capture_output=True, text=True, env=env,
                          cwd=db.parent, check=False)


def test_the_public_export_names_no_hidden_card(tmp_path: Path) -> None:
    db, game, state, events = _running_game(tmp_path)
    secret = hidden_cards(state, events)
    assert len(secret) > 10  # deals, keeps, draws and choices of three seats
    out = _pbem(db, "export", game)
    assert out.returncode == 0, out.stderr
    words = set(WORD.findall(out.stdout))
    assert not words & secret, sorted(words & secret)
    log = parse_log(out.stdout)
    hidden_lines = [ln for ln in out.stdout.splitlines() if "?" in ln.split("#")[0]]
    assert any(": keep ? ? ?" in ln for ln in hidden_lines)
    assert any(": choose ?" in ln for ln in hidden_lines)
    assert any(ln.startswith("* draw ") for ln in hidden_lines)
    assert log.players == tuple(p.name for p in PLAYERS)
    # the referee's view has every card
    full = _pbem(db, "export", game, "--full")
    assert full.returncode == 0 and secret <= set(WORD.findall(full.stdout))
    assert "?" not in "".join(ln.split("#")[0] for ln in full.stdout.splitlines())
    assert replay_log(full.stdout).ok


def test_replay_reads_the_public_export_up_to_its_first_hidden_line(tmp_path: Path) -> None:
    db, game, _, _ = _running_game(tmp_path)
    path = tmp_path / "public.log"
    assert _pbem(db, "export", game, "-o", str(path)).returncode == 0
    text = path.read_text()
    first = next(i for i, ln in enumerate(text.splitlines(), 1) if "?" in ln.split("#")[0])
    r = replay_log(text)
    assert r.ok and r.hidden == first and r.to_json()["hidden"] == first
    out = _pbem(db, "replay", str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip() == (
        f"OK {path}: public log, read to the end; line {first} holds values the public "
        f"may not see ('?'), so moves are checked up to line {first - 1} and the rest for "
        "their notation only")
    # the lines after it are still read: a bad word there is an error on its line
    lines = text.splitlines()
    last = max(i for i, ln in enumerate(lines) if ln.startswith("anna: "))
    lines[last] = "anna: bild theater a1"
    bad = replay_log("\n".join(lines) + "\n")
    assert not bad.ok and bad.error is not None and bad.error.line == last + 1
    assert bad.error.kind == "syntax"


def test_a_player_may_not_send_hidden_cards() -> None:
    from engine.errors import NotationError
    from notation.princes import parse_command

    for text in ("keep ? ? ?", "choose ?"):
        try:
            parse_command(text, players=("anna", "bas", "chris"))
        except NotationError:
            continue
        raise AssertionError(f"{text!r} was read as a command")
