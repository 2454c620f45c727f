/* The coordinator's side of the experimental substructures. Every site gets its target before
 * the coordinator waits for any answer; measurements are stacked element by element in the
 * actuator order the test file gives, and forces return to global DOFs as T^T f. */
#include "experiment_impl.h"

#include "hysim/linalg.h"
#include "hysim/site_controller.h"

#include "site_limits.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The real clock: monotonic seconds since the experiment was built. */
static hs_vtime hs_coord_exp_real_now(const hs_coord_exp *e)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const double now = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    return hs_vtime_from_seconds(now - e->real_t0);
}

static int hs_coord_exp_alloc(hs_coord_exp *e)
{
    const size_t na = (size_t)e->nact, n = (size_t)e->n, ns = (size_t)e->nsites;
    e->sites = hs_calloc(ns, sizeof *e->sites);
    e->site_x = hs_calloc(ns, sizeof *e->site_x);
    e->meas = hs_calloc(ns, sizeof *e->meas);
    e->act_site = hs_calloc(na, sizeof(int));
    e->act_channel = hs_calloc(na, sizeof(int));
    e->T = hs_dvec(na * n);
    e->K0l = hs_dvec(na * na);
    e->Ke = n <= HS_DENSE_MAX_DOFS ? hs_dvec(n * n) : NULL; /* large: dyn.Kes only */
    e->x_cmd = hs_dvec(na);
    e->x_meas = hs_dvec(na);
    e->f_meas = hs_dvec(na);
    e->x_prev = hs_dvec(na);
    e->f_prev = hs_dvec(na);
    e->noise_d = hs_dvec(na);
    e->noise_f = hs_dvec(na);
    e->hist_t = hs_dvec(HS_EXP_HISTORY);
    e->hist_x = hs_dvec(HS_EXP_HISTORY * na);
    e->hist_f = hs_dvec(HS_EXP_HISTORY * na);
    e->r_exp = hs_dvec(n);
    e->site_states = hs_calloc(ns, sizeof(int));
    e->site_delay = hs_dvec(ns);
    e->te = hs_dvec(na);
    e->ti = hs_dvec(na);
    if (!e->site_states || !e->site_delay || !e->te || !e->ti) return HS_ENOMEM;
    if (!e->sites || !e->site_x || !e->meas || !e->act_site || !e->act_channel || !e->T ||
        !e->K0l || (n <= HS_DENSE_MAX_DOFS && !e->Ke) || !e->x_cmd || !e->x_meas || !e->f_meas ||
        !e->x_prev || !e->f_prev || !e->noise_d || !e->noise_f || !e->hist_t || !e->hist_x ||
        !e->hist_f || !e->r_exp)
        return HS_ENOMEM;
    for (int s = 0; s < e->nsites; s++) {
        const size_t m = HS_SITE_MAX_ACT;
        e->site_x[s] = hs_dvec(m);
        e->meas[s].x = hs_dvec(m);
        e->meas[s].f = hs_dvec(m);
        e->meas[s].hist_t = hs_dvec(HS_EXP_HISTORY);
        e->meas[s].hist_x = hs_dvec(HS_EXP_HISTORY * m);
        e->meas[s].hist_f = hs_dvec(HS_EXP_HISTORY * m);
        if (!e->site_x[s] || !e->meas[s].x || !e->meas[s].f || !e->meas[s].hist_t ||
            !e->meas[s].hist_x || !e->meas[s].hist_f)
            return HS_ENOMEM;
    }
    return 0;
}

/* The element's initial stiffness: given, or the site specimen's restricted to its channels. */
static int hs_coord_exp_element_k0(hs_coord_exp *e, const hs_exp_element_def *el, int a0)
{
    const int na = e->nact, m = el->nact;
    if (el->K0l) {
        for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++) HS_AT(e->K0l, na, a0 + i, a0 + j) = el->K0l[j * m + i];
        return 0;
    }
    hs_site *site = e->sites[el->site_index];
    const int ns = hs_site_nact(site);
    double K[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
    int rc = hs_site_initial_stiffness(site, K);
    if (rc)
        return hs_fail(e->ctx, HS_EINPUT,
                       "experimental element %s: give initial_stiffness (site %s cannot say it)",
                       el->name, hs_site_name(site));
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++)
            HS_AT(e->K0l, na, a0 + i, a0 + j) = HS_AT(K, ns, el->channel[i], el->channel[j]);
    return 0;
}

