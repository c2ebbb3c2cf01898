"""A generated report opened from disk in headless Chromium: the key sections and figures are
there, the console stays silent, and no request leaves the machine.

Chromium runs with a proxy on a dead local port and writes its network log; a request the page
makes shows there under the page's own site (``file://``), whatever happens to it. A control
page with an external image and a console message proves both checks can fail. The screenshot
is kept as a test artifact in ``$SAKI_ARTIFACTS`` (default: the test's temporary folder).
"""

from __future__ import annotations

import html as html_lib
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from pipeline.analytics.synthetic import SyntheticSpec, catalog_ids, write_synthetic_run
from pipeline.report.build import build_report, write_report, write_site

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
    "chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium); "
    ".ci/run installs it")

QUIET = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--no-default-browser-check", "--disable-background-networking", "--disable-sync",
         "--disable-component-update", "--disable-default-apps", "--disable-extensions",
         "--disable-domain-reliability", "--proxy-server=127.0.0.1:9",
         "--enable-logging=stderr", "--v=0")
CALIBRATION_GREEN = np.array([0xD5, 0xF5, 0xE3]) / 255   # the target band of a report figure


class Dom(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def open_page(page: Path, work: Path, shot: Path | None = None) -> dict[str, object]:
    """Load ``page`` in headless Chromium: its DOM after load, console lines, and the URLs of
    the requests the page made (from the network log)."""
    netlog = work / f"{page.stem}-net.json"
    args = [CHROMIUM, *QUIET, f"--user-data-dir={work / 'profile'}",
            f"--log-net-log={netlog}", "--window-size=1200,2400"]
    args += [f"--screenshot={shot}"] if shot else ["--dump-dom"]
    proc = subprocess.run([*args, page.resolve().as_uri()], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    log = json.loads(netlog.read_text())
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    requests = [e["params"]["url"] for e in log["events"]
                if names.get(e["type"]) == "URL_REQUEST_START_JOB"
                and "file://" in e["params"].get("network_isolation_key", "")]
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]
    return {"dom": proc.stdout, "console": console, "requests": requests}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A comparison report of two synthetic runs with real card names and texts, as one file
    and as a site."""
    base = tmp_path_factory.mktemp("browser")
    chars = catalog_ids(8)
    runs = [write_synthetic_run(base / f"run{seed}", SyntheticSpec(
        matches=600, characters=chars, catalog="1.2", seed=seed,
        win_weight={chars[0]: 1.5 + 0.3 * seed})) for seed in (1, 2)]
    report = build_report(runs[1], runs[0], min_hands=100)
    return {"report": write_report(report, base / "report.html"),
            "index": write_site(report, base / "site"),
            "card": base / "site" / "cards" / f"{chars[0]}.html"}


def test_report_opens_from_disk_with_its_sections_and_figures(pages: dict[str, Path],
                                                              tmp_path: Path) -> None:
    seen = open_page(pages["report"], tmp_path)
    dom = Dom(str(seen["dom"]))
    ids = {a.get("id") for _, a in dom.tags}
    assert {"overview", "calibration", "tiers", "style", "comparison", "cards"} <= ids
    figures = {"fig-calibration", "fig-tiers", "fig-scatter", "fig-placement", "fig-picks",
               "fig-triggers", "fig-shift"}
    assert figures <= ids
    images = [a["src"] or "" for t, a in dom.tags if t == "img"]
    assert len(images) == len(figures) and all(s.startswith("data:image/png") for s in images)
    external = [v for _, a in dom.tags for k, v in a.items()
                if k in ("src", "href") and v and not v.startswith(("data:", "#"))]
    assert external == []
    assert seen["console"] == []
    assert seen["requests"] == []


def test_screenshot_shows_the_figures(pages: dict[str, Path], tmp_path: Path) -> None:
    folder = Path(os.environ.get("SAKI_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / "report-screenshot.png"
    seen = open_page(pages["report"], tmp_path, shot=shot)
    assert seen["console"] == [] and seen["requests"] == []
    pixels = imread(shot)[..., :3]
    assert pixels.shape[:2] == (2400, 1200)
    band = np.all(np.abs(pixels - CALIBRATION_GREEN) < 0.02, axis=-1)
    assert band.sum() > 500, "the calibration figure is drawn near the top"


def test_site_pages_link_only_to_each_other(pages: dict[str, Path], tmp_path: Path) -> None:
    for key in ("index", "card"):
        seen = open_page(pages[key], tmp_path)
        assert seen["console"] == [] and seen["requests"] == []
        links = [a.get("href") or "" for t, a in Dom(str(seen["dom"])).tags if t == "a"]
        for link in links:
            if not link.startswith("#"):
                assert (pages[key].parent / link).resolve().is_file(), link


def test_the_checks_catch_a_page_that_reaches_out(tmp_path: Path) -> None:
    control = tmp_path / "control.html"
    control.write_text('<!DOCTYPE html><html><body><img src="http://example.com/x.png">'
                       '<script>console.error("control message")</script></body></html>')
    seen = open_page(control, tmp_path)
    assert seen["requests"] == ["http://example.com/x.png"]
    assert any("control message" in line for line in seen["console"])


def result_of(page: Path, work: Path, script: str, width: int | None = None) -> str:
    """Open a copy of ``page`` with ``script`` run after the page's own scripts (as a reader's
    clicks and typing would); the script sets ``window.RESULT``, returned as JSON text. With
    ``width`` the page is shown in a frame that wide (headless windows are at least 500 px)."""
    copy = work / f"{page.stem}-scripted.html"
    report = """
