# Cython declarations for base.py (ignored by the pure-Python module): the contexts made for
# every effect at every draw, discard and claim as extension types, their fields in the object
# rather than in a dict of its own (the same fields, the same answers).

cdef class _HookContext:
    pass

cdef class TurnContext(_HookContext):
    cdef public object view, table

cdef class ClaimContext(_HookContext):
    cdef public object view, actions

cdef class DiscardContext(_HookContext):
    cdef public object view, table

cdef class DrawnContext(_HookContext):
    cdef public object view, table

cdef class WinTileContext(_HookContext):
    cdef public object view, table

cdef class ScoringContext(_HookContext):
    cdef public object win, seat, table

cdef class PaymentContext(_HookContext):
    cdef public object settlement, table

cdef class HandStartContext(_HookContext):
    cdef public object table, seat, card

cdef class DrawContext(_HookContext):
    cdef public object view, wall

cdef class BeforeDrawContext(_HookContext):
    cdef public object view, table

cdef class WinCheckContext(_HookContext):
    cdef public object win, seat, table

cdef class CallContext(_HookContext):
    cdef public object view, table

cdef class RiichiContext(_HookContext):
    cdef public object view, table

cdef class FuritenContext(_HookContext):
    cdef public object in_riichi

cdef class HandEndContext(_HookContext):
    cdef public object view, table
