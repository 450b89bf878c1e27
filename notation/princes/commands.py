"""The Princes of Florence's commands, one per line: parse player commands and chance
lines, format them back.

Grammar (words case-insensitive, any unique prefix of 3+ letters, `#` starts a comment):

    keep PROFESSION...            open OBJECT        bid N         pass
    bid CHARACTER N               (The Muse and the Princess: the character auction)
    use professor bonus|prestige  use merchant pp|free  use princess [pp N]
    use banker pp N
    take OBJECT                   place LANDSCAPE CELL...          choose CARD
    build BUILDING CELL...        work PROFESSION [+BONUS ...] [pp N]
    profession    bonus           freedom FREEDOM    recruit PROFESSION from PLAYER
    sell N        done               undo          agree         refuse
    * deal PLAYER: PROFESSION...  * draw PLAYER DECK: CARD...      (chance lines)
    * freedoms: FREEDOM...        (2 players: the freedoms added to the supply)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from engine.errors import NotationError
from engine.princes.commands import (
    AddFreedoms,
    Agree,
    Bid,
    Build,
    ChanceCommand,
    CharacterBid,
    Choose,
    Command,
    Deal,
    Done,
    Draw,
    Freedom,
    Keep,
    Open,
    Pass,
    Place,
    PlayerCommand,
    Recruit,
    Refuse,
    Sell,
    SkippedPass,
    Take,
    TakeBonus,
    TakeProfession,
    Undo,
    Use,
    Work,
)
from notation.limits import MAX_DIGITS
from notation.reader import END_OF_LINE, Reader
from notation.words import Vocabulary, player_vocabulary, quote

from .words import (
    BONUS_CARDS,
    BUILDINGS,
    CARDS,
    CELL_ORDER,
    CHANCE_WORDS,
    CHARACTER_WORDS,
    DECK_CARDS,
    DECK_WORDS,
    FIRST_CELL,
    FREEDOM_WORDS,
    LANDSCAPE_WORDS,
    LAST_CELL,
    MERCHANT_WAYS,
    OBJECT_WORDS,
    PROFESSIONS,
    PROFESSOR_DECKS,
    USE_WORDS,
    VERBS,
)

_PASS = Pass()
_DONE = Done()
_TAKE_PROFESSION = TakeProfession()
_TAKE_BONUS = TakeBonus()
_UNDO = Undo()
_AGREE = Agree()
_REFUSE = Refuse()


def _keep(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    return Keep(r.words(PROFESSIONS))


def _open(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    obj = r.word(OBJECT_WORDS)
    r.end()
    return Open(obj)


def _bid(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    if not r.at_end and (_CHARACTER.get(r.peek()) or _CHARACTER.get(r.peek().lower())):
        character = r.word(CHARACTER_WORDS)
        amount = r.number()
        r.end()
        return CharacterBid(character, amount)
    amount = r.number()
    r.end()
    return Bid(amount)


def _use(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    character = r.word(USE_WORDS)
    if character == "professor":
        deck = r.word(PROFESSOR_DECKS)
        r.end()
        return Use(character, deck)
    if character == "banker":
        r.keyword("pp")
        pp = r.number()
        r.end()
        return Use(character, "pp", pp)
    if character == "merchant":
        way = r.word(MERCHANT_WAYS)
        r.end()
        return Use(character, way)
    pp = 0
    if not r.at_end:
        r.keyword("pp")
        pp = r.number()
    r.end()
    return Use(character, "", pp)


def _fast_use(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    return None  # rare: the reader parses it


def _pass(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return _PASS


def _take(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    obj = r.word(OBJECT_WORDS)
    r.end()
    return Take(obj)


def _place(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    landscape = r.word(LANDSCAPE_WORDS)
    return Place(landscape, read_cells(r))


def _choose(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    card = r.word(CARDS)
    r.end()
    return Choose(card)


def _build(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    building = r.word(BUILDINGS)
    return Build(building, read_cells(r))


def read_cells(r: Reader) -> tuple[str, ...]:
    """Read one or more cells up to the end of `r`'s segment, in canonical order.

    Raises:
        NotationError: no cell, a token that is no cell of the grid, or a cell
            named twice.
    """
    got: list[str] = []
    toks = r.toks
    while r.i < r.n:
        tok = toks[r.i]
        cell = tok.lower()
        if cell not in CELL_ORDER:
            raise _bad_cell(r, tok, bool(got))
        if cell in got:
            raise r.fail(
                f"expected another cell or end of line{r.context()}, found"
                f" {quote(cell)} again",
                expected=("cell", END_OF_LINE),
            )
        got.append(cell)
        r.said.append(cell)
        r.i += 1
    if not got:
        raise r.unexpected("a cell like 'd4'", ("cell",))
    got.sort(key=CELL_ORDER.__getitem__)
    return tuple(got)


def _bad_cell(r: Reader, tok: str, after_cells: bool) -> NotationError:
    if len(tok) >= 2 and tok[0].isascii() and tok[0].isalpha() and tok[1:].isdigit():
        return r.fail(
            f"expected a cell like 'd4'{r.context()}, found {quote(tok)}, which is"
            f" off the grid ({FIRST_CELL} to {LAST_CELL})",
            expected=("cell",),
        )
    if after_cells:
        return r.unexpected("a cell or end of line", ("cell", END_OF_LINE))
    return r.unexpected("a cell like 'd4'", ("cell",))


_WORK_TAIL = ("bonus card", "pp", END_OF_LINE)


def _work(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    profession = r.word(PROFESSIONS)
    bonuses: list[str] = []
    pp: int | None = None
    while not r.at_end:
        tok = r.peek()
        if tok[0] == "+":
            bonuses.append(_bonus_card(r, tok))
        elif tok.lower() == "pp":
            if pp is not None:
                raise r.fail(
                    f"expected a bonus card or end of line{r.context()}, found a second 'pp'",
                    expected=("bonus card", END_OF_LINE),
                )
            r.said.append("pp")
            r.i += 1
            pp = r.number()
        elif (card := BONUS_CARDS.get(tok.lower())) is not None:
            raise r.fail(
                f"expected {quote('+' + card)}{r.context()}, found {quote(tok)};"
                " bonus cards are written with '+' in front",
                expected=_WORK_TAIL,
            )
        else:
            raise r.unexpected("a bonus card like '+per-building', 'pp N' or end of line",
                               _WORK_TAIL)
    return Work(profession, tuple(bonuses), pp or 0)


def _bonus_card(r: Reader, tok: str) -> str:
    """Read `+card` or `+ card` (the current token starts with '+')."""
    if tok == "+":
        r.said.append("+")
        r.i += 1
        card = r.word(BONUS_CARDS)
        r.said.pop()
        r.said[-1] = "+" + card
        return card
    found = BONUS_CARDS.get(tok[1:].lower())
    if found is None:
        raise BONUS_CARDS.error(tok[1:], r.column(r.i) + 1)
    r.said.append("+" + found)
    r.i += 1
    return found


def _profession(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return _TAKE_PROFESSION


def _bonus(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return _TAKE_BONUS


def _freedom(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    freedom = r.word(FREEDOM_WORDS)
    r.end()
    return Freedom(freedom)


def _recruit(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    profession = r.word(PROFESSIONS)
    r.keyword("from")
    victim = r.player(players)
    r.end()
    return Recruit(profession, victim)


def _sell(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    steps = r.number()
    r.end()
    return Sell(steps)


def _done(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return _DONE


def _undo(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return _UNDO


def _agree(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return _AGREE


def _refuse(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return _REFUSE


_READERS: dict[str, Callable[[Reader, Vocabulary | None], PlayerCommand]] = {
    "keep": _keep,
    "open": _open,
    "bid": _bid,
    "pass": _pass,
    "take": _take,
    "place": _place,
    "choose": _choose,
    "build": _build,
    "work": _work,
    "profession": _profession,
    "bonus": _bonus,
    "freedom": _freedom,
    "recruit": _recruit,
    "sell": _sell,
    "done": _done,
    "use": _use,
    "undo": _undo,
    "agree": _agree,
    "refuse": _refuse,
}
assert set(_READERS) == set(VERBS.words)


def read_command(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    """Read a whole player command from `r` (up to the end of its segment).

    Raises:
        NotationError: the tokens are no valid command.
    """
    if not r.at_end and r.peek()[0] == "*":
        raise r.fail(
            "a chance line ('* deal ...' or '* draw ...') is no player command; expected"
            f" a command{r.context()}, found {r.found()}",
            expected=("command",),
        )
    return _READERS[r.word(VERBS)](r, players)


HIDDEN = "?"
"""A card only its player saw, written in a public log (`pbem export` of a running
game): `anna: keep ? ? ?`, `anna: choose ?`, `* deal anna: ? ? ? ?`. Only log lines
may hold it (`notation.log`, through `hidden_command`); a player's command never does."""


