"""engine.undo over whole random games, and the sealed hash chain (engine.chain)."""

from __future__ import annotations

import random

import pytest

from engine.chain import GENESIS, chain, chained_json, link, seed_commitment
from engine.princes.commands import Agree, Command, Refuse, Undo
from engine.princes.definition import GAME
from engine.princes.events import CardsDrawn, Event, ProfessionsDealt, Reverted
from engine.princes.game import new_state, replay, seeded_chance, start_game, to_act
from engine.princes.legal import legal_commands
from engine.princes.state import CHANCE, State, replace
from engine.undo import START, Tracker, legal_undo_commands, play


def _random_game_with_undos(seed: int, n: int = 4) -> tuple[State, list[Event], int]:
    """A random game where the last mover now and then asks to take a command back."""
    rng = random.Random(seed)
    started = start_game(("anna", "bas", "chris", "dirk", "eva")[:n])
    state, tracker = new_state(started), START
    events: list[Event] = [started]
    undos = 0

    def step(seat: int, cmd: Command) -> None:
        nonlocal state, tracker, undos
        before = state
        state, new, tracker = play(GAME, state, tracker, seat, cmd)
        events.extend(new)
        if any(isinstance(e, Reverted) for e in new):
            undos += 1
        assert state.version == len(events)
        assert replay(events) == state, (seat, cmd)
        if isinstance(cmd, Undo | Agree | Refuse) and not new:
            assert state is before  # asking, agreeing or refusing changes nothing yet

    while not state.finished:
        last = tracker.last
        if last is not None and rng.random() < 0.15 and \
                Undo() in legal_undo_commands(GAME, state, tracker, last.seat):
            back_to = last.before
            step(last.seat, Undo())
            others = [s for s in range(n) if s != last.seat]
            rng.shuffle(others)
            for other in others:
                step(other, Refuse() if rng.random() < 0.1 else Agree())
                if tracker.request is None:
                    break
            if tracker.request is None and isinstance(events[-1], Reverted):
                assert state == replace(back_to, version=state.version)
            continue
        seat = rng.choice(to_act(state))
        if seat == CHANCE:
            step(CHANCE, seeded_chance(state, f"undo-{seed}"))
        else:
            step(seat, rng.choice(legal_commands(state, seat, free=False)))
    return state, events, undos


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_undos_replay_from_their_events(seed: int) -> None:
    state, events, undos = _random_game_with_undos(seed, n=3 + seed % 3)
    assert state.finished and undos >= 1
    assert replay(events) == state


def test_no_undo_after_the_end() -> None:
    state, events, _ = _random_game_with_undos(1)
    assert legal_undo_commands(GAME, state, Tracker(), 0) == []


def test_seed_commitment_is_stamped_into_the_first_event() -> None:
    started = start_game(("anna", "bas", "chris"), commitment=seed_commitment("s", "salt"))
    assert started.commitment == seed_commitment("s", "salt") != seed_commitment("s", "salt2")
    assert started.edition and started.engine


def test_private_events_are_sealed_by_the_key() -> None:
    """The head quoted in a mail after a deal must not give the cards away: without
    the seal anyone could try every possible deal against it."""
    state = new_state(start_game(("anna", "bas", "chris")))
    deal = seeded_chance(state, "seed")
    event = ProfessionsDealt(0, deal.cards)
    sealed = chained_json(GENESIS, event, "seed")
    assert "seal" in sealed and not any(card in sealed for card in deal.cards)
    assert all(card in chained_json(GENESIS, event) for card in deal.cards)  # unkeyed
    # Trying deals against the quoted hash finds the real one only without a seal.
    target_open, target_sealed = link(GENESIS, event), link(GENESIS, event, "seed")
    candidates = [ProfessionsDealt(0, deal.cards[:3] + (c,))
                  for c in ("poet", "doctor", "jurist", deal.cards[3])]
    assert any(link(GENESIS, c) == target_open for c in candidates)
    assert not any(link(GENESIS, c, "guess") == target_sealed for c in candidates)
    assert link(GENESIS, event, "seed") == link(GENESIS, event, "seed")
    # A sealed chain still binds the cards: another card gives another hash.
    other = CardsDrawn(0, "bonus", ("per-park",))
    assert link(GENESIS, other, "seed") != link(GENESIS, CardsDrawn(0, "bonus", ("per-lake",)),
                                                 "seed")
    assert chain([event], key="seed") == [target_sealed]
