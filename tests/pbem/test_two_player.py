"""A whole 2-player game through the moderator: started for two players (the variant
follows the count), played by mail among scripted players, exported and verified."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from engine.princes.game import to_act
from engine.princes.state import CHANCE
from pbem.export import export_game
from pbem.scripted import ScriptedPlayer, pick_actor
from pbem.store import Game
from pbem.verify import verify_log

from .fakes import NOW, PLAYERS
from .helpers import run, state_of


@pytest.mark.parametrize("freedoms", [None, "4"])
def test_a_whole_two_player_game_by_mail_exports_and_verifies(mod, mailbox, smtp,
                                                             freedoms) -> None:
    options = {"freedoms": freedoms} if freedoms else None
    game = mod.new_game(PLAYERS[:2], NOW, game_id="pof-two", seed="two-seed",
                        options=options)
    with mod.store.read() as s:
        row = s.get(Game, game)
        assert row is not None and row.variant == "two-player"
    players = [ScriptedPlayer(p.name, i, p.email, random.Random(i), typo_rate=0.02)
               for i, p in enumerate(PLAYERS[:2])]
    rng = random.Random(2)
    bodies: list[str] = []
    for step in range(3000):
        run(mod, mailbox, smtp, NOW + timedelta(minutes=3 * step))
        state = state_of(mod, game)
        for msg in smtp.sent:
            bodies.append("\n".join(part.get_content() for part in msg.walk()
                                    if part.get_content_type() == "text/plain"))
            players[[p.email for p in PLAYERS].index(str(msg["To"]))].read(msg)
        smtp.sent.clear()
        if state.finished:
            break
        assert to_act(state) != (CHANCE,)
        actor = pick_actor(state, players, rng)
        assert actor is not None
        mailbox.put(actor.move(state))
    assert state.finished, "the game did not end"
    assert state.rules.start_florins == 2500
    text = "\n".join(bodies)
    assert "landscape lot (forest 6, lake 6, park 6)" in text  # the supply line
    assert "open landscape" in text  # offered among the commands
    log = export_game(mod, game)
    assert '[Variant "two-player"]' in log
    assert f'[Freedoms "{freedoms or 5}"]' in log
    assert "\n* freedoms: " in log
    result = verify_log(log)
    assert result.ok, result.summary()
    assert result.finished and len(result.players) == 2
    # Without the Variant tag, the variant is the one for two players.
    assert verify_log(log.replace('[Variant "two-player"]\n', "")).ok


def cli(*args: str) -> str:
    from typer.testing import CliRunner

    from pbem.cli import app

    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_new_with_two_players_starts_the_two_player_game(env) -> None:
    import json

    cli("init")
    seats = ("-p", "anna:anna@example.org", "-p", "bas:bas@example.org")
    assert "created pof-1" in cli("new", *seats)
    assert "created pof-2" in cli("new", *seats, "--freedoms-4")
    one = json.loads(cli("status", "pof-1", "--as", "anna", "--json"))
    assert one["variant"] == "two-player"
    assert one["view"]["players"][0]["florins"] == 2500
    assert sum(n for _, n in one["view"]["freedoms_left"]) == 5
    two = json.loads(cli("status", "pof-2", "--as", "anna", "--json"))
    assert sum(n for _, n in two["view"]["freedoms_left"]) == 4
    assert '[Freedoms "4"]' in cli("export", "pof-2")


def test_selfplay_and_demo_take_two_players(env) -> None:
    from pbem.logs import replay_log

    log = cli("selfplay", "--players", "2", "--seed", "9")
    assert '[Variant "two-player"]' in log
    result = replay_log(log)
    assert result.ok and result.finished, result.error
    untagged = replay_log(log.replace('[Variant "two-player"]\n', ""))
    assert untagged.ok and untagged.finished, untagged.error
    out = cli("demo", "--out", str(env / "demo"), "--players", "2")
    assert "played to the end" in out
    exported = cli("export", "pof-1", "--db", str(env / "demo" / "pbem.sqlite"))
    assert '[Variant "two-player"]' in exported
    assert verify_log(exported).ok


def test_demo_player_counts_come_from_the_game(env) -> None:
    """`pbem demo` has no count of its own: the game says which counts it seats."""
    from typer.testing import CliRunner

    from pbem.cli import app

    result = CliRunner().invoke(app, ["demo", "--out", str(env / "demo6"), "--players", "6"])
    assert result.exit_code == 2
    assert "for 3 to 5 players, not 6" in result.output
