# Cython declarations for heuristic.py (ignored by the pure-Python module): C ints and doubles
# for the small counts and indices of the hot helpers, with the same results as the .py.
import cython


@cython.locals(c=cython.int, n=cython.int, d=cython.int, link=cython.double,
               w=cython.double)
cpdef double connectivity_accept(object counts, int t)
