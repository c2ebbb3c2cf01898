# Cython declarations for wall.py (ignored by the pure-Python module): the wall as an extension
# type, its fields read straight from the object and its properties C getters (the engine asks
# how many tiles are left at every step; the same fields, the same answers).

cdef class Wall:
    cdef public object order, live, rinshan, indicators, ura, reserve, revealed, dead_end
    cdef public object drawn, to_indicator, extension, seats
