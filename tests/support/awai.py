"""Awai Oohoshi's card, its catalog and the preset her tests play."""

from __future__ import annotations

from pipeline.cards.catalog import load_catalog
from pipeline.rules.preset import load_preset

PRESET = load_preset("online-hanchan")

CATALOG = load_catalog("1.2")

AWAI = "awai_oohoshi"
