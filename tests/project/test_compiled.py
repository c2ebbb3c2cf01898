"""The compiled engine, card and bot modules (pipeline/_compiled.py): they decide exactly as
their .py files, ``SAKI_PURE_PYTHON=1`` turns them off, and a build older than its source is
never used."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline import _compiled
from pipeline.datafiles import PROJECT_ROOT
from tests.support.python_run import run

PLAY = """
import json
from pipeline import _compiled
from tests.support.digests import bots_matches
digests = [bots_matches("cards-hanchan", "heuristic", 2), bots_matches("online-hanchan",
           "heuristic", 2)]
print(json.dumps({"digests": digests, "compiled": _compiled.compiled_modules()}))
"""


def built(module: str, root: Path = PROJECT_ROOT) -> list[Path]:
    folder = root.joinpath(*module.split(".")[:-1])
    return sorted(folder.glob(module.rpartition(".")[2] + ".*.so")) + sorted(
        folder.glob(module.rpartition(".")[2] + ".*.pyd"))


def test_every_compiled_module_has_its_source() -> None:
    for name in _compiled.COMPILED:
        assert PROJECT_ROOT.joinpath(*name.split(".")).with_suffix(".py").exists(), name


def test_the_pure_modules_play_exactly_as_the_compiled_ones() -> None:
    import json

    compiled = run(PLAY, PROJECT_ROOT)
    pure = run(PLAY, PROJECT_ROOT, SAKI_PURE_PYTHON="1")
    assert compiled.returncode == 0, compiled.stderr
    assert pure.returncode == 0, pure.stderr
    fast, slow = json.loads(compiled.stdout), json.loads(pure.stdout)
    assert slow["compiled"] == []
    if not fast["compiled"]:
        pytest.skip("the compiled modules are not built here (no compiler or no Cython)")
    assert "pipeline.rules.hand" in fast["compiled"]
    assert fast["digests"] == slow["digests"]


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    """A package of just ``pipeline/__init__.py``, the import hook and ``pipeline/tiles``
    (source and build), to edit without touching the checkout."""
    builds = built("pipeline.tiles")
    if not builds:
        pytest.skip("pipeline/tiles is not compiled here (no compiler or no Cython)")
    package = tmp_path / "pipeline"
    package.mkdir()
    for name in ("__init__.py", "_compiled.py", "tiles.py", "tiles.pxd"):
        if (PROJECT_ROOT / "pipeline" / name).exists():  # the declarations count in the hash
            shutil.copy(PROJECT_ROOT / "pipeline" / name, package / name)
    shutil.copy(builds[0], package / builds[0].name)
    return tmp_path


CHOSEN = ("import pipeline.tiles, pipeline._compiled as c; "
          "print(c.FINDER.chosen['pipeline.tiles'], pipeline.tiles.__file__)")


def test_a_current_build_is_used(small_tree: Path) -> None:
    result = run(CHOSEN, small_tree)
    how, path = result.stdout.split()
    assert (how, Path(path).suffix) == ("compiled", Path(built("pipeline.tiles")[0]).suffix)
    assert "RuntimeWarning" not in result.stderr


def test_pure_python_asks_for_the_source(small_tree: Path) -> None:
    result = run(CHOSEN, small_tree, SAKI_PURE_PYTHON="1")
    how, path = result.stdout.split()
    assert (how, Path(path).name) == ("pure", "tiles.py")


def test_a_build_older_than_its_source_is_not_used(small_tree: Path) -> None:
    source = small_tree / "pipeline" / "tiles.py"
    source.write_text(source.read_text() + "\nEDITED = True\n")
    result = run(CHOSEN + "; print(pipeline.tiles.EDITED)", small_tree)
    assert result.returncode == 0, result.stderr
    how, path, edited = result.stdout.split()
    assert (how, Path(path).name, edited) == ("stale", "tiles.py", "True")
    assert "tiles.py changed since it was compiled" in result.stderr


def test_a_changed_declarations_file_makes_the_build_stale(small_tree: Path) -> None:
    (small_tree / "pipeline" / "tiles.pxd").write_text("# declarations added after the build\n")
    result = run(CHOSEN, small_tree)
    assert result.stdout.split()[0] == "stale"


def test_a_build_of_a_module_no_longer_compiled_is_not_used(small_tree: Path) -> None:
    listing = small_tree / "pipeline" / "_compiled.py"
    listing.write_text(listing.read_text().replace('"pipeline.tiles",', ""))
    result = run(CHOSEN, small_tree)
    how, path = result.stdout.split()
    assert (how, Path(path).name) == ("unlisted", "tiles.py")


def test_a_build_without_a_stamp_is_not_trusted(small_tree: Path) -> None:
    assert _compiled.built_hash(str(small_tree / "nothing.so")) is None
    stamp = _compiled.built_hash(str(built("pipeline.tiles", small_tree)[0]))
    assert stamp == _compiled.source_hash(small_tree / "pipeline" / "tiles.py")


COPY_BOT = """
import copy, json, pickle
from pipeline import _compiled
from pipeline.bots.heuristic import HeuristicBot
bot = HeuristicBot(7, "default")
fields = [name for name in HeuristicBot.__slots__ if name != "__dict__"]
undeclared = sorted(vars(bot))  # what __init__ set outside the declared fields
for name in fields:
    if name not in ("rng", "style"):
        setattr(bot, name, {"marked": name} if name == "_safe_kept" else ("marked", name))
bot.rng.random()
bot.added = "by a caller"
twins = {"copy": copy.copy(bot), "deepcopy": copy.deepcopy(bot),
         "pickle": pickle.loads(pickle.dumps(bot))}
print(json.dumps({
    "compiled": "pipeline.bots.heuristic" in _compiled.compiled_modules(),
    "fields": fields, "undeclared": undeclared,
    "twins": {how: {"fields": {name: repr(getattr(twin, name)) for name in fields
                               if name not in ("rng", "style")},
                    "rng": twin.rng.getstate() == bot.rng.getstate(),
                    "style": twin.style == bot.style, "added": twin.added}
              for how, twin in twins.items()}}))
"""


@pytest.mark.parametrize("pure", ["0", "1"], ids=["compiled", "pure"])
def test_a_copied_or_pickled_bot_keeps_every_field(pure: str) -> None:
    """The bot's fields are declared once, in its ``__slots__`` (pipeline/_pxd.py makes them
    the extension type's where compiled): every field its ``__init__`` sets is one, and a copy
    and a pickle carry each (the kept safe tiles, a cache, left behind) with what a caller
    added, in both builds."""
    import json

    result = run(COPY_BOT, PROJECT_ROOT, SAKI_PURE_PYTHON=pure)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    if pure == "0" and not got["compiled"]:
        pytest.skip("pipeline/bots/heuristic is not compiled here (no compiler or no Cython)")
    assert got["compiled"] is (pure == "0")
    assert got["undeclared"] == []
    assert {"rng", "style", "playing", "incentives", "_safe_kept"} <= set(got["fields"])
    for how, twin in got["twins"].items():
        expected = {name: repr(("marked", name)) for name in got["fields"]
                    if name not in ("rng", "style", "_safe_kept")}
        assert twin["fields"] == {**expected, "_safe_kept": "{}"}, how
        assert (twin["rng"], twin["style"], twin["added"]) == (True, True, "by a caller"), how
