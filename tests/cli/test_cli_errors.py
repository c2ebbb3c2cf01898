"""One error base and shared options on the command line.

Every layer's input error is a :class:`pipeline.errors.LabError`, so ``cli.friendly`` turns
any of them into one line and exit code 2 by catching that one class; the options several
commands take (``--executor``, ``--scheduler``) are declared once, with one help text."""

from __future__ import annotations

import pytest
import typer
import typer.main

import cli
from pipeline.analytics.runs import AnalyticsError
from pipeline.bots.registry import CalibrationError, UnknownBotError
from pipeline.cards.catalog import CatalogError
from pipeline.cards.teams import TeamError
from pipeline.errors import LabError
from pipeline.replay.record import RecordError
from pipeline.report import ReportError
from pipeline.rules.preset import PresetError
from pipeline.sim import SimError
from pipeline.sim.provenance import MismatchError
from pipeline.sim.run import StaleRunError

INPUT_ERRORS = (PresetError, CatalogError, RecordError, UnknownBotError, CalibrationError,
                SimError, TeamError, ReportError, StaleRunError, MismatchError, AnalyticsError)


@pytest.mark.parametrize("error", INPUT_ERRORS, ids=lambda e: e.__name__)
def test_every_layers_input_error_is_a_lab_error_and_still_a_value_error(error: type) -> None:
    assert issubclass(error, LabError)
    assert issubclass(error, ValueError)  # callers that catch ValueError still catch it


@pytest.mark.parametrize("error", INPUT_ERRORS, ids=lambda e: e.__name__)
def test_friendly_prints_any_input_error_as_one_line_and_exits_2(
        error: type, capsys: pytest.CaptureFixture[str]) -> None:
    @cli.friendly
    def command() -> None:
        raise error("presets/mine.toml: unknown option 'foo'; remove it")

    with pytest.raises(typer.Exit) as exit_info:
        command()
    assert exit_info.value.exit_code == 2
    err = capsys.readouterr().err
    assert err == "error: presets/mine.toml: unknown option 'foo'; remove it\n"


def test_friendly_lets_an_unexpected_error_through() -> None:
    @cli.friendly
    def command() -> None:
        raise ValueError("a bug, not bad input")

    with pytest.raises(ValueError, match="a bug"):
        command()


def option_help(command: str, option: str) -> str:
    click_app = typer.main.get_command(cli.app)
    found = click_app.commands[command]  # type: ignore[attr-defined]
    return next(p.help for p in found.params if p.name == option)


@pytest.mark.parametrize("option", ["executor", "scheduler"])
def test_the_commands_that_take_an_executor_describe_it_the_same_way(option: str) -> None:
    helps = {command: option_help(command, option) for command in ("simulate", "trial", "tune")}
    assert len(set(helps.values())) == 1, helps
    assert "dask" in next(iter(helps.values()))
