# Cython declarations for hand.py (ignored by the pure-Python module): the hand's state, the
# last layer of its chain (hand.py's docstring); its fields are declared on the hook calls'
# layer (hook_points.pxd), each earlier layer's hot methods in its own .pxd

cimport cython

from pipeline.rules.actions cimport Action
from pipeline.rules.claims cimport Claims
# the seat's type under its own name here: hand.py exports the Python name PlayerState
from pipeline.rules.seats cimport PlayerState as Seat


cpdef bint _holds_all(object concealed, object tiles)


cdef class HandState(Claims):
    # an agent's decision, asked at every step
    cpdef object ask(self, object seat, object legal)
    @cython.locals(a=Action)
    cpdef object _note_offer(self, object seat, object legal, Action choice)
    # the steps of every turn and discard, called straight from C, with the seat's state typed
    # where they read it
    @cython.locals(p=Seat)
    cpdef object _discard(self, object seat, object act, object face_down=*,
                          object unclaimable=*)
    cpdef object _collect_claims(self, object seat, object tile, object face_down,
                                 object unclaimable)
    cpdef object _resolve_claims(self, object seat, object tile, object claims, object riichi,
                                 object face_down)
    @cython.locals(p=Seat)
    cpdef object _after_pass(self, object seat, object tile, object tsumogiri,
                             object after_call, object was_extra, object face_down,
                             object unclaimable)
    @cython.locals(p=Seat)
    cpdef object _turn(self, object seat, object drew, object rinshan)
    @cython.locals(p=Seat)
    cpdef object _turn_choices(self, object seat, object drew)
