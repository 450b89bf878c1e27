"""`undo`, `agree` and `refuse` lines in game logs: `pbem replay` and `format_game_log`."""

from __future__ import annotations

from engine.princes.commands import Agree, Command, Keep, Open, Pass, Refuse, TakeProfession, Undo
from engine.princes.definition import GAME
from engine.princes.events import Reverted
from engine.princes.game import new_state, seeded_chance, start_game, to_act
from engine.princes.state import CHANCE
from engine.undo import START
from engine.undo import play as undo_play
from pbem.logs import format_game_log, replay_log

PLAYERS = ("anna", "bas", "chris")
SEED = "undo-log"


def _moves(*script: tuple[int, Command]) -> list[tuple[int, Command]]:
    """The deals, every keep, then `script`, with the seeded chance it causes."""
    state, tracker = new_state(start_game(PLAYERS)), START
    moves: list[tuple[int, Command]] = []

    def play(seat: int, cmd: Command) -> None:
        nonlocal state, tracker
        state, _, tracker = undo_play(GAME, state, tracker, seat, cmd)
        moves.append((seat, cmd))
        while to_act(state) == (CHANCE,):
            play(CHANCE, seeded_chance(state, SEED))

    play(CHANCE, seeded_chance(state, SEED))
    for seat in range(3):
        play(seat, Keep(state.players[seat].dealt[:3]))
    for seat, cmd in script:
        play(seat, cmd)
    return moves


def test_a_log_with_an_undo_replays() -> None:
    moves = _moves((0, Open("jester")), (0, Undo()), (1, Refuse()), (0, Undo()),
                   (1, Agree()), (2, Agree()), (0, Open("builder")), (1, Pass()))
    text = format_game_log(PLAYERS, moves, [("Seed", SEED)], include_chance=False)
    assert "anna: open jester\nanna: undo\nbas: refuse\nanna: undo\nbas: agree\n" in text
    r = replay_log(text)
    assert r.ok, r.error
    assert r.state is not None and r.state.lot == "builder"
    assert [e for e in r.events if isinstance(e, Reverted)] == [Reverted(0, 8)]
    # Up to the last agreement the jester is still on the block.
    line = text.splitlines().index("chris: agree") + 1
    assert replay_log(text, upto=line - 1).state.lot == "jester"  # type: ignore[union-attr]
    assert replay_log(text, upto=line).state.lot is None  # type: ignore[union-attr]


def test_an_undo_past_an_implicit_draw_is_refused_on_its_line() -> None:
    """In a seeded log the draw after `profession` has no line of its own: the undo
    still may not cross it."""
    from engine.princes.game import apply

    moves = _moves()
    state = new_state(start_game(PLAYERS))
    for seat, cmd in moves:
        state, _ = apply(state, seat, cmd)
    # Pass the auction phase quickly: each player declines to name.
    script: list[tuple[int, Command]] = []
    while state.phase == "auction":
        seat = to_act(state)[0]
        script.append((seat, Pass()))
        state, _ = apply(state, seat, Pass())
    actor = to_act(state)[0]
    moves = _moves(*script, (actor, TakeProfession()))
    text = format_game_log(PLAYERS, moves, [("Seed", SEED)], include_chance=False)
    text += f"{PLAYERS[actor]}: undo\n"
    r = replay_log(text)
    assert not r.ok and r.error is not None
    assert r.error.line == len(text.splitlines()) and r.error.rule == "undo-barrier"


def test_agree_without_a_request_is_an_illegal_line() -> None:
    text = format_game_log(PLAYERS, _moves(), [("Seed", SEED)], include_chance=False)
    r = replay_log(text + "bas: agree\n")
    assert not r.ok and r.error is not None and r.error.rule == "undo-none"
    assert r.error.kind == "illegal" and r.error.line == len(text.splitlines()) + 1
