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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <stdint.h>

#define MAXP 6        /* seats */
#define MAXK 16       /* card kinds, the wild last */
#define MAXS 8        /* face-up slots */
#define MAXR 255      /* routes (ids fit a byte) */
#define MAXLOC 255    /* locations */
#define MAXT 256      /* tickets */
#define MAXCARDS 510  /* cards in the game */
#define MAXOFFER 8    /* tickets on offer at once */
#define MAXHELD MAXR  /* routes one seat can hold: every route */
#define MAXLEGAL 4096 /* legal ids at once */
#define MAXGOALS 8    /* a ticket's destinations */
#define MAX_RESETS 100 /* MAX_DISPLAY_RESETS of the Python kernel */

#if defined(_MSC_VER)
#include <intrin.h>
static int ctz64(uint64_t x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#else
#define ctz64(x) __builtin_ctzll(x)
#endif

#define WORDS 4 /* bit masks of routes: 4 x 64 >= MAXR */

enum { K_TURN = 0, K_SECOND = 1, K_KEEP = 2, K_START = 3, K_NONE = 4 };
enum { END_NONE = 0, END_CARS = 1, END_STALEMATE = 2 };
enum { RET_DISCARD = 0, RET_BOTTOM = 1, RET_BOX = 2 };

typedef struct {
    int16_t nstart, start[16];             /* start places */
    int16_t ngoals;
    int16_t goal_points[MAXGOALS];
    int16_t goal_n[MAXGOALS], goal_places[MAXGOALS][16];
    int16_t lost;
} TicketDef;

typedef struct {
    PyObject_HEAD
    int players, kinds, wild, slots, max_wilds, turn_wild, end_trigger;
    int draw_tickets, draw_keep, start_keep, ret_keep, ret_start, both_usable;
    int route_points[64];
    int nroutes, nlocs, ntickets;
    int8_t colour[MAXR];     /* -1 gray */
    uint8_t length[MAXR];
    int16_t partner[MAXR];   /* -1 none */
    uint8_t end_a[MAXR], end_b[MAXR];
    uint8_t no_wild[MAXR];
    int claim_base[MAXR];
    uint64_t within[64][WORDS];   /* the routes of length <= k */
    int nids, keep_base, keep_bits;
    int16_t *id_route;       /* id -> route, -1 if no claim */
    int8_t *id_colour;       /* id -> colour paid (-1: wilds alone) */
    uint8_t *id_wilds;       /* id -> wilds paid */
    TicketDef *tickets;
    /* end scoring the variants declare */
    int place_points;                /* points per marked place touched, 0 off */
    uint8_t place_marked[MAXLOC];
    int trail_bonus;                 /* longest trail bonus, -1 off */
    int trail_tie_break;
    int most_tickets_bonus;          /* most completed tickets bonus, -1 off */
    /* the observation vector's layout (ttr_core.observation.layout), once set */
    int has_layout;
    int at_move, at_pending, at_over, at_hand, at_held, at_keep, at_display, at_piles;
    int at_ticket_discard, at_seats, per_seat, at_routes, width, at_ending, obs_size;
    int total_cards, ticket_scale, offer_scale, display_scale, cars_scale;
    double score_scale;
    int kind_slot[4];
    int deck_div[MAXK];
    /* the deal (ttr_core.rules.setup.new_game), once set */
    int has_deal, starting_hand, cars_per_player, start_dealt;
    int deck_counts[MAXK];
    int start_scores[MAXP];
} ConfigObject;

typedef struct {
    uint8_t counts[MAXK];
    uint8_t known[MAXK];
    int16_t cars;
    int32_t score;
    int16_t ntickets;
    uint16_t tickets[MAXT];
    int16_t nroutes;
    uint8_t routes[MAXHELD];
} SeatState;

typedef struct {
    int16_t deck_head, deck_len;
    uint8_t deck[MAXCARDS];
    int8_t display[MAXS];            /* -1: empty */
    int16_t discard[MAXK];
    int16_t tdeck_head, tdeck_len;
    uint16_t tdeck[2 * MAXT];        /* room for returns at the bottom */
    int16_t tpile_len;
    uint16_t tpile[MAXT];
    int16_t boxed_len;
    uint16_t boxed[MAXT];
    int16_t owners[MAXR];            /* -1 unclaimed */
    /* claimable routes, kept claim by claim: unclaimed; whose partner anyone
     * holds; whose partner the seat holds */
    uint64_t open[WORDS], closed_any[WORDS], closed_seat[MAXP][WORDS];
    int8_t kind, player;             /* the pending decision */
    int8_t noffered, min_keep;
    uint16_t offered[MAXOFFER];
    int8_t nstart_offers, start_offer_at;
    int8_t start_offer_n[MAXP];
    uint16_t start_offers[MAXP][MAXOFFER];
    int32_t final_turns, passes, turn, shuffles, ply;
    int8_t termination;
    SeatState seats[MAXP];
    int16_t nlegal;                  /* the legal ids listed; -1: not listed */
} State;

typedef struct {
    PyObject_HEAD
    ConfigObject *config;
    PyObject *shuffle;               /* shuffle(number, list): shuffles the list in place */
    int broken;                      /* a shuffle failed while an action was carried out */
    int marked;                      /* seen already in the batch being checked */
    State s;
    int32_t legal[MAXLEGAL];         /* the legal ids of the pending decision, when listed */
} GameObject;

static PyTypeObject ConfigType;
static PyTypeObject GameType;

/* ---------------------------------------------------------------- Config */

static int get_int(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static int read_ints(PyObject *seq, long *out, Py_ssize_t most, Py_ssize_t *n) {
    Py_ssize_t len = PySequence_Size(seq);
    if (len < 0) return -1;
    if (len > most) {
        PyErr_Format(PyExc_ValueError, "%zd values, at most %zd", len, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++)
        if (get_int(seq, i, &out[i]) < 0) return -1;
    *n = len;
    return 0;
}

static void config_dealloc(ConfigObject *self) {
    PyMem_Free(self->id_route);
    PyMem_Free(self->id_colour);
    PyMem_Free(self->id_wilds);
    PyMem_Free(self->tickets);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Config(rules, routes, tickets, scoring): see ttr_core.native.config. */
static int config_init(ConfigObject *self, PyObject *args, PyObject *kw) {
    PyObject *rules, *routes, *tickets, *scoring;
    if (!PyArg_ParseTuple(args, "OOOO", &rules, &routes, &tickets, &scoring)) return -1;
    long r[16];
    Py_ssize_t n;
    if (read_ints(rules, r, 16, &n) < 0) return -1;
    if (n != 13) { PyErr_SetString(PyExc_ValueError, "rules: 13 values"); return -1; }
    self->players = (int)r[0]; self->kinds = (int)r[1]; self->slots = (int)r[2];
    self->max_wilds = (int)r[3]; self->turn_wild = (int)r[4]; self->end_trigger = (int)r[5];
    self->draw_tickets = (int)r[6]; self->draw_keep = (int)r[7]; self->start_keep = (int)r[8];
    self->ret_keep = (int)r[9]; self->ret_start = (int)r[10]; self->both_usable = (int)r[11];
    self->nlocs = (int)r[12];
    self->wild = self->kinds - 1;
    if (self->players < 1 || self->players > MAXP || self->kinds < 2 || self->kinds > MAXK ||
        self->slots < 0 || self->slots > MAXS || self->nlocs > MAXLOC ||
        self->draw_tickets > MAXOFFER) {
        PyErr_SetString(PyExc_ValueError, "the game exceeds the native engine's limits");
        return -1;
    }
    /* routes: (colour, length, partner, a, b, no_wild) per route; then the points by length */
    PyObject *route_list = PySequence_GetItem(routes, 0);
    PyObject *points = PySequence_GetItem(routes, 1);
    if (!route_list || !points) { Py_XDECREF(route_list); Py_XDECREF(points); return -1; }
    long pts[64];
    int bad = read_ints(points, pts, 64, &n) < 0;
    Py_DECREF(points);
    for (Py_ssize_t i = 0; !bad && i < n; i++) self->route_points[i] = (int)pts[i];
    Py_ssize_t nr = bad ? -1 : PySequence_Size(route_list);
    if (nr < 0 || nr > MAXR) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many routes");
        Py_DECREF(route_list);
        return -1;
    }
    self->nroutes = (int)nr;
    int next = self->slots + 3;
    int cn = self->kinds - 1;
    for (Py_ssize_t i = 0; i < nr; i++) {
        PyObject *one = PySequence_GetItem(route_list, i);
        long v[6];
        Py_ssize_t m;
        if (!one || read_ints(one, v, 6, &m) < 0 || m != 6 || v[1] < 1 || v[1] >= n ||
            v[1] > 63) {
            Py_XDECREF(one);
            Py_DECREF(route_list);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a route's values");
            return -1;
        }
        Py_DECREF(one);
        self->colour[i] = (int8_t)v[0];
        self->length[i] = (uint8_t)v[1];
        self->partner[i] = (int16_t)v[2];
        self->end_a[i] = (uint8_t)v[3];
        self->end_b[i] = (uint8_t)v[4];
        self->no_wild[i] = (uint8_t)v[5];
        self->claim_base[i] = next;
        next += (v[0] < 0 ? cn : 1) * (int)v[1] + 1;
    }
    Py_DECREF(route_list);
    memset(self->within, 0, sizeof self->within);
    for (int k = 0; k < 64; k++)
        for (int i = 0; i < nr; i++)
            if (self->length[i] <= k) self->within[k][i / 64] |= 1ULL << (i % 64);
    self->keep_base = next;
    /* tickets: per ticket ((start places), ((places), points) per goal, lost) */
    Py_ssize_t nt = PySequence_Size(tickets);
    if (nt < 0 || nt > MAXT) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many tickets");
        return -1;
    }
    self->ntickets = (int)nt;
    self->tickets = PyMem_Calloc(nt ? nt : 1, sizeof(TicketDef));
    if (!self->tickets) { PyErr_NoMemory(); return -1; }
    int keep_bits = self->draw_tickets;
    for (Py_ssize_t i = 0; i < nt; i++) {
        TicketDef *t = &self->tickets[i];
        PyObject *one = PySequence_GetItem(tickets, i);
        if (!one) return -1;
        PyObject *start = PySequence_GetItem(one, 0), *goals = PySequence_GetItem(one, 1);
        PyObject *lost = PySequence_GetItem(one, 2);
        Py_DECREF(one);
        long buf[16];
        int fail = !start || !goals || !lost || read_ints(start, buf, 16, &n) < 0;
        if (!fail) {
            t->nstart = (int16_t)n;
            for (Py_ssize_t k = 0; k < n; k++) t->start[k] = (int16_t)buf[k];
            t->lost = (int16_t)PyLong_AsLong(lost);
            Py_ssize_t ng = PySequence_Size(goals);
            fail = PyErr_Occurred() || ng < 0 || ng > MAXGOALS;
            t->ngoals = (int16_t)(fail ? 0 : ng);
            for (Py_ssize_t g = 0; !fail && g < ng; g++) {
                PyObject *goal = PySequence_GetItem(goals, g);
                PyObject *places = goal ? PySequence_GetItem(goal, 0) : NULL;
                long gp;
                fail = !places || read_ints(places, buf, 16, &n) < 0 || get_int(goal, 1, &gp) < 0;
                if (!fail) {
                    t->goal_n[g] = (int16_t)n;
                    for (Py_ssize_t k = 0; k < n; k++) t->goal_places[g][k] = (int16_t)buf[k];
                    t->goal_points[g] = (int16_t)gp;
                }
                Py_XDECREF(places);
                Py_XDECREF(goal);
            }
        }
        Py_XDECREF(start); Py_XDECREF(goals); Py_XDECREF(lost);
        if (fail) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a ticket's ends");
            return -1;
        }
    }
    /* scoring: (keep_bits, place_points, marked places, trail_bonus, trail_tie_break, most_tickets_bonus) */
    long sc[3];
    if (get_int(scoring, 0, &sc[0]) < 0) return -1;
    keep_bits = (int)sc[0];
    if (keep_bits > MAXOFFER || keep_bits < self->draw_tickets) {
        PyErr_SetString(PyExc_ValueError, "offers too large");
        return -1;
    }
    self->keep_bits = keep_bits;
    if (get_int(scoring, 1, &sc[1]) < 0) return -1;
    self->place_points = (int)sc[1];
    PyObject *marked = PySequence_GetItem(scoring, 2);
    if (!marked) return -1;
    long places[MAXLOC];
    bad = read_ints(marked, places, MAXLOC, &n) < 0;
    Py_DECREF(marked);
    if (bad) return -1;
    memset(self->place_marked, 0, sizeof self->place_marked);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (places[i] < 0 || places[i] >= self->nlocs) {
            PyErr_SetString(PyExc_ValueError, "a marked place");
            return -1;
        }
        self->place_marked[places[i]] = 1;
    }
    long t3[3];
    for (int i = 0; i < 3; i++)
        if (get_int(scoring, 3 + i, &t3[i]) < 0) return -1;
    self->trail_bonus = (int)t3[0];
    self->trail_tie_break = (int)t3[1];
    self->most_tickets_bonus = (int)t3[2];
    self->nids = self->keep_base + (1 << keep_bits);
    if (self->nids > MAXLEGAL) { /* a legal list holds each id once at most */
        PyErr_Format(PyExc_ValueError, "%d action ids, more than %d", self->nids, MAXLEGAL);
        return -1;
    }
    self->id_route = PyMem_Malloc(sizeof(int16_t) * self->nids);
    self->id_colour = PyMem_Malloc(sizeof(int8_t) * self->nids);
    self->id_wilds = PyMem_Malloc(sizeof(uint8_t) * self->nids);
    if (!self->id_route || !self->id_colour || !self->id_wilds) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < self->nids; i++) { self->id_route[i] = -1; self->id_colour[i] = -1; self->id_wilds[i] = 0; }
    for (int rid = 0; rid < self->nroutes; rid++) {
        int len = self->length[rid], id = self->claim_base[rid];
        int ncol = self->colour[rid] < 0 ? cn : 1;
        for (int k = 0; k < ncol; k++)
            for (int w = 0; w < len; w++, id++) {
                self->id_route[id] = (int16_t)rid;
                self->id_colour[id] = (int8_t)(self->colour[rid] < 0 ? k : self->colour[rid]);
                self->id_wilds[id] = (uint8_t)w;
            }
        self->id_route[id] = (int16_t)rid;
        self->id_colour[id] = -1;
        self->id_wilds[id] = (uint8_t)len;
    }
    return 0;
}

