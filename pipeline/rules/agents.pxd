# Cython declarations for agents.py (ignored by the pure-Python module): the observation an
# agent reads at every decision is an extension type, its fields read straight from the
# object rather than looked up by name (the same fields, the same answers).

cdef class Observation:
    cdef readonly object _state
    cdef public object seat
    cdef object _concealed
    cdef object _melds
    cdef object _dora
