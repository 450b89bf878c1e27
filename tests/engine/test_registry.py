"""The registries read the installed entry points once, for every group, and see in
each group what `importlib.metadata.entry_points(group=...)` sees."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import pytest

from engine import registry

GROUPS = ("pbem.games", "pbem.summaries", "pbem.grammars", "pbem.presenters",
          registry.DEFAULT_GROUP, "console_scripts", "no.such.group")


@pytest.mark.parametrize("group", GROUPS)
def test_a_group_holds_what_importlib_metadata_selects(group: str) -> None:
    assert list(registry.installed_entry_points(group)) == list(
        metadata.entry_points(group=group))


def test_every_registry_shares_one_search_of_the_installed_packages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    searches: list[dict[str, Any]] = []

    def counted(**params: Any) -> Any:
        searches.append(params)
        return metadata.entry_points(**params)

    monkeypatch.setattr(registry, "_installed", [])
    monkeypatch.setattr(registry, "entry_points", counted)
    monkeypatch.setattr(registry, "_default", [])
    fresh = [registry.Registry(group, registry._game_name) for group in GROUPS[:4]]
    name = registry.default_name()
    for r in fresh:
        assert name in r.names(), r.group
    assert fresh[0].get(name).name == name
    assert searches == [{}]
