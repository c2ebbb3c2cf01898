/* Compiled shanten and acceptance for the bots: the same answers as the pure-Python functions
 * in pipeline/bots/shanten.py, without the per-call interpreter cost.
 *
 * A hand's regular shanten comes from the row sets of its three suits (the shipped per-suit
 * table, data/bots/suit_table.bin, passed in by load()) and a summary of its honors, combined
 * exactly as shanten._combine does; seven pairs and thirteen orphans as shanten_chiitoitsu and
 * shanten_kokushi. The shaped shanten of a seat with extra sequences (pipeline/bots/shaped.py)
 * searches its parts as shaped.py does. No memo outlives a call: every answer is worked out
 * from the table or the search, so there is nothing to go stale between calls.
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
/* The regular shanten from the row set ids of c's suits (none NO_ENTRY) and its honors
 * (shanten._honor_id: sets, declared melds included, pairs, isolated kind, fours floor). */
static int
regular_of(const int *c, int n, const uint16_t *ids)
{
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

static int
regular(const int *c, int n)
{
    uint16_t ids[3];
    for (int s = 0; s < 3; s++) {
        ids[s] = codes[suit_code(c + 9 * s)];
        if (ids[s] == NO_ENTRY)
            return -2;
    }
    return regular_of(c, n, ids);
}

/* A closed hand's regular shanten ``best`` against seven pairs and thirteen orphans, from its
 * kinds, pairs, missing orphan types and whether an orphan is paired. */
static int
closed_best(int best, int kinds, int pairs, int missing, int orphan_pair)
{
    if (pairs == 7)
        return -1;
    int chiitoi = 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
    int kokushi = missing - orphan_pair;
    if (chiitoi < best)
        best = chiitoi;
    if (kokushi < best)
        best = kokushi;
    return best;
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
    int missing = 0, orphan_pair = 0;
    for (int i = 0; i < 13; i++) {
        int x = h->c[ORPHANS[i]];
        if (!x)
            missing++;
        else if (x >= 2)
            orphan_pair = 1;
    }
    return closed_best(best, kinds, pairs, missing, orphan_pair);
}

/* full_shanten(h) from the row set ids of h's suits (NO_ENTRY for a suit off the table) and
 * its seven-pairs and thirteen-orphans counts, which the caller keeps up to date tile by tile
 * (lowering_draws): the same answer, without reading every type again. */
static int
shanten_of(const Hand *h, const uint16_t *ids, int kinds, int pairs, int missing,
           int orphan_pair)
{
    for (int s = 0; s < 3; s++)
        if (ids[s] == NO_ENTRY)
            return -2;
    int best = regular_of(h->c, h->n, ids);
    if (h->melds != 0 || best == -1)
        return best;
    return closed_best(best, kinds, pairs, missing, orphan_pair);
}

static const int POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};

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
    /* what full_shanten reads of the hand, which each draw changes by one tile */
    int code[3], kinds = 0, pairs = 0, missing = 0, orphan_pair = 0;
    for (int s = 0; s < 3; s++)
        code[s] = suit_code(h->c + 9 * s);
    for (int t = 0; t < NUM_TYPES; t++) {
        if (h->c[t]) {
            kinds++;
            if (h->c[t] >= 2)
                pairs++;
        }
    }
    for (int i = 0; i < 13; i++) {
        int x = h->c[ORPHANS[i]];
        if (!x)
            missing++;
        else if (x >= 2)
            orphan_pair = 1;
    }
    uint16_t same[3] = {codes[code[0]], codes[code[1]], codes[code[2]]};
    h->n += 1;
    for (int x = 0; x < NUM_TYPES; x++) {
        int held = h->c[x];
        if (held >= 4 || !helpful(h->c, x, wide))
            continue;
        uint16_t ids[3] = {same[0], same[1], same[2]};
        if (x < 27)
            ids[x / 9] = codes[code[x / 9] + POW5[x % 9]];
        int orphan = x >= 27 || x % 9 == 0 || x % 9 == 8;
        h->c[x] += 1;
        if (shanten_of(h, ids, kinds + (held == 0), pairs + (held == 1),
                       missing - (orphan && held == 0), orphan_pair | (orphan && held == 1))
                < base)
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
    /* what full_shanten reads of the hand, which each discard changes by one tile */
    int code[3], kinds = 0, pairs = 0, missing = 0, orphan_pairs = 0;
    for (int s = 0; s < 3; s++)
        code[s] = suit_code(h.c + 9 * s);
    for (int t = 0; t < NUM_TYPES; t++) {
        if (h.c[t]) {
            kinds++;
            if (h.c[t] >= 2)
                pairs++;
        }
    }
    for (int i = 0; i < 13; i++) {
        int x = h.c[ORPHANS[i]];
        if (!x)
            missing++;
        else if (x >= 2)
            orphan_pairs++;
    }
    uint16_t same[3] = {codes[code[0]], codes[code[1]], codes[code[2]]};
    h.n -= 1;
    for (int t = 0; t < NUM_TYPES; t++) {
        int held = h.c[t];
        if (!held)
            continue;
        uint16_t ids[3] = {same[0], same[1], same[2]};
        if (t < 27)
            ids[t / 9] = codes[code[t / 9] - POW5[t % 9]];
        int orphan = t >= 27 || t % 9 == 0 || t % 9 == 8;
        h.c[t] -= 1;
        int sh = shanten_of(&h, ids, kinds - (held == 1), pairs - (held == 2),
                            missing + (orphan && held == 1),
                            orphan_pairs - (orphan && held == 2) > 0);
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

/* ------------------------------------------------------------------------ shaped shanten */

/* The search of pipeline/bots/shaped.py for a seat that may build extra sequences (Kaori's
 * honor sequences, Yuuko's wrap-around ones): each part (a suit, the honors) gives the rows
 * (sets, partial sets, pairs, isolated kind) of every way its tiles split, with every sequence
 * the part allows; the parts combine as in combine(). Only the minimum over the rows matters,
 * so rows another row dominates are dropped, as shaped._pareto drops them.
 *
 * The part rows of one call (a hand, its discards and their draws) are memoised for that call
 * only: the memo is emptied when the next call starts, so nothing outlives a call. When the
 * memo or its row pool is full, the call answers None and the Python wrapper uses the pure
 * function, which gives the same answer. */

#define PART_SIZE_MAX 9
#define MAX_PART_GROUPS 16  /* sequences holding one index of a part */
#define SHAPED_BUF 1024     /* rows of one state or merge before the dominance filter */
#define KEPT_MAX 256        /* undominated rows of a merge of parts */
#define MEMO_SIZE (1 << 15)
#define POOL_SIZE (1 << 18)

static const int PART_STARTS[4] = {0, 9, 18, 27};
static const int PART_SIZES[4] = {9, 9, 9, 7};

typedef struct {
    int8_t m, t, p, iso;
} SRow;

typedef struct {
    uint32_t key, gen, start;
    uint16_t n;
} MemoEntry;

typedef struct {
    int n;                                   /* sequences holding the index */
    int8_t k[MAX_PART_GROUPS][3];            /* their distinct indices within the part */
    int8_t kn[MAX_PART_GROUPS];              /* how many distinct indices each has */
    int nb;                                  /* partners for a partial set, in order */
    int8_t partner[PART_SIZE_MAX];
} PartIndex;

typedef struct {
    PartIndex idx[4][PART_SIZE_MAX];
    int overflow;
} Shapes;

static MemoEntry memo[MEMO_SIZE];
static SRow pool[POOL_SIZE];
static uint32_t pool_used = 0, memo_gen = 0, memo_count = 0;

static void
memo_reset(void)
{
    memo_gen++;
    if (memo_gen == 0) {  /* wrapped: clear so no entry of an old call can match */
        memset(memo, 0, sizeof(memo));
        memo_gen = 1;
    }
    pool_used = 0;
    memo_count = 0;
}

/* Whether a dominates b: as many of every count and no worse isolated kind (free < none < four). */
static int
iso_rank(int iso)
{
    return iso == ISO_FREE ? 0 : (iso == 0 ? 1 : 2);
}

static int
dominates(const SRow *a, const SRow *b)
{
    return a->m >= b->m && a->t >= b->t && a->p >= b->p && iso_rank(a->iso) <= iso_rank(b->iso);
}

/* Keeps the rows no other row dominates (one of equal rows), in place; returns how many. */
static int
keep_undominated(SRow *r, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int dropped = 0;
        for (int j = 0; j < kept && !dropped; j++)
            dropped = dominates(&r[j], &r[i]);
        if (dropped)
            continue;
        int w = 0;
        for (int j = 0; j < kept; j++)
            if (!dominates(&r[i], &r[j]))
                r[w++] = r[j];
        r[w++] = r[i];
        kept = w;
    }
    return kept;
}

static int
add_row(SRow *buf, int *n, int m, int t, int p, int iso)
{
    if (*n >= SHAPED_BUF)
        return 0;
    buf[*n].m = (int8_t)m;
    buf[*n].t = (int8_t)t;
    buf[*n].p = (int8_t)p;
    buf[*n].iso = (int8_t)iso;
    (*n)++;
    return 1;
}

static const SRow EMPTY_ROW = {0, 0, 0, 0};

static int part_rows(Shapes *sh, int q, int *c, const SRow **out);

/* The rows of the part with the tiles just taken out, each with (m, t, p, iso) added. */
static int
rest_rows(Shapes *sh, int q, int *c, SRow *buf, int *n, int m, int t, int p, int iso)
{
    const SRow *rr;
    int k = part_rows(sh, q, c, &rr);
    if (k < 0)
        return 0;
    for (int j = 0; j < k; j++)
        if (!add_row(buf, n, m + rr[j].m, t + rr[j].t, p + rr[j].p, iso | rr[j].iso))
            return 0;
    return 1;
}

/* shaped._part_rows: the undominated rows of part q with local counts c (restored on return);
 * the count of rows, -1 when the memo or a buffer is full. */
static int
part_rows(Shapes *sh, int q, int *c, const SRow **out)
{
    int size = PART_SIZES[q], i = 0;
    while (i < size && !c[i])
        i++;
    if (i == size) {
        *out = &EMPTY_ROW;
        return 1;
    }
    uint32_t code = 0;
    for (int j = size - 1; j >= 0; j--)
        code = code * 5 + (uint32_t)c[j];
    uint32_t key = (uint32_t)q * NUM_CODES + code;
    uint32_t slot = (key * 2654435761u) & (MEMO_SIZE - 1);
    while (memo[slot].gen == memo_gen) {
        if (memo[slot].key == key) {
            *out = pool + memo[slot].start;
            return memo[slot].n;
        }
        slot = (slot + 1) & (MEMO_SIZE - 1);
    }
    SRow buf[SHAPED_BUF];
    int n = 0, ok = 1;
    const PartIndex *ix = &sh->idx[q][i];
    if (c[i] >= 3) {
        c[i] -= 3;
        ok = rest_rows(sh, q, c, buf, &n, 1, 0, 0, 0);
        c[i] += 3;
    }
    for (int g = 0; ok && g < ix->n; g++) {
        int all = 1;
        for (int j = 0; j < ix->kn[g]; j++)
            all = all && c[ix->k[g][j]] > 0;
        if (!all)
            continue;
        for (int j = 0; j < ix->kn[g]; j++)
            c[ix->k[g][j]]--;
        ok = rest_rows(sh, q, c, buf, &n, 1, 0, 0, 0);
        for (int j = 0; j < ix->kn[g]; j++)
            c[ix->k[g][j]]++;
    }
    if (ok && c[i] >= 2) {
        c[i] -= 2;
        ok = rest_rows(sh, q, c, buf, &n, 0, 0, 1, 0);
        c[i] += 2;
    }
    for (int j = 0; ok && j < ix->nb; j++) {
        int k = ix->partner[j];
        if (!c[k])
            continue;
        c[i]--;
        c[k]--;
        ok = rest_rows(sh, q, c, buf, &n, 0, 1, 0, 0);
        c[i]++;
        c[k]++;
    }
    if (ok) {
        c[i]--;
        ok = rest_rows(sh, q, c, buf, &n, 0, 0, 0, ISO_FREE);  /* the tile stays alone */
        c[i]++;
    }
    if (!ok)
        return -1;
    n = keep_undominated(buf, n);
    /* the slot may have been taken by the parts searched above: look again */
    while (memo[slot].gen == memo_gen)
        slot = (slot + 1) & (MEMO_SIZE - 1);
    if (pool_used + (uint32_t)n > POOL_SIZE || memo_count + 1 > MEMO_SIZE / 2)
        return -1;
    memcpy(pool + pool_used, buf, (size_t)n * sizeof(SRow));
    memo[slot].key = key;
    memo[slot].gen = memo_gen;
    memo[slot].start = pool_used;
    memo[slot].n = (uint16_t)n;
    memo_count++;
    pool_used += (uint32_t)n;
    *out = pool + memo[slot].start;
    return n;
}

/* Reads the extra sequences (an iterable of three tile types each) into the per-part tables of
 * sequences and partial-set partners; 0 when a sequence is not three types (the caller answers
 * None), -1 on a Python error. A sequence across two parts is ignored, as shaped.py does. */
static int
read_shapes(PyObject *extra, Shapes *sh)
{
    int groups[4][64][3], ng[4] = {0, 0, 0, 0};
    for (int q = 0; q < 3; q++) {
        for (int s = 0; s < 7; s++) {
            groups[q][ng[q]][0] = s;
            groups[q][ng[q]][1] = s + 1;
            groups[q][ng[q]][2] = s + 2;
            ng[q]++;
        }
    }
    PyObject *iterator = PyObject_GetIter(extra), *item;
    if (iterator == NULL)
        return -1;
    int bad = 0;
    while (!bad && (item = PyIter_Next(iterator)) != NULL) {
        PyObject *seq = PySequence_Fast(item, "each extra sequence must be three tile types");
        Py_DECREF(item);
        if (seq == NULL) {
            Py_DECREF(iterator);
            return -1;
        }
        long v[3];
        if (PySequence_Fast_GET_SIZE(seq) != 3) {
            bad = 1;
        } else {
            for (int j = 0; j < 3; j++) {
                v[j] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
                if (v[j] == -1 && PyErr_Occurred()) {
                    Py_DECREF(seq);
                    Py_DECREF(iterator);
                    return -1;
                }
                if (v[j] < 0 || v[j] >= NUM_TYPES)
                    bad = 1;
            }
        }
        Py_DECREF(seq);
        if (bad)
            break;
        int q = v[0] >= 27 ? 3 : (int)(v[0] / 9);
        int first = PART_STARTS[q], size = PART_SIZES[q], inside = 1;
        for (int j = 0; j < 3; j++)
            inside = inside && v[j] >= first && v[j] < first + size;
        if (!inside)
            continue;
        if (ng[q] >= 64) {
            bad = 1;
            break;
        }
        for (int j = 0; j < 3; j++)
            groups[q][ng[q]][j] = (int)(v[j] - first);
        ng[q]++;
    }
    Py_DECREF(iterator);
    if (PyErr_Occurred())
        return -1;
    if (bad)
        return 0;
    memset(sh, 0, sizeof(*sh));
    for (int q = 0; q < 4; q++) {
        for (int i = 0; i < PART_SIZES[q]; i++) {
            PartIndex *ix = &sh->idx[q][i];
            int near[PART_SIZE_MAX] = {0};
            for (int g = 0; g < ng[q]; g++) {
                int *run = groups[q][g], holds = 0;
                for (int j = 0; j < 3; j++)
                    holds = holds || run[j] == i;
                if (!holds)
                    continue;
                int8_t distinct[3];
                int kn = 0;
                for (int j = 0; j < 3; j++) {
                    int seen = 0;
                    for (int d = 0; d < kn; d++)
                        seen = seen || distinct[d] == run[j];
                    if (!seen)
                        distinct[kn++] = (int8_t)run[j];
                }
                int same = 0;  /* a sequence listed twice is searched once */
                for (int h = 0; h < ix->n && !same; h++) {
                    same = ix->kn[h] == kn;
                    for (int d = 0; d < kn && same; d++) {
                        int found = 0;
                        for (int e = 0; e < kn; e++)
                            found = found || ix->k[h][e] == distinct[d];
                        same = found;
                    }
                }
                if (same)
                    continue;
                if (ix->n >= MAX_PART_GROUPS)
                    return 0;
                memcpy(ix->k[ix->n], distinct, 3);
                ix->kn[ix->n] = (int8_t)kn;
                ix->n++;
                for (int d = 0; d < kn; d++)
                    if (distinct[d] != i)
                        near[distinct[d]] = 1;
            }
            for (int k = 0; k < PART_SIZES[q]; k++)
                if (near[k])
                    ix->partner[ix->nb++] = (int8_t)k;
        }
    }
    return 1;
}

/* The undominated rows of a and b taken together (shaped._merged) into out; -1 when full. */
static int
merge_rows(const SRow *a, int na, const SRow *b, int nb, SRow *out)
{
    SRow all[SHAPED_BUF];
    int n = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (!add_row(all, &n, a[i].m + b[j].m, a[i].t + b[j].t, a[i].p + b[j].p,
                         a[i].iso | b[j].iso))
                return -1;
    n = keep_undominated(all, n);
    if (n > KEPT_MAX)
        return -1;
    memcpy(out, all, (size_t)n * sizeof(SRow));
    return n;
}

/* Regular shanten from two row lists and the declared melds, as shanten._combine with the
 * honors' part (melds, 0, 0, 0). */
static int
combine_two(const SRow *a, int na, const SRow *b, int nb, int melds)
{
    int best = 8;
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++) {
            int m = a[i].m + b[j].m + melds, t = a[i].t + b[j].t, p = a[i].p + b[j].p, cand;
            int ret = 8 - 2 * m - t - p;
            if (p) {
                cand = m + t + p - 1;
            } else {
                cand = m + t;
                if ((a[i].iso | b[j].iso) == ISO_FOUR)
                    ret += 1;
            }
            if (cand > 4)
                ret += cand - 4;
            if (ret < best) {
                best = ret;
                if (best == -1)
                    return -1;
            }
        }
    }
    return best;
}

