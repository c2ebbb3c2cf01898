/* Compiled waits for the rules: the same answers as winning_types and tenpai_discards in
 * pipeline/rules/agari.py, for hands without extra sequences, without the interpreter's cost
 * per unit and per tile (the engine asks them on every turn of a closed hand, to offer riichi,
 * and whenever a hand changes, to check rons).
 *
 * A suit's nine counts (each 0-4) are one base-5 code; a table made once, on the first call (some
 * 30 ms: a command that plays nothing does not pay for it), holds for every code whether the suit splits into sets only and its unit kind: sets only, sets and one
 * pair, or neither (agari._suit_kind). A hand of 3k+1 tiles wins on a type when adding it
 * leaves no unit bad and exactly one unit with a pair; a type held four times never wins. Seven
 * pairs and thirteen orphans are read as agari._special_waits reads them.
 *
 * Every entry point returns None for input it does not handle (not 34 counts, a count outside
 * 0-4, a size that is not 3k+1 or 3k+2): the Python wrapper then calls the pure function, which
 * raises the error that explains the problem.
 *
 * Built by setup.py as an optional extension; agari.py uses it only when its SOURCE_HASH
 * matches this file (a stale build is ignored) and SAKI_PURE_PYTHON is not set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#ifndef WAITS_SOURCE_HASH
#define WAITS_SOURCE_HASH "unknown"
#endif

#define NUM_TYPES 34
#define NUM_CODES 1953125 /* 5 ** 9 */

/* unit kinds (this file's numbering; agari.py's constants are not exposed) */
#define BAD 0
#define SETS 1
#define PAIR 2
#define SETS_ONLY_BIT 4 /* in the table, beside the kind: the suit splits into sets only */

static const int POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
static const int HONOR_KIND[5] = {SETS, BAD, PAIR, SETS, BAD};
static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static uint8_t *table = NULL; /* suit code -> kind | SETS_ONLY_BIT */

