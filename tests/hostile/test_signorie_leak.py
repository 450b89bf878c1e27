"""Signorie's face-down alliance tiles are seen by nobody, their owner included, until
the final scoring (S8): a game whose face-down tiles are swapped for others looks the
same to every seat and to the public, in every view, status mail, text board, board
picture (PNG) and event line, in every language, up to the final scoring; nor does
`pbem show --as`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.match import fold
from engine.registry import get_game
from engine.selfplay import play_random
from engine.signorie.events import AllianceDrawn, GameEnded
from pbem.cli import app
from pbem.i18n import LANGUAGES, speaking
from pbem.outbound import Renderer, status_context
from pbem.registry import presenter_for

GAME = get_game("signorie")
PRESENTER = presenter_for("signorie")
RENDERER = Renderer()


def _swapped(events: tuple) -> tuple[tuple, int, int]:
    """The events with the tiles of two face-down draws of different tiles swapped
    (a game that chance could have dealt as well), and the two draws' indices."""
    draws = [i for i, e in enumerate(events) if isinstance(e, AllianceDrawn)]
    for a in draws:
        for b in draws:
            if a < b and events[a].tile != events[b].tile:
                out = list(events)
                out[a] = dataclasses.replace(events[a], tile=events[b].tile)
                out[b] = dataclasses.replace(events[b], tile=events[a].tile)
                return tuple(out), a, b
    raise AssertionError("no two face-down draws of different tiles: pick another seed")


def _seen(state, events: tuple, seat: int | None) -> list[str | bytes]:
    """Everything `seat` is shown at a point: its view, as JSON, as the text board, as
    the board's picture and as its status mail (both parts, the board's tables in the
    HTML), and the lines of the events so far."""
    view = GAME.view(state, seat)
    names = state.names
    lines = [PRESENTER.describe_event(GAME.redact(e, seat), names, seat) for e in events]
    out: list[str | bytes] = [repr(PRESENTER.view_to_json(view)), PRESENTER.render_text(view),
                              *lines, PRESENTER.board_png(view)]
    if seat is not None:
        cmds = GAME.legal_commands(state, seat)
        ctx = status_context(view, game_id="sig-9", changes=lines[-5:], echo=(), deadline=None,
                             tz="UTC", legal=PRESENTER.summarise_commands(cmds, view),
                             presenter=PRESENTER, picture=True)
        text, html = RENDERER.render("status", ctx, PRESENTER.template_dir)
        assert "<table" in html and "cid:" in html  # the board's tables and picture
        out.extend((text, html))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_swapped_face_down_tiles_change_nothing_anyone_sees(players: int, lang: str) -> None:
    with speaking(lang, PRESENTER):  # in each language of the mails
        _swapped_tiles_unseen(players)


def _swapped_tiles_unseen(players: int) -> None:
    for seed in range(20):
        events = play_random(GAME, players, f"leak-{seed}").events
        try:
            twin, a, b = _swapped(events)
        except AssertionError:
            continue
        break
    else:
        raise AssertionError("no game with two different face-down draws")
    end = next(i for i, e in enumerate(events) if isinstance(e, GameEnded))
    # every point from just before the first swapped draw up to the final scoring
    points = sorted({a, a + 1, b, b + 1, (b + end) // 2, end})
    for k in points:
        here, there = fold(GAME, events[:k]), fold(GAME, twin[:k])
        assert (here != there) == (a < k <= b) or k > b  # the swap is in the state
        for seat in (None, *range(players)):
            assert _seen(here, events[:k], seat) == _seen(there, twin[:k], seat), \
                (k, seat)
    # the referee sees them, and the final scoring reveals them to all
    full = PRESENTER.render_text(PRESENTER.full_view(fold(GAME, events[:b + 1])))
    assert events[a].tile in full and events[b].tile in full
    final = PRESENTER.describe_event(events[end], events[0].players, 0)
    assert events[a].tile in final


def test_show_and_a_public_export_name_no_face_down_tile(tmp_path: Path) -> None:
    runner = CliRunner()

    def cli(*args: str) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    log = cli("selfplay", "--game", "signorie", "--players", "2", "--seed", "show-leak",
              "--recorded")
    lines = log.splitlines()
    draws = [(i, line.split()[2], line.split()[3]) for i, line in enumerate(lines, 1)
             if line.startswith("* draw ")]
    assert draws
    at, owner, tile = draws[0]
    path = tmp_path / "sig.log"
    twin_tile = next((t for _, _, t in draws if t != tile), None)
    twin = lines[:]
    if twin_tile is not None:  # the same game with the first draw's tile changed
        twin[at - 1] = f"* draw {owner} {twin_tile}"
    shown = []
    png = tmp_path / "board.png"
    for text in ("\n".join(lines), "\n".join(twin)):
        path.write_text(text + "\n")
        shown.append((cli("show", str(path), "--at", str(at), "--as", owner, "--png", str(png)),
                      png.read_bytes(), cli("show", str(path), "--at", str(at))))
    assert "face-down" in shown[0][0]
    if twin_tile is not None:
        assert shown[0] == shown[1]


def test_a_player_cannot_state_chance_by_mail() -> None:
    """A player who mails a draw or a roll of their own choosing is refused, and the
    reply names no tile of the pool."""
    from pbem.store import Game as GameRow
    from tests.pbem.fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp, make_moderator
    from tests.pbem.helpers import run, send

    mod, mailbox, smtp = make_moderator(), FakeMailbox(), FakeSmtp()
    game_id = mod.new_game(PLAYERS[:2], NOW, game="signorie", seed="chance-by-mail")
    run(mod, mailbox, smtp)

    def state():  # noqa: ANN202
        with mod.store.read() as s:
            row = s.get(GameRow, game_id)
            assert row is not None
            return mod.load(s, row)[1]

    before = state()
    seat = GAME.to_act(before)[0]
    for line in (f"* draw {before.names[seat]} sforza5", "* roll yellow 6 6, red 6 6"):
        smtp.sent.clear()
        send(mailbox, smtp, PLAYERS[seat].email, f"@v{before.version}\n{line}\n")
        report = run(mod, mailbox, smtp)
        assert [o.status for o in report.outcomes] == ["rejected"]
        reply = smtp.text(smtp.sent[0])
        assert "not applied" in reply  # a chance line is never a player's command
        assert "sforza5" not in reply.replace(line, "")  # only where it quotes the line
    assert state() == before
