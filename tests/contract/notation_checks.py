"""The contract every registered game's notation keeps, as plain functions of a game
and its grammar (`notation.grammar.Grammar`).

Each `check_*` raises AssertionError naming what broke;
`tests/contract/test_notation_contract.py` runs them over every game that has both
rules and a grammar registered. The commands come from random games
(`checks.play`): every legal command at every step, the undo commands, every chance
line; the garbage is made from them by a seeded generator, so that a failure names
an input that can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.consent import Agree, Refuse, Undo
from engine.errors import NotationError
from engine.match import Match
from engine.protocol import CHANCE
from notation import (
    UNDO_VERBS,
    Chance,
    Comment,
    GameLog,
    Grammar,
    Move,
    format_log,
    parse_log,
    player_vocabulary,
)
from notation.log import NOBODY
from notation.reader import Reader
from pbem.inbound import SHELL_WORDS

from .checks import Playout

UNDO_COMMANDS = (Undo(), Agree(), Refuse())
REFUSED_EVERY = 5  # in a written log, one player move in five is followed by a refused undo


@dataclass(frozen=True, slots=True)
class Commands:
    """What a game said: the player commands (legal ones at every step of some random
    games, and the undo commands) and the chance commands, each once, in a stable
    order; and the players' names."""

    names: tuple[str, ...]
    player: tuple[Any, ...]
    chance: tuple[Any, ...]


def commands_of(playouts: Iterable[Playout]) -> Commands:
    """Every legal command at every step of `playouts` (all of one player count), every
    command played, the undo commands and every chance command."""
    player: dict[Any, None] = dict.fromkeys(UNDO_COMMANDS)
    chance: dict[Any, None] = {}
    names: tuple[str, ...] = ()
    for p in playouts:
        game = p.game
        names = p.final.names
        for state in p.states[:-1]:
            for seat in game.to_act(state):
                if seat != CHANCE:
                    player.update(dict.fromkeys(game.legal_commands(state, seat)))
        for seat, cmd in p.moves:
            (chance if seat == CHANCE else player)[cmd] = None
    return Commands(names, tuple(player), tuple(chance))


# --------------------------------------------------------------------------- shape


def check_grammar_shape(game: Any, grammar: Any) -> None:
    """The grammar is a `Grammar` of the game's name; its verbs hold the undo words,
    taken only in full, and no word the shell reads first (`mail`, `token`, `game`:
    `pbem.inbound.SHELL_WORDS`), nor a word such a word is a prefix of; its tags are
    the game's option tags; the command it gives for `naming` names the player and
    reads back."""
    assert isinstance(grammar, Grammar), f"{grammar!r} lacks members of notation.Grammar"
    assert grammar.name == game.name, (grammar.name, game.name)
    for word in SHELL_WORDS:
        assert word not in grammar.verbs, (
            f"{grammar.name}: {word!r} reads as the verb {grammar.verbs.get(word)!r}, but "
            "the moderator takes such lines out of a mail before its commands are read")
    for verb in UNDO_VERBS:
        assert verb in grammar.verbs.words, f"{grammar.name}: {verb!r} is no verb"
        assert verb in grammar.verbs.whole, f"{grammar.name}: {verb!r} may be abbreviated"
    options = {o.tag for v in game.variants.values() for o in v.options}
    assert set(grammar.tags) == options, (
        f"{grammar.name}: tags {sorted(grammar.tags)}, options {sorted(options)}")
    for name in ("zoë", "o'brien-2"):
        cmd = grammar.naming(name)
        if cmd is None:
            continue
        text = grammar.format_command(cmd)
        assert name in text.split(), f"{grammar.name}: {text!r} does not name {name!r}"
        assert grammar.parse_command(text, players=("anna", name)) == cmd, text


# --------------------------------------------------------------------------- round trips


def _read_back(grammar: Any, cmd: Any, text: str, read: Any) -> Any:
    """`read(text)`; a NotationError is an AssertionError naming the command."""
    try:
        return read(text)
    except NotationError as e:
        raise AssertionError(f"{grammar.name}: {cmd!r} is written {text!r}, which does "
                             f"not read: {e}") from e


