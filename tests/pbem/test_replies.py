"""The rules of reading a reply (pbem/replies.py): where the quoted mail starts, what
ends the reading, and which lines are commands."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.princes import GRAMMAR
from pbem.inbound import html_to_text, split_envelope
from pbem.replies import (
    Line,
    clean_body,
    is_command_line,
    no_commands,
    own_lines,
    shown_line,
    shown_lines,
)

QUOTE = "> Your commands now:\n>   pass\n>   bid 400\n"


def texts(body: str) -> list[str]:
    return [ln.text for ln in own_lines(body, grammar=GRAMMAR)]


def test_header_followed_by_quote_is_skipped_and_reading_goes_on() -> None:
    body = f"Hi\nOn Mon, 30 Nov 2026 at 10:00, pbem <m@x.org> wrote:\n{QUOTE}\nbid 100\nAnna\n"
    assert [(ln.number, ln.text) for ln in own_lines(body, grammar=GRAMMAR)] == [
        (1, "Hi"), (7, "bid 100"), (8, "Anna")]


def test_header_without_quote_marks_ends_the_reading() -> None:
    body = "bid 100\nOn Mon, 30 Nov 2026 at 10:00, pbem <m@x.org> wrote:\n\nYour commands:\npass\n"
    assert texts(body) == ["bid 100"]


@pytest.mark.parametrize("header", [
    "From: pbem <m@x.org>\nSent: Monday\nTo: anna\nSubject: x",
    "Von: pbem <m@x.org>\nGesendet: Montag\nAn: anna\nBetreff: x",
    "De: pbem\nEnviada em: segunda\nPara: anna\nAssunto: x",
    "Από: pbem\nΣτάλθηκε: Δευτέρα\nΠρος: anna\nΘέμα: x",
    "От: pbem\nОтправлено: 30 ноября\nКому: anna\nТема: x",
    "*From:* pbem\n*Sent:* Monday",
])
def test_outlook_header_blocks_end_the_reading(header: str) -> None:
    assert texts(f"bid 100\n\n{header}\n\npass\n") == ["bid 100"]


@pytest.mark.parametrize("stop", [
    "-- ", "--", "-----Original Message-----", "-----Ursprüngliche Nachricht-----",
    "-----Message d'origine-----", "-----Исходное сообщение-----",
    "---------- Forwarded message ---------",
    "Sent from my Galaxy", "Von meinem iPhone gesendet", "Envoyé de mon iPad",
    "Enviado do meu iPhone", "Στάλθηκε από το iPhone μου", "Отправлено с iPhone",
    "Get Outlook for Android", "_" * 32, "Best regards,", "Mit freundlichen Grüßen",
])
def test_cuts(stop: str) -> None:
    assert texts(f"pass\n{stop}\nbid 400\n") == ["pass"]


def test_a_sign_off_word_in_a_sentence_is_no_cut() -> None:
    assert texts("Thanks, here are my moves for this round:\npass\n") == [
        "Thanks, here are my moves for this round:", "pass"]
    assert texts("Hi\nThanks, pass\n") == ["Hi", "Thanks, pass"]  # listed as ignored


def test_wrapped_attribution() -> None:
    assert texts("pass\nOn Mon, 3 Dec 2026, a long name\n<m@x.org> wrote:\nbid 1\n") == ["pass"]
    # two lines that merely end in "wrote:" when joined are not an attribution
    assert texts("bid 1\nOn Mon, 3 Dec 2026, pbem wrote:\n> x\npass\n") == ["bid 1", "pass"]


def test_quotes_inside_quotes_and_comments_are_skipped() -> None:
    body = "> On x wrote:\n> > -- \n# my plan: bid high\nbid 400\n"
    assert texts(body) == ["bid 400"]


def test_overlong_lines_are_read_but_never_headers() -> None:
    long = "On " + "a " * 200 + "wrote:"
    assert texts(f"pass\n{long}\nbid 4\n")[0] == "pass"


def test_bom_and_zero_width_characters_are_dropped() -> None:
    assert clean_body("\ufeffpass\r\n\u200bbid 4\r") == "pass\nbid 4\n"
    assert texts("\ufeff@v4\nkeep poet\n") == ["@v4", "keep poet"]
    env = split_envelope(own_lines("\ufeff@v4\n\ufeffkeep poet doctor alchemist\n",
                                   grammar=GRAMMAR))
    assert env.version == 4 and [c.text for c in env.commands] == [
        "keep poet doctor alchemist"]


@pytest.mark.parametrize("line", [
    "bid 400", "BID 400", "bui theater a1 b1 c1", "pass", "Done", "PASS",
    "pass.", "Done!", "keep poet doctor alchemist # my pick",
    "bdi 400",              # one edit from 'bid' and reads as a command after it
    "bild theater a1",      # one edit from 'build' (and 'bid')
    "plcae park e6",        # two letters swapped
    "Work is busy",         # starts with a command word: refused, never dropped
])
def test_command_lines(line: str) -> None:
    assert is_command_line(line, grammar=GRAMMAR)


@pytest.mark.parametrize("line", [
    "Hi,", "Hello moderator", "Cheers,", "Anna", "Thanks!", "Best regards", "Don",
    "Und", "Und dann?", "Bon", "Bon appetit", "Pro", "Pro Runde ein Zug", "Ref", "Pas",
    "Pas de souci", "Agr", "Take care", "Keep well,", "Keep up the good work",
    "Grüße", "Привет", "Ευχαριστώ", "bild thaetre a1",  # two typos: not recognisable
    "prof poet",  # 'profession' takes no word after it
])
def test_ignored_lines(line: str) -> None:
    assert not is_command_line(line, grammar=GRAMMAR)


def test_envelope_sorts_commands_and_ignored_lines() -> None:
    env = split_envelope(own_lines("Hi,\n@v7\nbid 400\nCheers,\nDon\n", grammar=GRAMMAR))
    assert env.version == 7
    assert [c.text for c in env.commands] == ["bid 400"]
    assert [(ln.number, ln.text) for ln in env.ignored] == [(1, "Hi,"), (4, "Cheers,"), (5, "Don")]


def test_html_quote_containers_are_quotes() -> None:
    html = ('<div dir="ltr">bid 400</div><div class="gmail_quote"><div class="gmail_attr">'
            'On Mon, pbem wrote:</div><div>pass</div></div>'
            '<div class="yahoo_quoted"><div>pass</div></div>'
            '<div class="protonmail_quote">pass<blockquote>pass</blockquote></div><div>Anna</div>')
    assert texts(html_to_text(html)) == ["bid 400", "Anna"]


def test_html_rule_ends_the_reading() -> None:
    assert texts(html_to_text("<p>bid 400</p><hr><p>pass</p>")) == ["bid 400"]


def test_ignored_lines_shown_back_are_printable_and_capped() -> None:
    lines = [Line(i + 1, f"line {i}\u202e\x1b[31m") for i in range(15)] + [Line(16, "x" * 200)]
    shown = shown_lines(lines, grammar=GRAMMAR)
    assert len(shown) == 12 and shown[0] == "line 0  [31m"
    assert all(ch.isprintable() for text in shown for ch in text)
    assert shown_line("x" * 200) == "x" * 77 + "..."
    reason = no_commands(lines, grammar=GRAMMAR)
    assert reason.startswith("your mail holds no commands")
    assert "line 11" in reason and "line 12" not in reason and "and 4 more" in reason
    assert no_commands([], grammar=GRAMMAR) == (
        "your mail holds no commands (quoted text and signatures are ignored).")


PIECES = st.sampled_from([
    "\n", "\r\n", " ", "> ", ">", "-- ", "--", "On ", "Mon, 3 Dec ", "wrote:", "From: ",
    "Sent: ", "Von: ", "<a@x.org>", "pbem", ":", "bid 400", "pass", "Don", "Hi,", "_" * 20,
    "\ufeff", "\u200b", "Thanks,", "schrieb ", "Am ", "Sent from my iPhone", "#", "ü", "Ω",
])


@given(st.lists(PIECES, max_size=60).map("".join))
def test_reading_any_text_never_fails_and_keeps_line_numbers(text: str) -> None:
    lines = clean_body(text).split("\n")
    for ln in own_lines(text, grammar=GRAMMAR):
        assert 1 <= ln.number <= len(lines)
        assert ln.text == lines[ln.number - 1].strip() and ln.text
        assert not ln.text.startswith((">", "#"))
    env = split_envelope(own_lines(text, grammar=GRAMMAR))
    assert len(env.commands) + len(env.ignored) <= len(own_lines(text, grammar=GRAMMAR))


def test_a_lone_shortened_command_gets_a_hint() -> None:
    lines = [Line(1, w) for w in ("Don", "Pas.", "Bon", "Anna", "Und dann", "bu", "Agr")]
    assert shown_lines(lines, grammar=GRAMMAR) == [
        "Don (to play 'done', write it in full)", "Pas. (to play 'pass', write it in full)",
        "Bon (to play 'bonus', write it in full)", "Anna", "Und dann", "bu",
        "Agr (to play 'agree', write it in full)"]


def test_command_words_are_the_grammars() -> None:
    """Which lines are commands is the game's to say: another grammar, other words."""
    from typing import Any, cast

    from notation import Grammar, Vocabulary

    class Dice:
        verbs = Vocabulary("command", ("roll", "undo"), whole=("undo",))

        @staticmethod
        def parse_command(text: str, players: Any = ()) -> Any:
            return Dice.verbs.resolve(text.split()[0])

    dice = cast(Grammar, Dice())
    assert is_command_line("roll 3", grammar=dice)
    assert is_command_line("Rol", grammar=dice)
    assert not is_command_line("bid 400", grammar=dice)
    assert is_command_line("bid 400", grammar=GRAMMAR)
    assert shown_lines([Line(1, "und")], grammar=dice) == ["und (to play 'undo', write it in full)"]
