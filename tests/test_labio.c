/* The laboratory exchange (include/hysim/labio.h): the udp packet layout's bytes against hand
 * encodings (IEEE 754, two's complement, both byte orders, calibration), malformed packets; the
 * udp back end against a scripted peer on loopback (its commands' bytes; duplicated, late,
 * out-of-order, malformed and foreign replies counted and discarded, the last measurement kept,
 * the watchdog raised after exactly max_missing silent ticks); through the site controller, the
 * watchdog holds the site (HS_SITE_LIMIT_LAB, the command held bit for bit, the alarm naming the
 * udp channel and the count); an interlock bit holds it too; the site file's `lab` errors. */
#include "hs_test.h"

#include "hysim/labio.h"
#include "hysim/plant.h"
#include "hysim/site_controller.h"
#include "hysim/site_server.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static hs_udp_field fld(int role, int type, int big, int channel)
{
    hs_udp_field f;
    memset(&f, 0, sizeof f);
    f.role = role;
    f.type = type;
    f.big = big;
    f.channel = channel;
    f.bytes = type == HS_UDP_FLOAT64 ? 8 : 4;
    f.gain = 1.0;
    return f;
}

static void add(hs_udp_layout *l, hs_udp_field f)
{
    l->f[l->n++] = f;
    l->size += (size_t)f.bytes;
}

static void test_layout_bytes(void **state)
{
    (void)state;
    hs_udp_layout l;
    memset(&l, 0, sizeof l);
    add(&l, fld(HS_UDP_COUNTER, HS_UDP_UINT32, 0, -1));
    add(&l, fld(HS_UDP_COMMAND, HS_UDP_FLOAT64, 0, 0));
    hs_udp_field g = fld(HS_UDP_COMMAND, HS_UDP_FLOAT32, 1, 1);
    g.gain = 2.0; /* test units = 2 raw + 1 */
    g.offset = 1.0;
    add(&l, g);
    hs_udp_field pad = fld(HS_UDP_PAD, HS_UDP_UINT32, 0, -1);
    pad.bytes = 3;
    add(&l, pad);
    hs_udp_field k = fld(HS_UDP_COMMAND, HS_UDP_INT32, 0, 2);
    k.gain = 0.001; /* counts of 1e-3 */
    add(&l, k);
    assert_int_equal((int)l.size, 4 + 8 + 4 + 3 + 4);
    hs_udp_values v;
    memset(&v, 0, sizeof v);
    v.counter = 258;
    v.cmd[0] = 1.5;    /* 0x3FF8000000000000 */
    v.cmd[1] = 5.0;    /* raw 2.0f = 0x40000000, big endian */
    v.cmd[2] = -0.003; /* raw -3 = 0xFFFFFFFD */
    uint8_t b[64];
    memset(b, 0xAA, sizeof b);
    hs_udp_pack(&l, &v, b);
    const uint8_t want[] = {0x02, 0x01, 0x00, 0x00, 0, 0, 0, 0,    0,    0,    0xF8, 0x3F,
                            0x40, 0x00, 0x00, 0x00, 0, 0, 0, 0xFD, 0xFF, 0xFF, 0xFF};
    assert_memory_equal(b, want, sizeof want);
    hs_udp_values r;
    memset(&r, 0, sizeof r);
    assert_int_equal(hs_udp_unpack(&l, b, l.size, &r), 0);
    assert_int_equal(r.counter, 258);
    assert_true(r.cmd[0] == 1.5 && r.cmd[1] == 5.0);
    HS_ASSERT_NEAR(r.cmd[2], -0.003, 1e-18);
    /* malformed: a byte short, or a NaN */
    assert_int_equal(hs_udp_unpack(&l, b, l.size - 1, &r), HS_EPROTO);
    b[10] = 0xF8;
    b[11] = 0x7F; /* 0x7FF8...: NaN */
    assert_int_equal(hs_udp_unpack(&l, b, l.size, &r), HS_EPROTO);
    /* a measured force that is not a number is taken, for the site controller to name it as
     * laboratory data (a discard used to end as a watchdog, "the target stopped") */
    hs_udp_layout m;
    memset(&m, 0, sizeof m);
    add(&m, fld(HS_UDP_COUNTER, HS_UDP_UINT32, 0, 0));
    add(&m, fld(HS_UDP_FORCE, HS_UDP_FLOAT64, 0, 0));
    const uint8_t nan_force[12] = {7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xF8, 0x7F};
    memset(&r, 0, sizeof r);
    assert_int_equal(hs_udp_unpack(&m, nan_force, m.size, &r), 0);
    assert_int_equal(r.counter, 7);
    assert_true(isnan(r.f[0]));
}

