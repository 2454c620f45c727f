/* The writer thread: drains the controller loop's tick records to the tick log (CSV: tick, t,
 * late, state, trip flags, then command, displacement and force per actuator; the lab's true
 * displacement and force, which are what its sensors measure without noise). It sleeps between
 * drains; records it cannot keep up with are counted by the loop (log_dropped). */
#include "site_server_impl.h"

#include <time.h>

static void drain(hs_site_server *s, uint8_t *rec)
{
    const int n = s->nact;
    while (hs_srv_ring_pop(&s->ticks, rec)) {
        const hs_srv_tick *h = (const hs_srv_tick *)(const void *)rec;
        const double *v = (const double *)(const void *)(rec + sizeof *h);
        fprintf(s->log, "%lld,%.9f,%.3e,%s,%d", (long long)h->tick, h->t, h->late,
                hs_cmdgen_state_name(h->state), (int)h->flags);
        for (int k = 0; k < 3 * n; k++) fprintf(s->log, ",%.17g", v[k]);
        fputc('\n', s->log);
    }
}

void *hs_srv_log_main(void *arg)
{
    hs_site_server *s = arg;
    uint8_t rec[sizeof(hs_srv_tick) + 3 * HS_SITE_MAX_ACT * sizeof(double)];
    fprintf(s->log, "tick,t,late,state,trip");
    static const char *const what[3] = {"command", "x", "f"};
    for (int q = 0; q < 3; q++)
        for (int j = 0; j < s->nact; j++)
            fprintf(s->log, ",%s_%s", what[q], s->cfg.site.actuator_names[j]);
    fputc('\n', s->log);
    const struct timespec pause = {0, 20000000};
    while (!atomic_load(&s->stop_log)) {
        drain(s, rec);
        nanosleep(&pause, NULL);
    }
    drain(s, rec);
    fflush(s->log);
    return NULL;
}
