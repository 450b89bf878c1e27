"""The expansion's fields of the first event stay out of a game without it: the events,
canonical JSON and hashes of every other game are what they were."""

from __future__ import annotations

from engine.chain import canonical_json
from engine.princes.definition import GAME
from engine.princes.events import from_dict, to_dict

PLAIN_FIRST = ('{"commitment":"","edition":"alea-2000+pbem-1","engine":"%s","money_open":false,'
               '"players":["anna","bas","chris"],"seeded":true,"type":"GameStarted","v":1,'
               '"variant":"standard"}')


def test_a_game_without_the_expansion_keeps_its_first_event() -> None:
    first = GAME.start(("anna", "bas", "chris"), variant="standard", options={},
                       commitment="", seeded=True)
    assert canonical_json(first) == PLAIN_FIRST % first.engine
    assert from_dict(to_dict(first)) == first
    assert GAME.new_state(first).court is None


def test_the_expansion_and_its_options_are_in_the_first_event() -> None:
    options = {"expansion": "muse-and-princess", "character-raise": "next",
               "merchant-points": "level", "muse-princess": "no"}
    first = GAME.start(("anna", "bas", "chris"), variant="standard", options=options,
                       commitment="", seeded=True)
    data = to_dict(first)
    assert (data["expansions"], data["character_raise"], data["merchant_points"],
            data["muse_princess"]) == ("muse-and-princess", "next", "level", "no")
    assert from_dict(data) == first
    assert dict(GAME.setup(first).options) == {"money": "hidden", **options}
    court = GAME.new_state(first).court
    assert court is not None and court.banker == 600
    assert court.raise_next and court.merchant_ties_behind and not court.muse_princess