def check_commands_round_trip(grammar: Any, commands: Commands) -> None:
    """Every player command is written on one line and reads back to itself, by
    `parse_command`, by the slow path and (when it answers) the fast path of the log
    reader, and in capitals; it holds nothing hidden."""
    names = commands.names
    vocabulary = player_vocabulary(names)
    for cmd in commands.player:
        text = grammar.format_command(cmd)
        assert isinstance(text, str) and text == text.strip() and text, (cmd, text)
        assert "\n" not in text and "#" not in text, f"{grammar.name}: {cmd!r} as {text!r}"
        back = _read_back(grammar, cmd, text, lambda t: grammar.parse_command(t, names))
        assert back == cmd, f"{grammar.name}: {cmd!r} is written {text!r}, read {back!r}"
        upper = _read_back(grammar, cmd, text.upper(),
                           lambda t: grammar.parse_command(t, names))
        assert upper == cmd, f"{grammar.name}: {text.upper()!r} reads {upper!r}"
        slow = _read_back(grammar, cmd, text, lambda t: grammar.read_command(
            Reader(t, 0, len(t), []), vocabulary))
        assert slow == cmd, f"{grammar.name}: the slow path reads {text!r} as {slow!r}"
        fast = grammar.fast_command(text.split(), vocabulary)
        assert fast is None or fast == cmd, (
            f"{grammar.name}: the fast path reads {text!r} as {fast!r}")
        # read so once for every log of the game (`notation.log._shared`)
        shared = grammar.fast_command(text.split(), NOBODY)
        assert shared is None or shared == cmd, (
            f"{grammar.name}: the fast path reads {text!r} with no player known as "
            f"{shared!r}")
        assert not grammar.is_hidden(cmd), f"{grammar.name}: {cmd!r} is hidden"
        assert grammar.hidden_command(text) is None, f"{grammar.name}: {text!r} is hidden"


def check_chance_round_trip(grammar: Any, commands: Commands) -> None:
    """Every chance command is written as a `* ...` line that reads back to itself
    (by `parse_chance`, the slow and the fast path) and is no player command."""
    names = commands.names
    vocabulary = player_vocabulary(names)
    for cmd in commands.chance:
        text = grammar.format_command(cmd)
        assert text.startswith("* ") and "\n" not in text and "#" not in text, (
            f"{grammar.name}: {cmd!r} as {text!r}")
        back = _read_back(grammar, cmd, text, lambda t: grammar.parse_chance(t, names))
        assert back == cmd, f"{grammar.name}: {cmd!r} is written {text!r}, read {back!r}"
        slow = _read_back(grammar, cmd, text, lambda t: grammar.read_chance(t, 0, vocabulary))
        assert slow == cmd, f"{grammar.name}: the slow path reads {text!r} as {slow!r}"
        fast = grammar.fast_chance(text, 0, vocabulary)
        assert fast is None or fast == cmd, (
            f"{grammar.name}: the fast path reads {text!r} as {fast!r}")
        assert not grammar.is_hidden(cmd), f"{grammar.name}: {cmd!r} is hidden"
        try:
            grammar.parse_command(text, players=names)
        except NotationError:
            continue
        raise AssertionError(f"{grammar.name}: the chance line {text!r} is read as a command")


# --------------------------------------------------------------------------- logs


@dataclass(frozen=True, slots=True)
class WrittenLog:
    """A random game as its log: the text, what it holds, and the events it played."""

    text: str
    log: GameLog
    seed: str
    events: tuple[Any, ...]


def write_log(game: Any, grammar: Any, p: Playout) -> WrittenLog:
    """The log of playout `p` with its chance lines, a comment, and now and then a
    refused undo after a move (played through a `Match` to be legal). The game's own
    tags are written in lowercase."""
    rng = random.Random(f"contract-log|{game.name}|{p.seed}")
    setup = game.setup(p.first)
    variant = game.variants[setup.variant]
    names = p.final.names
    match = Match.start(game, names, variant=setup.variant, options=setup.options,
                        seed=p.seed)
    items: list[Any] = [Comment(0, f"a random game of {game.name}")]
    for seat, cmd in p.moves:
        match.play(seat, cmd)
        if seat == CHANCE:
            items.append(Chance(0, cmd))
            continue
        items.append(Move(0, names[seat], cmd))
        if len(names) > 1 and rng.randrange(REFUSED_EVERY) == 0 and \
                Undo() in match.legal(seat):
            other = rng.choice([s for s in range(len(names)) if s != seat])
            for who, answer in ((seat, Undo()), (other, Refuse())):
                assert match.play(who, answer) == [], f"{game.name}: {answer!r} has events"
                items.append(Move(0, names[who], answer))
    tags = [("Game", game.name), ("Variant", setup.variant),
            *((o.tag, setup.options[o.name]) for o in variant.options),
            ("Players", ", ".join(names))]
    log = GameLog(tuple(tags), tuple(items))
    text = format_log(log)
    for tag in grammar.tags:
        text = text.replace(f"[{tag} ", f"[{tag.lower()} ")
    return WrittenLog(text, log, p.seed, tuple(match.events))


