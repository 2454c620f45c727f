/* The controller loop: the site controller ticked on CLOCK_MONOTONIC at its rate. At start it
 * asks for SCHED_FIFO, mlockall and a PM QoS latency request and, unless the site file gives
 * `spin`, measures the wake-up latency to choose its spin margin (hysim/rt_loop.h). Each tick
 * sleeps (clock_nanosleep, TIMER_ABSTIME) until `spin` before its deadline, then spins to it,
 * while a test is active (hs_rt_spin_gate): a site with no test, or one whose laboratory rests
 * in hold for longer than HS_SRV_SPIN_GRACE, only sleeps to each deadline (an idle `hysim site`
 * spun 47 % of a core on main). The lateness figures count the ticks that spun.
 * A tick that starts later than `late` after its deadline is counted late, by cause; ticks are
 * never skipped (a loop that fell behind runs its ticks back to back until it has caught up, each
 * counted), so the laboratory's clock is the tick count over the rate. Between two deadlines
 * the loop takes a new laboratory or a target from the network thread, ticks, hands a
 * measurement and a tick record over (waking the network thread through its non-blocking
 * pipe), and tries to publish its status: no allocation, no formatting, no file, no lock it
 * could wait on, no call that can block. */
#include "site_server_impl.h"

#include "hysim/compensator.h"
#include "hysim/shm_lab.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

int64_t hs_srv_now(void)
{
    return hs_rt_now();
}

static void fill_wire(hs_site_server *s, hs_srv_bench *b, const hs_site_measurement *m,
                      const hs_site_report *r, hs_srv_meas *out)
{
    hs_wire_measurement *w = &out->m;
    const int n = s->nact;
    memset(w, 0, sizeof *w);
    w->t = m->t;
    w->t_reached = r->t_wall;
    w->t_received = (double)(r->tick - r->record.ticks + r->record.delay_ticks) / s->rate;
    w->nact = n;
    w->nhist = m->nhist < HS_WIRE_MAX_HISTORY ? m->nhist : HS_WIRE_MAX_HISTORY;
    w->nstates = HS_CMDGEN_NSTATES < HS_WIRE_MAX_STATES ? HS_CMDGEN_NSTATES : HS_WIRE_MAX_STATES;
    w->flags = (uint32_t)(m->flags | r->limit_flags);
    w->states = (uint32_t)r->record.states;
    w->ticks = r->record.ticks;
    w->delay_ticks = r->record.delay_ticks;
    for (int k = 0; k < w->nstates; k++) w->state_ticks[k] = r->record.state_ticks[k];
    for (int j = 0; j < n; j++) {
        w->x[j] = m->x[j];
        w->f[j] = m->f[j];
        const double mte = hs_tracking_mte(b->track[j]), rms = hs_tracking_rms(b->track[j]),
                     ti = hs_tracking_ti_peak(b->track[j]);
        w->mte[j] = isfinite(mte) ? mte : 0.0; /* a wire double is finite */
        w->rms[j] = isfinite(rms) ? rms : 0.0;
        w->ti_peak[j] = isfinite(ti) ? ti : 0.0;
        const double ti_now = hs_tracking_ti(b->track[j]);
        w->ti[j] = isfinite(ti_now) ? ti_now : 0.0;
        w->a_es[j] = b->rig.comp[j] ? hs_compensator_a_es(b->rig.comp[j]) : 1.0;
    }
    w->stats = 1; /* sent when the peer negotiated HS_WIRE_CAP_STEP_STATS */
    const size_t h = (size_t)w->nhist, sk = (size_t)(m->nhist - w->nhist);
    memcpy(w->hist_t, m->hist_t + sk, h * sizeof(double));
    memcpy(w->hist_x, m->hist_x + sk * (size_t)n, h * (size_t)n * sizeof(double));
    memcpy(w->hist_f, m->hist_f + sk * (size_t)n, h * (size_t)n * sizeof(double));
    out->generation = b->generation;
    out->step = r->step;
    out->error = 0;
    out->report = *r;
}

