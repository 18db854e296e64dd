/* The compiled rules engine: the core rules of Ticket to Ride on compact state.
 *
 * One copy of the rules the Python kernel (ttr_core.rules.kernel) carries
 * out, for the games whose variants all have native rules
 * (ttr_core.native.support): the card supply with its display resets (E3,
 * E4), claims paid by action id, ticket draws and choices, the final round
 * and the stalemate (E1, E2, E8), and the end scoring the variants declare
 * (ttr_native_rules). The Python kernel is the reference: the differential
 * tests play both in lock step and compare every legal list and state.
 *
 * Two types. A Config is built once per board, player count and rule set
 * from plain Python values (ttr_core.native.config); a Game is one game's
 * state in a fixed-size struct (a clone is one memcpy), loaded from and
 * exported to plain Python tuples (ttr_core.native.game builds the frozen
 * GameState). Actions are the ids of ttr_core.action_space; the legal ids
 * are listed in the Python kernel's order. Shuffles call back into Python
 * (random.Random seeded as ttr_core.rules.kernel.work.shuffler seeds it),
 * so that both engines deal the same cards.
 */
#include "engine.h"

/* step_batch(games, actions, observations, masks, rewards, done, seats):
 * one action id per game (int64), every one checked first (ValueError naming
 * the first illegal one, nothing changed); then each carried out: a game
 * that goes on gets the observation of the seat now deciding, its mask and
 * that seat written at its row; a game that ends gets its zero-sum results
 * (ttr_core.utilities of the engine's winners) in its rewards row and done
 * set, the rest left for the caller (who deals it again). The buffers are
 * C-contiguous: float32 (games x layout size), uint8 (games x ids),
 * float32 (games x players), bool (games), int64 (games). Returns the list
 * of the games that ended. */
static PyObject *step_batch(PyObject *module, PyObject *args) {
    PyObject *games, *targets[6];
    if (!PyArg_ParseTuple(args, "O!OOOOOO", &PyTuple_Type, &games, &targets[0], &targets[1],
                          &targets[2], &targets[3], &targets[4], &targets[5]))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(games);
    if (count < 1) { PyErr_SetString(PyExc_ValueError, "no games"); return NULL; }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *g = PyTuple_GET_ITEM(games, i);
        if (!PyObject_TypeCheck(g, &GameType)) { PyErr_SetString(PyExc_TypeError, "not a Game"); return NULL; }
        if (check_usable((GameObject *)g) < 0) return NULL;
        if (((GameObject *)g)->config != ((GameObject *)PyTuple_GET_ITEM(games, 0))->config) {
            PyErr_SetString(PyExc_ValueError, "games of different configurations");
            return NULL;
        }
    }
    ConfigObject *c = ((GameObject *)PyTuple_GET_ITEM(games, 0))->config;
    if (!c->has_layout) { PyErr_SetString(PyExc_RuntimeError, "no observation layout set"); return NULL; }
    Py_buffer views[6];
    int got = 0;
    Py_ssize_t sizes[6] = {8 * count, 4 * count * c->obs_size, count * c->nids, 4 * count * c->players,
                           count, 8 * count};
    int itemsizes[6] = {8, 4, 1, 4, 1, 8};
    PyObject *ended = NULL;
    for (; got < 6; got++) {
        int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (got ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(targets[got], &views[got], flags) < 0) goto done;
        const char *format = views[got].format ? views[got].format : "B";
        char code = format[strlen(format) - 1];
        /* int64, float32, uint8, float32, bool, int64 */
        const char *codes[6] = {"qlLQ", "f", "Bb?", "f", "?Bb", "qlLQ"};
        if (views[got].len != sizes[got] || views[got].itemsize != itemsizes[got] ||
            !strchr(codes[got], code)) {
            got++;
            PyErr_Format(PyExc_ValueError, "buffer %d has the wrong size", got - 1);
            goto done;
        }
    }
    const int64_t *actions = views[0].buf;
    /* each game once: a mark set, checked and cleared */
    for (Py_ssize_t i = 0; i < count; i++) {
        GameObject *g = (GameObject *)PyTuple_GET_ITEM(games, i);
        if (g->marked) {
            for (Py_ssize_t j = 0; j < i; j++) ((GameObject *)PyTuple_GET_ITEM(games, j))->marked = 0;
            PyErr_SetString(PyExc_ValueError, "a game twice in the batch");
            goto done;
        }
        g->marked = 1;
    }
    for (Py_ssize_t i = 0; i < count; i++) ((GameObject *)PyTuple_GET_ITEM(games, i))->marked = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        GameObject *g = (GameObject *)PyTuple_GET_ITEM(games, i);
        if (g->s.nlegal < 0) list_legal(g);
        int64_t id = actions[i];
        if (id < 0 || id > INT32_MAX || !is_legal(g, (int)id)) {
            PyErr_Format(PyExc_ValueError, "action id %lld is not legal in game %zd", (long long)id, i);
            goto done;
        }
    }
    ended = PyList_New(0);
    if (!ended) goto done;
    float *obs = views[1].buf, *rewards = views[3].buf;
    unsigned char *masks = views[2].buf, *finished = views[4].buf;
    int64_t *seats = views[5].buf;
    memset(rewards, 0, sizeof(float) * count * c->players);
    memset(finished, 0, (size_t)count);
    for (Py_ssize_t i = 0; i < count; i++) {
        GameObject *g = (GameObject *)PyTuple_GET_ITEM(games, i);
        if (apply_id(g, (int)actions[i]) < 0) {
            g->broken = 1;
            Py_CLEAR(ended);
            goto done;
        }
        if (g->s.kind == K_NONE) {
            int totals[MAXP], completed[MAXP], won[MAXP], winners = 0;
            score(g, totals, completed, won);
            for (int p = 0; p < c->players; p++) winners += won[p];
            double share = winners ? (double)c->players / winners : 0.0;
            for (int p = 0; p < c->players; p++)
                rewards[i * c->players + p] =
                    (float)(((won[p] ? share : 0.0) - 1.0) / (c->players - 1));
            finished[i] = 1;
            PyObject *v = PyLong_FromSsize_t(i);
            if (!v || PyList_Append(ended, v) < 0) { Py_XDECREF(v); Py_CLEAR(ended); goto done; }
            Py_DECREF(v);
            continue;
        }
        int seat = g->s.player;
        seats[i] = seat;
        write_observation(g, seat, obs + i * c->obs_size);
        if (g->s.nlegal < 0) list_legal(g);
        unsigned char *mask = masks + i * c->nids;
        memset(mask, 0, (size_t)c->nids);
        for (int k = 0; k < g->s.nlegal; k++) mask[g->legal[k]] = 1;
    }