def check_log_round_trip(game: Any, grammar: Any, written: WrittenLog) -> None:
    """The log reads back (the grammar picked by its [Game] tag) to the same tags and
    items, and replaying it plays the same game."""
    log = parse_log(written.text)
    assert log.game == grammar.name, f"the log of {grammar.name} is read as {log.game!r}"
    assert log.tags == written.log.tags, f"{grammar.name}: tags {log.tags}"
    assert log.items == written.log.items, f"{grammar.name}: the log reads back otherwise"
    setup = game.setup(written.events[0])
    match = Match.start(game, log.players, variant=log.tag("Variant"), options=setup.options,
                        seed=written.seed)
    names = log.players
    for item in log.items:
        if isinstance(item, Chance):
            match.play(CHANCE, item.command)
        elif isinstance(item, Move):
            match.play(names.index(item.actor), item.command)
    assert tuple(match.events) == written.events, f"{grammar.name}: the log replays otherwise"


# --------------------------------------------------------------------------- garbage


ODD_CHARS = (
    " ", "  ", "\t", ":", "#", "*", "?", "+", "-", "[", "]", '"', "'", ",", ".", "/", "0",
    "9", "é", "ß", "İ", "ǅ", "\u200d", "\u00a0", "\u3000", "１", "²", "\x00", "\x7f",
    "\U0001f600", "\ufeff", "\r",
)
NUMBERS = ("0", "00", "1", "-1", "+1", "3.5", "1e3", "999999999", "1000000000", "0x1f",
           "٣", "12345678901234567890")


@dataclass(frozen=True, slots=True)
class Garbage:
    """A seeded generator of bad input made of a game's own words."""

    rng: random.Random
    tokens: tuple[str, ...]
    valid: tuple[str, ...]  # valid lines to truncate and mutate

    @classmethod
    def of(cls, seed: str, grammar: Any, lines: Sequence[str], names: Sequence[str]) -> Garbage:
        words = {tok for line in lines for tok in line.split()}
        words |= {*grammar.verbs.words, *names, *NUMBERS, *ODD_CHARS[2:12]}
        prefixes = {w[:k] for w in words for k in range(1, min(len(w), 5))}
        return cls(random.Random(seed), tuple(sorted(words | prefixes)), tuple(lines))

    def char(self) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return rng.choice(ODD_CHARS)
        return chr(rng.choice((rng.randrange(32, 127), rng.randrange(0x80, 0x3000))))

    def random_string(self) -> str:
        return "".join(self.char() for _ in range(self.rng.randrange(0, 24)))

    def soup(self) -> str:
        rng = self.rng
        toks = [rng.choice(self.tokens) for _ in range(rng.randrange(1, 7))]
        return "".join(tok + rng.choice((" ", " ", "  ", "\t", "")) for tok in toks)

    def mutated(self, line: str | None = None) -> str:
        rng = self.rng
        text = line if line is not None else rng.choice(self.valid)
        for _ in range(rng.randrange(1, 4)):
            toks = text.split()
            k = rng.randrange(len(text) + 1)
            kind = rng.randrange(9)
            if kind == 0:
                text = text[:k]
            elif kind == 1:
                text = text[:k] + text[k + 1 :]
            elif kind == 2:
                text = text[:k] + self.char() + text[k:]
            elif kind == 3 and toks:
                toks[rng.randrange(len(toks))] = rng.choice(self.tokens)
                text = " ".join(toks)
            elif kind == 4 and toks:
                i = rng.randrange(len(toks))
                toks.insert(i, toks[i])
                text = " ".join(toks)
            elif kind == 5 and toks:
                del toks[rng.randrange(len(toks))]
                text = " ".join(toks)
            elif kind == 6 and len(toks) > 1:
                i, j = rng.sample(range(len(toks)), 2)
                toks[i], toks[j] = toks[j], toks[i]
                text = " ".join(toks)
            elif kind == 7:
                text = text[:k] + " " + rng.choice(self.tokens) + " " + text[k:]
            else:
                text = text.swapcase()
        return text

    def inputs(self, count: int) -> Iterator[str]:
        """`count` bad (or now and then good) lines: random strings, token soups,
        truncated and mutated valid lines, in turn."""
        makers = (self.random_string, self.soup, self.truncated, self.mutated)
        for i in range(count):
            yield makers[i % len(makers)]()

    def truncated(self) -> str:
        line = self.rng.choice(self.valid)
        return line[: self.rng.randrange(len(line) + 1)]