var out = JSON.stringify(window.RESULT);
if (window.parent !== window) { window.parent.postMessage(out, '*'); }
else { var pre = document.createElement('pre'); pre.id = 'test-result';
       pre.textContent = out; document.body.appendChild(pre); }"""
    html = page.read_text(encoding="utf-8")
    copy.write_text(html.replace("</body>", f"<script>{script}{report}</script></body>"),
                    encoding="utf-8")
    target = copy
    if width is not None:
        target = work / f"{page.stem}-frame.html"
        target.write_text(
            "<!DOCTYPE html><html><body style='margin:0'>"
            f"<iframe src='{copy.name}' width='{width}' height='1600' style='border:0'>"
            "</iframe><script>window.addEventListener('message', function (e) {"
            "var pre = document.createElement('pre'); pre.id = 'test-result';"
            "pre.textContent = e.data; document.body.appendChild(pre); });</script>"
            "</body></html>", encoding="utf-8")
    netlog = work / f"{copy.stem}-net.json"
    proc = subprocess.run([CHROMIUM, *QUIET, f"--user-data-dir={work / 'profile'}",
                           f"--log-net-log={netlog}", "--window-size=1200,2000",
                           "--virtual-time-budget=5000", "--dump-dom",
                           target.resolve().as_uri()],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [line for line in proc.stderr.splitlines() if ":CONSOLE" in line] == []
    found = re.search(r'<pre id="test-result">(.*?)</pre>', proc.stdout, re.DOTALL)
    assert found, "the page script did not report"
    return html_lib.unescape(found.group(1))


COLUMN = """
function column(id, n) {
  return Array.prototype.map.call(document.querySelectorAll('#' + id + ' tbody tr'),
    function (r) { return r.cells[n].textContent.trim().split('\\n')[0]; });
}
function header(id, n) { return document.querySelectorAll('#' + id + ' thead th')[n]; }
"""


def test_clicking_a_header_sorts_the_table(pages: dict[str, Path], tmp_path: Path) -> None:
    """The tier table sorted by hands, ascending then descending, and by name, in a real
    browser; the rows move, the header says which way."""
    got = json.loads(result_of(pages["report"], tmp_path, COLUMN + """
var first = column('tier-table', 2);
header('tier-table', 2).click();
var up = column('tier-table', 2), upSort = header('tier-table', 2).getAttribute('aria-sort');
header('tier-table', 2).click();
var down = column('tier-table', 2);
header('tier-table', 1).click();
window.RESULT = {first: first, up: up, upSort: upSort, down: down,
                 downSort: header('tier-table', 2).getAttribute('aria-sort'),
                 names: column('tier-table', 1)};