/* set_layout(ints, score_scale, kind slots, deck divisors): the observation
 * layout of ttr_core.observation (see ttr_core.observation.encoder). */
static PyObject *config_set_layout(ConfigObject *self, PyObject *args) {
    PyObject *ints, *slots, *deck;
    double score_scale;
    if (!PyArg_ParseTuple(args, "OdOO", &ints, &score_scale, &slots, &deck)) return NULL;
    long v[32];
    Py_ssize_t n;
    if (read_ints(ints, v, 32, &n) < 0) return NULL;
    if (n != 20) { PyErr_SetString(PyExc_ValueError, "a layout: 20 ints"); return NULL; }
    int *fields[20] = {&self->at_move, &self->at_pending, &self->at_over, &self->at_hand,
                       &self->at_held, &self->at_keep, &self->at_display, &self->at_piles,
                       &self->at_ticket_discard, &self->at_seats, &self->per_seat,
                       &self->at_routes, &self->width, &self->at_ending, &self->obs_size,
                       &self->total_cards, &self->ticket_scale, &self->offer_scale,
                       &self->display_scale, &self->cars_scale};
    for (int i = 0; i < 20; i++) {
        if (v[i] < 0 || v[i] > 1 << 24) { PyErr_SetString(PyExc_ValueError, "a layout value"); return NULL; }
        *fields[i] = (int)v[i];
    }
    if (read_ints(slots, v, 4, &n) < 0) return NULL;
    if (n != 4) { PyErr_SetString(PyExc_ValueError, "a layout: 4 kind slots"); return NULL; }
    for (int i = 0; i < 4; i++) self->kind_slot[i] = (int)v[i];
    if (read_ints(deck, v, MAXK, &n) < 0) return NULL;
    if (n != self->kinds) { PyErr_SetString(PyExc_ValueError, "a divisor per card kind"); return NULL; }
    for (int i = 0; i < n; i++) self->deck_div[i] = (int)(v[i] ? v[i] : 1);
    if (self->total_cards < 1 || self->ticket_scale < 1 || self->offer_scale < 1 ||
        self->display_scale < 1 || self->cars_scale < 1 || score_scale <= 0 ||
        self->at_ending + 4 > self->obs_size || self->width != self->players + 1 ||
        self->at_routes + self->nroutes * self->width > self->at_ending) {
        PyErr_SetString(PyExc_ValueError, "an inconsistent layout");
        return NULL;
    }
    self->score_scale = score_scale;
    self->has_layout = 1;
    Py_RETURN_NONE;
}

