/* The Game type: one game's state, loaded, exported, played by action ids. */
#include "engine.h"

/* ---------------------------------------------------------------- Game */

int check_usable(GameObject *g) {
    if (g->config == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the game was not initialised");
        return -1;
    }
    if (g->broken) {
        PyErr_SetString(PyExc_RuntimeError, "this game is unusable: a shuffle failed midway");
        return -1;
    }
    return 0;
}

static void game_dealloc(GameObject *self) {
    PyMem_Free(self->legal);
    Py_XDECREF(self->config);
    Py_XDECREF(self->shuffle);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int game_init(GameObject *self, PyObject *args, PyObject *kw) {
    PyObject *config, *shuffle;
    if (!PyArg_ParseTuple(args, "O!O", &ConfigType, &config, &shuffle)) return -1;
    int32_t *legal = PyMem_Malloc(sizeof(int32_t) * ((ConfigObject *)config)->nids);
    if (!legal) {
        PyErr_NoMemory();
        return -1;
    }
    PyMem_Free(self->legal);
    self->legal = legal;
    ((ConfigObject *)config)->used = 1;
    Py_INCREF(config);
    Py_XSETREF(self->config, (ConfigObject *)config);
    Py_INCREF(shuffle);
    Py_XSETREF(self->shuffle, shuffle);
    memset(&self->s, 0, sizeof self->s);
    self->s.kind = K_NONE;
    self->s.nlegal = -1;
    return 0;
}

static int fill_u8(PyObject *seq, uint8_t *out, int most, int *n) {
    long buf[MAXCARDS];
    Py_ssize_t m;
    if (most > MAXCARDS || read_ints(seq, buf, most, &m) < 0) return -1;
    for (Py_ssize_t i = 0; i < m; i++) {
        if (buf[i] < 0 || buf[i] > 255) { PyErr_SetString(PyExc_ValueError, "a value out of range"); return -1; }
        out[i] = (uint8_t)buf[i];
    }
    *n = (int)m;
    return 0;
}

static int fill_u16(PyObject *seq, uint16_t *out, int most, int *n) {
    long buf[2 * MAXT];
    Py_ssize_t m;
    if (most > 2 * MAXT || read_ints(seq, buf, most, &m) < 0) return -1;
    for (Py_ssize_t i = 0; i < m; i++) {
        if (buf[i] < 0 || buf[i] > 65535) { PyErr_SetString(PyExc_ValueError, "a value out of range"); return -1; }
        out[i] = (uint16_t)buf[i];
    }
    *n = (int)m;
    return 0;
}

/* What makes `s` (every value within the engine's ranges) a state no game of
 * c's rules reaches, or NULL: the loader's check, so that a state from outside
 * (a frozen GameState anybody may build) is refused before it is played. */
static const char *unreached(const ConfigObject *c, const State *s) {
    int choosing = s->kind == K_KEEP || s->kind == K_START;
    if (choosing && !(s->noffered >= 1 && s->noffered <= c->keep_bits))
        return "a ticket offer of another size than the map deals";
    if (!choosing && (s->noffered || s->min_keep)) return "tickets on offer outside a ticket choice";
    if (s->nstart_offers) {
        if (s->kind != K_START) return "starting offers outside the starting choice";
        if (s->player + s->nstart_offers >= c->players)
            return "starting offers for seats the game does not have";
        for (int k = 0; k < s->nstart_offers; k++)
            if (s->start_offer_n[k] < 1 || s->start_offer_n[k] > c->keep_bits)
                return "starting offers for seats the game does not have";
    }
    /* every card once: each kind as many as the game has */
    int held[MAXK] = {0};
    for (int i = 0; i < s->deck_len; i++) held[s->deck[i]]++;
    for (int i = 0; i < c->slots; i++)
        if (s->display[i] >= 0) held[s->display[i]]++;
    for (int k = 0; k < c->kinds; k++) {
        held[k] += s->discard[k];
        for (int p = 0; p < c->players; p++) held[k] += s->seats[p].counts[k];
        if (held[k] != c->deck_counts[k]) return "cards that are not the game's, each once";
    }
    /* every ticket at most once */
    uint8_t seen[MAXT] = {0};
    int dup = 0;
#define SEEN(t) (dup |= seen[(t)], seen[(t)] = 1)
    for (int i = 0; i < s->tdeck_len; i++) SEEN(s->tdeck[i]);
    for (int i = 0; i < s->tpile_len; i++) SEEN(s->tpile[i]);
    for (int i = 0; i < s->boxed_len; i++) SEEN(s->boxed[i]);
    for (int i = 0; i < s->noffered; i++) SEEN(s->offered[i]);
    for (int k = 0; k < s->nstart_offers; k++)
        for (int i = 0; i < s->start_offer_n[k]; i++) SEEN(s->start_offers[k][i]);
    for (int p = 0; p < c->players; p++)
        for (int i = 0; i < s->seats[p].ntickets; i++) SEEN(s->seats[p].tickets[i]);
#undef SEEN
    if (dup) return "tickets that are not the game's, each at most once";
    /* a seat's routes its own, each once; every route of a seat in its list
     * (the neutral owner's, numbered after the seats, are no seat's) */
    int listed = 0, owned = 0;
    for (int p = 0; p < c->players; p++) {
        const SeatState *seat = &s->seats[p];
        uint8_t mine[MAXR] = {0};
        for (int i = 0; i < seat->nroutes; i++) {
            int r = seat->routes[i];
            if (mine[r] || s->owners[r] != p) return "a seat's routes that are not its own";
            mine[r] = 1;
        }
        listed += seat->nroutes;
    }
    for (int r = 0; r < c->nroutes; r++) owned += s->owners[r] >= 0 && s->owners[r] < c->players;
    if (owned != listed) return "routes owned by no seat's list";
    return NULL;
}

/* load(core, seats, play): the state as ttr_core.native.engine.load writes it. */
static PyObject *game_load(GameObject *self, PyObject *args) {
    PyObject *core, *seats, *play;
    if (!PyArg_ParseTuple(args, "OOO", &core, &seats, &play)) return NULL;
    if (self->config == NULL) return check_usable(self), NULL;
    ConfigObject *c = self->config;
    State s;
    memset(&s, 0, sizeof s);
    int n;
    PyObject *item = NULL;
#define FIELD(i) (Py_XDECREF(item), item = PySequence_GetItem(core, (i)))
    /* 0 deck, 1 display, 2 discard, 3 ticket deck, 4 ticket pile, 5 owners, 6 boxed,
     * 7 kind, 8 player, 9 offered, 10 min_keep, 11 start offers,
     * 12 final_turns, 13 passes, 14 turn, 15 shuffles, 16 termination, 17 ply */
    if (!FIELD(0) || fill_u8(item, s.deck, MAXCARDS, &n) < 0) goto fail;
    s.deck_len = (int16_t)n;
    long buf[MAXR];
    Py_ssize_t m;
    if (!FIELD(1) || read_ints(item, buf, MAXS, &m) < 0 || m != c->slots) goto bad;
    for (int i = 0; i < m; i++) s.display[i] = (int8_t)buf[i];
    if (!FIELD(2) || read_ints(item, buf, MAXK, &m) < 0 || m != c->kinds) goto bad;
    for (int i = 0; i < m; i++) s.discard[i] = (int16_t)buf[i];
    if (!FIELD(3) || fill_u16(item, s.tdeck, MAXT, &n) < 0) goto fail;
    s.tdeck_len = (int16_t)n;
    if (!FIELD(4) || fill_u16(item, s.tpile, MAXT, &n) < 0) goto fail;
    s.tpile_len = (int16_t)n;
    if (!FIELD(5) || read_ints(item, buf, MAXR, &m) < 0 || m != c->nroutes) goto bad;
    for (int i = 0; i < m; i++) s.owners[i] = (int16_t)buf[i];
    if (!FIELD(6) || fill_u16(item, s.boxed, MAXT, &n) < 0) goto fail;
    s.boxed_len = (int16_t)n;
    long v;
    /* small numbers checked before they are narrowed (256 is no seat, not seat 0) */
    if (!FIELD(7) || (v = PyLong_AsLong(item), PyErr_Occurred())) goto fail;
    if (v < K_TURN || v > K_CHOOSE) goto bad;
    s.kind = (int8_t)v;
    if (!FIELD(8) || (v = PyLong_AsLong(item), PyErr_Occurred())) goto fail;
    if (v < 0 || v >= c->players) {
        PyErr_SetString(PyExc_ValueError, "the decision is no seat's");
        goto fail;
    }
    s.player = (int8_t)v;
    if (!FIELD(9) || fill_u16(item, s.offered, MAXOFFER, &n) < 0) goto fail;
    s.noffered = (int8_t)n;
    if (!FIELD(10) || (v = PyLong_AsLong(item), PyErr_Occurred())) goto fail;
    if (v < 0 || v > MAXOFFER) goto bad;
    s.min_keep = (int8_t)v;
    if (!FIELD(11)) goto fail;
    {
        Py_ssize_t k = PySequence_Size(item);
        if (k < 0 || k > MAXP) goto bad;
        s.nstart_offers = (int8_t)k;
        for (Py_ssize_t i = 0; i < k; i++) {
            PyObject *offer = PySequence_GetItem(item, i);
            int got = offer ? fill_u16(offer, s.start_offers[i], MAXOFFER, &n) : -1;
            Py_XDECREF(offer);
            if (got < 0) goto fail;
            s.start_offer_n[i] = (int8_t)n;
        }
    }
    int32_t *ints[6] = {&s.final_turns, &s.passes, &s.turn, &s.shuffles, NULL, &s.ply};
    for (int i = 0; i < 6; i++) {
        if (!FIELD(12 + i) || (v = PyLong_AsLong(item), PyErr_Occurred())) goto fail;
        if (v <= -(1L << 30) || v >= (1L << 30)) {
            PyErr_SetString(PyExc_ValueError, "counters beyond the engine's numbers");
            goto fail;
        }
        if (ints[i]) *ints[i] = (int32_t)v;
        else if (v < END_NONE || v > END_STALEMATE) goto bad;
        else s.termination = (int8_t)v;
    }
    Py_CLEAR(item);
    Py_ssize_t np = PySequence_Size(seats);
    if (np != c->players) goto bad;
    for (Py_ssize_t p = 0; p < np; p++) {
        /* (counts, known, cars, score, tickets, routes) */
        PyObject *seat = PySequence_GetItem(seats, p);
        if (!seat) goto fail;
        SeatState *out = &s.seats[p];
        int ok = 1;
        PyObject *f = PySequence_GetItem(seat, 0);
        ok = f && read_ints(f, buf, MAXK, &m) == 0 && m == c->kinds;
        for (int i = 0; ok && i < m; i++) { ok = buf[i] >= 0 && buf[i] < 256; out->counts[i] = (uint8_t)buf[i]; }
        Py_XDECREF(f);
        f = ok ? PySequence_GetItem(seat, 1) : NULL;
        ok = f && read_ints(f, buf, MAXK, &m) == 0 && (m == c->kinds || m == 0);
        for (int i = 0; ok && i < m; i++) { ok = buf[i] >= 0 && buf[i] < 256; out->known[i] = (uint8_t)buf[i]; }
        Py_XDECREF(f);
        long cars = 0, sc = 0;
        ok = ok && get_int(seat, 2, &cars) == 0 && get_int(seat, 3, &sc) == 0;
        if (ok && (cars < 0 || cars > 32767 || sc <= -(1L << 30) || sc >= (1L << 30))) {
            PyErr_SetString(PyExc_ValueError, "cars or a score beyond the engine's numbers");
            ok = 0;
        }
        out->cars = (int16_t)cars;
        out->score = (int32_t)sc;
        f = ok ? PySequence_GetItem(seat, 4) : NULL;
        ok = f && fill_u16(f, out->tickets, MAXT, &n) == 0;
        out->ntickets = (int16_t)n;
        Py_XDECREF(f);
        f = ok ? PySequence_GetItem(seat, 5) : NULL;
        ok = f && fill_u8(f, out->routes, MAXHELD, &n) == 0;
        out->nroutes = (int16_t)n;
        Py_XDECREF(f);
        Py_DECREF(seat);
        if (!ok) goto bad;
    }
    /* every value within what the engine holds (a sound state's are) */
    int ok = s.kind >= K_TURN && s.kind <= K_CHOOSE && s.player >= 0 && s.player < c->players &&
             s.termination >= END_NONE && s.termination <= END_STALEMATE &&
             s.min_keep >= 0 && s.min_keep <= s.noffered && s.deck_len + c->slots <= MAXCARDS;
    for (int i = 0; ok && i < s.deck_len; i++) ok = s.deck[i] < c->kinds;
    for (int i = 0; ok && i < c->slots; i++) ok = s.display[i] >= -1 && s.display[i] < c->kinds;
    for (int i = 0; ok && i < c->kinds; i++) ok = s.discard[i] >= 0;
    for (int i = 0; ok && i < c->nroutes; i++) /* a seat, or the neutral owner */
        ok = s.owners[i] >= -1 && s.owners[i] < c->players + c->has_neutral;
    for (int i = 0; ok && i < s.tdeck_len; i++) ok = s.tdeck[i] < c->ntickets;
    for (int i = 0; ok && i < s.tpile_len; i++) ok = s.tpile[i] < c->ntickets;
    for (int i = 0; ok && i < s.boxed_len; i++) ok = s.boxed[i] < c->ntickets;
    for (int i = 0; ok && i < s.noffered; i++) ok = s.offered[i] < c->ntickets;
    for (int k = 0; ok && k < s.nstart_offers; k++)
        for (int i = 0; ok && i < s.start_offer_n[k]; i++) ok = s.start_offers[k][i] < c->ntickets;
    for (int p = 0; ok && p < c->players; p++) {
        SeatState *seat = &s.seats[p];
        for (int i = 0; ok && i < seat->ntickets; i++) ok = seat->tickets[i] < c->ntickets;
        for (int i = 0; ok && i < seat->nroutes; i++) ok = seat->routes[i] < c->nroutes;
    }
    if (!ok) goto bad;
    const char *why = unreached(c, &s);
    if (why) {
        PyErr_SetString(PyExc_ValueError, why);
        goto fail;
    }
    if (load_play(c, &s, play) < 0) goto fail;
    owner_masks(c, &s);
    s.nlegal = -1;
    self->s = s;
    self->broken = 0;
    Py_RETURN_NONE;
bad:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a state the native engine cannot hold");
fail:
    Py_XDECREF(item);
    return NULL;
#undef FIELD
}

PyObject *ints_tuple_u8(const uint8_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

PyObject *ints_tuple_u16(const uint16_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

PyObject *ints_tuple_i8(const int8_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

PyObject *ints_tuple_i32(const int32_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

PyObject *ints_tuple_i16(const int16_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

/* export(): (core, seats) in load's layout; the display's empty slots are -1. */
static PyObject *game_export(GameObject *self, PyObject *unused) {
    if (check_usable(self) < 0) return NULL;
    State *s = &self->s;
    ConfigObject *c = self->config;
    int16_t display[MAXS];
    for (int i = 0; i < c->slots; i++) display[i] = s->display[i];
    PyObject *offers = PyTuple_New(s->nstart_offers - s->start_offer_at);
    if (!offers) return NULL;
    for (int i = s->start_offer_at; i < s->nstart_offers; i++)
        PyTuple_SET_ITEM(offers, i - s->start_offer_at, ints_tuple_u16(s->start_offers[i], s->start_offer_n[i]));
    PyObject *core = Py_BuildValue(
        "(NNNNNNNiiNiNiiiiii)",
        ints_tuple_u8(s->deck + s->deck_head, s->deck_len),
        ints_tuple_i16(display, c->slots),
        ints_tuple_i16(s->discard, c->kinds),
        ints_tuple_u16(s->tdeck + s->tdeck_head, s->tdeck_len),
        ints_tuple_u16(s->tpile, s->tpile_len),
        ints_tuple_i16(s->owners, c->nroutes),
        ints_tuple_u16(s->boxed, s->boxed_len),
        (int)s->kind, (int)s->player,
        ints_tuple_u16(s->offered, s->noffered), (int)s->min_keep,
        offers,
        s->final_turns, s->passes, s->turn, s->shuffles, (int)s->termination, s->ply);
    if (!core) return NULL;
    PyObject *seats = PyTuple_New(c->players);
    if (!seats) { Py_DECREF(core); return NULL; }
    for (int p = 0; p < c->players; p++) {
        SeatState *seat = &s->seats[p];
        int any = 0;
        for (int k = 0; k < c->kinds; k++) any |= seat->known[k];
        PyObject *one = Py_BuildValue(
            "(NNiiNN)", ints_tuple_u8(seat->counts, c->kinds),
            any ? ints_tuple_u8(seat->known, c->kinds) : PyTuple_New(0), (int)seat->cars,
            (int)seat->score, ints_tuple_u16(seat->tickets, seat->ntickets),
            ints_tuple_u8(seat->routes, seat->nroutes));
        if (!one) { Py_DECREF(core); Py_DECREF(seats); return NULL; }
        PyTuple_SET_ITEM(seats, p, one);
    }
    PyObject *play = export_play(c, s);
    if (!play) {
        Py_DECREF(core);
        Py_DECREF(seats);
        return NULL;
    }
    return Py_BuildValue("(NNN)", core, seats, play);
}

static PyObject *legal_tuple(GameObject *g) {
    PyObject *t = PyTuple_New(g->s.nlegal);
    if (!t) return NULL;
    for (int i = 0; i < g->s.nlegal; i++) {
        PyObject *v = PyLong_FromLong(g->legal[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *game_legal(GameObject *self, PyObject *unused) {
    if (check_usable(self) < 0) return NULL;
    if (self->s.nlegal < 0) list_legal(self);
    return legal_tuple(self);
}

static int compare_ids(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* legal_sorted(): the legal ids in increasing order, a new list (OpenSpiel's order). */
static PyObject *game_legal_sorted(GameObject *self, PyObject *unused) {
    if (check_usable(self) < 0) return NULL;
    if (self->s.nlegal < 0) list_legal(self);
    int n = self->s.nlegal;
    int32_t *ids = PyMem_Malloc(sizeof(int32_t) * (n ? n : 1));
    if (!ids) return PyErr_NoMemory();
    memcpy(ids, self->legal, sizeof(int32_t) * n);
    /* short lists (the usual) by insertion: the kernel's order is nearly sorted */
    if (n > 64) qsort(ids, (size_t)n, sizeof(int32_t), compare_ids);
    else
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
                int32_t x = ids[j];
                ids[j] = ids[j - 1];
                ids[j - 1] = x;
            }
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *v = PyLong_FromLong(ids[i]);
        if (!v) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, v);
    }
    PyMem_Free(ids);
    return out;
}

static PyObject *game_mask(GameObject *self, PyObject *arg) {
    /* mask(buffer): write 1 at each legal id of a writable byte buffer of `size` bytes */
    Py_buffer view;
    if (check_usable(self) < 0) return NULL;
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (view.len < self->config->nids || view.itemsize != 1) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the mask needs one byte per action id");
        return NULL;
    }
    if (self->s.nlegal < 0) list_legal(self);
    char *out = view.buf;
    memset(out, 0, self->config->nids);
    for (int i = 0; i < self->s.nlegal; i++) out[self->legal[i]] = 1;
    PyBuffer_Release(&view);
    return PyLong_FromLong(self->s.nlegal);
}

/* observe(seat, buffer): seat's observation vector, as
 * ttr_core.ObservationEncoder.encode_state writes it (number for number, as
 * 32-bit floats), into a writable float32 buffer of the layout's size. */
static PyObject *game_observe(GameObject *self, PyObject *args) {
    int seat;
    PyObject *target;
    if (!PyArg_ParseTuple(args, "iO", &seat, &target)) return NULL;
    if (check_usable(self) < 0) return NULL;
    ConfigObject *c = self->config;
    if (!c->has_layout) { PyErr_SetString(PyExc_RuntimeError, "no observation layout set"); return NULL; }
    if (seat < 0 || seat >= c->players) { PyErr_SetString(PyExc_ValueError, "not a seat"); return NULL; }
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (view.itemsize != 4 || view.len != (Py_ssize_t)4 * c->obs_size ||
        (view.format && strcmp(view.format, "f") != 0 && strcmp(view.format, "<f") != 0 &&
         strcmp(view.format, "=f") != 0)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the observation needs a float32 buffer of the layout's size");
        return NULL;
    }
    write_observation(self, seat, (float *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* deal(shuffle): a new game, as new_game deals it, for the seed whose shuffle
 * seeds `shuffle` gives (it becomes the game's). */
static PyObject *game_deal(GameObject *self, PyObject *shuffle) {
    ConfigObject *c = self->config;
    if (c == NULL || !c->has_deal) {
        PyErr_SetString(PyExc_RuntimeError, "no deal set");
        return NULL;
    }
    Py_INCREF(shuffle);
    Py_XSETREF(self->shuffle, shuffle);
    State *s = &self->s;
    memset(s, 0, sizeof *s);
    self->broken = 1; /* until the deal is whole */
    int cards[MAXCARDS], n = 0;
    for (int k = 0; k < c->kinds; k++)
        for (int i = 0; i < c->deck_counts[k]; i++) cards[n++] = k;
    if (shuffle_ints(self, cards, n) < 0) return NULL;
    int at = 0;
    for (int r = 0; r < c->starting_hand; r++)
        for (int p = 0; p < c->players; p++) s->seats[p].counts[cards[at++]]++;
    for (int i = 0; i < c->slots; i++) s->display[i] = (int8_t)cards[at++];
    for (int i = at; i < n; i++) s->deck[i - at] = (uint8_t)cards[i];
    s->deck_len = (int16_t)(n - at);
    int tickets[MAXT];
    for (int i = 0; i < c->ntickets; i++) tickets[i] = i;
    if (shuffle_ints(self, tickets, c->ntickets) < 0) return NULL;
    int next = 0;
    for (int p = 0; p < c->players; p++) {
        int got = c->ntickets - next < c->start_dealt ? c->ntickets - next : c->start_dealt;
        uint16_t *offer = p == 0 ? s->offered : s->start_offers[p - 1];
        for (int i = 0; i < got; i++) offer[i] = (uint16_t)tickets[next++];
        if (p == 0) s->noffered = (int8_t)got;
        else s->start_offer_n[p - 1] = (int8_t)got;
    }
    s->nstart_offers = (int8_t)(c->players - 1);
    for (int i = next; i < c->ntickets; i++) s->tdeck[i - next] = (uint16_t)tickets[i];
    s->tdeck_len = (int16_t)(c->ntickets - next);
    for (int p = 0; p < c->players; p++) {
        s->seats[p].cars = (int16_t)c->cars_per_player;
        s->seats[p].score = c->start_scores[p];
    }
    for (int r = 0; r < c->nroutes; r++) s->owners[r] = -1;
    s->kind = K_START;
    s->player = 0;
    s->min_keep = (int8_t)(c->start_keep < s->noffered ? c->start_keep : s->noffered);
    s->final_turns = -1;
    s->n_revealed = -1;
    owner_masks(c, s);
    self->broken = 0;
    if (count_wilds(self) > c->max_wilds && check_wilds(self) < 0) {
        self->broken = 1;
        return NULL;
    }
    s->nlegal = -1;
    Py_RETURN_NONE;
}

/* peek(seat): (the display, seat's hand, the tickets on offer, the seat
 * deciding or None) - what an adapter's record of a move reads. */
static PyObject *game_peek(GameObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (check_usable(self) < 0) return NULL;
    if (seat < 0 || seat >= self->config->players) {
        PyErr_SetString(PyExc_ValueError, "not a seat");
        return NULL;
    }
    State *s = &self->s;
    int16_t display[MAXS];
    for (int i = 0; i < self->config->slots; i++) display[i] = s->display[i];
    PyObject *shown = PyTuple_New(self->config->slots);
    if (!shown) return NULL;
    for (int i = 0; i < self->config->slots; i++) {
        PyObject *v = display[i] < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(display[i]);
        if (!v) { Py_DECREF(shown); return NULL; }
        PyTuple_SET_ITEM(shown, i, v);
    }
    int keep = s->kind == K_KEEP || s->kind == K_START;
    PyObject *deciding = s->kind == K_NONE ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(s->player);
    return Py_BuildValue("(NNNN)", shown, ints_tuple_u8(s->seats[seat].counts, self->config->kinds),
                         ints_tuple_u16(s->offered, keep ? s->noffered : 0), deciding);
}

/* record(id): carry out the legal action id `id`, as apply does, and return
 * what a record of the move needs: (seat, kind, fact, display), kind 0 blind
 * (fact: the card drawn, or -1), 1 face up (the card taken), 2 tickets (the
 * tickets offered, as the seat sees them), 3 pass, 4 claim (None), 5 keep
 * ((the offer, the tickets kept, sorted)), 6 a variant's action (None); display: the display after it if
 * the action changed it (-1: an empty slot), else None. */
static PyObject *game_record(GameObject *self, PyObject *arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    if (check_usable(self) < 0) return NULL;
    State *s = &self->s;
    ConfigObject *c = self->config;
    if (s->nlegal < 0) list_legal(self);
    if (id < 0 || id > INT32_MAX || !is_legal(self, (int)id)) {
        PyErr_Format(PyExc_ValueError, "action id %ld is not legal here", id);
        return NULL;
    }
    int seat = s->player, was = s->kind;
    int8_t display[MAXS];
    uint8_t counts[MAXK];
    uint16_t offered[MAXOFFER];
    int noffered = s->noffered;
    memcpy(display, s->display, sizeof display);
    memcpy(counts, s->seats[seat].counts, sizeof counts);
    memcpy(offered, s->offered, sizeof offered);
    if (apply_id(self, (int)id) < 0) {
        self->broken = 1;
        return NULL;
    }
    PyObject *fact;
    int kind;
    if (was == K_KEEP || was == K_START) {
        kind = 5;
        int mask = (int)id - c->keep_base, nkept = 0;
        uint16_t kept[MAXOFFER];
        for (int i = 0; i < noffered; i++)
            if (mask >> i & 1) kept[nkept++] = offered[i];
        for (int i = 1; i < nkept; i++) /* sorted */
            for (int j = i; j > 0 && kept[j - 1] > kept[j]; j--) {
                uint16_t x = kept[j];
                kept[j] = kept[j - 1];
                kept[j - 1] = x;
            }
        fact = Py_BuildValue("(NN)", ints_tuple_u16(offered, noffered), ints_tuple_u16(kept, nkept));
    } else if (id >= c->core_ids) {
        kind = 6;
        fact = (Py_INCREF(Py_None), Py_None);
    } else if (id == 0) {
        kind = 0;
        int drawn = -1;
        for (int k = 0; k < c->kinds; k++)
            if (s->seats[seat].counts[k] > counts[k]) { drawn = k; break; }
        fact = PyLong_FromLong(drawn);
    } else if (id <= c->slots) {
        kind = 1;
        fact = PyLong_FromLong(display[id - 1]);
    } else if (id == c->slots + 1) {
        kind = 2;
        int mine = (s->kind == K_KEEP || s->kind == K_START) && s->player == seat;
        fact = ints_tuple_u16(s->offered, mine ? s->noffered : 0);
    } else if (id == c->slots + 2) {
        kind = 3;
        fact = (Py_INCREF(Py_None), Py_None);
    } else {
        kind = 4;
        fact = (Py_INCREF(Py_None), Py_None);
    }
    if (!fact) return NULL;
    PyObject *after;
    if (memcmp(display, s->display, (size_t)c->slots) == 0) {
        after = (Py_INCREF(Py_None), Py_None);
    } else {
        int16_t now[MAXS];
        for (int i = 0; i < c->slots; i++) now[i] = s->display[i];
        after = ints_tuple_i16(now, c->slots);
        if (!after) { Py_DECREF(fact); return NULL; }
    }
    /* the seat to decide now, -1 once the game is over */
    PyObject *out = PyTuple_New(5), *who = PyLong_FromLong(seat), *what = PyLong_FromLong(kind);
    PyObject *next = PyLong_FromLong(s->kind == K_NONE ? -1 : s->player);
    if (!out || !who || !what || !next) {
        Py_XDECREF(out); Py_XDECREF(who); Py_XDECREF(what); Py_XDECREF(next);
        Py_DECREF(fact); Py_DECREF(after);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, who);
    PyTuple_SET_ITEM(out, 1, what);
    PyTuple_SET_ITEM(out, 2, fact);
    PyTuple_SET_ITEM(out, 3, after);
    PyTuple_SET_ITEM(out, 4, next);
    return out;
}

static PyObject *game_apply(GameObject *self, PyObject *arg) {
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    if (check_usable(self) < 0) return NULL;
    State *s = &self->s;
    if (s->nlegal < 0) list_legal(self);
    if (id < 0 || id > INT32_MAX || !is_legal(self, (int)id)) {
        PyErr_Format(PyExc_ValueError, "action id %ld is not legal here", id);
        return NULL;
    }
    if (apply_id(self, (int)id) < 0) {
        self->broken = 1; /* as the Python playout: unusable after a failure midway */
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *game_clone(GameObject *self, PyObject *unused) {
    if (check_usable(self) < 0) return NULL;
    GameObject *twin = PyObject_New(GameObject, &GameType);
    if (!twin) return NULL;
    /* PyObject_New leaves the fields as they were: each set before any use */
    twin->config = NULL;
    twin->shuffle = NULL;
    twin->marked = 0; /* not in a batch being checked (step_batch) */
    twin->legal = PyMem_Malloc(sizeof(int32_t) * self->config->nids);
    if (!twin->legal) {
        Py_DECREF(twin);
        return PyErr_NoMemory();
    }
    Py_INCREF(self->config);
    twin->config = self->config;
    Py_INCREF(self->shuffle);
    twin->shuffle = self->shuffle;
    twin->broken = self->broken;
    memcpy(&twin->s, &self->s, sizeof(State));
    twin->s.nlegal = -1;
    return (PyObject *)twin;
}

static PyObject *game_scores(GameObject *self, PyObject *unused) {
    int totals[MAXP], completed[MAXP], won[MAXP];
    if (check_usable(self) < 0) return NULL;
    if (self->s.termination == END_NONE) {
        PyErr_SetString(PyExc_ValueError, "the game is not over");
        return NULL;
    }
    score(self, totals, completed, won);
    int n = self->config->players;
    PyObject *t = PyTuple_New(n), *d = PyTuple_New(n), *w = PyList_New(0);
    if (!t || !d || !w) { Py_XDECREF(t); Py_XDECREF(d); Py_XDECREF(w); return NULL; }
    for (int p = 0; p < n; p++) {
        PyTuple_SET_ITEM(t, p, PyLong_FromLong(totals[p]));
        PyTuple_SET_ITEM(d, p, PyLong_FromLong(completed[p]));
        if (won[p]) {
            PyObject *v = PyLong_FromLong(p);
            PyList_Append(w, v);
            Py_DECREF(v);
        }
    }
    PyObject *wt = PyList_AsTuple(w);
    Py_DECREF(w);
    return Py_BuildValue("(NNN)", t, d, wt);
}

/* returns(): each seat's zero-sum result, as ttr_core.utilities gives it for the
 * engine's own winners (the same floating-point steps); zeros before the end. */
static PyObject *game_returns(GameObject *self, PyObject *unused) {
    int totals[MAXP], completed[MAXP], won[MAXP];
    if (check_usable(self) < 0) return NULL;
    int n = self->config->players, winners = 0, over = self->s.termination != END_NONE;
    if (over) {
        score(self, totals, completed, won);
        for (int p = 0; p < n; p++) winners += won[p] != 0;
    }
    double share = winners ? (double)n / winners : 0.0;
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int p = 0; p < n; p++) {
        double value = over ? ((won[p] ? share : 0.0) - 1.0) / (n - 1) : 0.0;
        PyObject *v = PyFloat_FromDouble(value);
        if (!v) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, p, v);
    }
    return out;
}

/* The loopholes play_agents counts per decision, in ttr_core.simulation's order of
 * LOOPHOLES: only_pass, e3_guard, deck_empty, supply_empty, tickets_empty. */
#define NLOOPHOLES 5

static void count_loopholes(GameObject *self, long *seen) {
    State *s = &self->s;
    ConfigObject *c = self->config;
    if (s->nlegal == 1 && self->legal[0] == c->slots + 2) seen[0]++; /* only Pass */
    int wilds = 0;
    for (int i = 0; i < c->slots; i++) wilds += s->display[i] == c->wild;
    if (wilds > c->max_wilds) seen[1]++;
    if (s->deck_len == 0) {
        seen[2]++;
        int any = 0;
        for (int k = 0; k < c->kinds; k++) any |= s->discard[k];
        if (!any) seen[3]++;
    }
    if (s->tdeck_len == 0 && s->tpile_len == 0) seen[4]++;
}

/* Random choices, as random_playout makes them with `t`, until the game ends
 * or `most` actions were applied; the actions applied, or -1 with an
 * exception set. With `per_seat`, t[seat] makes the choices of each seat (a
 * simulation's agents), and `seen` (unless NULL) counts each decision's
 * loopholes. With `record`, each action goes to *buf (grown as needed) as
 * id << 3 | seat, and the offer of each ticket choice to `offers`. */
static long play_loop(GameObject *self, Twister *t, int per_seat, long *seen, long most,
                      int record, int32_t **buf, long *cap, PyObject *offers) {
    State *s = &self->s;
    long done = 0;
    while (s->kind != K_NONE && done < most) {
        if (s->nlegal < 0) list_legal(self);
        if (seen) count_loopholes(self, seen);
        int n = s->nlegal;
        Twister *chooser = per_seat ? &t[s->player] : t;
        int id = n > 1 ? self->legal[below(chooser, n)] : self->legal[0];
        if (record) {
            if (done >= *cap) {
                long grown = *cap ? *cap * 2 : 256;
                int32_t *more = PyMem_Realloc(*buf, sizeof(int32_t) * grown);
                if (!more) { PyErr_NoMemory(); return -1; }
                *buf = more;
                *cap = grown;
            }
            (*buf)[done] = id << 3 | s->player;
            if (s->kind == K_KEEP || s->kind == K_START) {
                PyObject *offer = ints_tuple_u16(s->offered, s->noffered);
                if (!offer || PyList_Append(offers, offer) < 0) { Py_XDECREF(offer); return -1; }
                Py_DECREF(offer);
            }
        }
        if (apply_id(self, id) < 0) {
            self->broken = 1;
            return -1;
        }
        done++;
    }
    return done;
}

/* The actions of a loop as (bytes of int32 id << 3 | seat, offers), or NULL. */
static PyObject *recorded(int32_t *buf, long done, PyObject *offers) {
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)(sizeof(int32_t) * done));
    if (!bytes) return NULL;
    return Py_BuildValue("(NO)", bytes, offers);
}

/* play_agents(keys, max_actions, record): a simulation's game of random agents,
 * each seat choosing with a twister of its own seeded from keys[seat] (as
 * random.Random(seed) seeds one: the seed's 32-bit words), as
 * ttr_core.agents.uniform_choice chooses. Returns (actions applied, the
 * loopholes met (counts per decision, NLOOPHOLES), the actions and offers as
 * play_seeded gives them, or None unless `record`). */
static PyObject *game_play_agents(GameObject *self, PyObject *args) {
    PyObject *keys;
    long most;
    int record;
    if (!PyArg_ParseTuple(args, "O!lp", &PyTuple_Type, &keys, &most, &record)) return NULL;
    if (check_usable(self) < 0) return NULL;
    int n = self->config->players;
    if (PyTuple_GET_SIZE(keys) != n) {
        PyErr_SetString(PyExc_ValueError, "one key per seat");
        return NULL;
    }
    Twister *t = PyMem_Malloc(sizeof(Twister) * (size_t)n);
    if (!t) return PyErr_NoMemory();
    for (int p = 0; p < n; p++)
        if (twister_from_key(PyTuple_GET_ITEM(keys, p), &t[p]) < 0) {
            PyMem_Free(t);
            return NULL;
        }
    PyObject *offers = record ? PyList_New(0) : NULL;
    long seen[NLOOPHOLES] = {0}, cap = 0;
    int32_t *buf = NULL;
    long done = record && !offers ? -1 : play_loop(self, t, 1, seen, most, record, &buf, &cap, offers);
    PyMem_Free(t);
    PyObject *actions = NULL;
    if (done >= 0) actions = record ? recorded(buf, done, offers) : (Py_INCREF(Py_None), Py_None);
    PyMem_Free(buf);
    Py_XDECREF(offers);
    if (!actions) return NULL;
    return Py_BuildValue("(l(lllll)N)", done, seen[0], seen[1], seen[2], seen[3], seen[4], actions);
}

/* play(twister_state, max_actions, history, offers): random choices with a
 * twister in the state random.Random.getstate() gives (its 625 words), until
 * the game ends or max_actions were applied. Returns (actions applied, the
 * twister's state). Appends each action to `history` as id << 3 | seat, and
 * the offer of each ticket choice to `offers` (lists). */
static PyObject *game_play(GameObject *self, PyObject *args) {
    PyObject *state, *history, *offers;
    long most;
    if (!PyArg_ParseTuple(args, "OlO!O!", &state, &most, &PyList_Type, &history, &PyList_Type, &offers))
        return NULL;
    Twister t;
    if (check_usable(self) < 0 || twister_read(state, &t) < 0) return NULL;
    int32_t *buf = NULL;
    long cap = 0;
    long done = play_loop(self, &t, 0, NULL, most, 1, &buf, &cap, offers);
    for (long i = 0; done > 0 && i < done; i++) {
        PyObject *v = PyLong_FromLong(buf[i]);
        if (!v || PyList_Append(history, v) < 0) { Py_XDECREF(v); done = -1; break; }
        Py_DECREF(v);
    }
    PyMem_Free(buf);
    if (done < 0) return NULL;
    PyObject *out = twister_write(&t);
    if (!out) return NULL;
    return Py_BuildValue("(lN)", done, out);
}

/* play_seeded(key, max_actions, record): the same with a twister seeded as
 * random.Random(seed) seeds its own (`key`: the seed's 32-bit words). Returns
 * (actions applied, the actions as bytes of native int32 id << 3 | seat, the
 * offers of the ticket choices), the last two None unless `record`. */
static PyObject *game_play_seeded(GameObject *self, PyObject *args) {
    PyObject *key;
    long most;
    int record;
    if (!PyArg_ParseTuple(args, "Olp", &key, &most, &record)) return NULL;
    Twister t;
    if (check_usable(self) < 0 || twister_from_key(key, &t) < 0) return NULL;
    PyObject *offers = NULL;
    if (record && !(offers = PyList_New(0))) return NULL;
    int32_t *buf = NULL;
    long cap = 0;
    long done = play_loop(self, &t, 0, NULL, most, record, &buf, &cap, offers);
    if (done < 0) {
        PyMem_Free(buf);
        Py_XDECREF(offers);
        return NULL;
    }
    if (!record) return Py_BuildValue("(lOO)", done, Py_None, Py_None);
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)(sizeof(int32_t) * done));
    PyMem_Free(buf);
    if (!bytes) { Py_DECREF(offers); return NULL; }
    return Py_BuildValue("(lNN)", done, bytes, offers);
}

/* hands(): each seat's hand as card counts (a new game's: what it was dealt). */
static PyObject *game_hands(GameObject *self, PyObject *unused) {
    if (check_usable(self) < 0) return NULL;
    int n = self->config->players;
    PyObject *out = PyTuple_New(n);
    for (int p = 0; out && p < n; p++) {
        PyObject *hand = ints_tuple_u8(self->s.seats[p].counts, self->config->kinds);
        if (!hand) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, p, hand);
    }
    return out;
}

static PyObject *game_player(GameObject *self, void *closure) {
    if (self->s.kind == K_NONE) Py_RETURN_NONE;
    return PyLong_FromLong(self->s.player);
}

static PyObject *game_kind(GameObject *self, void *closure) { return PyLong_FromLong(self->s.kind); }
static PyObject *game_ply(GameObject *self, void *closure) { return PyLong_FromLong(self->s.ply); }
static PyObject *game_termination(GameObject *self, void *closure) {
    return PyLong_FromLong(self->s.termination);
}
static PyObject *game_over(GameObject *self, void *closure) {
    return PyBool_FromLong(self->s.termination != END_NONE);
}
static PyObject *game_config(GameObject *self, void *closure) {
    if (check_usable(self) < 0) return NULL;
    Py_INCREF(self->config);
    return (PyObject *)self->config;
}

static PyMethodDef game_methods[] = {
    {"load", (PyCFunction)game_load, METH_VARARGS, "Load a state (core fields, seats)."},
    {"export", (PyCFunction)game_export, METH_NOARGS, "The state as (core fields, seats)."},
    {"legal", (PyCFunction)game_legal, METH_NOARGS, "The legal action ids, in the kernel's order."},
    {"mask", (PyCFunction)game_mask, METH_O, "Write the legal ids' mask into a byte buffer."},
    {"observe", (PyCFunction)game_observe, METH_VARARGS, "Write a seat's observation vector."},
    {"peek", (PyCFunction)game_peek, METH_O, "The display, a hand, the offer, who decides."},
    {"deal", (PyCFunction)game_deal, METH_O, "A new game, as new_game deals it."},
    {"record", (PyCFunction)game_record, METH_O, "Apply a legal id; what a record of it needs."},
    {"legal_sorted", (PyCFunction)game_legal_sorted, METH_NOARGS, "The legal ids, sorted, as a new list."},
    {"apply", (PyCFunction)game_apply, METH_O, "Carry out a legal action id."},
    {"returns", (PyCFunction)game_returns, METH_NOARGS, "Each seat's zero-sum result."},
    {"hands", (PyCFunction)game_hands, METH_NOARGS, "Each seat's hand as card counts."},
    {"play_agents", (PyCFunction)game_play_agents, METH_VARARGS, "A simulation's game of random agents."},
    {"clone", (PyCFunction)game_clone, METH_NOARGS, "An independent copy."},
    {"scores", (PyCFunction)game_scores, METH_NOARGS, "(totals, completed tickets, winners)."},
    {"play", (PyCFunction)game_play, METH_VARARGS, "Random choices as random_playout makes them."},
    {"play_seeded", (PyCFunction)game_play_seeded, METH_VARARGS, "The same, seeded from a key."},
    {NULL},
};

static PyGetSetDef game_getset[] = {
    {"player", (getter)game_player, NULL, "the seat to decide, None once over", NULL},
    {"kind", (getter)game_kind, NULL, "the pending decision's kind (0 turn .. 4 none, 5 a tunnel, 6 a choice)", NULL},
    {"ply", (getter)game_ply, NULL, "actions applied since the game began", NULL},
    {"termination", (getter)game_termination, NULL, "how it ended: 0 not, 1 cars, 2 stalemate", NULL},
    {"over", (getter)game_over, NULL, "whether the game has ended", NULL},
    {"config", (getter)game_config, NULL, "the game's Config", NULL},
    {NULL},
};

PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ttr_core.native._engine.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game's state, played by action ids.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)game_init,
    .tp_dealloc = (destructor)game_dealloc,
    .tp_methods = game_methods,
    .tp_getset = game_getset,
};
