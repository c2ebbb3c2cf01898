# Cython declarations for hand_controls.py (ignored by the pure-Python module): a layer of the
# hand's state (see hand.py)

from pipeline.rules.hand_end cimport HandEnd


cdef class HandControls(HandEnd):
    # asked for every seat at every observation (agents.pxd)
    cpdef object shown_tiles(self, object seat)