/* float32 on the wire: each value rounded to 24 bits, |error| <= 2^-24 |x| (the reason a float32
 * layout cannot reproduce the in-process numbers bit for bit); float64 exact. */
static void test_float32_bound(void **state)
{
    (void)state;
    hs_udp_layout l4, l8;
    memset(&l4, 0, sizeof l4);
    memset(&l8, 0, sizeof l8);
    add(&l4, fld(HS_UDP_COMMAND, HS_UDP_FLOAT32, 0, 0));
    add(&l8, fld(HS_UDP_COMMAND, HS_UDP_FLOAT64, 1, 0));
    double worst = 0.0;
    int inexact = 0;
    for (int i = 1; i <= 1000; i++) {
        hs_udp_values v, r;
        memset(&v, 0, sizeof v);
        v.cmd[0] = sin(0.37 * i) * pow(10.0, (i % 7) - 3);
        uint8_t b[8];
        hs_udp_pack(&l4, &v, b);
        memset(&r, 0, sizeof r);
        assert_int_equal(hs_udp_unpack(&l4, b, 4, &r), 0);
        const double rel = fabs(r.cmd[0] - v.cmd[0]) / fabs(v.cmd[0]);
        if (rel > worst) worst = rel;
        inexact += r.cmd[0] != v.cmd[0];
        hs_udp_pack(&l8, &v, b);
        assert_int_equal(hs_udp_unpack(&l8, b, 8, &r), 0);
        assert_true(r.cmd[0] == v.cmd[0]);
    }
    assert_true(worst <= ldexp(1.0, -24));
    assert_true(inexact > 900);
}

/* A peer socket on loopback, its port, and a free port for the lab (bound, read, closed). */
static int peer_open(int *port)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
    *port = ntohs(a.sin_port);
    return fd;
}

typedef struct rig {
    hs_lab_udp_config c;
    int peer, foreign, peer_port, lab_port;
    struct sockaddr_in lab_addr;
} rig;

static void rig_open(rig *r, int max_missing)
{
    memset(r, 0, sizeof *r);
    r->peer = peer_open(&r->peer_port);
    int tmp = peer_open(&r->lab_port);
    close(tmp);
    int fp = 0;
    r->foreign = peer_open(&fp);
    snprintf(r->c.remote, sizeof r->c.remote, "127.0.0.1:%d", r->peer_port);
    snprintf(r->c.local, sizeof r->c.local, "127.0.0.1:%d", r->lab_port);
    r->c.reply_timeout = 0.005;
    r->c.max_missing = max_missing;
    add(&r->c.command, fld(HS_UDP_COUNTER, HS_UDP_UINT32, 0, -1));
    add(&r->c.command, fld(HS_UDP_COMMAND, HS_UDP_FLOAT64, 0, 0));
    add(&r->c.reply, fld(HS_UDP_COUNTER, HS_UDP_UINT32, 0, -1));
    add(&r->c.reply, fld(HS_UDP_ECHO, HS_UDP_UINT32, 0, -1));
    add(&r->c.reply, fld(HS_UDP_STATUS, HS_UDP_UINT32, 0, -1));
    add(&r->c.reply, fld(HS_UDP_DISPLACEMENT, HS_UDP_FLOAT64, 0, 0));
    add(&r->c.reply, fld(HS_UDP_FORCE, HS_UDP_FLOAT64, 0, 0));
    assert_int_equal(hs_udp_address(r->c.local, &r->lab_addr), 0);
}

