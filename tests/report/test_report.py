"""The HTML report laid out from tables in the analytics contract's shape: escaping, a page that
needs nothing but itself, the tier view, comparisons with card text diffs, and the static site.

These tests build the tables by hand (so every value shown has a known source); the report of
real runs is tested in test_report_runs.py."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
from matplotlib.figure import Figure

from pipeline.cards.catalog import Card
from pipeline.report import ReportError, figures, fmt
from pipeline.report.build import (
    Report,
    ReportInputs,
    render_inputs,
    word_diff,
    write_report,
    write_site,
)
from pipeline.report.pages import script
from tests.support.report_pages import Page

EVIL = "<script>alert('x')</script>"


def row(group: str, name: str, swing: float, flag: str = "", hands: int = 1000,
        **over: object) -> dict[str, object]:
    """One character_table row; every column of the contract, values chosen per test."""
    base: dict[str, object] = dict(
        group=group, name=name, hands=hands, matches=hands // 10, pick_rate=0.5, pick_lo=0.45,
        pick_hi=0.55, win_rate=0.21, win_lo=0.19, win_hi=0.23, tsumo_share=0.4,
        deal_in_rate=0.12, deal_in_lo=0.10, deal_in_hi=0.14, riichi_rate=0.2, call_rate=0.3,
        draw_tenpai_rate=0.45, avg_win=6000.0, avg_deal_in=5000.0, swing=swing,
        swing_lo=swing - 250, swing_hi=swing + 250, swing_sd=5000.0, field_diff=swing,
        field_diff_lo=swing - 250, field_diff_hi=swing + 250, p_value=0.04, q_value=0.1,
        avg_place=2.4, avg_place_lo=2.3, avg_place_hi=2.5, top_rate=0.3, last_rate=0.2,
        avg_result=2.0, triggers_per_hand=0.3, trigger_value=1.0, paired_effect=None,
        paired_lo=None, paired_hi=None, flag=flag)
    base.update(over)
    return base


def table(*rows: dict[str, object]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema_overrides={"paired_effect": pl.Float64,
                                                      "paired_lo": pl.Float64,
                                                      "paired_hi": pl.Float64})


def calibration() -> pl.DataFrame:
    return pl.DataFrame({
        "metric": ["win_rate", "average_win"], "label": ["win rate", "average win"],
        "unit": ["rate", "points"], "value": [0.2, 5500.0], "lo": [0.19, 5300.0],
        "hi": [0.21, 5700.0], "human": [0.211, 5647.0], "target_lo": [0.19, 5000.0],
        "target_hi": [0.24, 7000.0], "judge": ["ok", "ok"]})


def card(cid: str, name: str, text: str) -> Card:
    return Card(id=cid, name=name, school="Kiyosumi", text_template=text)


META = {
    "run_id": "cards-test-1.2-s1-n10-0123456789", "status": "complete", "seed": 1, "games": 10,
    "preset": {"name": "cards-test", "description": "teams of one", "length": "hanchan",
               "start_points": 30000, "cards": {"enabled": True, "team_mode": "standard",
                                                "team_size": 1, "exclude": []}},
    "catalog": {"version": "1.2", "content_hash": "ab" * 32},
    "rows": {"hands": 480}, "bots": {"seats": ["heuristic"] * 4},
}


def inputs(tab: pl.DataFrame, cards: dict[str, Card] | None = None, **kw: object
           ) -> ReportInputs:
    return ReportInputs(meta=kw.pop("meta", META), label=META["run_id"], path=Path("runs/x"),
                        table=tab, calibration=calibration(), cards=cards, **kw)


STANDARD = table(
    row("nodoka", "Nodoka", 700.0, "strong"),
    row("mako", "Mako", 10.0),
    row("haru", "Haru", -600.0, "weak"),
    row("arata", "Arata", 50.0, "not enough data", hands=50),
)
CARDS = {"nodoka": card("nodoka", "Nodoka", "Pinfu is worth 2 han."),
         "mako": card("mako", "Mako", "Open hands lose no han."),
         "haru": card("haru", "Haru", "Discard face down."),
         "arata": card("arata", "Arata", "Pinzu han."),
         "saki": card("saki", "Saki", "Rinshan.")}


@pytest.fixture(scope="module")
def standard() -> Report:
    """The report of STANDARD, drawn once (figures take a while on a busy machine)."""
    return render_inputs(inputs(STANDARD, CARDS))


# --- escaping and self-containment ---------------------------------------------------------


def test_text_from_data_files_is_escaped_everywhere() -> None:
    cards = dict(CARDS, mako=card("mako", f"Mako {EVIL}", f"Her text {EVIL} ends."))
    meta = json.loads(json.dumps(META))
    meta["preset"]["description"] = EVIL
    tab = table(row("nodoka", f"Nodoka {EVIL}", 700.0, "strong"), row("mako", "Mako", 0.0))
    cmp = SimpleNamespace(
        label_a="a", label_b="b", warnings=[EVIL],
        metrics=pl.DataFrame(), preset_changes=[{"option": "uma", "a": EVIL, "b": [1, 2]}],
        card_changes=[{"card": "mako", "name": EVIL, "change": "text", "before": EVIL,
                       "after": "plain"}])
    cmp.metrics = comparison_metrics()
    report = render_inputs(inputs(tab, cards, meta=meta, comparison=cmp))
    ours = f"<script>{script()}</script>"
    for html in (report.html(), report.html(site=True), report.card_html("mako")):
        # the one script is the page's own table script; the data's stays text
        assert html.count(ours) == 1 and html.lower().count("<script") == 1
        assert "alert(" not in html.replace("&lt;script&gt;alert(&#39;x&#39;)", "")
        assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html
        page = Page(html)
        assert [(t, a) for t, a in page.tags if t == "script"] == [("script", {})]
        assert EVIL in "".join(page.text) or f"Mako {EVIL}" in "".join(page.text)


def test_the_page_needs_nothing_but_itself(standard: Report) -> None:
    html = standard.html()
    page = Page(html)
    images = page.attr("img", "src")
    assert len(images) == 6  # calibration, tiers, scatter, placement, picks, triggers
    for src in images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    for tag, attrs in page.tags:
        for name in ("src", "href"):
            value = attrs.get(name) or ""
            assert not re.match(r"[a-z]+:", value) or value.startswith("data:"), (tag, value)
    assert not [t for t, _ in page.tags if t in ("link", "iframe")]
    # one inline script (sorting and filtering the tables), loading nothing
    assert [a for t, a in page.tags if t == "script"] == [{}]
    assert "fetch(" not in html and "XMLHttpRequest" not in html
    assert "<style>" in html


# --- content -------------------------------------------------------------------------------


def test_overview_tier_view_and_flags(standard: Report) -> None:
    report = standard
    page = Page(report.html())
    assert {"overview", "calibration", "tiers", "style", "cards", "fig-tiers", "fig-scatter",
            "fig-placement", "fig-picks", "fig-triggers", "fig-calibration"} <= page.ids()
    assert "comparison" not in page.ids()
    ctx = report.context
    overview = dict(ctx["overview"])
    assert overview["hands"] == "120"          # 480 seat-hand rows, four per hand
    assert overview["matches"] == "10"
    assert [c["name"] for c in ctx["nerfs"]] == ["Nodoka"]
    assert [c["name"] for c in ctx["buffs"]] == ["Haru"]
    # the tier table keeps the analytics order (by swing, too-small groups last)
    assert [r["name"] for r in ctx["tiers"]] == ["Nodoka", "Mako", "Haru", "Arata"]
    assert "3 characters played enough hands" in ctx["verdict"]
    assert "1 played too few hands" in ctx["verdict"]
    text = "".join(page.text)
    assert "+700" in text and "(+450 to +950)" in text
    assert "Pinfu is worth 2 han." in text
    # Saki is in the catalog but did not play
    assert ctx["unplayed"] == ["Saki"]


def test_each_card_section_says_where_it_stands(standard: Report) -> None:
    cards = {c.id: c for c in standard.cards}
    assert cards["nodoka"].summary.startswith("Nerf candidate: +700 (+450 to +950)")
    assert cards["haru"].summary.startswith("Buff candidate: -600 (-850 to -350)")
    assert cards["mako"].summary.startswith("Within the field")
    assert cards["arata"].summary == ("Only 50 hands: too few to judge (at least 200 are "
                                      "needed).")
    shown = {m["label"]: (m["value"], m["span"]) for m in cards["nodoka"].metrics}
    assert shown["win rate"] == ("21.0%", "(19.0% to 23.0%)")
    assert shown["with minus without ability"] == (fmt.DASH, "")


def test_missing_card_texts_are_said_not_hidden() -> None:
    report = render_inputs(inputs(STANDARD, None, catalog_warnings=("file changed",)))
    assert "file changed" in report.context["notes"]
    assert any("card texts are left out" in n for n in report.context["notes"])
    assert "not available" in report.html()


# --- comparison ----------------------------------------------------------------------------


def comparison_metrics() -> pl.DataFrame:
    rows = []
    for group, name, delta, flag in (("nodoka", "Nodoka", 450.0, "up"),
                                     ("mako", "Mako", -20.0, "")):
        r: dict[str, object] = {"group": group, "name": name, "hands_a": 900, "hands_b": 1000}
        for m, a, d in (("swing", 100.0, delta), ("win_rate", 0.2, 0.015),
                        ("deal_in_rate", 0.12, -0.01), ("avg_place", 2.5, -0.1)):
            r.update({f"{m}_a": a, f"{m}_b": a + d, f"{m}_delta": d,
                      f"{m}_delta_lo": d - abs(d) / 2, f"{m}_delta_hi": d + abs(d) / 2})
        r.update(p_value=0.01, q_value=0.02, flag=flag)
        rows.append(r)
    rows.append({"group": "saki", "name": "Saki", "hands_a": 300, "hands_b": 0,
                 **{f"{m}_{s}": None for m in ("swing", "win_rate", "deal_in_rate",
                                               "avg_place")
                    for s in ("a", "b", "delta", "delta_lo", "delta_hi")},
                 "p_value": None, "q_value": None, "flag": "not enough data"})
    return pl.DataFrame(rows, infer_schema_length=None)


def test_comparison_shows_text_diff_rule_changes_and_deltas_with_intervals() -> None:
    cmp = SimpleNamespace(
        label_a="cards-hanchan-1.2-s1-n400-0123456789", label_b="cards-tonpuusen-1.2-s1-n400",
        metrics=comparison_metrics(), warnings=[],
        preset_changes=[{"option": "length", "a": "hanchan", "b": "tonpuusen"},
                        {"option": "cards.exclude", "a": [], "b": ["kazue", "yuuki"]}],
        card_changes=[{"card": "nodoka", "name": "Nodoka", "change": "parameters",
                       "before": "pinfu: yaku_value(han = 1)",
                       "after": "pinfu: yaku_value(han = 2)"}])
    before = dict(CARDS, nodoka=card("nodoka", "Nodoka", "Pinfu is worth 1 han."))
    report = render_inputs(inputs(STANDARD, CARDS, comparison=cmp, reference_cards=before))
    page = Page(report.html())
    assert {"comparison", "fig-shift", "fig-shift-scatter"} <= page.ids()
    view = report.context["cmp"]
    assert view["label_a"] == "cards-hanchan-1.2-s1-n400"   # the hash is dropped for reading
    assert view["only_a"] == ["Saki"] and view["only_b"] == []
    assert {"option": "cards.exclude", "a": "(none)", "b": "kazue, yuuki"} in \
        view["preset_changes"]
    nodoka = next(c for c in report.cards if c.id == "nodoka")
    swing = nodoka.deltas[0]
    assert (swing["a"], swing["b"], swing["delta"], swing["span"]) == (
        "+100", "+550", "+450", "(+225 to +675)")
    assert nodoka.deltas[1]["delta"] == "+1.5 pp"
    assert nodoka.delta_flag == "up"
    assert [c["change"] for c in nodoka.changes] == ["card text", "parameters"]
    html = report.card_html("nodoka")
    # the text a player reads, then the parameter behind it, old (A) and new (B) side by side
    # with the changed words marked
    assert '<td class="old">Pinfu is worth <del>1</del> han.</td>' in html
    assert '<td class="new">Pinfu is worth <ins>2</ins> han.</td>' in html
    assert "pinfu: yaku_value(han = <del>1)</del></td>" in html
    assert "pinfu: yaku_value(han = <ins>2)</ins></td>" in html
    main = report.html()
    assert "<h3>Cards that differ</h3>" in main and 'class="diffcard"' in main
    assert '<td class="old">Pinfu is worth <del>1</del> han.</td>' in main
    # preset options the same way: the old value marked as removed, the new as added
    assert '<td>length</td><td class="old"><del>hanchan</del></td>' in main
    assert '<td class="new"><ins>tonpuusen</ins></td>' in main
    mako = next(c for c in report.cards if c.id == "mako")
    assert mako.changes == []
    assert "The card is the same in both runs" in report.card_html("mako")


def test_a_comparison_of_card_versions_has_no_preset_scatter() -> None:
    cmp = SimpleNamespace(label_a="a", label_b="b", metrics=comparison_metrics(), warnings=[],
                          preset_changes=[], card_changes=[])
    page = Page(render_inputs(inputs(STANDARD, CARDS, comparison=cmp)).html())
    assert "fig-shift" in page.ids() and "fig-shift-scatter" not in page.ids()


def test_word_diff_marks_only_what_changed() -> None:
    assert word_diff("Pinfu is worth 2 han.", "Pinfu is worth 3 han.") == [
        ("same", "Pinfu is worth "), ("del", "2"), ("ins", "3"), ("same", " han.")]
    assert word_diff("", "New card.") == [("ins", "New card.")]
    assert word_diff("Same.", "Same.") == [("same", "Same.")]


# --- files ---------------------------------------------------------------------------------


def test_site_has_an_index_and_a_page_per_card(standard: Report, tmp_path: Path) -> None:
    report = standard
    index = write_site(report, tmp_path / "site")
    assert index == tmp_path / "site" / "index.html"
    links = [h for h in Page(index.read_text()).attr("a", "href") if h.startswith("cards/")]
    assert set(links) == {f"cards/{c}.html" for c in ("nodoka", "mako", "haru", "arata")}
    for link in links:
        page = Page((tmp_path / "site" / link).read_text())
        assert "../index.html" in page.attr("a", "href")
        # each card page carries its figure: the card among all characters
        card_id = link.removeprefix("cards/").removesuffix(".html")
        assert f"fig-card-{card_id}" in page.ids()
        (src,) = page.attr("img", "src")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_card_figure_highlights_its_card() -> None:
    rows = [row("nodoka", "Nodoka", 700.0, "strong"), row("mako", "Mako", 0.0),
            row("haru", "Haru", -500.0, "weak")]
    fig = figures.card_strip(rows, "nodoka")
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.texts] == ["Nodoka"]
    coloured = [line for line in ax.lines if line.get_color() == figures.STRONG]
    assert {tuple(line.get_xdata()) for line in coloured} == {(450.0, 950.0), (700.0,)}
    shifted = figures.card_strip(rows, "mako", [{"group": "mako", "name": "Mako",
                                                 "swing_delta": 50.0, "swing_delta_lo": -10.0,
                                                 "swing_delta_hi": 110.0, "flag": None}])
    assert len(shifted.axes) == 2 and "B minus A" in shifted.axes[1].get_xlabel()


def test_single_file_links_cards_inside_the_page(standard: Report, tmp_path: Path) -> None:
    out = write_report(standard, tmp_path / "r" / "x.html")
    page = Page(out.read_text())
    anchors = {h[1:] for h in page.attr("a", "href") if h.startswith("#")}
    assert {"card-nodoka", "card-haru"} <= anchors <= page.ids()


def test_writing_over_a_folder_is_a_clear_error(standard: Report, tmp_path: Path) -> None:
    report = standard
    with pytest.raises(ReportError, match="is a folder"):
        write_report(report, tmp_path)
    (tmp_path / "f").write_text("")
    with pytest.raises(ReportError, match="is a file"):
        write_site(report, tmp_path / "f")


# --- figures and formatting ----------------------------------------------------------------


def labels(fig: Figure, axis: int = 0) -> list[str]:
    return [t.get_text() for t in fig.axes[axis].get_yticklabels()]


def test_forest_lists_characters_in_table_order_and_skips_missing_swings() -> None:
    tab = table(row("a", "Alpha", 500.0, "strong"), row("b", "Beta", 0.0),
                row("c", "Gamma", -400.0, "weak"), row("(none)", "(none)", 0.0))
    tab = tab.with_columns(pl.when(pl.col("name") == "Beta").then(None)
                           .otherwise(pl.col("swing")).alias("swing"))
    fig = figures.tier_forest(tab)
    assert labels(fig) == ["Alpha", "Gamma", "(no character)"]
    line = fig.axes[0].lines[0]   # the first interval is Alpha's, drawn in the nerf colour
    assert list(line.get_xdata()) == [250.0, 750.0]
    assert line.get_color() == figures.STRONG


def test_shift_forest_sorts_by_change_and_scales_rates() -> None:
    fig = figures.shift_forest(comparison_metrics(), "win_rate")
    assert labels(fig) == ["Nodoka", "Mako"]   # Saki has no change (played in A only)
    xs = [x for ln in fig.axes[0].lines for x in ln.get_xdata()]
    assert max(xs) == pytest.approx(100 * (0.015 + 0.0075))  # percentage points


def test_placement_bars_stack_the_four_places_in_order() -> None:
    df = table(row("a", "A", 100.0, top_rate=0.4, second_rate=0.3, third_rate=0.2,
                   last_rate=0.1),
               row("b", "B", -100.0))   # an older table's row: no second or third rate
    fig = figures.placement_bars(df.with_columns(
        pl.when(pl.col("group") == "b").then(None).otherwise(pl.col(c)).alias(c)
        for c in ("second_rate", "third_rate")))
    bars = [(round(b.get_y() + b.get_height() / 2), b.get_x(), b.get_width(), b.get_facecolor())
            for b in fig.axes[0].patches]
    a = [v for y, x, w, _ in bars if y == 0 for v in (float(x), float(w))]
    # grey background, then 1st from 0, 2nd after it, 3rd after that, 4th ending at 100%
    assert a == pytest.approx([0, 1, 0, 0.4, 0.4, 0.3, 0.7, 0.2, 0.9, 0.1])
    b = [v for y, x, w, _ in bars if y == 1 for v in (float(x), float(w))]
    assert b == pytest.approx([0, 1, 0, 0.3, 0.8, 0.2])  # 1st and 4th only, grey middle
    _, first, last = (c for y, _, _, c in bars if y == 1)
    assert first != last


def test_figures_accept_empty_tables_and_refuse_wrong_ones() -> None:
    empty = table(row("a", "A", 0.0)).clear()
    for draw in (figures.tier_forest, figures.win_dealin_scatter, figures.placement_bars,
                 figures.pick_rate_bars, figures.trigger_bars):
        assert figures.png_data_uri(draw(empty)).startswith("data:image/png;base64,")
    with pytest.raises(ValueError, match="swing_lo"):
        figures.tier_forest(pl.DataFrame({"group": ["a"], "name": ["a"], "swing": [1.0]}))


def test_calibration_figure_splits_rates_from_points() -> None:
    fig = figures.calibration_dots(calibration())
    assert [labels(fig, 0), labels(fig, 1)] == [["win rate"], ["average win"]]


def test_formatting_of_missing_values_and_intervals() -> None:
    assert fmt.pct(None) == fmt.DASH and fmt.pts(float("nan")) == fmt.DASH
    assert fmt.pct(0.2134) == "21.3%"
    assert fmt.pts(1234.6, signed=True) == "+1,235"
    assert fmt.interval(-40, 280, "pts", True) == "(-40 to +280)"
    assert fmt.interval(None, 1) == ""
    assert fmt.with_interval(None, 1, 2) == fmt.DASH
    assert fmt.pp(0.012) == "+1.2 pp"
    assert fmt.prob(4e-21) == "< 0.001" and fmt.prob(0.0423) == "0.042"
    assert fmt.short_label("cards-hanchan-1.2-s1-n400-78ea2f0d3f") == "cards-hanchan-1.2-s1-n400"
    assert fmt.short_label("my-run") == "my-run"


def test_the_shift_figure_marks_the_changed_cards() -> None:
    """An edit and its effect seen together: changed cards get a ✎, a bold label and a shaded
    row; the other characters do not."""
    metrics = comparison_metrics()
    fig = figures.shift_forest(metrics, "swing", "A", "B", changed={"nodoka"})
    ax = fig.axes[0]
    labels = {t.get_text(): t.get_fontweight() for t in ax.get_yticklabels()}
    assert labels["✎ Nodoka"] == "bold"
    assert all(not text.startswith("✎") for text in labels if "Nodoka" not in text)
    assert len(ax.patches) == 1  # one shaded row
    assert "\n" in ax.get_xlabel()  # the long axis label is wrapped, not clipped
    plain = figures.shift_forest(metrics, "swing", "A", "B")
    assert not plain.axes[0].patches


def _boxes(ax) -> list:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(ax.figure).get_renderer()
    return [t.get_window_extent(renderer) for t in ax.texts]


def test_scatter_labels_do_not_overprint_even_when_points_crowd() -> None:
    """Twelve characters within a percentage point of each other: every label is drawn and
    no two labels' boxes overlap; the few-hands character is hollow, grey and unlabelled."""
    rows = [row(f"c{i}", f"Character {i}", 0.0, "none", win_rate=0.21 + 0.0008 * i,
                deal_in_rate=0.12 + 0.0005 * (i % 4)) for i in range(12)]
    rows.append(row("tiny", "Tiny", 0.0, "not enough data", hands=8))
    fig = figures.win_dealin_scatter(table(*rows))
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 12 and "Tiny" not in " ".join(texts)  # too few hands: unlabelled
    assert "1 with too few hands: grey, unlabelled" in ax.get_title()
    boxes = _boxes(ax)
    overlaps = [(texts[i], texts[j]) for i in range(len(boxes)) for j in range(i)
                if boxes[i].overlaps(boxes[j])]
    assert overlaps == []
    tiny = [line for line in ax.lines if line.get_marker() == "o"
            and line.get_markerfacecolor() == "white"]
    assert len(tiny) == 1


