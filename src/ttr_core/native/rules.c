/* The core rules on a Game: the card supply, claims, tickets, turns, legal ids. */
#include "engine.h"

/* ---------------------------------------------------------------- rules */


/* The bytes of shuffle number s->shuffles's seed into buf[0..*len) (at most
 * 4 * 64): the text f"ttr-core:{seed}:{number}" (SHUFFLE_SEED of
 * ttr_core.rules.kernel.work) followed by its SHA-512, which random.Random
 * seeds itself with as one integer. g->shuffle is the game's seed (an int,
 * turned into the text's start at the first shuffle), that start (bytes), or
 * a function of the number giving the bytes. -1 with an exception set. */
static int shuffle_key(GameObject *g, unsigned char *buf, Py_ssize_t *len) {
    if (PyLong_CheckExact(g->shuffle)) {
        PyObject *text = PyUnicode_FromFormat("ttr-core:%S:", g->shuffle);
        PyObject *start = text ? PyUnicode_AsUTF8String(text) : NULL;
        Py_XDECREF(text);
        if (!start) return -1;
        Py_SETREF(g->shuffle, start);
    }
    if (PyBytes_CheckExact(g->shuffle)) {
        Py_ssize_t n = PyBytes_GET_SIZE(g->shuffle);
        if (n > 4 * 64 - 64 - 12) {
            PyErr_SetString(PyExc_ValueError, "a seed longer than the engine shuffles with");
            return -1;
        }
        memcpy(buf, PyBytes_AS_STRING(g->shuffle), (size_t)n);
        n += snprintf((char *)buf + n, 12, "%d", (int)g->s.shuffles);
        ttr_sha512(buf, (size_t)n, buf + n);
        *len = n + 64;
        return 0;
    }
    PyObject *data = PyObject_CallFunction(g->shuffle, "i", g->s.shuffles);
    if (!data) return -1;
    if (!PyBytes_Check(data) || PyBytes_GET_SIZE(data) > 4 * 64) {
        Py_DECREF(data);
        PyErr_SetString(PyExc_RuntimeError, "a shuffle's seed: up to 256 bytes");
        return -1;
    }
    *len = PyBytes_GET_SIZE(data);
    memcpy(buf, PyBytes_AS_STRING(data), (size_t)*len);
    Py_DECREF(data);
    return 0;
}

/* Shuffle `cards` (n of them) as shuffle number s->shuffles of the Python
 * kernel does (random.Random(f"ttr-core:{seed}:{n}").shuffle); the count goes
 * up. -1 with an exception set on failure. */
int shuffle_ints(GameObject *g, int *cards, int n) {
    /* the seed as an integer's big-endian bytes (its string and their SHA-512) */
    unsigned char data[4 * 64];
    Py_ssize_t len;
    if (shuffle_key(g, data, &len) < 0) return -1;
    const unsigned char *b = data;
    while (len > 0 && b[0] == 0) { b++; len--; } /* abs(a)'s words: no leading zero */
    uint32_t key[64] = {0};
    int words = len ? (int)((len + 3) / 4) : 1;
    for (Py_ssize_t i = 0; i < len; i++) /* byte i from the end is bits 8i.. */
        key[i / 4] |= (uint32_t)b[len - 1 - i] << (8 * (i % 4));
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

int can_draw(GameObject *g) { return g->s.deck_len > 0 || any_discard(g); }

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

int count_wilds(GameObject *g) {
    int n = 0, wild = CFG(g)->wild;
    for (int i = 0; i < CFG(g)->slots; i++) n += g->s.display[i] == wild;
    return n;
}

/* Reset the display while it shows too many wilds and a reset can help (E3). */
int check_wilds(GameObject *g) {
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

static int neutral_turn(GameObject *g);

/* The turn's end: the final round and stalemate counts, the next seat, and
 * what happens between turns (the neutral owner's turn). -1 on an error. */
static int finish_turn(GameObject *g, int passed) {
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
        return 0;
    }
    s->kind = K_TURN;
    s->player = (int8_t)((seat + 1) % n);
    return CFG(g)->has_neutral ? neutral_turn(g) : 0;
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
        return 0;
    }
    return finish_turn(g, 0);
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
        return 0;
    }
    return finish_turn(g, 0);
}