static void rig_close(rig *r)
{
    close(r->peer);
    close(r->foreign);
}

/* A reply from fd: counter, echo, status, x, f = 2 x. */
static void reply(rig *r, int fd, uint32_t counter, uint32_t echo, uint32_t status, double x)
{
    hs_udp_values v;
    memset(&v, 0, sizeof v);
    v.counter = counter;
    v.echo = echo;
    v.status = status;
    v.x[0] = x;
    v.f[0] = 2.0 * x;
    uint8_t b[HS_UDP_MAX_BYTES];
    hs_udp_pack(&r->c.reply, &v, b);
    assert_int_equal(
        sendto(fd, b, r->c.reply.size, 0, (struct sockaddr *)&r->lab_addr, sizeof r->lab_addr),
        (ssize_t)r->c.reply.size);
}

/* The command the peer received: its counter and value. */
static void command(rig *r, uint32_t counter, double x)
{
    uint8_t b[64];
    const ssize_t n = recv(r->peer, b, sizeof b, MSG_DONTWAIT);
    assert_int_equal(n, 12);
    hs_udp_values v;
    memset(&v, 0, sizeof v);
    assert_int_equal(hs_udp_unpack(&r->c.command, b, 12, &v), 0);
    assert_int_equal(v.counter, counter);
    assert_true(v.cmd[0] == x);
}

/* udp position without a fixed local: the target cannot send its periodic reply where the site
 * listens, so the rig's position is unknown: refused with both remedies, x untouched; with
 * rests_at_zero (the operator's statement) the position is 0. */
static void test_udp_position_without_fixed_local(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, 3);
    snprintf(r.c.local, sizeof r.c.local, "127.0.0.1:0");
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_udp_create(ctx, &r.c, 1, 1000.0, &lab), 0);
    double x = 7.0;
    assert_int_equal(hs_lab_position(ctx, lab, &x), HS_EUNSUPPORTED);
    assert_true(x == 7.0);
    assert_non_null(strstr(hs_ctx_message(ctx), "give site.lab.local a port"));
    assert_non_null(strstr(hs_ctx_message(ctx), "site.lab.rests_at_zero: true"));
    hs_lab_destroy(&lab);
    r.c.rests_at_zero = 1;
    assert_int_equal(hs_lab_udp_create(ctx, &r.c, 1, 1000.0, &lab), 0);
    assert_int_equal(hs_lab_position(ctx, lab, &x), 0);
    assert_true(x == 0.0);
    hs_lab_destroy(&lab);
    hs_ctx_destroy(&ctx);
    rig_close(&r);
}

