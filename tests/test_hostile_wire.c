/* A hostile coordinator over the wire, for every laboratory back end (docs/site_controller.md,
 * "Safety limits"): `hysim site` (the built program, HS_CLI) drives its virtual lab, a udp lab
 * and a shm lab played by `hysim plant`, and the example driver; this test is the coordinator
 * (the library's remote site client) and sends, after 20 slow steps, targets that walk past the
 * stroke, jump across it, are huge (1e300), climb a fast sawtooth, take a random walk, or are not
 * numbers. The site's tick log records every command that left the site: none crosses the stroke,
 * the step per tick, the velocity or the acceleration limit (the one stop tick of a trip repeats
 * the last command), the trip stops the coordinator with the limit named, and the site unloads
 * within the same limits. A target that is not a number cannot be sent at all: the wire refuses
 * to encode it (and to decode it). The udp and shm labs allow 2000 missing replies in a row (2 s):
 * a plant starved by a loaded machine must not end an attack before it begins. Each attack runs
 * against a fresh site (and plant), stopped with SIGTERM (the operator's abort) afterwards. */
#include "hs_test.h"

#include "hysim/site.h"
#include "hysim/site_controller.h"
#include "hysim/testfile.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STROKE 1.0
#define VEL    5.0
#define ACC    2000.0
#define STEP   0.004
#define RATE   1000.0
#define SLOW   20 /* slow steps before the attack */
#define STEPS  120

enum { K_WALK, K_JUMP, K_HUGE, K_SAWTOOTH, K_RANDOM, K_NAN, NKINDS };
static const char *const KIND_NAME[NKINDS] = {
    "walk past the stroke", "jumps across the stroke", "1e300", "fast sawtooth", "random walk",
    "not a number"};
enum { B_VIRTUAL, B_UDP, B_SHM, B_DRIVER, NBACKENDS };
static const char *const BACKEND_NAME[NBACKENDS] = {"virtual", "udp", "shm", "driver"};

static char dir[64];
static const char *cli;
static pid_t live[2]; /* the plant and the site of the running attack, stopped even on failure */

static double hostile(int kind, int i, unsigned *seed, double prev)
{
    if (i <= SLOW) return 0.001 * i;
    const int j = i - SLOW;
    switch (kind) {
    case K_WALK:
        return 0.02 + 0.03 * j;
    case K_JUMP:
        return j % 2 ? 0.9 : -0.9;
    case K_HUGE:
        return j < 4 ? 0.02 : j % 2 ? 1e300 : -1e300;
    case K_SAWTOOTH:
        return -0.3 + 0.03 * (j % 21);
    case K_RANDOM:
        *seed = *seed * 1103515245u + 12345u;
        return prev + 0.1 * ((double)(*seed >> 8) / 16777216.0) - 0.05;
    default:
        return j == 3 ? NAN : 0.02;
    }
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Starts `argv` with stdout and stderr to files; returns its pid. */
static pid_t spawn(char *const argv[], const char *out, const char *err)
{
    unlink(out); /* never a previous run's port */
    unlink(err);
    const pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0) {
        const int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600),
                  e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0) _exit(127);
        dup2(o, 1);
        dup2(e, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    live[live[0] ? 1 : 0] = p;
    return p;
}

/* SIGTERM, then up to 30 s for the exit (SIGKILL after); returns its exit status. */
static int stop(pid_t p)
{
    for (int k = 0; k < 2; k++)
        if (live[k] == p) live[k] = 0;
    kill(p, SIGTERM);
    int st = 0;
    for (int k = 0; k < 3000; k++) {
        if (waitpid(p, &st, WNOHANG) == p) return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        const struct timespec ms10 = {0, 10000000};
        nanosleep(&ms10, NULL);
    }
    kill(p, SIGKILL);
    waitpid(p, &st, 0);
    return -1;
}

