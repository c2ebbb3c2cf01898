# Cython declarations for legal_actions.py (ignored by the pure-Python module): a layer of the
# hand's state (see hand.py), its steps of every turn called straight from C, with the seat's
# state typed where they read it

cimport cython

from pipeline.rules.hand_controls cimport HandControls
from pipeline.rules.seats cimport PlayerState


# whether a count is 4, each count read as a C int
@cython.locals(c=cython.int)
cpdef bint _holds_four(object counts)


cdef class LegalActions(HandControls):
    @cython.locals(p=PlayerState)
    cpdef object self_actions(self, object seat, object drew, object rinshan)
    @cython.locals(p=PlayerState)
    cpdef object _rule_actions(self, object seat, object drew, object rinshan)
    @cython.locals(p=PlayerState)
    cpdef object _kan_actions(self, object seat, object counts)
    @cython.locals(p=PlayerState)
    cpdef object _may_riichi(self, object seat)
    cpdef object _abilities_allow_riichi(self, object seat)
    cpdef object _kan_room(self)
