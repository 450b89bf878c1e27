"""The exported game log: the moderator's record as a log anyone can check offline.

`annotated_log` writes a game's commands in the notation (docs/notation.md) with
the header tags `pbem verify` needs (docs/trust.md) and, after every move and
chance line, the head of the event hash chain once that line's events are in:

    anna: bid 300  # v37 sha256:<64 hex digits>

The hashes are the store's own (`pbem_event.hash`), not recomputed here: the
verifier recomputes them from the commands and the revealed seed and compares.
Comments are ignored by the notation reader, so the export is also a plain log for
`pbem replay`. Undone lines stay in the log, followed by the `undo` and `agree`
lines that took them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.chain import head, seed_commitment
from engine.match import Match
from engine.protocol import CHANCE, Game
from engine.registry import get_game as game_named
from notation import Chance, Move, RoundMarker, format_item
from notation.grammar import Grammar
from notation.log import format_tag, known_tags
from notation.registry import grammar_for

from .store import as_utc, event_rows, get_game, load_events, moves_of, seats_of

if TYPE_CHECKING:
    from .moderator import Moderator



def trust_tags(started: Any, *, commitment: str, seed: str | None, salt: str | None,
               head_version: int, head_hash: str,
               game: Game[Any] | None = None) -> list[tuple[str, str]]:
    """The tags that stamp and seal an exported log: the rules edition and engine
    version the game was judged by, the game's options (each as its tag), the seed
    commitment, the seed and salt (once revealed) and the chain head at the end.
    `game`: the game of the first event `started` (None: the default game)."""
    game = game or game_named()
    setup = game.setup(started)
    variant = game.variants.get(setup.variant)
    options = variant.options if variant is not None else ()
    tags = [("Rules", setup.edition), ("Engine", setup.engine),
            *((o.tag, value) for o in options
              if (value := setup.options.get(o.name, o.default)) != o.default or not o.quiet),
            ("Players", ", ".join(setup.players)),
            ("SeedCommit", f"sha256:{setup.commitment or commitment}")]
    if seed is not None and salt is not None:
        tags += [("Seed", seed), ("Salt", salt)]
    tags.append(("Head", head(head_version, head_hash, full=True)))
    return tags


def annotated_log(started: Any, moves: Sequence[tuple[int, Any]],
                  hashes: Sequence[str], tags: Sequence[tuple[str, str]], *,
                  include_chance: bool = True, annotate: bool = True,
                  public: bool = False, game: Game[Any] | None = None) -> str:
    """The log text: tags (in the order of `notation.log.known_tags`, others after), then
    one line per command with `round N` markers, each move and chance line annotated
    with the chain head after its events (`hashes[v - 1]` is the stored hash after `v`
    events).

    `moves` are (seat, command) pairs, CHANCE for deals and draws (left out unless
    `include_chance`: their events then count towards the next line's head).
    `public`: every hidden value written as `?` (`Grammar.public`). `game`: the game of
    the first event `started` (None: the default game).

    Raises:
        IllegalMoveError: a command is not legal where it stands (a corrupt store).
    """
    game = game or game_named()
    grammar = grammar_for(game.name)
    rank = {name: i for i, name in enumerate(known_tags(grammar))}
    ordered = sorted(tags, key=lambda t: rank.get(t[0], len(rank)))
    lines = [format_tag(name, value) for name, value in ordered]
    match = Match.from_events(game, [started])
    names = match.names
    progress = game.progress
    first = True
    marked = 0  # an undo may go back into the round before: each round is marked once
    for seat, cmd in moves:
        match.play(seat, cmd)
        state = match.state
        if seat != CHANCE or include_chance:
            if first:
                lines.append("")
                first = False
            shown = grammar.public(cmd) if public else cmd
            if seat == CHANCE:
                text = format_item(Chance(0, shown), grammar)
            else:
                text = format_item(Move(0, names[seat], shown), grammar)
            if annotate:
                text += f"  # {head(state.version, hashes[state.version - 1], full=True)}"
            lines.append(text)
        round_ = progress(state)[0]
        if round_ > marked:
            marked = round_
            lines += ["", format_item(RoundMarker(0, round_), grammar)]
            first = False
    return "\n".join(lines) + "\n"


def export_game(mod: Moderator, game_id: str, *, full: bool = False) -> str:
    """The exported log of a stored game (what `pbem export` prints).

    Once the game is over: everything, with the seed, the salt and the Result tag,
    for `pbem verify`. While it runs: the public log, every card only one player saw
    (cards dealt, drawn, kept or chosen) written as `?`; `pbem replay`
    checks it up to its first `?` line. With `full`, a running game's log with every
    card (the referee's view).

    Raises:
        UnknownGameError: no such game.
    """
    from .logs import result_tag

    with mod.store.read() as s:
        g = get_game(s, game_id)
        names = [x.name for x in seats_of(s, game_id)]
        rows = moves_of(s, game_id)
        hashes = [r.hash for r in event_rows(s, game_id)]
        started = load_events(s, game_id)[0]
        _, state = mod.load(s, g)
        created = as_utc(g.created)
    game = game_named(g.game)
    grammar: Grammar = grammar_for(game.name)
    moves: list[tuple[int, Any]] = []
    for r in rows:
        cmd = grammar.parse_chance(r.command, names) if r.seat == CHANCE \
            else grammar.parse_command(r.command, players=names)
        moves.append((r.seat, cmd))
    tags: list[tuple[str, str]] = [("Game", game.name), ("Variant", g.variant),
                                   ("Event", f"pbem {g.id}")]
    if created is not None:
        tags.append(("Date", created.strftime("%Y-%m-%d")))
    if g.finished:
        tags.append(("Result", result_tag(state, game)))
    tags += trust_tags(started, commitment=seed_commitment(g.seed, g.salt),
                       seed=g.seed if g.finished else None,
                       salt=g.salt if g.finished else None,
                       head_version=len(hashes), head_hash=hashes[-1], game=game)
    return annotated_log(started, moves, hashes, tags, public=not (g.finished or full),
                         game=game)