def hidden_cards(text: str) -> tuple[str, ...] | None:
    """The cards of `text` if it is one or more `?` and nothing else, else None."""
    toks = text.split()
    return tuple(toks) if toks and all(t == HIDDEN for t in toks) else None


def hidden_command(text: str) -> PlayerCommand | None:
    """`keep ? ? ?` or `choose ?` (cards hidden in a public log), else None."""
    verb, _, rest = text.strip().partition(" ")
    cards = hidden_cards(rest)
    if cards is None:
        return None
    if verb.lower() == "keep":
        return Keep(cards)
    if verb.lower() == "choose" and len(cards) == 1:
        return Choose(HIDDEN)
    return None


def read_chance(text: str, star: int, players: Vocabulary | None) -> ChanceCommand:
    """Read the chance line in `text` (comment already cut off) whose '*' is at `star`;
    its cards may be hidden (`HIDDEN`).

    Raises:
        NotationError: the line is no valid chance line.
    """
    colon = text.find(":", star)
    stop = colon if colon >= 0 else len(text)
    head = Reader(text, star + 1, stop, ["*"], quote(":") if colon >= 0 else END_OF_LINE)
    event = head.word(CHANCE_WORDS)
    if event == "freedoms":
        return _read_freedoms(text, colon, head)
    player = head.player(players)
    deck = "profession" if event == "deal" else head.word(DECK_WORDS)
    head.end(quote(":"))
    if colon < 0:
        raise head.unexpected(quote(":"), (quote(":"),))
    said = head.said
    said[-1] += ":"
    cards = hidden_cards(text[colon + 1 :]) or \
        Reader(text, colon + 1, len(text), said).words(DECK_CARDS[deck])
    if event == "deal":
        return Deal(player, cards)
    return Draw(player, deck, cards)