int hs_coord_exp_init(hs_coord_exp *e, hs_ctx *ctx, const hs_test_def *def, double *K0)
{
    memset(e, 0, sizeof *e);
    e->ctx = ctx;
    e->n = hs_model_ndof(def->model);
    e->nsites = def->nsites;
    e->nelem = def->nexp;
    for (int k = 0; k < def->nexp; k++) e->nact += def->experimental[k].nact;
    e->site_timeout = def->site_timeout > 0.0 ? def->site_timeout : 60.0;
    /* remote sites live on the wall clock: with one of them, or `clock: real`, the test runs on
     * the monotonic clock (the sites pace it; links and compute-time models are not simulated) */
    e->real = strcmp(def->clock, "real") == 0;
    for (int s = 0; s < def->nsites; s++)
        if (strcmp(def->sites[s].kind, "remote") == 0) e->real = 1;
    int rc = hs_coord_exp_alloc(e);
    if (!rc && (!(e->down = hs_calloc((size_t)e->nsites, sizeof *e->down)) ||
                !(e->up = hs_calloc((size_t)e->nsites, sizeof *e->up))))
        rc = HS_ENOMEM;
    for (int s = 0; !rc && s < e->nsites; s++) {
        rc = hs_site_create(ctx, &def->sites[s], &e->sites[s]);
        if (!rc) rc = hs_site_setup(e->sites[s], def->dt);
        if (!rc && def->sites[s].link_opts && !e->real) {
            rc = hs_link_create(ctx, def->sites[s].link_opts, def->seed,
                                HS_LINK_ID(s, HS_LINK_DOWN), &e->down[s]);
            if (!rc)
                rc = hs_link_create(ctx, def->sites[s].link_opts, def->seed,
                                    HS_LINK_ID(s, HS_LINK_UP), &e->up[s]);
            if (rc)
                rc = hs_fail(ctx, rc, "site %s: link: %s", def->sites[s].name, hs_ctx_message(ctx));
        }
    }
    if (!rc && def->compute_time_opts && !e->real)
        rc = hs_compute_model_create(ctx, def->compute_time_opts, def->seed, 0, &e->compute);
    int have_tp = def->nexp > 0;
    for (int k = 0; k < def->nexp; k++) have_tp = have_tp && def->experimental[k].Tp != NULL;
    if (!rc && have_tp && !(e->Tp = hs_dvec((size_t)e->nact * (size_t)e->nact))) rc = HS_ENOMEM;
    const int na = e->nact, n = e->n;
    for (int k = 0, a0 = 0; !rc && k < def->nexp; k++) {
        const hs_exp_element_def *el = &def->experimental[k];
        for (int i = 0; i < el->nact; i++) {
            e->act_site[a0 + i] = el->site_index;
            e->act_channel[a0 + i] = el->channel[i];
            const hs_site_config *cfg = &def->sites[el->site_index];
            e->noise_d[a0 + i] = cfg->perfect ? 0.0 : cfg->displacement.rms;
            e->noise_f[a0 + i] = cfg->perfect ? 0.0 : cfg->force.rms;
            for (int j = 0; j < n; j++) HS_AT(e->T, na, a0 + i, j) = el->T[j * el->nact + i];
            for (int j = 0; e->Tp && j < el->nact; j++)
                HS_AT(e->Tp, na, a0 + i, a0 + j) = el->Tp[j * el->nact + i];
        }
        rc = hs_coord_exp_element_k0(e, el, a0);
        a0 += el->nact;
    }
    /* each site learns the stiffness assumed at its channels */
    for (int s = 0; !rc && s < e->nsites; s++) {
        const int ns = hs_site_nact(e->sites[s]);
        double K[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT] = {0};
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++)
                if (e->act_site[i] == s && e->act_site[j] == s)
                    HS_AT(K, ns, e->act_channel[i], e->act_channel[j]) = HS_AT(e->K0l, na, i, j);
        rc = hs_site_set_stiffness(e->sites[s], K);
    }
    if (rc) return rc;
    if (e->real) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        e->real_t0 = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    /* Ke = T^T K0l T, added to K0 (a large model: in compressed columns, by the coordinator) */
    for (int q = 0; e->Ke && K0 && q < n; q++)
        for (int p = 0; p < n; p++) {
            double s = 0.0;
            for (int i = 0; i < na; i++)
                for (int j = 0; j < na; j++)
                    s += HS_AT(e->T, na, i, p) * HS_AT(e->K0l, na, i, j) * HS_AT(e->T, na, j, q);
            HS_AT(e->Ke, n, p, q) = s;
            HS_AT(K0, n, p, q) += s;
        }
    e->view = (hs_experiment){.nact = na,
                              .ndof = n,
                              .T = e->T,
                              .K0l = e->K0l,
                              .Tp = e->Tp,
                              .x_cmd = e->x_cmd,
                              .x_meas = e->x_meas,
                              .f_meas = e->f_meas,
                              .hist_t = e->hist_t,
                              .hist_x = e->hist_x,
                              .hist_f = e->hist_f,
                              .noise_disp_rms = e->noise_d,
                              .noise_force_rms = e->noise_f};
    return 0;
}

