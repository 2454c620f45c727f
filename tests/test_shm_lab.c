/* The shm laboratory (include/hysim/shm_lab.h): the sequence lock under a writer thread hammering
 * the block (x and -x written in pairs over every channel; no value the reader uses ever
 * disagrees); the site's back end against a responder thread (every reply taken is the answer to
 * the command just written, bit for bit); the watchdog on a silent laboratory (raised after
 * exactly max_missing ticks, also through the site controller, which holds); refused blocks of
 * another layout or nact; the block unlinked by its creator only. */
#include "hs_test.h"

#include "hysim/shm_lab.h"
#include "hysim/site_controller.h"
#include "hysim/site_server.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void block_name(char *buf, size_t cap, const char *what)
{
    snprintf(buf, cap, "/hysim-test-%ld-%s", (long)getpid(), what);
}

static int exists(const char *name)
{
    const int fd = shm_open(name, O_RDONLY, 0);
    if (fd >= 0) close(fd);
    return fd >= 0;
}

/* ---------------------------------------------------------------- torn reads */

typedef struct hammer {
    hs_shm_block *b;
    atomic_int stop;
    long writes;
} hammer;

static void *hammer_main(void *arg)
{
    hammer *h = arg;
    for (double v = 1.0; !atomic_load(&h->stop); v += 1.0) {
        hs_shm_write_begin(&h->b->reply.seq);
        for (int j = 0; j < HS_SHM_MAX_ACT; j++) {
            h->b->reply.x[j] = v;
            h->b->reply.f[j] = -v;
        }
        h->b->reply.tick = (int64_t)v;
        hs_shm_write_end(&h->b->reply.seq);
        h->writes++;
        sched_yield(); /* a real writer writes once a tick; this one as often as it is scheduled */
    }
    return NULL;
}

static void test_no_torn_read_used(void **state)
{
    (void)state;
    char name[64];
    block_name(name, sizeof name, "torn");
    hs_shm_block *b = NULL;
    int created = 0;
    assert_int_equal(hs_shm_map(NULL, name, HS_SHM_MAX_ACT, &b, &created), 0);
    assert_true(created);
    hammer h = {.b = b};
    atomic_init(&h.stop, 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, hammer_main, &h), 0);
    long used = 0, skipped = 0, naive_torn = 0, bad = 0;
    double last = 0.0;
    for (int i = 0; i < 200000; i++) {
        hs_shm_reply r;
        if (!hs_shm_read(&b->reply.seq, &r, &b->reply, sizeof r)) {
            skipped++;
            continue;
        }
        used++;
        const double v = r.x[0];
        if (v < last || r.tick != (int64_t)v) bad++;
        for (int j = 0; j < HS_SHM_MAX_ACT; j++)
            if (r.x[j] != v || r.f[j] != -v) bad++;
        last = v;
        /* the same copy without the lock, for the record: how often the lock mattered */
        hs_shm_reply n;
        memcpy(&n, (const void *)&b->reply, sizeof n);
        if (n.x[0] != -n.f[HS_SHM_MAX_ACT - 1]) naive_torn++;
    }
    atomic_store(&h.stop, 1);
    pthread_join(th, NULL);
    printf("seqlock: %ld reads used, %ld skipped, %ld writes; unlocked copies torn: %ld\n", used,
           skipped, h.writes, naive_torn);
    assert_int_equal(bad, 0);
    assert_true(used > 100); /* the reader did read, not skip everything */
    assert_true(last > 1.0); /* and saw the writer move */
    hs_shm_unmap(b, name, created);
    assert_false(exists(name));
}

/* ---------------------------------------------------------------- the back end */

typedef struct responder {
    hs_shm_block *b;
    atomic_int stop;
    uint32_t status_from; /* command counter from which the interlock bit is raised (0: never) */
    uint64_t answered;    /* the last command answered */
} responder;

/* A laboratory process: answers every new command with x = 2 cmd, f = -3 cmd. */
static void *responder_main(void *arg)
{
    responder *p = arg;
    uint64_t answered = p->answered;
    int64_t tick = 0;
    while (!atomic_load(&p->stop)) {
        hs_shm_command c;
        if (!hs_shm_read(&p->b->command.seq, &c, &p->b->command, sizeof c) ||
            c.counter == answered) {
            const struct timespec nap = {0, 20000};
            nanosleep(&nap, NULL);
            continue;
        }
        answered = c.counter;
        hs_shm_reply *r = &p->b->reply;
        hs_shm_write_begin(&r->seq);
        r->counter++;
        r->echo = c.counter;
        r->tick = ++tick;
        r->status = p->status_from && c.counter >= p->status_from ? HS_LAB_ST_INTERLOCK : 0;
        for (uint32_t j = 0; j < p->b->nact; j++) {
            r->x[j] = 2.0 * c.cmd[j];
            r->f[j] = -3.0 * c.cmd[j];
        }
        hs_shm_write_end(&r->seq);
    }
    return NULL;
}

