/* Remote sites through the coordinator, over loopback TCP. The servers are written here, in
 * threads, so that nothing depends on `hysim site`:
 *  - a native site (wire.h + secure.h) with a linear specimen f = K x reached exactly: the hybrid
 *    run equals the same run with a perfect virtual site, bit for bit;
 *  - the same site dying mid-test (connection closed) or falling silent: the coordinator stops
 *    with status aborted, names the site, keeps every recorded step, within its timeout;
 *  - a site holding another key: HS_EAUTH naming the site;
 *  - an operator's pause: HOLD kept while the site answers, then the hold's countdown;
 *  - openfresco-a:// against the library's protocol A server session behind a socket;
 *  - openfresco-b:// against an ActorSite written here from PROTOCOL.md's byte layout. */
#include "hs_ofr_serve.h"
#include "hs_loopback.h"
#include "hs_test.h"

#include "hysim/cmdgen.h"
#include "hysim/coordinator.h"
#include "hysim/linalg.h"
#include "hysim/openfresco.h"
#include "hysim/results.h"
#include "hysim/secure.h"
#include "hysim/wire.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define NSTEPS 400
#define NDOF   2

/* The specimen: two independent story springs (kN/mm), in actuator coordinates. */
static const double K_SPEC[4] = {1.0, 0.0, 0.0, 0.5};

static char tmpdir[64], key_a[128], key_b[128];

/* accept() bounded by 10 s (a test never hangs on a coordinator that did not come). */
static int accept_bounded(int lfd)
{
    struct pollfd p = {.fd = lfd, .events = POLLIN};
    if (poll(&p, 1, 10000) != 1) return -1;
    return accept(lfd, NULL, NULL);
}

/* ---- the test definition ---- */

static int load_rc(hs_ctx *ctx, const char *site_block, double timeout, hs_test_def **def)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "hysim: 1\n"
             "name: remote-2dof\n"
             "units: {force: kN, length: mm, time: s}\n"
             "structure:\n"
             "  dofs: 2\n"
             "  mass: [0.000929839173384007, 0.0029154084025754903]\n"
             "  ground_influence: [1, 1]\n"
             "  damping: {rayleigh: {modes: [1, 2], ratios: [0.05, 0.013]}}\n"
             "experimental:\n"
             "  - {name: frame, site: far, dofs: [1, 2], T: [[1, 0], [-1, 1]],\n"
             "     actuators: [story1, story2], initial_stiffness: [[1.0, 0], [0, 0.5]]}\n"
             "sites:\n"
             "  far:\n"
             "%s"
             "ground_motion:\n"
             "  synthetic: {seed: 7, pga: 1500.0, duration: 3, dt: 0.005}\n"
             "analysis:\n"
             "  integrator: {type: central_difference}\n"
             "  dt: 0.005\n"
             "  steps: %d\n"
             "  site_timeout: %g\n",
             site_block, NSTEPS, timeout);
    return hs_testfile_load_string(ctx, text, strlen(text), "remote.yaml", def);
}

static hs_test_def *load(hs_ctx *ctx, const char *site_block, double timeout)
{
    hs_test_def *def = NULL;
    if (load_rc(ctx, site_block, timeout, &def)) fail_msg("load: %s", hs_ctx_message(ctx));
    return def;
}

static const char VIRTUAL_BLOCK[] = "    kind: virtual\n"
                                    "    perfect: true\n"
                                    "    actuators: {story1: {}, story2: {}}\n"
                                    "    specimen: {type: linear, K: [[1.0, 0], [0, 0.5]]}\n";

static void remote_block(char *buf, size_t cap, const char *scheme, int port, const char *key)
{
    int n = snprintf(buf, cap, "    kind: remote\n    url: \"%s://127.0.0.1:%d\"\n", scheme, port);
    if (key) n += snprintf(buf + n, cap - (size_t)n, "    key: %s\n", key);
    snprintf(buf + n, cap - (size_t)n, "    actuators: {story1: {}, story2: {}}\n");
}

typedef struct run_result {
    int rc;
    hs_run_status status;
    int64_t steps, recorded;
    double d[(NSTEPS + 1) * NDOF];
    char reason[512];
    double elapsed;
} run_result;

