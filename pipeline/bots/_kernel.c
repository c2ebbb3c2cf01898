/* Compiled shanten and acceptance for the bots: the same answers as the pure-Python functions
 * in pipeline/bots/shanten.py, without the per-call interpreter cost.
 *
 * A hand's regular shanten comes from the row sets of its three suits (the shipped per-suit
 * table, data/bots/suit_table.bin, passed in by load()) and a summary of its honors, combined
 * exactly as shanten._combine does; seven pairs and thirteen orphans as shanten_chiitoitsu and
 * shanten_kokushi. The module keeps no memo: every answer is worked out from the table, so there
 * is nothing to go stale between calls.
 *
 * Every entry point returns None for input it does not handle (a count outside 0-4, a size that
 * does not fit the melds, a discard of a type not held): the Python wrapper then calls the
 * pure function, which raises the error that explains the problem.
 *
 * Built by setup.py as an optional extension; pipeline/bots/shanten.py uses it only when its
 * SOURCE_HASH matches this file (a stale build is ignored) and SAKI_PURE_PYTHON is not set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef KERNEL_SOURCE_HASH
#define KERNEL_SOURCE_HASH "unknown"
#endif

#define NUM_TYPES 34
#define NUM_CODES 1953125 /* 5 ** 9 */
#define NO_ENTRY 0xFFFF
#define ISO_FOUR 1
#define ISO_FREE 2

static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static int8_t *rows = NULL;      /* 4 per row: sets, partial sets, pairs, isolated kind */
static uint32_t *starts = NULL;  /* row set id -> index of its first row; one more at the end */
static uint16_t *codes = NULL;   /* suit code -> row set id, NO_ENTRY above 14 tiles */
static Py_ssize_t num_sets = 0;

typedef struct {
    int c[NUM_TYPES];
    int n;      /* tiles in the closed part */
    int melds;
} Hand;

/* ------------------------------------------------------------------------ shanten */

static int
combine(uint16_t a, uint16_t b, uint16_t s, int sets, int pairs, int iso, int fours)
{
    /* shanten._combine over the rows of the three suits and the honors' part */
    int best = 8;
    for (uint32_t i = starts[a]; i < starts[a + 1]; i++) {
        const int8_t *ra = rows + 4 * i;
        int ma = ra[0] + sets, ta = ra[1], pa = ra[2] + pairs, ia = ra[3] | iso;
        for (uint32_t j = starts[b]; j < starts[b + 1]; j++) {
            const int8_t *rb = rows + 4 * j;
            int mb = ma + rb[0], tb = ta + rb[1], pb = pa + rb[2], ib = ia | rb[3];
            for (uint32_t k = starts[s]; k < starts[s + 1]; k++) {
                const int8_t *rc = rows + 4 * k;
                int m = mb + rc[0], t = tb + rc[1], p = pb + rc[2];
                int ret = 8 - 2 * m - t - p, cand;
                if (p) {
                    cand = m + t + p - 1;
                } else {
                    cand = m + t;
                    if ((ib | rc[3]) == ISO_FOUR)
                        ret += 1;
                }
                if (cand > 4)
                    ret += cand - 4;
                if (ret != -1 && ret < fours)
                    ret = fours;
                if (ret < best) {
                    best = ret;
                    if (best == -1)
                        return -1;
                }
            }
        }
    }
    return best;
}

static int
suit_code(const int *c)
{
    int code = 0;
    for (int i = 8; i >= 0; i--)
        code = code * 5 + c[i];
    return code;
}

