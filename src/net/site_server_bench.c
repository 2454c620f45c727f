/* The laboratory of one test (a bench): the site's rig (site_build.h) and a controller for the
 * test's step and time scale, built by the network thread and handed to the controller loop
 * through an atomic pointer; the retired bench comes back the same way to be destroyed. Each
 * test gets a fresh virtual specimen at rest, as a lab mounts a new specimen. */
#include "site_server_impl.h"

#include <math.h>
#include <string.h>
#include <time.h>

void hs_srv_bench_destroy(hs_srv_bench **bp)
{
    if (!bp || !*bp) return;
    hs_srv_bench *b = *bp;
    hs_site_controller_destroy(&b->sc);
    hs_site_rig_release(&b->rig);
    for (int j = 0; j < HS_SITE_MAX_ACT; j++) hs_tracking_destroy(&b->track[j]);
    hs_free(b->snap);
    hs_free(b->snap_copy);
    hs_ctx_destroy(&b->ctx);
    hs_free(b);
    *bp = NULL;
}

/* stepwise: the OpenFresco protocols' trial-by-trial command (hs_cmdgen_params.stepwise) */
static int bench_build(hs_site_server *s, double dt, double time_scale, int stepwise,
                       hs_srv_bench **out)
{
    *out = NULL;
    const hs_site_config *c = &s->cfg.site;
    hs_srv_bench *b = hs_calloc(1, sizeof *b);
    if (!b) return hs_fail(s->ctx, HS_ENOMEM, "site %s: out of memory", c->name);
    int rc = hs_ctx_create(&b->ctx);
    if (rc) {
        hs_free(b);
        return hs_fail(s->ctx, rc, "site %s: out of memory", c->name);
    }
    b->dt = dt;
    b->time_scale = time_scale;
    b->generation = s->next_generation++;
    rc = hs_site_rig_create(b->ctx, c, s->rate, &b->rig);
    if (!rc) rc = hs_site_rig_lab(b->ctx, c, s->rate, &b->rig);
    if (!rc)
        rc = hs_site_rig_controller(b->ctx, c, &b->rig, s->rate, dt, time_scale, stepwise, &b->sc);
    for (int j = 0; !rc && j < c->nact; j++) rc = hs_tracking_create(b->ctx, 0, 1, &b->track[j]);
    if (!rc && s->cfg.state_path[0]) {
        b->snap_n = hs_site_rig_state_size(&b->rig, b->sc, b->track, c->nact);
        b->snap = hs_dvec(b->snap_n ? b->snap_n : 1);
        b->snap_copy = hs_dvec(b->snap_n ? b->snap_n : 1);
        if (!b->snap || !b->snap_copy) rc = HS_ENOMEM;
        atomic_store(&b->snap_seq, 2u); /* even and > 0: a copy before any write reads as whole */
    }
    if (rc) {
        hs_fail(s->ctx, rc, "%s", hs_ctx_message(b->ctx));
        hs_srv_bench_destroy(&b);
        return rc;
    }
    *out = b;
    return 0;
}

int hs_srv_bench_create(hs_site_server *s, double dt, double time_scale, hs_srv_bench **out)
{
    return bench_build(s, dt, time_scale, 0, out);
}

void hs_srv_bench_report(hs_site_server *s, hs_srv_bench *b)
{
    if (b && b->rig.io && strcmp(hs_lab_kind(b->rig.io), "shm") == 0) {
        const hs_lab_shm_counts k = hs_lab_shm_counts_get(b->rig.io);
        hs_log(s->ctx, k.missing_run_max ? HS_LOG_WARN : HS_LOG_INFO,
               "lab shm: %lld commands written, %lld replies taken; %lld ticks without a reply "
               "(at most %d in a row); %lld reads skipped as torn",
               (long long)k.sent, (long long)k.received, (long long)k.missing, k.missing_run_max,
               (long long)k.torn);
        return;
    }
    if (!b || !b->rig.io || strcmp(hs_lab_kind(b->rig.io), "udp") != 0) return;
    const hs_lab_udp_counts k = hs_lab_udp_counts_get(b->rig.io);
    hs_log(s->ctx, k.missing_run_max ? HS_LOG_WARN : HS_LOG_INFO,
           "lab udp: %lld commands sent, %lld replies taken; %lld ticks without a reply (at most "
           "%d in a row); discarded: %lld late, %lld duplicated, %lld out of order, %lld "
           "malformed, %lld from other addresses",
           (long long)k.sent, (long long)k.received, (long long)k.missing, k.missing_run_max,
           (long long)k.late, (long long)k.duplicated, (long long)k.out_of_order,
           (long long)k.malformed, (long long)k.foreign);
}

