/* What the compiled engine's files share: its sizes, its types, its functions
 * (_engine.c says what the engine is). */
#ifndef TTR_ENGINE_H
#define TTR_ENGINE_H

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
#define MAXLEGAL 8192 /* action ids a game may list: legal ids at once */
#define MAXCOUNT 10   /* cards a tunnel turns up, stations a seat builds */
#define MAXST 64      /* stations in a game (MAXP x MAXCOUNT) */
#define MAXRANKS 6    /* points by rank of a ranked bonus */
#define MAXAMOUNT 1000000 /* tokens, money, a toll */
#define MAXGOALS 8    /* a ticket's destinations */
#define MAX_RESETS 100 /* MAX_DISPLAY_RESETS of the Python kernel */
#define MAXVIEWS 16   /* variant numbers in an observation */

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

enum { K_TURN = 0, K_SECOND = 1, K_KEEP = 2, K_START = 3, K_NONE = 4, K_TUNNEL = 5, K_CHOOSE = 6 };
/* what a variant id stands for (ConfigObject.vid_kind) */
enum { V_NONE = 0, V_PAY = 1, V_GIVE_UP = 2, V_STATION = 3, V_CHOOSE = 4 };
/* the tie-breaks after the core's (ConfigObject.tie_order) */
enum { TIE_TRAIL = 1, TIE_STATIONS = 2 };
enum { END_NONE = 0, END_CARS = 1, END_STALEMATE = 2 };
enum { RET_DISCARD = 0, RET_BOTTOM = 1, RET_BOX = 2 };
/* the variants' numbers an observation shows (NativeRule.views), in the
 * order of VIEW_NAMES (observe.c) and ttr_core.model.declarations.NATIVE_VIEWS */
enum {
    VW_TUNNEL_ASKED = 1, VW_TUNNEL_TURNED_UP, VW_STATIONS_AT, VW_TOKENS_HELD, VW_TOKENS_SUPPLY,
    VW_TOLLS_MONEY, VW_TOLLS_LOANS, VW_NEUTRAL_CARS, VW_NEUTRAL_MARKER, VW_NEUTRAL_ROUND, VW_COUNT
};

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
    int tie_order[4], ntie;          /* the tie-breaks after the core's, in order */
    /* the play rules the variants declare (set_play); variant ids from core_ids */
    int core_ids;
    int has_play;                    /* any declared: set_play was given one */
    uint8_t min_wilds[MAXR];         /* claim_min_wilds */
    uint8_t tunnel[MAXR];            /* tunnel: 1 on a tunnel route */
    int has_tunnels, reveal;         /* tunnel: declared; cards a claim turns up */
    int tunnel_pay[MAXCOUNT + 1], tunnel_give_up;
    int stations, station_points;    /* stations per seat (0: none), points per unbuilt */
    int has_stations;                /* stations: declared */
    int station_wilds;               /* ids per (location, colour): max(stations, 1) + 1 */
    int32_t *station_id;             /* [location][colour; kinds-1: wilds alone][wilds] */
    uint8_t *vid_kind;               /* variant id - core_ids -> V_* */
    int16_t *vid_a, *vid_b, *vid_c;  /* V_PAY: wilds; V_STATION: location, colour, wilds */
    int has_longs;                   /* regular_draws */
    uint8_t is_long[MAXT];
    /* claim_tokens: routes that give one, the supply, points by rank */
    int has_tokens, tok_count, tok_ranks[MAXRANKS], tok_nranks;
    uint8_t tok_route[MAXR];
    /* route_tolls: the toll per route, money at the start, a loan's cost, points by rank */
    int has_tolls, toll_start, loan_penalty, toll_ranks[MAXRANKS], toll_nranks;
    int32_t toll[MAXR];
    /* neutral_owner: its first round, the routes on each ticket, the choice's id per route */
    int has_neutral, n_round;
    int16_t n_routes[MAXT][2];
    int8_t n_nroutes[MAXT];
    int32_t choose_id[MAXR];
    /* the observation vector's layout (ttr_core.observation.layout), once set */
    int has_layout;
    int at_move, at_pending, at_over, at_hand, at_held, at_keep, at_display, at_piles;
    int at_ticket_discard, at_seats, per_seat, at_routes, width, at_ending, obs_size;
    int total_cards, ticket_scale, offer_scale, display_scale, cars_scale;
    double score_scale;
    int kind_slot[4];
    int deck_div[MAXK];
    int nviews;                      /* the variants' numbers: what, where, scaled by */
    int view_what[MAXVIEWS], view_at[MAXVIEWS];
    double view_scale[MAXVIEWS];
    /* the deal (ttr_core.rules.setup.new_game), once set */
    int has_deal, starting_hand, cars_per_player, start_dealt;
    int deck_counts[MAXK];
    int start_scores[MAXP];
    int used;                        /* a Game was made of it: its ids are fixed */
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
    /* a tunnel claim waiting for its seat (kind K_TUNNEL): the claim's id, the
     * cards turned up, the cards more they ask */
    int16_t t_claim;
    int8_t t_nrev, t_extra;
    int8_t t_rev[MAXCOUNT];
    /* stations, in build order; per seat, how many built */
    int8_t nst;
    uint8_t st_loc[MAXST], st_wilds[MAXST], st_cards[MAXST];
    int8_t st_owner[MAXST], st_colour[MAXST];
    uint8_t st_built[MAXP];
    /* claim_tokens: each seat's, the supply left; route_tolls: each seat's
     * money and loans, what the bank received and paid */
    int32_t tok_held[MAXP], tok_deck;
    int32_t money[MAXP], loans[MAXP], bank_received, bank_paid;
    /* neutral_owner: its trains, the marker's seat, the ticket revealed last
     * (-1 none), why it stopped (0 not, 1 trains, 2 tickets); a choice pending
     * (K_CHOOSE): the free routes, the seat whose turn it interrupts */
    int32_t n_cars;
    int8_t n_marker, n_stopped, ch_n, ch_resume;
    int16_t n_revealed, ch_free[2];
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
    int32_t *legal;                  /* the legal ids of the pending decision, when listed:
                                      * room for every id of the config (each listed once at
                                      * most), not MAXLEGAL, so a game stays small to copy */
} GameObject;