static void run(hs_ctx *ctx, hs_test_def *def, run_result *out)
{
    memset(out, 0, sizeof *out);
    hs_coordinator *c = NULL;
    if (hs_coordinator_create(ctx, def, &c)) fail_msg("create: %s", hs_ctx_message(ctx));
    const double t0 = hs_test_now_s();
    out->rc = hs_coordinator_run(c);
    out->elapsed = hs_test_now_s() - t0;
    out->status = hs_coordinator_status(c);
    out->steps = hs_coordinator_steps_done(c);
    snprintf(out->reason, sizeof out->reason, "%s", hs_coordinator_reason(c));
    const hs_results *r = hs_coordinator_results(c);
    out->recorded = hs_results_count(r);
    for (int64_t k = 0; k < out->recorded; k++)
        for (int i = 0; i < NDOF; i++) out->d[k * NDOF + i] = hs_results_series_d(r, k)[i];
    hs_coordinator_destroy(&c);
}

static run_result reference;

static void run_reference(hs_ctx *ctx)
{
    hs_test_def *def = load(ctx, VIRTUAL_BLOCK, 60.0);
    run(ctx, def, &reference);
    hs_test_def_destroy(&def);
    assert_int_equal(reference.rc, 0);
    assert_int_equal(reference.recorded, NSTEPS + 1);
    double peak = 0.0;
    for (int k = 0; k < (NSTEPS + 1) * NDOF; k++) peak = fmax(peak, fabs(reference.d[k]));
    assert_true(peak > 1.0); /* the record moves the frame by millimetres */
}

/* ---- a native site written with wire.h and secure.h ---- */

typedef struct fake_site {
    int lfd;
    uint8_t key[HS_SECURE_KEY_SIZE];
    int die_after, hang_after; /* measurements answered before dying / falling silent; -1 never */
    atomic_int release;        /* the silent site may go */
    /* what it saw */
    int rc_handshake, targets, commits, heartbeats, byes, steps_in_order;
    /* RESUME: answered with this committed step and held displacement */
    int64_t resume_committed, resume_step;
    double resume_x[2];
    int resumes;
    hs_wire_hello offer;
    /* HOLD: answered (hold, hold_timeout, its full time left) for the first hold_answers ones */
    int holds, hold_answers;
    double hold_timeout;
} fake_site;

static void fake_measure(const hs_wire_msg *in, hs_wire_msg *out)
{
    const hs_wire_target *t = &in->target;
    *out = (hs_wire_msg){.type = HS_WIRE_MEASUREMENT, .step = in->step};
    hs_wire_measurement *m = &out->meas;
    m->t = t->t;
    m->nact = t->nact;
    m->nhist = 1;
    m->ticks = 5;
    m->delay_ticks = 5;
    for (int j = 0; j < t->nact; j++) m->x[j] = t->x[j]; /* reached exactly */
    hs_matvec(t->nact, K_SPEC, m->x, m->f);              /* f = K x */
    m->hist_t[0] = t->t;
    for (int j = 0; j < t->nact; j++) {
        m->hist_x[j] = m->x[j];
        m->hist_f[j] = m->f[j];
    }
}