/* set_deal(deck counts, starting hand, cars, start scores, tickets dealt):
 * what new_game deals from. */
static PyObject *config_set_deal(ConfigObject *self, PyObject *args) {
    PyObject *deck, *scores;
    int hand, cars, dealt;
    if (!PyArg_ParseTuple(args, "OiiOi", &deck, &hand, &cars, &scores, &dealt)) return NULL;
    long v[MAXK];
    Py_ssize_t n;
    if (read_ints(deck, v, MAXK, &n) < 0) return NULL;
    int total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (v[i] < 0 || v[i] > MAXCARDS) { PyErr_SetString(PyExc_ValueError, "a card count"); return NULL; }
        self->deck_counts[i] = (int)v[i];
        total += (int)v[i];
    }
    if (n != self->kinds || total > MAXCARDS || total < self->slots + hand * self->players ||
        hand < 0 || cars < 0 || cars > 32767 || dealt < 0 || dealt > MAXOFFER) {
        PyErr_SetString(PyExc_ValueError, "a deal the native engine cannot make");
        return NULL;
    }
    if (read_ints(scores, v, MAXK, &n) < 0) return NULL;
    for (int p = 0; p < MAXP; p++) self->start_scores[p] = p < n ? (int)v[p] : 0;
    self->starting_hand = hand;
    self->cars_per_player = cars;
    self->start_dealt = dealt;
    self->has_deal = 1;
    Py_RETURN_NONE;
}

static PyMethodDef config_methods[] = {
    {"set_layout", (PyCFunction)config_set_layout, METH_VARARGS, "Set the observation layout."},
    {"set_deal", (PyCFunction)config_set_deal, METH_VARARGS, "Set what new_game deals from."},
    {NULL},
};

static PyObject *config_size(ConfigObject *self, void *closure) {
    return PyLong_FromLong(self->nids);
}

static PyObject *config_keep_base(ConfigObject *self, void *closure) {
    return PyLong_FromLong(self->keep_base);
}

static PyObject *config_has_layout(ConfigObject *self, void *closure) {
    return PyBool_FromLong(self->has_layout);
}

static PyGetSetDef config_getset[] = {
    {"has_layout", (getter)config_has_layout, NULL, "whether the observation layout is set", NULL},
    {"size", (getter)config_size, NULL, "the number of action ids", NULL},
    {"keep_base", (getter)config_keep_base, NULL, "the first KeepTickets id", NULL},
    {NULL},
};

static PyTypeObject ConfigType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ttr_core.native._engine.Config",
    .tp_basicsize = sizeof(ConfigObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A board, player count and rule set, as the native engine reads them.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)config_init,
    .tp_dealloc = (destructor)config_dealloc,
    .tp_getset = config_getset,
    .tp_methods = config_methods,
};

/* ---------------------------------------------------------------- random choices */
/* Python's random.Random (MT19937) and its randrange, exactly: a native
 * random playout makes the choices ttr_core.random_playout makes. */

typedef struct { uint32_t mt[624]; int index; } Twister;

