# Cython declarations for tiles.py (ignored by the pure-Python module): the type counts, made
# at every decision and by the engine at every step, with the list and its index typed (the
# same counts).
import cython


@cython.locals(counts=list, tile=cython.long, t=cython.Py_ssize_t)
cpdef list counts34(object tiles)
