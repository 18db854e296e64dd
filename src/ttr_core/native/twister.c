/* Python's Mersenne Twister (random.Random): seeding, numbers, randrange. */
#include "engine.h"

/* ---------------------------------------------------------------- random choices */
/* Python's random.Random (MT19937) and its randrange, exactly: a native
 * random playout makes the choices ttr_core.random_playout makes. */


static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};

/* Make the words of a new round from `t->made` up to `upto` (exclusive). Word
 * kk reads word kk + 1 of the old round (not remade yet) and word kk + 397 of
 * the old round or, from kk = 227 on, word kk - 227 of the new one (remade
 * already): made as they are drawn, the words are those CPython makes all at
 * once. A short rollout draws a few dozen words of a round, not 624. */
static void twister_make(Twister *t, int upto) {
    uint32_t *mt = t->mt, y;
    int kk = t->made;
    if (upto > 624) upto = 624;
    for (; kk < upto && kk < 624 - 397; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    for (; kk < upto && kk < 623; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    if (kk < upto) {
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        kk = 624;
    }
    t->made = kk;
}

static uint32_t twister_next(Twister *t) {
    uint32_t y;
    if (t->index >= 624) { /* a new round */
        t->index = 0;
        t->made = 0;
    }
    if (t->index >= t->made) twister_make(t, t->index + 16);
    y = t->mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

int below(Twister *t, int n) { /* randrange(n), n < 2**31 */
    int k = 0;
    while ((1 << k) <= n) k++;
    for (;;) {
        uint32_t r = twister_next(t) >> (32 - k);
        if ((int)r < n) return (int)r;
    }
}

/* init_by_array of CPython's _randommodule.c: what random.seed(a) does with
 * the 32-bit words of abs(a), least significant first. */
static uint32_t twister_base[624]; /* init_genrand(19650218): the same for every key */
static int twister_base_ready = 0;

void twister_seed(Twister *t, const uint32_t *key, int n) {
    uint32_t *mt = t->mt;
    if (!twister_base_ready) { /* under the GIL: filled once */
        twister_base[0] = 19650218U;
        for (int i = 1; i < 624; i++)
            twister_base[i] = 1812433253U * (twister_base[i - 1] ^ (twister_base[i - 1] >> 30)) + (uint32_t)i;
        twister_base_ready = 1;
    }
    memcpy(mt, twister_base, sizeof twister_base);
    /* CPython's two loops, with the wrap of i (back to 1, mt[0] = mt[623])
     * taken out of the loops: the first runs max(624, n) times from i = 1,
     * the second 623 times from where the first stopped. A key of one word
     * (any seed below 2**32: the usual) needs no index into it. */
    int i = 1, k = 624 > n ? 624 : n;
    if (n == 1) {
        uint32_t word = key[0];
        for (; i < 624; i++) mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + word;
        mt[0] = mt[623];
        mt[1] = (mt[1] ^ ((mt[0] ^ (mt[0] >> 30)) * 1664525U)) + word;
        i = 2;
    } else {
        int j = 0;
        for (; k; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
            i++;
            j++;
            if (i >= 624) { mt[0] = mt[623]; i = 1; }
            if (j >= n) j = 0;
        }
    }
    for (k = 623; k; k--) {
        int run = 624 - i < k ? 624 - i : k; /* up to the wrap */
        for (int end = i + run; i < end; i++)
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        k -= run - 1;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
    t->index = 624;
    t->made = 624;
}

/* A twister seeded from a tuple of 32-bit key words (ttr_core.native.engine.key_words). */
int twister_from_key(PyObject *words, Twister *t) {
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) < 1 || PyTuple_GET_SIZE(words) > 64) {
        PyErr_SetString(PyExc_ValueError, "a seed's key: a tuple of 1 to 64 32-bit words");
        return -1;
    }
    uint32_t key[64];
    int n = (int)PyTuple_GET_SIZE(words);
    for (int i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (PyErr_Occurred()) return -1;
        key[i] = (uint32_t)v;
    }
    twister_seed(t, key, n);
    return 0;
}

int twister_read(PyObject *state, Twister *t) {
    /* random.Random().getstate()[1]: 624 words and the index */
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 625) {
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister state: 625 ints");
        return -1;
    }
    for (int i = 0; i < 624; i++) t->mt[i] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
    long index = PyLong_AsLong(PyTuple_GET_ITEM(state, 624));
    if (PyErr_Occurred()) return -1;
    if (index < 0 || index > 624) { /* random.setstate's own range */
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister state's index: from 0 to 624");
        return -1;
    }
    t->index = (int)index;
    t->made = 624;
    return 0;
}

PyObject *twister_write(Twister *t) {
    if (t->index < 624) twister_make(t, 624); /* the whole round, as CPython holds it */
    PyObject *out = PyTuple_New(625);
    if (!out) return NULL;
    for (int i = 0; i < 624; i++) {
        PyObject *v = PyLong_FromUnsignedLong(t->mt[i]);
        if (!v) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, i, v);
    }
    PyObject *v = PyLong_FromLong(t->index);
    if (!v) { Py_DECREF(out); return NULL; }
    PyTuple_SET_ITEM(out, 624, v);
    return out;
}