static void *fake_site_main(void *arg)
{
    fake_site *fs = arg;
    const int fd = accept_bounded(fs->lfd);
    if (fd < 0) return NULL;
    const hs_transport tr = hs_transport_fd(fd);
    hs_secure_config cfg = {.role = HS_SECURE_SITE, .mode = HS_SECURE_PSK, .timeout_ms = 5000};
    memcpy(cfg.key, fs->key, sizeof cfg.key);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_secure *ch = NULL;
    hs_secure_create(ctx, &cfg, &tr, &ch);
    fs->rc_handshake = hs_secure_handshake(ch);
    static hs_wire_msg in, out;
    int answered = 0;
    fs->steps_in_order = 1;
    if (fs->rc_handshake == 0 && hs_secure_recv(ch, &in, 5000) == 0 && in.type == HS_WIRE_HELLO) {
        fs->offer = in.hello;
        hs_wire_hello site = {.version_min = 1,
                              .version_max = 1,
                              .caps = HS_WIRE_CAP_ALL,
                              .nact = 2,
                              .rate = 1000.0,
                              .time_scale = 0.001};
        for (int j = 0; j < 2; j++) site.limits[j] = (hs_wire_act_limits){1e9, 1e9, 1e9};
        snprintf(site.site, sizeof site.site, "far");
        out = (hs_wire_msg){.type = HS_WIRE_HELLO_ACK};
        if (hs_wire_negotiate(&in.hello, &site, &out.hello, &out) == 0)
            out.type = HS_WIRE_HELLO_ACK;
        hs_secure_send(ch, &out);
        while (hs_secure_recv(ch, &in, 5000) == 0) {
            if (in.type == HS_WIRE_TARGET) {
                if (in.step != fs->targets + 1) fs->steps_in_order = 0; /* 1, 2, ... */
                fs->targets++;
                if (answered == fs->die_after) break; /* dies: the connection closes */
                if (answered == fs->hang_after) {     /* falls silent, connection open */
                    while (!atomic_load(&fs->release)) {
                        const int rc = hs_secure_recv(ch, &in, 20);
                        if (rc == 0 && in.type == HS_WIRE_HEARTBEAT) fs->heartbeats++;
                        if (rc && rc != HS_ETIMEOUT) break;
                    }
                    break;
                }
                fake_measure(&in, &out);
                if (hs_secure_send(ch, &out)) break;
                answered++;
            } else if (in.type == HS_WIRE_COMMIT) {
                if (in.step != fs->commits + 1) fs->steps_in_order = 0;
                fs->commits++;
            } else if (in.type == HS_WIRE_HEARTBEAT)
                fs->heartbeats++;
            else if (in.type == HS_WIRE_RESUME) {
                fs->resumes++;
                fs->resume_step = in.step;
                out = (hs_wire_msg){.type = HS_WIRE_RESUME_ACK, .step = fs->resume_committed};
                out.resume.nact = 2;
                out.resume.x[0] = fs->resume_x[0];
                out.resume.x[1] = fs->resume_x[1];
                if (hs_secure_send(ch, &out)) break;
            } else if (in.type == HS_WIRE_HOLD) {
                if (++fs->holds > fs->hold_answers) continue; /* its answers stop */
                out = (hs_wire_msg){.type = HS_WIRE_HOLD_ACK, .step = answered};
                out.hold = (hs_wire_hold){HS_CMDGEN_HOLD, fs->hold_timeout, fs->hold_timeout};
                if (hs_secure_send(ch, &out)) break;
            } else if (in.type == HS_WIRE_BYE) {
                fs->byes++;
                break;
            }
        }
    }
    hs_secure_destroy(&ch);
    close(fd);
    hs_ctx_destroy(&ctx);
    return NULL;
}

static void fake_start(fake_site *fs, pthread_t *th, const char *key_path, int *port)
{
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    assert_int_equal(hs_secure_key_read(ctx, key_path, fs->key), 0);
    hs_ctx_destroy(&ctx);
    fs->lfd = hs_loopback_listen(port, 0);
    atomic_store(&fs->release, 0);
    assert_int_equal(pthread_create(th, NULL, fake_site_main, fs), 0);
}

static void fake_stop(fake_site *fs, pthread_t th)
{
    atomic_store(&fs->release, 1);
    pthread_join(th, NULL);
    close(fs->lfd);
}

static void test_native_equals_perfect_virtual(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    run_reference(ctx);
    fake_site fs = {.die_after = -1, .hang_after = -1};
    pthread_t th;
    int port = 0;
    fake_start(&fs, &th, key_a, &port);
    char block[512];
    remote_block(block, sizeof block, "hysim", port, key_a);
    hs_test_def *def = load(ctx, block, 10.0);
    static run_result r;
    run(ctx, def, &r);
    hs_test_def_destroy(&def);
    fake_stop(&fs, th);
    if (r.rc) fail_msg("remote run: %s", r.reason);
    assert_int_equal(r.status, HS_RUN_COMPLETED);
    assert_int_equal(r.recorded, NSTEPS + 1);
    for (int k = 0; k < (NSTEPS + 1) * NDOF; k++)
        if (r.d[k] != reference.d[k])
            fail_msg("step %d dof %d: remote %.17g, virtual %.17g", k / NDOF, k % NDOF + 1, r.d[k],
                     reference.d[k]);
    /* the site saw one target per step, in order, each committed, then BYE */
    assert_int_equal(fs.rc_handshake, 0);
    assert_int_equal(fs.targets, NSTEPS);
    assert_true(fs.steps_in_order);
    assert_int_equal(fs.commits, NSTEPS);
    assert_int_equal(fs.byes, 1);
    /* HELLO stated the test: 2 actuators, dt, time scale 1, the site asked for by name */
    assert_int_equal(fs.offer.nact, 2);
    assert_true(fs.offer.dt == 0.005);
    assert_true(fs.offer.time_scale == 1.0);
    assert_string_equal(fs.offer.site, "far");
    hs_ctx_destroy(&ctx);
}

