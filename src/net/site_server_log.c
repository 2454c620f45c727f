/* The writer thread: drains the controller loop's tick records to the tick log (CSV: tick, t,
 * late, state, trip flags, then command, displacement and force per actuator; the lab's true
 * displacement and force, which are what its sensors measure without noise). It sleeps between
 * drains; records it cannot keep up with are counted by the loop (log_dropped).
 *
 * The log is capped: once the file reaches `log_max` bytes it is renamed FILE.1 (replacing the
 * previous FILE.1) and a new FILE begins, with its header. The disk thus holds at most about
 * 2 x log_max bytes, and always the latest log_max bytes of ticks or more. Records that cannot be
 * written (a new file that cannot be opened) are counted as dropped. */
#include "site_server_impl.h"

#include <stdio.h>
#include <time.h>

static void header(hs_site_server *s)
{
    int n = fprintf(s->log, "tick,t,late,state,trip");
    static const char *const what[3] = {"command", "x", "f"};
    for (int q = 0; q < 3; q++)
        for (int j = 0; j < s->nact; j++)
            n += fprintf(s->log, ",%s_%s", what[q], s->cfg.site.actuator_names[j]);
    n += fputc('\n', s->log) != EOF;
    s->log_bytes = n > 0 ? (double)n : 0.0;
}

/* FILE -> FILE.1, a new FILE. */
static void rotate(hs_site_server *s)
{
    char old[4096];
    fclose(s->log);
    s->log = NULL;
    snprintf(old, sizeof old, "%s.1", s->cfg.log_path);
    rename(s->cfg.log_path, old);
    s->log = fopen(s->cfg.log_path, "w");
    atomic_fetch_add(&s->log_rotations, 1);
    if (s->log) header(s);
}

static void drain(hs_site_server *s, uint8_t *rec)
{
    const int n = s->nact;
    while (hs_ring_pop(&s->ticks, rec)) {
        if (s->log && s->log_bytes >= s->cfg.log_max) rotate(s);
        if (!s->log) {
            atomic_fetch_add(&s->log_dropped, 1);
            continue;
        }
        const hs_srv_tick *h = (const hs_srv_tick *)(const void *)rec;
        const double *v = (const double *)(const void *)(rec + sizeof *h);
        int w = fprintf(s->log, "%lld,%.9f,%.3e,%s,%d", (long long)h->tick, h->t, h->late,
                        hs_cmdgen_state_name(h->state), (int)h->flags);
        for (int k = 0; k < 3 * n; k++) w += fprintf(s->log, ",%.17g", v[k]);
        w += fputc('\n', s->log) != EOF;
        s->log_bytes += w > 0 ? (double)w : 0.0;
    }
}

void *hs_srv_log_main(void *arg)
{
    hs_site_server *s = arg;
    uint8_t rec[sizeof(hs_srv_tick) + 3 * HS_SITE_MAX_ACT * sizeof(double)];
    header(s);
    const struct timespec pause = {0, 20000000};
    while (!atomic_load(&s->stop_log)) {
        drain(s, rec);
        nanosleep(&pause, NULL);
    }
    drain(s, rec);
    if (s->log) fflush(s->log);
    return NULL;
}
