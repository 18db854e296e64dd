/* The variants' parts of a game's state, in (load_play) and out (export_play):
 * a tunnel waiting, the stations, tokens, tolls, the neutral owner and its
 * choice, checked to be what a game of the rules holds. */
#include "engine.h"

/* A tuple of `n` ints from 0 up to MAXAMOUNT * MAXP into `out`. */
static int amounts(PyObject *seq, int32_t *out, int n) {
    long buf[MAXP];
    Py_ssize_t m;
    if (read_ints(seq, buf, MAXP, &m) < 0 || m != n) return 0;
    for (int i = 0; i < n; i++) {
        if (buf[i] < 0 || buf[i] > (long)MAXAMOUNT * MAXP) return 0;
        out[i] = (int32_t)buf[i];
    }
    return 1;
}

/* The tokens ((held per seat, supply) or ()) and tolls ((money per seat,
 * loans per seat, bank received, bank paid) or ()) of a state being loaded,
 * each given exactly when the rules play it. 0, or -1. */
static int load_accounts(ConfigObject *c, State *s, PyObject *play) {
    PyObject *tokens = PySequence_GetItem(play, 2);
    PyObject *tolls = tokens ? PySequence_GetItem(play, 3) : NULL;
    int ok = tolls != NULL;
    Py_ssize_t tn = ok ? PySequence_Size(tokens) : -1, ln = ok ? PySequence_Size(tolls) : -1;
    ok = ok && tn == (c->has_tokens ? 2 : 0) && ln == (c->has_tolls ? 4 : 0);
    int32_t one[2] = {0, 0};
    if (ok && tn) {
        PyObject *held = PySequence_GetItem(tokens, 0), *deck = PySequence_GetItem(tokens, 1);
        ok = held && deck && amounts(held, s->tok_held, c->players);
        PyObject *pair = ok ? PyTuple_Pack(1, deck) : NULL;
        ok = pair && amounts(pair, one, 1);
        s->tok_deck = one[0];
        Py_XDECREF(pair); Py_XDECREF(held); Py_XDECREF(deck);
    }
    if (ok && ln) {
        PyObject *money = PySequence_GetItem(tolls, 0), *loans = PySequence_GetItem(tolls, 1);
        PyObject *bank = ok ? PySequence_GetSlice(tolls, 2, 4) : NULL;
        ok = money && loans && bank && amounts(money, s->money, c->players) &&
             amounts(loans, s->loans, c->players) && amounts(bank, one, 2);
        s->bank_received = one[0];
        s->bank_paid = one[1];
        Py_XDECREF(money); Py_XDECREF(loans); Py_XDECREF(bank);
    }
    Py_XDECREF(tokens);
    Py_XDECREF(tolls);
    return ok ? 0 : -1;
}

/* The neutral owner ((trains, marker, revealed ticket or -1, why stopped) or
 * (), given exactly when the rules play it) and its choice pending ((free
 * routes, the seat whose turn it interrupts) exactly when kind is K_CHOOSE). */
static int load_neutral(ConfigObject *c, State *s, PyObject *play) {
    PyObject *neutral = PySequence_GetItem(play, 4);
    PyObject *choice = neutral ? PySequence_GetItem(play, 5) : NULL;
    int ok = choice != NULL;
    Py_ssize_t nn = ok ? PySequence_Size(neutral) : -1, cn = ok ? PySequence_Size(choice) : -1;
    ok = ok && nn == (c->has_neutral ? 4 : 0) && cn == (s->kind == K_CHOOSE ? 2 : 0);
    long v[4];
    Py_ssize_t m;
    if (ok && nn) {
        ok = read_ints(neutral, v, 4, &m) == 0 && m == 4 && v[0] >= 0 && v[0] <= MAXAMOUNT &&
             (v[1] == 0 || v[1] == 1) && v[2] >= -1 && v[2] < c->ntickets && v[3] >= 0 && v[3] <= 2 &&
             c->players == 2;
        s->n_cars = (int32_t)v[0];
        s->n_marker = (int8_t)v[1];
        s->n_revealed = (int16_t)v[2];
        s->n_stopped = (int8_t)v[3];
    } else {
        s->n_revealed = -1;
    }
    if (ok && cn) {
        PyObject *free = PySequence_GetItem(choice, 0);
        long resume;
        ok = free && read_ints(free, v, 2, &m) == 0 && m >= 1 && get_int(choice, 1, &resume) == 0 &&
             resume >= 0 && resume < c->players && s->player == s->n_marker;
        for (Py_ssize_t i = 0; ok && i < m; i++) {
            ok = v[i] >= 0 && v[i] < c->nroutes && c->choose_id[v[i]] >= 0;
            s->ch_free[i] = (int16_t)v[i];
        }
        s->ch_n = (int8_t)m;
        s->ch_resume = (int8_t)resume;
        Py_XDECREF(free);
    }
    Py_XDECREF(neutral);
    Py_XDECREF(choice);
    return ok ? 0 : -1;
}

/* The variants' part of a state being loaded: (tunnel, stations, tokens,
 * tolls) (see load_accounts for the last two), tunnel ()
 * or (claim id, the cards turned up, the cards more asked), stations (location,
 * owner, colour or -1, wilds, cards) in build order. 0, or -1 with an
 * exception set. */