/* The only system call the loop makes besides its clock and sleep: a write() of one byte to a
 * non-blocking pipe, which cannot block (a full pipe fails with EAGAIN, harmless: a byte is
 * already waiting) and allocates nothing; at most one per measurement, none while the network
 * thread has a wake-up pending. Without it the network thread would notice the measurement only
 * at its next poll timeout. The ring push comes first: whoever clears wake_posted pumps after. */
void hs_srv_post_meas(hs_site_server *s, const hs_srv_meas *m)
{
    if (!hs_ring_push(&s->meas, m)) return;
    if (!atomic_exchange(&s->wake_posted, 1)) {
        if (write(s->wake[1], "m", 1) < 0) {
        }
    }
}

static void refuse_target(hs_site_server *s, hs_srv_bench *b, int64_t step, int code)
{
    hs_srv_meas e;
    memset(&e, 0, sizeof e);
    e.generation = b->generation;
    e.step = step;
    e.error = code;
    if (code == HS_ELIMIT) hs_site_controller_trip_report(b->sc, &e.report);
    hs_srv_post_meas(s, &e);
}

/* The laboratory's state into snap, under its sequence lock (the network thread may be copying
 * the previous one out). */
static void snapshot(hs_srv_bench *b, int n)
{
    if (!b->snap) return;
    hs_shm_write_begin(&b->snap_seq);
    hs_site_rig_state_save(&b->rig, b->sc, b->track, n, b->snap);
    hs_shm_write_end(&b->snap_seq);
}

/* The controller has settled into its hold (after a measurement, the extrapolation and the
 * slowing down, Mosqueda et al. 2004): once per hold, its state goes to the state file too, so
 * that a site restarted from the file holds where the command came to rest, at rest, instead of
 * replaying the way there from the measurement's tick (docs/site_server.md). */
static void hold_snapshot(hs_site_server *s, hs_srv_bench *b)
{
    if (b->hold_saved || !b->snap) return;
    b->hold_saved = 1;
    snapshot(b, s->nact);
    hs_srv_meas e;
    memset(&e, 0, sizeof e);
    e.generation = b->generation;
    e.step = HS_SRV_HOLD_SNAPSHOT;
    hs_srv_post_meas(s, &e);
}

/* A new test's laboratory (bench_next) takes over from the current one, which lets go of what
 * the new one needs (hs_lab_detach: a fixed udp local address). Its command starts where
 * its controller rests (0 for a fresh laboratory); the current command first moves there within
 * the limits (hs_site_controller_move_to) once the current laboratory is at rest, so that the
 * command never jumps between tests, whatever the back end: the hand-over happens at the tick
 * after the move's last. A bench whose tick failed is replaced at once (nothing can be commanded
 * through it). */
static int take_next(hs_site_server *s)
{
    hs_srv_bench *b = s->bench, *nb = atomic_load(&s->bench_next);
    if (!nb) {
        s->handing_over = 0; /* taken back by the network thread: the move ends where it goes */
        return 0;
    }
    if (!s->handing_over && !b->failed && !atomic_load(&s->ctl_at_rest))
        return 1; /* the move starts from rest: the current test first holds (or settles) */
    if (!s->handing_over && !b->failed) {
        const double T = hs_site_controller_move_to(b->sc, hs_site_controller_command(nb->sc));
        atomic_store(&s->handover_ns, (long long)(T * 1e9));
        s->handing_over = T > 0.0;
    }
    if (s->handing_over && hs_site_controller_moving(b->sc)) return 1;
    s->handing_over = 0;
    if (!(nb = atomic_exchange(&s->bench_next, NULL))) return 0;
    hs_lab_detach(b->rig.io); /* a fixed udp address passes to the new laboratory */
    atomic_store(&s->bench_old, b);
    s->bench = nb;
    atomic_store(&s->generation, nb->generation);
    return 1;
}

/* The work of one tick (between deadlines). Returns 1 when a test is active in it: a new
 * laboratory or a target came, or the command moves (not in hold or done, or unloading). */