/* Seven pairs and thirteen orphans, as shaped._shanten_of adds them to a closed hand. */
static int
with_special(const Hand *h, int best)
{
    if (h->melds != 0 || best == -1)
        return best;
    int kinds = 0, pairs = 0;
    for (int t = 0; t < NUM_TYPES; t++) {
        if (h->c[t]) {
            kinds++;
            if (h->c[t] >= 2)
                pairs++;
        }
    }
    int missing = 0, orphan_pair = 0;
    for (int i = 0; i < 13; i++) {
        int x = h->c[ORPHANS[i]];
        if (!x)
            missing++;
        else if (x >= 2)
            orphan_pair = 1;
    }
    return closed_best(best, kinds, pairs, missing, orphan_pair);
}

/* A hand's parts' rows, and for each part the rows of the three others taken together, so
 * that a change of one tile only searches the part it changes. */
typedef struct {
    const SRow *rows[4];
    int n[4];
    SRow others[4][KEPT_MAX];
    int no[4];
} Split;

static int
split_hand(Shapes *sh, Hand *h, Split *s)
{
    for (int q = 0; q < 4; q++) {
        s->n[q] = part_rows(sh, q, h->c + PART_STARTS[q], &s->rows[q]);
        if (s->n[q] < 0)
            return 0;
    }
    for (int q = 0; q < 4; q++) {
        SRow acc[KEPT_MAX], next[KEPT_MAX];
        int na = 1;
        acc[0] = EMPTY_ROW;
        for (int r = 0; r < 4; r++) {
            if (r == q)
                continue;
            int nn = merge_rows(acc, na, s->rows[r], s->n[r], next);
            if (nn < 0)
                return 0;
            memcpy(acc, next, (size_t)nn * sizeof(SRow));
            na = nn;
        }
        memcpy(s->others[q], acc, (size_t)na * sizeof(SRow));
        s->no[q] = na;
    }
    return 1;
}

