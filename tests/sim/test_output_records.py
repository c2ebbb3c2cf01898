"""Nothing mixed, nothing lost: one writer per output folder, every output records the
configuration it belongs to, every reader checks it, and a record never moves under a command
that only reads it.

The trials and sweeps here use the test catalog of :mod:`tests.test_paired` (``plain_*`` cards
multiply their wins by 1, ``quad_*`` by 4) with teams of one card and greedy bots: a few
seconds each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.sanma import sanma_table
from pipeline.cards.catalog import load_catalog
from pipeline.report import ReportError
from pipeline.report.balance import _play_needed
from pipeline.report.build import build_report, write_report, write_site
from pipeline.rules.preset import load_preset
from pipeline.sim.output_lock import OutputLock
from pipeline.sim.provenance import MismatchError, cards_to_play, read_record
from pipeline.sim.run import simulate
from pipeline.sim.trial import TrialConfig, run_trial
from pipeline.sim.tune import Lever, TuneConfig, run_tune
from tests.support.paired_runs import make_config as run_config
from tests.support.paired_runs import write_catalog, write_preset

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def trial_config(folder: Path, cards: tuple[str, ...] = ("plain_a",), budget: int = 60,
                 catalog: Path | None = None) -> TrialConfig:
    return TrialConfig(preset=load_preset(str(write_preset(folder))),
                       catalog=load_catalog(str(catalog or write_catalog(folder))), seed=3,
                       cards=cards, bots=("greedy",) * 4, target=1.0, budget_hands=budget)


def trial_args(folder: Path, out: Path, only: str = "plain_a", budget: int = 60) -> list[str]:
    return ["trial", "--cards", str(write_catalog(folder)), "--preset",
            str(write_preset(folder)), "--only", only, "--bots", "greedy", "--target", "1",
            "--budget-hands", str(budget), "--seed", "3", "--workers", "1", "--out", str(out)]


def other_catalog(folder: Path) -> Path:
    """The test catalog under another version: same cards, other content."""
    path = folder / "other-cards.toml"
    path.write_text(write_catalog(folder).read_text().replace('version = "test"',
                                                              'version = "test-b"'))
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A run of the test catalog, its trial, a trial of the same catalog with a smaller
    budget, and a trial of another catalog."""
    base = tmp_path_factory.mktemp("records")
    simulate(run_config(base), base / "run", workers=1)
    run_trial(trial_config(base, ("plain_a", "quad_a")), base / "trial", workers=1)
    run_trial(trial_config(base, ("plain_a", "quad_a"), budget=30), base / "small", workers=1)
    run_trial(trial_config(base, ("plain_a",), catalog=other_catalog(base)), base / "other",
              workers=1)
    return {"base": base, "run": base / "run", "trial": base / "trial",
            "small": base / "small", "other": base / "other"}


# ------------------------------------------------------------------ one writer per folder


def one_line(result) -> str:
    text = result.output.strip()
    assert len(text.splitlines()) == 1, text
    return text


def test_a_second_trial_writer_is_refused_even_with_force(tmp_path: Path) -> None:
    out = tmp_path / "trial"
    with OutputLock(out, what="trial"):
        for extra in ([], ["--force"]):
            result = CliRunner().invoke(cli.app, trial_args(tmp_path, out) + extra)
            assert result.exit_code == 2, result.output
            assert f"another saki process (pid {os.getpid()}) is writing this trial" in \
                one_line(result)
            assert not (out / "trial.json").exists()  # the second writer touched nothing
    result = CliRunner().invoke(cli.app, trial_args(tmp_path, out))  # the lock ended
    assert result.exit_code == 0, result.output


