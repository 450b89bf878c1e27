"""replay_log on whole logs: the shared example, self-played games, tags and chance lines."""

from __future__ import annotations

from typing import Any

import pytest

from engine.princes.game import replay
from notation import Chance, RoundMarker, parse_log
from pbem.logs import (
    LEGAL_CAP,
    format_game_log,
    parse_result_tag,
    replay_log,
    result_tag,
)

from .helpers import playout, recorded_log, same_position, seeded_log

GAMES = [(n, seed) for n in (3, 4, 5) for seed in (1, 2)]


def test_example_replays_to_expected_standings(example_text: str,
                                               example_expected: dict[str, Any]) -> None:
    r = replay_log(example_text, file="princes-recorded-4p.log")
    assert r.ok, r.error
    assert r.error is None
    assert r.finished is example_expected["finished"]
    assert r.winners == (example_expected["winner"],)
    got = {s.name: dict(s.fields) for s in r.players}
    assert got == example_expected["players"]
    assert not r.seeded
    assert r.round == 7
    assert r.lines == len(example_text.splitlines())
    assert r.state is not None and replay(r.events) == r.state
    js = r.to_json()
    assert js["winner"] == "dirk" and js["error"] is None and js["ok"] is True
    assert {"name": "dirk", "pp": 22, "florins": 100, "score": 22} in js["players"]


@pytest.mark.parametrize("n,seed", GAMES)
def test_selfplay_seeded_without_chance_lines(n: int, seed: int) -> None:
    p = playout(n, seed)
    text = seeded_log(p)
    assert "* deal" not in text and "* draw" not in text
    r = replay_log(text)
    assert r.ok, r.error
    assert r.seeded and r.finished
    assert same_position(r.state, p.state)
    assert r.winners == tuple(p.players[w] for w in p.state.winners)


@pytest.mark.parametrize("n,seed", GAMES)
def test_selfplay_recorded_with_chance_lines(n: int, seed: int) -> None:
    p = playout(n, seed)
    text = recorded_log(p)
    assert "[Seed" not in text and "* deal" in text
    r = replay_log(text)
    assert r.ok, r.error
    assert not r.seeded and r.finished
    assert same_position(r.state, p.state)


@pytest.mark.parametrize("n,seed", GAMES[:3])
def test_selfplay_seeded_with_chance_lines(n: int, seed: int) -> None:
    p = playout(n, seed)
    r = replay_log(seeded_log(p, chance=True))
    assert r.ok, r.error
    assert same_position(r.state, p.state)


def test_seeded_log_with_some_chance_lines() -> None:
    p = playout(4, 1)
    lines = seeded_log(p, chance=True).split("\n")
    chance = [i for i, line in enumerate(lines) if line.startswith("*")]
    kept = set(chance[::2])  # every other chance line left out
    text = "\n".join(line for i, line in enumerate(lines) if i not in chance or i in kept)
    r = replay_log(text)
    assert r.ok, r.error
    assert same_position(r.state, p.state)


def test_written_log_has_round_markers_and_reads_back() -> None:
    p = playout(3, 1)
    text = recorded_log(p)
    log = parse_log(text)
    assert [i.number for i in log.items if isinstance(i, RoundMarker)] == list(range(1, 8))
    assert sum(isinstance(i, Chance) for i in log.items) == \
        sum(1 for seat, _ in p.moves if seat == -1)
    assert log.tag("Players") == ", ".join(p.players)
    assert text.index("[Game") < text.index("[Variant") < text.index("[Players") \
        < text.index("[Result")


def test_format_game_log_tag_order_and_mapping() -> None:
    p = playout(3, 1)
    text = format_game_log(p.players, p.moves[:10],
                           {"Date": "2026-11-30", "Custom": "x", "Seed": p.seed,
                            "Game": "princes-of-florence"}, include_chance=False)
    head = [line for line in text.split("\n") if line.startswith("[")]
    assert [h.split()[0] for h in head] == ["[Game", "[Players", "[Seed", "[Date", "[Custom"]
    assert replay_log(text).ok


# -- stopping mid-game ----------------------------------------------------------------