/* Shaped shanten of the hand (already split) with type x changed in h->c: -2 when full. */
static int
shaped_changed(Shapes *sh, Hand *h, Split *s, int x)
{
    int q = x >= 27 ? 3 : x / 9;
    const SRow *r;
    int n = part_rows(sh, q, h->c + PART_STARTS[q], &r);
    if (n < 0)
        return -2;
    return with_special(h, combine_two(s->others[q], s->no[q], r, n, h->melds));
}

static int
shaped_whole(Shapes *sh, Hand *h, Split *s)
{
    if (!split_hand(sh, h, s))
        return -2;
    return with_special(h, combine_two(s->others[3], s->no[3], s->rows[3], s->n[3], h->melds));
}

/* shaped._helpful: whether drawing x is tried (held or within two steps of a held tile of its
 * suit, in an extra sequence with a held tile, or a terminal or honor when thirteen orphans is
 * near). */
static void
shaped_helpful(const Hand *h, const Shapes *sh, int *near)
{
    memset(near, 0, NUM_TYPES * sizeof(int));
    for (int t = 0; t < NUM_TYPES; t++) {
        if (!h->c[t])
            continue;
        near[t] = 1;
        if (t < 27) {
            int first = t - t % 9;
            for (int x = t - 2; x <= t + 2; x++)
                if (x >= first && x < first + 9)
                    near[x] = 1;
        }
    }
    for (int q = 0; q < 4; q++) {
        int first = PART_STARTS[q];
        for (int i = 0; i < PART_SIZES[q]; i++) {
            const PartIndex *ix = &sh->idx[q][i];
            for (int g = 0; g < ix->n; g++) {
                int held = 0;
                for (int j = 0; j < ix->kn[g]; j++)
                    held = held || h->c[first + ix->k[g][j]];
                if (held)
                    for (int j = 0; j < ix->kn[g]; j++)
                        near[first + ix->k[g][j]] = 1;
            }
        }
    }
    if (h->melds == 0) {
        int kinds = 0;
        for (int i = 0; i < 13; i++)
            kinds += h->c[ORPHANS[i]] > 0;
        if (kinds >= 8)
            for (int i = 0; i < 13; i++)
                near[ORPHANS[i]] = 1;
    }
}

