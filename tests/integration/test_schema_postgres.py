"""The migrations on the real PostgreSQL (tests/pbem/test_schema.py has SQLite)."""

from __future__ import annotations

from sqlalchemy import inspect

from pbem import schema
from pbem.store import Store
from tests.pbem.schema_checks import (
    make_release_database,
    make_revision_database,
    openers_migrate_once,
    schema_diff,
    upgrade_and_play_on,
    upgrade_fills_due_at,
    upgrade_gives_every_seat_english,
    upgrade_gives_every_seat_every,
    upgrade_to_game_name_in_place,
)


def test_new_database_matches_the_models(database_url: str) -> None:
    store = Store(database_url)
    store.drop_all()
    done = store.create_all()
    assert (done.before, done.after) == (None, schema.HEAD)
    assert schema_diff(store.engine) == []
    assert not store.create_all().changed
    store.dispose()


def test_release_database_with_a_game_upgrades_in_place_and_plays_on(database_url: str) -> None:
    game_id = make_release_database(database_url)
    store = Store(database_url)
    assert schema.VERSION_TABLE not in inspect(store.engine).get_table_names()
    assert schema_diff(store.engine) != []
    store.dispose()
    upgrade_and_play_on(database_url, game_id)


def test_database_at_0002_gets_each_games_game_in_place(database_url: str) -> None:
    upgrade_to_game_name_in_place(database_url, make_revision_database(database_url, "0002"))


def test_database_at_0004_gets_each_games_due_time_in_place(database_url: str) -> None:
    upgrade_fills_due_at(database_url)


def test_database_at_0006_gets_every_seats_mail_setting_in_place(database_url: str) -> None:
    upgrade_gives_every_seat_every(database_url)


def test_database_at_0007_gets_every_seats_language_in_place(database_url: str) -> None:
    upgrade_gives_every_seat_english(database_url)


def test_openers_at_once_migrate_once_under_the_advisory_lock(database_url: str) -> None:
    Store(database_url).drop_all()
    openers_migrate_once(database_url)