/* Regular shanten of a closed part of n tiles (shanten._regular); -2 when a suit is off the table. */
static int
regular(const int *c, int n)
{
    uint16_t ids[3];
    for (int s = 0; s < 3; s++) {
        ids[s] = codes[suit_code(c + 9 * s)];
        if (ids[s] == NO_ENTRY)
            return -2;
    }
    /* shanten._honor_id: sets (declared melds included), pairs, isolated kind, fours floor */
    int threes = 0, fours = 0, pairs = 0, single = 0;
    for (int t = 27; t < NUM_TYPES; t++) {
        switch (c[t]) {
        case 1: single = 1; break;
        case 2: pairs++; break;
        case 3: threes++; break;
        case 4: fours++; break;
        }
    }
    int sets = (14 - n) / 3 + threes + fours;
    int iso = single ? ISO_FREE : (fours ? ISO_FOUR : 0);
    int floor = fours;
    if (fours && n % 3 == 2)
        floor -= 1;
    return combine(ids[0], ids[1], ids[2], sets, pairs, iso, floor);
}

/* shanten.shanten: the least of regular, seven pairs and thirteen orphans (closed hands only). */
static int
full_shanten(const Hand *h)
{
    int best = regular(h->c, h->n);
    if (best < -1 || h->melds != 0 || best == -1)
        return best;
    int kinds = 0, pairs = 0;
    for (int t = 0; t < NUM_TYPES; t++) {
        if (h->c[t]) {
            kinds++;
            if (h->c[t] >= 2)
                pairs++;
        }
    }
    if (pairs == 7)
        return -1;
    int chiitoi = 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
    int missing = 0, orphan_pair = 0;
    for (int i = 0; i < 13; i++) {
        int x = h->c[ORPHANS[i]];
        if (!x)
            missing++;
        else if (x >= 2)
            orphan_pair = 1;
    }
    int kokushi = missing - orphan_pair;
    if (chiitoi < best)
        best = chiitoi;
    if (kokushi < best)
        best = kokushi;
    return best;
}

/* ------------------------------------------------------------------------ input */

/* Reads 34 counts and the melds; 0 when they do not make a closed part of 3k+1 or 3k+2 tiles
 * with 0-4 copies of each type (the caller then answers None), -1 on a Python error. */
static int
read_hand(PyObject *counts, int melds, Hand *h)
{
    PyObject *seq = PySequence_Fast(counts, "counts must be a sequence of 34 ints");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NUM_TYPES || melds < 0 || melds > 4) {
        Py_DECREF(seq);
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int n = 0;
    for (int t = 0; t < NUM_TYPES; t++) {
        long x = PyLong_AsLong(items[t]);
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (x < 0 || x > 4) {
            Py_DECREF(seq);
            return 0;
        }
        h->c[t] = (int)x;
        n += (int)x;
    }
    Py_DECREF(seq);
    int k = 4 - melds;
    if (n != 3 * k + 1 && n != 3 * k + 2)
        return 0;
    h->n = n;
    h->melds = melds;
    return 1;
}

static int
loaded(void)
{
    if (codes == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the suit table is not loaded: call load() first");
        return 0;
    }
    return 1;
}

/* Parses the arguments (counts, melds=0) into h: as read_hand. */
static int
parse_hand(PyObject *args, Hand *h)
{
    PyObject *counts;
    int melds = 0;
    if (!PyArg_ParseTuple(args, "O|i", &counts, &melds) || !loaded())
        return -1;
    return read_hand(counts, melds, h);
}

/* The n ints as a new Python list, or a tuple. */
static PyObject *
to_python(const int *values, int n, int as_tuple)
{
    PyObject *out = as_tuple ? PyTuple_New(n) : PyList_New(n);
    for (int j = 0; out != NULL && j < n; j++) {
        PyObject *x = PyLong_FromLong(values[j]);
        if (x == NULL) {
            Py_CLEAR(out);
            break;
        }
        if (as_tuple)
            PyTuple_SET_ITEM(out, j, x);
        else
            PyList_SET_ITEM(out, j, x);
    }
    return out;
}

/* Whether drawing type x is worth trying (evaluate.helpful_draws): a suit type within two
 * steps of a held tile of its suit, a held honor, or any terminal or honor when thirteen orphans
 * is in reach (``wide``). */
