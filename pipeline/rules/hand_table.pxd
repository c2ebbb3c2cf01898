# Cython declarations for hand_table.py (ignored by the pure-Python module): the first layer of
# the hand's state on the hook calls (whose .pxd holds the fields), its pond views and seat
# winds called straight from C by every later layer and by the observations (agents.pxd)

from pipeline.rules.hook_points cimport HookPoints


cdef class HandTable(HookPoints):
    cpdef object seat_wind(self, object seat)
    cpdef object pond_view(self, object seat, object own)
    cpdef object _others(self, object seat)
