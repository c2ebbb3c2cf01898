# Cython declarations for claims.py (ignored by the pure-Python module): a layer of the hand's
# state (see hand.py), the claims asked of every seat at every discard called straight from C,
# with the seat's state typed where they read it

cimport cython

from pipeline.rules.legal_actions cimport LegalActions
from pipeline.rules.seats cimport PlayerState


cdef class Claims(LegalActions):
    @cython.locals(p=PlayerState)
    cpdef object claim_actions(self, object seat, object discarder, object tile)
    cpdef object _chi_actions(self, PlayerState p, object tile)
    @cython.locals(p=PlayerState)
    cpdef object _missed(self, object seat, object tile)