static void check_aborted(const run_result *r, int answered)
{
    assert_int_not_equal(r->rc, 0);
    assert_int_equal(r->status, HS_RUN_ABORTED);
    assert_non_null(strstr(r->reason, "site far"));
    /* every step the site answered is recorded, exactly as the complete run had it */
    assert_int_equal(r->steps, answered);
    assert_int_equal(r->recorded, answered + 1);
    for (int k = 0; k < (answered + 1) * NDOF; k++) assert_true(r->d[k] == reference.d[k]);
}

static void test_site_dies_mid_test(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    run_reference(ctx);
    fake_site fs = {.die_after = 57, .hang_after = -1};
    pthread_t th;
    int port = 0;
    fake_start(&fs, &th, key_a, &port);
    char block[512];
    remote_block(block, sizeof block, "hysim", port, key_a);
    hs_test_def *def = load(ctx, block, 5.0);
    static run_result r;
    run(ctx, def, &r);
    hs_test_def_destroy(&def);
    fake_stop(&fs, th);
    assert_non_null(strstr(r.reason, "step 58"));
    printf("dies: rc %d after %.3f s: %s\n", r.rc, r.elapsed, r.reason);
    assert_int_equal(r.rc, HS_ENET);
    assert_non_null(strstr(r.reason, "connection lost"));
    assert_true(r.elapsed < 5.0); /* a closed connection is seen at once, not at the timeout */
    check_aborted(&r, 57);
    hs_ctx_destroy(&ctx);
}

static void test_site_falls_silent(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    run_reference(ctx);
    fake_site fs = {.die_after = -1, .hang_after = 31};
    pthread_t th;
    int port = 0;
    fake_start(&fs, &th, key_a, &port);
    char block[512];
    remote_block(block, sizeof block, "hysim", port, key_a);
    const double timeout = 1.5;
    hs_test_def *def = load(ctx, block, timeout);
    static run_result r;
    run(ctx, def, &r);
    hs_test_def_destroy(&def);
    fake_stop(&fs, th);
    printf("silent: rc %d after %.3f s, %d heartbeat(s): %s\n", r.rc, r.elapsed, fs.heartbeats,
           r.reason);
    assert_int_equal(r.rc, HS_ETIMEOUT);
    assert_non_null(strstr(r.reason, "no measurement of step 32 within 1.5 s"));
    assert_true(r.elapsed >= timeout && r.elapsed < timeout + 1.0);
    assert_true(fs.heartbeats >= 1); /* the coordinator kept the link alive while it waited */
    check_aborted(&r, 31);
    hs_ctx_destroy(&ctx);
}

