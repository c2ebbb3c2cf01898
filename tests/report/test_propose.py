"""saki propose: the per-card search on planted curves whose answer is known, the values a
number may take, the command's refusals, and the patch notes page.

The search is handed the card's value as a known function of its number (a planted effect):
what it plays, what it predicts and what it chooses can then be checked against the answer
worked out by hand. The proposal played end to end on real trials is in
``tests/report/test_propose_run.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from pipeline.analytics.proposal import (
    Axis,
    Change,
    Point,
    axes_of,
    first_probes,
    predict,
    search_card,
    target_of,
    zeroes,
)
from pipeline.cards.catalog import load_catalog
from pipeline.datafiles import show_value
from pipeline.report.propose import apply_changes

CATALOG = load_catalog("1.2")
KASUMI = CATALOG.card("kasumi_iwato")   # shown.per = 3, shown.han = 1
NELLY = CATALOG.card("nelly_virsaladze")  # sweep.each_pays = 1000


def planted(curves: dict[str, callable], played: list[tuple[str, str]], half: float = 100.0):
    """A ``play`` whose card value at each value of a number is ``curves[param](value)``,
    with a 95% interval of +/- ``half``; it records what was played."""
    def play(axis: Axis, values):
        out = {}
        for v in values:
            played.append((axis.param, show_value(v)))
            y = curves[axis.param](v if isinstance(v, str) else float(v))
            out[show_value(v)] = Point(y, y - half, y + half)
        return out
    return play


def test_numbers_move_at_most_max_step_steps_and_only_where_the_catalog_allows() -> None:
    axes = {a.param: a for a in axes_of(KASUMI, 2)}
    assert axes["per"].values == (1, 2, 3, 4, 5)
    assert axes["han"].values == (0, 1, 2, 3)        # han is at least 0
    assert {a.param: a.values for a in axes_of(KASUMI, 1)} == {"per": (2, 3, 4),
                                                               "han": (0, 1, 2)}
    assert first_probes(axes["per"]) == [2, 3, 4]
    # an amount in points: saki tune's step (a fifth, in hundreds), every 100 between
    pays = next(a for a in axes_of(NELLY, 1) if a.param == "each_pays")
    assert pays.values == tuple(range(800, 1201, 100)) and pays.ks[0] == -1.0
    assert first_probes(pays) == [800, 1000, 1200]


def test_the_fitted_curve_interpolates_and_carries_the_outer_line_on() -> None:
    pts = [(2.0, Point(2000, 1900, 2100)), (3.0, Point(1400, 1300, 1500)),
           (4.0, Point(1000, 900, 1100))]
    assert predict(pts, 3.5) == (1200, 1100, 1300)
    assert predict(pts, 5.0) == (600, 500, 700)       # the 3-4 line, carried on
    assert predict(pts[:1], 3.0) is None


def test_a_planted_linear_number_is_found_beyond_the_first_steps() -> None:
    """Kasumi's value planted as 1,400 - 400 (per - 3), her han as 1,400 han: the band 0 to
    900 aims at +225 to +675; per = 5 (600) is the only value inside it within two steps,
    so the search plays 5 (beyond its first look, 2 to 4) and chooses it."""
    played: list[tuple[str, str]] = []
    play = planted({"per": lambda x: 1400 - 400 * (x - 3), "han": lambda x: 1400 * x},
                   played)
    target = target_of(0, 900, 100)
    assert target == (225, 675)
    found = search_card(KASUMI, axes_of(KASUMI, 2), target, play, (0, 900))
    ch = found.change
    assert (ch.param, ch.current, ch.value, ch.predicted, ch.measured) == (
        "per", 3, 5, 600, True)
    assert ("per", "5") in played and ("per", "1") not in played
    # the target's middle (+450) lies past the values played: no crossing to report there;
    # han crosses it between 0 and 1, at 450 / 1,400
    assert found.crossings["kasumi_iwato.shown.per"] is None
    assert found.crossings["kasumi_iwato.shown.han"] == pytest.approx(450 / 1400)


def test_the_fewest_steps_win_and_a_value_between_played_ones_is_read_off_the_curve() -> None:
    """Nelly's value planted as 2 x each_pays - 900: the band -31 to +569 aims at +119 to
    +419; the first look plays 800, 1,000, 1,200 (700, 1,100, 1,500); 500 (+100) is outside
    the target and 600 (+300) inside, two steps down: reached by carrying the line on and
    then played."""
    played: list[tuple[str, str]] = []
    play = planted({"each_pays": lambda x: 2 * x - 900, "han": lambda x: 1200.0,
                    "per": lambda x: 1200.0}, played)
    axes = [a for a in axes_of(NELLY, 2) if a.param == "each_pays"]
    found = search_card(NELLY, axes, target_of(-31, 569, 100), play, (-31, 569))
    assert found.change.value == 600 and found.change.predicted == pytest.approx(300)
    assert ("each_pays", "600") in played


def test_a_number_that_cannot_reach_the_band_is_a_text_rework_with_what_was_tried() -> None:
    played: list[tuple[str, str]] = []
    flat = planted({"per": lambda x: 1500.0, "han": lambda x: 1500.0 + x}, played)
    found = search_card(KASUMI, axes_of(KASUMI, 2), target_of(0, 900, 100), flat, (0, 900))
    assert found.change is None and "no number reaches the band" in found.note
    assert set(found.tried) == {"kasumi_iwato.shown.per", "kasumi_iwato.shown.han"}
    assert all(len(v) >= 3 for v in found.tried.values())


def test_when_nothing_lands_in_the_target_the_value_safest_inside_the_band_is_taken() -> None:
    """per = 5 is predicted +800 (inside 0 to 900, 125 past the target), han = 0 +50 (175
    short of it): per = 5 is the safer change, though it is two steps and han one."""
    played: list[tuple[str, str]] = []
    play = planted({"per": lambda x: 1400 - 300 * (x - 3), "han": lambda x: 50 + 1350 * x},
                   played)
    found = search_card(KASUMI, axes_of(KASUMI, 2), target_of(0, 900, 100), play, (0, 900))
    assert (found.change.param, found.change.value) == ("per", 5)


def test_a_change_that_keeps_the_effect_alive_beats_one_that_zeroes_it() -> None:
    """Kasumi planted as 1,600 - 400 (per - 3) and 400 + 1,200 han: han = 0 lands in the
    target (+225 to +675) in one step (+400) but removes her bonus; per = 6 (three steps,
    +400) keeps it: per is chosen, han = 0 kept as the alternative the patch notes show."""
    played: list[tuple[str, str]] = []
    play = planted({"per": lambda x: 1600 - 400 * (x - 3), "han": lambda x: 400 + 1200 * x},
                   played)
    found = search_card(KASUMI, axes_of(KASUMI, 3), target_of(0, 900, 100), play, (0, 900))
    assert (found.change.param, found.change.value) == ("per", 6)
    assert [(a.param, a.value) for a in found.alternatives] == [("han", 0)]
    assert zeroes(1, 0) and not zeroes(3, 6) and not zeroes(0, 0) and zeroes([1, 2], [])


def test_a_change_inside_the_band_that_keeps_the_effect_beats_one_in_the_target_that_does_not(
        ) -> None:
    """As the default proposal found Kasumi: han = 0 predicted in the target (here +300) but
    switching her bonus off, per = 6 only inside the band (+700, past the target +225 to
    +675): per = 6 is proposed, han = 0 shown as the alternative."""
    play = planted({"per": lambda x: 1600 - 300 * (x - 3), "han": lambda x: 300 + 1300 * x},
                   [])
    found = search_card(KASUMI, axes_of(KASUMI, 3), target_of(0, 900, 100), play, (0, 900))
    assert (found.change.param, found.change.value) == ("per", 6)
    assert [(a.param, a.value) for a in found.alternatives] == [("han", 0)]


def test_a_reading_is_a_lever_after_the_numbers() -> None:
    """Nelly's numbers planted flat at +1,500 (none reaches the target -31 to +569 aims at),
    her reading of "draws" at +1,500 for any draw and +300 for exhaustive draws only: the
    reading is chosen (both its choices played). With each_pays also reaching the target
    (2 x each_pays - 900: 600 gives +300), the number wins and the reading is the
    alternative: a number keeps the text's meaning."""
    flat = {"each_pays": lambda x: 1500.0, "han": lambda x: 1500.0, "turn": lambda x: 1500.0,
            "draws": lambda v: 1500.0 if v == "any_draw" else 300.0}
    played: list[tuple[str, str]] = []
    found = search_card(NELLY, axes_of(NELLY, 3), target_of(-31, 569, 100),
                        planted(flat, played), (-31, 569))
    assert (found.change.param, found.change.value) == ("draws", "exhaustive_only")
    assert ("draws", "\"any_draw\"") in played and ("draws", "\"exhaustive_only\"") in played
    assert found.crossings["nelly_virsaladze.sweep.draws"] is None
    both = {**flat, "each_pays": lambda x: 2 * x - 900}
    found = search_card(NELLY, axes_of(NELLY, 3), target_of(-31, 569, 100),
                        planted(both, []), (-31, 569))
    assert (found.change.param, found.change.value) == ("each_pays", 600)
    assert ("draws", "exhaustive_only") in [(a.param, a.value) for a in found.alternatives]