static uint32_t twister_next(Twister *t) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (t->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (t->mt[kk] & 0x80000000U) | (t->mt[kk + 1] & 0x7fffffffU);
            t->mt[kk] = t->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (t->mt[kk] & 0x80000000U) | (t->mt[kk + 1] & 0x7fffffffU);
            t->mt[kk] = t->mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (t->mt[623] & 0x80000000U) | (t->mt[0] & 0x7fffffffU);
        t->mt[623] = t->mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        t->index = 0;
    }
    y = t->mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static int below(Twister *t, int n) { /* randrange(n), n < 2**31 */
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

static void twister_seed(Twister *t, const uint32_t *key, int n) {
    uint32_t *mt = t->mt;
    if (!twister_base_ready) { /* under the GIL: filled once */
        twister_base[0] = 19650218U;
        for (int i = 1; i < 624; i++)
            twister_base[i] = 1812433253U * (twister_base[i - 1] ^ (twister_base[i - 1] >> 30)) + (uint32_t)i;
        twister_base_ready = 1;
    }
    memcpy(mt, twister_base, sizeof twister_base);
    int i = 1, j = 0;
    for (int k = 624 > n ? 624 : n; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
        if (j >= n) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
    t->index = 624;
}

/* A twister seeded from a tuple of 32-bit key words (ttr_core.native.engine.key_words). */
static int twister_from_key(PyObject *words, Twister *t) {
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

static int twister_read(PyObject *state, Twister *t) {
    /* random.Random().getstate()[1]: 624 words and the index */
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 625) {
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister state: 625 ints");
        return -1;
    }
    for (int i = 0; i < 624; i++) t->mt[i] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
    t->index = (int)PyLong_AsLong(PyTuple_GET_ITEM(state, 624));
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *twister_write(Twister *t) {
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

/* ---------------------------------------------------------------- rules */

#define CFG(g) ((g)->config)

/* Shuffle `cards` (n of them) as shuffle number s->shuffles of the Python
 * kernel does (random.Random(f"ttr-core:{seed}:{n}").shuffle): the key of
 * that generator from Python (the SHA-512 of the string), the shuffle here;
 * the count goes up. -1 with an exception set on failure. */
static int shuffle_ints(GameObject *g, int *cards, int n) {
    /* the seed as an integer's big-endian bytes (its string and their SHA-512) */
    PyObject *data = PyObject_CallFunction(g->shuffle, "i", g->s.shuffles);
    if (!data) return -1;
    if (!PyBytes_Check(data) || PyBytes_GET_SIZE(data) > 4 * 64) {
        Py_DECREF(data);
        PyErr_SetString(PyExc_RuntimeError, "a shuffle's seed: up to 256 bytes");
        return -1;
    }
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(data);
    Py_ssize_t len = PyBytes_GET_SIZE(data);
    while (len > 0 && b[0] == 0) { b++; len--; } /* abs(a)'s words: no leading zero */
    uint32_t key[64] = {0};
    int words = len ? (int)((len + 3) / 4) : 1;
    for (Py_ssize_t i = 0; i < len; i++) /* byte i from the end is bits 8i.. */
        key[i / 4] |= (uint32_t)b[len - 1 - i] << (8 * (i % 4));
    Py_DECREF(data);
    Twister t;
    twister_seed(&t, key, words);
    for (int i = n - 1; i >= 1; i--) { /* random.shuffle */
        int j = below(&t, i + 1);
        int x = cards[i];
        cards[i] = cards[j];
        cards[j] = x;
    }
    g->s.shuffles++;
    return 0;
}

/* The top card of the deck, the discard pile shuffled in when the deck is
 * empty: -1 when neither holds a card, -2 on an error. */
static int draw(GameObject *g) {
    State *s = &g->s;
    if (s->deck_len == 0) {
        int kinds = CFG(g)->kinds, total = 0;
        for (int k = 0; k < kinds; k++) total += s->discard[k];
        if (!total) return -1;
        int cards[MAXCARDS];
        int n = 0;
        for (int k = 0; k < kinds; k++)
            for (int i = 0; i < s->discard[k]; i++) cards[n++] = k;
        if (shuffle_ints(g, cards, n) < 0) return -2;
        for (int i = 0; i < n; i++) s->deck[i] = (uint8_t)cards[i];
        s->deck_head = 0;
        s->deck_len = (int16_t)n;
        memset(s->discard, 0, sizeof s->discard);
    }
    int card = s->deck[s->deck_head];
    s->deck_head++;
    s->deck_len--;
    return card;
}

static int any_discard(GameObject *g) {
    for (int k = 0; k < CFG(g)->kinds; k++)
        if (g->s.discard[k]) return 1;
    return 0;
}

static int can_draw(GameObject *g) { return g->s.deck_len > 0 || any_discard(g); }

static int can_take_second(GameObject *g) {
    if (can_draw(g)) return 1;
    int wild = CFG(g)->turn_wild;
    for (int i = 0; i < CFG(g)->slots; i++) {
        int c = g->s.display[i];
        if (c >= 0 && c != wild) return 1;
    }
    return 0;
}

static int deal_within_limit(GameObject *g) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int pool[MAXCARDS + MAXS];
    int n = 0;
    for (int i = 0; i < s->deck_len; i++) pool[n++] = s->deck[s->deck_head + i];
    for (int k = 0; k < c->kinds; k++)
        for (int i = 0; i < s->discard[k]; i++) pool[n++] = k;
    for (int i = 0; i < c->slots; i++)
        if (s->display[i] >= 0) pool[n++] = s->display[i];
    if (shuffle_ints(g, pool, n) < 0) return -1;
    int size = c->slots < n ? c->slots : n, shown = 0, wilds = 0, rest = 0;
    int8_t display[MAXS];
    for (int i = 0; i < n; i++) {
        int card = pool[i];
        if (shown < size && (card != c->wild || wilds < c->max_wilds)) {
            display[shown++] = (int8_t)card;
            wilds += card == c->wild;
        } else {
            s->deck[rest++] = (uint8_t)card;
        }
    }
    for (int i = 0; i < c->slots; i++) s->display[i] = i < shown ? display[i] : -1;
    s->deck_head = 0;
    s->deck_len = (int16_t)rest;
    memset(s->discard, 0, sizeof s->discard);
    return 0;
}

static int count_wilds(GameObject *g) {
    int n = 0, wild = CFG(g)->wild;
    for (int i = 0; i < CFG(g)->slots; i++) n += g->s.display[i] == wild;
    return n;
}

/* Reset the display while it shows too many wilds and a reset can help (E3). */
static int check_wilds(GameObject *g) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int wild = c->wild, limit = c->max_wilds, resets = 0;
    while (count_wilds(g) > limit) {
        int shown = 0, shown_wild = 0, pool_wild = 0, pool;
        for (int i = 0; i < c->slots; i++)
            if (s->display[i] >= 0) { shown++; shown_wild += s->display[i] == wild; }
        pool = s->deck_len + shown;
        for (int k = 0; k < c->kinds; k++) pool += s->discard[k];
        for (int i = 0; i < s->deck_len; i++) pool_wild += s->deck[s->deck_head + i] == wild;
        pool_wild += s->discard[wild] + shown_wild;
        int size = c->slots < pool ? c->slots : pool;
        if (pool - pool_wild < size - limit) return 0;
        if (resets == MAX_RESETS) return deal_within_limit(g);
        for (int i = 0; i < c->slots; i++)
            if (s->display[i] >= 0) s->discard[s->display[i]]++;
        for (int i = 0; i < c->slots; i++) {
            int card = draw(g);
            if (card == -2) return -1;
            s->display[i] = (int8_t)card;
        }
        resets++;
    }
    return 0;
}

static int refill(GameObject *g, int slot) {
    int card = draw(g);
    if (card == -2) return -1;
    g->s.display[slot] = (int8_t)card;
    return check_wilds(g);
}

static int fill_empty(GameObject *g) {
    for (int i = 0; i < CFG(g)->slots; i++)
        if (g->s.display[i] < 0) {
            int card = draw(g);
            if (card == -2) return -1;
            g->s.display[i] = (int8_t)card;
        }
    return check_wilds(g);
}

static int settle_display(GameObject *g) {
    int empty = 0;
    for (int i = 0; i < CFG(g)->slots; i++) empty |= g->s.display[i] < 0;
    if (empty || count_wilds(g) > CFG(g)->max_wilds) return fill_empty(g);
    return 0;
}

static void finish_turn(GameObject *g, int passed) {
    State *s = &g->s;
    int seat = s->player, n = CFG(g)->players;
    int final = s->final_turns;
    if (final < 0) {
        if (s->seats[seat].cars <= CFG(g)->end_trigger) final = n;
    } else {
        final -= 1;
    }
    int passes = passed ? s->passes + 1 : 0;
    int end = END_NONE;
    if (final == 0) end = END_CARS;
    else if (passes >= n) end = END_STALEMATE;
    s->final_turns = final;
    s->passes = passes;
    s->turn++;
    s->ply++;
    s->termination = (int8_t)end;
    if (end) {
        s->kind = K_NONE;
    } else {
        s->kind = K_TURN;
        s->player = (int8_t)((seat + 1) % n);
    }
}

static int draw_blind(GameObject *g, int second) {
    State *s = &g->s;
    int card = draw(g);
    if (card == -2) return -1;
    if (card < 0) {
        PyErr_SetString(PyExc_RuntimeError, "no card to draw");
        return -1;
    }
    s->seats[s->player].counts[card]++;
    if (!second && can_take_second(g)) {
        s->kind = K_SECOND;
        s->ply++;
    } else {
        finish_turn(g, 0);
    }
    return 0;
}

static int draw_face_up(GameObject *g, int slot, int second) {
    State *s = &g->s;
    int card = s->display[slot];
    if (refill(g, slot) < 0) return -1;
    SeatState *seat = &s->seats[s->player];
    seat->counts[card]++;
    seat->known[card]++;
    if (!second && card != CFG(g)->turn_wild && can_take_second(g)) {
        s->kind = K_SECOND;
        s->ply++;
    } else {
        finish_turn(g, 0);
    }
    return 0;
}

static void close_partner(ConfigObject *c, State *s, int rid, int owner) {
    s->open[rid / 64] &= ~(1ULL << (rid % 64));
    int p = c->partner[rid];
    if (p < 0) return;
    s->closed_any[p / 64] |= 1ULL << (p % 64);
    if (owner >= 0 && owner < c->players) s->closed_seat[owner][p / 64] |= 1ULL << (p % 64);
}

static int claim(GameObject *g, int id) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int rid = c->id_route[id], colour = c->id_colour[id], wilds = c->id_wilds[id];
    int len = c->length[rid];
    SeatState *seat = &s->seats[s->player];
    s->owners[rid] = s->player;
    close_partner(c, s, rid, s->player);
    /* paid: the colour first, then the wilds (claim_payment's order) */
    int kind[2] = {colour, c->wild}, num[2] = {len - wilds, wilds};
    int any_known = 0;
    for (int k = 0; k < c->kinds; k++) any_known |= seat->known[k];
    for (int i = 0; i < 2; i++) {
        if (kind[i] < 0) continue;
        int card = kind[i], pay = num[i];
        seat->counts[card] -= pay;
        s->discard[card] += pay;
        if (any_known) {
            int have = seat->known[card];
            seat->known[card] = (uint8_t)(have > pay ? have - pay : 0);
        }
    }
    seat->cars -= len;
    seat->routes[seat->nroutes++] = (uint8_t)rid;
    seat->score += c->route_points[len];
    if (settle_display(g) < 0) return -1;
    finish_turn(g, 0);
    return 0;
}

/* Take up to `count` tickets off the ticket deck, an empty one first refilled
 * from the shuffled pile. */
static int take_tickets(GameObject *g, int count, uint16_t *out) {
    State *s = &g->s;
    if (s->tdeck_len == 0 && s->tpile_len > 0) {
        int cards[MAXT];
        int n = s->tpile_len;
        for (int i = 0; i < n; i++) cards[i] = s->tpile[i];
        if (shuffle_ints(g, cards, n) < 0) return -1;
        for (int i = 0; i < n; i++) s->tdeck[i] = (uint16_t)cards[i];
        s->tdeck_head = 0;
        s->tdeck_len = (int16_t)n;
        s->tpile_len = 0;
    }
    int n = count < s->tdeck_len ? count : s->tdeck_len;
    for (int i = 0; i < n; i++) out[i] = s->tdeck[s->tdeck_head + i];
    s->tdeck_head += n;
    s->tdeck_len -= n;
    return n;
}

static void compact_tdeck(State *s) {
    if (s->tdeck_head) {
        memmove(s->tdeck, s->tdeck + s->tdeck_head, sizeof(uint16_t) * s->tdeck_len);
        s->tdeck_head = 0;
    }
}

static int draw_tickets(GameObject *g) {
    State *s = &g->s;
    uint16_t offered[MAXOFFER];
    int n = take_tickets(g, CFG(g)->draw_tickets, offered);
    if (n < 0) return -1;
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "no tickets left to draw");
        return -1;
    }
    s->kind = K_KEEP;
    s->noffered = (int8_t)n;
    memcpy(s->offered, offered, sizeof(uint16_t) * n);
    s->min_keep = (int8_t)(CFG(g)->draw_keep < n ? CFG(g)->draw_keep : n);
    s->ply++;
    return 0;
}