static void test_wrong_key(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    fake_site fs = {.die_after = -1, .hang_after = -1};
    pthread_t th;
    int port = 0;
    fake_start(&fs, &th, key_b, &port);
    char block[512];
    remote_block(block, sizeof block, "hysim", port, key_a);
    hs_test_def *def = load(ctx, block, 5.0);
    hs_coordinator *c = NULL;
    const int rc = hs_coordinator_create(ctx, def, &c);
    printf("wrong key: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, HS_EAUTH);
    assert_null(c);
    assert_non_null(strstr(hs_ctx_message(ctx), "site far"));
    assert_non_null(strstr(hs_ctx_message(ctx), "authentication failed"));
    hs_test_def_destroy(&def);
    fake_stop(&fs, th);
    assert_int_equal(fs.rc_handshake, HS_EAUTH); /* the site refused too */
    assert_int_equal(fs.targets, 0);
    hs_ctx_destroy(&ctx);
}

/* hs_site_resume on a native site: HELLO, RESUME with the steps done, RESUME_ACK checked. */
/* A native site object of a test through the fake site fs (started here), HELLO done. */
static hs_site *fake_connect(hs_ctx *ctx, fake_site *fs, pthread_t *th, hs_test_def **def)
{
    int port = 0;
    fake_start(fs, th, key_a, &port);
    char block[512];
    remote_block(block, sizeof block, "hysim", port, key_a);
    *def = load(ctx, block, 5.0);
    hs_site *site = NULL;
    assert_int_equal(hs_site_create(ctx, &(*def)->sites[0], &site), 0);
    assert_int_equal(hs_site_setup(site, (*def)->dt), 0);
    return site;
}

static int resume_against(hs_ctx *ctx, int64_t committed, const double held[2], int64_t step,
                          const double x[2], int *resumes, int64_t *asked)
{
    fake_site fs = {.die_after = -1, .hang_after = -1, .resume_committed = committed};
    fs.resume_x[0] = held[0];
    fs.resume_x[1] = held[1];
    pthread_t th;
    hs_test_def *def = NULL;
    hs_site *site = fake_connect(ctx, &fs, &th, &def);
    const int rc = hs_site_resume(site, step, x);
    hs_site_destroy(&site);
    hs_test_def_destroy(&def);
    fake_stop(&fs, th);
    *resumes = fs.resumes;
    *asked = fs.resume_step;
    return rc;
}

/* An operator's pause against a native site (docs/monitor.md, "A pause longer than a
 * hold_timeout"): the coordinator sends HOLD at once and then every quarter of the site's
 * hold_timeout (0.4 s of 1.6 s); while the site answers, its hold reads kept; its answers stop
 * after the third (at about 0.8 s): two periods and half a second later (about 2.1 s) the hold
 * reads lapsing, with the time left counted down from the last answer (1.6 s) on the wall clock
 * (about 0.3 s then), and 0 once it has run out. Before the pause the hold is unknown. */
static void test_native_pause_keepalive(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    fake_site fs = {.die_after = -1, .hang_after = -1, .hold_answers = 3, .hold_timeout = 1.6};
    pthread_t th;
    hs_test_def *def = NULL;
    hs_site *site = fake_connect(ctx, &fs, &th, &def);
    assert_true(fs.offer.caps & HS_WIRE_CAP_HOLD);
    const double x[2] = {0.1, -0.2};
    double mx[2], mf[2], ht[HS_EXP_HISTORY], hx[2 * HS_EXP_HISTORY], hf[2 * HS_EXP_HISTORY];
    hs_site_measurement m = {.x = mx, .f = mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
    assert_int_equal(hs_site_send_target(site, 0, def->dt, x, 0.0), 0);
    assert_int_equal(hs_site_get_measurement(site, &m), 0);
    assert_int_equal(hs_site_commit(site, 0), 0);
    double left = 0.0;
    assert_int_equal(hs_site_hold(site, &left), HS_SITE_HOLD_UNKNOWN);
    assert_true(isnan(left));
    const double t0 = hs_test_now_s();
    double lapsing_at = -1.0, left_at_lapse = -1.0;
    int kept = 0;
    while (hs_test_now_s() - t0 < 3.0) {
        assert_int_equal(hs_site_idle(site), 0);
        const int h = hs_site_hold(site, &left);
        if (h == HS_SITE_HOLD_KEPT) {
            assert_true(lapsing_at < 0.0); /* kept, then lapsing: never back */
            assert_true(left > 0.0 && left <= 1.6);
            kept++;
        } else if (h == HS_SITE_HOLD_LAPSING && lapsing_at < 0.0) {
            lapsing_at = hs_test_now_s() - t0;
            left_at_lapse = left;
        }
        const struct timespec nap = {0, 20000000};
        nanosleep(&nap, NULL);
    }
    const int last = hs_site_hold(site, &left);
    printf("pause: %d HOLDs sent, 3 answered; kept for %d polls, lapsing after %.2f s with %.2f s "
           "left, %.2f s left at 3 s\n",
           fs.holds, kept, lapsing_at, left_at_lapse, left);
    assert_true(kept > 0);
    assert_true(fs.holds >= 6 && fs.holds <= 9); /* at 0, 0.4, ..., 2.8 s */
    assert_true(lapsing_at > 1.9 && lapsing_at < 2.6);
    assert_true(fabs(left_at_lapse - (1.6 - (lapsing_at - 0.8))) < 0.25);
    assert_int_equal(last, HS_SITE_HOLD_LAPSING);
    assert_true(left == 0.0); /* 1.6 s after the last answer, at about 2.4 s */
    hs_site_destroy(&site);
    hs_test_def_destroy(&def);
    fake_stop(&fs, th);
    hs_ctx_destroy(&ctx);
}

static char warned[512];
static void keep_warning(void *user, hs_log_level level, const char *message)
{
    (void)user;
    if (level == HS_LOG_WARN) snprintf(warned, sizeof warned, "%s", message);
}

static void test_native_resume(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const double x[2] = {1.25, -0.5};
    int resumes = 0;
    int64_t asked = -1;
    /* the site committed the checkpoint's 57 steps and holds its target */
    assert_int_equal(resume_against(ctx, 57, x, 57, x, &resumes, &asked), 0);
    assert_int_equal(resumes, 1);
    assert_int_equal(asked, 57);
    /* one step further than the checkpoint: refused, saying both */
    const int rc = resume_against(ctx, 58, x, 57, x, &resumes, &asked);
    assert_int_equal(rc, HS_EPROTO);
    assert_non_null(strstr(hs_ctx_message(ctx), "committed 58 step(s), the checkpoint 57"));
    /* holding near the target (it extrapolated, then held): accepted, the offset reported */
    const double moved[2] = {1.25, -0.25};
    warned[0] = '\0';
    hs_ctx_set_logger(ctx, keep_warning, NULL, HS_LOG_WARN);
    assert_int_equal(resume_against(ctx, 57, moved, 57, x, &resumes, &asked), 0);
    assert_non_null(
        strstr(warned, "actuator story2 holds -0.25, 0.25 from the checkpoint's target -0.5"));
    hs_ctx_destroy(&ctx);
}

/* ---- OpenFresco protocol A: the library's server session behind a socket ---- */

typedef struct ofa_site {
    int lfd;
    double d[2];
    int trials, commits, closed;
    hs_ofr_stats stats;
} ofa_site;

static int ofa_set_trial(void *user, const double *disp, const double *vel, const double *accel,
                         double time)
{
    (void)vel, (void)accel, (void)time;
    ofa_site *s = user;
    s->d[0] = disp[0];
    s->d[1] = disp[1];
    s->trials++;
    return 0;
}
static int ofa_get_force(void *user, double *out)
{
    ofa_site *s = user;
    hs_matvec(2, K_SPEC, s->d, out);
    return 0;
}
static int ofa_commit(void *user, double time)
{
    (void)time;
    ((ofa_site *)user)->commits++;
    return 0;
}
static void ofa_close(void *user)
{
    ((ofa_site *)user)->closed = 1;
}

static void *ofa_site_main(void *arg)
{
    ofa_site *s = arg;
    const int fd = accept_bounded(s->lfd);
    if (fd < 0) return NULL;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ofr_backend be = {.user = s,
                         .set_trial = ofa_set_trial,
                         .get_force = ofa_get_force,
                         .commit = ofa_commit,
                         .close = ofa_close};
    hs_ofr_server_config cfg = {.n = 2};
    hs_ofr_server *srv = NULL;
    hs_ofr_server_create(ctx, HS_OFR_PROTO_A, &cfg, &be, &srv);
    hs_ofr_serve_fd(srv, fd, 5000);
    hs_ofr_server_stats(srv, &s->stats);
    hs_ofr_server_destroy(&srv);
    close(fd);
    hs_ctx_destroy(&ctx);
    return NULL;
}

/* Runs the test through `scheme` against a peer that peer_main(peer) serves on a thread from
 * the listening socket it finds in *lfd; r receives the run; the thread joined, *lfd closed. */
static void run_against_peer(hs_ctx *ctx, const char *scheme, int *lfd, void *(*peer_main)(void *),
                             void *peer, run_result *r)
{
    int port = 0;
    *lfd = hs_loopback_listen(&port, 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, peer_main, peer), 0);
    char block[512];
    remote_block(block, sizeof block, scheme, port, NULL);
    hs_test_def *def = load(ctx, block, 10.0);
    run(ctx, def, r);
    hs_test_def_destroy(&def);
    pthread_join(th, NULL);
    close(*lfd);
}

static void test_openfresco_a(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    run_reference(ctx);
    ofa_site s = {0};
    static run_result r;
    run_against_peer(ctx, "openfresco-a", &s.lfd, ofa_site_main, &s, &r);
    if (r.rc) fail_msg("openfresco-a run: %s", r.reason);
    assert_int_equal(r.recorded, NSTEPS + 1);
    for (int k = 0; k < (NSTEPS + 1) * NDOF; k++) assert_true(r.d[k] == reference.d[k]);
    /* per step: 3 (no reply), 6 (reply), 5 (no reply); 99 at the end */
    assert_int_equal(s.trials, NSTEPS);
    assert_int_equal(s.commits, NSTEPS);
    assert_int_equal((int)s.stats.replies, NSTEPS);
    assert_int_equal((int)s.stats.messages, 1 + 3 * NSTEPS + 1);
    assert_int_equal((int)s.stats.unknown_codes, 0);
    assert_int_equal(s.closed, 1);
    hs_ctx_destroy(&ctx);
}

/* ---- OpenFresco protocol B: an ActorSite written from PROTOCOL.md ---- */

static void put_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(u >> (8 * i));
}
static double get_f64(const uint8_t *p)
{
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) u |= (uint64_t)p[i] << (8 * i);
    double v;
    memcpy(&v, &u, 8);
    return v;
}
static int32_t get_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

