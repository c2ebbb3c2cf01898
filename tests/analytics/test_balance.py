"""`saki balance`: simulate, analyse and report in one command; a comparison run; resuming; and
mistakes caught before anything is played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.cards.catalog import CATALOG_DIR, load_catalog
from pipeline.report.balance import DEFAULT_GAMES, plan_balance
from pipeline.report.build import REPORTS_DIR
from pipeline.sim.run import RUNS_DIR
from tests.support.balance_presets import preset


def balance(*args: str):
    return CliRunner().invoke(cli.app, ["balance", *args])


def test_balance_plays_both_presets_and_writes_a_comparison(tmp_path: Path) -> None:
    hanchan = preset(tmp_path, "cards-hanchan")
    east = preset(tmp_path, "cards-tonpuusen")
    runs, out, site = tmp_path / "runs", tmp_path / "r" / "cmp.html", tmp_path / "site"
    args = ["--preset", str(hanchan), "--compare-preset", str(east), "--games", "2",
            "--seed", "3", "--workers", "1", "--runs", str(runs), "--out", str(out),
            "--site", str(site), "--no-trials"]
    first = balance(*args)
    assert first.exit_code == 0, first.output
    folders = {p.name: p for p in runs.iterdir()}
    assert set(folders) == {"cards-hanchan-solo-1.2-s3-n2", "cards-tonpuusen-solo-1.2-s3-n2"}
    for folder in folders.values():
        meta = json.loads((folder / "run.json").read_text())
        assert meta["status"] == "complete" and meta["games"] == 2
    index = site / "index.html"
    assert first.output.rstrip().endswith(f"site written to {index}: {index.as_uri()}")
    assert f"report written to {out}\nopen it: {out.as_uri()}\n" in first.output
    html = out.read_text()
    assert 'id="comparison"' in html and "cards-tonpuusen-solo-1.2-s3-n2" in html
    assert (site / "index.html").is_file() and any((site / "cards").iterdir())

    out.unlink()
    again = balance(*args)    # a second start finds the runs done and writes the report again
    assert again.exit_code == 0, again.output
    assert again.output.count("reused ") == 2  # nothing is played again
    assert "simulating" not in again.output
    assert out.is_file()


def test_a_preset_without_cards_is_refused_before_playing(tmp_path: Path) -> None:
    result = balance("--preset", "online-hanchan", "--runs", str(tmp_path / "runs"))
    assert result.exit_code == 2
    assert "plays without character cards" in result.output
    assert not (tmp_path / "runs").exists()


def test_a_bad_comparison_is_reported_before_the_first_run(tmp_path: Path) -> None:
    hanchan = preset(tmp_path, "cards-hanchan")
    runs = tmp_path / "runs"
    unknown = balance("--preset", str(hanchan), "--compare-preset", "cards-hanchn",
                      "--runs", str(runs))
    assert unknown.exit_code == 2
    assert "cards-hanchn" in unknown.output and "Traceback" not in unknown.output
    missing = balance("--preset", str(hanchan), "--compare-cards", "9.9", "--runs", str(runs))
    assert missing.exit_code == 2 and "unknown catalog version '9.9'" in missing.output
    same = balance("--preset", str(hanchan), "--compare-preset", str(hanchan),
                   "--runs", str(runs))
    assert same.exit_code == 2 and "same preset and catalog" in same.output
    assert not runs.exists()


def test_a_deck_too_small_for_the_teams_is_refused_with_the_fix(tmp_path: Path) -> None:
    # 13 cards per seat need 52 cards; the 53-card deck less five exclusions cannot hold them
    # rule C-10: exclusions come out of the deck before dealing
    big = preset(tmp_path, "cards-hanchan")
    big.write_text(big.read_text().replace("team_size = 1", "team_size = 13") + 'exclude = '
                   + json.dumps(list(load_catalog("1.2").ids[:5])) + "\n")
    result = balance("--preset", str(big), "--runs", str(tmp_path / "runs"))
    assert result.exit_code == 2
    assert "needs 52" in result.output and "team_size = 1" in result.output
    assert not (tmp_path / "runs").exists()


def test_defaults_are_the_card_hanchan_on_catalog_1_2() -> None:
    plan = plan_balance()           # checks presets, catalog and deck; plays nothing
    assert plan.main.preset.name == "cards-hanchan"
    assert plan.main.catalog.version == "1.2"
    assert plan.main.games == DEFAULT_GAMES and plan.reference is None
    assert plan.folder(plan.main) == RUNS_DIR / f"cards-hanchan-1.2-s1-n{DEFAULT_GAMES}"
    assert plan.default_report() == REPORTS_DIR / f"cards-hanchan-1.2-s1-n{DEFAULT_GAMES}.html"


def test_paired_balance_runs_replay_each_hand_without_the_ability() -> None:
    plan = plan_balance(paired=True, compare_preset="cards-tonpuusen")
    assert plan.main.paired and plan.reference.paired
    assert plan.folder(plan.main).name == f"cards-hanchan-1.2-s1-n{DEFAULT_GAMES}-paired"


def test_a_draft_that_kept_its_version_number_gets_its_own_run_folder(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    text = (CATALOG_DIR / "1.2.toml").read_text()
    draft.write_text(text.replace('yaku = "Pinfu"\nhan = 2', 'yaku = "Pinfu"\nhan = 3'))
    plan = plan_balance(cards=str(draft), compare_cards="1.2", runs_dir=tmp_path)
    assert plan.main.label == plan.reference.label            # both say catalog 1.2
    main, ref = plan.folder(plan.main), plan.folder(plan.reference)
    assert main != ref
    assert (main.name, ref.name) == (
        f"{plan.main.label}-catalog-{plan.main.catalog.content_hash()[:8]}",
        f"{plan.reference.label}-catalog-{plan.reference.catalog.content_hash()[:8]}")


def test_a_run_played_by_other_code_is_played_again_not_reused(tmp_path: Path,
                                                               monkeypatch) -> None:
    """A designer who updates the lab and runs `saki balance` again gets tables from the new
    code: a finished run whose run.json names other code is replayed, not reused."""
    hanchan = preset(tmp_path, "cards-hanchan")
    runs, out = tmp_path / "runs", tmp_path / "r.html"
    args = ["--preset", str(hanchan), "--games", "1", "--seed", "4", "--workers", "1",
            "--runs", str(runs), "--out", str(out), "--no-trials"]
    assert balance(*args).exit_code == 0
    (folder,) = runs.iterdir()
    meta = json.loads((folder / "run.json").read_text())
    meta["code"]["source_hash"] = "0" * 16        # as if an older version had played it
    (folder / "run.json").write_text(json.dumps(meta))
    again = balance(*args)
    assert again.exit_code == 0, again.output
    assert "another version of the lab's code: playing it again" in again.output
    assert "shards were already done" not in again.output
    replayed = json.loads((folder / "run.json").read_text())
    assert replayed["code"]["source_hash"] != "0" * 16 and len(replayed["sessions"]) == 1


def test_an_identical_run_is_reused_wherever_it_is_kept(tmp_path: Path) -> None:
    """The same preset, catalog content, seed and size played by the same code make the same
    tables: a complete run under another folder name is used, and the job says "reused"."""
    hanchan = preset(tmp_path, "cards-hanchan")
    runs = tmp_path / "runs"
    args = ["--preset", str(hanchan), "--games", "1", "--seed", "8", "--workers", "1",
            "--runs", str(runs), "--out", str(tmp_path / "r.html"), "--no-trials"]
    assert balance(*args).exit_code == 0
    (folder,) = runs.iterdir()
    moved = folder.rename(runs / "kept-from-last-week")
    again = balance(*args)
    assert again.exit_code == 0, again.output
    assert f"reused cards-hanchan-solo-1.2-s8-n1: the complete run in {moved}" in again.output
    assert sorted(p.name for p in runs.iterdir()) == ["kept-from-last-week"]
    other = balance(*args[:5], "9", *args[6:])  # another seed is another run
    assert other.exit_code == 0 and "reused" not in other.output


def test_a_draft_made_with_cards_new_compares_under_readable_names(tmp_path: Path,
                                                                   monkeypatch) -> None:
    """The README's draft workflow: saki cards new, then balance the draft against 1.2. The
    run folders carry the versions, and the report's name and title say what changed."""
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(cli.app, ["cards", "new", "1.3-draft", "--from", "1.2"])
    assert made.exit_code == 0, made.output
    assert made.output.startswith("wrote data/cards/1.3-draft.toml: catalog 1.2 with its "
                                  "version set to '1.3-draft'")
    assert "saki balance --cards 1.3-draft --compare-cards 1.2" in made.output
    assert load_catalog("1.3-draft").version == "1.3-draft"
    plan = plan_balance(cards="1.3-draft", compare_cards="1.2")
    assert plan.folder(plan.main) == RUNS_DIR / f"cards-hanchan-1.3-draft-s1-n{DEFAULT_GAMES}"
    assert plan.folder(plan.reference) == RUNS_DIR / f"cards-hanchan-1.2-s1-n{DEFAULT_GAMES}"
    assert plan.default_report() == (
        REPORTS_DIR / f"cards-hanchan-1.2-vs-1.3-draft-s1-n{DEFAULT_GAMES}.html")