static int tick(hs_site_server *s, int64_t t0, int64_t start, int64_t late_ns, uint8_t *rec)
{
    int active = take_next(s);
    hs_srv_bench *b = s->bench;
    const int n = s->nact;
    hs_srv_target tg;
    if (hs_ring_pop(&s->targets, &tg) && tg.generation == b->generation && !b->failed) {
        active = 1;
        const int rc = hs_site_controller_target(b->sc, tg.step, tg.t, tg.x);
        if (rc) refuse_target(s, b, tg.step, rc);
    }
    if (atomic_exchange(&s->abort_req, 0) && !b->failed) hs_site_controller_abort(b->sc);
    if (atomic_exchange(&s->hold_req, 0) && !b->failed) hs_site_controller_hold_renew(b->sc);
    int ev = 0;
    if (!b->failed) {
        ev = hs_site_controller_tick(b->sc);
        if (ev < 0) {
            b->failed = 1;
            refuse_target(s, b, -1, ev);
            ev = 0;
        }
    }
    const hs_cmdgen *gen = hs_site_controller_cmdgen(b->sc);
    const double *desired = hs_cmdgen_command(gen), *xt = hs_lab_true_displacement(b->rig.io),
                 *ft = hs_lab_true_force(b->rig.io), *cmd = hs_site_controller_command(b->sc);
    if (ev > 0)
        for (int j = 0; j < n; j++) hs_tracking_add(b->track[j], desired[j], xt[j]);
    if (ev & HS_SC_EV_MEASUREMENT) {
        hs_site_measurement m = {
            .x = b->mx, .f = b->mf, .hist_t = b->ht, .hist_x = b->hx, .hist_f = b->hf};
        hs_site_report r;
        if (hs_site_controller_measurement(b->sc, &m, &r) == 0) {
            /* the state at this measurement, for the state file (written before it is sent) */
            snapshot(b, n);
            b->hold_saved = 0;
            fill_wire(s, b, &m, &r, &b->out);
            hs_srv_post_meas(s, &b->out);
        }
    }
    const int state = (int)hs_cmdgen_current_state(gen);
    int ch = -1;
    const int tripped = hs_site_controller_tripped(b->sc, &ch);
    if (state == HS_CMDGEN_HOLD && !tripped && !b->failed && !hs_site_controller_moving(b->sc))
        hold_snapshot(s, b);
    else
        b->hold_saved = 0;
    if (s->log_on) {
        hs_srv_tick *h = (hs_srv_tick *)(void *)rec;
        h->tick = s->nticks;
        h->t = 1e-9 * (double)(start - t0);
        h->late = 1e-9 * (double)late_ns;
        h->state = state;
        h->flags = tripped;
        double *v = (double *)(void *)(rec + sizeof *h);
        memcpy(v, cmd, (size_t)n * sizeof(double));
        memcpy(v + n, xt, (size_t)n * sizeof(double));
        memcpy(v + 2 * n, ft, (size_t)n * sizeof(double));
        if (!hs_ring_push(&s->ticks, rec)) atomic_fetch_add(&s->log_dropped, 1);
    }
    /* after a trip: at rest once the unloading has settled (or there is none) */
    const int unload = hs_site_controller_unload_state(b->sc);
    const int at_rest =
        b->failed || (tripped ? hs_site_controller_unload_settled(b->sc)
                              : !hs_site_controller_moving(b->sc) &&
                                    (state == HS_CMDGEN_HOLD || state == HS_CMDGEN_DONE));
    atomic_store(&s->ctl_at_rest, at_rest);
    active |= !at_rest;
    if (pthread_mutex_trylock(&s->status_lock) == 0) {
        hs_site_server_status *st = &s->status;
        st->ticks = s->nticks;
        st->spun_ticks = s->nspun;
        st->late_ticks = s->nlate;
        memcpy(st->late_by_cause, s->late_by_cause, sizeof st->late_by_cause);
        st->late_max = s->late_max;
        st->late_mean = s->nspun ? s->late_sum / (double)s->nspun : 0.0;
        int64_t want = (s->nspun * 99 + 99) / 100, acc = 0;
        int k = 0;
        for (; k < 63 && acc + s->late_hist[k] < want; k++) acc += s->late_hist[k];
        st->late_p99 = k < 63 ? 1e-5 * (double)(k + 1) : s->late_max;
        st->state = state;
        st->moving = hs_site_controller_moving(b->sc);
        st->tripped = tripped;
        st->unload = unload;
        if (tripped) hs_site_controller_trip_report(b->sc, &st->trip);
        memcpy(st->x, xt, (size_t)n * sizeof(double));
        memcpy(st->f, ft, (size_t)n * sizeof(double));
        memcpy(st->command, cmd, (size_t)n * sizeof(double));
        st->generation = b->generation;
        int64_t th;
        hs_cmdgen_timeout_ticks(gen, NULL, NULL, &th);
        st->hold_timeout = (double)th / s->rate;
        st->hold_left = b->failed ? 0.0 : hs_site_controller_hold_left(b->sc);
        st->log_dropped = atomic_load(&s->log_dropped);
        st->log_rotations = atomic_load(&s->log_rotations);
        pthread_mutex_unlock(&s->status_lock);
    }
    return active;
}

