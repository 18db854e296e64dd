/* A board, player count and rule set as the engine reads them (Config). */
#include "engine.h"

/* ---------------------------------------------------------------- Config */

int get_int(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

int read_ints(PyObject *seq, long *out, Py_ssize_t most, Py_ssize_t *n) {
    if (PyTuple_CheckExact(seq)) { /* the usual case (a state's tuples): no item objects made */
        Py_ssize_t len = PyTuple_GET_SIZE(seq);
        if (len > most) {
            PyErr_Format(PyExc_ValueError, "%zd values, at most %zd", len, most);
            return -1;
        }
        for (Py_ssize_t i = 0; i < len; i++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
            if (v == -1 && PyErr_Occurred()) return -1;
            out[i] = v;
        }
        *n = len;
        return 0;
    }
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
    PyMem_Free(self->station_id);
    PyMem_Free(self->vid_kind);
    PyMem_Free(self->vid_a);
    PyMem_Free(self->vid_b);
    PyMem_Free(self->vid_c);
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
    self->ntie = self->trail_tie_break ? 1 : 0;
    self->tie_order[0] = TIE_TRAIL;
    self->nids = self->keep_base + (1 << keep_bits);
    self->core_ids = self->nids;
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

/* set_layout(ints, score_scale, kind slots, deck divisors, variant numbers):
 * the observation layout of ttr_core.observation (see
 * ttr_core.observation.encoder); the variant numbers as (VW_*, where, scale)
 * each, every one of a variant the config plays. */
static PyObject *config_set_layout(ConfigObject *self, PyObject *args) {
    PyObject *ints, *slots, *deck, *views;
    double score_scale;
    if (!PyArg_ParseTuple(args, "OdOOO!", &ints, &score_scale, &slots, &deck, &PyTuple_Type, &views))
        return NULL;
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
    Py_ssize_t nviews = PyTuple_GET_SIZE(views);
    if (nviews > MAXVIEWS) { PyErr_SetString(PyExc_ValueError, "too many variant numbers"); return NULL; }
    int what[MAXVIEWS], at[MAXVIEWS];
    double scale[MAXVIEWS];
    for (Py_ssize_t i = 0; i < nviews; i++) {
        PyObject *part = PyTuple_GET_ITEM(views, i);
        long w = 0, a = 0;
        if (!PyTuple_Check(part) || PyTuple_GET_SIZE(part) != 3 || get_int(part, 0, &w) < 0 ||
            get_int(part, 1, &a) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a variant number: (what, where, scale)");
            return NULL;
        }
        double sc = PyFloat_AsDouble(PyTuple_GET_ITEM(part, 2));
        if (sc == -1.0 && PyErr_Occurred()) return NULL;
        int len = w > 0 && w < VW_COUNT ? view_length(self, (int)w) : 0;
        /* of a variant the config plays, after the core's parts, inside the vector */
        if (!len || !(sc > 0) || a < self->at_ending + 4 || a > self->obs_size - len) {
            PyErr_SetString(PyExc_ValueError, "a variant number the config cannot write");
            return NULL;
        }
        what[i] = (int)w; at[i] = (int)a; scale[i] = sc;
    }
    self->nviews = (int)nviews;
    for (Py_ssize_t i = 0; i < nviews; i++) {
        self->view_what[i] = what[i]; self->view_at[i] = at[i]; self->view_scale[i] = scale[i];
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

/* An id of the action space, read from `seq` at `i`: core_ids <= id < size. */
static int variant_id(PyObject *seq, Py_ssize_t i, int core, int size, int *out) {
    long v;
    if (get_int(seq, i, &v) < 0) return -1;
    if (v < core || v >= size) {
        PyErr_SetString(PyExc_ValueError, "a variant action id out of the action space");
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* set_play(size, min_wilds, tunnel, stations, longs, ties): the play rules the
 * variants declare (ttr_core.native.engine._build), once, before any game:
 * size: the action space's ids (variant ids from the core's up to it);
 * min_wilds: a value per route, or (); tunnel: (flags per route, cards
 * turned up, pay ids for 0.. wilds, give-up id), or (); stations: (per seat,
 * points per unbuilt, build ids by location, colour, wilds), or (); longs:
 * the ticket ids draws skip; ties: the tie-breaks after the core's, in order
 * (TIE_*); tokens, tolls: see set_accounts. */
/* Points by rank from `seq` into `out` (at most MAXRANKS). */
static int read_ranks(PyObject *seq, int *out, int *n) {
    long buf[MAXRANKS];
    Py_ssize_t m;
    if (read_ints(seq, buf, MAXRANKS, &m) < 0) return -1;
    for (Py_ssize_t i = 0; i < m; i++) {
        if (buf[i] < 0 || buf[i] > 1000) { PyErr_SetString(PyExc_ValueError, "points by rank: 0 to 1,000"); return -1; }
        out[i] = (int)buf[i];
    }
    *n = (int)m;
    return 0;
}

/* claim_tokens (flags per route, supply, ranks) and route_tolls (toll per
 * route, money at the start, a loan's cost, ranks), each () when not played. */
static int set_accounts(ConfigObject *self, PyObject *tokens, PyObject *tolls) {
    long buf[MAXR];
    Py_ssize_t n;
    Py_ssize_t tn = PySequence_Size(tokens);
    if (tn < 0) return -1;
    if (tn) {
        long count;
        PyObject *flags = PySequence_GetItem(tokens, 0), *ranks = PySequence_GetItem(tokens, 2);
        int bad = !flags || !ranks || get_int(tokens, 1, &count) < 0 || read_ints(flags, buf, MAXR, &n) < 0 ||
                  read_ranks(ranks, self->tok_ranks, &self->tok_nranks) < 0;
        bad = bad || n != self->nroutes || count < 0 || count > MAXAMOUNT;
        for (Py_ssize_t i = 0; !bad && i < n; i++) {
            bad = buf[i] < 0 || buf[i] > 1;
            self->tok_route[i] = (uint8_t)buf[i];
        }
        Py_XDECREF(flags);
        Py_XDECREF(ranks);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a token rule's values");
            return -1;
        }
        self->tok_count = (int)count;
        self->has_tokens = self->has_play = 1;
    }
    tn = PySequence_Size(tolls);
    if (tn < 0) return -1;
    if (tn) {
        long start, penalty;
        PyObject *each = PySequence_GetItem(tolls, 0), *ranks = PySequence_GetItem(tolls, 3);
        int bad = !each || !ranks || get_int(tolls, 1, &start) < 0 || get_int(tolls, 2, &penalty) < 0 ||
                  read_ints(each, buf, MAXR, &n) < 0 ||
                  read_ranks(ranks, self->toll_ranks, &self->toll_nranks) < 0;
        bad = bad || n != self->nroutes || start < 0 || start > MAXAMOUNT || penalty < 0 || penalty > 1000;
        for (Py_ssize_t i = 0; !bad && i < n; i++) {
            bad = buf[i] < 0 || buf[i] > MAXAMOUNT;
            self->toll[i] = (int32_t)buf[i];
        }
        Py_XDECREF(each);
        Py_XDECREF(ranks);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a toll rule's values");
            return -1;
        }
        self->toll_start = (int)start;
        self->loan_penalty = (int)penalty;
        self->has_tolls = self->has_play = 1;
    }
    return 0;
}

/* neutral_owner: (trains, first round, routes per ticket, (route, choice id)
 * per route a ticket lists), or (). */
static int set_neutral(ConfigObject *self, PyObject *neutral) {
    Py_ssize_t n = PySequence_Size(neutral);
    if (n < 0) return -1;
    for (int r = 0; r < MAXR; r++) self->choose_id[r] = -1;
    if (!n) return 0;
    long cars, first;
    PyObject *tickets = PySequence_GetItem(neutral, 2), *choices = PySequence_GetItem(neutral, 3);
    int ok = tickets && choices && get_int(neutral, 0, &cars) == 0 && get_int(neutral, 1, &first) == 0 &&
             cars >= 0 && cars <= MAXAMOUNT && first >= 0 && first <= MAXAMOUNT &&
             PySequence_Size(tickets) == self->ntickets;
    long buf[4];
    Py_ssize_t m;
    for (int t = 0; ok && t < self->ntickets; t++) {
        PyObject *one = PySequence_GetItem(tickets, t);
        ok = one && read_ints(one, buf, 2, &m) == 0;
        Py_XDECREF(one);
        for (Py_ssize_t i = 0; ok && i < m; i++) {
            ok = buf[i] >= 0 && buf[i] < self->nroutes;
            self->n_routes[t][i] = (int16_t)buf[i];
        }
        self->n_nroutes[t] = (int8_t)(ok ? m : 0);
    }
    Py_ssize_t nc = ok ? PySequence_Size(choices) : -1;
    ok = ok && nc >= 0;
    for (Py_ssize_t i = 0; ok && i < nc; i++) {
        PyObject *one = PySequence_GetItem(choices, i);
        ok = one && read_ints(one, buf, 2, &m) == 0 && m == 2 && buf[0] >= 0 && buf[0] < self->nroutes &&
             buf[1] >= self->core_ids && buf[1] < self->nids && self->vid_kind[buf[1] - self->core_ids] == V_NONE;
        Py_XDECREF(one);
        if (!ok) break;
        self->choose_id[buf[0]] = (int32_t)buf[1];
        self->vid_kind[buf[1] - self->core_ids] = V_CHOOSE;
        self->vid_a[buf[1] - self->core_ids] = (int16_t)buf[0];
    }
    for (int t = 0; ok && t < self->ntickets; t++) /* every listed route has its choice */
        for (int i = 0; ok && i < self->n_nroutes[t]; i++) ok = self->choose_id[self->n_routes[t][i]] >= 0;
    Py_XDECREF(tickets);
    Py_XDECREF(choices);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a neutral owner's values");
        return -1;
    }
    self->n_round = (int)first;
    self->has_neutral = self->has_play = 1;
    return 0;
}

static PyObject *config_set_play(ConfigObject *self, PyObject *args) {
    int size;
    PyObject *min_wilds, *tunnel, *stations, *longs, *ties, *tokens, *tolls, *neutral;
    if (!PyArg_ParseTuple(args, "iOOOOOOOO", &size, &min_wilds, &tunnel, &stations, &longs, &ties,
                          &tokens, &tolls, &neutral))
        return NULL;
    if (self->vid_kind || self->used) {
        PyErr_SetString(PyExc_RuntimeError, "the play rules are set already, or a game was made");
        return NULL;
    }
    int core = self->core_ids;
    if (size < core || size > MAXLEGAL) {
        PyErr_Format(PyExc_ValueError, "%d action ids: from the core's %d to %d", size, core, MAXLEGAL);
        return NULL;
    }
    long buf[MAXR > MAXT ? MAXR : MAXT];
    Py_ssize_t n;
    if (read_ints(min_wilds, buf, MAXR, &n) < 0) return NULL;
    if (n && n != self->nroutes) { PyErr_SetString(PyExc_ValueError, "min_wilds: a value per route"); return NULL; }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (buf[i] < 0 || buf[i] > self->length[i]) { PyErr_SetString(PyExc_ValueError, "min_wilds: 0 to the route's length"); return NULL; }
        self->min_wilds[i] = (uint8_t)buf[i];
    }
    int nv = size - core;
    self->vid_kind = PyMem_Calloc(nv ? nv : 1, 1);
    self->vid_a = PyMem_Calloc(nv ? nv : 1, sizeof(int16_t));
    self->vid_b = PyMem_Calloc(nv ? nv : 1, sizeof(int16_t));
    self->vid_c = PyMem_Calloc(nv ? nv : 1, sizeof(int16_t));
    if (!self->vid_kind || !self->vid_a || !self->vid_b || !self->vid_c) { PyErr_NoMemory(); return NULL; }
    self->nids = size; /* from here on: a failure leaves the config unusable (vid_kind set) */
    Py_ssize_t tn = PySequence_Size(tunnel);
    if (tn < 0) return NULL;
    if (tn) {
        long reveal;
        PyObject *flags = PySequence_GetItem(tunnel, 0), *pays = PySequence_GetItem(tunnel, 2);
        int bad = !flags || !pays || get_int(tunnel, 1, &reveal) < 0 ||
                  read_ints(flags, buf, MAXR, &n) < 0;
        bad = bad || n != self->nroutes || reveal < 0 || reveal > MAXCOUNT;
        for (Py_ssize_t i = 0; !bad && i < n; i++) {
            bad = buf[i] < 0 || buf[i] > 1;
            self->tunnel[i] = (uint8_t)buf[i];
        }
        bad = bad || PySequence_Size(pays) != reveal + 1;
        for (long k = 0; !bad && k <= reveal; k++) bad = variant_id(pays, k, core, size, &self->tunnel_pay[k]) < 0;
        bad = bad || variant_id(tunnel, 3, core, size, &self->tunnel_give_up) < 0;
        Py_XDECREF(flags);
        Py_XDECREF(pays);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a tunnel rule's values");
            return NULL;
        }
        self->reveal = (int)reveal;
        self->has_tunnels = 1;
        for (long k = 0; k <= reveal; k++) {
            int v = self->tunnel_pay[k] - core;
            self->vid_kind[v] = V_PAY;
            self->vid_a[v] = (int16_t)k;
        }
        self->vid_kind[self->tunnel_give_up - core] = V_GIVE_UP;
        self->has_play = 1;
    }
    Py_ssize_t sn = PySequence_Size(stations);
    if (sn < 0) return NULL;
    if (sn) {
        long most, points;
        if (get_int(stations, 0, &most) < 0 || get_int(stations, 1, &points) < 0) return NULL;
        if (most < 0 || most > MAXCOUNT || points < 0 || points > 1000) {
            PyErr_SetString(PyExc_ValueError, "stations: up to 10 a seat, up to 1,000 points");
            return NULL;
        }
        int w = (int)(most > 1 ? most : 1) + 1, count = self->nlocs * self->kinds * w;
        PyObject *ids = PySequence_GetItem(stations, 2);
        if (!ids) return NULL;
        self->station_id = PyMem_Malloc(sizeof(int32_t) * (count ? count : 1));
        int bad = !self->station_id || PySequence_Size(ids) != count;
        for (int i = 0; !bad && i < count; i++) {
            int id;
            bad = variant_id(ids, i, core, size, &id) < 0;
            if (bad) break;
            self->station_id[i] = id;
            int v = id - core;
            bad = self->vid_kind[v] != V_NONE;
            self->vid_kind[v] = V_STATION;
            self->vid_a[v] = (int16_t)(i / (self->kinds * w));
            int colour = i / w % self->kinds;
            self->vid_b[v] = (int16_t)(colour == self->kinds - 1 ? -1 : colour);
            self->vid_c[v] = (int16_t)(i % w);
        }
        Py_DECREF(ids);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "stations: an id per build, each once");
            return NULL;
        }
        self->stations = (int)most;
        self->has_stations = 1; /* declared, even with none a seat (its view: no station) */
        self->station_points = (int)points;
        self->station_wilds = w;
        self->has_play = 1;
    }
    if (read_ints(longs, buf, MAXT, &n) < 0) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (buf[i] < 0 || buf[i] >= self->ntickets) { PyErr_SetString(PyExc_ValueError, "longs: ticket ids"); return NULL; }
        self->is_long[buf[i]] = 1;
        self->has_longs = 1;
    }
    if (read_ints(ties, buf, 4, &n) < 0) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (buf[i] != TIE_TRAIL && buf[i] != TIE_STATIONS) { PyErr_SetString(PyExc_ValueError, "a tie-break"); return NULL; }
        self->tie_order[i] = (int)buf[i];
    }
    self->ntie = (int)n;
    if (set_accounts(self, tokens, tolls) < 0 || set_neutral(self, neutral) < 0) return NULL;
    for (int i = 0; i < self->nroutes; i++) self->has_play |= self->min_wilds[i] > 0;
    self->has_play |= self->has_longs;
    Py_RETURN_NONE;
}

static PyMethodDef config_methods[] = {
    {"set_play", (PyCFunction)config_set_play, METH_VARARGS, "Set the play rules the variants declare."},
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

static PyObject *config_has_play(ConfigObject *self, void *closure) {
    return PyBool_FromLong(self->has_play);
}

static PyObject *config_core_ids(ConfigObject *self, void *closure) {
    return PyLong_FromLong(self->core_ids);
}

static PyGetSetDef config_getset[] = {
    {"has_play", (getter)config_has_play, NULL, "whether variants' play rules are set", NULL},
    {"core_ids", (getter)config_core_ids, NULL, "the core's action ids (variant ids follow)", NULL},
    {"has_layout", (getter)config_has_layout, NULL, "whether the observation layout is set", NULL},
    {"size", (getter)config_size, NULL, "the number of action ids", NULL},
    {"keep_base", (getter)config_keep_base, NULL, "the first KeepTickets id", NULL},
    {NULL},
};

PyTypeObject ConfigType = {
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
