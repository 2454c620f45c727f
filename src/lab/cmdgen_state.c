/* The command generator's checkpoint state: everything that influences later ticks (state, step
 * parameter, target history and pending target, command and velocity, the restart segment, free
 * vibration) and the statistics, as doubles. The parameters and the derived tick counts are not
 * saved: load into a generator created with the same parameters (checked by nact, order, N). */
#include "cmdgen_impl.h"

#include "cmdgen_step_state.h"

/* One walk for counting, saving and loading (g is written only when loading). */
static void walk(hs_cmdgen *g, hs_state_io *s)
{
    const size_t n = (size_t)g->n;
    const int64_t BIG = HS_STATE_I64_MAX;
    g->state = (hs_cmdgen_state)hs_state_int(s, g->state, 0, HS_CMDGEN_NSTATES - 1);
    g->started = (int)hs_state_int(s, g->started, 0, 1);
    g->pending = (int)hs_state_int(s, g->pending, 0, 1);
    g->x = hs_state_num(s, g->x);
    g->k = hs_state_int(s, g->k, 0, BIG);
    g->x_slow0 = hs_state_num(s, g->x_slow0);
    g->x_u = hs_state_num(s, g->x_u);
    g->iM = hs_state_int(s, g->iM, 0, BIG);
    hs_state_vec(s, g->hist, n * (HS_CMDGEN_MAX_ORDER + 1));
    double *vecs[] = {g->target, g->cmd, g->vel, g->ic0, g->im0, g->ic1, g->im1};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) hs_state_vec(s, vecs[i], n);
    hs_cmdgen_fv *fv = &g->fv;
    if (fv->enabled) {
        fv->started = (int)hs_state_int(s, fv->started, 0, 1);
        fv->stopping = (int)hs_state_int(s, fv->stopping, 0, 1);
        fv->peak_v = hs_state_num(s, fv->peak_v);
        fv->peak_f = hs_state_num(s, fv->peak_f);
        fv->quiet = hs_state_int(s, fv->quiet, 0, BIG);
        fv->ticks = hs_state_int(s, fv->ticks, 0, BIG);
        fv->stop_j = hs_state_int(s, fv->stop_j, 0, BIG);
        double *fvecs[] = {fv->d, fv->v, fv->a, fv->dp, fv->vp, fv->r, fv->c0, fv->v0};
        for (size_t i = 0; i < sizeof fvecs / sizeof fvecs[0]; i++) hs_state_vec(s, fvecs[i], n);
    }
    hs_cmdgen_step_state(s, &g->cur);
    hs_cmdgen_step_state(s, &g->last);
    g->have_last = (int)hs_state_int(s, g->have_last, 0, 1);
    hs_cmdgen_summary *m = &g->sum;
    m->steps = hs_state_int(s, m->steps, 0, BIG);
    m->max_delay = hs_state_num(s, m->max_delay);
    m->total_time = hs_state_num(s, m->total_time);
    m->pct_slow = hs_state_num(s, m->pct_slow);
    m->pct_hold = hs_state_num(s, m->pct_hold);
    m->steps_slow = hs_state_int(s, m->steps_slow, 0, BIG);
    m->steps_hold = hs_state_int(s, m->steps_hold, 0, BIG);
    m->timeouts = hs_state_int(s, m->timeouts, 0, BIG);
    for (int k = 0; k < HS_CMDGEN_NSTATES; k++)
        m->state_ticks[k] = hs_state_int(s, m->state_ticks[k], 0, BIG);
    m->fv_capped = (int)hs_state_int(s, m->fv_capped, 0, 1);
}

/* layout: nact, order, N, free vibration enabled, then the walk */
#define HS_CMDGEN_STATE_HEAD 4

size_t hs_cmdgen_state_size(const hs_cmdgen *g)
{
    hs_state_io s = hs_state_writer(NULL);
    walk((hs_cmdgen *)g, &s); /* counting writes nothing */
    return HS_CMDGEN_STATE_HEAD + s.pos;
}

int hs_cmdgen_state_save(const hs_cmdgen *g, double *out)
{
    out[0] = (double)g->n;
    out[1] = (double)g->order;
    out[2] = (double)g->N;
    out[3] = (double)g->fv.enabled;
    hs_state_io s = hs_state_writer(out + HS_CMDGEN_STATE_HEAD);
    walk((hs_cmdgen *)g, &s); /* saving reads g only */
    return 0;
}

int hs_cmdgen_state_load(hs_cmdgen *g, const double *in)
{
    if (in[0] != (double)g->n || in[1] != (double)g->order || in[2] != (double)g->N ||
        in[3] != (double)g->fv.enabled)
        return hs_fail(g->ctx, HS_EINPUT,
                       "command generator: the saved state is for %g actuators, order %g, %g "
                       "ticks per step, free vibration %g; this generator has %d, %d, %lld, %d",
                       in[0], in[1], in[2], in[3], g->n, g->order, (long long)g->N, g->fv.enabled);
    hs_state_io s = hs_state_reader(in + HS_CMDGEN_STATE_HEAD);
    walk(g, &s);
    if (s.bad)
        return hs_fail(g->ctx, HS_EINPUT,
                       "command generator: the saved state holds an impossible count or flag");
    return 0;
}
