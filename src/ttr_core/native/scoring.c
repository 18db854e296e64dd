/* The end count: tickets, the declared bonuses, the longest trail, winners. */
#include "engine.h"

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

/* The ticket points and completed tickets of `seat` with its locations in
 * components `root` (a root per location). */
static void tickets_scored(ConfigObject *c, SeatState *seat, const int *root, int *points, int *done) {
    int total = 0, count = 0;
    for (int i = 0; i < seat->ntickets; i++) {
        TicketDef *t = &c->tickets[seat->tickets[i]];
        int best = -1, best_points = 0;
        for (int gi = 0; gi < t->ngoals; gi++) {
            if (best >= 0 && t->goal_points[gi] <= best_points) continue;
            int joined = 0;
            for (int a = 0; a < t->nstart && !joined; a++) {
                int ra = root[t->start[a]];
                for (int b = 0; b < t->goal_n[gi]; b++)
                    if (root[t->goal_places[gi][b]] == ra) { joined = 1; break; }
            }
            if (joined) { best = gi; best_points = t->goal_points[gi]; }
        }
        if (best >= 0) { total += best_points; count++; }
        else total -= t->lost;
    }
    *points = total;
    *done = count;
}

/* EU3 (stations.py): the best the seat's stations do for its tickets, each
 * lending one route of another owner at its location or none: the most
 * ticket points, then the most completed tickets, by trying every choice
 * (routes joining the same two components are alike: one of each). */
static void stations_lend(ConfigObject *c, State *s, int p, const int *root, int *points, int *done) {
    int loc_of[MAXCOUNT], nmine = 0;
    for (int i = 0; i < s->nst; i++)
        if (s->st_owner[i] == p) loc_of[nmine++] = s->st_loc[i];
    if (!nmine) return;
    /* options[i]: the (a, b) component pairs station i can join */
    int opt_a[MAXCOUNT][MAXR], opt_b[MAXCOUNT][MAXR], nopt[MAXCOUNT];
    for (int i = 0; i < nmine; i++) {
        nopt[i] = 0;
        for (int r = 0; r < c->nroutes; r++) {
            if (c->end_a[r] != loc_of[i] && c->end_b[r] != loc_of[i]) continue;
            int owner = s->owners[r];
            if (owner == -1 || owner == p) continue;
            int a = root[c->end_a[r]], b = root[c->end_b[r]];
            if (a == b) continue;
            int seen = 0;
            for (int k = 0; k < nopt[i] && !seen; k++)
                seen = (opt_a[i][k] == a && opt_b[i][k] == b) || (opt_a[i][k] == b && opt_b[i][k] == a);
            if (!seen) { opt_a[i][nopt[i]] = a; opt_b[i][nopt[i]] = b; nopt[i]++; }
        }
    }
    int pick[MAXCOUNT] = {0}; /* 0: none, k: option k - 1 */
    int best_points = *points, best_done = *done;
    SeatState *seat = &s->seats[p];
    for (;;) {
        int i = 0;
        while (i < nmine && pick[i] == nopt[i]) pick[i++] = 0;
        if (i == nmine) break;
        pick[i]++;
        int parent[MAXLOC], merged[MAXLOC];
        for (int v = 0; v < c->nlocs; v++) parent[v] = v;
        for (int k = 0; k < nmine; k++) {
            if (!pick[k]) continue;
            int x = find(parent, opt_a[k][pick[k] - 1]), y = find(parent, opt_b[k][pick[k] - 1]);
            if (x != y) parent[x] = y;
        }
        for (int v = 0; v < c->nlocs; v++) merged[v] = find(parent, root[v]);
        int got, count;
        tickets_scored(c, seat, merged, &got, &count);
        if (got > best_points || (got == best_points && count > best_done)) {
            best_points = got;
            best_done = count;
        }
    }
    *points = best_points;
    *done = best_done;
}

/* A ranked bonus (ttr_core.rank_bonus, E16): `seat`'s points from `table`
 * (n of them), ranked among the eligible seats by `values`, highest first;
 * ties share a rank and skip the places they fill; 0 if not eligible. */
static int rank_points(const int32_t *values, const int *eligible, int players, int seat,
                       const int *table, int n) {
    if (!eligible[seat]) return 0;
    int rank = 1;
    for (int p = 0; p < players; p++) rank += eligible[p] && values[p] > values[seat];
    return rank <= n ? table[rank - 1] : 0;
}

/* Totals, completed tickets and winners of a finished game, as
 * ttr_core.final_scores counts them for the variants declared. */
void score(GameObject *g, int *totals, int *completed, int *won) {
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
        int root[MAXLOC];
        for (int i = 0; i < c->nlocs; i++) root[i] = find(parent, i);
        int points, done;
        tickets_scored(c, seat, root, &points, &done);
        if (c->stations) {
            stations_lend(c, s, p, root, &points, &done);
            points += (c->stations - s->st_built[p]) * c->station_points;
        }
        if (c->has_tokens) {
            int eligible[MAXP];
            for (int q = 0; q < c->players; q++) eligible[q] = s->tok_held[q] > 0;
            points += rank_points(s->tok_held, eligible, c->players, p, c->tok_ranks, c->tok_nranks);
        }
        if (c->has_tolls) {
            int eligible[MAXP];
            for (int q = 0; q < c->players; q++) eligible[q] = s->loans[q] == 0;
            points += rank_points(s->money, eligible, c->players, p, c->toll_ranks, c->toll_nranks);
            points -= c->loan_penalty * s->loans[p];
        }
        int total = seat->score + points;
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
    int tied = 0;
    for (int p = 0; p < c->players; p++) {
        won[p] = totals[p] == best && completed[p] == most;
        tied += won[p];
    }
    /* then the variants' tie-breaks, in the game's order */
    for (int t = 0; t < c->ntie && tied > 1; t++) {
        int keep[MAXP], kept = 0;
        if (c->tie_order[t] == TIE_TRAIL) { /* the longest trail's holders, if any is tied */
            for (int p = 0; p < c->players; p++) {
                keep[p] = won[p] && c->trail_bonus >= 0 && best_trail > 0 && trail[p] == best_trail;
                kept += keep[p];
            }
        } else { /* TIE_STATIONS: the fewest stations built */
            int fewest = MAXST;
            for (int p = 0; p < c->players; p++)
                if (won[p] && s->st_built[p] < fewest) fewest = s->st_built[p];
            for (int p = 0; p < c->players; p++) {
                keep[p] = won[p] && s->st_built[p] == fewest;
                kept += keep[p];
            }
        }
        if (!kept) continue;
        for (int p = 0; p < c->players; p++) won[p] = keep[p];
        tied = kept;
    }
}