def test_placement_chart_has_intervals_and_marks_few_hands() -> None:
    tab = table(row("tiny", "Tiny", 0.0, "not enough data", hands=8, avg_place=1.0,
                    avg_place_lo=1.0, avg_place_hi=1.0),
                row("saki", "Saki", 500.0, "strong", hands=1000, avg_place=2.1,
                    avg_place_lo=1.9, avg_place_hi=2.3))
    fig = figures.placement_bars(tab)
    bars, dots = fig.axes
    labels = [t.get_text() for t in bars.get_yticklabels()]
    assert labels == ["Saki", "Tiny (8 hands: too few)"]  # the small one last, and marked
    intervals = [line.get_xdata() for line in dots.lines if len(line.get_xdata()) == 2
                 and line.get_xdata()[0] != line.get_xdata()[1]]
    assert [list(x) for x in intervals] == [[1.9, 2.3]]
    assert dots.get_xlabel().startswith("average placement") and dots.get_xlim() == (1, 4)
    assert "share of matches" in bars.get_xlabel()


def test_trigger_figure_keeps_points_and_han_on_their_own_axes() -> None:
    tab = table(row("nodoka", "Nodoka", 0.0, "none", trigger_value=1500.0, trigger_han=1.0),
                row("saki", "Saki", 0.0, "none", trigger_value=None, trigger_han=None))
    fig = figures.trigger_bars(tab)
    units = [ax.get_xlabel() for ax in fig.axes]
    assert units == ["triggers per hand played", "mean points a trigger adds",
                     "mean han a trigger adds"]
    assert not any("han or points" in u for u in units)
    only_points = figures.trigger_bars(table(row("saki", "Saki", 0.0, "none")))
    assert [ax.get_xlabel() for ax in only_points.axes][1:] == ["mean points a trigger adds"]