def test_any_prefix_of_whole_lines_is_valid() -> None:
    p = playout(4, 2)
    for text in (recorded_log(p, result=False), seeded_log(p, result=True)):
        lines = text.split("\n")
        for k in range(0, len(lines), 5):
            r = replay_log("\n".join(lines[:k]))
            if k < 4 and "[Players" not in "\n".join(lines[:k]):
                assert not r.ok
                continue
            assert r.ok, (k, r.error)
            assert not r.finished or k >= len(lines) - 2


def test_upto_equals_replaying_the_prefix() -> None:
    p = playout(3, 2)
    for text in (recorded_log(p), seeded_log(p), seeded_log(p, chance=True)):
        lines = text.split("\n")
        for k in (0, 5, 17, 60, 111, len(lines)):
            cut = replay_log(text, upto=k)
            prefix = replay_log("\n".join(lines[:k]) if k > 4 else "\n".join(lines[:4]))
            assert cut.ok, cut.error
            assert cut.state == prefix.state, k


def test_upto_ignores_errors_after_it(example_text: str) -> None:
    lines = example_text.split("\n")
    lines[100] = "anna: bid 999"
    text = "\n".join(lines)
    assert not replay_log(text).ok
    assert replay_log(text, upto=100).ok
    assert replay_log(text, upto=101).error.line == 101  # type: ignore[union-attr]


def test_seeded_log_with_tags_only_is_dealt() -> None:
    p = playout(3, 1)
    text = seeded_log(p).split("\n\n")[0] + "\n"
    r = replay_log(text)
    assert r.ok and r.state is not None
    assert r.state.phase == "keep"
    assert all(len(pl.dealt) == 4 for pl in r.state.players)


# -- tags -----------------------------------------------------------------------------

BODY = "* deal anna: alchemist composer theologian sculptor\n"


@pytest.mark.parametrize("header,line,rule,kind", [
    ('[Variant "standard"]\n[Players "anna, bas"]\n', 2, "players", "illegal"),
    ('[Players "a, b, c, d, e, f"]\n', 1, "players", "illegal"),
    ('[Game "chess"]\n[Players "anna, bas, chris"]\n', 1, "game", "illegal"),
    ('[Players "anna, bas, chris"]\n[Variant "solo"]\n', 2, "variant", "illegal"),
    ('[Players "anna, bas, chris"]\n[Seed ""]\n', 2, "seed", "illegal"),
    ('[Players "anna, bas, chris"]\n[Result "anna sixty"]\n', 2, None, "syntax"),
    ('[Players "anna, bas, chris"]\n[Result "anna 3, bas 4"]\n', 2, "result", "illegal"),
    ('[Players "anna, bas, chris"]\n[Result "anna 3, bas 4, chris 1, dirk 2"]\n', 2, "result",
     "illegal"),
    ('[Game "princes-of-florence"]\n', 2, None, "syntax"),
    ("", 1, None, "syntax"),
])
def test_bad_tags(header: str, line: int, rule: str | None, kind: str) -> None:
    r = replay_log(header + BODY)
    assert not r.ok and r.error is not None
    assert (r.error.line, r.error.kind, r.error.rule) == (line, kind, rule), r.error


def test_tags_are_case_insensitive_in_value() -> None:
    r = replay_log('[Game "Princes-of-Florence"]\n[Variant "Standard"]\n'
                   '[Players "Anna, Bas, Chris"]\n' + BODY)
    assert r.ok, r.error
    assert [s.name for s in r.players] == ["anna", "bas", "chris"]


def test_result_tag_checked_when_finished() -> None:
    p = playout(4, 1)
    good = seeded_log(p)
    assert replay_log(good).ok
    value = result_tag(p.state)
    name, fame = value.split(",")[0].split()
    bad = good.replace(f'[Result "{value}"]',
                       f'[Result "{value.replace(f"{name} {fame}", f"{name} {int(fame) + 1}")}"]')
    r = replay_log(bad)
    assert not r.ok and r.error is not None
    assert r.error.rule == "result" and r.error.line == 5
    assert r.finished  # the game itself is complete
    # A Result tag on a log that stops mid-game is not checked.
    cut = "\n".join(bad.split("\n")[:40])
    assert replay_log(cut).ok


