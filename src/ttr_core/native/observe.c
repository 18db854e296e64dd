/* A seat's observation vector, as ttr_core.observation lays it out. */
#include "engine.h"

/* The variants' numbers by VW_* (1 on), as NATIVE_VIEWS names them: kind.number. */
const char *VIEW_NAMES[VW_COUNT] = {
    NULL, "tunnel.asked", "tunnel.turned_up", "stations.at", "claim_tokens.held",
    "claim_tokens.supply", "route_tolls.money", "route_tolls.loans", "neutral_owner.cars",
    "neutral_owner.marker", "neutral_owner.round",
};

/* How many numbers a variant's number VW_* writes (0: none the config plays). */
int view_length(ConfigObject *c, int what) {
    switch (what) {
    case VW_TUNNEL_ASKED: return c->has_tunnels ? 1 : 0;
    case VW_TUNNEL_TURNED_UP: return c->has_tunnels ? c->kinds : 0;
    case VW_STATIONS_AT: return c->has_stations ? c->nlocs : 0;
    case VW_TOKENS_HELD: return c->has_tokens ? c->players : 0;
    case VW_TOKENS_SUPPLY: return c->has_tokens ? 1 : 0;
    case VW_TOLLS_MONEY: return c->has_tolls ? 1 : 0;
    case VW_TOLLS_LOANS: return c->has_tolls ? c->players : 0;
    case VW_NEUTRAL_CARS: case VW_NEUTRAL_MARKER: case VW_NEUTRAL_ROUND: return c->has_neutral ? 1 : 0;
    default: return 0;
    }
}

/* The variants' numbers seat `seat` sees, each of the layout's at its place
 * (ttr_core.observation.encoder's variant row: the value over its scale). */
static void write_views(GameObject *self, int seat, float *out) {
    ConfigObject *c = self->config;
    State *s = &self->s;
    int n = c->players;
    double v[MAXLOC > MAXK ? MAXLOC : MAXK];
    for (int i = 0; i < c->nviews; i++) {
        int what = c->view_what[i], len = view_length(c, what);
        memset(v, 0, sizeof(double) * (size_t)len);
        switch (what) {
        case VW_TUNNEL_ASKED:
            v[0] = s->kind == K_TUNNEL ? s->t_extra : 0;
            break;
        case VW_TUNNEL_TURNED_UP:
            if (s->kind == K_TUNNEL)
                for (int k = 0; k < s->t_nrev; k++) v[s->t_rev[k]] += 1;
            break;
        case VW_STATIONS_AT:
            for (int k = 0; k < s->nst; k++) v[s->st_loc[k]] = 1 + ((s->st_owner[k] - seat) % n + n) % n;
            break;
        case VW_TOKENS_HELD:
            for (int p = 0; p < n; p++) v[p] = s->tok_held[p];
            break;
        case VW_TOKENS_SUPPLY: v[0] = s->tok_deck; break;
        case VW_TOLLS_MONEY: v[0] = s->money[seat]; break;
        case VW_TOLLS_LOANS:
            for (int p = 0; p < n; p++) v[p] = s->loans[p];
            break;
        case VW_NEUTRAL_CARS: v[0] = s->n_cars; break;
        case VW_NEUTRAL_MARKER: v[0] = s->n_marker; break;
        case VW_NEUTRAL_ROUND: v[0] = s->turn / n + 1; break;
        }
        float *at = out + c->view_at[i];
        for (int k = 0; k < len; k++) at[k] = (float)(v[k] / c->view_scale[i]);
    }
}

/* Seat `seat`'s observation vector into `out` (the layout's size). */
void write_observation(GameObject *self, int seat, float *out) {
    ConfigObject *c = self->config;
    State *s = &self->s;
    int n = c->players, kinds = c->kinds;
    memset(out, 0, sizeof(float) * c->obs_size);
    out[seat] = 1.0f;
    if (s->kind != K_NONE) {
        out[c->at_move + ((s->player - seat) % n + n) % n] = 1.0f;
        /* a variant's decision: the last slot, "other" */
        out[c->at_pending + (s->kind < 4 ? c->kind_slot[s->kind] : c->at_over - c->at_pending - 1)] = 1.0f;
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
    /* routes of an owner that is no seat (the neutral player): the "other" column */
    if (c->has_neutral)
        for (int r = 0; r < c->nroutes; r++)
            if (s->owners[r] >= n) out[c->at_routes + r * c->width + n] = 1.0f;
    int final = s->final_turns;
    out[c->at_ending] = final >= 0 ? 1.0f : 0.0f;
    out[c->at_ending + 1] = (float)((double)(final > 0 ? final : 0) / n);
    out[c->at_ending + 2] = (float)((double)s->turn / (2.0 * n * c->cars_scale));
    out[c->at_ending + 3] = (float)((double)s->passes / n);
    write_views(self, seat, out);
}