static void close_partner(ConfigObject *c, State *s, int rid, int owner) {
    s->open[rid / 64] &= ~(1ULL << (rid % 64));
    int p = c->partner[rid];
    if (p < 0) return;
    s->closed_any[p / 64] |= 1ULL << (p % 64);
    if (owner >= 0 && owner < c->players) s->closed_seat[owner][p / 64] |= 1ULL << (p % 64);
}

/* The seat deciding pays `colour_n` cards of `colour` (none if < 0) and
 * `wilds` wilds onto the discard pile; its known cards of those kinds go first. */
static void pay_cards(GameObject *g, int colour, int colour_n, int wilds) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    SeatState *seat = &s->seats[s->player];
    int kind[2] = {colour, c->wild}, num[2] = {colour_n, wilds};
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
}

/* What a claim of route `rid` by the seat deciding gives and costs besides
 * (ttr_after_claim of claim_tokens and route_tolls): a token while the supply
 * lasts; the route's toll, to the seat holding its pair's other route or to
 * the bank, or a loan when the seat's money is short (the bank then pays). */
static void after_claim(GameObject *g, int rid) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int seat = s->player;
    if (c->has_tokens && c->tok_route[rid] && s->tok_deck > 0) {
        s->tok_held[seat]++;
        s->tok_deck--;
    }
    int toll = c->has_tolls ? c->toll[rid] : 0;
    if (!toll) return;
    int partner = c->partner[rid], payee = -1;
    /* only a seat is paid: a route of an owner that is no seat pays the bank (E11) */
    if (partner >= 0 && s->owners[partner] >= 0 && s->owners[partner] < c->players &&
        s->owners[partner] != seat)
        payee = s->owners[partner];
    if (s->money[seat] >= toll) {
        s->money[seat] -= toll;
        if (payee < 0) s->bank_received += toll;
        else s->money[payee] += toll;
    } else {
        s->loans[seat]++;
        if (payee >= 0) {
            s->money[payee] += toll;
            s->bank_paid += toll;
        }
    }
}

/* The claim of id `id` with `more` cards more (a tunnel's extra: `more_wilds`
 * of them wilds, the rest in the claim's colour), and the turn's end. */
static int claim_paying(GameObject *g, int id, int more, int more_wilds) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int rid = c->id_route[id], colour = c->id_colour[id], wilds = c->id_wilds[id];
    int len = c->length[rid];
    SeatState *seat = &s->seats[s->player];
    s->owners[rid] = s->player;
    close_partner(c, s, rid, s->player);
    /* a claim paid with wilds alone pays its extra in wilds */
    if (colour < 0) pay_cards(g, -1, 0, wilds + more);
    else pay_cards(g, colour, len - wilds + more - more_wilds, wilds + more_wilds);
    seat->cars -= len;
    seat->routes[seat->nroutes++] = (uint8_t)rid;
    seat->score += c->route_points[len];
    if (settle_display(g) < 0) return -1;
    after_claim(g, rid);
    return finish_turn(g, 0);
}

int claim(GameObject *g, int id) { return claim_paying(g, id, 0, 0); }

/* A tunnel's claim (tunnels.py): the claim's cards shown to all, the top
 * cards turned up onto the discard pile (empty slots filled after), and the
 * seat's decision to pay what they ask or give up. */
static int claim_tunnel(GameObject *g, int id) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int rid = c->id_route[id], colour = c->id_colour[id], wilds = c->id_wilds[id];
    SeatState *seat = &s->seats[s->player];
    int shown = c->length[rid] - wilds;
    if (colour >= 0 && seat->known[colour] < shown) seat->known[colour] = (uint8_t)shown;
    if (seat->known[c->wild] < wilds) seat->known[c->wild] = (uint8_t)wilds;
    int n = 0, extra = 0;
    for (; n < c->reveal; n++) {
        int card = draw(g);
        if (card == -2) return -1;
        if (card < 0) break;
        s->t_rev[n] = (int8_t)card;
        extra += card == c->wild || card == colour;
    }
    for (int i = 0; i < n; i++) s->discard[s->t_rev[i]]++;
    if (fill_empty(g) < 0) return -1;
    s->kind = K_TUNNEL;
    s->t_claim = (int16_t)id;
    s->t_nrev = (int8_t)n;
    s->t_extra = (int8_t)extra;
    s->ply++;
    return 0;
}

