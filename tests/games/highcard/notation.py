"""The notation of high-card: its commands as text and back (`notation.grammar.Grammar`).

Words are case-insensitive; a command word may be a unique prefix of 3+ letters,
except `pass` and the undo words, which are written in full:

    bid N        pass        play CARD        undo        agree        refuse
    * deal PLAYER: CARD...   * reveal CARD                       (chance lines)

Cards are their values, `1` to `15`. A public log writes the cards only their player
saw as `?`: `anna: play ?`, `* deal anna: ? ? ?`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.consent import Agree, Refuse, Undo
from notation.limits import MAX_DIGITS
from notation.reader import END_OF_LINE, Reader
from notation.words import UNDO_VERBS, Vocabulary, player_vocabulary, quote

from .commands import Bid, Deal, Pass, Play, Reveal
from .game import PURSE
from .state import Rules

NAME = "high-card"
TAGS: tuple[str, ...] = (PURSE.tag,)
HIDDEN = "?"
"""A card only its player saw, in a public log."""

VERBS = Vocabulary("command", ("bid", "pass", "play", *UNDO_VERBS),
                   whole=("pass", *UNDO_VERBS))
CARDS = Vocabulary("card", Rules().cards, wanted="a card like '7' (1 to 15)")
CHANCE_WORDS = Vocabulary("chance event", ("deal", "reveal"))

PlayerCommand = Bid | Pass | Play | Undo | Agree | Refuse

_SIMPLE: dict[str, PlayerCommand] = {
    "pass": Pass(), "undo": Undo(), "agree": Agree(), "refuse": Refuse(),
}


def _strip_comment(text: str) -> str:
    hash_at = text.find("#")
    return text if hash_at < 0 else text[:hash_at]


# -- slow path: parses or explains, with columns -------------------------------------


def _bid(r: Reader) -> PlayerCommand:
    amount = r.number()
    r.end()
    return Bid(amount)


def _play(r: Reader) -> PlayerCommand:
    card = r.word(CARDS)
    r.end()
    return Play(card)


_READERS: dict[str, Callable[[Reader], PlayerCommand]] = {"bid": _bid, "play": _play}


def read_command(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    """The player command of the tokens of `r`.

    Raises:
        NotationError: they are no command of high-card.
    """
    if not r.at_end and r.peek()[0] == "*":
        raise r.fail(
            "a chance line ('* deal ...' or '* reveal ...') is no player command; expected"
            f" a command{r.context()}, found {r.found()}",
            expected=("command",),
        )
    verb = r.word(VERBS)
    reader = _READERS.get(verb)
    if reader is not None:
        return reader(r)
    r.end()
    return _SIMPLE[verb]


def read_chance(text: str, star: int, players: Vocabulary | None) -> Deal | Reveal:
    """The chance command of the line whose '*' is at index `star` of `text`.

    Raises:
        NotationError: the line is no chance line of high-card.
    """
    colon = text.find(":", star)
    stop = colon if colon >= 0 else len(text)
    head = Reader(text, star + 1, stop, ["*"], quote(":") if colon >= 0 else END_OF_LINE)
    if head.word(CHANCE_WORDS) == "reveal":
        card = head.word(CARDS)
        head.end()
        if colon >= 0:
            raise head.unexpected(END_OF_LINE, (END_OF_LINE,))
        return Reveal(card)
    player = head.player(players)
    head.end(quote(":"))
    if colon < 0:
        raise head.unexpected(quote(":"), (quote(":"),))
    said = head.said
    said[-1] += ":"
    cards = _hidden_cards(text[colon + 1 :]) or \
        Reader(text, colon + 1, len(text), said).words(CARDS)
    return Deal(player, cards)


def _hidden_cards(text: str) -> tuple[str, ...] | None:
    toks = text.split()
    return tuple(toks) if toks and all(t == HIDDEN for t in toks) else None


def hidden_command(text: str) -> PlayerCommand | None:
    """`play ?` (a card played face down, in a public log), else None."""
    toks = text.split()
    if len(toks) == 2 and toks[0].lower() == "play" and toks[1] == HIDDEN:
        return Play(HIDDEN)
    return None


# -- fast path: common well-formed lines only, never raises ---------------------------

_VERB = VERBS.lookup
_CARD = CARDS.lookup


def fast_command(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    """The command of common well-formed tokens, else None."""
    if not toks:
        return None
    verb = _VERB.get(toks[0].lower())
    if verb is None:
        return None
    if len(toks) == 1:
        return _SIMPLE.get(verb)
    if len(toks) != 2:
        return None
    tok = toks[1]
    if verb == "bid":
        if tok.isdigit() and tok.isascii() and len(tok) <= MAX_DIGITS:
            return Bid(int(tok))
        return None
    if verb == "play":
        card = _CARD.get(tok)
        return Play(card) if card is not None else None
    return None


def fast_chance(text: str, star: int, players: Vocabulary | None) -> Deal | Reveal | None:
    """The chance command of a common well-formed chance line, else None."""
    return None  # chance lines are few: the slow path reads them all


# -- public ---------------------------------------------------------------------------


def parse_command(text: str, players: Sequence[str] = ()) -> PlayerCommand:
    """One player command, e.g. `bid 3` or `play 12`.

    Raises:
        NotationError: `text` is no command of high-card.
    """
    content = _strip_comment(text)
    command = fast_command(content.split(), None)
    if command is not None:
        return command
    return read_command(Reader(content, 0, len(content), []), player_vocabulary(players))


def parse_chance(text: str, players: Sequence[str] = ()) -> Deal | Reveal:
    """One chance line, e.g. `* deal anna: 3 9 12` or `* reveal 7`.

    Raises:
        NotationError: `text` is no chance line of high-card.
    """
    content = _strip_comment(text)
    stripped = content.lstrip()
    if not stripped.startswith("*"):
        r = Reader(content, 0, len(content), [])
        raise r.unexpected("a chance line starting with '*'", (quote("*"),))
    return read_chance(content, len(content) - len(stripped), player_vocabulary(players))


def format_command(cmd: object) -> str:
    """The canonical text of a command; a chance command as its `* ...` line.

    Raises:
        TypeError: `cmd` is no command of high-card.
    """
    match cmd:
        case Bid(amount):
            return f"bid {amount}"
        case Play(card):
            return f"play {card}"
        case Pass() | Undo() | Agree() | Refuse():
            return cmd.verb
        case Deal(player, cards):
            return f"* deal {player}: {' '.join(cards)}"
        case Reveal(card):
            return f"* reveal {card}"
    raise TypeError(f"not a command of high-card: {cmd!r}")


def is_hidden(cmd: object) -> bool:
    """True if the command holds a card written `?` (a line of a public log)."""
    match cmd:
        case Play(card):
            return card == HIDDEN
        case Deal(_, cards):
            return HIDDEN in cards
    return False


def public(cmd: object) -> object:
    """The command as every player sees it: dealt cards and a face-down play as `?`."""
    match cmd:
        case Play():
            return Play(HIDDEN)
        case Deal(player, cards):
            return Deal(player, (HIDDEN,) * len(cards))
    return cmd


class HighCardGrammar:
    """high-card's `notation.grammar.Grammar`."""

    name = NAME
    verbs = VERBS
    tags = TAGS
    parse_command = staticmethod(parse_command)
    parse_chance = staticmethod(parse_chance)
    format_command = staticmethod(format_command)
    is_hidden = staticmethod(is_hidden)
    fast_command = staticmethod(fast_command)
    read_command = staticmethod(read_command)
    hidden_command = staticmethod(hidden_command)
    fast_chance = staticmethod(fast_chance)
    read_chance = staticmethod(read_chance)
    public = staticmethod(public)

    def naming(self, player: str) -> None:
        return None  # no player command names a player

    def __repr__(self) -> str:
        return f"<grammar {self.name}>"


GRAMMAR = HighCardGrammar()
"""The grammar `register_test_games` registers alongside the game."""
