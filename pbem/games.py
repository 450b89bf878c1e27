"""The games pbem hosts, as the shell names and lists them: resolved through the
engine's registry (`engine.registry`), never by importing a game.
"""

from __future__ import annotations

from engine.errors import GameError
from engine.registry import GAMES, default_name, get_game, summary_of


def game_name(name: str | None = None) -> str:
    """The registered game's name (None: the default game's).

    Raises:
        UnknownGameError: no game of that name is registered.
    """
    return str(get_game(name).name)


def listing() -> list[str]:
    """One line per registered game: its name, then its variants with their player
    counts, the default game marked ("name: standard (3-5), short (2-4) (default)"),
    from the games' summaries (`engine.registry.summary_of`: no rules are imported).
    A game that cannot be loaded is listed with why."""
    lines = []
    try:
        default: str | None = default_name()
    except GameError:
        default = None
    for name in GAMES.names():
        try:
            game = summary_of(name)
        except (GameError, ImportError, AttributeError) as e:
            lines.append(f"{name}: cannot be loaded ({e})")
            continue
        variants = ", ".join(f"{key} ({variant.counts})"
                             for key, variant in game.variants.items())
        lines.append(f"{name}: {variants}{' (default)' if name == default else ''}")
    return lines


def option_lines(name: str | None = None) -> list[str]:
    """The options of the game's variants, for help pages ("--option money=open:
    ...; also --money-open")."""
    game = summary_of(name or default_name())
    lines = []
    for variant in game.variants.values():
        for o in variant.options:
            flags = ", ".join(f"--{o.name}-{c}" for c in o.choices[1:])
            lines.append(f"--option {o.name}={'|'.join(o.choices)} (also {flags}): {o.help}")
    return list(dict.fromkeys(lines))


def game_options(name: str | None, given: list[str], flags: list[str]) -> dict[str, str]:
    """The game options `pbem new` was given: `--option NAME=VALUE` (`given`) and the
    flags `--NAME VALUE`, `--NAME=VALUE`, `--NAME-CHOICE` and `--no-NAME-CHOICE`
    (`flags`: the arguments the command did not know), checked against the game's
    options.

    Raises:
        ValueError: an option or flag the game does not have.
    """
    game = get_game(name)
    known = {o.name: o for v in game.variants.values() for o in v.options}
    options: dict[str, str] = {}
    for item in given:
        key, sep, value = item.partition("=")
        key, value = key.strip().lower(), value.strip().lower()
        if not sep or key not in known:
            raise ValueError(f"unknown game option {item!r}; {game.name} has: "
                             f"{', '.join(known) or 'none'}")
        options[key] = value
    rest = list(flags)
    while rest:
        flag = rest.pop(0)
        word = flag.lower()
        name, sep, value = word[2:].partition("=") if word.startswith("--") else ("", "", "")
        if name in known:
            if not sep:
                if not rest:
                    raise ValueError(f"{flag} needs a value: "
                                     f"{' | '.join(known[name].choices)}")
                value = rest.pop(0).lower()
            options[name] = value.strip()
            continue
        negated = word.startswith("--no-")
        word = word[5:] if negated else word[2:] if word.startswith("--") else ""
        for o in known.values():
            for choice in o.choices[1:]:
                if word == f"{o.name}-{choice}":
                    options[o.name] = o.default if negated else choice
                    break
            else:
                continue
            break
        else:
            raise ValueError(f"no such option: {flag}")
    return options