/* Python's Mersenne Twister; `made`: the words of the current round made so far
 * (twister.c makes a round's words as they are drawn, CPython all at once). */
typedef struct { uint32_t mt[624]; int index, made; } Twister;

#define CFG(g) ((g)->config)

extern PyTypeObject ConfigType;
extern PyTypeObject GameType;

/* config.c */
int get_int(PyObject *seq, Py_ssize_t i, long *out);
int read_ints(PyObject *seq, long *out, Py_ssize_t most, Py_ssize_t *n);

/* twister.c */
int below(Twister *t, int n);
void ttr_sha512(const unsigned char *data, size_t len, unsigned char out[64]);
void twister_seed(Twister *t, const uint32_t *key, int n);
int twister_from_key(PyObject *words, Twister *t);
int twister_read(PyObject *state, Twister *t);
PyObject *twister_write(Twister *t);

/* rules.c */
int shuffle_ints(GameObject *g, int *cards, int n);
int can_draw(GameObject *g);
int count_wilds(GameObject *g);
int check_wilds(GameObject *g);
int claim(GameObject *g, int id);
int draw_tickets(GameObject *g);
void owner_masks(ConfigObject *c, State *s);
void list_legal(GameObject *g);
int is_legal(GameObject *g, int id);
int apply_id(GameObject *g, int id);

/* scoring.c */
void score(GameObject *g, int *totals, int *completed, int *won);

/* observe.c */
extern const char *VIEW_NAMES[VW_COUNT];
int view_length(ConfigObject *c, int what);
void write_observation(GameObject *self, int seat, float *out);

/* game.c */
int check_usable(GameObject *g);
PyObject *ints_tuple_u8(const uint8_t *v, int n);
PyObject *ints_tuple_u16(const uint16_t *v, int n);
PyObject *ints_tuple_i8(const int8_t *v, int n);
PyObject *ints_tuple_i16(const int16_t *v, int n);
PyObject *ints_tuple_i32(const int32_t *v, int n);

/* variants.c */
int load_play(ConfigObject *c, State *s, PyObject *play);
PyObject *export_play(ConfigObject *c, State *s);


#endif
