"""The notebooks run top to bottom on small runs made here: a card hanchan, the East-only
preset, and the hanchan again with a draft catalog that changes one number on one card.

Each notebook reads its run folders from environment variables (its parameters cell falls back
to the runs `saki balance` writes), so the tests point them at these runs."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from pipeline.cards.catalog import CATALOG_DIR, load_catalog
from pipeline.datafiles import PROJECT_ROOT
from pipeline.rules.preset import load_preset
from pipeline.sim.run import RunConfig, simulate

NOTEBOOKS = PROJECT_ROOT / "notebooks"
CHANGED = "nodoka_haramura"


def solo(folder: Path, base: str) -> Path:
    path = folder / f"{base}-solo.toml"
    path.write_text(f'extends = "{base}"\nname = "{base}-solo"\n[cards]\nteam_size = 1\n')
    return path


def draft_catalog(folder: Path) -> Path:
    """Catalog 1.2 as version 1.3-test, with Nodoka's pinfu worth 3 han instead of 2."""
    text = (CATALOG_DIR / "1.2.toml").read_text()
    assert text.count('version = "1.2"') == 1 and text.count('yaku = "Pinfu"\nhan = 2') == 1
    text = text.replace('version = "1.2"', 'version = "1.3-test"')
    text = text.replace('yaku = "Pinfu"\nhan = 2', 'yaku = "Pinfu"\nhan = 3')
    path = folder / "1.3-test.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    base = tmp_path_factory.mktemp("nb")
    plans = {"hanchan": ("cards-hanchan", "1.2"), "east": ("cards-tonpuusen", "1.2"),
             "draft": ("cards-hanchan", str(draft_catalog(base)))}
    out = {}
    for key, (preset, catalog) in plans.items():
        config = RunConfig(preset=load_preset(str(solo(base, preset))),
                           catalog=load_catalog(catalog), seed=6, games=2)
        out[key] = str(simulate(config, base / key, workers=1).out)
    return out