def _read_freedoms(text: str, colon: int, head: Reader) -> AddFreedoms:
    """The rest of `* freedoms: FREEDOM...` once its word is read."""
    head.end(quote(":"))
    if colon < 0:
        raise head.unexpected(quote(":"), (quote(":"),))
    said = head.said
    said[-1] += ":"
    return AddFreedoms(Reader(text, colon + 1, len(text), said).words(FREEDOM_WORDS))


def strip_comment(text: str) -> str:
    """`text` up to its first '#'."""
    hash_at = text.find("#")
    return text if hash_at < 0 else text[:hash_at]


# -- fast path ----------------------------------------------------------------------
#
# The readers above explain every error; the functions below only recognise the
# common well-formed spellings, with plain dict lookups and no bookkeeping. They
# return None for anything unusual (including every error), and the caller then takes
# the slow path, which is the reference: a fast result always equals the slow one.

_VERB = VERBS.lookup
_PROFESSION = PROFESSIONS.lookup
_BONUS = BONUS_CARDS.lookup
_BUILDING = BUILDINGS.lookup
_LANDSCAPE = LANDSCAPE_WORDS.lookup
_OBJECT = OBJECT_WORDS.lookup
_FREEDOM = FREEDOM_WORDS.lookup
_CARD = CARDS.lookup
_CHANCE = CHANCE_WORDS.lookup
_DECK = DECK_WORDS.lookup
_CHARACTER = CHARACTER_WORDS.lookup
_CELLS = frozenset(CELL_ORDER)
_CELL_RANK = CELL_ORDER.__getitem__
_DECK_LOOKUP = {deck: vocabulary.lookup for deck, vocabulary in DECK_CARDS.items()}
_SIMPLE: dict[str, PlayerCommand] = {
    "pass": _PASS,
    "done": _DONE,
    "profession": _TAKE_PROFESSION,
    "bonus": _TAKE_BONUS,
    "undo": _UNDO,
    "agree": _AGREE,
    "refuse": _REFUSE,
}