static void test_udp_counts(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, 3);
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_udp_create(NULL, &r.c, 1, 1000.0, &lab), 0);
    double x = 0, f = 0, cmd = 0.25;
    hs_lab_input in = {.x = &x, .f = &f};
    /* tick 1: the answer to command 1, queued beforehand */
    reply(&r, r.peer, 1, 1, 0, 0.5);
    assert_int_equal(hs_lab_exchange(lab, &cmd, &in), 0);
    command(&r, 1, 0.25);
    assert_true(x == 0.5 && f == 1.0 && in.status == 0);
    /* tick 2: a duplicate, a foreign datagram, a short one, a late one (echo 1): all discarded,
     * the measurement kept */
    reply(&r, r.peer, 1, 1, 0, 9.0);
    reply(&r, r.foreign, 2, 2, 0, 9.0);
    uint8_t junk[5] = {0};
    sendto(r.peer, junk, sizeof junk, 0, (struct sockaddr *)&r.lab_addr, sizeof r.lab_addr);
    reply(&r, r.peer, 2, 1, 0, 9.0);
    cmd = 0.5;
    assert_int_equal(hs_lab_exchange(lab, &cmd, &in), 0);
    command(&r, 2, 0.5);
    assert_true(x == 0.5 && f == 1.0);
    assert_int_equal(in.missing, 1);
    hs_lab_udp_counts k = hs_lab_udp_counts_get(lab);
    assert_int_equal(k.duplicated, 1);
    assert_int_equal(k.foreign, 1);
    assert_int_equal(k.malformed, 1);
    assert_int_equal(k.late, 1);
    assert_int_equal(k.missing, 1);
    /* tick 3: an out-of-order reply (counter 0, older than the last accepted 1), then the right one
     */
    reply(&r, r.peer, 0, 3, 0, 8.0);
    reply(&r, r.peer, 3, 3, 0, 0.75);
    assert_int_equal(hs_lab_exchange(lab, &cmd, &in), 0);
    assert_true(x == 0.75 && in.missing == 0);
    k = hs_lab_udp_counts_get(lab);
    assert_int_equal(k.out_of_order, 1);
    assert_int_equal(k.received, 2);
    /* ticks 4, 5, 6 silent: the watchdog at the third (max_missing 3), not before */
    for (int t = 4; t <= 6; t++) {
        assert_int_equal(hs_lab_exchange(lab, &cmd, &in), 0);
        assert_int_equal(in.missing, t - 3);
        assert_int_equal((in.status & HS_LAB_ST_WATCHDOG) != 0, t == 6);
    }
    assert_non_null(strstr(hs_lab_alarm(lab), "3 replies missing in a row"));
    assert_int_equal(hs_lab_udp_counts_get(lab).sent, 6);
    hs_lab_destroy(&lab);
    rig_close(&r);
}

/* The site controller over a udp lab whose peer answers the first 5 commands, then falls
 * silent (watchdog), or raises its interlock bit. */
static void run_controller(int interlock)
{
    rig r;
    rig_open(&r, 4);
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_udp_create(NULL, &r.c, 1, 1000.0, &lab), 0);
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = 1;
    p.gen.rate = 1000.0;
    p.gen.dt = 0.01;
    hs_site_controller *sc = NULL;
    assert_int_equal(hs_site_controller_create_lab(NULL, &p, lab, &sc), 0);
    const double tgt[1] = {0.3};
    assert_int_equal(hs_site_controller_target(sc, 1, 0.01, tgt), 0);
    int trip_tick = 0;
    double held = 0.0;
    for (int t = 1; t <= 12; t++) {
        if (t <= 5) reply(&r, r.peer, (uint32_t)t, (uint32_t)t, 0, 0.01 * t);
        if (interlock && t == 6) reply(&r, r.peer, 6, 6, HS_LAB_ST_INTERLOCK, 0.06);
        const int ev = hs_site_controller_tick(sc);
        assert_true(ev >= 0);
        uint8_t b[64];
        assert_int_equal(recv(r.peer, b, sizeof b, MSG_DONTWAIT), 12);
        hs_udp_values v;
        memset(&v, 0, sizeof v);
        hs_udp_unpack(&r.c.command, b, 12, &v);
        if (trip_tick) assert_true(v.cmd[0] == held); /* held bit for bit */
        if ((ev & HS_SC_EV_LIMIT) && !trip_tick) {
            trip_tick = t;
            held = v.cmd[0];
        }
    }
    assert_int_equal(trip_tick, interlock ? 6 : 9); /* 5 answered, then 4 silent ticks */
    int ch = 0;
    assert_int_equal(hs_site_controller_tripped(sc, &ch), HS_SITE_LIMIT_LAB);
    hs_site_measurement m;
    double mx, mf, ht[HS_EXP_HISTORY], hx[HS_EXP_HISTORY], hf[HS_EXP_HISTORY];
    m.x = &mx, m.f = &mf, m.hist_t = ht, m.hist_x = hx, m.hist_f = hf;
    hs_site_report rep;
    assert_int_equal(hs_site_controller_measurement(sc, &m, &rep), 0);
    assert_true(m.flags & HS_SITE_LIMIT_LAB);
    char text[300];
    hs_site_limit_message(text, sizeof text, "lab1", "?", &rep, "mm", "kN", "s");
    assert_non_null(strstr(text, interlock ? "raised its interlock bit"
                                           : "watchdog: 4 replies missing in a row on the udp "
                                             "link (limit 4)"));
    assert_int_equal(hs_site_controller_target(sc, 2, 0.02, tgt), HS_ELIMIT);
    hs_site_controller_destroy(&sc);
    hs_lab_destroy(&lab);
    rig_close(&r);
}

