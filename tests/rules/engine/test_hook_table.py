"""The hook points agree in their three places: ``hooks.HOOKS``, the table of the module's
docstring and the methods of ``AbilityHooks`` (each a no-op with a docstring)."""

from __future__ import annotations

import inspect
import re

from pipeline.rules import hooks
from pipeline.rules.hooks import HOOKS, AbilityHooks

ROW = re.compile(r"^``([a-z_]+)``\s{2,}\S", re.M)


def table_rows() -> list[str]:
    """The hook names of the docstring table, in order."""
    return ROW.findall(hooks.__doc__ or "")


def hook_methods() -> list[str]:
    """The hooks ``AbilityHooks`` defines, in source order (``listens`` is the protocol); a
    routine rather than a function, as the compiled module's methods are not Python
    functions."""
    return [name for name, member in vars(AbilityHooks).items()
            if inspect.isroutine(member) and not name.startswith("_") and name != "listens"]


def test_the_table_lists_hooks_in_order() -> None:
    assert table_rows() == list(HOOKS)


def test_every_hook_is_a_method_and_every_method_a_hook() -> None:
    assert sorted(hook_methods()) == sorted(HOOKS)
    assert len(set(HOOKS)) == len(HOOKS)


def test_every_hook_is_documented_and_does_nothing_by_default() -> None:
    base = AbilityHooks()
    for name in HOOKS:
        method = getattr(AbilityHooks, name)
        assert inspect.getdoc(method), name
        assert not base.listens(name), name  # the base class overrides nothing