static int
make_table(void)
{
    /* Codes in increasing order: taking tiles out of a suit always lowers its code, so every
     * smaller suit a code is checked against is already in the table. The digits are counted
     * up one by one rather than divided out of each code. */
    table = PyMem_Malloc(NUM_CODES);
    if (table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int v[9] = {0};
    int sum = 0;
    for (int code = 0; code < NUM_CODES; code++) {
        if (code > 0) { /* the next code's digits */
            int i = 0;
            while (v[i] == 4) {
                v[i] = 0;
                sum -= 4;
                i++;
            }
            v[i]++;
            sum++;
        }
        int first = 0;
        while (first < 9 && v[first] == 0) {
            first++;
        }
        /* agari._suit_is_sets: the lowest tile is in a triplet or starts a sequence */
        int sets_only;
        if (first == 9) {
            sets_only = 1;
        } else if (v[first] >= 3 && (table[code - 3 * POW5[first]] & SETS_ONLY_BIT)) {
            sets_only = 1;
        } else if (first <= 6 && v[first + 1] && v[first + 2]) {
            sets_only = (table[code - POW5[first] - POW5[first + 1] - POW5[first + 2]]
                         & SETS_ONLY_BIT) != 0;
        } else {
            sets_only = 0;
        }
        int kind = BAD;
        int rest = sum % 3;
        if (rest == 0) {
            kind = sets_only ? SETS : BAD;
        } else if (rest == 2) {
            for (int i = 0; i < 9; i++) {
                if (v[i] >= 2 && (table[code - 2 * POW5[i]] & SETS_ONLY_BIT)) {
                    kind = PAIR;
                    break;
                }
            }
        }
        table[code] = (uint8_t)(kind | (sets_only ? SETS_ONLY_BIT : 0));
    }
    return 0;
}

typedef struct {
    int c[NUM_TYPES];
    int code[3]; /* each suit's code */
    int n;       /* tiles */
} Hand;

static int
read_hand(PyObject *counts, Hand *h)
{
    /* 1 when read, 0 when the input is not handled here, -1 on a Python error */
    if (table == NULL && make_table() < 0) {
        return -1;
    }
    PyObject *seq = PySequence_Fast(counts, "counts must be a sequence");
    if (seq == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (PySequence_Fast_GET_SIZE(seq) != NUM_TYPES) {
        Py_DECREF(seq);
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    h->n = 0;
    for (int t = 0; t < NUM_TYPES; t++) {
        if (!PyLong_CheckExact(items[t])) {
            Py_DECREF(seq);
            return 0;
        }
        long c = PyLong_AsLong(items[t]);
        if (c < 0 || c > 4) {
            Py_DECREF(seq);
            if (c == -1 && PyErr_Occurred()) {
                PyErr_Clear();
            }
            return 0;
        }
        h->c[t] = (int)c;
        h->n += (int)c;
    }
    Py_DECREF(seq);
    for (int s = 0; s < 3; s++) {
        int code = 0;
        for (int i = 8; i >= 0; i--) {
            code = code * 5 + h->c[9 * s + i];
        }
        h->code[s] = code;
    }
    return 1;
}

static inline int
unit_kind(const Hand *h, int u)
{
    return u < 3 ? (table[h->code[u]] & 3) : HONOR_KIND[h->c[u + 24]];
}

/* The winning types of a hand of 3k+1 tiles, as bits of a 64-bit mask. */
static uint64_t
wait_mask(const Hand *h)
{
    int kinds[10], bad = 0, pairs = 0;
    for (int u = 0; u < 10; u++) {
        kinds[u] = unit_kind(h, u);
        bad += kinds[u] == BAD;
        pairs += kinds[u] == PAIR;
    }
    uint64_t mask = 0;
    if (bad <= 1) {
        for (int u = 0; u < 10; u++) {
            /* the winning tile changes one unit: the others must be good already */
            int bad_others = bad - (kinds[u] == BAD);
            if (bad_others) {
                continue;
            }
            int pairs_others = pairs - (kinds[u] == PAIR);
            if (pairs_others > 1) {
                continue;
            }
            int want = pairs_others == 0 ? PAIR : SETS;
            if (u >= 3) {
                int t = u + 24;
                if (h->c[t] < 4 && HONOR_KIND[h->c[t] + 1] == want) {
                    mask |= (uint64_t)1 << t;
                }
                continue;
            }
            for (int i = 0; i < 9; i++) {
                int t = 9 * u + i;
                if (h->c[t] < 4 && (table[h->code[u] + POW5[i]] & 3) == want) {
                    mask |= (uint64_t)1 << t;
                }
            }
        }
    }
    if (h->n == 13) { /* agari._special_waits */
        int most = 0, ones = 0, twos = 0, single = -1;
        for (int t = 0; t < NUM_TYPES; t++) {
            int c = h->c[t];
            if (c > most) {
                most = c;
            }
            if (c == 1) {
                ones++;
                if (single < 0) {
                    single = t;
                }
            }
            twos += c == 2;
        }
        if (most <= 2 && ones == 1 && twos == 6) {
            mask |= (uint64_t)1 << single;
        }
        int orphans = 0, missing = 0, last_missing = -1, most_orphan = 0;
        for (int k = 0; k < 13; k++) {
            int c = h->c[ORPHANS[k]];
            orphans += c;
            if (c == 0) {
                missing++;
                last_missing = ORPHANS[k];
            }
            if (c > most_orphan) {
                most_orphan = c;
            }
        }
        if (orphans == 13) {
            if (missing == 0 && most_orphan == 1) {
                for (int k = 0; k < 13; k++) {
                    mask |= (uint64_t)1 << ORPHANS[k];
                }
            } else if (missing == 1 && most_orphan == 2) {
                mask |= (uint64_t)1 << last_missing;
            }
        }
    }
    return mask;
}

static PyObject *
mask_set(uint64_t mask)
{
    PyObject *set = PyFrozenSet_New(NULL);
    if (set == NULL) {
        return NULL;
    }
    for (int t = 0; t < NUM_TYPES; t++) {
        if (mask & ((uint64_t)1 << t)) {
            PyObject *x = PyLong_FromLong(t);
            if (x == NULL || PySet_Add(set, x) < 0) {
                Py_XDECREF(x);
                Py_DECREF(set);
                return NULL;
            }
            Py_DECREF(x);
        }
    }
    return set;
}

static inline void
take(Hand *h, int t, int d)
{
    h->c[t] += d;
    h->n += d;
    if (t < 27) {
        h->code[t / 9] += d * POW5[t % 9];
    }
}

/* Whether no discard can leave this hand of 3k+2 tiles ready, read off the whole hand: a
 * discard changes one unit, and a ready regular hand has at most one bad unit, so three bad
 * units rule out every regular wait; seven pairs need six pairs held already, thirteen
 * orphans thirteen terminal and honor tiles. (Most hands far from ready stop here, before
 * the waits of each discard are worked out.) */
static int
far_from_ready(const Hand *h)
{
    int bad = 0;
    for (int u = 0; u < 10; u++) {
        bad += unit_kind(h, u) == BAD;
    }
    if (bad < 3) {
        return 0;
    }
    if (h->n == 14) {
        int pairs = 0, orphans = 0;
        for (int t = 0; t < NUM_TYPES; t++) {
            pairs += h->c[t] >= 2;
        }
        for (int k = 0; k < 13; k++) {
            orphans += h->c[ORPHANS[k]];
        }
        if (pairs >= 6 || orphans >= 13) {
            return 0;
        }
    }
    return 1;
}

PyDoc_STRVAR(winning_types_doc,
             "winning_types(counts) -> frozenset | None: agari.winning_types (3k+1 tiles).");

static PyObject *
py_winning_types(PyObject *self, PyObject *counts)
{
    Hand h;
    int got = read_hand(counts, &h);
    if (got < 0) {
        return NULL;
    }
    if (got == 0 || h.n % 3 != 1) {
        Py_RETURN_NONE;
    }
    return mask_set(wait_mask(&h));
}

PyDoc_STRVAR(tenpai_discards_doc,
             "tenpai_discards(counts) -> dict | None: agari.tenpai_discards (3k+2 tiles).");

static PyObject *
py_tenpai_discards(PyObject *self, PyObject *counts)
{
    Hand h;
    int got = read_hand(counts, &h);
    if (got < 0) {
        return NULL;
    }
    if (got == 0 || h.n % 3 != 2) {
        Py_RETURN_NONE;
    }
    PyObject *result = PyDict_New();
    if (result == NULL) {
        return NULL;
    }
    if (far_from_ready(&h)) {
        return result; /* no discard leaves it ready: the loop below would find none */
    }
    for (int t = 0; t < NUM_TYPES; t++) { /* ascending, as agari.py fills its dict */
        if (!h.c[t]) {
            continue;
        }
        take(&h, t, -1);
        uint64_t mask = wait_mask(&h);
        take(&h, t, 1);
        if (!mask) {
            continue;
        }
        PyObject *key = PyLong_FromLong(t);
        PyObject *waits = key == NULL ? NULL : mask_set(mask);
        if (waits == NULL || PyDict_SetItem(result, key, waits) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(waits);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(waits);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"winning_types", py_winning_types, METH_O, winning_types_doc},
    {"tenpai_discards", py_tenpai_discards, METH_O, tenpai_discards_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_waits",
    "Compiled waits for the rules (pipeline/rules/_waits.c).", -1, methods,
};

PyMODINIT_FUNC
PyInit__waits(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_HASH", WAITS_SOURCE_HASH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