static int read_n(int fd, uint8_t *buf, size_t n)
{
    size_t have = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (have < n) {
        if (poll(&p, 1, 5000) != 1) return -1;
        const ssize_t r = recv(fd, buf + have, n - have, 0);
        if (r <= 0) return -1;
        have += (size_t)r;
    }
    return 0;
}

typedef struct actor_site {
    int lfd;
    int ok_handshake;  /* byte order, open [1, tag, 2.8], setup as expected */
    int32_t sizes[10]; /* sizeCtrl, sizeDaq as received */
    int data_size, trials, daqs, commits, closes, bad;
    double commit_time_err; /* largest |time at the commit slot - the last trial time| */
} actor_site;

enum { ACTOR_TAG = 77 };

static void *actor_site_main(void *arg)
{
    actor_site *a = arg;
    const int fd = accept_bounded(a->lfd);
    if (fd < 0) return NULL;
    static uint8_t b[256 * 8 + 40];
    uint8_t one[4] = {1, 0, 0, 0};
    if (read_n(fd, b, 4) || memcmp(b, one, 4) != 0) goto out;
    send(fd, one, 4, MSG_NOSIGNAL);
    if (read_n(fd, b, 256 * 8) || get_f64(b) != 1.0 || get_f64(b + 16) != 2.8) goto out;
    memset(b, 0, 256 * 8);
    put_f64(b, 0.0);
    put_f64(b + 8, ACTOR_TAG);
    put_f64(b + 16, 2.8);
    send(fd, b, 256 * 8, MSG_NOSIGNAL);
    if (read_n(fd, b, 256 * 8 + 40) || get_f64(b) != 2.0) goto out;
    a->data_size = (int)get_f64(b + 8);
    for (int i = 0; i < 10; i++) a->sizes[i] = get_i32(b + 256 * 8 + 4 * i);
    const int n = a->sizes[0], ds = a->data_size;
    if (n != 2 || ds < 1 + n + 1 || ds > 256) goto out;
    a->ok_handshake = 1;
    /* then dataSize doubles per message: 3 trial, 6 daq (disp | force), 5 commit, 99 close */
    const int t_slot = 1 + a->sizes[0] + a->sizes[1] + a->sizes[2] + a->sizes[3];
    double d[2] = {0, 0}, f[2], t = 0.0;
    for (;;) {
        if (read_n(fd, b, (size_t)ds * 8)) break;
        const double code = get_f64(b);
        if (code == 3.0) {
            d[0] = get_f64(b + 8);
            d[1] = get_f64(b + 16);
            t = get_f64(b + 8 * (size_t)t_slot);
            a->trials++;
        } else if (code == 6.0) {
            hs_matvec(2, K_SPEC, d, f);
            memset(b, 0, (size_t)ds * 8);
            put_f64(b, d[0]);
            put_f64(b + 8, d[1]);
            put_f64(b + 16, f[0]);
            put_f64(b + 24, f[1]);
            send(fd, b, (size_t)ds * 8, MSG_NOSIGNAL);
            a->daqs++;
        } else if (code == 5.0) {
            a->commits++;
            a->commit_time_err =
                fmax(a->commit_time_err, fabs(get_f64(b + 8 * (size_t)t_slot) - t));
        } else if (code == 99.0) {
            memset(b, 0, (size_t)ds * 8);
            put_f64(b, 4.0);
            put_f64(b + 8, ACTOR_TAG);
            send(fd, b, (size_t)ds * 8, MSG_NOSIGNAL);
            a->closes++;
            break;
        } else
            a->bad++;
    }
out:
    close(fd);
    return NULL;
}