static void keep_tickets(GameObject *g, int mask) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    SeatState *seat = &s->seats[s->player];
    int where = s->kind == K_KEEP ? c->ret_keep : c->ret_start;
    for (int i = 0; i < s->noffered; i++)
        if (mask >> i & 1) seat->tickets[seat->ntickets++] = s->offered[i];
    for (int i = 0; i < s->noffered; i++) {
        if (mask >> i & 1) continue;
        uint16_t t = s->offered[i];
        if (where == RET_BOX) s->boxed[s->boxed_len++] = t;
        else if (where == RET_DISCARD) s->tpile[s->tpile_len++] = t;
        else {
            compact_tdeck(s);
            s->tdeck[s->tdeck_len++] = t;
        }
    }
    int was = s->kind;
    s->noffered = 0;
    s->min_keep = 0;
    if (was == K_KEEP) {
        finish_turn(g, 0);
        return;
    }
    if (s->start_offer_at < s->nstart_offers) {
        int at = s->start_offer_at++;
        int n = s->start_offer_n[at];
        s->kind = K_START;
        s->player = (int8_t)(s->player + 1);
        s->noffered = (int8_t)n;
        memcpy(s->offered, s->start_offers[at], sizeof(uint16_t) * n);
        s->min_keep = (int8_t)(c->start_keep < n ? c->start_keep : n);
    } else {
        s->kind = K_TURN;
        s->player = 0;
    }
    s->ply++;
}

