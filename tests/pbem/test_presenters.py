"""Every registered game has a presenter, and its mails are rendered from its own
template folder before the shared one."""

from __future__ import annotations

from pathlib import Path

from engine.registry import GAMES, get_game
from pbem.i18n import speaking
from pbem.outbound import TEMPLATE_DIR, Renderer
from pbem.presenter import chance_noun, private_title
from pbem.registry import PRESENTERS, presenter_for


def test_every_game_has_a_presenter_of_its_name() -> None:
    assert PRESENTERS.names() == GAMES.names()
    for name in GAMES.names():
        assert presenter_for(name).name == name
    assert presenter_for(None).name == get_game().name


def test_each_game_has_its_own_status_template() -> None:
    for p in PRESENTERS.all():
        folder = TEMPLATE_DIR / p.template_dir
        assert (folder / "status.txt").is_file() and (folder / "status.html").is_file()
        assert not (TEMPLATE_DIR / "status.txt").exists()  # no game's status is shared


def test_the_game_folder_is_read_before_the_shared_one(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    for ext in ("txt", "html"):
        (tmp_path / f"refusal.{ext}").write_text("shared {{ reason }}\n")
        (tmp_path / "game" / f"status.{ext}").write_text("own {{ reason }}\n")
        (tmp_path / "game" / f"refusal.{ext}").write_text("own refusal {{ reason }}\n")
        (tmp_path / f"notice.{ext}").write_text("shared notice {{ reason }}\n")
    r = Renderer(tmp_path)
    assert r.render("status", {"reason": "x"}, "game")[0] == "own x\n"
    assert r.render("refusal", {"reason": "x"}, "game")[0] == "own refusal x\n"
    assert r.render("notice", {"reason": "x"}, "game")[0] == "shared notice x\n"
    assert r.render("refusal", {"reason": "x"}, "")[0] == "shared x\n"


def test_the_shell_takes_a_games_words_for_its_hidden_values_from_its_presenter() -> None:
    """Generic code names no game's objects: The Princes of Florence says "cards", a
    presenter with no words of its own gets the shell's neutral ones."""
    princes, plain = presenter_for("princes-of-florence"), object()
    assert (chance_noun(princes), chance_noun(plain), chance_noun(None)) == \
        ("cards", "values", "values")
    titles = {}
    for lang in ("en", "nl", "el"):
        with speaking(lang, princes):
            own = private_title(princes)
        with speaking(lang):
            titles[lang] = (own, private_title(plain))
    assert titles == {"en": ("your cards (private)", "your private information"),
                      "nl": ("je kaarten (privé)", "je privé-informatie"),
                      "el": ("οι κάρτες σου (προσωπικό)", "οι προσωπικές σου πληροφορίες")}