/* A station built on a location (stations.py): paid from the hand, empty
 * slots filled, the turn's end. */
static int build_station(GameObject *g, int v) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int seat = s->player, cards = s->st_built[seat] + 1;
    int colour = c->vid_b[v], wilds = c->vid_c[v];
    pay_cards(g, colour, colour < 0 ? 0 : cards - wilds, wilds);
    int at = s->nst++;
    s->st_loc[at] = (uint8_t)c->vid_a[v];
    s->st_owner[at] = (int8_t)seat;
    s->st_colour[at] = (int8_t)colour;
    s->st_wilds[at] = (uint8_t)wilds;
    s->st_cards[at] = (uint8_t)cards;
    s->st_built[seat]++;
    if (fill_empty(g) < 0) return -1;
    return finish_turn(g, 0);
}

/* Take up to `count` tickets off the ticket deck, an empty one first refilled
 * from the shuffled pile. */
static int take_tickets(GameObject *g, int count, uint16_t *out, int seat_draw) {
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
    if (seat_draw && CFG(g)->has_longs) { /* regular_draws: the top tickets not long */
        uint16_t *deck = s->tdeck + s->tdeck_head;
        int got = 0, kept = 0;
        for (int i = 0; i < s->tdeck_len; i++) {
            if (got < n && !CFG(g)->is_long[deck[i]]) out[got++] = deck[i];
            else deck[kept++] = deck[i];
        }
        s->tdeck_len = (int16_t)kept;
        return got;
    }
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

/* Ticket `t` back where `where` says (RET_*): the box, the pile, the deck's bottom. */
static void return_ticket(State *s, int where, uint16_t t) {
    if (where == RET_BOX) s->boxed[s->boxed_len++] = t;
    else if (where == RET_DISCARD) s->tpile[s->tpile_len++] = t;
    else {
        compact_tdeck(s);
        s->tdeck[s->tdeck_len++] = t;
    }
}

/* ------------------------------------------------------- the neutral owner */

/* It stops for good (why: 1 out of trains, 2 out of tickets); an emptied
 * ticket deck is renewed from the shuffled pile for the seats. */
static int neutral_stop(GameObject *g, int why) {
    State *s = &g->s;
    s->n_stopped = (int8_t)why;
    if (s->tdeck_len == 0 && s->tpile_len > 0 && take_tickets(g, 0, NULL, 0) < 0) return -1;
    return 0;
}

/* It claims `rid` with its trains (no cards; a seat holding the pair's other
 * route is paid its toll by the bank); `marker` holds the marker after. */
static int neutral_claim(GameObject *g, int rid, int marker) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    s->n_cars -= c->length[rid];
    s->n_marker = (int8_t)marker;
    s->owners[rid] = (int16_t)c->players;
    close_partner(c, s, rid, c->players);
    int toll = c->has_tolls ? c->toll[rid] : 0, partner = c->partner[rid];
    if (toll && partner >= 0 && s->owners[partner] >= 0 && s->owners[partner] < c->players) {
        s->money[s->owners[partner]] += toll;
        s->bank_paid += toll;
    }
    return s->n_cars == 0 ? neutral_stop(g, 1) : 0;
}

/* Between turns (neutral.py's ttr_between_turns): after each round from its
 * first, until the end is triggered, it reveals the top ticket and acts on
 * the routes printed on it. */
static int neutral_turn(GameObject *g) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    if (s->n_stopped) return 0;
    if (s->tdeck_len == 0) return neutral_stop(g, 2);
    if (s->final_turns >= 0) return 0;
    if (s->turn % c->players || s->turn / c->players < c->n_round) return 0;
    uint16_t t;
    if (take_tickets(g, 1, &t, 0) < 0) return -1;
    return_ticket(s, c->ret_keep, t);
    s->n_revealed = (int16_t)t;
    int free[2], nfree = 0, own = 0;
    for (int i = 0; i < c->n_nroutes[t]; i++) {
        int r = c->n_routes[t][i];
        if (s->owners[r] == -1) free[nfree++] = r;
        own |= s->owners[r] == c->players;
    }
    int rc = 0;
    if (!nfree || own) {
        /* E10: nothing happens */
    } else if (s->n_cars < c->length[free[0]]) {
        rc = neutral_stop(g, 1);
    } else if (nfree == 1) {
        rc = neutral_claim(g, free[0], s->n_marker);
    } else {
        s->ch_n = 2;
        s->ch_free[0] = (int16_t)free[0];
        s->ch_free[1] = (int16_t)free[1];
        s->ch_resume = s->player;
        s->kind = K_CHOOSE;
        s->player = s->n_marker;
    }
    if (rc == 0 && s->tdeck_len == 0 && !s->n_stopped) rc = neutral_stop(g, 2);
    return rc;
}