static void test_openfresco_b(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    run_reference(ctx);
    actor_site a = {0};
    static run_result r;
    run_against_peer(ctx, "openfresco-b", &a.lfd, actor_site_main, &a, &r);
    if (r.rc) fail_msg("openfresco-b run: %s", r.reason);
    assert_true(a.ok_handshake);
    /* sizeCtrl [2, 0, 0, 0, 1] (displacement, time), sizeDaq [2, 0, 0, 2, 0] (disp, force) */
    const int32_t sizes[10] = {2, 0, 0, 0, 1, 2, 0, 0, 2, 0};
    assert_memory_equal(a.sizes, sizes, sizeof sizes);
    assert_int_equal(a.data_size, 4); /* max(1 + 3, 4) */
    for (int k = 0; k < (NSTEPS + 1) * NDOF; k++) assert_true(r.d[k] == reference.d[k]);
    assert_int_equal(a.trials, NSTEPS);
    assert_int_equal(a.daqs, NSTEPS);
    assert_int_equal(a.commits, NSTEPS);
    assert_true(a.commit_time_err == 0.0); /* commit carries the step's time at its slot */
    assert_int_equal(a.closes, 1);
    assert_int_equal(a.bad, 0);
    hs_ctx_destroy(&ctx);
}

/* ---- the loader's remote keys ---- */

