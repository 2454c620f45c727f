/* The coordinator's state for checkpoints, as one array of doubles: its clock and counters, the
 * external force at t_n, the integrator, the springs, the energy accumulators, the experimental
 * layer (last command and measurement, work, statistics, the test's clock), every site, every link
 * and the compute-time model. One walk counts, saves and loads, so the three cannot disagree.
 * Everything else is rebuilt from the test definition. Never allocates. */
#include "coordinator_impl.h"

#include "../base/state_io.h"

#include "hysim/link.h"
#include "hysim/site.h"

/* A sub-object with its own size/save/load: saved in place, or loaded from it. */
#define HS_CK_SUB(s, obj, prefix)                                                                  \
    do {                                                                                           \
        const size_t n_ = prefix##_state_size(obj);                                                \
        int rc_ = 0;                                                                               \
        if ((s)->in)                                                                               \
            rc_ = prefix##_state_load(obj, (s)->in + (s)->pos);                                    \
        else if ((s)->out)                                                                         \
            rc_ = prefix##_state_save(obj, (s)->out + (s)->pos);                                   \
        if (rc_) return rc_;                                                                       \
        (s)->pos += n_;                                                                            \
    } while (0)

static int hs_coord_exp_walk(hs_coord_exp *e, hs_state_io *s)
{
    const size_t na = (size_t)e->nact;
    const int64_t BIG = HS_STATE_I64_MAX;
    double *vecs[] = {e->x_cmd, e->x_meas, e->f_meas, e->x_prev, e->f_prev};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) hs_state_vec(s, vecs[i], na);
    e->steps = hs_state_int(s, e->steps, 0, BIG);
    e->implicit_steps = hs_state_int(s, e->implicit_steps, 0, BIG);
    e->fallback_steps = hs_state_int(s, e->fallback_steps, 0, BIG);
    e->updated_steps = hs_state_int(s, e->updated_steps, 0, BIG);
    e->iter_sum = hs_state_int(s, e->iter_sum, 0, BIG);
    e->iter_max = (int)hs_state_int(s, e->iter_max, 0, INT32_MAX);
    for (int k = 0; k < HS_ITER_HIST; k++)
        e->iter_hist[k] = hs_state_int(s, e->iter_hist[k], 0, BIG);
    e->flags_seen = (int)hs_state_int(s, e->flags_seen, 0, INT32_MAX);
    e->work = hs_state_num(s, e->work);
    e->now = (hs_vtime)hs_state_u64(s, (uint64_t)e->now);
    e->max_wait = hs_state_num(s, e->max_wait);
    for (int k = 0; k < e->nsites; k++) {
        HS_CK_SUB(s, e->sites[k], hs_site);
        if (e->down[k]) HS_CK_SUB(s, e->down[k], hs_link);
        if (e->up[k]) HS_CK_SUB(s, e->up[k], hs_link);
    }
    if (e->compute) HS_CK_SUB(s, e->compute, hs_compute_model);
    return 0;
}

static int hs_coord_walk(hs_coordinator *c, hs_state_io *s)
{
    c->steps_done = hs_state_int(s, c->steps_done, 0, c->def->steps);
    c->wall_time = hs_state_num(s, c->wall_time);
    hs_state_vec(s, c->f0, (size_t)c->n);
    HS_CK_SUB(s, c->it, hs_integrator);
    HS_CK_SUB(s, c->model, hs_model);
    hs_energy *en = &c->energy.e;
    double *nums[] = {&en->input,  &en->kinetic,      &en->damping,
                      &en->strain, &en->experimental, &en->error_rel};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) *nums[i] = hs_state_num(s, *nums[i]);
    hs_state_vec(s, en->group, (size_t)en->ngroups);
    hs_state_vec(s, c->energy.spring_e, (size_t)c->nsprings);
    hs_state_vec(s, c->energy.spring_f, (size_t)c->nsprings);
    return c->has_exp ? hs_coord_exp_walk(&c->exp, s) : 0;
}

size_t hs_coord_state_size(hs_coordinator *c)
{
    hs_state_io s = hs_state_writer(NULL);
    (void)hs_coord_walk(c, &s); /* counting writes nothing */
    return s.pos;
}

int hs_coord_state_save(hs_coordinator *c, double *out)
{
    hs_state_io s = hs_state_writer(out);
    return hs_coord_walk(c, &s); /* saving reads c only */
}

int hs_coord_state_load(hs_coordinator *c, const double *in)
{
    hs_state_io s = hs_state_reader(in);
    int rc = hs_coord_walk(c, &s);
    if (!rc && s.bad)
        rc = hs_fail(c->ctx, HS_EINPUT,
                     "checkpoint: the coordinator's state holds an impossible "
                     "count");
    return rc;
}
