/* A seat's observation vector, as ttr_core.observation lays it out. */
#include "engine.h"

/* Seat `seat`'s observation vector into `out` (the layout's size). */
void write_observation(GameObject *self, int seat, float *out) {
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
