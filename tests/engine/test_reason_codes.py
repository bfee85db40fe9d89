"""Every registry of reason codes stays true to the source and the rules pages: each rules page
holds its game's generated tables, every refusal the source raises names a member of its
registry (never a bare string), and every member is raised somewhere."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.core.reasons import KernelReason, Reason, generated_table, reason_table
from engine.registry import SHIPPED, get_game
from ledger.reasons import RecorderReason
from replay.reasons import ServiceReason
from tests.toygame.reasons import BlindBidReason

ROOT = Path(__file__).resolve().parents[2]
ERRORS = {"ActionError", "IllegalAction", "SetupError", "MalformedAction"}


@dataclass(frozen=True)
class Registry:
    """A registry and the source that raises its codes (files or packages under ROOT)."""

    reasons: type[Reason]
    sources: tuple[str, ...]

    def files(self) -> Iterator[Path]:
        """Every Python file of the sources."""
        for source in self.sources:
            path = ROOT / source
            yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


REGISTRIES = {
    "kernel": Registry(KernelReason, ("engine/core", "engine/registry.py", "ledger/catalog.py")),
    **{game: Registry(get_game(game).reasons, (f"engine/{game}",)) for game in sorted(SHIPPED)},
    "blindbid": Registry(BlindBidReason, ("tests/toygame",)),
    "recorder": Registry(RecorderReason, ("ledger/recorder.py", "ledger/match.py",
                                          "ledger/sealing.py")),
    "service": Registry(ServiceReason, ("replay",)),
}
GAMES = sorted(SHIPPED)
KERNEL_CODES = {member.value for member in KernelReason}


def _registries_named(tree: ast.Module) -> dict[str, type[Reason]]:
    """The names a module binds to a reason registry by ``from X import Cls [as Alias]``."""
    named = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("reasons"):
            module = importlib.import_module(node.module)
            for alias in node.names:
                found = getattr(module, alias.name, None)
                if isinstance(found, type) and issubclass(found, Reason):
                    named[alias.asname or alias.name] = found
    return named


def _refusers(tree: ast.Module) -> set[str]:
    """The error classes and a module's helpers that take a reason first (``_illegal``)."""
    helpers = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
               and node.args.args and node.args.args[0].arg == "reason"}
    return ERRORS | helpers


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else None


def _refusals(registry: Registry) -> Iterator[tuple[str, ast.expr | None, dict[str, type[Reason]]]]:
    """(where, the reason given, the module's registries) for every refusal the source builds
    (a MalformedAction gives none: it is always the kernel's ``malformed_action``)."""
    for path in registry.files():
        tree = ast.parse(path.read_text("utf-8"))
        named, refusers = _registries_named(tree), _refusers(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node) in refusers:
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                given = None if _name(node) == "MalformedAction" else \
                    (node.args[0] if node.args else None)
                yield where, given, named


def _members_used(registry: Registry) -> set[str]:
    """The members of the registry its sources name (``R.SLOT_TAKEN``)."""
    used = set()
    for path in registry.files():
        tree = ast.parse(path.read_text("utf-8"))
        named = _registries_named(tree)
        used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                 and isinstance(node.value, ast.Name)
                 and named.get(node.value.id) is registry.reasons}
    return used


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_holds_the_generated_tables(game: str) -> None:
    page = (ROOT / "docs" / "games" / f"{game}.md").read_text("utf-8")
    shown = generated_table(page, game)
    assert shown is not None, f"docs/games/{game}.md has no generated reason-code block"
    assert shown == reason_table(get_game(game).reasons), (
        f"regenerate: kiroku reasons {game} --write-docs docs/games/{game}.md")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_declares_its_own_registry(game: str) -> None:
    reasons = get_game(game).reasons
    assert reasons.__module__ == f"engine.{game}.reasons"
    assert len(reasons) > 0


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_every_refusal_names_a_member_of_its_registry(name: str) -> None:
    registry = REGISTRIES[name]
    own_only = name in (*GAMES, "blindbid")  # a game raises its own codes only
    wrong = []
    for where, given, named in _refusals(registry):
        if given is None or isinstance(given, ast.Name):
            continue  # the kernel's malformed_action, or a reason passed through (typed)
        if isinstance(given, ast.IfExp):
            options = [given.body, given.orelse]
        else:
            options = [given]
        for option in options:
            ok = (isinstance(option, ast.Attribute) and isinstance(option.value, ast.Name)
                  and option.value.id in named and option.attr in named[option.value.id].__members__
                  and (named[option.value.id] is registry.reasons or not own_only))
            if not ok:
                wrong.append(f"{where}: {ast.unparse(option)}")
    assert not wrong, wrong


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_no_member_goes_unused(name: str) -> None:
    registry = REGISTRIES[name]
    used = _members_used(registry)
    unused = [member.name for member in registry.reasons if member.name not in used
              and not (registry.reasons is not KernelReason and member.value in KERNEL_CODES)]
    assert not unused, unused


def test_a_code_is_declared_once_per_registry_and_reads_as_a_sentence() -> None:
    for registry in REGISTRIES.values():
        for member in registry.reasons:
            assert member.name == member.value.upper(), member
            assert member.section and member.section[:1].isupper(), member
            assert member.meaning[:1].isupper() or member.meaning.startswith("`"), member
            assert member.meaning.endswith((".", ")")), member


def test_the_services_codes_are_not_any_games() -> None:
    """A code of the recorder or the service means one thing everywhere: no game, nor the
    kernel, declares it with another meaning."""
    games = {m.value for g in GAMES for m in get_game(g).reasons} | KERNEL_CODES
    for reasons in (RecorderReason, ServiceReason):
        assert not {m.value for m in reasons} & games, reasons
