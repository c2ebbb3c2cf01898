"""Card effects: the vocabulary a catalog may use, and one class per implemented effect kind.

- :mod:`.vocabulary`: every effect kind a catalog may name, with its parameters and readings
  (pure data; the catalog checks cards against it). Importing this package loads only it.
- :mod:`.base`: :class:`~.base.CardEffect`, whose hooks do nothing, and the typed context
  each hook takes; :mod:`.conditions`: the named predicates effects' ``when`` values refer to.
- ``<kind>.py``: one class per effect kind, listed in :data:`.registry.EFFECTS`.
"""

from pipeline.cards.effects.vocabulary import (
    CONDITIONS,
    EFFECT_KINDS,
    FAMILIES,
    YAKU_NAMES,
    Choice,
    EffectKind,
    Param,
    applies,
    reading,
)

__all__ = ["CONDITIONS", "EFFECT_KINDS", "FAMILIES", "YAKU_NAMES", "Choice", "EffectKind",
           "Param", "applies", "reading"]
