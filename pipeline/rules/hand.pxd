# Cython declarations for hand.py (ignored by the pure-Python module): a pond's discards and a
# seat's state as extension types, their fields read straight from the object rather than
# looked up by name (the same fields, the same answers).

cdef class DiscardInfo:
    cdef public object tile, tsumogiri, riichi, called, order, face_down

cdef class PlayerState:
    cdef public object seat, concealed, melds, discards, drawn, riichi, riichi_accepted
    cdef public object double_riichi, riichi_turn, ippatsu, temp_furiten, riichi_furiten
    cdef public object kuikae, turns, calls, kans, kita, last_call, extra_turn_now, shapes
    cdef public object _held_key, _held, _waits_key, _waits, _ready_key, _ready

    # asked for every seat at every discard: called straight from C where the seat is typed
    cpdef object held(self)
    cpdef object waits(self)
    cpdef object ready(self)
    cpdef object drawn_completes(self)
    cpdef object remove_discard(self, object tile)


cimport cython

from pipeline.rules.actions cimport Action
from pipeline.rules.hook_points cimport HookPoints


# whether a count is 4, each count read as a C int
@cython.locals(c=cython.int)
cpdef bint _holds_four(object counts)
cpdef bint _holds_all(object concealed, object tiles)


# the state of a hand: its fields are declared on the mixin of the hook calls it is built on
# (hook_points.pxd), which reads them as often
cdef class HandState(HookPoints):
    # the steps of every draw, discard and claim, called straight from C, with the seat's
    # state typed where they read it
    cpdef object ask(self, object seat, object legal)
    @cython.locals(a=Action)
    cpdef object _note_offer(self, object seat, object legal, Action choice)
    cpdef object seat_wind(self, object seat)
    cpdef object shown_tiles(self, object seat)
    @cython.locals(p=PlayerState)
    cpdef object self_actions(self, object seat, object drew, object rinshan)
    @cython.locals(p=PlayerState)
    cpdef object _rule_actions(self, object seat, object drew, object rinshan)
    @cython.locals(p=PlayerState)
    cpdef object _kan_actions(self, object seat, object counts)
    @cython.locals(p=PlayerState)
    cpdef object _discard(self, object seat, object act, object face_down=*,
                          object unclaimable=*)
    @cython.locals(p=PlayerState)
    cpdef object _turn(self, object seat, object drew, object rinshan)
    @cython.locals(p=PlayerState)
    cpdef object _turn_choices(self, object seat, object drew)
    cpdef object pond_view(self, object seat, object own)
    @cython.locals(p=PlayerState)
    cpdef object _may_riichi(self, object seat)
    cpdef object _abilities_allow_riichi(self, object seat)
    cpdef object _kan_room(self)
    @cython.locals(p=PlayerState)
    cpdef object claim_actions(self, object seat, object discarder, object tile)
    cpdef object _chi_actions(self, PlayerState p, object tile)
    cpdef object _others(self, object seat)
    @cython.locals(p=PlayerState)
    cpdef object _missed(self, object seat, object tile)