done:
    for (int k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    return ended;
}

/* sha512(data): the engine's SHA-512 of a bytes object (what its shuffles seed
 * from; the tests compare it with hashlib's). */
static PyObject *sha512_digest(PyObject *module, PyObject *data) {
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "sha512 takes bytes");
        return NULL;
    }
    unsigned char out[64];
    ttr_sha512((const unsigned char *)PyBytes_AS_STRING(data), (size_t)PyBytes_GET_SIZE(data), out);
    return PyBytes_FromStringAndSize((const char *)out, 64);
}

static PyMethodDef engine_functions[] = {
    {"step_batch", (PyCFunction)step_batch, METH_VARARGS, "Step many games by action ids."},
    {"sha512", (PyCFunction)sha512_digest, METH_O, "The engine's SHA-512 of bytes."},
    {NULL},
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT, "_engine", "The compiled rules engine of ttr-core.", -1, engine_functions,
};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&ConfigType) < 0 || PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&engine_module);
    if (!m) return NULL;
    /* VIEWS: the variants' numbers an observation can show, VW_* 1 first */
    PyObject *views = PyTuple_New(VW_COUNT - 1);
    if (!views) { Py_DECREF(m); return NULL; }
    for (int i = 1; i < VW_COUNT; i++) {
        PyObject *name = PyUnicode_FromString(VIEW_NAMES[i]);
        if (!name) { Py_DECREF(views); Py_DECREF(m); return NULL; }
        PyTuple_SET_ITEM(views, i - 1, name);
    }
    if (PyModule_AddObject(m, "VIEWS", views) < 0) { Py_DECREF(views); Py_DECREF(m); return NULL; }
    Py_INCREF(&ConfigType);
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Config", (PyObject *)&ConfigType) < 0 ||
        PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddIntConstant(m, "ABI", 4) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