"""))
    number = [float(v.replace(",", "")) for v in got["up"]]
    assert number == sorted(number) and got["upSort"] == "ascending"
    assert [float(v.replace(",", "")) for v in got["down"]] == sorted(number, reverse=True)
    assert got["downSort"] is None  # another column is the sort column now
    assert got["names"] == sorted(got["names"], key=str.lower)
    assert sorted(got["first"]) == sorted(got["up"]) and got["first"] != got["up"]


def test_typing_in_the_filter_box_hides_other_rows(pages: dict[str, Path],
                                                   tmp_path: Path) -> None:
    got = json.loads(result_of(pages["report"], tmp_path, COLUMN + """
var names = column('tier-table', 1);
var box = document.querySelector('#tier-table').parentNode.previousElementSibling;
box.value = names[0].slice(0, 6);
box.dispatchEvent(new Event('input'));
var shown = Array.prototype.filter.call(document.querySelectorAll('#tier-table tbody tr'),
  function (r) { return !r.hidden; }).map(function (r) { return r.cells[1].textContent.trim(); });
window.RESULT = {tag: box.tagName, total: names.length, shown: shown, wanted: names[0]};
"""))
    assert got["tag"] == "INPUT"
    assert got["wanted"] in got["shown"] and 1 <= len(got["shown"]) < got["total"]


def test_the_report_reads_at_400_pixels(pages: dict[str, Path], tmp_path: Path) -> None:
    """On a phone-sized window the page does not scroll sideways: wide tables scroll inside
    their own box, figures shrink to the width."""
    for key in ("report", "card"):
        got = json.loads(result_of(pages[key], tmp_path, """
var widest = 0;
document.querySelectorAll('body > *, section > *').forEach(function (e) {
  widest = Math.max(widest, e.getBoundingClientRect().right);
});
window.RESULT = {inner: window.innerWidth, scroll: document.documentElement.scrollWidth,
                 widest: widest};
""", width=400))
        assert got["inner"] == 400
        assert got["scroll"] <= got["inner"], (key, got)
        assert got["widest"] <= got["inner"] + 1, (key, got)


def test_a_tuning_page_opens_from_disk_with_its_curve(tmp_path: Path) -> None:
    # the tuning page of a sweep (issue "Tuning sweeps"), drawn from a table whose numbers
    # are given: value 1 out of the band, value 2 inside it
    import polars as pl

    from pipeline.cards.catalog import load_catalog
    from pipeline.report.tuning import write_tuning_page

    card = load_catalog("1.2").card("kasumi_iwato")
    texts = [card.with_param("shown", "han", v).text for v in (1, 2)]
    table = pl.DataFrame([
        {"address": "kasumi_iwato.shown.han", "effect": "shown", "param": "han",
         "param_value": str(v), "current": v == 1, "value": value, "value_lo": value - 150.0,
         "value_hi": value + 150.0, "half_width": 150.0, "degenerate": False, "hands": 900,
         "matches": 80, "win_rate": 0.2, "deal_in_rate": 0.12,
         "next_diff": 700.0 if v == 1 else None, "next_lo": 500.0 if v == 1 else None,
         "next_hi": 900.0 if v == 1 else None, "in_band": v == 2, "text": text}
        for v, value, text in ((1, -650.0, texts[0]), (2, 50.0, texts[1]))])
    band = {"mean": 0.0, "lo": -300.0, "hi": 300.0, "threshold": 300.0, "cards": 53.0}
    doc = {"catalog": "1.2", "preset": "cards-hanchan", "seed": 1}
    page = write_tuning_page(table, band, doc, card.name, tmp_path / "tune.html")
    seen = open_page(page, tmp_path)
    dom = Dom(str(seen["dom"]))
    assert {"verdict", "table", "texts"} <= {a.get("id") for _, a in dom.tags}
    images = [a["src"] or "" for t, a in dom.tags if t == "img"]
    assert len(images) == 1 and images[0].startswith("data:image/png")
    assert "han = 2" in str(seen["dom"]) and "2 han per 3 such tiles" in str(seen["dom"])
    assert seen["console"] == [] and seen["requests"] == []
    shot = tmp_path / "tune.png"
    open_page(page, tmp_path, shot=shot)
    pixels = imread(shot)[..., :3]
    band_px = np.all(np.abs(pixels - CALIBRATION_GREEN) < 0.02, axis=-1)
    assert band_px.sum() > 500, "the balance band is shaded in the curve"
