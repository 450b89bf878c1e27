"""Signorie's rules data: every table says where its values come from, and the loader
refuses data the engine could not play."""

from __future__ import annotations

import copy
import tomllib
from importlib.resources import files
from typing import Any

import pytest

from engine.signorie.commands import COLOURS, ROWS
from engine.signorie.ruleset import STATUSES, load, rules_from


def data() -> dict[str, Any]:
    text = files("engine.signorie").joinpath("data/signorie.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_every_table_is_marked_sourced_or_provisional_with_its_source() -> None:
    d = data()
    tables = [name for name, t in d.items() if isinstance(t, dict)]
    assert tables and set(tables) == set(load().tables)
    for name in tables:
        assert d[name]["status"] in STATUSES, name
        assert d[name]["source"].strip(), name
    assert "helpers" in load().provisional and "columns" not in load().provisional


def test_the_data_fits_the_game() -> None:
    r = load()
    assert [r.columns[c].cost for c in COLOURS] == sorted(r.columns[c].cost for c in COLOURS)
    assert r.columns["red"].signoria == "marry" and r.columns["turquoise"].cost == 5
    assert len(r.alliance_tiles) == len(r.families) * len(r.family_tiles)
    assert all(2 <= p <= 5 for p in r.family_tiles)
    for plan in r.plans.values():
        assert sorted(plan["marriage"]) == sorted(r.families)
        for row in ROWS[:3]:
            assert len(plan[row]) == 4 and len(set(plan[row])) == 3
    assert r.career_points == tuple(sorted(r.career_points)) and r.career_points[-1] == 13
    assert r.rank(r.career_points.index(9) + 1) == 4  # [NL] p.9: political 9 is rank 4
    assert len(r.bonus_tiles) == 9 and len(r.points_tiles) == 5 and len(r.tasks) == 10


def test_malformed_data_is_refused() -> None:
    d = data()
    bad = copy.deepcopy(d)
    bad["helpers"]["grey"][0]["effect"] = "juggling"
    with pytest.raises(ValueError, match="unknown effect 'juggling'"):
        rules_from(bad)
    bad = copy.deepcopy(d)
    bad["plans"]["red"]["political"][0] = "borgia"
    with pytest.raises(ValueError, match="unknown family 'borgia'"):
        rules_from(bad)
    bad = copy.deepcopy(d)
    bad["sons"]["status"] = "guessed"
    with pytest.raises(ValueError, match="status is one of sourced, provisional"):
        rules_from(bad)
    assert rules_from(d) == load()