void hs_coord_exp_free(hs_coord_exp *e)
{
    for (int s = 0; e->sites && s < e->nsites; s++) hs_site_destroy(&e->sites[s]);
    for (int s = 0; e->down && s < e->nsites; s++) {
        hs_link_destroy(&e->down[s]);
        hs_link_destroy(&e->up[s]);
    }
    hs_free(e->down);
    hs_free(e->up);
    hs_compute_model_destroy(&e->compute);
    for (int s = 0; e->meas && s < e->nsites; s++) {
        hs_free(e->site_x[s]);
        hs_free(e->meas[s].x);
        hs_free(e->meas[s].f);
        hs_free(e->meas[s].hist_t);
        hs_free(e->meas[s].hist_x);
        hs_free(e->meas[s].hist_f);
    }
    void *ptrs[] = {e->sites,  e->site_x, e->meas,        e->act_site,   e->act_channel, e->T,
                    e->K0l,    e->Tp,     e->Ke,          e->x_cmd,      e->x_meas,      e->f_meas,
                    e->x_prev, e->f_prev, e->noise_d,     e->noise_f,    e->hist_t,      e->hist_x,
                    e->hist_f, e->r_exp,  e->site_states, e->site_delay, e->te,          e->ti};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) hs_free(ptrs[k]);
    memset(e, 0, sizeof *e);
}

int hs_coord_exp_send_targets(hs_coord_exp *e, int64_t step, double t_next, const double *d_cmd)
{
    const int na = e->nact, n = e->n;
    for (int i = 0; i < na; i++) {
        double x = 0.0;
        for (int j = 0; j < n; j++) x += HS_AT(e->T, na, i, j) * d_cmd[j];
        e->x_cmd[i] = x;
        e->site_x[e->act_site[i]][e->act_channel[i]] = x;
    }
    /* every site gets its target before the coordinator waits for any answer */
    const hs_vtime sent = e->real ? hs_coord_exp_real_now(e) : e->now;
    for (int s = 0; s < e->nsites; s++) {
        hs_link_delivery dl = {.arrival = sent};
        if (e->down[s] && hs_link_send(e->down[s], sent, &dl))
            return hs_fail(e->ctx, HS_ENET, "site %s: the link to the site is broken at %.3f s",
                           hs_site_name(e->sites[s]), hs_vtime_seconds(sent));
        int rc = hs_site_send_target(e->sites[s], step, t_next, e->site_x[s],
                                     hs_vtime_seconds(dl.arrival));
        if (rc) return rc;
    }
    e->sent = sent;
    return 0;
}

/* Laboratory data that is not a measurement never reaches the integrator (a hysim site refuses
 * it itself; a NEES or OpenFresco lab may send it): a value that is not a number, or beyond
 * HS_SITE_LAB_DATA_MAX while the force is more than a million times what the initial stiffness
 * gives at the measured displacements (so a diverging model, f = K x, stays the integrator's to
 * call unstable). An in-process virtual laboratory is the model itself: not checked. */
static int lab_data(hs_coord_exp *e, int64_t step)
{
    const int na = e->nact;
    for (int i = 0; i < na; i++) {
        hs_site *site = e->sites[e->act_site[i]];
        if (hs_site_vlab(site)) continue;
        double kx = 0.0;
        for (int j = 0; j < na; j++) kx += HS_AT(e->K0l, na, i, j) * e->x_meas[j];
        const double x = e->x_meas[i], f = e->f_meas[i];
        const int bad_x = !isfinite(x), bad_f = !isfinite(f) || (fabs(f) > HS_SITE_LAB_DATA_MAX &&
                                                                 fabs(f) > 1e6 * fabs(kx));
        if (bad_x || bad_f)
            return hs_fail(e->ctx, HS_EPROTO,
                           "site %s sent laboratory data that is not a measurement at step %lld: "
                           "actuator %d of the site, measured %s %g (not a number, or beyond %g "
                           "and a million times its initial stiffness's force); check that "
                           "channel at the laboratory",
                           hs_site_name(site), (long long)step + 1, e->act_channel[i] + 1,
                           bad_x ? "displacement" : "force", bad_x ? x : f, HS_SITE_LAB_DATA_MAX);
    }
    return 0;
}