def test_parse_result_tag() -> None:
    assert parse_result_tag("anna 66, Dirk 61 PP,bas 58") == {"anna": 66, "dirk": 61, "bas": 58}
    assert parse_result_tag("anna 66 VP, bas 5 points") == {"anna": 66, "bas": 5}
    for bad in ("anna", "anna 6 6", "anna 6 florins", "anna 6, anna 7", "anna -1", ",",
                "anna 1234567"):
        with pytest.raises(ValueError):
            parse_result_tag(bad)


# -- chance lines ---------------------------------------------------------------------


def test_recorded_move_while_a_draw_is_due(example_text: str) -> None:
    lines = example_text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("* draw chris prestige"))
    del lines[at]
    r = replay_log("\n".join(lines))
    assert r.error is not None
    assert (r.error.line, r.error.kind, r.error.rule) == (at + 1, "illegal", "chance-missing")
    assert "* draw chris prestige: ..." in r.error.message
    assert r.to_act == ("chance",)


def test_recorded_sell_before_the_draw_line(example_text: str) -> None:
    # Selling fame is allowed at any time, also while a draw is due (docs/rules.md):
    # a recorded log may have the sale before the draw line.
    lines = example_text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("* draw chris prestige"))
    lines.insert(at, "anna: sell 1")
    r = replay_log("\n".join(lines))
    assert r.ok, r.error
    kinds = [type(e).__name__ for e in r.events]
    sold = kinds.index("FameSold")
    assert kinds[sold + 1] == "CardsDrawn"
    assert (r.events[sold].seat, r.events[sold].steps) == (0, 1)
    assert r.finished


def test_recorded_move_refused_before_the_draw_line(example_text: str) -> None:
    # Only what the game allows before a due draw goes before its line: a sale of more
    # fame than anna has, or a bid, is still a missing chance line.
    lines = example_text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("* draw chris prestige"))
    for move in ("anna: sell 90", "bas: open jester"):
        r = replay_log("\n".join([*lines[:at], move, *lines[at:]]))
        assert r.error is not None
        assert (r.error.line, r.error.rule) == (at + 1, "chance-missing"), move


def test_recorded_deals_in_any_order(example_text: str,
                                     example_expected: dict[str, Any]) -> None:
    lines = example_text.split("\n")
    deals = [i for i, line in enumerate(lines) if line.startswith("* deal")]
    order = [lines[i] for i in deals]
    for i, line in zip(deals, [order[2], order[0], order[3], order[1]], strict=True):
        lines[i] = line  # chris, anna, dirk, bas
    r = replay_log("\n".join(lines))
    assert r.ok, r.error
    dealt = [e.seat for e in r.events if type(e).__name__ == "ProfessionsDealt"]
    assert dealt == [2, 0, 3, 1]
    assert {s.name: dict(s.fields) for s in r.players} == example_expected["players"]
    twice = [*lines[:deals[1]], lines[deals[0]], *lines[deals[1]:]]
    r = replay_log("\n".join(twice))
    assert r.error is not None and r.error.rule == "chance"
    assert r.error.line == deals[1] + 1 and "anna's" in r.error.message


def test_recorded_deal_required(example_text: str) -> None:
    lines = [line for line in example_text.split("\n") if not line.startswith("* deal")]
    r = replay_log("\n".join(lines))
    assert r.error is not None
    assert r.error.line == 4 and r.error.rule == "chance-missing"
    assert "* deal anna: ..." in r.error.message


def test_recorded_draw_of_impossible_card(example_text: str) -> None:
    # chris already holds 'fewest-empty' ... a later prestige draw may not name it.
    text = example_text.replace("* draw dirk bonus: per-building-size",
                                "* draw dirk bonus: per-prestige")
    r = replay_log(text)
    assert r.error is not None and r.error.kind == "illegal"
    assert r.error.rule and r.error.rule.startswith("chance")
    assert text.split("\n")[r.error.line - 1].startswith("* draw dirk bonus")


