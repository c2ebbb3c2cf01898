# Cython declarations for records.py (ignored by the pure-Python module): the events of a hand
# as an extension type (pipeline/rules/frozen.py), their fields in the object rather than in a
# dict of their own (the same fields, the same answers).

from pipeline.rules.frozen cimport FrozenFields

cdef class Event(FrozenFields):
    cdef public object kind, seat, tile, tiles, detail, tag, card, effect, source, tsumogiri
    cdef public object drawn_from, payload
