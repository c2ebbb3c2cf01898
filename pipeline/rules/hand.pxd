# Cython declarations for hand.py (ignored by the pure-Python module): a seat's state as an
# extension type, its fields read straight from the object rather than looked up by name (the
# same fields, the same answers).

cdef class PlayerState:
    cdef public object seat, concealed, melds, discards, drawn, riichi, riichi_accepted
    cdef public object double_riichi, riichi_turn, ippatsu, temp_furiten, riichi_furiten
    cdef public object kuikae, turns, calls, kans, kita, last_call, extra_turn_now, shapes
    cdef public object _held_key, _held, _waits_key, _waits, _ready_key, _ready


from pipeline.rules.hook_points cimport HookPoints


# the state of a hand: the fields the engine reads at every step, straight from the object;
# what hook_points.py keeps in the instance dict by name (every_ability, _switchers,
# _base_shapes, _switched_off: read with __dict__.get) stays there, with anything else set on it
cdef class HandState(HookPoints):
    cdef dict __dict__
    cdef public object _last_valued, _listeners, _lying, _lying_ponds, _others_of, _pond_views
    cdef public object _revealed_by, _ura_done, abilities, agents, aside
    cdef public object aside_face_up, current_claim_from, dealer, discard_count, events
    cdef public object hand_number, honba, kan_count, kita_draw, last_kan_from, late_claim, n
    cdef public object pending_dora, players, pond_changes, pond_lists, preset, record
    cdef public object revealed, round_wind, rules, sanma, scores, shown_ids, shown_types
    cdef public object stakes, start, sticks, uninterrupted, wall