def _notation_error(what: str, text: str, call: Any) -> Any:
    """`call()`, or None if it raises a well-placed NotationError; any other
    exception, or a NotationError without column or expected, is an AssertionError."""
    try:
        return call()
    except NotationError as e:
        assert isinstance(e.column, int) and 1 <= e.column <= len(text) + 1, (
            f"{what}({text!r}): column {e.column} is off the line: {e}")
        assert e.expected and str(e), f"{what}({text!r}): {e!r} says nothing expected"
        return None
    except Exception as e:
        raise AssertionError(f"{what}({text!r}) raises {type(e).__name__}: {e}") from e


def check_garbage_commands(grammar: Any, commands: Commands, seed: str, count: int) -> int:
    """Bad lines are NotationErrors placed on the line, never internal errors: as
    commands, and with '* ' in front as chance lines. A line read as a command is
    written back to a line that reads the same. Returns how many lines were read."""
    names = commands.names
    lines = [grammar.format_command(c) for c in (*commands.player, *commands.chance)]
    garbage = Garbage.of(f"{seed}|{grammar.name}", grammar, lines, names)
    read = 0
    for text in garbage.inputs(count):
        cmd = _notation_error(f"{grammar.name} parse_command", text,
                              lambda text=text: grammar.parse_command(text, players=names))
        if cmd is not None:
            read += 1
            again = grammar.parse_command(grammar.format_command(cmd), players=names)
            assert again == cmd, f"{grammar.name}: {text!r} reads {cmd!r}, written {again!r}"
        chance_text = text if text.lstrip().startswith("*") else "* " + text
        chance = _notation_error(f"{grammar.name} parse_chance", chance_text,
                                 lambda t=chance_text: grammar.parse_chance(t, players=names))
        if chance is not None:
            again = grammar.parse_chance(grammar.format_command(chance), players=names)
            assert again == chance, f"{grammar.name}: {chance_text!r} reads {chance!r}"
    return read


def check_garbage_logs(grammar: Any, written: WrittenLog, seed: str, count: int) -> None:
    """Logs with bad lines (random, soups, mutated moves and tags), cut short or
    shuffled are NotationErrors with a line, never internal errors."""
    lines = written.text.split("\n")
    names = written.log.players
    garbage = Garbage.of(f"{seed}|{grammar.name}|log", grammar, lines, names)
    rng = garbage.rng
    for _ in range(count):
        mutated = list(lines)
        for _ in range(rng.randrange(1, 4)):
            if not mutated:
                break
            i = rng.randrange(len(mutated))
            kind = rng.randrange(6)
            if kind == 0:
                mutated[i] = garbage.mutated(mutated[i])
            elif kind == 1:
                mutated[i] = f"{rng.choice(names)}: {garbage.soup()}"
            elif kind == 2:
                mutated.insert(i, rng.choice((garbage.random_string, garbage.soup,
                                              garbage.mutated))())
            elif kind == 3:
                j = rng.randrange(len(mutated))
                mutated[i], mutated[j] = mutated[j], mutated[i]
            elif kind == 4:
                mutated = mutated[:i]
            else:
                mutated.insert(i, mutated[i])
        text = "\n".join(mutated)
        try:
            parse_log(text)
        except NotationError as e:
            assert e.line is not None, f"{grammar.name}: {e!r} names no line"
        except Exception as e:
            raise AssertionError(f"{grammar.name}: parse_log raises {type(e).__name__}: "
                                 f"{e} on\n{text}") from e