int draw_tickets(GameObject *g) {
    State *s = &g->s;
    uint16_t offered[MAXOFFER];
    int n = take_tickets(g, CFG(g)->draw_tickets, offered, 1);
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

static int keep_tickets(GameObject *g, int mask) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    SeatState *seat = &s->seats[s->player];
    int where = s->kind == K_KEEP ? c->ret_keep : c->ret_start;
    for (int i = 0; i < s->noffered; i++)
        if (mask >> i & 1) seat->tickets[seat->ntickets++] = s->offered[i];
    for (int i = 0; i < s->noffered; i++)
        if (!(mask >> i & 1)) return_ticket(s, where, s->offered[i]);
    int was = s->kind;
    s->noffered = 0;
    s->min_keep = 0;
    if (was == K_KEEP) return finish_turn(g, 0);
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
    return 0;
}

/* The masks of a state loaded from its owners. */
void owner_masks(ConfigObject *c, State *s) {
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

/* A tunnel waiting: the ways the hand pays the extra on top of the claim (by
 * the wilds among them, fewest first), after g->legal[0..n); the new count.
 * None when the core would now refuse the claim itself (tunnels.payments). */
static int tunnel_payments(GameObject *g, int n) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int id = s->t_claim, rid = c->id_route[id], colour = c->id_colour[id];
    int wilds = c->id_wilds[id], len = c->length[rid], seat = s->player, extra = s->t_extra;
    const uint8_t *counts = s->seats[seat].counts;
    int closed = (s->closed_seat[seat][rid / 64] | (c->both_usable ? 0 : s->closed_any[rid / 64])) >> (rid % 64) & 1;
    if (s->owners[rid] != -1 || closed || s->seats[seat].cars < len || counts[c->wild] < wilds ||
        (colour >= 0 && counts[colour] < len - wilds))
        return n;
    int spare_wilds = counts[c->wild] - wilds;
    if (colour < 0) {
        if (extra <= spare_wilds) ADD(c->tunnel_pay[extra]);
        return n;
    }
    int spare_colour = counts[colour] - (len - wilds);
    for (int k = 0; k <= extra; k++)
        if (k <= spare_wilds && extra - k <= spare_colour) ADD(c->tunnel_pay[k]);
    return n;
}

/* The stations the seat deciding may build (ttr_core.payment_options of a gray
 * route as long as the station's cost, on each location without a station),
 * after g->legal[0..n); the new count. */
static int station_builds(GameObject *g, int n) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int seat = s->player, cost = s->st_built[seat] + 1, wild = c->wild;
    const uint8_t *counts = s->seats[seat].counts;
    int wilds = counts[wild], most = wilds < cost - 1 ? wilds : cost - 1;
    int pay[MAXK * (MAXCOUNT + 1)], np = 0; /* colour * station_wilds + wilds */
    for (int k = 0; k < wild; k++) {
        int have = counts[k];
        if (!have || have + wilds < cost) continue;
        for (int w = have < cost ? cost - have : 0; w <= most; w++) pay[np++] = k * c->station_wilds + w;
    }
    if (wilds >= cost) pay[np++] = wild * c->station_wilds + cost;
    if (!np) return n;
    uint8_t taken[MAXLOC];
    memset(taken, 0, sizeof taken);
    for (int i = 0; i < s->nst; i++) taken[s->st_loc[i]] = 1;
    int per = c->kinds * c->station_wilds;
    for (int loc = 0; loc < c->nlocs; loc++) {
        if (taken[loc]) continue;
        const int32_t *ids = c->station_id + loc * per;
        for (int i = 0; i < np; i++) ADD(ids[pay[i]]);
    }
    return n;
}

