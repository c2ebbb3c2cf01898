# Cython declarations for frozen.py (ignored by the pure-Python module): the base of the
# extension types that hold a value's fields in the object (views, contexts).

cdef class FrozenFields:
    pass