def test_seeded_chance_line_must_match_the_seed() -> None:
    p = playout(4, 2)
    text = seeded_log(p, chance=True)
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("* draw"))
    head, cards = lines[at].split(":")
    deck = head.split()[-1]
    from notation.princes import DECK_CARDS

    names = cards.split()
    other = next(c for c in DECK_CARDS[deck].words if c not in names)
    lines[at] = head + ": " + " ".join([other, *names[1:]])
    r = replay_log("\n".join(lines))
    assert r.error is not None
    assert (r.error.line, r.error.rule) == (at + 1, "chance-seed")
    assert repr(other) in r.error.message
    assert r.error.legal and r.error.legal[0].startswith(head)
    # The same cards in another order are fine (compared as sets).
    lines[at] = head + ": " + " ".join(reversed(names))
    assert replay_log("\n".join(lines)).ok


def test_chance_line_when_nothing_is_due(example_text: str) -> None:
    lines = example_text.split("\n")
    lines.insert(20, "* draw anna bonus: per-builder")
    r = replay_log("\n".join(lines))
    assert r.error is not None and r.error.line == 21 and r.error.rule == "chance"


# -- errors ---------------------------------------------------------------------------


def line_of(text: str, line: str) -> int:
    """The 1-based number of the first line equal to `line`."""
    return text.split("\n").index(line) + 1


def test_illegal_move_names_rule_and_alternatives(example_text: str) -> None:
    text = example_text.replace("chris: bid 300\n", "chris: bid 350\n", 1)
    r = replay_log(text, file="x.log")
    e = r.error
    assert e is not None
    assert (e.line, e.column, e.kind, e.rule) == \
        (line_of(text, "chris: bid 350"), 8, "illegal", "auction-raise")
    assert e.legal == ("bid 300", "pass") and e.legal_more == 0
    assert r.round == 1 and r.state is not None and r.state.version > 0


def test_not_your_turn(example_text: str) -> None:
    text = example_text.replace("chris: bid 300\n", "dirk: bid 300\n", 1)
    e = replay_log(text).error
    assert e is not None and e.rule == "turn" and "chris" in e.message


def test_legal_alternatives_are_capped() -> None:
    p = playout(4, 1)
    lines = seeded_log(p).split("\n")
    # The first build of the game: many placements are legal there.
    at = next(i for i, line in enumerate(lines) if ": build " in line)
    lines[at] = lines[at].split(":")[0] + ": build university a1 a2 a3 a4 a5 a6 a7"
    e = replay_log("\n".join(lines)).error
    assert e is not None and e.kind == "illegal"
    assert len(e.legal) == LEGAL_CAP and e.legal_more > 0
    assert "done" not in e.legal  # it comes last, among the rest


def test_syntax_and_ambiguous_errors(example_text: str) -> None:
    at = line_of(example_text, "bas: open builder")
    r = replay_log(example_text.replace("bas: open builder", "bas: open builderz"))
    assert r.error is not None
    assert (r.error.line, r.error.column, r.error.kind) == (at, 11, "syntax")
    r = replay_log(example_text.replace("bas: choose per-prestige", "bas: choose per-bui"))
    assert r.error is not None and r.error.kind == "ambiguous"
    assert r.error.line == line_of(example_text, "bas: choose per-prestige")
    assert "per-building" in r.error.candidates
    r = replay_log(example_text.replace("bas: open builder", "bas: o builder"))
    assert r.error is not None and r.error.line == at


def test_round_markers_checked(example_text: str) -> None:
    r = replay_log(example_text.replace("round 2\n", "round 3\n"))
    assert r.error is not None and r.error.rule == "round"
    assert r.error.line == line_of(example_text, "round 2")
    assert r.error.column == 7
    lines = example_text.split("\n")
    lines.insert(12, "round 1")
    r = replay_log("\n".join(lines))
    assert r.error is not None and r.error.rule == "round" and r.error.line == 13
    assert "already" in r.error.message
    lines = example_text.split("\n")
    lines.insert(5, "round 1")
    r = replay_log("\n".join(lines))
    assert r.error is not None and r.error.line == 6


def test_moves_after_the_end(example_text: str) -> None:
    r = replay_log(example_text + "anna: pass\n")
    assert r.error is not None and r.error.rule == "over" and r.finished


def test_crlf_bom_and_comments(example_text: str) -> None:
    text = "\ufeff" + example_text.replace("\n", "  # note\r\n")
    r = replay_log(text)
    assert r.ok, r.error
    assert r.winners == ("dirk",)
