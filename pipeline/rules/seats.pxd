# Cython declarations for seats.py (ignored by the pure-Python module): a pond's discards and a
# seat's state as extension types, their fields read straight from the object rather than
# looked up by name (the same fields, the same answers).

cdef class DiscardInfo:
    cdef public object tile, tsumogiri, riichi, called, order, face_down

cdef class PlayerState:
    cdef public object seat, concealed, melds, discards, drawn, riichi, riichi_accepted
    cdef public object double_riichi, riichi_turn, ippatsu, temp_furiten, riichi_furiten
    cdef public object kuikae, turns, calls, kans, kita, last_call, extra_turn_now, shapes
    cdef public object _held_key, _held, _waits_key, _waits, _ready_key, _ready

    # asked for every seat at every discard: called straight from C where the seat is typed
    cpdef object held(self)
    cpdef object waits(self)
    cpdef object ready(self)
    cpdef object drawn_completes(self)
    cpdef object remove_discard(self, object tile)