/* The wake-up latency measured at start: up to HS_SRV_CALIBRATION sleeps of one period, at
 * least 32, in about a quarter of a second. */
#define HS_SRV_CALIBRATION 256
/* Wall seconds a test stays active after its last target or movement (a late target's hold). */
#define HS_SRV_SPIN_GRACE 2.0

void *hs_srv_loop_main(void *arg)
{
    hs_site_server *s = arg;
    hs_rt_acquire(&s->grants, s->cfg.realtime);
    s->latency_granted = s->grants.latency;
    uint8_t rec[sizeof(hs_srv_tick) + 3 * HS_SITE_MAX_ACT * sizeof(double)];
    memset(rec, 0, sizeof rec);
    const double period = 1e9 / s->rate;
    if (s->cfg.spin > 0.0) {
        s->spin_ns = (int64_t)(s->cfg.spin * 1e9);
    } else {
        int64_t lat[HS_SRV_CALIBRATION];
        const double want = 0.25 * s->rate;
        const size_t n = want >= HS_SRV_CALIBRATION ? HS_SRV_CALIBRATION
                         : want <= 32.0             ? 32
                                                    : (size_t)want;
        s->spin_ns = hs_rt_calibrate((int64_t)period, lat, n);
        s->wake_p99 = hs_rt_quantile(lat, n, 0.99);
        s->wake_max = lat[n - 1];
    }
    const int64_t spin = s->spin_ns;
    const int64_t late = (int64_t)(s->cfg.late > 0.0 ? s->cfg.late * 1e9 : period / 4.0);
    atomic_store(&s->ctl_ready, 1);
    const int64_t t0 = hs_srv_now();
    const int64_t grace = (int64_t)ceil(HS_SRV_SPIN_GRACE * s->rate);
    int64_t quiet = grace + 1; /* ticks since the last active one: idle until a test comes */
    hs_rt_tick_times tt = {.prev_end = t0, .prev_late = 0};
    for (int64_t k = 1;; k++) {
        tt.deadline = t0 + (int64_t)llround((double)k * period);
        const int64_t margin = hs_rt_spin_gate(spin, quiet, grace);
        tt.start = hs_rt_wait(tt.deadline, margin, &tt.woke);
        const int64_t d = tt.start - tt.deadline;
        s->nticks++;
        if (margin > 0) { /* an active test's tick: its lateness counts */
            s->nspun++;
            s->late_sum += 1e-9 * (double)d;
            if (1e-9 * (double)d > s->late_max) s->late_max = 1e-9 * (double)d;
            s->late_hist[d / 10000 < 63 ? d / 10000 : 63]++;
            const int cause = hs_rt_late_cause(&tt, late);
            if (cause != HS_RT_ON_TIME) {
                s->nlate++;
                s->late_by_cause[cause]++;
            }
        }
        quiet = tick(s, t0, tt.start, d, rec) ? 0 : quiet + 1;
        tt.prev_end = hs_srv_now();
        tt.prev_late = d;
        if (atomic_load(&s->stop_ctl) == 2 ||
            (atomic_load(&s->stop_ctl) == 1 && atomic_load(&s->ctl_at_rest)))
            break;
    }
    hs_rt_release(&s->grants);
    return NULL;
}
