# Cython declarations for heuristic.py (ignored by the pure-Python module): the module's small
# helpers called directly from C, with C ints and doubles for their counts, indices and sums
# (the same values as the .py computes with Python ints and floats); the sight and the threats
# of a decision as extension types, their fields read straight from the object.
import cython


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