/* Waits up to 10 s for `what` in the file; with a port pattern, returns the port. */
static int wait_for(const char *path, const char *what, int want_port)
{
    for (int k = 0; k < 1000; k++) {
        FILE *f = fopen(path, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            const char *at = strstr(line, what);
            if (!at) continue;
            fclose(f);
            return want_port ? atoi(at + strlen(what)) : 1;
        }
        if (f) fclose(f);
        const struct timespec ms10 = {0, 10000000};
        nanosleep(&ms10, NULL);
    }
    return 0;
}

static const char PACKETS[] =
    "  endian: little\n"
    "  command_packet: [{counter: uint32}, {command: float64, channel: a1}]\n"
    "  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},\n"
    "                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]\n";

/* The plant of a back end (udp, shm): its file, started; returns its pid (0: none) and the lab
 * block of the site file in `lab`. */
static pid_t start_plant(int backend, char *lab, size_t cap)
{
    char path[128], out[128], err[128], text[2048];
    lab[0] = '\0';
    if (backend == B_DRIVER) {
        snprintf(lab, cap, "  lab: {kind: driver, path: \"%s\", options: \"a=3 k=2.0\"}\n",
                 HS_DRIVER_FIRST_ORDER);
        return 0;
    }
    if (backend == B_VIRTUAL) return 0;
    snprintf(path, sizeof path, "%s/plant.yaml", dir);
    snprintf(out, sizeof out, "%s/plant.out", dir);
    snprintf(err, sizeof err, "%s/plant.err", dir);
    char shm_name[64];
    snprintf(shm_name, sizeof shm_name, "/hs_hostile_%d", (int)getpid());
    if (backend == B_UDP)
        snprintf(text, sizeof text,
                 "hysim: 1\nplant:\n  listen: \"127.0.0.1:0\"\n  rate: 1000\n"
                 "  actuators: {a1: {delay_samples: 3}}\n  specimen: {type: linear, K: [[2.0]]}\n"
                 "%s",
                 PACKETS);
    else
        snprintf(text, sizeof text,
                 "hysim: 1\nplant:\n  lab: {kind: shm, name: %s}\n  rate: 1000\n"
                 "  actuators: {a1: {delay_samples: 3}}\n  specimen: {type: linear, K: [[2.0]]}\n",
                 shm_name);
    write_file(path, text);
    char *argv[] = {(char *)cli, "plant", "--config", path, NULL};
    const pid_t p = spawn(argv, out, err);
    if (backend == B_UDP) {
        const int port = wait_for(out, "plant listening on 127.0.0.1:", 1);
        if (!port) fail_msg("the udp plant did not start");
        int n = snprintf(
            lab, cap,
            "  lab:\n    kind: udp\n    remote: \"127.0.0.1:%d\"\n"
            "    local: \"127.0.0.1:0\"\n    rests_at_zero: true\n    reply_timeout: 0.002\n"
            "    max_missing: 2000\n",
            port);
        /* the packets, indented under lab */
        for (const char *s = PACKETS; *s && (size_t)n < cap - 4;) {
            const char *e = strchr(s, '\n');
            n += snprintf(lab + n, cap - (size_t)n, "  %.*s\n", (int)(e - s), s);
            s = e + 1;
        }
    } else {
        if (!wait_for(out, "plant serving shm", 0)) fail_msg("the shm plant did not start");
        snprintf(lab, cap,
                 "  lab: {kind: shm, name: %s, reply_timeout: 0.002, max_missing: 2000}\n",
                 shm_name);
    }
    return p;
}

static pid_t start_site(const char *lab, int *port)
{
    char path[128], out[128], err[128], log[128], text[4096];
    snprintf(path, sizeof path, "%s/site.yaml", dir);
    snprintf(out, sizeof out, "%s/site.out", dir);
    snprintf(err, sizeof err, "%s/site.err", dir);
    snprintf(log, sizeof log, "%s/ticks.csv", dir);
    snprintf(text, sizeof text,
             "hysim: 1\nsite:\n  name: east\n  listen: \"127.0.0.1:0\"\n  plain: true\n"
             "  rate: 1000\n"
             "  actuators: {a1: {delay_samples: 3, stroke: %g, velocity_limit: %g,\n"
             "                   acceleration_limit: %g, step_limit: %g}}\n"
             "  specimen: {type: linear, K: [[2.0]]}\n"
             "  command: {unload_after: 0.05, unload_velocity: 2}\n%s",
             STROKE, VEL, ACC, STEP, lab);
    write_file(path, text);
    char *argv[] = {(char *)cli, "site", "--config", path, "--log", log, NULL};
    const pid_t p = spawn(argv, out, err);
    *port = wait_for(out, "listening on 127.0.0.1:", 1);
    if (!*port) {
        stop(p);
        fail_msg("the site did not start:\n%s", text);
    }
    return p;
}