static int
helpful(const int *c, int x, int wide)
{
    if (x >= 27)
        return c[x] > 0 || wide;
    int first = x - x % 9, lo = x - 2, hi = x + 2;
    if (lo < first)
        lo = first;
    if (hi > first + 8)
        hi = first + 8;
    for (int t = lo; t <= hi; t++)
        if (c[t])
            return 1;
    return wide && (x == first || x == first + 8);
}

/* shanten.near_lowering_draws: among the helpful draws (types held fewer than four times),
 * those that take a 3k+1 part below its shanten, in type order. */
static int
lowering_draws(Hand *h, int *out)
{
    int base = full_shanten(h);
    int found = 0, wide = 0;
    if (h->melds == 0) {
        int kinds = 0;
        for (int i = 0; i < 13; i++)
            kinds += h->c[ORPHANS[i]] > 0;
        wide = kinds >= 8;
    }
    h->n += 1;
    for (int x = 0; x < NUM_TYPES; x++) {
        if (h->c[x] >= 4 || !helpful(h->c, x, wide))
            continue;
        h->c[x] += 1;
        if (full_shanten(h) < base)
            out[found++] = x;
        h->c[x] -= 1;
    }
    h->n -= 1;
    return found;
}

/* ------------------------------------------------------------------------ entry points */

PyDoc_STRVAR(shanten_doc, "shanten(counts, melds=0) -> int | None\n\n"
             "As pipeline.bots.shanten.shanten; None for input it does not handle.");

static PyObject *
py_shanten(PyObject *self, PyObject *args)
{
    Hand h;
    int ok = parse_hand(args, &h);
    if (ok <= 0)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    int result = full_shanten(&h);
    if (result < -1)
        Py_RETURN_NONE;
    return PyLong_FromLong(result);
}

PyDoc_STRVAR(discard_shanten_doc, "discard_shanten(counts, melds=0) -> dict | None\n\n"
             "As pipeline.bots.shanten.discard_shanten; None for input it does not handle.");

