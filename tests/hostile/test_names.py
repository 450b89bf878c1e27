"""Player names at `pbem new` and `pbem replace`: what the notation cannot write, and
names that look alike, are refused with a message naming the name and the problem."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from notation import parse_log
from pbem.export import export_game
from pbem.moderator import Moderator, PlayerSpec
from pbem.names import NameRefused, check_game_names, check_person_name, skeleton
from pbem.store import Seat
from tests.pbem.fakes import NOW, PLAYERS, make_moderator

PBEM = str(Path(sys.executable).parent / "pbem")

NOTATION = [
    ("an na", "player name 'an na' may not contain ' ' (the notation could not write it)"),
    ("an#na", "player name 'an#na' may not contain '#' (the notation could not write it)"),
    ("an,na", "player name 'an,na' may not contain ',' (the notation could not write it)"),
    ("an*na", "player name 'an*na' may not contain '*' (the notation could not write it)"),
    ('an"na', "player name 'an\"na' may not contain '\"' (the notation could not write it)"),
    ("an\r\nna", "player name 'an\\r\\nna' holds the invisible or control character U+000D "
                 "(a control character)"),
    ("x" * 25, f"player name '{'x' * 25}' is longer than 24 characters"),
]
UNICODE = [
    ("ke\u200dep", "player name 'ke\\u200dep' holds the invisible or control character "
                   "U+200D (ZERO WIDTH JOINER)"),
    ("\u202eanna", "player name '\\u202eanna' holds the invisible or control character "
                   "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("ａｎｎａ", "player name 'ａｎｎａ' is not in Unicode normal form NFKC; write it as 'anna'"),
    ("\u0430nna", "player name 'аnna' mixes the scripts CYRILLIC, LATIN; use letters of one "
                  "script"),
]
ALIKE = [
    (("anna", "ANNA"), "player names 'anna' and 'ANNA' look alike"),
    (("bill", "bi11"), "player names 'bill' and 'bi11' look alike"),
    (("mary", "rnary"), "player names 'mary' and 'rnary' look alike"),
    (("ace", "\u0430\u0441\u0435"), "player names 'ace' and 'асе' look alike"),  # Cyrillic
]


def _specs(*names: str) -> list[PlayerSpec]:
    return [PlayerSpec(n, f"p{i}@example.org") for i, n in enumerate(names)]


@pytest.mark.parametrize(("name", "message"), NOTATION + UNICODE)
def test_new_refuses_a_bad_name(name: str, message: str) -> None:
    mod = make_moderator()
    with pytest.raises(NameRefused) as e:
        mod.new_game(_specs(name, "bas", "chris"), NOW)
    assert str(e.value) == message
    with mod.store.read() as s:
        assert list(s.exec(Seat.__table__.select())) == []  # nothing created


@pytest.mark.parametrize(("names", "message"), ALIKE)
def test_new_refuses_names_that_look_alike(names: tuple[str, str], message: str) -> None:
    with pytest.raises(NameRefused) as e:
        make_moderator().new_game(_specs(*names, "chris"), NOW)
    assert str(e.value) == message + "; give the players names that differ at a glance"


def test_accepted_names_round_trip_through_the_export() -> None:
    mod: Moderator = make_moderator()
    names = ["zoë", "мария", "jean-luc", "o'neil"]
    game = mod.new_game(_specs(*names), NOW, seed="names")
    log = parse_log(export_game(mod, game))
    assert log.players == tuple(names)
    assert check_game_names(["Anna", "bas"]) == ["anna", "bas"]


def test_the_skeleton_sees_through_width_case_and_script() -> None:
    assert skeleton("ＡＮＮＡ") == skeleton("anna") == skeleton("\u0430nn\u0430")
    assert skeleton("anna") != skeleton("anne")


def test_replace_checks_the_new_players_name() -> None:
    mod = make_moderator()
    game = mod.new_game(PLAYERS, NOW, game_id="pof-9", seed="s")
    with pytest.raises(NameRefused) as e:
        mod.replace(game, "bas", NOW, emails=["zoe@example.org"], person="zoe\u202e")
    assert str(e.value) == ("name 'zoe\\u202e' holds the invisible or control character "
                            "U+202E (RIGHT-TO-LEFT OVERRIDE)")
    mod.replace(game, "bas", NOW, emails=["zoe@example.org"], person="Zoë de Vries")
    with mod.store.read() as s:
        seat = s.exec(Seat.__table__.select().where(Seat.name == "bas")).one()
    assert seat.person == "Zoë de Vries" and seat.email == "zoe@example.org"
    assert check_person_name("Zoë  de Vries") == "Zoë  de Vries"


def _pbem(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "PBEM_CONFIG", "PBEM_TRANSPORT")}
    env.update(PBEM_DB=str(tmp_path / "pbem.sqlite"), PBEM_MAIL_DIR=str(tmp_path / "mail"),
               PBEM_MODERATOR_ADDRESS="moderator@example.org")
    return subprocess.run([PBEM, *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, check=False)


def test_the_installed_cli_refuses_bad_names(tmp_path: Path) -> None:
    bad = _pbem(tmp_path, "new", "-p", "ke\u200dep:k@example.org", "-p", "bas:b@example.org",
                "-p", "chris:c@example.org")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == ("pbem: player name 'ke\\u200dep' holds the invisible or "
                                  "control character U+200D (ZERO WIDTH JOINER)")
    alike = _pbem(tmp_path, "new", "-p", "ace:a@example.org", "-p", "\u0430\u0441\u0435:b@x.org",
                  "-p", "chris:c@example.org")
    assert alike.returncode == 2
    assert "player names 'ace' and 'асе' look alike" in alike.stderr  # Cyrillic
    assert _pbem(tmp_path, "new", "-p", "anna:a@example.org", "-p", "bas:b@example.org",
                 "-p", "chris:c@example.org", "--game", "pof-3").returncode == 0
    replaced = _pbem(tmp_path, "replace", "pof-3", "bas", "--email", "z@example.org",
                     "--name", "z\u200bz")
    assert replaced.returncode == 1
    assert replaced.stderr.strip() == ("pbem: name 'z\\u200bz' holds the invisible or control "
                                       "character U+200B (ZERO WIDTH SPACE)")