void list_legal(GameObject *g) {
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
    if (s->kind == K_CHOOSE) {
        for (int i = 0; i < s->ch_n; i++) ADD(c->choose_id[s->ch_free[i]]);
        s->nlegal = (int16_t)n;
        return;
    }
    if (s->kind == K_TUNNEL) {
        n = tunnel_payments(g, n);
        ADD(c->tunnel_give_up);
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
    /* the routes this seat may claim, has the cars for and might pay (a claim of
     * length len takes len cards of one colour and wilds: len <= most_colour +
     * wilds), in route id order */
    int reach = most_colour + wilds < cars ? most_colour + wilds : cars;
    const uint64_t *within = c->within[reach < 0 ? 0 : reach > 63 ? 63 : reach];
    for (int word = 0; word < WORDS; word++) {
      uint64_t bits = s->open[word] & ~s->closed_seat[seat][word] & within[word];
      if (!c->both_usable) bits &= ~s->closed_any[word];
      while (bits) {
        int rid = word * 64 + ctz64(bits);
        bits &= bits - 1;
        int len = c->length[rid];
        int cw = c->no_wild[rid] ? 0 : (wilds < len ? wilds : len);
        int base = c->claim_base[rid], colour = c->colour[rid];
        int need = c->min_wilds[rid]; /* claim_min_wilds: fewer wilds are no claim */
        if (colour >= 0) {
            int h = counts[colour] < len ? counts[colour] : len;
            if (h && h + cw >= len) {
                int most = cw < len - 1 ? cw : len - 1;
                for (int w = len - h > need ? len - h : need; w <= most; w++) ADD(base + w);
            }
            if (cw == len) ADD(base + len);
        } else if (most_colour + cw >= len) {
            for (int k = 0; k < cn; k++) {
                int have = counts[k];
                if (!have || have + cw < len) continue;
                int h = have < len ? have : len;
                int most = cw < len - 1 ? cw : len - 1;
                for (int w = len - h > need ? len - h : need; w <= most; w++) ADD(base + k * len + w);
            }
            if (cw == len) ADD(base + cn * len);
        }
      }
    }
    if (s->tdeck_len > 0 || s->tpile_len > 0) ADD(c->slots + 1);
    if (c->stations && s->st_built[seat] < c->stations) n = station_builds(g, n);
    if (n == 0) ADD(c->slots + 2);
    s->nlegal = (int16_t)n;
}

int is_legal(GameObject *g, int id) {
    for (int i = 0; i < g->s.nlegal; i++)
        if (g->legal[i] == id) return 1;
    return 0;
}

/* Carry out a legal id. -1 with an exception set on an error. */
int apply_id(GameObject *g, int id) {
    State *s = &g->s;
    ConfigObject *c = CFG(g);
    int kind = s->kind, rc = 0;
    s->nlegal = -1;
    if (kind == K_KEEP || kind == K_START) {
        rc = keep_tickets(g, id - c->keep_base);
    } else if (kind == K_CHOOSE) {
        /* a choice was made: the marker passes, the interrupted turn goes on */
        rc = neutral_claim(g, c->vid_a[id - c->core_ids], 1 - s->n_marker);
        s->kind = K_TURN;
        s->player = s->ch_resume;
        s->ply++;
    } else if (kind == K_TUNNEL) {
        if (id == c->tunnel_give_up) {
            rc = finish_turn(g, 0); /* the seat keeps its cards, the route stays free */
        } else {
            int k = c->vid_a[id - c->core_ids];
            rc = claim_paying(g, s->t_claim, s->t_extra, k);
        }
    } else if (id == 0) {
        rc = draw_blind(g, kind == K_SECOND);
    } else if (id <= c->slots) {
        rc = draw_face_up(g, id - 1, kind == K_SECOND);
    } else if (id == c->slots + 1) {
        rc = draw_tickets(g);
    } else if (id == c->slots + 2) {
        rc = finish_turn(g, 1);
    } else if (id >= c->core_ids) {
        rc = build_station(g, id - c->core_ids);
    } else if (c->tunnel[c->id_route[id]]) {
        rc = claim_tunnel(g, id);
    } else {
        rc = claim(g, id);
    }
    return rc;
}