# Tokens are looked up as written first: a canonical log is lowercase, and every key
# of these tables is (checked below), so a token found as written is the word its
# lowercase spelling gives.
assert all(k == k.lower() for lookup in (
    _VERB, _PROFESSION, _BONUS, _BUILDING, _LANDSCAPE, _OBJECT, _FREEDOM, _CARD, _CHANCE,
    _DECK, *_DECK_LOOKUP.values()) for k in lookup)


def _fast_number(tok: str) -> int | None:
    if tok.isdigit() and tok.isascii() and len(tok) <= MAX_DIGITS:
        return int(tok)
    return None


def _fast_words(toks: list[str], lookup: dict[str, str]) -> tuple[str, ...] | None:
    words = tuple(map(lookup.get, toks))
    if None in words:
        words = tuple(lookup.get(tok.lower()) for tok in toks)
        if None in words:
            return None
    return cast(tuple[str, ...], words) or None


def _fast_cells(toks: list[str]) -> tuple[str, ...] | None:
    cells = toks
    if not _CELLS.issuperset(cells):
        cells = [cell.lower() for cell in cells]
        if not _CELLS.issuperset(cells):
            return None
    if not cells or len(set(cells)) != len(cells):
        return None
    return tuple(sorted(cells, key=_CELL_RANK))


def _fast_player(tok: str, players: Vocabulary | None) -> str | None:
    if players is None:
        return tok.lower()
    return players.lookup.get(tok) or players.lookup.get(tok.lower())


def _fast_amount(toks: list[str]) -> int | None:
    return _fast_number(toks[1]) if len(toks) == 2 else None