int load_play(ConfigObject *c, State *s, PyObject *play) {
    PyObject *tunnel = PySequence_GetItem(play, 0);
    PyObject *stations = tunnel ? PySequence_GetItem(play, 1) : NULL;
    long buf[MAXCOUNT];
    Py_ssize_t n;
    int ok = stations != NULL;
    Py_ssize_t tn = ok ? PySequence_Size(tunnel) : -1;
    ok = tn == 0 || tn == 3;
    if (ok && tn == 3) {
        long id, extra;
        PyObject *rev = PySequence_GetItem(tunnel, 1);
        ok = rev && get_int(tunnel, 0, &id) == 0 && get_int(tunnel, 2, &extra) == 0 &&
             read_ints(rev, buf, MAXCOUNT, &n) == 0;
        Py_XDECREF(rev);
        /* a claim id of a tunnel route; its cards turned up; what they ask */
        ok = ok && c->has_tunnels && id >= c->slots + 3 && id < c->keep_base &&
             c->tunnel[c->id_route[id]] && n <= c->reveal && extra >= 0 && extra <= n &&
             s->kind == K_TUNNEL;
        for (Py_ssize_t i = 0; ok && i < n; i++) {
            ok = buf[i] >= 0 && buf[i] < c->kinds;
            s->t_rev[i] = (int8_t)buf[i];
        }
        if (ok) {
            s->t_claim = (int16_t)id;
            s->t_nrev = (int8_t)n;
            s->t_extra = (int8_t)extra;
        }
    } else {
        ok = ok && s->kind != K_TUNNEL;
    }
    Py_ssize_t sn = ok ? PySequence_Size(stations) : -1;
    ok = ok && sn >= 0 && sn <= MAXST && (sn == 0 || c->stations > 0);
    uint8_t taken[MAXLOC];
    memset(taken, 0, sizeof taken);
    for (Py_ssize_t i = 0; ok && i < sn; i++) {
        PyObject *one = PySequence_GetItem(stations, i);
        long v[5];
        ok = one && read_ints(one, v, 5, &n) == 0 && n == 5;
        Py_XDECREF(one);
        /* a free location, a seat with a station left, a payment of its cost */
        ok = ok && v[0] >= 0 && v[0] < c->nlocs && !taken[v[0]] && v[1] >= 0 && v[1] < c->players &&
             s->st_built[v[1]] < c->stations && v[4] == s->st_built[v[1]] + 1 &&
             v[2] >= -1 && v[2] < c->kinds - 1 && v[3] >= 0 && v[3] <= v[4] &&
             (v[2] == -1) == (v[3] == v[4]);
        if (!ok) break;
        taken[v[0]] = 1;
        s->st_loc[i] = (uint8_t)v[0];
        s->st_owner[i] = (int8_t)v[1];
        s->st_colour[i] = (int8_t)v[2];
        s->st_wilds[i] = (uint8_t)v[3];
        s->st_cards[i] = (uint8_t)v[4];
        s->st_built[v[1]]++;
    }
    s->nst = (int8_t)(ok ? sn : 0);
    Py_XDECREF(tunnel);
    Py_XDECREF(stations);
    if (ok) ok = load_accounts(c, s, play) == 0 && load_neutral(c, s, play) == 0;
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "variant state the native engine cannot hold");
    return ok ? 0 : -1;
}

/* The variants' part of the state, in load_play's layout. */
PyObject *export_play(ConfigObject *c, State *s) {
    PyObject *tunnel = s->kind == K_TUNNEL
        ? Py_BuildValue("(iNi)", (int)s->t_claim, ints_tuple_i8(s->t_rev, s->t_nrev), (int)s->t_extra)
        : PyTuple_New(0);
    PyObject *stations = PyTuple_New(s->nst);
    for (int i = 0; stations && i < s->nst; i++) {
        PyObject *one = Py_BuildValue("(iiiii)", (int)s->st_loc[i], (int)s->st_owner[i],
                                      (int)s->st_colour[i], (int)s->st_wilds[i], (int)s->st_cards[i]);
        if (!one) { Py_CLEAR(stations); break; }
        PyTuple_SET_ITEM(stations, i, one);
    }
    PyObject *tokens = c->has_tokens
        ? Py_BuildValue("(Ni)", ints_tuple_i32(s->tok_held, c->players), (int)s->tok_deck)
        : PyTuple_New(0);
    PyObject *tolls = c->has_tolls
        ? Py_BuildValue("(NNii)", ints_tuple_i32(s->money, c->players), ints_tuple_i32(s->loans, c->players),
                        (int)s->bank_received, (int)s->bank_paid)
        : PyTuple_New(0);
    PyObject *neutral = c->has_neutral
        ? Py_BuildValue("(iiii)", (int)s->n_cars, (int)s->n_marker, (int)s->n_revealed, (int)s->n_stopped)
        : PyTuple_New(0);
    PyObject *choice = s->kind == K_CHOOSE
        ? Py_BuildValue("(Ni)", ints_tuple_i16(s->ch_free, s->ch_n), (int)s->ch_resume)
        : PyTuple_New(0);
    if (!tunnel || !stations || !tokens || !tolls || !neutral || !choice) {
        Py_XDECREF(tunnel); Py_XDECREF(stations); Py_XDECREF(tokens); Py_XDECREF(tolls);
        Py_XDECREF(neutral); Py_XDECREF(choice);
        return NULL;
    }
    return Py_BuildValue("(NNNNNN)", tunnel, stations, tokens, tolls, neutral, choice);
}