int hs_coord_exp_collect(hs_coord_exp *e, int64_t step)
{
    const int na = e->nact, n = e->n;
    const hs_vtime sent = e->sent;
    hs_vtime latest = sent;
    for (int s = 0; s < e->nsites; s++) {
        int rc = hs_site_get_measurement(e->sites[s], &e->meas[s]);
        if (rc) return rc;
        e->flags_seen |= e->meas[s].flags;
        e->site_states[s] = e->meas[s].states;
        e->site_delay[s] = e->meas[s].delay;
        /* real clock: the measurement is here now; virtual: it was reached at `wall` */
        const hs_vtime reached =
            e->real ? hs_coord_exp_real_now(e) : hs_vtime_from_seconds(e->meas[s].wall);
        hs_link_delivery ul = {.arrival = reached > sent ? reached : sent};
        if (e->up[s] && hs_link_send(e->up[s], ul.arrival, &ul))
            return hs_fail(e->ctx, HS_ENET, "site %s: the link from the site is broken",
                           hs_site_name(e->sites[s]));
        const double wait = hs_vtime_seconds(ul.arrival - sent);
        if (wait > e->max_wait) e->max_wait = wait;
        const double limit = hs_site_wait_limit(e->sites[s], e->site_timeout);
        if (wait > limit)
            return hs_fail(e->ctx, HS_ETIMEOUT,
                           "site %s: no measurement of step %lld within %g s (it came after "
                           "%.3f s)",
                           hs_site_name(e->sites[s]), (long long)step + 1, limit, wait);
        if (ul.arrival > latest) latest = ul.arrival;
    }
    e->now = latest;
    int nhist = HS_EXP_HISTORY;
    for (int s = 0; s < e->nsites; s++)
        if (e->meas[s].nhist < nhist) nhist = e->meas[s].nhist;
    const hs_site_measurement *m0 = &e->meas[e->act_site[0]];
    for (int k = 0; k < nhist; k++) e->hist_t[k] = m0->hist_t[m0->nhist - nhist + k];
    for (int i = 0; i < na; i++) {
        const hs_site_measurement *m = &e->meas[e->act_site[i]];
        const int c = e->act_channel[i], ns = hs_site_nact(e->sites[e->act_site[i]]);
        e->x_meas[i] = m->x[c];
        e->f_meas[i] = m->f[c];
        e->te[i] = m->te[c];
        e->ti[i] = m->ti[c];
        for (int k = 0; k < nhist; k++) {
            const int src = m->nhist - nhist + k;
            e->hist_x[k * na + i] = m->hist_x[src * ns + c];
            e->hist_f[k * na + i] = m->hist_f[src * ns + c];
        }
    }
    int rc = lab_data(e, step);
    if (rc) return rc;
    e->view.nhist = nhist;
    e->view.t_meas = m0->t;
    for (int j = 0; j < n; j++) {
        double r = 0.0;
        for (int i = 0; i < na; i++) r += HS_AT(e->T, na, i, j) * e->f_meas[i];
        e->r_exp[j] = r;
    }
    return 0;
}

void hs_coord_exp_commit(hs_coord_exp *e, int iterations, int fallback, int stiffness_updated)
{
    for (int i = 0; i < e->nact; i++) {
        e->work += 0.5 * (e->f_prev[i] + e->f_meas[i]) * (e->x_meas[i] - e->x_prev[i]);
        e->x_prev[i] = e->x_meas[i];
        e->f_prev[i] = e->f_meas[i];
    }
    e->steps++;
    if (fallback)
        e->fallback_steps++;
    else if (iterations > 0)
        e->implicit_steps++;
    if (stiffness_updated) e->updated_steps++;
    e->iter_sum += iterations;
    if (iterations > e->iter_max) e->iter_max = iterations;
    e->iter_hist[iterations < HS_ITER_HIST - 1 ? iterations : HS_ITER_HIST - 1]++;
}

int hs_coord_exp_commit_sites(hs_coord_exp *e, int64_t step)
{
    for (int s = 0; s < e->nsites; s++) {
        int rc = hs_site_commit(e->sites[s], step);
        if (rc) return rc;
    }
    return 0;
}

