"""The moderator commands through the real command line (typer's CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_init_new_poll_status_export(env: Path) -> None:
    assert "database created at revision" in ok("init")
    assert (env / "var" / "pbem.sqlite").exists()
    out = ok("new", "-p", "anna:anna@example.org:Europe/Amsterdam", "-p", "bas:bas@example.org",
             "-p", "chris:chris@example.org", "--game", "pof-17", "--turn-hours", "48")
    assert "created pof-17" in out
    assert "sent 6" in ok("poll", "--once")
    assert len(list((env / "mail" / "anna@example.org" / "new").glob("*.eml"))) == 2
    data = json.loads(ok("status", "pof-17", "--as", "anna", "--json"))
    assert data["version"] == 4 and data["deadline"] and data["outbox"] == {"sent": 6}
    anna, bas = data["view"]["players"][:2]
    assert anna["dealt"] and bas["dealt"] is None and bas["florins"] is None
    assert "Setup" in ok("status", "pof-17")
    log = ok("export", "pof-17")
    assert '[Players "anna, bas, chris"]' in log  # the cards are hidden until the end:
    assert "* deal anna: ? ? ? ?  # v" in log and "* deal anna: ? ? ? ?\n" not in log
    assert "* deal anna" in ok("export", "pof-17", "--full")


def test_moderator_commands(env: Path) -> None:
    ok("new", "-p", "anna:anna@example.org", "-p", "bas:bas@example.org",
       "-p", "chris:chris@example.org")
    assert "paused" in ok("pause", "pof-1", "--reason", "holiday")
    assert "resumed" in ok("resume", "pof-1")
    assert "extended" in ok("extend", "pof-1", "24")
    assert "now played by" in ok("replace", "pof-1", "bas", "--email", "zoe@example.org",
                                 "--name", "zoe")
    assert "sent" in ok("poll", "--once")
    assert json.loads(ok("status", "pof-1", "--json"))["players"][1]["email"] == \
        "zoe@example.org"


def test_usage_errors(env: Path) -> None:
    r = runner.invoke(app, ["new", "-p", "anna", "-p", "bas:bas@x.org", "-p", "c:c@x.org"])
    assert r.exit_code == 2 and "NAME:ADDRESS" in r.output
    r = runner.invoke(app, ["new", "-p", "a:a@x.org:Mars/Olympus", "-p", "b:b@x.org",
                            "-p", "c:c@x.org"])
    assert r.exit_code == 2 and "time zone" in r.output
    r = runner.invoke(app, ["new", *(arg for n in "abcdef" for arg in ("-p", f"{n}:{n}@x.org"))])
    assert r.exit_code == 2 and "3 to 5" in r.output
    r = runner.invoke(app, ["status", "pof-404"])
    assert r.exit_code == 1 and "no game" in r.output


def test_demo_plays_a_whole_game(env: Path) -> None:
    out = ok("demo", "--out", str(env / "demo"), "--players", "3")
    assert "played to the end" in out and "winner" in out
    mails = list((env / "demo" / "mail" / "anna@example.org" / "cur").glob("*.eml"))
    assert len(mails) > 50
    from pbem.logs import replay_log

    log = ok("export", "pof-1", "--db", str(env / "demo" / "pbem.sqlite"))
    result = replay_log(log)
    assert result.ok and result.finished, result.error  # the export replays to the end


def test_several_addresses_and_the_address_commands(env: Path, monkeypatch) -> None:
    ok("new", "-p", "anna:anna@example.org,anna@work.example:Europe/Amsterdam",
       "-p", "bas:bas@example.org", "-p", "chris:chris@example.org")
    assert ok("address", "list", "pof-1", "anna").split() == ["anna@example.org",
                                                               "anna@work.example"]
    assert "registered" in ok("address", "add", "pof-1", "anna", "anna@phone.example")
    assert "removed" in ok("address", "remove", "pof-1", "anna", "anna@example.org")
    assert json.loads(ok("address", "list", "pof-1", "anna", "--json")) == \
        ["anna@work.example", "anna@phone.example"]
    ok("address", "remove", "pof-1", "anna", "anna@phone.example")
    r = runner.invoke(app, ["address", "remove", "pof-1", "anna", "anna@work.example"])
    assert r.exit_code == 1 and "only address" in r.output
    r = runner.invoke(app, ["address", "add", "pof-1", "anna", "bas@example.org"])
    assert r.exit_code == 1 and "registered for bas" in r.output
    r = runner.invoke(app, ["address", "add", "pof-1", "zed", "z@example.org"])
    assert r.exit_code == 1 and "no seat" in r.output
    r = runner.invoke(app, ["address", "add", "pof-1", "anna", "not-an-address"])
    assert r.exit_code == 1 and "mail address" in r.output
    r = runner.invoke(app, ["address", "--help"])
    assert r.exit_code == 0 and "add" in r.output and "remove" in r.output
    ok("replace", "pof-1", "bas", "--email", "zoe@example.org", "--email", "zoe@work.example")
    assert ok("address", "list", "pof-1", "bas").split() == ["zoe@example.org",
                                                              "zoe@work.example"]


def test_require_auth_needs_an_authserv_id(env: Path, monkeypatch) -> None:
    players = ["-p", "a:a@x.org", "-p", "b:b@x.org", "-p", "c:c@x.org"]
    r = runner.invoke(app, ["new", *players, "--require-auth", "dmarc"])
    assert r.exit_code == 2 and "PBEM_AUTHSERV_ID" in r.output
    r = runner.invoke(app, ["new", *players, "--require-auth", "arc"])
    assert r.exit_code == 2 and "dmarc" in r.output
    monkeypatch.setenv("PBEM_AUTHSERV_ID", "mx.x.org")
    assert "created" in ok("new", *players, "--require-auth", "dmarc")
    monkeypatch.setenv("PBEM_STRANGER_REPLIES", "sometimes")
    r = runner.invoke(app, ["status", "pof-1"])
    assert r.exit_code == 2 and "stranger_replies" in r.output


def test_init_reports_what_it_did(env: Path) -> None:
    from pbem.schema import HEAD

    assert ok("init", "--db", "game.sqlite").startswith(
        f"database created at revision {HEAD}: game.sqlite")
    assert json.loads(ok("init", "--db", "game.sqlite", "--json")) == {
        "database": "game.sqlite", "before": HEAD, "after": HEAD, "changed": False}
    assert "database up to date" in ok("init", "--db", "game.sqlite")


def test_init_refuses_a_database_from_a_newer_pbem(env: Path) -> None:
    import sqlite3

    ok("init", "--db", "game.sqlite")
    with sqlite3.connect(env / "game.sqlite") as conn:
        conn.execute("UPDATE pbem_alembic_version SET version_num = '9999'")
    result = runner.invoke(app, ["init", "--db", "game.sqlite"])
    assert result.exit_code == 3
    assert "schema revision 9999" in result.output and "Traceback" not in result.output