static void test_controller_watchdog(void **state)
{
    (void)state;
    run_controller(0);
}
static void test_controller_interlock(void **state)
{
    (void)state;
    run_controller(1);
}

/* The site's stroke limit acts on every command before it leaves over udp: a coordinator asking
 * for 0.3 with a limit of 0.1 never gets a datagram beyond 0.1 on the wire. */
static void test_limit_before_wire(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, 1000000);
    r.c.reply_timeout = 0.0002;
    hs_lab *lab = NULL;
    assert_int_equal(hs_lab_udp_create(NULL, &r.c, 1, 1000.0, &lab), 0);
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = 1;
    p.gen.rate = 1000.0;
    p.gen.dt = 0.01;
    const hs_site_limits lim = {.disp = 0.1};
    p.limits = &lim;
    hs_site_controller *sc = NULL;
    assert_int_equal(hs_site_controller_create_lab(NULL, &p, lab, &sc), 0);
    const double tgt[1] = {0.3};
    assert_int_equal(hs_site_controller_target(sc, 1, 0.01, tgt), 0);
    double peak = 0.0;
    int tripped = 0;
    for (int t = 1; t <= 30; t++) {
        const int ev = hs_site_controller_tick(sc);
        assert_true(ev >= 0);
        if (ev & HS_SC_EV_LIMIT) tripped = t;
        uint8_t b[64];
        assert_int_equal(recv(r.peer, b, sizeof b, MSG_DONTWAIT), 12);
        hs_udp_values v;
        memset(&v, 0, sizeof v);
        assert_int_equal(hs_udp_unpack(&r.c.command, b, 12, &v), 0);
        if (fabs(v.cmd[0]) > peak) peak = fabs(v.cmd[0]);
    }
    assert_true(tripped > 0);
    assert_int_equal(hs_site_controller_tripped(sc, NULL), HS_SITE_LIMIT_DISPLACEMENT);
    assert_true(peak <= 0.1 && peak > 0.05);
    hs_site_controller_destroy(&sc);
    hs_lab_destroy(&lab);
    rig_close(&r);
}

/* hs_plant_run in a thread of this process: a perfect plant with an elastic-perfectly-plastic
 * spring behind udp, and the same spring in the virtual lab, driven by two site controllers with
 * the same targets: every measurement equal bit for bit (float64 fields carry doubles exactly; the
 * plant steps the same models on the same commands; a tick without a command only repeats the
 * last position, which a perfect actuator and a rate-independent spring do not notice). */
typedef struct plant_thread {
    hs_plant_config *c;
    volatile sig_atomic_t stop;
    int port, rc;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    hs_plant_counts counts;
} plant_thread;

static void plant_ready(void *user, int port)
{
    plant_thread *t = user;
    pthread_mutex_lock(&t->lock);
    t->port = port;
    pthread_cond_signal(&t->ready);
    pthread_mutex_unlock(&t->lock);
}

static void *plant_main(void *arg)
{
    plant_thread *t = arg;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    t->rc = hs_plant_run(ctx, t->c, &t->stop, plant_ready, t, &t->counts);
    if (t->rc) plant_ready(t, -1);
    hs_ctx_destroy(&ctx);
    return NULL;
}

