# Cython declarations for hand_end.py (ignored by the pure-Python module): a layer of the
# hand's state (see hand.py); its methods run once a hand, so none is called from C

from pipeline.rules.hand_table cimport HandTable


cdef class HandEnd(HandTable):
    pass
