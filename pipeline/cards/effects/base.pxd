# Cython declarations for base.py (ignored by the pure-Python module): the contexts made for
# every effect at every draw, discard and claim as extension types (pipeline/rules/frozen.py),
# their fields in the object rather than in a dict of its own (the same fields, the same answers).

from pipeline.rules.frozen cimport FrozenFields

cdef class TurnContext(FrozenFields):
    cdef public object view, table

cdef class ClaimContext(FrozenFields):
    cdef public object view, actions

cdef class DiscardContext(FrozenFields):
    cdef public object view, table

cdef class DrawnContext(FrozenFields):
    cdef public object view, table

cdef class WinTileContext(FrozenFields):
    cdef public object view, table

cdef class ScoringContext(FrozenFields):
    cdef public object win, seat, table

cdef class PaymentContext(FrozenFields):
    cdef public object settlement, table

cdef class HandStartContext(FrozenFields):
    cdef public object table, seat, card

cdef class DrawContext(FrozenFields):
    cdef public object view, wall

cdef class BeforeDrawContext(FrozenFields):
    cdef public object view, table

cdef class WinCheckContext(FrozenFields):
    cdef public object win, seat, table

cdef class CallContext(FrozenFields):
    cdef public object view, table

cdef class RiichiContext(FrozenFields):
    cdef public object view, table

cdef class FuritenContext(FrozenFields):
    cdef public object in_riichi

cdef class HandEndContext(FrozenFields):
    cdef public object view, table
