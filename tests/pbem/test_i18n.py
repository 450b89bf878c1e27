"""Each player's language (pbem.i18n): English, Dutch, Greek.

A whole game is played by mail among scripted players, one seat in each language:
every seat's status, private draw, error and game-over mails are in its language
(headings, sentences, names with the notation's word beside them), the commands
stay English, and no hidden card leaks. The language is set at `pbem new` and by a
`language CODE` line, confirmed, refused when bad, and kept in the database. The
catalogues are complete for every message the sources mark, and compiled.
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from freezegun import freeze_time
from sqlmodel import select

from engine.princes.game import to_act
from pbem import i18n
from pbem.i18n import LanguageError, check_language, languages_for, speaking
from pbem.moderator import Moderator
from pbem.princes import PRESENTER
from pbem.princes.terms import name
from pbem.runner import poll_once
from pbem.scripted import ScriptedPlayer, pick_actor
from pbem.store import Seat, Store, load_events, utcnow

from .fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp, make_moderator
from .helpers import keep_line, run, send, state_of
from .test_leak import WORD, hidden_from, known_to
from .test_mail_settings import kind_and_version

ROOT = Path(__file__).resolve().parents[2]
ANNA, BAS, CHRIS = (p.email for p in PLAYERS)
LANGS = {"anna": "en", "bas": "nl", "chris": "el"}

# English words of the templates and the shell that a Dutch or Greek mail must not
# show (the commands, names in brackets and engine reasons aside)
ENGLISH = ("How to reply", "Your commands now", "Only you receive this mail",
           "Nothing from this mail", "The game now", "private to", "What changed since",
           "Did you mean", "not applied", "The seed of this game", "round 1 began",
           "the game ended", "Since your last mail", "It is your turn", "Waiting for",
           "Players", "Principalities", "Supply:", "Position:", "Your professions",
           "Your bonus and prestige cards", "The others' displays", "Auction:", "game over",
           "work value", "Key: P Palazzo", "Picture of the principalities", "professions in hand",
           "Fame ", "fame ", "florins", "Deadline:", "Accepted from you", "e.g. ")


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def html_of(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("html",))
    assert body is not None
    return str(body.get_content())


def seats_language(mod: Moderator, game: str) -> dict[str, str]:
    with mod.store.read() as s:
        return {x.name: x.language for x in s.exec(select(Seat).where(Seat.game_id == game))}


# --------------------------------------------------------------------------- values


def test_languages_are_checked_and_bad_ones_refused_clearly() -> None:
    assert [check_language(v) for v in ("en", " NL ", "el")] == ["en", "nl", "el"]
    with pytest.raises(LanguageError, match="'fr' is no language; write 'language en'.*"
                                            "'language nl'.*'language el'"):
        check_language("fr")
    names = ["anna", "bas", "chris"]
    assert languages_for(names, []) == dict.fromkeys(names, "en")
    assert languages_for(names, ["bas=nl", "el"]) == {"anna": "el", "bas": "nl",
                                                     "chris": "el"}
    with pytest.raises(LanguageError, match="no player 'zed'"):
        languages_for(names, ["zed=nl"])


def test_names_show_the_notation_word_beside_the_rulebook_term() -> None:
    assert name("tower") == "tower"  # English: the notation's word alone
    with speaking("nl", PRESENTER):  # the game's catalogue with the shell's
        assert (name("tower"), name("jester"), name("lake")) == (
            "toren (tower)", "goochelaar (jester)", "meer (lake)")
        assert name("park") == "park"  # the same word: said once
        assert name("per-building") == "per-building"  # no term: the code
    with speaking("el", PRESENTER):
        assert (name("tower"), name("builder")) == ("πύργος (tower)", "κτίστης (builder)")
    assert name("tower") == "tower"  # the block is over


def test_a_language_line_is_taken_out_before_the_game_reads_commands() -> None:
    from pbem.inbound import Line, split_envelope

    env = split_envelope([Line(1, "language nl"), Line(2, "pass")])
    assert env.language == Line(1, "language nl")
    assert [ln.text for ln in env.commands] == ["pass"]


# --------------------------------------------------------------------------- catalogues


def _marked(cfg: Path) -> set[tuple[str | None, str]]:
    """Every (context, msgid) the sources of a catalogue mark, extracted now."""
    with cfg.open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
                "N_": None, "NP_": ((1, "c"), 2), "tr": None, "said": None}
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        found.add((context, message if isinstance(message, str) else message[0]))
    return found


@pytest.mark.parametrize("cfg", sorted(ROOT.glob("pbem/**/locale/*.cfg")),
                         ids=lambda p: p.stem)
def test_every_catalogue_is_complete_and_compiled(cfg: Path) -> None:
    marked = _marked(cfg)
    assert len(marked) > 20
    for lang in ("nl", "el"):
        po = cfg.parent / lang / "LC_MESSAGES" / f"{cfg.stem}.po"
        with po.open("rb") as f:
            catalog = read_po(f)
        done = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog
                if m.id and m.string and not m.fuzzy}
        assert marked - done == set(), f"{po}: missing or fuzzy"
    checked = subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "check"],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout  # every .mo is its .po's


def test_the_catalogues_keep_every_placeholder() -> None:
    import re

    holder = re.compile(r"%\((\w+)\)s")
    for po in ROOT.glob("pbem/**/locale/*/LC_MESSAGES/*.po"):
        with po.open("rb") as f:
            for m in read_po(f):
                if m.id and isinstance(m.id, str):
                    assert sorted(holder.findall(m.id)) == sorted(holder.findall(m.string)), \
                        (po.name, m.id)


# --------------------------------------------------------------------------- a whole game


@pytest.fixture(scope="module")
def game_mails() -> tuple[Moderator, str, list[EmailMessage]]:
    return play_in_languages()


def play_in_languages() -> tuple[Moderator, str, list[EmailMessage]]:
    """A whole game by mail, anna in English, bas in Dutch, chris in Greek; every mail
    sent, each checked for hidden cards of others (in whatever language)."""
    mod = make_moderator()
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    specs = [dataclasses.replace(p, language=LANGS[p.name]) for p in PLAYERS]
    players = [ScriptedPlayer(p.name, i, p.email, random.Random(i), typo_rate=0.05)
               for i, p in enumerate(PLAYERS)]
    sent: list[EmailMessage] = []
    with freeze_time(NOW) as clock:
        game = mod.new_game(specs, utcnow(), game_id="pof-lang", seed="lang-seed")
        state = _play(mod, game, mailbox, smtp, players, sent, clock)
    assert state.finished
    return mod, game, sent


def _play(mod, game, mailbox, smtp, players, sent, clock):
    names = [p.name for p in PLAYERS]
    rng = random.Random(3)
    for _ in range(5000):
        poll_once(mod, lambda: mailbox, smtp)  # cron: the clock is utcnow, frozen
        state = state_of(mod, game)
        with mod.store.read() as s:
            events = load_events(s, game)
        for msg in smtp.sent:
            to = names.index(str(msg["To"]).split("@")[0])
            words = set(WORD.findall((text_of(msg) + html_of(msg)).lower()))
            leaked = (words & hidden_from(to, state)) - known_to(to, state, events)
            assert not leaked, f"mail to {names[to]} at v{state.version}: {leaked}"
            sent.append(msg)
            players[to].read(msg)
        smtp.sent.clear()
        if state.finished:
            break
        actor = pick_actor(state, players, rng)
        assert actor is not None, to_act(state)
        mailbox.put(actor.move(state))
        clock.tick(timedelta(minutes=20))
    return state


def _mails(sent: list[EmailMessage], to: str, kind: str) -> list[EmailMessage]:
    return [m for m in sent if str(m["To"]) == to and kind_and_version(m)[0] == kind]


@pytest.mark.parametrize("to", [BAS, CHRIS], ids=["nl", "el"])
def test_no_english_leftovers_in_translated_mails(game_mails, to: str) -> None:
    _, _, sent = game_mails
    mine = [m for m in sent if str(m["To"]) == to]
    assert {kind_and_version(m)[0] for m in mine} >= {"status", "private"}
    for msg in mine:
        for part in (text_of(msg), html_of(msg)):
            left = [w for w in ENGLISH if w in part]
            assert not left, (kind_and_version(msg), left)


def test_the_english_seat_reads_english(game_mails) -> None:
    _, _, sent = game_mails
    status = _mails(sent, ANNA, "status")
    assert "How to reply" in text_of(status[0]) and "Your commands now:" in text_of(status[0])
    assert "the game ended" in text_of(status[-1])


def test_status_mails_in_dutch_and_greek(game_mails) -> None:
    _, _, sent = game_mails
    nl, el = _mails(sent, BAS, "status"), _mails(sent, CHRIS, "status")
    nl_text = "\n".join(text_of(m) for m in nl)
    el_text = "\n".join(text_of(m) for m in el)
    assert "Zo antwoord je" in text_of(nl[0]) and "Je opdrachten nu:" in text_of(nl[1])
    assert "Πώς απαντάς" in text_of(el[0]) and "Οι εντολές σου τώρα:" in text_of(el[1])
    assert "ronde 1 begon" in nl_text and "ο γύρος 1 άρχισε" in el_text
    # the headings, headline and the game's own lines
    assert "Voorbereiding" in text_of(nl[0]).splitlines()[0]
    assert "Προετοιμασία" in text_of(el[0]).splitlines()[0]
    assert "Sinds je laatste mail:" in nl_text and "Vorstendommen:" in nl_text
    assert "Από το τελευταίο σου μήνυμα:" in el_text and "Πριγκιπάτα:" in el_text
    assert "Ronde 1 van 7, veilingfase" in nl_text and "Γύρος 1 από 7" in el_text
    assert "Je personenkaarten, wat hun werken nodig hebben" in nl_text
    assert "Sleutel: P Palazzo" in nl_text and "R toren" in nl_text
    assert "<h3>Vorstendommen</h3>" in html_of(nl[0])
    # names in the rulebooks' terms, the notation's word beside them
    assert "(tower)" not in nl_text or "toren (tower)" in nl_text
    assert "goochelaar (jester)" in nl_text or "bouwmeester (builder)" in nl_text
    assert "γελωτοποιός (jester)" in el_text or "κτίστης (builder)" in el_text
    # the commands stay English
    assert "\n  keep " in text_of(nl[0]) and "\n  keep " in text_of(el[0])
    assert "\n      bv. build " in nl_text and "\n      π.χ. build " in el_text
    assert any("\n  pass" in text_of(m) or "\n  open <object>" in text_of(m) for m in nl)


def test_private_draw_mails_in_dutch_and_greek(game_mails) -> None:
    _, _, sent = game_mails
    nl = [text_of(m) for m in _mails(sent, BAS, "private")]
    el = [text_of(m) for m in _mails(sent, CHRIS, "private")]
    assert all("alleen voor bas" in t and "Alleen jij krijgt deze mail." in t for t in nl)
    assert all("προσωπικό για chris" in t and "Μόνο εσύ λαμβάνεις" in t for t in el)
    assert any("je kreeg " in t for t in nl)  # the professions dealt
    drawn = [t for t in nl if "je trok kaarten van de stapel" in t]
    if drawn:
        assert "(choose " not in drawn[0] and "kies er één" in drawn[0]
        assert "\n  choose " in drawn[0]  # the command stays English


def test_error_mails_in_dutch_and_greek(mod, mailbox, smtp) -> None:
    specs = [dataclasses.replace(p, language=LANGS[p.name]) for p in PLAYERS]
    mod.new_game(specs, NOW, game_id="pof-err", seed="test-seed")
    run(mod, mailbox, smtp)
    smtp.sent.clear()
    send(mailbox, smtp, BAS, "bild theater a1")
    send(mailbox, smtp, CHRIS, "keep nonsense")
    run(mod, mailbox, smtp)
    (nl,), (el,) = smtp.to(BAS), smtp.to(CHRIS)
    nl_text, el_text = text_of(nl), text_of(el)
    assert "niet uitgevoerd" in smtp.headline(nl) and "δεν εφαρμόστηκε" in smtp.headline(el)
    assert "Spel pof-err: je opdrachten zijn niet uitgevoerd." in nl_text
    assert "Regel 1:" in nl_text and "Niets uit deze mail is uitgevoerd." in nl_text
    assert "Γραμμή 1:" in el_text and "^ στήλη 6" in el_text
    assert "Οι εντολές σου τώρα:" in el_text and "\n  keep " in el_text
    for part in (nl_text, el_text, html_of(nl), html_of(el)):
        assert not [w for w in ENGLISH if w in part]
    reader = ScriptedPlayer("bas", 1, BAS, random.Random(1))
    reader.read(nl)
    assert reader.errors == 1  # a scripted player tells an error mail in any language


def test_the_game_over_mail_in_every_language(game_mails) -> None:
    _, _, sent = game_mails
    last = {to: text_of(_mails(sent, to, "status")[-1]) for to in (ANNA, BAS, CHRIS)}
    assert "The seed of this game was" in last[ANNA]
    assert "Het zaad (seed) van dit spel was" in last[BAS]
    assert "het spel is afgelopen; winna" in last[BAS]
    assert "Ο σπόρος (seed) αυτού του παιχνιδιού ήταν" in last[CHRIS]
    assert "το παιχνίδι τελείωσε· νικητ" in last[CHRIS]
    assert all("How to reply" not in t and "Zo antwoord" not in t for t in last.values())


def test_the_languages_do_not_change_the_game(game_mails) -> None:
    mod, game, _ = game_mails
    assert seats_language(mod, game) == LANGS


# --------------------------------------------------------------------------- setting it


def test_a_language_line_sets_it_confirms_it_and_it_survives_a_restart(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    mod = make_moderator(url)
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    game = mod.new_game(PLAYERS, NOW, game_id="pof-set", seed="test-seed")
    run(mod, mailbox, smtp)
    smtp.sent.clear()
    send(mailbox, smtp, BAS, "language nl\n")
    assert run(mod, mailbox, smtp).outcomes[0].note == "language nl"
    (reply,) = smtp.sent
    assert "Je mails zijn nu in het Nederlands" in text_of(reply)
    assert "je instellingen" in smtp.headline(reply)
    # with commands: played, and confirmed in the status mail of the sender
    state = state_of(mod, game)
    smtp.sent.clear()
    send(mailbox, smtp, CHRIS, f"language el\n{keep_line(state, 2)}\n")
    run(mod, mailbox, smtp)
    (status,) = smtp.to(CHRIS)
    assert "Τα μηνύματά σου είναι τώρα στα Ελληνικά" in text_of(status)
    mod.store.dispose()
    again = Moderator(Store(url), mod.cfg)
    assert seats_language(again, game) == {"anna": "en", "bas": "nl", "chris": "el"}
    smtp.sent.clear()
    send(mailbox, smtp, ANNA, keep_line(state, 0))
    run(again, mailbox, smtp)
    assert "Zo antwoord je" in text_of(smtp.to(BAS)[0])
    again.store.dispose()


@pytest.mark.parametrize("line", ["language fr", "language"])
def test_a_bad_language_is_refused_and_nothing_applied(mod, mailbox, smtp, line) -> None:
    game = mod.new_game(PLAYERS, NOW, game_id="pof-bad", seed="test-seed")
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    smtp.sent.clear()
    send(mailbox, smtp, ANNA, f"{keep_line(state, 0)}\n{line}\n")
    assert run(mod, mailbox, smtp).outcomes[0].status == "rejected"
    text = text_of(smtp.to(ANNA)[0])
    assert "'language en'" in text and "'language nl'" in text and "'language el'" in text
    assert state_of(mod, game).version == state.version
    assert seats_language(mod, game)["anna"] == "en"


def test_pbem_new_takes_each_players_language(env) -> None:
    from typer.testing import CliRunner

    from pbem.cli import app

    runner = CliRunner()
    seats = ["-p", "anna:anna@example.org", "-p", "bas:bas@example.org",
             "-p", "chris:chris@example.org"]
    assert runner.invoke(app, ["init"]).exit_code == 0
    done = runner.invoke(app, ["new", *seats, "--lang", "bas=nl", "--lang", "el"])
    assert done.exit_code == 0, done.output
    shown = json.loads(runner.invoke(app, ["status", "pof-1", "--json"]).output)
    assert [p["language"] for p in shown["players"]] == ["el", "nl", "el"]
    assert "language nl" in runner.invoke(app, ["status", "pof-1"]).output
    bad = runner.invoke(app, ["new", *seats, "--lang", "anna=fr"])
    assert bad.exit_code == 2 and "'fr' is no language" in bad.output
    bad = runner.invoke(app, ["new", *seats, "--lang", "zed=nl"])
    assert bad.exit_code == 2 and "no player 'zed'" in bad.output


def test_speaking_outside_any_mail_is_english() -> None:
    assert i18n.current_language() == "en"
    with speaking("el"):
        assert i18n.current_language() == "el"
        with speaking("xx"):  # an unknown code (a hand-edited row): English
            assert i18n.gettext("Your commands now") == "Your commands now"
        assert i18n.gettext("Your commands now") == "Οι εντολές σου τώρα"
    assert i18n.gettext("Your commands now") == "Your commands now"


def test_a_refused_mail_is_answered_in_the_seats_language(mod, mailbox, smtp) -> None:
    specs = [dataclasses.replace(p, language=LANGS[p.name]) for p in PLAYERS]
    mod.new_game(specs, NOW, game_id="pof-ref", seed="test-seed")
    run(mod, mailbox, smtp)
    smtp.sent.clear()
    send(mailbox, smtp, BAS, "@v1234567890\npass\n")  # a version no mail can answer
    assert run(mod, mailbox, smtp).outcomes[0].status == "rejected"
    (reply,) = smtp.to(BAS)
    assert text_of(reply).startswith("De moderator heeft niets met je mail gedaan: ")
    assert "Niets uit deze mail is uitgevoerd." in text_of(reply)


def test_an_undo_request_in_every_language(mod, mailbox, smtp) -> None:
    specs = [dataclasses.replace(p, language=LANGS[p.name]) for p in PLAYERS]
    game = mod.new_game(specs, NOW, game_id="pof-undo", seed="test-seed")
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    for seat, addr in enumerate((ANNA, BAS, CHRIS)):
        send(mailbox, smtp, addr, keep_line(state, seat))
    run(mod, mailbox, smtp)
    send(mailbox, smtp, ANNA, "open jester")
    run(mod, mailbox, smtp)
    smtp.sent.clear()
    send(mailbox, smtp, ANNA, "undo")
    run(mod, mailbox, smtp)
    en, nl, el = (text_of(smtp.to(a)[-1]) for a in (ANNA, BAS, CHRIS))
    assert "anna asks to take back their last command, 'open jester'" in en
    assert "anna vraagt de laatste opdracht terug te nemen, 'open jester'" in nl
    assert "Terugnemen gevraagd: anna vroeg 'open jester' terug te nemen" in nl
    assert "anna: ζητά να αναιρέσει την τελευταία εντολή, 'open jester'" in el
    assert "\n  agree\n" in nl and "\n  refuse\n" in el  # the commands stay English
    smtp.sent.clear()
    send(mailbox, smtp, CHRIS, "refuse")
    run(mod, mailbox, smtp)
    assert "chris weigerde het terugnemen van anna" in text_of(smtp.to(BAS)[-1])
    assert "chris refused anna's undo" in text_of(smtp.to(ANNA)[-1])