def test_two_numbers_together_when_neither_alone_reaches_the_band() -> None:
    """Kasumi planted as 2,000 - 300 (per - 3) - 600 (1 - han)... each alone: per = 6 gives
    +1,100, han = 0 +1,400, neither inside 0 to 900; both together are predicted +500
    (the moves added), played together (measured: the planted sum) and taken, the second
    number kept in ``also``. A pair measured outside the band is not taken, and says so."""
    def curve(per: float, han: float) -> float:
        return 2000 - 300 * (per - 3) - 600 * (1 - han)

    play = planted({"per": lambda x: curve(x, 1), "han": lambda x: curve(3, x)}, [])
    pairs: list[tuple] = []

    def play_pair(a, b):
        values = {a.param: a.value, b.param: b.value}
        pairs.append(tuple(sorted(values.items())))
        y = curve(values["per"], values["han"])
        return Point(y, y - 100, y + 100)

    found = search_card(KASUMI, axes_of(KASUMI, 3), target_of(0, 900, 100), play, (0, 900),
                        play_pair)
    ch = found.change
    assert [(p.param, p.value) for p in ch.parts] == [("per", 6), ("han", 0)]
    assert ch.predicted == curve(6, 0) == 500 and ch.measured
    assert pairs == [(("han", 0), ("per", 6))]
    catalog = apply_changes(CATALOG, [ch], "t")
    shown = catalog.card("kasumi_iwato").effect("shown").params
    assert (shown["per"], shown["han"]) == (6, 0)

    def worse(a, b):
        return Point(1500.0, 1400.0, 1600.0)

    found = search_card(KASUMI, axes_of(KASUMI, 3), target_of(0, 900, 100), play, (0, 900),
                        worse)
    assert found.change is None and "measured +1,500: outside the band" in found.note