static const char *const plant_text =
    "materials:\n  spring: {type: bilinear, k: 2.0, fy: 0.2, b: 0.05}\n"
    "plant:\n  listen: \"127.0.0.1:0\"\n  rate: 1000\n  perfect: true\n"
    "  actuators: {a1: {}}\n"
    "  specimen: {type: material, material: spring}\n"
    "  command_packet: [{counter: uint32}, {time: float64}, {command: float64}]\n"
    "  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},\n"
    "                 {displacement: float64}, {force: float64}]\n";

static void test_plant_bit_for_bit(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_plant_file *pf = NULL;
    if (hs_plant_file_load_string(ctx, plant_text, strlen(plant_text), "p.yaml", &pf))
        fail_msg("%s", hs_ctx_message(ctx));
    plant_thread t = {.c = hs_plant_file_config(pf), .port = 0};
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.ready, NULL);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, plant_main, &t), 0);
    pthread_mutex_lock(&t.lock);
    while (t.port == 0) pthread_cond_wait(&t.ready, &t.lock);
    pthread_mutex_unlock(&t.lock);
    assert_true(t.port > 0);
    /* the site: its lab over udp (the plant's packets), and the same lab in process */
    hs_lab_udp_config uc = t.c->lab.lab.udp;
    snprintf(uc.remote, sizeof uc.remote, "127.0.0.1:%d", t.port);
    snprintf(uc.local, sizeof uc.local, "127.0.0.1:0");
    uc.reply_timeout = 0.5; /* not a real-time loop here: wait for every reply */
    uc.max_missing = 1;
    hs_lab *udp = NULL;
    assert_int_equal(hs_lab_udp_create(ctx, &uc, 1, 1000.0, &udp), 0);
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "material", "bilinear");
    hs_options_set_num(o, "k", 2.0);
    hs_options_set_num(o, "fy", 0.2);
    hs_options_set_num(o, "b", 0.05);
    hs_specimen *spec = NULL;
    if (hs_specimen_create(ctx, "material", 1, o, &spec)) fail_msg("%s", hs_ctx_message(ctx));
    hs_options_destroy(&o);
    hs_actuator_params ap = hs_actuator_params_default();
    ap.rate = 1000.0;
    hs_vlab_params vp = {.n_act = 1, .perfect = 1, .seed = 1, .actuator = &ap, .actuator_count = 1};
    hs_vlab *vlab = NULL;
    assert_int_equal(hs_vlab_create(ctx, &vp, spec, &vlab), 0);
    hs_site_controller_params p = hs_site_controller_params_default();
    p.gen.nact = 1;
    p.gen.rate = 1000.0;
    p.gen.dt = 0.005;
    hs_site_controller *a = NULL, *b = NULL;
    assert_int_equal(hs_site_controller_create(ctx, &p, vlab, &a), 0);
    assert_int_equal(hs_site_controller_create_lab(ctx, &p, udp, &b), 0);
    double fpeak = 0.0;
    int steps = 0;
    for (int64_t k = 1; k <= 120; k++) {
        const double x[1] = {0.3 * sin(0.08 * (double)k) * (1.0 + 0.01 * (double)k)};
        assert_int_equal(hs_site_controller_target(a, k, 0.005 * (double)k, x), 0);
        assert_int_equal(hs_site_controller_target(b, k, 0.005 * (double)k, x), 0);
        for (int tick = 0; tick < 100; tick++) {
            const int ea = hs_site_controller_tick(a), eb = hs_site_controller_tick(b);
            assert_int_equal(ea, eb);
            if (!(ea & HS_SC_EV_MEASUREMENT)) continue;
            double xa, fa, xb, fb, ht[2][HS_EXP_HISTORY], hx[2][HS_EXP_HISTORY],
                hf[2][HS_EXP_HISTORY];
            hs_site_measurement
                ma = {.x = &xa, .f = &fa, .hist_t = ht[0], .hist_x = hx[0], .hist_f = hf[0]},
                mb = {.x = &xb, .f = &fb, .hist_t = ht[1], .hist_x = hx[1], .hist_f = hf[1]};
            assert_int_equal(hs_site_controller_measurement(a, &ma, NULL), 0);
            assert_int_equal(hs_site_controller_measurement(b, &mb, NULL), 0);
            assert_memory_equal(&xa, &xb, sizeof xa);
            assert_memory_equal(&fa, &fb, sizeof fa);
            assert_int_equal(ma.nhist, mb.nhist);
            assert_memory_equal(hf[0], hf[1], (size_t)ma.nhist * sizeof(double));
            if (fabs(fa) > fpeak) fpeak = fabs(fa);
            steps++;
            break;
        }
    }
    assert_int_equal(steps, 120);
    assert_true(fpeak > 0.2); /* the spring yielded: the path matters */
    assert_int_equal(hs_lab_udp_counts_get(udp).missing, 0);
    /* the plant's own tick count follows the site's: one tick per command, plus the ticks it ran
     * on the real clock when no command came for 1.5 periods (this loop is not real-time: a
     * loaded machine can pause it; seen in a clean-clone CI run), or one apart when the last
     * reply crossed the site's tick */
    const int64_t lag = hs_site_controller_lab_tick(b) - hs_site_controller_ticks(b);
    t.stop = 1;
    pthread_join(th, NULL);
    assert_int_equal(t.rc, 0);
    print_message("plant tick - site tick = %lld (the plant's idle ticks: %lld)\n", (long long)lag,
                  (long long)t.counts.idle_ticks);
    assert_true(lag >= -1 && lag <= t.counts.idle_ticks + 1);
    /* every command of this site answered once (a stray counter-1 datagram from another test on
     * this loopback, reusing the port, would count as a remount) */
    assert_int_equal(t.counts.commands - t.counts.remounts, hs_site_controller_ticks(b));
    hs_site_controller_destroy(&a);
    hs_site_controller_destroy(&b);
    hs_vlab_destroy(&vlab);
    hs_specimen_destroy(&spec);
    hs_lab_destroy(&udp);
    hs_plant_file_destroy(&pf);
    pthread_mutex_destroy(&t.lock);
    pthread_cond_destroy(&t.ready);
    hs_ctx_destroy(&ctx);
}