/* The masks of a state loaded from its owners. */
static void owner_masks(ConfigObject *c, State *s) {
    memset(s->open, 0, sizeof s->open);
    memset(s->closed_any, 0, sizeof s->closed_any);
    memset(s->closed_seat, 0, sizeof s->closed_seat);
    for (int rid = 0; rid < c->nroutes; rid++) {
        if (s->owners[rid] == -1) s->open[rid / 64] |= 1ULL << (rid % 64);
        else close_partner(c, s, rid, s->owners[rid]);
    }
}

/* ---------------------------------------------------------------- legal ids */

#define ADD(id) (g->legal[n++] = (id))

static void list_legal(GameObject *g) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int n = 0;
    if (s->kind == K_NONE) {
        s->nlegal = 0;
        return;
    }
    if (s->kind == K_KEEP || s->kind == K_START) {
        /* every subset keeping at least min_keep, by size, then combinations in order */
        int k = s->noffered;
        for (int size = s->min_keep; size <= k; size++) {
            int idx[MAXOFFER];
            for (int i = 0; i < size; i++) idx[i] = i;
            for (;;) {
                int mask = 0;
                for (int i = 0; i < size; i++) mask |= 1 << idx[i];
                ADD(c->keep_base + mask);
                int i = size - 1;
                while (i >= 0 && idx[i] == k - size + i) i--;
                if (i < 0) break;
                idx[i]++;
                for (int j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
            }
        }
        s->nlegal = (int16_t)n;
        return;
    }
    int drawable = can_draw(g);
    if (drawable) ADD(0);
    if (s->kind == K_SECOND) {
        for (int i = 0; i < c->slots; i++)
            if (s->display[i] >= 0 && s->display[i] != c->turn_wild) ADD(1 + i);
        s->nlegal = (int16_t)n;
        return;
    }
    for (int i = 0; i < c->slots; i++)
        if (s->display[i] >= 0) ADD(1 + i);
    int seat = s->player;
    SeatState *me = &s->seats[seat];
    const uint8_t *counts = me->counts;
    int wilds = counts[c->wild], cars = me->cars, cn = c->kinds - 1, most_colour = 0;
    for (int k = 0; k < cn; k++)
        if (counts[k] > most_colour) most_colour = counts[k];
    /* the routes this seat may claim and has the cars for, in route id order */
    const uint64_t *within = c->within[cars < 0 ? 0 : cars > 63 ? 63 : cars];
    for (int word = 0; word < WORDS; word++) {
      uint64_t bits = s->open[word] & ~s->closed_seat[seat][word] & within[word];
      if (!c->both_usable) bits &= ~s->closed_any[word];
      while (bits) {
        int rid = word * 64 + ctz64(bits);
        bits &= bits - 1;
        int len = c->length[rid];
        int cw = c->no_wild[rid] ? 0 : (wilds < len ? wilds : len);
        int base = c->claim_base[rid], colour = c->colour[rid];
        if (colour >= 0) {
            int h = counts[colour] < len ? counts[colour] : len;
            if (h && h + cw >= len) {
                int most = cw < len - 1 ? cw : len - 1;
                for (int w = len - h; w <= most; w++) ADD(base + w);
            }
            if (cw == len) ADD(base + len);
        } else if (most_colour + cw >= len) {
            for (int k = 0; k < cn; k++) {
                int have = counts[k];
                if (!have || have + cw < len) continue;
                int h = have < len ? have : len;
                int most = cw < len - 1 ? cw : len - 1;
                for (int w = len - h; w <= most; w++) ADD(base + k * len + w);
            }
            if (cw == len) ADD(base + cn * len);
        }
      }
    }
    if (s->tdeck_len > 0 || s->tpile_len > 0) ADD(c->slots + 1);
    if (n == 0) ADD(c->slots + 2);
    s->nlegal = (int16_t)n;
}

static int is_legal(GameObject *g, int id) {
    for (int i = 0; i < g->s.nlegal; i++)
        if (g->legal[i] == id) return 1;
    return 0;
}

/* Carry out a legal id. -1 with an exception set on an error. */
static int apply_id(GameObject *g, int id) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int kind = s->kind, rc = 0;
    s->nlegal = -1;
    if (kind == K_KEEP || kind == K_START) {
        keep_tickets(g, id - c->keep_base);
    } else if (id == 0) {
        rc = draw_blind(g, kind == K_SECOND);
    } else if (id <= c->slots) {
        rc = draw_face_up(g, id - 1, kind == K_SECOND);
    } else if (id == c->slots + 1) {
        rc = draw_tickets(g);
    } else if (id == c->slots + 2) {
        finish_turn(g, 1);
    } else {
        rc = claim(g, id);
    }
    return rc;
}

/* ---------------------------------------------------------------- scoring */