static void test_round_trip(void **state)
{
    (void)state;
    hs_lab_shm_config c = {.reply_timeout = 0.5, .max_missing = 3};
    block_name(c.name, sizeof c.name, "trip");
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_shm_create(NULL, &c, 2, 1000.0, &lab), 0);
    assert_string_equal(hs_lab_kind(lab), "shm");
    /* the laboratory's process opens the same block (it did not create it) */
    responder p = {.status_from = 40};
    atomic_init(&p.stop, 0);
    int created = 1;
    assert_int_equal(hs_shm_map(NULL, c.name, 2, &p.b, &created), 0);
    assert_false(created);
    assert_int_equal((int)p.b->command.session, 1);
    p.answered = p.b->command.counter;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, responder_main, &p), 0);
    double x[2], f[2];
    hs_lab_input in = {.x = x, .f = f};
    int bad = 0;
    for (int t = 1; t <= 50; t++) {
        const double cmd[2] = {0.001 * t, -0.5 / t};
        assert_int_equal(hs_lab_exchange(lab, cmd, &in), 0);
        for (int j = 0; j < 2; j++)
            if (x[j] != 2.0 * cmd[j] || f[j] != -3.0 * cmd[j]) bad++;
        if (in.ctrl_tick != t) bad++;
        if ((in.status != 0) != (t >= 40)) bad++;
    }
    atomic_store(&p.stop, 1);
    pthread_join(th, NULL);
    assert_int_equal(bad, 0);
    assert_int_equal(in.status, HS_LAB_ST_INTERLOCK);
    assert_non_null(strstr(hs_lab_alarm(lab), "status 0x1 at tick 40"));
    const hs_lab_shm_counts k = hs_lab_shm_counts_get(lab);
    assert_int_equal(k.sent, 50);
    assert_int_equal(k.received, 50);
    assert_int_equal(k.missing, 0);
    hs_shm_unmap(p.b, c.name, 0);
    assert_true(exists(c.name)); /* the opener does not unlink */
    hs_lab_destroy(&lab);
    assert_false(exists(c.name)); /* the creator does */
}

static void test_watchdog_silent(void **state)
{
    (void)state;
    hs_lab_shm_config c = {.reply_timeout = 0.001, .max_missing = 3};
    block_name(c.name, sizeof c.name, "dog");
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_shm_create(NULL, &c, 1, 1000.0, &lab), 0);
    double x = 7.0, f = 7.0;
    hs_lab_input in = {.x = &x, .f = &f};
    for (int t = 1; t <= 5; t++) {
        const double cmd = 0.25 * t;
        assert_int_equal(hs_lab_exchange(lab, &cmd, &in), 0);
        assert_int_equal(in.missing, t);
        assert_int_equal(in.status, t >= 3 ? HS_LAB_ST_WATCHDOG : 0);
        assert_true(x == 0.0 && f == 0.0); /* nothing measured yet: zeros, never a stale value */
    }
    assert_non_null(strstr(hs_lab_alarm(lab), "3 replies missing in a row (max_missing 3)"));
    const hs_lab_shm_counts k = hs_lab_shm_counts_get(lab);
    assert_int_equal(k.missing, 5);
    assert_int_equal(k.missing_run_max, 5);
    hs_lab_destroy(&lab);
    assert_false(exists(c.name));
}

/* The site controller over a silent shm lab holds at tick max_missing, its command held. */
static void test_controller_holds(void **state)
{
    (void)state;
    hs_lab_shm_config c = {.reply_timeout = 0.0005, .max_missing = 4};
    block_name(c.name, sizeof c.name, "sc");
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_shm_create(NULL, &c, 1, 1000.0, &lab), 0);
    hs_shm_block *b = NULL;
    int created = 0;
    assert_int_equal(hs_shm_map(NULL, c.name, 1, &b, &created), 0);
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = 1;
    p.gen.rate = 1000.0;
    p.gen.dt = 0.01;
    hs_site_controller *sc = NULL;
    assert_int_equal(hs_site_controller_create_lab(NULL, &p, lab, &sc), 0);
    const double tgt[1] = {0.3};
    assert_int_equal(hs_site_controller_target(sc, 1, 0.01, tgt), 0);
    int trip = 0;
    double held = 0.0;
    for (int t = 1; t <= 8; t++) {
        const int ev = hs_site_controller_tick(sc);
        assert_true(ev >= 0);
        hs_shm_command cmd;
        assert_true(hs_shm_read(&b->command.seq, &cmd, &b->command, sizeof cmd) > 0);
        if (trip) assert_true(cmd.cmd[0] == held);
        if ((ev & HS_SC_EV_LIMIT) && !trip) {
            trip = t;
            held = cmd.cmd[0];
        }
    }
    assert_int_equal(trip, 4);
    int ch = 0;
    assert_int_equal(hs_site_controller_tripped(sc, &ch), HS_SITE_LIMIT_LAB);
    hs_site_controller_destroy(&sc);
    hs_shm_unmap(b, c.name, 0);
    hs_lab_destroy(&lab);
    assert_false(exists(c.name));
}

