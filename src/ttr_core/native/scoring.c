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