static int find(int *parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* The longest trail over `m` edges (ends a, b; lengths). Exact: per
 * component, Euler when at most two vertices are odd, else a depth-first
 * search from each odd vertex with a memo of (vertex, edges used). */
typedef struct { uint64_t used; int16_t vertex; int32_t value; } MemoEntry;
#define MEMO 4096

static int extend(int v, uint64_t used, int m, const int *ea, const int *eb, const int *el,
                  MemoEntry *memo) {
    uint64_t key = used * 0x9E3779B97F4A7C15ULL ^ (uint64_t)v * 0xC2B2AE3D27D4EB4FULL;
    int slot = (int)(key >> 52) & (MEMO - 1);
    for (int probe = 0; probe < 8; probe++) {
        MemoEntry *e = &memo[(slot + probe) & (MEMO - 1)];
        if (e->vertex < 0) break;
        if (e->vertex == v && e->used == used) return e->value;
    }
    int best = 0;
    for (int i = 0; i < m; i++) {
        if (used >> i & 1) continue;
        int other;
        if (ea[i] == v) other = eb[i];
        else if (eb[i] == v) other = ea[i];
        else continue;
        int got = el[i] + extend(other, used | (1ULL << i), m, ea, eb, el, memo);
        if (got > best) best = got;
    }
    for (int probe = 0; probe < 8; probe++) {
        MemoEntry *e = &memo[(slot + probe) & (MEMO - 1)];
        if (e->vertex < 0) {
            e->vertex = (int16_t)v;
            e->used = used;
            e->value = best;
            break;
        }
    }
    return best;
}

static int longest_trail(ConfigObject *c, SeatState *seat) {
    int m = seat->nroutes;
    if (m == 0) return 0;
    if (m > 64) m = 64; /* a seat holds at most 45 routes on a built-in map */
    int ea[64], eb[64], el[64];
    int parent[MAXLOC], degree[MAXLOC];
    for (int i = 0; i < c->nlocs; i++) { parent[i] = i; degree[i] = 0; }
    for (int i = 0; i < m; i++) {
        int r = seat->routes[i];
        ea[i] = c->end_a[r];
        eb[i] = c->end_b[r];
        el[i] = c->length[r];
        degree[ea[i]]++;
        degree[eb[i]]++;
        int x = find(parent, ea[i]), y = find(parent, eb[i]);
        if (x != y) parent[x] = y;
    }
    static MemoEntry memo[MEMO];
    int best = 0;
    for (int i = 0; i < m; i++) {
        int root = find(parent, ea[i]);
        /* each component once: at its first edge */
        int first = 1;
        for (int j = 0; j < i; j++)
            if (find(parent, ea[j]) == root) { first = 0; break; }
        if (!first) continue;
        int total = 0, odd = 0;
        int cea[64], ceb[64], cel[64], cm = 0;
        for (int j = 0; j < m; j++)
            if (find(parent, ea[j]) == root) {
                total += el[j];
                cea[cm] = ea[j]; ceb[cm] = eb[j]; cel[cm] = el[j]; cm++;
            }
        int odds[MAXLOC];
        for (int v = 0; v < c->nlocs; v++)
            if (degree[v] % 2 && find(parent, v) == root) odds[odd++] = v;
        int here = 0;
        if (odd <= 2) {
            here = total;
        } else {
            for (int k = 0; k < MEMO; k++) memo[k].vertex = -1;
            for (int k = 0; k < odd && here < total; k++) {
                int got = extend(odds[k], 0, cm, cea, ceb, cel, memo);
                if (got > here) here = got;
            }
        }
        if (here > best) best = here;
    }
    return best;
}

/* Totals, completed tickets and winners of a finished game, as
 * ttr_core.final_scores counts them for the variants declared. */
static void score(GameObject *g, int *totals, int *completed, int *won) {
    ConfigObject *c = CFG(g);
    State *s = &g->s;
    int trail[MAXP];
    for (int p = 0; p < c->players; p++) {
        SeatState *seat = &s->seats[p];
        int parent[MAXLOC];
        for (int i = 0; i < c->nlocs; i++) parent[i] = i;
        for (int i = 0; i < seat->nroutes; i++) {
            int r = seat->routes[i];
            int x = find(parent, c->end_a[r]), y = find(parent, c->end_b[r]);
            if (x != y) parent[x] = y;
        }
        int total = seat->score, done = 0;
        for (int i = 0; i < seat->ntickets; i++) {
            TicketDef *t = &c->tickets[seat->tickets[i]];
            int best = -1, best_points = 0;
            for (int gi = 0; gi < t->ngoals; gi++) {
                if (best >= 0 && t->goal_points[gi] <= best_points) continue;
                int joined = 0;
                for (int a = 0; a < t->nstart && !joined; a++) {
                    int ra = find(parent, t->start[a]);
                    for (int b = 0; b < t->goal_n[gi]; b++)
                        if (find(parent, t->goal_places[gi][b]) == ra) { joined = 1; break; }
                }
                if (joined) { best = gi; best_points = t->goal_points[gi]; }
            }
            if (best >= 0) { total += best_points; done++; }
            else total -= t->lost;
        }
        if (c->place_points) {
            uint8_t seen[MAXLOC];
            memset(seen, 0, sizeof seen);
            int touched = 0;
            for (int i = 0; i < seat->nroutes; i++) {
                int r = seat->routes[i];
                int ends[2] = {c->end_a[r], c->end_b[r]};
                for (int e = 0; e < 2; e++)
                    if (c->place_marked[ends[e]] && !seen[ends[e]]) { seen[ends[e]] = 1; touched++; }
            }
            total += c->place_points * touched;
        }
        trail[p] = c->trail_bonus >= 0 ? longest_trail(c, seat) : 0;
        totals[p] = total;
        completed[p] = done;
    }
    int best_trail = 0, most_done = 0;
    for (int p = 0; p < c->players; p++) {
        if (trail[p] > best_trail) best_trail = trail[p];
        if (completed[p] > most_done) most_done = completed[p];
    }
    for (int p = 0; p < c->players; p++) {
        if (c->trail_bonus >= 0 && best_trail > 0 && trail[p] == best_trail) totals[p] += c->trail_bonus;
        if (c->most_tickets_bonus >= 0 && most_done > 0 && completed[p] == most_done)
            totals[p] += c->most_tickets_bonus;
    }
    /* winners: the highest total, then the most completed tickets, then the trail */
    int best = totals[0];
    for (int p = 1; p < c->players; p++) if (totals[p] > best) best = totals[p];
    int most = -1;
    for (int p = 0; p < c->players; p++) if (totals[p] == best && completed[p] > most) most = completed[p];
    int tied = 0, holders = 0;
    for (int p = 0; p < c->players; p++) {
        won[p] = totals[p] == best && completed[p] == most;
        tied += won[p];
        holders += won[p] && c->trail_bonus >= 0 && best_trail > 0 && trail[p] == best_trail;
    }
    if (tied > 1 && c->trail_tie_break && holders)
        for (int p = 0; p < c->players; p++) won[p] = won[p] && trail[p] == best_trail;
}

/* ---------------------------------------------------------------- Game */

static int check_usable(GameObject *g) {
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
    Py_XDECREF(self->config);
    Py_XDECREF(self->shuffle);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int game_init(GameObject *self, PyObject *args, PyObject *kw) {
    PyObject *config, *shuffle;
    if (!PyArg_ParseTuple(args, "O!O", &ConfigType, &config, &shuffle)) return -1;
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

/* load(core, seats): the state as ttr_core.native.game.load writes it. */
static PyObject *game_load(GameObject *self, PyObject *args) {
    PyObject *core, *seats;
    if (!PyArg_ParseTuple(args, "OO", &core, &seats)) return NULL;
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
    if (!FIELD(7) || (v = PyLong_AsLong(item), PyErr_Occurred())) goto fail;
    s.kind = (int8_t)v;
    if (!FIELD(8) || (v = PyLong_AsLong(item), PyErr_Occurred())) goto fail;
    s.player = (int8_t)v;
    if (!FIELD(9) || fill_u16(item, s.offered, MAXOFFER, &n) < 0) goto fail;
    s.noffered = (int8_t)n;
    if (!FIELD(10) || (v = PyLong_AsLong(item), PyErr_Occurred())) goto fail;
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
        if (ints[i]) *ints[i] = (int32_t)v;
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
    int ok = s.kind >= K_TURN && s.kind <= K_NONE && s.player >= 0 && s.player < c->players &&
             s.termination >= END_NONE && s.termination <= END_STALEMATE &&
             s.min_keep >= 0 && s.min_keep <= s.noffered && s.deck_len + c->slots <= MAXCARDS;
    for (int i = 0; ok && i < s.deck_len; i++) ok = s.deck[i] < c->kinds;
    for (int i = 0; ok && i < c->slots; i++) ok = s.display[i] >= -1 && s.display[i] < c->kinds;
    for (int i = 0; ok && i < c->kinds; i++) ok = s.discard[i] >= 0;
    for (int i = 0; ok && i < c->nroutes; i++) ok = s.owners[i] >= -1 && s.owners[i] < c->players;
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

static PyObject *ints_tuple_u8(const uint8_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

static PyObject *ints_tuple_u16(const uint16_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

static PyObject *ints_tuple_i16(const int16_t *v, int n) {
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
    return Py_BuildValue("(NN)", core, seats);
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

/* Seat `seat`'s observation vector into `out` (the layout's size). */
static void write_observation(GameObject *self, int seat, float *out) {
    ConfigObject *c = self->config;
    State *s = &self->s;
    int n = c->players, kinds = c->kinds;
    memset(out, 0, sizeof(float) * c->obs_size);
    out[seat] = 1.0f;
    if (s->kind != K_NONE) {
        out[c->at_move + ((s->player - seat) % n + n) % n] = 1.0f;
        out[c->at_pending + c->kind_slot[s->kind]] = 1.0f;
    }
    if (s->termination != END_NONE) out[c->at_over] = 1.0f;
    SeatState *me = &s->seats[seat];
    for (int k = 0; k < kinds; k++) out[c->at_hand + k] = (float)((double)me->counts[k] / c->deck_div[k]);
    for (int i = 0; i < me->ntickets; i++) out[c->at_held + me->tickets[i]] = 1.0f;
    int mine = (s->kind == K_KEEP || s->kind == K_START) && s->player == seat;
    if (mine)
        for (int i = 0; i < s->noffered; i++) out[c->at_held + c->ntickets + s->offered[i]] = 1.0f;
    int offer_size = (s->kind == K_KEEP || s->kind == K_START) ? s->noffered : 0;
    out[c->at_keep] = (float)((double)(mine ? s->min_keep : 0) / c->offer_scale);
    out[c->at_keep + 1] = (float)((double)offer_size / c->offer_scale);
    double row[MAXK] = {0};
    double step = 1.0 / c->display_scale;
    for (int i = 0; i < c->slots; i++)
        if (s->display[i] >= 0) row[s->display[i]] += step;
    for (int k = 0; k < kinds; k++) out[c->at_display + k] = (float)row[k];
    int discarded = 0;
    for (int k = 0; k < kinds; k++) discarded += s->discard[k];
    out[c->at_piles] = (float)((double)s->deck_len / c->total_cards);
    out[c->at_piles + 1] = (float)((double)discarded / c->total_cards);
    out[c->at_piles + 2] = (float)((double)s->tdeck_len / c->ticket_scale);
    out[c->at_piles + 3] = (float)((double)s->tpile_len / c->ticket_scale);
    for (int i = 0; i < s->tpile_len; i++) out[c->at_ticket_discard + s->tpile[i]] = 1.0f;
    for (int k = 0; k < n; k++) {
        int number = (seat + k) % n;
        SeatState *p = &s->seats[number];
        float *at = out + c->at_seats + k * c->per_seat;
        int held = 0, any = 0;
        for (int q = 0; q < kinds; q++) { held += p->counts[q]; any |= p->known[q]; }
        at[0] = (float)((double)p->cars / c->cars_scale);
        at[1] = (float)((double)held / c->total_cards);
        at[2] = (float)((double)p->ntickets / c->ticket_scale);
        at[3] = (float)((double)p->score / c->score_scale);
        if (any)
            for (int q = 0; q < kinds; q++) {
                int shown = p->known[q] < p->counts[q] ? p->known[q] : p->counts[q];
                at[4 + q] = (float)((double)shown / c->deck_div[q]);
            }
        int column = k; /* (number - seat) % n */
        for (int i = 0; i < p->nroutes; i++) out[c->at_routes + p->routes[i] * c->width + column] = 1.0f;
    }
    int final = s->final_turns;
    out[c->at_ending] = final >= 0 ? 1.0f : 0.0f;
    out[c->at_ending + 1] = (float)((double)(final > 0 ? final : 0) / n);
    out[c->at_ending + 2] = (float)((double)s->turn / (2.0 * n * c->cars_scale));
    out[c->at_ending + 3] = (float)((double)s->passes / n);
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
 * ((the offer, the tickets kept, sorted)); display: the display after it if
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
    return Py_BuildValue("(iiNN)", seat, kind, fact, after);
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

/* Random choices, as random_playout makes them with `t`, until the game ends
 * or `most` actions were applied; the actions applied, or -1 with an
 * exception set. With `record`, each action goes to *buf (grown as needed)
 * as id << 3 | seat, and the offer of each ticket choice to `offers`. */
static long play_loop(GameObject *self, Twister *t, long most, int record, int32_t **buf,
                      long *cap, PyObject *offers) {
    State *s = &self->s;
    long done = 0;
    while (s->kind != K_NONE && done < most) {
        if (s->nlegal < 0) list_legal(self);
        int n = s->nlegal;
        int id = n > 1 ? self->legal[below(t, n)] : self->legal[0];
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
    long done = play_loop(self, &t, most, 1, &buf, &cap, offers);
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
    long done = play_loop(self, &t, most, record, &buf, &cap, offers);
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
    {"apply", (PyCFunction)game_apply, METH_O, "Carry out a legal action id."},
    {"clone", (PyCFunction)game_clone, METH_NOARGS, "An independent copy."},
    {"scores", (PyCFunction)game_scores, METH_NOARGS, "(totals, completed tickets, winners)."},
    {"play", (PyCFunction)game_play, METH_VARARGS, "Random choices as random_playout makes them."},
    {"play_seeded", (PyCFunction)game_play_seeded, METH_VARARGS, "The same, seeded from a key."},
    {NULL},
};

static PyGetSetDef game_getset[] = {
    {"player", (getter)game_player, NULL, "the seat to decide, None once over", NULL},
    {"kind", (getter)game_kind, NULL, "the pending decision's kind (0 turn .. 4 none)", NULL},
    {"ply", (getter)game_ply, NULL, "actions applied since the game began", NULL},
    {"termination", (getter)game_termination, NULL, "how it ended: 0 not, 1 cars, 2 stalemate", NULL},
    {"over", (getter)game_over, NULL, "whether the game has ended", NULL},
    {"config", (getter)game_config, NULL, "the game's Config", NULL},
    {NULL},
};

static PyTypeObject GameType = {
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

static PyMethodDef engine_functions[] = {
    {"step_batch", (PyCFunction)step_batch, METH_VARARGS, "Step many games by action ids."},
    {NULL},
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT, "_engine", "The compiled rules engine of ttr-core.", -1, engine_functions,
};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&ConfigType) < 0 || PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&engine_module);
    if (!m) return NULL;
    Py_INCREF(&ConfigType);
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Config", (PyObject *)&ConfigType) < 0 ||
        PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddIntConstant(m, "ABI", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