static PyObject *
py_discard_shanten(PyObject *self, PyObject *args)
{
    Hand h;
    int ok = parse_hand(args, &h);
    if (ok <= 0 || h.n % 3 != 2)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    h.n -= 1;
    for (int t = 0; t < NUM_TYPES; t++) {
        if (!h.c[t])
            continue;
        h.c[t] -= 1;
        int sh = full_shanten(&h);
        h.c[t] += 1;
        if (sh < -1) {
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        PyObject *key = PyLong_FromLong(t), *value = PyLong_FromLong(sh);
        int failed = key == NULL || value == NULL || PyDict_SetItem(out, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (failed) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* For each discard of a 3k+2 part: the lowering draws (as a tuple) or, with unseen counts,
 * the unseen copies of them (acceptance). */
static PyObject *
per_discard(PyObject *args, int with_unseen)
{
    PyObject *counts, *discards, *unseen_arg = NULL;
    int melds;
    long unseen[NUM_TYPES];
    Hand h;
    if (with_unseen) {
        if (!PyArg_ParseTuple(args, "OiOO", &counts, &melds, &discards, &unseen_arg))
            return NULL;
    } else if (!PyArg_ParseTuple(args, "OiO", &counts, &melds, &discards)) {
        return NULL;
    }
    if (!loaded())
        return NULL;
    int ok = read_hand(counts, melds, &h);
    if (ok <= 0 || h.n % 3 != 2)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    if (with_unseen) {
        PyObject *seq = PySequence_Fast(unseen_arg, "unseen must be a sequence of 34 ints");
        if (seq == NULL)
            return NULL;
        if (PySequence_Fast_GET_SIZE(seq) != NUM_TYPES) {
            Py_DECREF(seq);
            Py_RETURN_NONE;
        }
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (int t = 0; t < NUM_TYPES; t++) {
            unseen[t] = PyLong_AsLong(items[t]);
            if (unseen[t] == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return NULL;
            }
        }
        Py_DECREF(seq);
    }
    PyObject *types = PySequence_Fast(discards, "discards must be a sequence of tile types");
    if (types == NULL)
        return NULL;
    PyObject *out = PyDict_New();
    if (out == NULL) {
        Py_DECREF(types);
        return NULL;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(types);
    PyObject **items = PySequence_Fast_ITEMS(types);
    h.n -= 1;
    for (Py_ssize_t i = 0; i < count; i++) {
        long t = PyLong_AsLong(items[i]);
        if (t == -1 && PyErr_Occurred())
            goto error;
        if (t < 0 || t >= NUM_TYPES || !h.c[t]) {
            Py_DECREF(types);
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        int draws[NUM_TYPES];
        h.c[t] -= 1;
        int found = lowering_draws(&h, draws);
        h.c[t] += 1;
        PyObject *value;
        if (with_unseen) {
            long total = 0;
            for (int j = 0; j < found; j++)
                if (unseen[draws[j]] > 0)
                    total += unseen[draws[j]];
            value = PyLong_FromLong(total);
        } else {
            value = to_python(draws, found, 1);
        }
        if (value == NULL)
            goto error;
        int failed = PyDict_SetItem(out, items[i], value) < 0;
        Py_DECREF(value);
        if (failed)
            goto error;
    }
    Py_DECREF(types);
    return out;
error:
    Py_DECREF(types);
    Py_DECREF(out);
    return NULL;
}

PyDoc_STRVAR(discard_lowering_draws_doc,
             "discard_lowering_draws(counts, melds, discards) -> dict | None\n\n"
             "As pipeline.bots.shanten.discard_lowering_draws; None for input it does not handle.");

static PyObject *
py_discard_lowering_draws(PyObject *self, PyObject *args)
{
    return per_discard(args, 0);
}

PyDoc_STRVAR(discard_acceptance_doc,
             "discard_acceptance(counts, melds, discards, unseen) -> dict | None\n\n"
             "As pipeline.bots.evaluate.discard_acceptance; None for input it does not handle.");

static PyObject *
py_discard_acceptance(PyObject *self, PyObject *args)
{
    return per_discard(args, 1);
}

PyDoc_STRVAR(lowering_draws_doc, "lowering_draws(counts, melds=0) -> list | None\n\n"
             "As pipeline.bots.shanten.near_lowering_draws; None for input it does not handle.");

static PyObject *
py_lowering_draws(PyObject *self, PyObject *args)
{
    Hand h;
    int draws[NUM_TYPES];
    int ok = parse_hand(args, &h);
    if (ok <= 0 || h.n % 3 != 1)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    return to_python(draws, lowering_draws(&h, draws), 0);
}

PyDoc_STRVAR(distinct_type_counts_doc,
             "distinct_type_counts(groups) -> list | None\n\n"
             "The 34 type counts of the distinct tile ids (0-135) in an iterable of sequences of "
             "ids (an id in several groups counts once); None for an id out of range.");

static PyObject *
py_distinct_type_counts(PyObject *self, PyObject *groups)
{
    uint8_t seen[4 * NUM_TYPES] = {0};
    int counts[NUM_TYPES] = {0};
    int out_of_range = 0;
    PyObject *iterator = PyObject_GetIter(groups), *group;
    if (iterator == NULL)
        return NULL;
    while (!out_of_range && (group = PyIter_Next(iterator)) != NULL) {
        PyObject *seq = PySequence_Fast(group, "each group must be a sequence of tile ids");
        Py_DECREF(group);
        if (seq == NULL) {
            Py_DECREF(iterator);
            return NULL;
        }
        Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t i = 0; i < size; i++) {
            long x = PyLong_AsLong(items[i]);
            if (x == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                Py_DECREF(iterator);
                return NULL;
            }
            if (x < 0 || x >= 4 * NUM_TYPES) {
                out_of_range = 1;
                break;
            }
            if (!seen[x]) {
                seen[x] = 1;
                counts[x >> 2]++;
            }
        }
        Py_DECREF(seq);
    }
    Py_DECREF(iterator);
    if (PyErr_Occurred())
        return NULL;
    if (out_of_range)
        Py_RETURN_NONE;
    return to_python(counts, NUM_TYPES, 0);
}

/* ------------------------------------------------------------------------ table */

PyDoc_STRVAR(load_doc, "load(rows: bytes, starts: bytes, codes: bytes) -> None\n\n"
             "Takes the per-suit table: 4 signed bytes per row, the first row of each row set "
             "as uint32 (one more at the end), and the row set id of each suit code as uint16, "
             "all in native byte order.");

static PyObject *
py_load(PyObject *self, PyObject *args)
{
    Py_buffer r, s, c;
    if (!PyArg_ParseTuple(args, "y*y*y*", &r, &s, &c))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t nrows = r.len / 4, nsets = s.len / 4 - 1;
    if (r.len % 4 || s.len % 4 || nsets < 1 || c.len != 2 * (Py_ssize_t)NUM_CODES) {
        PyErr_SetString(PyExc_ValueError, "the suit table buffers do not have the expected sizes");
        goto done;
    }
    const uint32_t *sv = s.buf;
    const uint16_t *cv = c.buf;
    if (sv[0] != 0 || sv[nsets] != (uint32_t)nrows) {
        PyErr_SetString(PyExc_ValueError, "the suit table's row starts do not cover its rows");
        goto done;
    }
    for (Py_ssize_t i = 0; i < nsets; i++) {
        if (sv[i] > sv[i + 1]) {
            PyErr_SetString(PyExc_ValueError, "the suit table's row starts are not in order");
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < NUM_CODES; i++) {
        if (cv[i] != NO_ENTRY && cv[i] >= nsets) {
            PyErr_SetString(PyExc_ValueError, "the suit table names a row set it does not hold");
            goto done;
        }
    }
    int8_t *new_rows = PyMem_Malloc(r.len ? r.len : 1);
    uint32_t *new_starts = PyMem_Malloc(s.len);
    uint16_t *new_codes = PyMem_Malloc(c.len);
    if (new_rows == NULL || new_starts == NULL || new_codes == NULL) {
        PyMem_Free(new_rows);
        PyMem_Free(new_starts);
        PyMem_Free(new_codes);
        PyErr_NoMemory();
        goto done;
    }
    memcpy(new_rows, r.buf, r.len);
    memcpy(new_starts, s.buf, s.len);
    memcpy(new_codes, c.buf, c.len);
    PyMem_Free(rows);
    PyMem_Free(starts);
    PyMem_Free(codes);
    rows = new_rows;
    starts = new_starts;
    codes = new_codes;
    num_sets = nsets;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&r);
    PyBuffer_Release(&s);
    PyBuffer_Release(&c);
    return result;
}

static PyMethodDef methods[] = {
    {"load", py_load, METH_VARARGS, load_doc},
    {"shanten", py_shanten, METH_VARARGS, shanten_doc},
    {"discard_shanten", py_discard_shanten, METH_VARARGS, discard_shanten_doc},
    {"discard_lowering_draws", py_discard_lowering_draws, METH_VARARGS,
     discard_lowering_draws_doc},
    {"discard_acceptance", py_discard_acceptance, METH_VARARGS, discard_acceptance_doc},
    {"lowering_draws", py_lowering_draws, METH_VARARGS, lowering_draws_doc},
    {"distinct_type_counts", py_distinct_type_counts, METH_O, distinct_type_counts_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "Compiled shanten and acceptance (see pipeline/bots/_kernel.c).", -1, methods,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_HASH", KERNEL_SOURCE_HASH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
