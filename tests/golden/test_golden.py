"""Golden mails: a status mail of each phase, a private draw mail, an error mail, an
undo request, a daily digest and the game-over mail of a scripted game by mail (fixed
clock, fixed seeds), for each mail setting and language, must match the files under
tests/golden/mails/ word for word (tests/golden/README.md)."""

from __future__ import annotations

import pytest
from goldens import GAMES, LANGUAGES, REGENERATE, SETTINGS, differences, kinds, normalise


@pytest.mark.parametrize("key", list(GAMES))
def test_the_mails_match_their_golden_files(key: str) -> None:
    diffs = differences(GAMES[key])
    assert not diffs, (f"{len(diffs)} golden mail file(s) of {key} differ from the mails "
                       f"the game sends now; if the change is meant, regenerate them with "
                       f"`{REGENERATE} {key}` and read the diff before committing it:\n\n"
                       + "\n".join(diffs))


def test_every_kind_setting_and_language_has_its_golden_file() -> None:
    from goldens import EXPECTED_ABSENT, MAILS

    for game in GAMES.values():
        for setting in SETTINGS:
            for language in LANGUAGES:
                for kind in kinds(game):
                    path = MAILS / game.key / setting / language / f"{kind}.txt"
                    assert path.exists() == ((setting, kind) not in EXPECTED_ABSENT), path


def test_normalising_keeps_what_a_mail_id_says_and_drops_chance() -> None:
    text = ("Message-ID: <pbem.status.pof-1.v26.0123456789abcdef@example.org>\r\n"
            "In-Reply-To: <pbem.error.0123456789abcdef0123456789abcdef@example.org>\r\n"
            "References: <176480640012.4242.1234567890123456789@example.org>\r\n")
    assert normalise(text) == ("Message-ID: <pbem.status.pof-1.v26.*@example.org>\n"
                               "In-Reply-To: <pbem.error.*@example.org>\n"
                               "References: <player-mail@example.org>\n")
