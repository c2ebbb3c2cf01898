# Cython declarations for agents.py (ignored by the pure-Python module): the observation an
# agent reads at every decision is an extension type, its fields read straight from the
# object rather than looked up by name (the same fields, the same answers).

cimport cython

from pipeline.rules.hand cimport HandState
from pipeline.rules.seats cimport PlayerState


cdef class Observation:
    cdef readonly HandState _state
    cdef public object seat
    cdef object _concealed
    cdef object _melds
    cdef object _dora

    # what a bot asks of every seat at every decision: called straight from C where the
    # observation is typed (the bots' .pxd)
    @cython.locals(p=PlayerState)
    cpdef object melds(self, object seat)
    cpdef object discards(self, object seat)
    cpdef object pond(self, object seat)
    @cython.locals(p=PlayerState)
    cpdef object in_riichi(self, object seat)
    cpdef object shown_types(self, object seat)
    cpdef object shown_tiles(self, object seat)
    cpdef object others_face_up(self)
    cpdef object face_up_aside(self, object seat)
    cpdef object riichi_order(self, object seat)