void hs_coord_exp_end(hs_coord_exp *e)
{
    for (int s = 0; s < e->nsites; s++) hs_site_end(e->sites[s]);
}

void hs_coord_exp_leave(hs_coord_exp *e, const char *why)
{
    for (int s = 0; s < e->nsites; s++) hs_site_leave(e->sites[s], why);
}

void hs_coord_exp_compute(hs_coord_exp *e)
{
    if (e->compute) e->now += hs_compute_model_sample(e->compute);
}

int hs_coord_exp_summary_json(const hs_coord_exp *e, char *buf, size_t size)
{
    const double steps = e->steps > 0 ? (double)e->steps : 1.0;
    size_t len = 0;
#define HS_OUT(...)                                                                                \
    do {                                                                                           \
        int w_ = snprintf(buf + len, len < size ? size - len : 0, __VA_ARGS__);                    \
        if (w_ > 0) len += (size_t)w_;                                                             \
    } while (0)
    HS_OUT("\"hybrid\": {\n    \"actuators\": %d,\n    \"steps\": %lld,\n", e->nact,
           (long long)e->steps);
    HS_OUT("    \"implicit_percent\": %.6g,\n", 100.0 * (double)e->implicit_steps / steps);
    HS_OUT("    \"fallback_steps\": %lld,\n", (long long)e->fallback_steps);
    HS_OUT("    \"stiffness_update_percent\": %.6g,\n", 100.0 * (double)e->updated_steps / steps);
    HS_OUT("    \"iterations\": {\"mean\": %.6g, \"max\": %d, \"histogram\": [",
           (double)e->iter_sum / steps, e->iter_max);
    for (int k = 0; k < HS_ITER_HIST; k++)
        HS_OUT("%s%lld", k ? ", " : "", (long long)e->iter_hist[k]);
    /* every flag any site saw, a trip included (its step never completes, so its measurement's
     * flags never reach flags_seen) */
    int flags = e->flags_seen;
    for (int s = 0; s < e->nsites; s++) {
        hs_site_summary ss;
        if (!hs_site_summary_get(e->sites[s], &ss)) flags |= ss.limit_flags;
    }
    HS_OUT("]},\n    \"experimental_work\": %.10g,\n    \"limit_flags\": %d,\n", e->work, flags);
    HS_OUT("    \"test_time_s\": %.6g,\n    \"max_wait_s\": %.6g\n  },\n", hs_vtime_seconds(e->now),
           e->max_wait);
    /* per site: Mosqueda et al.'s (2004) Table 1 row and Chen and Ricles' (2010) tracking figures
     */
    HS_OUT("  \"sites\": [");
    for (int s = 0; s < e->nsites; s++) {
        hs_site_summary ss;
        if (hs_site_summary_get(e->sites[s], &ss)) memset(&ss, 0, sizeof ss);
        HS_OUT("%s\n    {\"name\": \"%s\", \"steps\": %lld, \"max_delay_s\": %.6g, "
               "\"total_time_s\": %.6g, \"slow_percent\": %.6g, \"hold_percent\": %.6g, "
               "\"ended_on_site\": %s, \"limit_flags\": %d, \"resumes\": %lld, "
               "\"max_outage_s\": %.6g,\n     \"actuators\": [",
               s ? "," : "", hs_site_name(e->sites[s]), (long long)ss.steps, ss.max_delay,
               ss.total_time, ss.pct_slow, ss.pct_hold, ss.ended ? "true" : "false", ss.limit_flags,
               (long long)ss.resumes, ss.max_outage);
        for (int j = 0; j < ss.nact; j++) {
            char a_es[32] = "null"; /* a site that does not report its estimate */
            if (isfinite(ss.a_es[j])) snprintf(a_es, sizeof a_es, "%.6g", ss.a_es[j]);
            HS_OUT("%s{\"name\": \"%s\", \"mte\": %.6g, \"rms_percent\": %.6g, \"max_ti\": "
                   "%.6g, \"a_es\": %s",
                   j ? ", " : "", hs_site_actuator_name(e->sites[s], j), ss.mte[j], ss.rms[j],
                   ss.ti_peak[j], a_es);
            len += hs_site_limits_json(&ss, j, buf + (len < size ? len : size),
                                       len < size ? size - len : 0);
            HS_OUT("}");
        }
        HS_OUT("]%s}", ss.rehearsal ? ", \"rehearsal\": true" : "");
    }
    HS_OUT("\n  ]");
#undef HS_OUT
    return len < size ? 0 : HS_EINVAL;
}