void hs_srv_reclaim(hs_site_server *s)
{
    hs_srv_bench *old = atomic_exchange(&s->bench_old, NULL);
    hs_srv_bench_report(s, old);
    hs_srv_bench_destroy(&old);
}

/* Says where the command was moved before the new test (nothing when it did not move). */
static void positions(const hs_site_server *s, const double *x, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int j = 0; j < s->nact && len < cap; j++) {
        const char *u = s->cfg.site.units_length;
        const int k = snprintf(out + len, cap - len, "%s%s %.6g%s%s", j ? ", " : "",
                               s->cfg.site.actuator_names[j], x[j], u[0] ? " " : "", u);
        if (k > 0) len += (size_t)k;
    }
}

static void log_move(hs_site_server *s, const double *from, const double *x)
{
    const double T = 1e-9 * (double)atomic_load(&s->handover_ns);
    if (!(T > 0.0)) return;
    char a[HS_SITE_MAX_ACT * 48], b[HS_SITE_MAX_ACT * 48];
    positions(s, from, a, sizeof a);
    positions(s, x, b, sizeof b);
    hs_log(s->ctx, HS_LOG_INFO,
           "site %s: the command moved from where it rested (%s) to the new test's start (%s) in "
           "%.3g s, within half of every speed and acceleration limit",
           s->cfg.site.name, a, b, T);
}

int hs_srv_new_test(hs_site_server *s, double dt, double time_scale, const char *who,
                    int openfresco)
{
    char why[512];
    if (openfresco && hs_srv_held(s, why, sizeof why)) /* NEES, OpenFresco: not over a held test */
        return hs_fail(s->ctx, HS_EABORTED, "site %s: %s", s->cfg.site.name, why);
    hs_srv_bench *b = NULL;
    int rc = bench_build(s, dt, time_scale, openfresco, &b);
    if (rc) return rc;
    hs_srv_reclaim(s);
    const int64_t gen = b->generation;
    double start[HS_SITE_MAX_ACT]; /* where its command starts (read before the loop owns it) */
    hs_site_server_status was;
    hs_srv_status_copy(s, &was);
    const double *from = was.command; /* where the current laboratory's command rests */
    memcpy(start, hs_site_controller_command(b->sc), (size_t)s->nact * sizeof(double));
    atomic_store(&s->handover_ns, 0);
    atomic_store(&s->bench_next, b);
    /* the loop takes it once the current laboratory is at rest and the command has moved to its
     * start (docs/site_server.md, "Between tests"); a bounded wait: a second, plus a step of the
     * previous test (to come to rest), plus the move's planned duration */
    const struct timespec pause = {0, 200000};
    const int64_t t0 = hs_srv_now(),
                  rest = (int64_t)(1e9 * fmin(s->test.dt * s->test.time_scale, 60.0));
    while (atomic_load(&s->generation) != gen) {
        if (hs_srv_now() - t0 > 1000000000 + rest + (int64_t)atomic_load(&s->handover_ns)) {
            hs_srv_bench *back = atomic_exchange(&s->bench_next, NULL);
            hs_srv_bench_destroy(&back);
            return hs_fail(s->ctx, HS_ETIMEOUT,
                           "site %s: the controller loop did not take the new laboratory",
                           s->cfg.site.name);
        }
        nanosleep(&pause, NULL);
    }
    hs_srv_reclaim(s);
    log_move(s, from, start);
    hs_srv_test *t = &s->test;
    memset(t, 0, sizeof *t);
    t->live = 1;
    pthread_mutex_lock(&s->status_lock);
    s->status.test_ended = 0;
    pthread_mutex_unlock(&s->status_lock);
    t->openfresco = openfresco;
    snprintf(t->coordinator, sizeof t->coordinator, "%s", who);
    t->dt = dt;
    t->time_scale = time_scale;
    t->last_step = t->last_committed = t->outage_step = -1;
    t->bench = b;
    hs_srv_state_forget(s); /* the previous test's, if any */
    pthread_mutex_lock(&s->status_lock);
    s->status.last_step = s->status.last_committed = -1;
    pthread_mutex_unlock(&s->status_lock);
    return 0;
}