def execute(name: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
            ) -> nbformat.NotebookNode:
    """Run the notebook in a fresh kernel (which inherits these environment variables) from
    the notebooks folder, as Jupyter would; a failing cell fails the test."""
    for key, value in {**env, "SAKI_MIN_HANDS": "10"}.items():
        monkeypatch.setenv(key, value)
    # the kernel starts in notebooks/: make it import this checkout, whatever is installed
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")) if p))
    book = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(book, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return book


def text_of(book: nbformat.NotebookNode) -> str:
    parts = []
    for cell in book.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def images(book: nbformat.NotebookNode) -> int:
    return sum("image/png" in o.get("data", {}) for c in book.cells for o in c.get("outputs", []))


def test_every_notebook_has_a_tagged_parameters_cell() -> None:
    names = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert names == ["balance_overview.ipynb", "compare_card_versions.ipynb",
                     "east_only_vs_hanchan.ipynb", "proposal.ipynb", "sanma.ipynb",
                     "tuning.ipynb"]
    for name in names:
        book = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(book)
        tagged = [c for c in book.cells if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1 and "os.environ.get" in tagged[0].source, name
        assert all(not c.get("outputs") for c in book.cells), f"{name} is stored with outputs"


def test_balance_overview_runs(runs: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    book = execute("balance_overview.ipynb", {"SAKI_RUN": runs["hanchan"]}, monkeypatch)
    assert "cards-hanchan-solo-1.2-s6-n2" in text_of(book)
    assert images(book) == 6   # calibration, tiers, scatter, placement, picks, triggers


def test_compare_card_versions_runs(runs: dict[str, str], monkeypatch: pytest.MonkeyPatch
                                    ) -> None:
    book = execute("compare_card_versions.ipynb",
                   {"SAKI_RUN_A": runs["hanchan"], "SAKI_RUN_B": runs["draft"]}, monkeypatch)
    text = text_of(book)
    assert "Nodoka Haramura (parameters)" in text
    assert "text in A: Closed tanyao is worth 2 han. Pinfu is worth 2 han." in text
    assert "text in B: Closed tanyao is worth 2 han. Pinfu is worth 3 han." in text
    assert images(book) == 2


def test_east_only_vs_hanchan_runs(runs: dict[str, str], monkeypatch: pytest.MonkeyPatch
                                   ) -> None:
    book = execute("east_only_vs_hanchan.ipynb",
                   {"SAKI_HANCHAN": runs["hanchan"], "SAKI_EAST": runs["east"]}, monkeypatch)
    text = text_of(book)
    assert "kazue_nanpo" in text and "tonpuusen" in text   # rule C-10 exclusions shown
    assert images(book) == 4


def test_tuning_runs(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    # a tiny sweep: Kasumi's han at 1 and 2 on East-only matches, one round each
    from pipeline.sim.tune import Lever, TuneConfig, run_tune

    out = tmp_path_factory.mktemp("sweep")
    lever = Lever("kasumi_iwato", "shown", "han", (1, 2), 1)
    config = TuneConfig(preset=load_preset("cards-tonpuusen"), catalog=load_catalog("1.2"),
                        seed=3, card="kasumi_iwato", levers=(lever,), target=1e9,
                        budget_hands=1)
    run_tune(config, out, band=(-300.0, 300.0), workers=1)
    book = execute("tuning.ipynb", {"SAKI_SWEEP": str(out)}, monkeypatch)
    text = text_of(book)
    assert "kasumi_iwato: catalog 1.2" in text and "balance band -300 to +300" in text
    assert images(book) == 1


def test_sanma_runs(tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    # rule C-23: two tiny trials of the same two cards, East-only, one for three players and
    # one for four (one round each), and the notebook draws the exclusion list from them
    from pipeline.sim.trial import TrialConfig, run_trial

    base = tmp_path_factory.mktemp("sanma")
    east3 = base / "sanma-east.toml"
    east3.write_text('extends = "cards-sanma"\nname = "sanma-east"\nlength = "tonpuusen"\n')
    folders = {}
    for key, preset in (("three", str(east3)), ("four", "cards-tonpuusen")):
        config = TrialConfig(preset=load_preset(preset), catalog=load_catalog("1.2"), seed=3,
                             cards=("nodoka_haramura", "kana_ikeda"), target=1e9,
                             budget_hands=1)
        run_trial(config, base / key, workers=1)
        folders[key] = str(base / key)
    book = execute("sanma.ipynb", {"SAKI_SANMA_TRIAL": folders["three"],
                                   "SAKI_FOUR_TRIAL": folders["four"]}, monkeypatch)
    text = text_of(book)
    assert "Yukiko Maya: cannot be played for three" in text and "balance band" in text
    assert "Kana Ikeda" in text
    assert images(book) == 1


def test_notebook_defaults_name_runs_the_readme_commands_make(tmp_path: Path,
                                                              monkeypatch) -> None:
    """Each notebook opens, by default, runs that a README command creates: the balance job
    and the two comparisons of the Reports section (the draft made with saki cards new)."""
    import re
    import shlex

    from pipeline.cards.drafts import new_draft
    from pipeline.report.balance import plan_balance

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    commands = ["saki balance"] + re.findall(r"^    (saki balance .+)$", readme, re.MULTILINE)
    assert len(commands) >= 3
    monkeypatch.chdir(tmp_path)
    new_draft("1.3-draft", "1.2")
    made = set()
    for command in commands:
        words = shlex.split(command)[2:]
        options = dict(zip(words[::2], words[1::2], strict=True))
        plan = plan_balance(
            options.get("--preset", "cards-hanchan"), options.get("--cards"),
            compare_preset=options.get("--compare-preset"),
            compare_cards=options.get("--compare-cards"))
        made.update(plan.folder(c).name for c in (plan.main, plan.reference) if c is not None)
        if plan.trial is not None:  # the card trials it plays (three players: four beside)
            made.add(plan.trial_folder().name)
            if plan.reference is not None and plan.main.preset.players == 3:
                from pipeline.sim.trial import TrialConfig

                made.add(TrialConfig(preset=plan.reference.preset, catalog=plan.reference.catalog,
                                     seed=plan.trial.seed, cards=plan.trial.cards[:1]
                                     ).default_out().name)
    from pipeline.sim.tune import default_folder

    for command in re.findall(r"^    (saki tune .+)$", readme, re.MULTILINE):
        words = shlex.split(command)[2:]
        options = dict(zip(words[1::2], words[2::2], strict=False))
        made.add(default_folder(words[0], options.get("--cards", "1.2"),
                                int(options.get("--seed", "1"))).name)
    for command in re.findall(r"^    (saki propose .+)$", readme, re.MULTILINE):
        words = shlex.split(command)
        if "--out" in words:  # its patch notes, beside the proposed catalog
            made.add(Path(words[words.index("--out") + 1]).stem + ".patch-notes.json")
    for book in NOTEBOOKS.glob("*.ipynb"):
        text = book.read_text(encoding="utf-8")
        defaults = re.findall(r'RUNS / \\"([^"\\]+)\\"', text) + \
            re.findall(r'HERE / \\"([^"\\]+\.patch-notes\.json)\\"', text)
        assert defaults, book.name
        assert set(defaults) <= made, (book.name, defaults, made)


def test_balance_overview_leads_with_the_trials_verdicts(runs: dict[str, str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With a card trial beside the run, the notebook opens with the verdicts (counts, the
    candidates, each undecided card's reason), the tier figure against the band and a table
    with readable column names; a trial of two cards has no whole-deck reference, so both are
    undecided and say why."""
    from pipeline.sim.trial import TrialConfig, run_trial

    config = TrialConfig(preset=load_preset("cards-tonpuusen"), catalog=load_catalog("1.2"),
                         seed=3, cards=("nodoka_haramura", "kana_ikeda"), target=1e9,
                         budget_hands=1)
    run_trial(config, tmp_path / "trial", workers=1)
    book = execute("balance_overview.ipynb", {"SAKI_RUN": runs["hanchan"],
                                              "SAKI_TRIAL": str(tmp_path / "trial")},
                   monkeypatch)
    text = text_of(book)
    assert "2 undecided" in text and "whole-deck reference" in text
    shown = "\n".join(o.get("data", {}).get("text/html", "") for c in book.cells
                      for o in c.get("outputs", []))
    assert "value over the match" in shown and "placement, result points a match" in shown
    assert images(book) == 7   # the verdicts' tier view, then the six in-deck figures


@pytest.mark.slow
def test_proposal_runs(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A small proposal (the planted card of tests/report/test_propose_run.py, a minute or two) and
    its patch notes; the notebook walks from its verdicts to its confirmation in seconds."""
    from pipeline.report.patch_notes import write_proposal
    from pipeline.report.propose import run_propose
    from tests.support.proposal_runs import config

    base = tmp_path_factory.mktemp("proposal")
    result = run_propose(config(base), base / "prop", workers=2)
    written = write_proposal(result, base / "P.toml")
    book = execute("proposal.ipynb", {"SAKI_PATCH_NOTES": str(written.json)}, monkeypatch)
    text = text_of(book)
    assert "proposal from catalog test" in text and "band +2,300 to +3,900" in text
    assert "Quad A: mult.factor 4 -> 3" in text and "[-4-]" in text and "{+3+}" in text
    assert f"status: {result.doc['status']}" in text
    assert images(book) == 1
