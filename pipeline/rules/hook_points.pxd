# Cython declarations for hook_points.py (ignored by the pure-Python module): the mixin of the
# hook calls is an extension type holding the fields of the hand's state built on it
# (hand.pxd), so that the hook calls and the hand both read them straight from the object;
# what the hook calls keep in the instance dict by name (every_ability, _switchers,
# _base_shapes, _switched_off: read with __dict__.get) stays there, with anything else set on
# the state

cdef class HookPoints:
    cdef dict __dict__
    cdef public object _last_valued, _listeners, _others_of
    cdef public list _lying, _lying_ponds, _pond_views
    cdef public object _revealed_by, _ura_done, agents
    cdef public object current_claim_from, dealer, discard_count
    cdef public object hand_number, honba, kan_count, kita_draw, last_kan_from, late_claim, n
    cdef public object pending_dora, pond_changes, pond_lists, preset, record
    cdef public object round_wind, rules, sanma
    cdef public object stakes, start, sticks, uninterrupted, wall
    # the containers every step reads, typed: their items read with the list's, dict's and
    # set's own calls rather than looked up as methods
    cdef public list abilities, events, players, scores
    cdef public dict aside, shown_ids, shown_types
    cdef public set aside_face_up, revealed

    # asked at every draw, discard and claim: called straight from C by the hand and the hooks
    cpdef object _listening(self, object hook)
    cpdef object _own_listeners(self, object hook, object seat)
    cpdef object _filter_own_kans(self, object seat, object acts)
    cpdef object _kans_closed(self, object seat)
    cpdef object _live_draw(self, object seat)
    cpdef object _after_draw(self, object seat, object tile, object source)
    cpdef object _discard_made(self, object seat, object tile, object tsumogiri, object after_call,
                               object face_down)
    cpdef object _discard_passed(self, object seat, object tile)
    cpdef object _others_closed(self, object seat)
    cpdef object _pond_tiles(self, object face_down=*)
    cpdef object _filter_claims(self, object seat, object discarder, object tile, object legal,
                                object unclaimable=*, object kan_tile=*)
    cpdef object _discard_view(self, object seat, object tile, object tsumogiri, object after_call,
                               object face_down, object previous=*)
    cpdef object _offered_draw(self, object seat, object source)
    cpdef object _replaced_draw(self, object seat, object source)