/* The coordinator: the remote site client of a one-actuator test. Returns the rc that ended
 * the attack (0: all sent) and the coordinator's message in `why`. */
static int attack(int port, int kind, int *sent, char *why, size_t cap)
{
    char text[2048];
    snprintf(text, sizeof text,
             "hysim: 1\nname: hostile\nunits: {force: kN, length: mm, time: s}\n"
             "structure: {dofs: 1, mass: [0.001],\n"
             "            damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}}\n"
             "experimental:\n"
             "  - {name: e, site: east, story: 1, actuators: [a1], initial_stiffness: [[2.0]]}\n"
             "sites:\n"
             "  east: {kind: remote, url: \"hysim://127.0.0.1:%d\", plain: true,\n"
             "         actuators: {a1: {}}}\n"
             "ground_motion: {synthetic: {seed: 7, pga: 100.0, duration: 2, dt: 0.01}}\n"
             "analysis: {integrator: {type: central_difference}, dt: 0.01, steps: %d,\n"
             "           time_scale: 1, site_timeout: 5}\n",
             port, STEPS);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    if (hs_testfile_load_string(ctx, text, strlen(text), "hostile.yaml", &def))
        fail_msg("%s", hs_ctx_message(ctx));
    hs_site *site = NULL;
    if (hs_site_create(ctx, &def->sites[0], &site) || hs_site_setup(site, 0.01))
        fail_msg("%s", hs_ctx_message(ctx));
    double mx, mf, ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
    hs_site_measurement m = {.x = &mx, .f = &mf, .hist_t = ht, .hist_x = hx, .hist_f = hf};
    unsigned seed = 12345u;
    double prev = 0.0;
    int rc = 0;
    *sent = 0;
    why[0] = '\0';
    for (int i = 1; i <= STEPS && !rc; i++) {
        const double x = hostile(kind, i, &seed, prev);
        prev = isfinite(x) ? x : prev;
        rc = hs_site_send_target(site, i, 0.01 * i, &x, 0.0);
        if (!rc) rc = hs_site_get_measurement(site, &m);
        if (!rc) rc = hs_site_commit(site, i);
        if (!rc) *sent = i;
    }
    if (rc) snprintf(why, cap, "%s", hs_ctx_message(ctx));
    hs_site_destroy(&site);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return rc;
}

typedef struct verdict {
    int64_t ticks, stops;
    int trip;
    double worst[4]; /* |c|, step, velocity, acceleration */
    double f_end;
} verdict;