def test_a_card_searched_again_keeps_its_earlier_change() -> None:
    """After the joint round a changed card may be searched again, on the catalog with its
    first change made: the proposal holds both numbers (a first run lost Kasumi's han 1 -> 0
    when her second search moved per, and the fresh seeds measured per 3 -> 2 alone, a buff);
    where both move the same number the second value stands."""
    def change(param: str, current: int, value: int) -> Change:
        return Change("kasumi_iwato", "shown", param, current, value, 1.0, 0.0, None, None,
                      True)

    first, second = change("han", 1, 0), change("per", 3, 4)
    both = second.on_top_of(first)
    assert [(c.param, c.value) for c in both.parts] == [("per", 4), ("han", 0)]
    shown = apply_changes(CATALOG, [both], "t").card("kasumi_iwato").effect("shown").params
    assert (shown["per"], shown["han"]) == (4, 0)
    again = change("han", 1, 2).on_top_of(both)
    assert sorted((c.param, c.value) for c in again.parts) == [("han", 2), ("per", 4)]


# --- the command's refusals ---------------------------------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["--band", "9:1"], "--band '9:1': LO must be below HI"),
    (["--band", "x"], "--band 'x' is not LO:HI"),
    (["--lock", "nobody"], "--lock: 'nobody' is not a card of catalog 1.2"),
    (["--only", "nobody"], "--only: 'nobody' is not a card of catalog 1.2's deck"),
    (["--max-step", "0"], "--max-step must be at least 1"),
    (["--out", "1.2.toml"], "is a shipped catalog's version"),
])
def test_bad_options_are_one_line_errors_with_exit_2_and_nothing_written(
        args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli.app, ["propose", "--only", "kasumi_iwato", *args])
    assert result.exit_code == 2, result.output
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0], result.output
    assert not any(tmp_path.iterdir())


