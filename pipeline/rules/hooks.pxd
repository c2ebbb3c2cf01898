# Cython declarations for hooks.py (ignored by the pure-Python module): the views the hooks
# read, made at every draw, discard and claim, as extension types (pipeline/rules/frozen.py),
# their fields in the object rather than in a dict of its own (the same fields, the same answers).

from pipeline.rules.frozen cimport FrozenFields

cdef class WinView(FrozenFields):
    cdef public object seat, ctx, discarder, scores, dealer, riichi_seats, table_points
    cdef public object stakes, melds, seen, ponds, yakuman

cdef class OwnTurnView(FrozenFields):
    cdef public object seat, discard_tiles, drew, in_riichi, turns, opponents_ippatsu
    cdef public object after_call, riichi_tiles, scores

cdef class DiscardView(FrozenFields):
    cdef public object seat, tile, tsumogiri, after_call, face_down, scores, start_points
    cdef public object others_closed, first_discard, dealer, concealed, previous

cdef class ClaimView(FrozenFields):
    cdef public object seat, discarder, tile, concealed, in_riichi, last_discard, ponds
    cdef public object unclaimable, kan_tile

cdef class DrawView(FrozenFields):
    cdef public object seat, live_left, ponds, tile, source, ippatsu

cdef class WinTileView(FrozenFields):
    cdef public object seat, tile, tsumo, in_riichi, rinshan, face_down, last, waits, closed
    cdef public object furiten_probe

cdef class CallView(FrozenFields):
    cdef public object seat, kind, tiles, called, from_seat, ponds

cdef class PickView(FrozenFields):
    cdef public object seat, dealer, scores, round_wind, honba, sticks, dora_indicators
    cdef public object start_points, catalog, spent
