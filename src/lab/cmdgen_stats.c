/* The command generator's statistics: one record per integration step (states visited, delay
 * from D_target to the next D_update, ticks per state) and Mosqueda et al.'s (2004) Table 1 per
 * site. */
#include "cmdgen_impl.h"

#include <string.h>

void hs_cmdgen_stats_clear(hs_cmdgen *g)
{
    memset(&g->cur, 0, sizeof g->cur);
    memset(&g->last, 0, sizeof g->last);
    memset(&g->sum, 0, sizeof g->sum);
    g->have_last = 0;
}

/* Called once per tick, with the state that produced the tick's command. */
void hs_cmdgen_stats_tick(hs_cmdgen *g, hs_cmdgen_state produced_by)
{
    if (!g->started) return;
    g->cur.ticks++;
    g->cur.state_ticks[produced_by]++;
    g->cur.states |= HS_CMDGEN_BIT(produced_by);
    g->sum.state_ticks[produced_by]++;
    int64_t total = 0;
    for (int s = 0; s < HS_CMDGEN_NSTATES; s++) total += g->sum.state_ticks[s];
    g->sum.total_time = (double)total / g->p.rate;
}

/* D_update: the delay is the ticks the step has taken so far (before this tick). */
void hs_cmdgen_stats_update(hs_cmdgen *g)
{
    g->cur.delay_ticks = g->cur.ticks;
    const double delay = (double)g->cur.ticks / g->p.rate;
    if (delay > g->sum.max_delay) g->sum.max_delay = delay;
}

/* D_target: the step is complete. */
void hs_cmdgen_stats_target(hs_cmdgen *g)
{
    hs_cmdgen_summary *s = &g->sum;
    s->steps++;
    if (g->cur.states & HS_CMDGEN_BIT(HS_CMDGEN_SLOW)) s->steps_slow++;
    if (g->cur.states & HS_CMDGEN_BIT(HS_CMDGEN_HOLD)) s->steps_hold++;
    s->pct_slow = 100.0 * (double)s->steps_slow / (double)s->steps;
    s->pct_hold = 100.0 * (double)s->steps_hold / (double)s->steps;
    g->last = g->cur;
    g->have_last = 1;
    memset(&g->cur, 0, sizeof g->cur);
    g->cur.step = g->last.step + 1;
}

const hs_cmdgen_step *hs_cmdgen_last_step(const hs_cmdgen *g)
{
    return g->have_last ? &g->last : NULL;
}
const hs_cmdgen_step *hs_cmdgen_current_step(const hs_cmdgen *g)
{
    return &g->cur;
}
void hs_cmdgen_summary_get(const hs_cmdgen *g, hs_cmdgen_summary *s)
{
    *s = g->sum;
}
