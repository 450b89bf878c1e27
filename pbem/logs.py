"""Game logs: replay one to a checked result, and write one from moves.

Pure: text in, a `ReplayResult` out; no I/O, no clock, no global random.

`replay_log` reads the log up to its first unreadable line, then applies the lines
read in order and stops at the first error: the first bad line, bad notation or an
illegal move, as if it read and applied the lines one by one. It never raises: a bad
log, whatever its bytes, is a result with `ok=False` and an error naming the line and
column (an exception inside would be a bug, and is reported as an error of kind
"internal" rather than raised).

The game is the registered one the `[Game]` tag names (`engine.registry`; no tag: the
default game), played through `engine.match.Match`. Two kinds of log (see docs/logs.md):

* **seeded** (a `Seed` tag): every chance step (a deal, a draw, a roll) is derived
  from the seed (`Match.resolve_chance`). Chance lines are optional; a chance line
  that is there must state what the seed gives.
* **recorded** (no `Seed` tag): a chance line is required wherever chance is due;
  the game checks that what it states could be there.

A log written at a table may have a line that means something else than in the logs
pbem writes (`engine.protocol.TableLog`): the replay reads it the other way only
when the same player's next lines are accepted further that way (`_Replay.reread`).

The replay itself is `pbem.replay`'s (which the compiled build compiles); the names
it defines that callers use are here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.errors import GameError
from engine.match import Match
from engine.protocol import CHANCE, Game, Standing
from notation import Chance, GameLog, LogItem, Move, RoundMarker, format_log, known_tags
from notation.registry import grammar_for

from .replay import (
    KINDS,
    LEGAL_CAP,
    LogError,
    ReplayResult,
    _option_tags,
    game_of,
    legal_alternatives,
    parse_result_tag,
    replay,
    score_unit,
    standing_json,
)


def standing_text(s: Standing) -> str:
    """A player's standing in a summary line: `anna 22 PP (100 fl)`, the score with
    the name of the field that holds it (`score_unit`), then the game's other numbers
    in brackets, each with its name cut to two letters. (Temporary wording: the game's
    presenter will phrase it.)"""
    numbers = list(s.fields.items())
    unit = score_unit(s)
    if numbers and numbers[0][1] == s.score:
        numbers.pop(0)  # the score's own field, named by the unit
    rest = ", ".join(f"{v} {k[:2]}" for k, v in numbers)
    return f"{s.name} {s.score} {unit} ({rest})" if rest else f"{s.name} {s.score} {unit}"


def result_tag(state: Any, game: Game[Any] | None = None) -> str:
    """The Result tag value of a position of `game` (None: the default game): every
    player and score, best first."""
    ranked = sorted((game or game_of(None)).standings(state), key=lambda s: (s.place, s.seat))
    return ", ".join(f"{s.name} {s.score}" for s in ranked)



def _chance_hint(game: Game[Any], state: Any) -> str:
    """What the chance line due now looks like: "expected '* deal anna: ...' naming
    the 4 cards" (its words before the colon, and the number of values after it, as
    the seed-free example of this chance step gives them; what the values are called
    comes from the game's presenter, `pbem.presenter.chance_noun`)."""
    from .presenter import chance_noun
    from .registry import presenter_for

    try:
        noun = chance_noun(presenter_for(game.name))
    except GameError:  # a game with no presenter: the neutral word
        noun = chance_noun(None)
    try:
        example = grammar_for(game.name).format_command(game.resolve_chance(state, ""))
    except (GameError, ValueError):
        example = ""
    if ":" not in example:
        return f"expected a chance line naming {game.chance_wanted(state)}"
    lead, values = example.split(":", 1)
    return f"expected '{lead}: ...' naming the {len(values.split())} {noun}"


def replay_log(text: str, *, file: str = "<log>", upto: int | None = None,
               game: str | None = None) -> ReplayResult:
    """Replay a game log, checking every line, up to its end or its first error.

    `upto`: stop after that line (1-based), for the position at a point of the log
    (the header tags are read whatever `upto` says; 0 gives the position at the start);
    errors after it are not looked for. Never raises: whatever the text, the result
    says what is wrong (an unexpected exception is reported as kind "internal").
    `game`: the game of a log without a [Game] tag (a log whose tag names another game
    is an error).
    """
    return replay(text, file, upto, game, _chance_hint)



# --------------------------------------------------------------------------- writing


def _ordered_tags(tags: Iterable[tuple[str, str]] | Mapping[str, str],
                  players: Sequence[str]) -> list[tuple[str, str]]:
    pairs = list(tags.items()) if isinstance(tags, Mapping) else list(tags)
    if not any(name.lower() == "players" for name, _ in pairs):
        pairs.append(("Players", ", ".join(players)))
    game = next((v for k, v in pairs if k.lower() == "game"), None)
    rank = {name.lower(): i for i, name in enumerate(known_tags(grammar_for(game)))}
    indexed = sorted(enumerate(pairs),
                     key=lambda ip: (rank.get(ip[1][0].lower(), len(rank)), ip[0]))
    return [pair for _, pair in indexed]


def format_game_log(
    players: Sequence[str],
    moves: Iterable[tuple[int, Any]],
    tags: Iterable[tuple[str, str]] | Mapping[str, str] = (),
    include_chance: bool = True,
) -> str:
    """The log text of a game: tags, then one line per move with `round N` markers.

    `moves` are (seat, command) pairs, seat CHANCE for chance steps (written as chance
    lines unless `include_chance` is false: a seeded log may leave them out). `tags`
    are (name, value) pairs; known tags are written in the order of
    notation.KNOWN_TAGS, others after them, and a Players tag is added from
    `players` unless given. The game is the one the Game tag names (else the default
    game), set up with the Variant tag and the option tags. The moves are replayed to
    place the round markers.

    Raises:
        IllegalMoveError: a move is not legal where it stands.
        GameError: the Game tag names no registered game.
    """
    names = tuple(players)
    ordered = _ordered_tags(tags, names)
    given = {name.lower(): value for name, value in ordered}
    game = game_of(given.get("game"))
    options = {o.name: given[o.tag.lower()].strip().lower()
               for o in _option_tags(game).values() if o.tag.lower() in given}
    variant = given.get("variant")
    match = Match.start(game, names, variant=variant.strip().lower() if variant else None,
                        options=options, seeded=False)
    progress = game.progress
    items: list[LogItem] = []
    for seat, cmd in moves:
        round_before = progress(match.state)[0]
        match.play(seat, cmd)
        if seat == CHANCE:
            if include_chance:
                items.append(Chance(0, cmd))
        else:
            items.append(Move(0, names[seat], cmd))
        round_now = progress(match.state)[0]
        if round_now != round_before:
            items.append(RoundMarker(0, round_now))
    return format_log(GameLog(tuple(ordered), tuple(items)), grammar=grammar_for(game.name))


__all__ = [
    "KINDS",
    "LEGAL_CAP",
    "LogError",
    "ReplayResult",
    "format_game_log",
    "game_of",
    "legal_alternatives",
    "parse_result_tag",
    "replay_log",
    "result_tag",
    "score_unit",
    "standing_json",
    "standing_text",
]
