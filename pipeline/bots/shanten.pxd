# Cython declarations for shanten.py (ignored by the pure-Python module): what a seat can see,
# asked at most decisions, reads the observation's per-seat questions straight from C.

from pipeline.rules.agents cimport Observation


cpdef list visible_counts(Observation obs)