def test_a_designers_own_file_is_never_overwritten(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text("version = 'mine'\n")
    result = CliRunner().invoke(cli.app, ["propose", "--only", "kasumi_iwato", "--band",
                                          "0:900", "--out", "mine.toml"])
    assert result.exit_code == 2 and "is not a proposal's catalog" in result.output
    assert (tmp_path / "mine.toml").read_text() == "version = 'mine'\n"


# --- the patch notes ----------------------------------------------------------------------


def notes_of(text_before: str, text_after: str) -> dict:
    change = {"card": "x", "name": "<b>Evil</b>", "effect": "e", "param": "p", "from": 1,
              "to": 2, "from_text": "1", "to_text": "2", "old_text": text_before,
              "new_text": text_after, "predicted": 1.0, "predicted_lo": 0.0,
              "predicted_hi": 2.0, "before": None, "after": None, "tried": [],
              "rows": [{"what": "card text", "a": [("same", text_before)],
                        "b": [("ins", text_after)]}]}
    return {"kind": "patch_notes", "status": "confirmed", "seed": 1, "confirm_seed": 1000004,
            "band": {"lo": 0, "hi": 900, "threshold": 300, "zone": 100, "unit": "points",
                     "absolute": True},
            "changes": [change], "rework": [{"name": "<i>R</i>", "why": "w", "tried": []}],
            "left_alone": [], "left_the_band": [], "missed": [], "undecided": [],
            "rounds": [], "cards": [], "cost": {"hands_played_now": 1, "hands_total": 2},
            "catalog_file": "P.toml", "catalog_hash": "h", "folder": "f",
            "config": {"catalog": {"version": "1.2"}, "preset": {"name": "p"},
                       "max_step": 2}}


def test_the_patch_notes_page_escapes_card_text() -> None:
    from pipeline.report.patch_notes import patch_notes_html

    page = patch_notes_html(notes_of("<script>alert(1)</script> wins", "a & b"))
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    assert "<b>Evil</b>" not in page and "&lt;b&gt;Evil" in page
    assert "<i>R</i>" not in page and "a &amp; b" in page


def test_the_patch_notes_show_the_other_numbers_that_would_do() -> None:
    from pipeline.report.patch_notes import patch_notes_html

    notes = notes_of("a", "b")
    notes["changes"][0]["alternatives"] = [
        {"effect": "shown", "param": "han", "from": 1, "to": 0, "from_text": "1",
         "to_text": "0", "steps": 1, "predicted": 412.0, "predicted_lo": 300.0,
         "predicted_hi": 520.0, "switches_off": True}]
    page = patch_notes_html(notes)
    assert "shown.han 1 &rarr; 0" in page and "+412" in page
    assert "switches the ability off" in page


def test_patch_notes_are_linked_only_for_the_catalog_they_describe(tmp_path: Path) -> None:
    import json

    from pipeline.report.patch_notes import notes_paths, patch_notes_for

    catalog = tmp_path / "P.toml"
    catalog.write_text("")
    html, js = notes_paths(catalog)
    assert (html.name, js.name) == ("P.patch-notes.html", "P.patch-notes.json")
    html.write_text("<html></html>")
    js.write_text(json.dumps({"catalog_hash": "abc"}))
    assert patch_notes_for(catalog, "abc") == html
    assert patch_notes_for(catalog, "another") is None   # the catalog was edited since
    assert patch_notes_for(None, "abc") is None


def test_the_balance_report_of_a_proposed_catalog_links_its_patch_notes(tmp_path: Path
                                                                        ) -> None:
    import json

    from pipeline.report.balance import _patch_notes_link
    from pipeline.report.patch_notes import notes_paths

    proposed = tmp_path / "cards" / "P.toml"
    proposed.parent.mkdir()
    proposed.write_text(CATALOG.path.read_text(encoding="utf-8").replace(
        'version = "1.2"', 'version = "P"', 1))
    catalog = load_catalog(str(proposed))
    html, js = notes_paths(proposed)
    html.write_text("<html></html>")
    js.write_text(json.dumps({"catalog_hash": catalog.content_hash()}))
    report = tmp_path / "reports" / "run.html"
    assert _patch_notes_link(catalog, report) == "../cards/P.patch-notes.html"
    assert _patch_notes_link(CATALOG, report) is None   # the shipped 1.2: no notes
    page = (Path(__file__).resolve().parents[2] / "pipeline" / "report" / "templates"
            / "main.html").read_text(encoding="utf-8")
    assert '<a href="{{ patch_notes }}">its patch notes</a>' in page


def test_a_proposal_played_by_other_code_is_refused_before_anything_is_played(
        tmp_path: Path) -> None:
    import json

    from pipeline.report.propose import ProposeConfig, run_propose
    from pipeline.rules.preset import load_preset
    from pipeline.sim import SimError
    from pipeline.verdicts import BandSpec

    config = ProposeConfig(preset=load_preset("cards-hanchan"), catalog=CATALOG, seed=3,
                           cards=("kasumi_iwato",), band=BandSpec(lo=0.0, hi=900.0),
                           whole_deck=False)
    folder = tmp_path / "prop"
    folder.mkdir()
    (folder / "propose.json").write_text(json.dumps({
        "kind": "proposal", "status": "running", "config": config.identity(),
        "code": {"source_hash": "0123456789abcdef"}}))
    with pytest.raises(SimError, match="another version of the lab's code"):
        run_propose(config, folder, workers=1)
    assert sorted(p.name for p in folder.iterdir()) == [".saki-lock", "propose.json"] or \
        sorted(p.name for p in folder.iterdir()) == ["propose.json"]
