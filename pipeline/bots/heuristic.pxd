# Cython declarations for heuristic.py (ignored by the pure-Python module): the module's small
# helpers called directly from C, with C ints and doubles for their counts, indices and sums
# (the same values as the .py computes with Python ints and floats); the sight and the threats
# of a decision as extension types, their fields read straight from the object.
import cython

from pipeline.rules.actions cimport Action
from pipeline.rules.agents cimport Observation


cdef class Sight:
    cdef object _obs
    cdef object _visible
    cdef object _unseen


cdef class Threat:
    cdef public object seat
    cdef public object weight
    cdef public object value
    cdef public object safe
    cdef public object waits
    cdef public object cleared


cpdef object _seats(object obs)
cpdef object _sanma(object obs)
cpdef bint _closed(object melds)

@cython.locals(turns=object, per_turn=object)
cpdef double win_chance(int sh, double accept, int draws_left, int players=*)

@cython.locals(c=cython.int, n=cython.int, d=cython.int, link=cython.double,
               w=cython.double)
cpdef double connectivity_accept(object counts, int t)

@cython.locals(w=cython.double, keep=cython.double)
cpdef dict keep_values(double weight, object types, object counts, object dora, object values,
                       object direction, object tiles)


# The bot itself: its fields in the object, and the methods of every decision called straight
# from C, with the observation, the actions and the threats they read typed (a Python subclass
# may still override any of them; a card's choice, asked through decide and _card_step, may
# be read from a stand-in for the observation). Its ``__dict__`` holds what a subclass or a
# caller adds; ``__reduce__`` copies and pickles both.
cdef class HeuristicBot:
    cdef dict __dict__
    cdef public object rng, style, playing, extra, declared, keep, incentives, sides
    cdef public dict _safe_kept

    @cython.locals(a=Action, first=Action)
    cpdef object decide(self, object obs, object legal)
    cpdef object _card_step(self, object obs, object legal)
    cpdef bint _any_threat(self, object obs)
    cpdef list _threats(self, Observation obs)
    cpdef object _safe(self, Observation obs, object s, object order)
    @cython.locals(th=Threat)
    cpdef double _danger(self, object t, object threats, object visible)
    @cython.locals(a=Action, plain=Action)
    cpdef object _own_turn(self, Observation obs, object legal)
    cpdef object _shanten(self, object counts, object nm)
    cpdef object _discard_shanten(self, object counts, object nm)
    cpdef object _discard_acceptance(self, object counts, object nm, object discards,
                                     object unseen)
    cpdef object _outs(self, object counts, object nm, object unseen)
    @cython.locals(th=Threat)
    cpdef tuple _best_discard(self, Observation obs, object counts, object melds, object sight,
                              object threats, object allowed)
    cpdef bint _wants_riichi(self, Observation obs, object counts, object melds, object unseen,
                             object t, object threats)
    @cython.locals(a=Action, passing=Action)
    cpdef object _claim(self, Observation obs, object legal)
