"""Issue 14: the situation a status mail states (round N of the rules' rounds, the
phase, the round's minimum work value, the actions and works left this turn), and its
small faults (articles, the private mail's dash, no reply lines once the game is over,
the players' `cards` column explained)."""

from __future__ import annotations

from engine.princes.characters import extra_actions
from engine.princes.definition import GAME
from engine.princes.events import BuildingBuilt, CardBought
from engine.princes.game import replay
from engine.princes.state import State
from engine.princes.views import view_for
from engine.selfplay import play_random
from pbem.outbound import Renderer, status_context
from pbem.princes.describe import describe_event

RENDERER = Renderer()
NAMES = ("anna", "bas", "chris", "dora")


def _mail(state: State, seat: int) -> tuple[str, str]:
    ctx = status_context(view_for(state, seat), game_id="pof-1", changes=[], echo=[],
                         legal=["pass"], deadline=None, tz="UTC")
    return RENDERER.render("status", ctx)


def _states(seed: int, options: dict[str, str] | None = None) -> list[State]:
    events = play_random(GAME, 4, seed, options=options).events
    return [replay(events[:k]) for k in range(1, len(events) + 1)]


def _action_turns(states: list[State]) -> list[tuple[State, int]]:
    return [(s, s.turn) for s in states
            if s.phase == "action" and s.turn is not None and s.pending is None
            and not s.players[s.turn].turn_done]


def test_the_mail_states_the_round_of_the_rules_rounds_and_its_minimum_work_value() -> None:
    states = _states(5)
    seen = set()
    for state in states[::15]:
        if state.round == 0 or state.finished:
            continue
        text, html = _mail(state, 0)
        rules = state.rules
        line = (f"Round {state.round} of {rules.rounds}, {state.phase} phase (")
        minimum = (f"A work needs a work value of at least {rules.min_wv[state.round - 1]} "
                   "this round.")
        assert line in text and line in html
        assert minimum in text and minimum in html
        seen.add(state.round)
    assert len(seen) == states[-1].rules.rounds


def test_the_acting_player_reads_the_actions_and_works_left_by_the_rules_limits() -> None:
    turns = _action_turns(_states(5))
    assert turns
    counts = set()
    for state, seat in turns:
        p, limits = state.players[seat], state.rules.limits
        actions = limits["actions"] - p.actions
        works = min(limits["work"] - p.used.get("work", 0), actions)
        text, html = _mail(state, seat)
        if not actions:
            assert "You have no actions left this turn." in text
            continue
        assert (f"You have {actions} action{'s' * (actions != 1)} left this turn, of which "
                f"at most {works} work{'s' * (works != 1)}.") in text
        assert "left this turn" in html
        other = (seat + 1) % len(state.players)
        assert "left this turn" not in _mail(state, other)[0]
        counts.add((actions, works))
    assert len(counts) > 1  # the counts go down within a turn


def test_the_cardinal_gives_its_holder_the_engines_extra_action() -> None:
    turns = _action_turns(_states(3, {"expansion": "muse-and-princess"}))
    with_cardinal = [(s, seat) for s, seat in turns if extra_actions(s, seat)]
    assert with_cardinal
    for state, seat in with_cardinal:
        left = state.rules.limits["actions"] + 1 - state.players[seat].actions
        assert view_for(state, seat).players[seat].actions_left == left
        assert f"You have {left or 'no'} action" in _mail(state, seat)[0]
    assert any(s.players[seat].actions == s.rules.limits["actions"] for s, seat in with_cardinal)


def test_the_game_over_mail_has_no_reply_instructions() -> None:
    states = _states(5)
    over, playing = states[-1], states[len(states) // 2]
    assert over.finished and not playing.finished
    for part in _mail(over, 0):
        assert "How to reply" not in part and f"@v{over.version}" not in part
    for part in _mail(playing, 0):
        assert "How to reply" in part and f"@v{playing.version}" in part


def test_the_cards_column_is_explained_in_both_parts() -> None:
    text, html = _mail(_states(5)[200], 0)
    assert "(cards: professions + bonus (b) + prestige (p) cards in hand)" in text
    assert "Cards: professions + bonus (b) + prestige (p) cards in hand." in html


def test_the_private_mail_parts_the_name_from_the_version_with_an_em_dash() -> None:
    ctx = {"game_id": "pof-1", "name": "chris", "version": 33, "lines": ["you drew x"],
           "legal": []}
    text, html = RENDERER.render("private", ctx)
    assert "pof-1 — private to chris — v33" in text
    assert "private to chris &mdash; <small" in html
    assert " - v33" not in text


def test_events_take_an_before_a_vowel_sound() -> None:
    assert describe_event(BuildingBuilt(0, "opera", ("a1", "a2"), 3, 3), NAMES, None) == \
        "anna built an opera on a1 a2 for 3 (+3 fame)"
    assert describe_event(BuildingBuilt(0, "university", ("a1",), 3, 3), NAMES, None) \
        .startswith("anna built a university ")
    assert describe_event(CardBought(1, "bonus", 300), NAMES, None) == \
        "bas paid 300 for a bonus card"


def test_the_headline_names_the_round_and_its_phase_in_every_language() -> None:
    from pbem.i18n import speaking
    from pbem.princes import PRESENTER
    from pbem.princes.context import headline

    states = _states(5)
    phases = {}
    for state in states:
        if state.round and not state.finished and state.phase not in phases:
            phases[state.phase] = state
    assert {"auction", "action"} <= set(phases)
    for phase, state in phases.items():
        first = _mail(state, 0)[0].splitlines()[0]
        assert f"Round {state.round} of {state.rules.rounds}, {phase} phase — " in first
    auction = view_for(phases["auction"], 0)
    said = {}
    for lang in ("en", "nl", "el"):
        with speaking(lang, PRESENTER):
            said[lang] = headline(auction, auction.to_act[0])
    rounds = phases["auction"].rules.rounds
    assert said == {"en": f"Round 1 of {rounds}, auction phase — your turn",
                    "nl": f"Ronde 1 van {rounds}, veilingfase — jij bent aan zet",
                    "el": f"Γύρος 1 από {rounds}, φάση: δημοπρασία — σειρά σου"}
