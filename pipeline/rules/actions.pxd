# Cython declarations for actions.py (ignored by the pure-Python module): actions and melds,
# read at every decision, as extension types (pipeline/rules/frozen.py), their fields in the
# object rather than in a dict of their own (the same fields, the same answers).

from pipeline.rules.frozen cimport FrozenFields

cdef class Action(FrozenFields):
    cdef public object kind, seat, tile, tiles, detail, tag, card, payload

cdef class Meld(FrozenFields):
    cdef public object kind, tiles, called, from_seat, added