def _fast_bid(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    if len(toks) == 3:  # bid CHARACTER N
        tok = toks[1]
        character = _CHARACTER.get(tok) or _CHARACTER.get(tok.lower())
        amount = _fast_number(toks[2])
        if character is None or amount is None:
            return None
        return CharacterBid(character, amount)
    amount = _fast_amount(toks)
    return Bid(amount) if amount is not None else None


def _fast_sell(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    steps = _fast_amount(toks)
    return Sell(steps) if steps is not None else None


def _fast_build(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    tok = toks[1]
    building = _BUILDING.get(tok) or _BUILDING.get(tok.lower())
    cells = _fast_cells(toks[2:])
    return Build(building, cells) if building is not None and cells is not None else None


def _fast_place(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    tok = toks[1]
    landscape = _LANDSCAPE.get(tok) or _LANDSCAPE.get(tok.lower())
    cells = _fast_cells(toks[2:])
    return Place(landscape, cells) if landscape is not None and cells is not None else None


def _fast_keep(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    cards = _fast_words(toks[1:], _PROFESSION)
    return Keep(cards) if cards is not None else None


def _fast_recruit(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    if len(toks) != 4 or toks[2].lower() != "from":
        return None
    profession = _PROFESSION.get(toks[1].lower())
    victim = _fast_player(toks[3], players)
    if profession is None or victim is None:
        return None
    return Recruit(profession, victim)


def _fast_word(toks: list[str], lookup: dict[str, str]) -> str | None:
    """The one word after the verb, if that is all there is."""
    if len(toks) != 2:
        return None
    tok = toks[1]
    return lookup.get(tok) or lookup.get(tok.lower())


def _fast_open(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    obj = _fast_word(toks, _OBJECT)
    return Open(obj) if obj is not None else None


def _fast_take(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    obj = _fast_word(toks, _OBJECT)
    return Take(obj) if obj is not None else None


def _fast_choose(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    card = _fast_word(toks, _CARD)
    return Choose(card) if card is not None else None


def _fast_freedom(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    freedom = _fast_word(toks, _FREEDOM)
    return Freedom(freedom) if freedom is not None else None


def _fast_work(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    profession = _PROFESSION.get(toks[1].lower())
    if profession is None:
        return None
    bonuses: list[str] = []
    pp: int | None = None
    i, n = 2, len(toks)
    while i < n:
        tok = toks[i]
        if tok[0] == "+":
            card = _BONUS.get(tok[1:].lower())
            if card is None:
                return None
            bonuses.append(card)
            i += 1
        elif tok.lower() == "pp" and pp is None and i + 1 < n:
            pp = _fast_number(toks[i + 1])
            if pp is None:
                return None
            i += 2
        else:
            return None
    return Work(profession, tuple(bonuses), pp or 0)


_FAST: dict[str, Callable[[list[str], Vocabulary | None], PlayerCommand | None]] = {
    "bid": _fast_bid,
    "sell": _fast_sell,
    "build": _fast_build,
    "place": _fast_place,
    "work": _fast_work,
    "keep": _fast_keep,
    "recruit": _fast_recruit,
    "open": _fast_open,
    "take": _fast_take,
    "choose": _fast_choose,
    "freedom": _fast_freedom,
    "use": _fast_use,
}
"""The fast readers of the commands that take words after the verb, given all the
tokens (two at least); `_SIMPLE` has those that take none."""
assert set(_FAST) | set(_SIMPLE) == set(VERBS.words)


def fast_command(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    """The command the tokens spell if they are a common well-formed command, else None
    (the slow path `read_command` then parses or explains)."""
    if not toks:
        return None
    tok = toks[0]
    verb = _VERB.get(tok) or _VERB.get(tok.lower())
    if verb is None:
        return None
    if len(toks) == 1:
        return _SIMPLE.get(verb)
    fast = _FAST.get(verb)
    return fast(toks, players) if fast is not None else None


def fast_chance(text: str, star: int, players: Vocabulary | None) -> ChanceCommand | None:
    """The chance command of a common well-formed chance line, else None (the slow
    path `read_chance` then parses or explains)."""
    colon = text.find(":", star)
    if colon < 0:
        return None
    head = text[star + 1 : colon].split()
    n = len(head)
    if n < 1 or n > 3:
        return None
    tok = head[0]
    event = _CHANCE.get(tok) or _CHANCE.get(tok.lower())
    if event == "freedoms":
        freedoms = _fast_words(text[colon + 1 :].split(), _FREEDOM) if n == 1 else None
        return AddFreedoms(freedoms) if freedoms is not None else None
    if n < 2:
        return None
    player = _fast_player(head[1], players)
    if event is None or player is None:
        return None
    if event == "deal":
        if n != 2:
            return None
        cards = _fast_words(text[colon + 1 :].split(), _PROFESSION)
        return Deal(player, cards) if cards is not None else None
    if n != 3:
        return None
    tok = head[2]
    deck = _DECK.get(tok) or _DECK.get(tok.lower())
    if deck is None:
        return None
    cards = _fast_words(text[colon + 1 :].split(), _DECK_LOOKUP[deck])
    return Draw(player, deck, cards) if cards is not None else None


# -- public -----------------------------------------------------------------------


def parse_command(text: str, players: Sequence[str] = ()) -> PlayerCommand:
    """Parse one player command, e.g. `build univ a1 b1 c1 d1 a2 b2 c2 # my first`.

    Player names (in `recruit ... from PLAYER`) resolve against `players`; with no
    player list any name is accepted, lowercased.

    Raises:
        NotationError: `text` is not a command (`column` says where); chance lines
            are refused too. AmbiguousError when a prefix fits several words.
    """
    content = strip_comment(text)
    toks = content.split()
    vocabulary = player_vocabulary(players) if toks and toks[0][:3].lower() == "rec" else None
    command = fast_command(toks, vocabulary)
    if command is not None:
        return command
    return read_command(Reader(content, 0, len(content), []), player_vocabulary(players))


def parse_chance(text: str, players: Sequence[str] = ()) -> ChanceCommand:
    """Parse one chance line, e.g. `* draw bas bonus: per-builder per-park`.

    Raises:
        NotationError: `text` is not a chance line.
    """
    content = strip_comment(text)
    stripped = content.lstrip()
    if not stripped.startswith("*"):
        r = Reader(content, 0, len(content), [])
        raise r.unexpected("a chance line starting with '*'", (quote("*"),))
    star = len(content) - len(stripped)
    vocabulary = player_vocabulary(players)
    return fast_chance(content, star, vocabulary) or read_chance(content, star, vocabulary)


def _cells(cells: tuple[str, ...]) -> str:
    return " ".join(sorted(cells, key=lambda c: CELL_ORDER.get(c, -1)))


def format_command(cmd: Command) -> str:
    """The canonical text of a command: lowercase, full names, single spaces, cells
    sorted, no comment. Chance commands come out as `* deal ...` / `* draw ...` lines.
    """
    match cmd:
        case Keep(cards):
            return f"keep {' '.join(cards)}"
        case Open(obj):
            return f"open {obj}"
        case Bid(amount):
            return f"bid {amount}"
        case CharacterBid(character, amount):
            return f"bid {character} {amount}"
        case Use(character, what, pp):
            if character == "princess":
                return f"use princess pp {pp}" if pp else "use princess"
            if character == "banker":
                return f"use banker pp {pp}"
            return f"use {character} {what}"
        case Pass() | SkippedPass():  # the second read from a table log only (R18)
            return "pass"
        case Take(obj):
            return f"take {obj}"
        case Place(landscape, cells):
            return f"place {landscape} {_cells(cells)}"
        case Choose(card):
            return f"choose {card}"
        case Build(building, cells):
            return f"build {building} {_cells(cells)}"
        case Work(profession, bonuses, pp):
            text = f"work {profession}"
            if bonuses:
                text += " +" + " +".join(bonuses)
            return f"{text} pp {pp}" if pp else text
        case TakeProfession():
            return "profession"
        case TakeBonus():
            return "bonus"
        case Freedom(freedom):
            return f"freedom {freedom}"
        case Recruit(profession, victim):
            return f"recruit {profession} from {victim}"
        case Sell(steps):
            return f"sell {steps}"
        case Done():
            return "done"
        case Undo():
            return "undo"
        case Agree():
            return "agree"
        case Refuse():
            return "refuse"
        case Deal(player, cards):
            return f"* deal {player}: {' '.join(cards)}"
        case Draw(player, deck, cards):
            return f"* draw {player} {deck}: {' '.join(cards)}"
        case AddFreedoms(freedoms):
            return f"* freedoms: {' '.join(freedoms)}"
    raise TypeError(f"not a command: {cmd!r}")


_WITH_CARDS = frozenset((Keep, Deal, Draw))


def is_hidden(cmd: Command) -> bool:
    """True if the command's cards are hidden (`HIDDEN`): a line of a public log."""
    kind = type(cmd)
    if kind in _WITH_CARDS:
        return HIDDEN in cast(Keep | Deal | Draw, cmd).cards
    return kind is Choose and cast(Choose, cmd).card == HIDDEN