static void test_loader_remote_keys(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    char block[512];
    /* plain: true without a key */
    snprintf(block, sizeof block,
             "    kind: remote\n    url: \"hysim://127.0.0.1:9\"\n    plain: true\n"
             "    rate: 2048\n    actuators: {story1: {}, story2: {}}\n");
    hs_test_def *def = load(ctx, block, 7.0);
    assert_int_equal(def->sites[0].plain, 1);
    assert_true(def->sites[0].timeout == 7.0);
    assert_true(def->sites[0].need_rate == 2048.0);
    hs_test_def_destroy(&def);
    /* refused: a native site without key or plain, an OpenFresco site with a key */
    static const char *const bad[] = {
        "    kind: remote\n    url: \"hysim://127.0.0.1:9\"\n"
        "    actuators: {story1: {}, story2: {}}\n",
        "    kind: remote\n    url: \"openfresco-a://127.0.0.1:9\"\n    key: KEY\n"
        "    actuators: {story1: {}, story2: {}}\n",
        "    kind: remote\n    url: \"ftp://127.0.0.1:9\"\n"
        "    actuators: {story1: {}, story2: {}}\n"};
    static const char *const why[] = {"missing required key 'key'", "speaks plain TCP",
                                      "expected hysim://HOST:PORT"};
    for (int i = 0; i < 3; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s", bad[i]);
        char *k = strstr(text, "KEY");
        if (k) {
            char rest[256];
            snprintf(rest, sizeof rest, "%s", k + 3);
            snprintf(k, sizeof text - (size_t)(k - text), "%s%s", key_a, rest);
        }
        hs_test_def *d = NULL;
        assert_int_equal(load_rc(ctx, text, 5.0, &d), HS_EINPUT);
        assert_null(d);
        if (!strstr(hs_ctx_message(ctx), why[i]))
            fail_msg("case %d: '%s' does not say '%s'", i, hs_ctx_message(ctx), why[i]);
    }
    hs_ctx_destroy(&ctx);
}

static int setup_keys(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hs_site_remote_XXXXXX");
    if (!mkdtemp(tmpdir)) return -1;
    snprintf(key_a, sizeof key_a, "%s/a.key", tmpdir);
    snprintf(key_b, sizeof key_b, "%s/b.key", tmpdir);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const int rc =
        hs_secure_key_generate(ctx, key_a, NULL) || hs_secure_key_generate(ctx, key_b, NULL);
    hs_ctx_destroy(&ctx);
    return rc ? -1 : 0;
}

static int teardown_keys(void **state)
{
    (void)state;
    unlink(key_a);
    unlink(key_b);
    rmdir(tmpdir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_native_equals_perfect_virtual),
        cmocka_unit_test(test_site_dies_mid_test),
        cmocka_unit_test(test_site_falls_silent),
        cmocka_unit_test(test_native_pause_keepalive),
        cmocka_unit_test(test_wrong_key),
        cmocka_unit_test(test_native_resume),
        cmocka_unit_test(test_openfresco_a),
        cmocka_unit_test(test_openfresco_b),
        cmocka_unit_test(test_loader_remote_keys),
    };
    return cmocka_run_group_tests(tests, setup_keys, teardown_keys);
}
