# Cython declarations for hook_points.py (ignored by the pure-Python module): the mixin of the
# hook calls is an extension type, so that the hand's state built on it is one (hand.pxd).

cdef class HookPoints:
    pass