static void expect_error(const char *lab, const char *want)
{
    char text[2048];
    snprintf(text, sizeof text,
             "site:\n  name: s\n  plain: true\n  actuators: {a1: {}, a2: {}}\n"
             "  specimen: {type: linear, K: [[1, 0], [0, 1]]}\n  lab:\n%s",
             lab);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_site_file *f = NULL;
    assert_int_equal(hs_site_file_load_string(ctx, text, strlen(text), "s.yaml", &f), HS_EINPUT);
    if (!strstr(hs_ctx_message(ctx), want)) fail_msg("got '%s'", hs_ctx_message(ctx));
    hs_ctx_destroy(&ctx);
}

#define PKTS                                                                                       \
    "    command_packet: [{command: float64, channel: a1}, {command: float64, channel: a2}]\n"     \
    "    reply_packet: [{displacement: float64, channel: a1}, {force: float64, channel: a1},\n"    \
    "                   {displacement: float64, channel: a2}, {force: float64, channel: a2}]\n"

static void test_site_file(void **state)
{
    (void)state;
    /* a good one: sizes and calibration */
    const char *good = "site:\n  name: s\n  plain: true\n  actuators: {a1: {}, a2: {}}\n"
                       "  specimen: {type: linear, K: [[1, 0], [0, 1]]}\n  lab:\n"
                       "    kind: udp\n    remote: \"10.0.0.2:25000\"\n    endian: big\n"
                       "    command_packet: [{counter: uint32}, {command: float32, channel: a1, "
                       "gain: 0.5, offset: 1, units: V}, {command: float64, channel: a2}, "
                       "{pad: 4}]\n"
                       "    reply_packet: [{displacement: float64, channel: a1}, {force: int32, "
                       "channel: a1, endian: little}, {displacement: float64, channel: a2}, "
                       "{force: float64, channel: a2}, {status: uint32}, {time: float64}]\n";
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_site_file *f = NULL;
    const int rc = hs_site_file_load_string(ctx, good, strlen(good), "s.yaml", &f);
    if (rc) fail_msg("%s", hs_ctx_message(ctx));
    const hs_site_config *c = &hs_site_file_config(f)->site;
    assert_string_equal(c->lab.kind, "udp");
    assert_int_equal((int)c->lab.udp.command.size, 4 + 4 + 8 + 4);
    assert_int_equal((int)c->lab.udp.reply.size, 8 + 4 + 8 + 8 + 4 + 8);
    assert_true(c->lab.udp.command.f[1].gain == 0.5 && c->lab.udp.command.f[1].big == 1);
    assert_int_equal(c->lab.udp.reply.f[1].big, 0);
    assert_int_equal(c->lab.udp.max_missing, 5);
    hs_site_file_destroy(&f);
    hs_ctx_destroy(&ctx);
    expect_error("    kind: udp\n    remote: \"1.2.3.4:5\"\n" PKTS "    colour: red\n",
                 "s.yaml:12:5: unknown key 'colour' in site.lab");
    expect_error("    kind: udp\n" PKTS, "s.yaml:7:5: missing required key 'remote' in site.lab");
    expect_error("    kind: udp\n    remote: \"1.2.3.4:5\"\n"
                 "    command_packet: [{command: float64, channel: a1}]\n"
                 "    reply_packet: [{displacement: float64, channel: a1}]\n",
                 "s.yaml:9:21: site.lab.command_packet: missing field: the command of actuator a2");
    expect_error("    kind: udp\n    remote: \"1.2.3.4:5\"\n" PKTS "    max_missing: 0\n",
                 "s.yaml:12:18: site.lab.max_missing: must be between 1 and 1000000 (got 0)");
    expect_error("    kind: udp\n    remote: \"1.2.3.4:5\"\n"
                 "    command_packet: [{command: float64, channel: a1}, {command: float64, "
                 "channel: a1}]\n    reply_packet: []\n",
                 "s.yaml:9:55: site.lab.command_packet[2]: a second command of a1");
    expect_error("    kind: udp\n    remote: \"1.2.3.4:5\"\n"
                 "    command_packet: [{counter: float32}]\n    reply_packet: []\n",
                 "s.yaml:9:32: site.lab.command_packet[1].counter: a float32 counter");
    expect_error("    kind: udp\n    remote: \"1.2.3.4:5\"\n"
                 "    command_packet: [{command: float64, channel: a3}]\n    reply_packet: []\n",
                 "s.yaml:9:50: site.lab.command_packet[1].channel: no actuator 'a3'");
    expect_error("    kind: udp\n    remote: \"1.2.3.4:5\"\n"
                 "    command_packet: [{displacement: float64, channel: a1}]\n"
                 "    reply_packet: []\n",
                 "'displacement' belongs in the reply packet");
    expect_error("    kind: udp\n    remote: \"localhost:5\"\n" PKTS,
                 "s.yaml:8:13: site.lab.remote: expected \"HOST:PORT\"");
    expect_error("    kind: virtual\n    remote: \"1.2.3.4:5\"\n",
                 "s.yaml:8:13: site.lab.remote: only a udp laboratory has a remote");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_bytes),
        cmocka_unit_test(test_udp_counts),
        cmocka_unit_test(test_controller_watchdog),
        cmocka_unit_test(test_controller_interlock),
        cmocka_unit_test(test_udp_position_without_fixed_local),
        cmocka_unit_test(test_site_file),
        cmocka_unit_test(test_limit_before_wire),
        cmocka_unit_test(test_float32_bound),
        cmocka_unit_test(test_plant_bit_for_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