static void test_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_lab_shm_config c = {.max_missing = 3};
    block_name(c.name, sizeof c.name, "ref");
    hs_lab *lab = NULL, *other = NULL;
    assert_int_equal(hs_lab_shm_create(ctx, &c, 2, 1000.0, &lab), 0);
    /* another site file's actuators */
    assert_int_equal(hs_lab_shm_create(ctx, &c, 3, 1000.0, &other), HS_EPROTO);
    assert_non_null(strstr(hs_ctx_message(ctx), "nact 2, expected"));
    /* a block of another layout version */
    hs_shm_block *b = NULL;
    int created = 0;
    assert_int_equal(hs_shm_map(ctx, c.name, 2, &b, &created), 0);
    b->version = 99;
    assert_int_equal(hs_lab_shm_create(ctx, &c, 2, 1000.0, &other), HS_EPROTO);
    assert_non_null(strstr(hs_ctx_message(ctx), "version 99"));
    hs_shm_unmap(b, c.name, 0);
    hs_lab_destroy(&lab);
    assert_false(exists(c.name));
    snprintf(c.name, sizeof c.name, "no-slash");
    assert_int_equal(hs_lab_shm_create(ctx, &c, 2, 1000.0, &other), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "must be '/'"));
    assert_null(other);
    hs_ctx_destroy(&ctx);
}

static const char *const site_head =
    "site:\n  name: s\n  plain: true\n  actuators: {a1: {}, a2: {}}\n"
    "  specimen: {type: linear, K: [[1, 0], [0, 1]]}\n  lab:\n";

static void expect_error(const char *lab, const char *want)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s", site_head, lab);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_site_file *f = NULL;
    assert_int_equal(hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f), HS_EINPUT);
    if (!strstr(hs_ctx_message(ctx), want)) fail_msg("got '%s'", hs_ctx_message(ctx));
    hs_ctx_destroy(&ctx);
}

static void test_site_file(void **state)
{
    (void)state;
    char text[2048];
    snprintf(
        text, sizeof text, "%s%s", site_head,
        "    kind: shm\n    name: /hysim-east\n    reply_timeout: 0.002\n    max_missing: 7\n");
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_site_file *f = NULL;
    if (hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f))
        fail_msg("%s", hs_ctx_message(ctx));
    const hs_site_config *c = &hs_site_file_config(f)->site;
    assert_string_equal(c->lab.kind, "shm");
    assert_string_equal(c->lab.shm.name, "/hysim-east");
    assert_true(c->lab.shm.reply_timeout == 0.002);
    assert_int_equal(c->lab.shm.max_missing, 7);
    hs_site_file_destroy(&f);
    snprintf(text, sizeof text, "%s%s", site_head, "    kind: shm\n    name: /hysim-east\n");
    assert_int_equal(hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f), 0);
    assert_int_equal(hs_site_file_config(f)->site.lab.shm.max_missing, 5);
    assert_true(hs_site_file_config(f)->site.lab.shm.reply_timeout == 0.0);
    hs_site_file_destroy(&f);
    hs_ctx_destroy(&ctx);
    expect_error("    kind: shm\n", "s.yaml:7:5: missing required key 'name' in site.lab");
    expect_error("    kind: shm\n    name: hysim-east\n",
                 "s.yaml:8:11: site.lab.name: expected a POSIX shared-memory name");
    expect_error("    kind: shm\n    name: /a/b\n", "s.yaml:8:11: site.lab.name");
    expect_error("    kind: shm\n    name: /e\n    remote: \"1.2.3.4:5\"\n", "s.yaml:9:5:");
    expect_error("    kind: shm\n    name: /e\n    max_missing: 0\n",
                 "s.yaml:9:18: site.lab.max_missing");
    expect_error("    kind: shm\n    name: /e\n    reply_timeout: 2\n",
                 "s.yaml:9:20: site.lab.reply_timeout: 2 s is out of range");
    expect_error(
        "    kind: shmm\n",
        "s.yaml:7:11: site.lab.kind: expected 'virtual', 'udp', 'shm' or 'driver', got 'shmm'");
}

/* Whatever a failed test left: every block name of this process is unlinked. */
static int unlink_all(void **state)
{
    (void)state;
    static const char *const what[] = {"torn", "trip", "dog", "sc", "ref"};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++) {
        char name[64];
        block_name(name, sizeof name, what[i]);
        shm_unlink(name);
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_torn_read_used), cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_watchdog_silent),   cmocka_unit_test(test_controller_holds),
        cmocka_unit_test(test_refusals),          cmocka_unit_test(test_site_file),
    };
    return cmocka_run_group_tests(tests, NULL, unlink_all);
}