/* Every command of the tick log against every limit. */
static verdict check_log(void)
{
    char path[128], line[1024];
    snprintf(path, sizeof path, "%s/ticks.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    verdict v;
    memset(&v, 0, sizeof v);
    double c1 = 0.0, c2 = 0.0;
    int prev_trip = 0;
    assert_non_null(fgets(line, sizeof line, f)); /* header */
    while (fgets(line, sizeof line, f)) {
        long long tick = 0;
        double t = 0, late = 0, c = 0, x = 0, force = 0;
        char state[32];
        int trip = 0;
        if (sscanf(line, "%lld,%lf,%lf,%31[^,],%d,%lf,%lf,%lf", &tick, &t, &late, state, &trip, &c,
                   &x, &force) != 8)
            fail_msg("tick log line: %s", line);
        const double s = fabs(c - c1), a = fabs(c - 2.0 * c1 + c2) * RATE * RATE;
        if (!(fabs(c) <= STROKE) || !(s <= STEP) || !(s * RATE <= VEL))
            fail_msg("tick %lld: command %.17g after %.17g crosses a limit", tick, c, c1);
        if (trip && !prev_trip && c == c1)
            v.stops++; /* the trip's stop: the last command again */
        else if (v.ticks >= 2 && !(a <= ACC * (1 + 1e-9)))
            fail_msg("tick %lld: acceleration %g beyond %g", tick, a, ACC);
        else
            v.worst[3] = fmax(v.worst[3], v.ticks >= 2 ? a : 0.0);
        v.worst[0] = fmax(v.worst[0], fabs(c));
        v.worst[1] = fmax(v.worst[1], s);
        v.worst[2] = fmax(v.worst[2], s * RATE);
        if (trip) v.trip = trip;
        prev_trip = trip;
        c2 = c1;
        c1 = c;
        v.f_end = force;
        v.ticks++;
    }
    fclose(f);
    return v;
}

static void run_backend(int backend)
{
    for (int kind = 0; kind < NKINDS; kind++) {
        char lab[2048];
        const pid_t plant = start_plant(backend, lab, sizeof lab);
        int port = 0;
        const pid_t site = start_site(lab, &port);
        int sent = 0;
        char why[512];
        const int rc = attack(port, kind, &sent, why, sizeof why);
        const int site_rc = stop(site);
        if (plant) stop(plant);
        const verdict v = check_log();
        printf("%-7s %-23s: %d targets taken, %s; %lld ticks logged, trip %d, largest |c| %.4g, "
               "step %.4g, velocity %.4g, acceleration %.4g (limits %g, %g, %g, %g); f at the end "
               "%.3g\n",
               BACKEND_NAME[backend], KIND_NAME[kind], sent, rc ? why : "no refusal",
               (long long)v.ticks, v.trip, v.worst[0], v.worst[1], v.worst[2], v.worst[3], STROKE,
               STEP, VEL, ACC, v.f_end);
        assert_int_equal(site_rc, 0);
        assert_true(sent >= SLOW); /* the slow steps pass */
        assert_true(rc != 0);      /* every attack is stopped */
        if (kind == K_NAN) {
            /* refused by the wire codec before it leaves: the site never sees it and no limit
             * trips; the only trip is the operator's stop (SIGTERM) that ends the site */
            assert_int_equal(sent, SLOW + 2);
            assert_int_equal(v.trip, HS_SITE_LIMIT_ABORT);
            assert_non_null(strstr(why, "non-finite"));
        } else {
            assert_true(v.trip != 0 && v.trip != HS_SITE_LIMIT_ABORT);
            assert_int_equal(v.stops, 1);
            assert_non_null(strstr(why, "safety limit"));
        }
    }
}

static int setup(void **state)
{
    (void)state;
    cli = getenv("HS_CLI");
    snprintf(dir, sizeof dir, "/tmp/hs_hostile_XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

/* After each test, passed or failed: nothing left running. */
static int stop_live(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++)
        if (live[k]) stop(live[k]);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"plant.yaml", "plant.out", "plant.err", "site.yaml",
                           "site.out",   "site.err",  "ticks.csv", "ticks.csv.1"};
    char path[160];
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        unlink(path);
    }
    rmdir(dir);
    return 0;
}

#define BACKEND_TEST(name, b)                                                                      \
    static void name(void **state)                                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        if (!cli) {                                                                                \
            print_message("HS_CLI is not set (run through ctest): skipped\n");                     \
            skip();                                                                                \
        }                                                                                          \
        run_backend(b);                                                                            \
    }
BACKEND_TEST(test_hostile_virtual, B_VIRTUAL)
BACKEND_TEST(test_hostile_udp, B_UDP)
BACKEND_TEST(test_hostile_shm, B_SHM)
BACKEND_TEST(test_hostile_driver, B_DRIVER)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_hostile_virtual, stop_live),
        cmocka_unit_test_teardown(test_hostile_udp, stop_live),
        cmocka_unit_test_teardown(test_hostile_shm, stop_live),
        cmocka_unit_test_teardown(test_hostile_driver, stop_live),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