/* shaped.shaped_acceptance of a 3k+1 hand: -1 when full. */
static long
shaped_accept(Shapes *sh, Hand *h, const long *unseen)
{
    Split s;
    int base = shaped_whole(sh, h, &s);
    if (base < -1)
        return -1;
    int near[NUM_TYPES];
    shaped_helpful(h, sh, near);
    long total = 0;
    h->n += 1;
    for (int x = 0; x < NUM_TYPES; x++) {
        if (!near[x] || h->c[x] >= 4 || unseen[x] <= 0)
            continue;
        h->c[x] += 1;
        int after = shaped_changed(sh, h, &s, x);
        h->c[x] -= 1;
        if (after < -1) {
            h->n -= 1;
            return -1;
        }
        if (after < base)
            total += unseen[x];
    }
    h->n -= 1;
    return total;
}

/* Reads 34 unseen counts; 0 when there are not 34 (the caller answers None), -1 on error. */
static int
read_unseen(PyObject *arg, long *unseen)
{
    PyObject *seq = PySequence_Fast(arg, "unseen must be a sequence of 34 ints");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NUM_TYPES) {
        Py_DECREF(seq);
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int t = 0; t < NUM_TYPES; t++) {
        unseen[t] = PyLong_AsLong(items[t]);
        if (unseen[t] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 1;
}

/* Parses counts, melds and the extra sequences; as read_hand. */
static int
shaped_hand(PyObject *counts, int melds, PyObject *extra, Hand *h, Shapes *sh)
{
    int ok = read_hand(counts, melds, h);
    if (ok <= 0)
        return ok;
    ok = read_shapes(extra, sh);
    if (ok > 0)
        memo_reset();
    return ok;
}

PyDoc_STRVAR(shaped_shanten_doc, "shaped_shanten(counts, melds, extra) -> int | None\n\n"
             "As pipeline.bots.shaped.shaped_shanten; None for input it does not handle.");

static PyObject *
py_shaped_shanten(PyObject *self, PyObject *args)
{
    PyObject *counts, *extra;
    int melds;
    Hand h;
    Shapes sh;
    Split s;
    if (!PyArg_ParseTuple(args, "OiO", &counts, &melds, &extra))
        return NULL;
    int ok = shaped_hand(counts, melds, extra, &h, &sh);
    if (ok <= 0)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    int result = shaped_whole(&sh, &h, &s);
    if (result < -1)
        Py_RETURN_NONE;
    return PyLong_FromLong(result);
}

PyDoc_STRVAR(shaped_discard_shanten_doc,
             "shaped_discard_shanten(counts, melds, extra) -> dict | None\n\n"
             "As pipeline.bots.shaped.shaped_discard_shanten; None for input it does not handle.");

static PyObject *
py_shaped_discard_shanten(PyObject *self, PyObject *args)
{
    PyObject *counts, *extra;
    int melds;
    Hand h;
    Shapes sh;
    Split s;
    if (!PyArg_ParseTuple(args, "OiO", &counts, &melds, &extra))
        return NULL;
    int ok = shaped_hand(counts, melds, extra, &h, &sh);
    if (ok <= 0 || h.n % 3 != 2)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    if (!split_hand(&sh, &h, &s))
        Py_RETURN_NONE;
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    h.n -= 1;
    for (int t = 0; t < NUM_TYPES; t++) {
        if (!h.c[t])
            continue;
        h.c[t] -= 1;
        int sh_after = shaped_changed(&sh, &h, &s, t);
        h.c[t] += 1;
        if (sh_after < -1) {
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        PyObject *key = PyLong_FromLong(t), *value = PyLong_FromLong(sh_after);
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

PyDoc_STRVAR(shaped_acceptance_doc,
             "shaped_acceptance(counts, melds, unseen, extra) -> int | None\n\n"
             "As pipeline.bots.shaped.shaped_acceptance; None for input it does not handle.");

static PyObject *
py_shaped_acceptance(PyObject *self, PyObject *args)
{
    PyObject *counts, *unseen_arg, *extra;
    int melds;
    long unseen[NUM_TYPES];
    Hand h;
    Shapes sh;
    if (!PyArg_ParseTuple(args, "OiOO", &counts, &melds, &unseen_arg, &extra))
        return NULL;
    int ok = shaped_hand(counts, melds, extra, &h, &sh);
    if (ok > 0 && h.n % 3 != 1)
        ok = 0;
    if (ok > 0)
        ok = read_unseen(unseen_arg, unseen);
    if (ok <= 0)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    long total = shaped_accept(&sh, &h, unseen);
    if (total < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(total);
}

PyDoc_STRVAR(shaped_discard_acceptance_doc,
             "shaped_discard_acceptance(counts, melds, discards, unseen, extra) -> dict | None\n\n"
             "As pipeline.bots.shaped.shaped_discard_acceptance; None for input it does not "
             "handle.");

static PyObject *
py_shaped_discard_acceptance(PyObject *self, PyObject *args)
{
    PyObject *counts, *discards, *unseen_arg, *extra;
    int melds;
    long unseen[NUM_TYPES];
    Hand h;
    Shapes sh;
    if (!PyArg_ParseTuple(args, "OiOOO", &counts, &melds, &discards, &unseen_arg, &extra))
        return NULL;
    int ok = shaped_hand(counts, melds, extra, &h, &sh);
    if (ok > 0 && h.n % 3 != 2)
        ok = 0;
    if (ok > 0)
        ok = read_unseen(unseen_arg, unseen);
    if (ok <= 0)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
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
        if (t < 0 || t >= NUM_TYPES || !h.c[t])
            goto none;
        h.c[t] -= 1;
        long total = shaped_accept(&sh, &h, unseen);
        h.c[t] += 1;
        if (total < 0)
            goto none;
        PyObject *value = PyLong_FromLong(total);
        if (value == NULL)
            goto error;
        int failed = PyDict_SetItem(out, items[i], value) < 0;
        Py_DECREF(value);
        if (failed)
            goto error;
    }
    Py_DECREF(types);
    return out;
none:
    Py_DECREF(types);
    Py_DECREF(out);
    Py_RETURN_NONE;
error:
    Py_DECREF(types);
    Py_DECREF(out);
    return NULL;
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
    {"shaped_shanten", py_shaped_shanten, METH_VARARGS, shaped_shanten_doc},
    {"shaped_discard_shanten", py_shaped_discard_shanten, METH_VARARGS,
     shaped_discard_shanten_doc},
    {"shaped_acceptance", py_shaped_acceptance, METH_VARARGS, shaped_acceptance_doc},
    {"shaped_discard_acceptance", py_shaped_discard_acceptance, METH_VARARGS,
     shaped_discard_acceptance_doc},
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