def test_a_second_sweep_writer_and_a_second_site_writer_are_refused(tmp_path: Path,
                                                                    played) -> None:
    config = TuneConfig(preset=load_preset(str(write_preset(tmp_path))),
                        catalog=load_catalog(str(write_catalog(tmp_path))), seed=3,
                        card="quad_a", levers=(Lever("quad_a", "mult", "factor", (3, 4), 4),),
                        bots=("greedy",) * 4, target=1.0, budget_hands=20)
    with OutputLock(tmp_path / "sweep", what="sweep"):
        with pytest.raises(Exception, match="is writing this sweep"):
            run_tune(config, tmp_path / "sweep", band=(-300.0, 300.0), workers=1)
    assert sorted(p.name for p in (tmp_path / "sweep").iterdir()) == [".saki-lock"]
    report = build_report(played["run"], trial=played["trial"])
    with OutputLock(tmp_path / "site", what="site", option="--site"):
        with pytest.raises(Exception, match="is writing this site"):
            write_site(report, tmp_path / "site")
    assert not (tmp_path / "site" / "index.html").exists()


def test_two_trials_started_together_leave_one_consistent_record(tmp_path: Path) -> None:
    # two different card sets of one seed into one folder, started at once: the second is
    # refused while the first writes, or (if the first is done) adds its card to the record
    out = tmp_path / "trial"
    procs = [subprocess.Popen([sys.executable, "cli.py", *trial_args(tmp_path, out, card)],
                              cwd=PROJECT_ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for card in ("plain_a", "quad_a")]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    for code, err in results:
        assert code == 0 or (code == 2 and "is writing this trial" in err), err
    assert any(code == 0 for code, _ in results)
    doc = read_record(out, "trial")
    finished = {card for card, (code, _) in zip(("plain_a", "quad_a"), results, strict=True)
                if code == 0}
    assert set(doc["blocks"]) == finished == set(doc["measures"])
    for card in finished:  # every card the record names has its shards
        assert (out / "cards" / card / "manifest" / "part-00000.json").is_file()


def test_trials_of_other_cards_in_one_folder_share_the_union_of_their_records(
        tmp_path: Path) -> None:
    out = tmp_path / "trial"
    run_trial(trial_config(tmp_path, ("plain_a",)), out, workers=1)
    first = read_record(out, "trial")
    run_trial(trial_config(tmp_path, ("quad_a",), budget=40), out, workers=1)
    doc = read_record(out, "trial")
    assert set(doc["blocks"]) == {"plain_a", "quad_a"}
    assert doc["blocks"]["plain_a"] == first["blocks"]["plain_a"]
    assert doc["measures"] == {"plain_a": {"target": 1.0, "budget_hands": 60},
                               "quad_a": {"target": 1.0, "budget_hands": 40}}


# ------------------------------------------------------------------ readers check the record


def test_a_report_refuses_a_trial_of_another_catalog_before_writing(played,
                                                                   tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    result = CliRunner().invoke(cli.app, ["report", str(played["run"]), "--trial",
                                          str(played["other"]), "--out", str(page)])
    assert result.exit_code == 2
    text = one_line(result)
    assert "catalog test-b" in text and "catalog test " in text  # both configurations named
    assert str(played["other"]) in text and str(played["run"]) in text
    assert not page.exists()


def test_a_report_refuses_a_trial_of_another_player_count(played, tmp_path: Path) -> None:
    sanma = tmp_path / "sanma"
    sanma.mkdir()
    doc = json.loads((played["trial"] / "trial.json").read_text())
    doc["preset"] = {**doc["preset"], "name": "cards-sanma-test", "players": 3}
    (sanma / "trial.json").write_text(json.dumps(doc))
    with pytest.raises(MismatchError, match=r"\(3 players\).*does not belong with.*"
                                            r"\(4 players\)"):
        build_report(played["run"], trial=sanma)
    with pytest.raises(MismatchError, match="not a three-player trial"):
        sanma_table(played["trial"])  # a sanma comparison of a four-player trial
    with pytest.raises(MismatchError, match="four-player values must come from"):
        sanma_table(sanma, played["other"])


def test_a_report_names_the_trial_it_used(played, tmp_path: Path) -> None:
    report = build_report(played["run"], trial=played["trial"])
    row = dict(report.context["overview"])["card trial"]
    hands = sum(r["hands"] for r in report.context["trial"])
    assert row == (f"{played['trial']}: seed 3, 2 cards, {hands:,} hands; budget 60 hands, "
                   "target ±1")
    html = write_report(report, tmp_path / "r.html").read_text(encoding="utf-8")
    assert row.replace("±", "&#177;") in html or row in html


def test_fit_picks_refuses_a_trial_of_another_catalog(played, tmp_path: Path) -> None:
    out = tmp_path / "offsets.toml"
    result = CliRunner().invoke(cli.app, ["bots", "fit-picks", str(played["other"]),
                                          "--catalog", str(write_catalog(played["base"])),
                                          "--out", str(out)])
    assert result.exit_code == 2
    text = one_line(result)
    assert "catalog test-b" in text and "--catalog test-b" in text
    assert not out.exists()


def sweep_config(folder: Path, card: str = "quad_a", catalog: Path | None = None
                 ) -> TuneConfig:
    return TuneConfig(preset=load_preset(str(write_preset(folder))),
                      catalog=load_catalog(str(catalog or write_catalog(folder))), seed=3,
                      card=card, levers=(Lever(card, "mult", "factor", (3, 4) if card ==
                                               "quad_a" else (1, 2), 4 if card == "quad_a"
                                               else 1),),
                      bots=("greedy",) * 4, target=1.0, budget_hands=20)


def test_a_sweep_folder_is_never_rewritten_for_another_card_or_catalog(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    run_tune(sweep_config(tmp_path), out, band=(-300.0, 300.0), workers=1)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for config, what in ((sweep_config(tmp_path, "plain_a"), "card"),
                         (sweep_config(tmp_path, catalog=other_catalog(tmp_path)),
                          "catalog content")):
        with pytest.raises(MismatchError, match=f"holds a sweep of another configuration "
                                                f"\\({what} differs\\)"):
            run_tune(config, out, band=(-300.0, 300.0), workers=1)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # catalogs/current.toml and tune.json included


def test_a_sweep_is_never_written_into_a_run_or_trial_folder(played, tmp_path: Path) -> None:
    for kind in ("run", "trial"):
        listing = sorted(p.name for p in played[kind].iterdir())
        with pytest.raises(Exception, match=f"holds a {kind}, not a sweep"):
            run_tune(sweep_config(played["base"]), played[kind], band=(-300.0, 300.0),
                     workers=1)
        assert sorted(p.name for p in played[kind].iterdir()) == listing


# ------------------------------------------------------------------ records that do not move


def test_a_card_measured_more_precisely_is_kept_by_a_command_that_needs_it() -> None:
    doc = {"target": 150.0, "budget_hands": 5000, "blocks": {"a": 4, "b": 4, "c": 2},
           "measures": {"a": {"target": 150.0, "budget_hands": 20000},
                        "b": {"target": 150.0, "budget_hands": 5000},
                        "c": {"target": 150.0, "budget_hands": 1}}}
    # a is more precise (kept), b as asked (resumed), c weaker (measured again), d missing
    assert cards_to_play(doc, ("a", "b", "c", "d"), 150.0, 5000) == ("b", "c", "d")
    assert cards_to_play(doc, ("a",), 100.0, 20000) == ("a",)  # a smaller target: again
    assert cards_to_play(None, ("a",), 150.0, 5000) == ("a",)
    old = {"target": 150.0, "budget_hands": 20000, "blocks": {"a": 4}}  # before measures
    assert cards_to_play(old, ("a",), 150.0, 5000) == ()


def test_a_job_that_needs_a_trial_never_rewrites_a_larger_one(played, tmp_path: Path) -> None:
    # what a sanma comparison or a balance job does with the kept trial folder of its deck:
    # the record of the 60-hand trial is not rewritten back to a 30-hand budget
    record = (played["trial"] / "trial.json").read_bytes()
    said: list[str] = []
    _play_needed(trial_config(played["base"], ("plain_a", "quad_a"), budget=30),
                 played["trial"], 1, said.append, "card trials")
    assert (played["trial"] / "trial.json").read_bytes() == record
    assert "2 card(s) already measured with a larger budget" in said[0]


def test_a_report_of_another_configuration_is_named_apart_never_replaced_silently(
        played, tmp_path: Path) -> None:
    page = tmp_path / "reports" / "run.html"
    big = build_report(played["run"], trial=played["trial"])
    small = build_report(played["run"], trial=played["small"])  # another budget
    said: list[str] = []
    assert write_report(big, page, apart=True, say=said.append) == page
    assert write_report(big, page, apart=True, say=said.append) == page  # same: replaced
    assert said == []
    apart = write_report(small, page, apart=True, say=said.append)  # a default name
    assert apart != page and apart.parent == page.parent and apart.name.startswith("run-")
    assert "budget 60 hands" in page.read_text(encoding="utf-8")
    assert "budget 30 hands" in apart.read_text(encoding="utf-8")
    assert said == [f"{page} holds the report of another configuration "
                    f"({big.context['config_words']}); this one "
                    f"({small.context['config_words']}) goes to {apart}"]
    mine = tmp_path / "mine.html"
    write_report(big, mine)
    result = CliRunner().invoke(cli.app, ["report", str(played["run"]), "--trial",
                                          str(played["small"]), "--out", str(mine)])
    assert result.exit_code == 0  # a file the user named is replaced, and the output says so
    assert f"replacing {mine}, the report of another configuration" in result.output
    assert "budget 30 hands" in mine.read_text(encoding="utf-8")
    write_site(big, tmp_path / "site")  # a site of another configuration would mix pages
    with pytest.raises(ReportError, match="--site .* holds the site of another configuration"):
        write_site(small, tmp_path / "site")
    assert "budget 60 hands" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_a_paired_difference_and_a_sweeps_band_check_their_trials(played,
                                                                 tmp_path: Path) -> None:
    from pipeline.analytics.trial import value_difference
    from pipeline.analytics.tune import sweep_band

    seed = tmp_path / "seed4"
    seed.mkdir()
    doc = json.loads((played["trial"] / "trial.json").read_text())
    (seed / "trial.json").write_text(json.dumps({**doc, "seed": 4}))
    with pytest.raises(MismatchError, match="one seed and player count.*seed 3.*seed 4"):
        value_difference(played["trial"], seed, "quad_a", paired=True)
    catalog = load_catalog(str(write_catalog(played["base"])))
    sweep = {"card": "quad_a", "seed": 3, "preset": "cards-one", "players": 4,
             "catalog": catalog.version, "catalog_hash": catalog.content_hash(),
             "band": None, "band_trial": str(played["other"])}
    with pytest.raises(MismatchError, match="tune: trial .* catalog test-b .* does not belong "
                                            "with sweep"):
        sweep_band(sweep, sweep=tmp_path / "sweep")
    assert sweep_band({**sweep, "band_trial": str(played["trial"])})["cards"] == 2.0


def test_fitted_offsets_name_the_measure_of_the_cards_they_fit(tmp_path: Path) -> None:
    # a sweep's band trial that adds a card to the folder with a 1-hand budget leaves the
    # record's top-level budget at 1: the offsets file names the fitted cards' own measure
    out = tmp_path / "trial"
    run_trial(trial_config(tmp_path, ("plain_a", "quad_a")), out, workers=1)
    offsets = tmp_path / "offsets.toml"
    args = ["bots", "fit-picks", str(out), "--catalog", str(write_catalog(tmp_path)),
            "--hands", "10", "--out", str(offsets)]
    assert CliRunner().invoke(cli.app, args).exit_code == 0
    text = offsets.read_text()
    assert "budget_hands = 60\n" in text and "target = 1.0\n" in text
    assert f'catalog_hash = "{load_catalog(str(write_catalog(tmp_path))).content_hash()}"' in text
    run_trial(trial_config(tmp_path, ("plain_b",), budget=1), out, workers=1)
    assert read_record(out, "trial")["budget_hands"] == 1
    assert CliRunner().invoke(cli.app, args).exit_code == 0
    assert "budget_hands" not in offsets.read_text()  # mixed measures: none claimed


def test_a_trial_is_never_written_into_a_run_folder(played, tmp_path: Path) -> None:
    listing = sorted(p.name for p in played["run"].iterdir())
    for extra in ([], ["--force"]):
        result = CliRunner().invoke(cli.app, trial_args(played["base"], played["run"]) + extra)
        assert result.exit_code == 2
        assert "is not empty and holds no trial.json (found 'events')" in one_line(result)
        assert sorted(p.name for p in played["run"].iterdir()) == listing  # not even a lock


def test_a_job_keeps_no_values_from_a_trial_of_another_configuration(played) -> None:
    record = (played["other"] / "trial.json").read_bytes()
    with pytest.raises(Exception, match="holds a trial of another configuration"):
        _play_needed(trial_config(played["base"], ("plain_a",), budget=30), played["other"], 1,
                     lambda _: None, "card trials")
    assert (played["other"] / "trial.json").read_bytes() == record


def test_balance_keeps_a_larger_trial_and_names_apart_a_report_of_another_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the job's default report file and trial folder, with a trial of a larger budget played
    # first by saki trial: the job keeps it and says so; a job with a still larger budget
    # measures again and writes its report beside the first one instead of over it
    from tests.support.balance_presets import preset

    monkeypatch.chdir(tmp_path)
    solo, catalog = preset(tmp_path, "cards-hanchan"), write_catalog(tmp_path)
    trial = tmp_path / "runs" / "trial-cards-hanchan-solo-test-s3"
    played = CliRunner().invoke(cli.app, [
        "trial", "--preset", str(solo), "--cards", str(catalog), "--seed", "3", "--workers", "1",
        "--budget-hands", "200", "--out", str(trial)])
    assert played.exit_code == 0, played.output
    record = (trial / "trial.json").read_bytes()
    job = ["balance", "--preset", str(solo), "--cards", str(catalog), "--games", "2", "--seed",
           "3", "--workers", "1", "--runs", str(tmp_path / "runs")]
    first = CliRunner().invoke(cli.app, [*job, "--trial-budget", "100"])
    assert first.exit_code == 0, first.output
    assert "4 card(s) already measured with a larger budget" in first.output
    assert (trial / "trial.json").read_bytes() == record  # not rewritten to 100 hands
    (report,) = (tmp_path / "reports").glob("*.html")
    assert f"{trial}: seed 3, 4 cards" in report.read_text(encoding="utf-8")
    assert "budget 200 hands" in report.read_text(encoding="utf-8")
    second = CliRunner().invoke(cli.app, [*job, "--trial-budget", "300"])
    assert second.exit_code == 0, second.output
    assert f"{Path('reports') / report.name} holds the report of another configuration" in \
        second.output
    assert read_record(trial, "trial")["budget_hands"] == 300
    pages = sorted((tmp_path / "reports").glob("*.html"))
    assert len(pages) == 2 and report in pages
    assert "budget 200 hands" in report.read_text(encoding="utf-8")
    other = next(p for p in pages if p != report)
    assert "budget 300 hands" in other.read_text(encoding="utf-8")
    assert f"report written to {Path('reports') / other.name}" in second.output


def test_a_trials_json_says_which_configuration_its_rows_belong_to(tmp_path: Path) -> None:
    # every output records its configuration: the printed JSON names the catalog content,
    # preset, player count, seed, the cards, the band and the measure beside the rows
    out = tmp_path / "t"
    result = CliRunner().invoke(cli.app, trial_args(tmp_path, out) + ["--format", "json",
                                                                      "--band", "-100:100"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout[result.stdout.index("{"):])
    record = read_record(out, "trial")
    config = doc["config"]
    assert config["catalog_hash"] == record["catalog"]["content_hash"]
    assert config["preset"] == record["preset"]["name"] and config["players"] == 4
    assert config["seed"] == 3 and config["cards"] == ["plain_a"]
    assert config["measure"] == "points"
    assert (config["band"]["lo"], config["band"]["hi"]) == (-100.0, 100.0)
    assert [r["card"] for r in doc["rows"]] == ["plain_a"]