def test_comparison_names_say_what_differs() -> None:
    from pipeline.report.build import comparison_names

    def doc(preset: str, catalog: str, digest: str = "h", seed: int = 1) -> dict:
        return {"preset": {"name": preset}, "catalog": {"version": catalog,
                                                        "content_hash": digest},
                "seed": seed, "games": 400}

    assert comparison_names(doc("cards-hanchan", "1.2"), doc("cards-tonpuusen", "1.2")) == (
        "cards-hanchan-vs-cards-tonpuusen-1.2-s1-n400",
        "preset cards-hanchan → cards-tonpuusen (catalog 1.2, seed 1, 400 matches)")
    assert comparison_names(doc("cards-hanchan", "1.2"), doc("cards-hanchan", "1.2", "x"))[1] \
        == "catalog 1.2 → an edited 1.2 (preset cards-hanchan, seed 1, 400 matches)"
    assert comparison_names(doc("p", "1.2", seed=1), doc("p", "1.2", seed=2))[0] \
        == "p-1.2-vs-1.2-s1-n400-vs-s2-n400"


def test_cards_new_refuses_shipped_names_and_existing_files(tmp_path: Path,
                                                            monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    shipped = CliRunner().invoke(cli.app, ["cards", "new", "1.2"])
    assert shipped.exit_code == 2 and "shipped catalog" in shipped.output
    assert CliRunner().invoke(cli.app, ["cards", "new", "x1"]).exit_code == 0
    before = (tmp_path / "data" / "cards" / "x1.toml").read_text()
    again = CliRunner().invoke(cli.app, ["cards", "new", "x1"])
    assert again.exit_code == 2 and "already exists" in again.output
    assert (tmp_path / "data" / "cards" / "x1.toml").read_text() == before
    bad = CliRunner().invoke(cli.app, ["cards", "new", "../evil"])
    assert bad.exit_code == 2 and "letters, digits" in bad.output
    assert sorted(p.name for p in (tmp_path / "data" / "cards").iterdir()) == ["x1.toml"]


def test_balance_runs_trials_by_default_and_the_report_leads_with_their_values(
        tmp_path: Path) -> None:
    """Four test cards (win multipliers 1 and 4, tests/sim/test_paired.py), teams of one:
    the trials give each card an ability value; the report's tier view and candidates use it,
    with the in-deck figures beside it."""
    from tests.support.paired_runs import write_catalog

    solo = preset(tmp_path, "cards-hanchan")
    catalog = write_catalog(tmp_path)
    runs, out = tmp_path / "runs", tmp_path / "r.html"
    result = balance("--preset", str(solo), "--cards", str(catalog), "--games", "2",
                     "--seed", "3", "--workers", "1", "--runs", str(runs), "--out", str(out),
                     "--trial-budget", "100", "--site", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "site" / "cards" / "quad_a.html").read_text()
    assert "among every card of the trial" in page  # the card page plots the ability value
    assert "card trials of 4 cards" in result.output and "will play 2 matches" in \
        result.output and "racing every card to a verdict" in result.output
    assert "cards decided" in result.output and "trial complete: 4 cards" in result.output
    assert "verdicts for 4 cards:" in result.output
    trial = runs / "trial-cards-hanchan-solo-test-s3"
    assert json.loads((trial / "trial.json").read_text())["status"] == "complete"
    html = out.read_text()
    lead = html.index("Verdicts from card trials")
    assert lead < html.index("In-deck figures") < html.index('id="style"')
    assert "no hand changed" in html  # the plain cards: all pairs equal
    assert "ability value (trial, points per hand)" in html
    # the value over the whole match, the hands alone and placement side by side
    assert "ability value over the match, points a hand" in html
    assert "the hands alone, points a hand" in html and "rank gain, places a match" in html
    assert "placement, result points a match" in html
    # the first screen leads with the verdicts: the undecided cards say what would settle them
    assert html.index("Undecided</span>") < html.index("In-deck figures")
    assert "its ability changed only 0 of" in html
    assert "These figures flag nothing" in html and "In-deck strong" not in html
    # the card sections follow the verdicts: the plain cards (undecided) come last
    sections = [html.index(f'id="card-{c}"') for c in ("quad_a", "plain_a")]
    assert sections == sorted(sections)


def _levers_job(tmp_path: Path, budget: str):
    from tests.support.paired_runs import write_catalog

    solo = preset(tmp_path, "cards-hanchan")
    catalog = write_catalog(tmp_path)
    runs, out = tmp_path / "runs", tmp_path / "r.html"
    result = balance("--preset", str(solo), "--cards", str(catalog), "--games", "2",
                     "--seed", "3", "--workers", "1", "--runs", str(runs), "--out", str(out),
                     "--trial-budget", budget, "--levers")
    assert result.exit_code == 0, result.output
    return out.read_text(), sorted((tmp_path / "r-levers").glob("*.html")), solo


def test_balance_levers_only_for_candidates(tmp_path: Path) -> None:
    """saki balance --levers (issue "Tuning sweeps"): too few trial hands for a verdict, so
    no card is a candidate and nothing is stepped or linked; without trials it is refused."""
    html, pages, solo = _levers_job(tmp_path, "100")
    assert "Nerf candidates" not in html and not pages and "its levers" not in html
    refused = balance("--preset", str(solo), "--no-trials", "--levers", "--games", "1")
    assert refused.exit_code == 2 and "--levers needs the card trials" in refused.output


@pytest.mark.slow
def test_balance_levers_link_each_candidates_tuning_page(tmp_path: Path) -> None:
    """With a planted strong card (a win multiplier of 4 against 1) and trials long enough to
    flag it, each candidate's numbers are stepped and the report links its tuning page."""
    html, pages, _ = _levers_job(tmp_path, "3000")
    assert "Nerf candidates" in html and pages and "its levers" in html
    for page in pages:
        assert f'href="r-levers/{page.name}"' in html
        assert "data:image/png;base64," in page.read_text()


def test_balance_json_prints_a_row_per_card_and_quick_says_it_decides_nothing(
        tmp_path: Path) -> None:
    """`saki balance --format json`: one row per card on standard output (card, value and
    interval, verdict, band), the messages on standard error; `--quick` says plainly that it
    is a preview that decides nothing."""
    from tests.support.paired_runs import write_catalog

    solo = preset(tmp_path, "cards-hanchan")
    catalog = write_catalog(tmp_path)
    result = balance("--preset", str(solo), "--cards", str(catalog), "--games", "2",
                     "--seed", "3", "--workers", "1", "--runs", str(tmp_path / "runs"),
                     "--out", str(tmp_path / "r.html"), "--trial-budget", "100", "--quick",
                     "--format", "json", "--measure", "placement")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    rows = printed["rows"]
    assert [r["card"] for r in rows] == ["plain_a", "plain_b", "quad_a", "quad_b"]
    # the configuration the rows belong to: the run's catalog and seed, the measure
    assert printed["config"]["seed"] == 3 and printed["config"]["catalog"] == "test"
    assert printed["config"]["measure"] == "placement"
    assert printed["config"]["cards"] == ["plain_a", "plain_b", "quad_a", "quad_b"]
    for r in rows:
        assert {"card", "value", "value_lo", "value_hi", "verdict", "band_lo", "band_hi"} <= set(r)
        assert r["verdict"] in ("above", "inside", "below", "at_edge", "undecided")
        # --measure placement: the verdicts are asked on the placement value
        assert r["measure"] == "placement" and r["value"] == r["placement_value"]
    html = (tmp_path / "r.html").read_text()
    assert "placement value, result points a match" in html
    assert "result points per match, the deck" in html
    assert "decides nothing" in result.stderr and "report written to" in result.stderr
    assert (tmp_path / "r.html").is_file()


def test_a_draft_comparison_says_whether_the_change_worked(tmp_path: Path) -> None:
    """A draft that takes Quad A's multiplier from 4 to 1 against the test catalog: both
    sides' trials are played, and the changed card shows its value and verdict on both sides,
    the paired change (same seeds) with its interval, and whether it is inside the band now."""
    from tests.support.paired_runs import write_catalog

    solo = preset(tmp_path, "cards-hanchan")
    base = write_catalog(tmp_path)
    text = base.read_text()
    start = text.index('id = "quad_a"')
    end = text.index("[[cards]]", start) if "[[cards]]" in text[start:] else len(text)
    block = text[start:end].replace("4", "1")
    draft = tmp_path / "draft.toml"
    draft.write_text(text[:start].replace('version = "test"', 'version = "test-draft"')
                     + block + text[end:])
    out = tmp_path / "cmp.html"
    result = balance("--preset", str(solo), "--cards", str(draft), "--compare-cards", str(base),
                     "--games", "2", "--seed", "3", "--workers", "1", "--runs",
                     str(tmp_path / "runs"), "--out", str(out), "--band", "-100:100",
                     "--trial-budget", "600")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("changed: Quad A"))
    # the paired change is clearly negative: its interval's upper end below zero
    import re

    lo, hi = re.search(r"; change -[\d,]+ \[(-[\d,]+), (-[\d,]+)\]", line).groups()
    assert lo.startswith("-") and hi.startswith("-")
    assert " -> " in line and "inside the band now?" in line
    html = out.read_text()
    assert "Did it work?" in html and html.index("Did it work?") < html.index("In-deck shifts")
