/* The native wire protocol's frames: the header layout byte by byte (written out by hand from
 * docs/protocol.md and the IEEE-754 bit patterns), round trips of every message type with their
 * sizes from the layout tables, and every refusal with its fault. */
#include "hs_test.h"

#include "hysim/wire.h"

#include <float.h>
#include <math.h>
#include <string.h>

static uint8_t buf[8192];

/* TARGET, step 7, sequence 0x0102030405060708, t = 0.5, x = (1.0, -2.5). */
static const uint8_t target_frame[] = {
    0x48, 0x53, 0x49, 0x4D,                         /* "HSIM" */
    0x01,                                           /* version 1 */
    0x12,                                           /* type 18 TARGET */
    0x00, 0x00,                                     /* flags */
    0x19, 0x00, 0x00, 0x00,                         /* length 25 = 8 + 1 + 2 * 8 */
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* sequence */
    0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* step 7 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xE0, 0x3F, /* t = 0.5 = 0x3FE0000000000000 */
    0x02,                                           /* nact */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x3F, /* 1.0 = 0x3FF0000000000000 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xC0, /* -2.5 = 0xC004000000000000 */
};

static void test_header_layout_by_hand(void **state)
{
    (void)state;
    hs_wire_msg m = {.type = HS_WIRE_TARGET, .step = 7};
    m.target.t = 0.5;
    m.target.nact = 2;
    m.target.x[0] = 1.0;
    m.target.x[1] = -2.5;
    size_t len = 0;
    hs_wire_status st;
    assert_int_equal(hs_wire_encode(&m, UINT64_C(0x0102030405060708), buf, sizeof buf, &len, &st),
                     0);
    assert_int_equal(len, sizeof target_frame);
    assert_memory_equal(buf, target_frame, sizeof target_frame);
    hs_wire_msg d;
    size_t used = 0;
    assert_int_equal(hs_wire_decode(target_frame, sizeof target_frame, 0, &d, &used, &st), 0);
    assert_int_equal(used, sizeof target_frame);
    assert_int_equal(d.type, HS_WIRE_TARGET);
    assert_int_equal(d.step, 7);
    assert_true(d.seq == UINT64_C(0x0102030405060708));
    assert_int_equal(d.target.nact, 2);
    assert_true(d.target.t == 0.5 && d.target.x[0] == 1.0 && d.target.x[1] == -2.5);
    hs_wire_header h;
    assert_int_equal(hs_wire_header_decode(target_frame, HS_WIRE_HEADER_SIZE, 0, &h, &st), 0);
    assert_int_equal(h.length, 25);
    assert_int_equal(h.flags, 0);
}

/* Special doubles keep their bits: -0.0 is 00..00 80; the smallest subnormal 01 00..00. */
static void test_double_bits(void **state)
{
    (void)state;
    hs_wire_msg m = {.type = HS_WIRE_RESUME_ACK, .step = INT64_MAX};
    m.resume.nact = 4;
    m.resume.x[0] = -0.0;
    m.resume.x[1] = 4.9406564584124654e-324;
    m.resume.x[2] = DBL_MAX;
    m.resume.x[3] = -1.0 / 3.0;
    size_t len = 0;
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, NULL), 0);
    assert_int_equal(len, HS_WIRE_HEADER_SIZE + 1 + 4 * 8);
    const uint8_t step_max[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
    assert_memory_equal(buf + 20, step_max, 8);
    const uint8_t *x = buf + HS_WIRE_HEADER_SIZE + 1;
    const uint8_t neg0[8] = {0, 0, 0, 0, 0, 0, 0, 0x80}, sub[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    const uint8_t dmax[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0x7F};
    assert_memory_equal(x, neg0, 8);
    assert_memory_equal(x + 8, sub, 8);
    assert_memory_equal(x + 16, dmax, 8);
    hs_wire_msg d;
    assert_int_equal(hs_wire_decode(buf, len, 0, &d, NULL, NULL), 0);
    assert_true(d.step == INT64_MAX);
    assert_memory_equal(d.resume.x, m.resume.x, 4 * sizeof(double));
    assert_true(signbit(d.resume.x[0]));
}

static void fill_hello(hs_wire_hello *h, int nact)
{
    memset(h, 0, sizeof *h);
    h->version_min = 1;
    h->version_max = 1;
    h->caps = HS_WIRE_CAP_RESUME | HS_WIRE_CAP_HISTORY;
    h->nact = nact;
    h->rate = 1024.0;
    h->time_scale = 10.0;
    h->dt = 0.01;
    for (int j = 0; j < nact; j++)
        h->limits[j] = (hs_wire_act_limits){50.0 + j, 100.0 + j, 20.0 + j};
    strcpy(h->coordinator, "coord");
    strcpy(h->site, "east");
}

static void fill_meas(hs_wire_measurement *s, int nact, int nhist, int nstates)
{
    memset(s, 0, sizeof *s);
    s->t = 1.25;
    s->t_received = 10.5;
    s->t_reached = 10.75;
    s->nact = nact;
    s->nhist = nhist;
    s->nstates = nstates;
    s->flags = 5;
    s->states = 0x13;
    s->ticks = 102;
    s->delay_ticks = 7;
    for (int k = 0; k < nstates; k++) s->state_ticks[k] = 10 * k + 1;
    for (int j = 0; j < nact; j++) {
        s->x[j] = 0.1 * j;
        s->f[j] = -3.0 * j;
        s->mte[j] = 0.01 * j;
        s->rms[j] = 1.5 + j;
        s->ti_peak[j] = -0.002 * j;
    }
    for (int k = 0; k < nhist; k++) {
        s->hist_t[k] = 1.0 + 0.001 * k;
        for (int j = 0; j < nact; j++) {
            s->hist_x[k * nact + j] = k + 0.5 * j;
            s->hist_f[k * nact + j] = -(k + 0.25 * j);
        }
    }
}

/* Encodes, checks the payload size from the layout table, decodes, checks every field. */
static void round_trip(const hs_wire_msg *m, size_t expect_payload, uint64_t seq)
{
    size_t len = 0, used = 0;
    hs_wire_status st;
    assert_int_equal(hs_wire_encode(m, seq, buf, sizeof buf, &len, &st), 0);
    if (len != HS_WIRE_HEADER_SIZE + expect_payload)
        fail_msg("%s: payload %zu bytes, layout says %zu", hs_wire_type_name((int)m->type),
                 len - HS_WIRE_HEADER_SIZE, expect_payload);
    hs_wire_msg d;
    memset(&d, 0xA5, sizeof d);
    assert_int_equal(hs_wire_decode(buf, len, 0, &d, &used, &st), 0);
    assert_int_equal(st.fault, HS_WIRE_FAULT_NONE);
    assert_int_equal(used, len);
    assert_int_equal(d.type, m->type);
    assert_true(d.step == m->step && d.seq == seq);
    switch (m->type) {
    case HS_WIRE_AUTH_INIT:
        assert_int_equal(d.auth.mode, m->auth.mode);
        assert_memory_equal(d.auth.nonce, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        break;
    case HS_WIRE_AUTH_CHALLENGE:
        assert_int_equal(d.auth.mode, m->auth.mode);
        assert_memory_equal(d.auth.nonce, m->auth.nonce, HS_WIRE_NONCE_SIZE);
        assert_memory_equal(d.auth.proof, m->auth.proof, HS_WIRE_PROOF_SIZE);
        break;
    case HS_WIRE_AUTH_PROOF:
        assert_memory_equal(d.auth.proof, m->auth.proof, HS_WIRE_PROOF_SIZE);
        break;
    case HS_WIRE_HELLO:
    case HS_WIRE_HELLO_ACK:
        assert_memory_equal(&d.hello, &m->hello, sizeof d.hello);
        break;
    case HS_WIRE_TARGET:
        assert_memory_equal(&d.target, &m->target, sizeof d.target);
        break;
    case HS_WIRE_MEASUREMENT:
        assert_memory_equal(&d.meas, &m->meas, sizeof d.meas);
        break;
    case HS_WIRE_HEARTBEAT:
        assert_true(d.heartbeat.sent_ns == m->heartbeat.sent_ns);
        assert_true(d.heartbeat.echo_ns == m->heartbeat.echo_ns);
        break;
    case HS_WIRE_ERROR:
        assert_int_equal(d.error.code, m->error.code);
        assert_string_equal(d.error.text, m->error.text);
        break;
    case HS_WIRE_RESUME_ACK:
        assert_memory_equal(&d.resume, &m->resume, sizeof d.resume);
        break;
    case HS_WIRE_HOLD_ACK:
        assert_memory_equal(&d.hold, &m->hold, sizeof d.hold);
        break;
    default:
        break;
    }
}

static void test_round_trip_every_type(void **state)
{
    (void)state;
    hs_wire_msg m;
    int seen[32] = {0};
    /* handshake */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_AUTH_INIT;
    m.auth.mode = 1;
    for (int i = 0; i < HS_WIRE_NONCE_SIZE; i++) m.auth.nonce[i] = (uint8_t)(3 * i + 1);
    round_trip(&m, 1 + 32, 0);
    m.type = HS_WIRE_AUTH_CHALLENGE;
    for (int i = 0; i < HS_WIRE_PROOF_SIZE; i++) m.auth.proof[i] = (uint8_t)(255 - i);
    round_trip(&m, 1 + 32 + 32, 0);
    m.type = HS_WIRE_AUTH_PROOF;
    round_trip(&m, 32, 1);
    seen[1] = seen[2] = seen[3] = 1;
    /* empty payloads */
    const hs_wire_type empty[] = {HS_WIRE_AUTH_OK, HS_WIRE_COMMIT, HS_WIRE_BYE, HS_WIRE_RESUME,
                                  HS_WIRE_HOLD};
    for (size_t k = 0; k < 5; k++) {
        memset(&m, 0, sizeof m);
        m.type = empty[k];
        m.step = 41;
        round_trip(&m, 0, 9);
        seen[empty[k]] = 1;
    }
    /* HELLO with 2 actuators and names "coord", "east": 1+1+4+1 + 3*8 + 2*3*8 + (1+5) + (1+4) */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HELLO;
    fill_hello(&m.hello, 2);
    m.hello.version_max = 3;
    round_trip(&m, 7 + 24 + 48 + 6 + 5, 2);
    m.type = HS_WIRE_HELLO_ACK;
    m.hello.version_max = 1;
    fill_hello(&m.hello, 16);
    round_trip(&m, 7 + 24 + 16 * 24 + 6 + 5, 2);
    seen[HS_WIRE_HELLO] = seen[HS_WIRE_HELLO_ACK] = 1;
    /* TARGET: 8 + 1 + 8 n */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_TARGET;
    m.step = 1000;
    m.target.t = 10.0;
    m.target.nact = 16;
    for (int j = 0; j < 16; j++) m.target.x[j] = 1e-3 * j - 0.004;
    round_trip(&m, 9 + 128, 3);
    seen[HS_WIRE_TARGET] = 1;
    /* MEASUREMENT: 24 + 3 + 8 + 16 + 8 nstates + 5*8 n + 8 nhist + 2*8 n nhist */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_MEASUREMENT;
    m.step = 1000;
    fill_meas(&m.meas, 2, 8, 6);
    round_trip(&m, 51 + 48 + 80 + 64 + 256, 4);
    fill_meas(&m.meas, 16, 8, 8);
    round_trip(&m, 51 + 64 + 640 + 64 + 2048, 4);
    assert_true(51 + 64 + 640 + 64 + 2048 <= HS_WIRE_MAX_PAYLOAD);
    fill_meas(&m.meas, 1, 0, 0);
    round_trip(&m, 51 + 40, 4);
    /* with the step's statistics (HS_WIRE_CAP_STEP_STATS): + flags u32 + ti, a_es f64[n] */
    fill_meas(&m.meas, 2, 8, 6);
    m.meas.stats = 1;
    m.meas.stats_flags = HS_WIRE_MEAS_RESUMED;
    m.meas.ti[0] = -0.0125;
    m.meas.ti[1] = 3e-300;
    m.meas.a_es[0] = 5.04;
    m.meas.a_es[1] = 1.0;
    round_trip(&m, 51 + 48 + 80 + 64 + 256 + 4 + 32, 4);
    fill_meas(&m.meas, 16, 8, 8);
    m.meas.stats = 1;
    for (int j = 0; j < 16; j++) m.meas.a_es[j] = 1.0 + j;
    round_trip(&m, 51 + 64 + 640 + 64 + 2048 + 4 + 256, 4);
    assert_true(51 + 64 + 640 + 64 + 2048 + 4 + 256 <= HS_WIRE_MAX_PAYLOAD);
    seen[HS_WIRE_MEASUREMENT] = 1;
    /* HEARTBEAT: two u64 */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HEARTBEAT;
    m.heartbeat.sent_ns = UINT64_MAX;
    m.heartbeat.echo_ns = 123456789;
    round_trip(&m, 16, 5);
    seen[HS_WIRE_HEARTBEAT] = 1;
    /* ERROR: i32 code, u16 length, text */
    hs_wire_error_set(&m, 12, HS_EAUTH, "site '%s': key mismatch", "east");
    round_trip(&m, 4 + 2 + strlen("site 'east': key mismatch"), 6);
    seen[HS_WIRE_ERROR] = 1;
    /* RESUME_ACK: 1 + 8 n */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_RESUME_ACK;
    m.step = 77;
    m.resume.nact = 3;
    m.resume.x[0] = 1.0;
    m.resume.x[1] = 2.0;
    m.resume.x[2] = -3.0;
    round_trip(&m, 1 + 24, 7);
    seen[HS_WIRE_RESUME_ACK] = 1;
    /* HOLD_ACK: state u8, hold_timeout f64, left f64; the bytes of hold (3), 2 s and 1.5 s */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HOLD_ACK;
    m.step = 517;
    m.hold.state = 3;
    m.hold.hold_timeout = 2.0;
    m.hold.left = 1.5;
    round_trip(&m, 17, 8);
    size_t hl = 0;
    hs_wire_status hst;
    uint8_t hp[17];
    assert_int_equal(hs_wire_payload_encode(&m, hp, sizeof hp, &hl, &hst), 0);
    const uint8_t hold_bytes[17] = {3, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F};
    assert_memory_equal(hp, hold_bytes, sizeof hold_bytes);
    seen[HS_WIRE_HOLD_ACK] = 1;
    /* every named type was covered */
    for (int t = 0; t < 32; t++)
        if (hs_wire_type_name(t) && !seen[t]) fail_msg("type %d not round-tripped", t);
}

static void expect_fault(const uint8_t *frame, size_t len, uint32_t max, hs_wire_fault fault)
{
    hs_wire_msg d;
    hs_wire_status st = {0};
    const int rc = hs_wire_decode(frame, len, max, &d, NULL, &st);
    if (rc != HS_EPROTO || st.fault != fault)
        fail_msg("expected %s, got rc %d fault %s: %s", hs_wire_fault_name(fault), rc,
                 hs_wire_fault_name(st.fault), st.text);
    assert_true(strlen(st.text) > 10);
}

static void test_truncated(void **state)
{
    (void)state;
    for (size_t n = 0; n < sizeof target_frame; n++)
        expect_fault(target_frame, n, 0, HS_WIRE_FAULT_TRUNCATED);
}

static void test_refusals(void **state)
{
    (void)state;
    uint8_t f[sizeof target_frame];
    hs_wire_status st;
    memcpy(f, target_frame, sizeof f);
    f[0] = 'X';
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_MAGIC);
    memcpy(f, target_frame, sizeof f);
    f[4] = 2;
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_VERSION);
    f[4] = 0;
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_VERSION);
    memcpy(f, target_frame, sizeof f);
    const uint8_t bad_types[] = {0, 5, 15, 28, 99, 255};
    for (size_t k = 0; k < sizeof bad_types; k++) {
        f[5] = bad_types[k];
        expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_TYPE);
    }
    memcpy(f, target_frame, sizeof f);
    f[7] = 0x80;
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_FLAGS);
    f[7] = 0;
    f[6] = 1; /* sealed: not for the plain decoder */
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_FLAGS);
    /* oversize: the 28-byte header alone is refused, before any body exists */
    memcpy(f, target_frame, sizeof f);
    f[8] = 0x00, f[9] = 0x00, f[10] = 0x10, f[11] = 0x00; /* 1 MiB */
    hs_wire_header h;
    assert_int_equal(hs_wire_header_decode(f, HS_WIRE_HEADER_SIZE, 0, &h, &st), HS_EPROTO);
    assert_int_equal(st.fault, HS_WIRE_FAULT_OVERSIZE);
    f[8] = 0xFF, f[9] = 0xFF, f[10] = 0xFF, f[11] = 0xFF;
    expect_fault(f, HS_WIRE_HEADER_SIZE, 0, HS_WIRE_FAULT_OVERSIZE);
    /* a configured bound: 25 bytes pass a bound of 25, not one of 24 */
    memcpy(f, target_frame, sizeof f);
    hs_wire_msg d;
    assert_int_equal(hs_wire_decode(f, sizeof f, 25, &d, NULL, &st), 0);
    expect_fault(f, sizeof f, 24, HS_WIRE_FAULT_OVERSIZE);
    /* negative step */
    memcpy(f, target_frame, sizeof f);
    f[27] = 0x80;
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_PAYLOAD);
    /* payloads: nact 0 and 17, NaN, length not matching the count */
    memcpy(f, target_frame, sizeof f);
    f[36] = 0;
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_PAYLOAD);
    f[36] = 17;
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_PAYLOAD);
    f[36] = 1; /* one value announced, two present: 8 bytes left over */
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_PAYLOAD);
    memcpy(f, target_frame, sizeof f);
    f[37 + 6] = 0xF8, f[37 + 7] = 0x7F; /* x[0] = 0x7FF8000000000000, a quiet NaN */
    expect_fault(f, sizeof f, 0, HS_WIRE_FAULT_PAYLOAD);
}

static void test_payload_checks(void **state)
{
    (void)state;
    hs_wire_status st;
    size_t len = 0;
    hs_wire_msg m;
    /* encoding refuses what decoding would refuse, and short buffers */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_TARGET;
    m.target.nact = 2;
    m.target.x[1] = NAN;
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), HS_EINVAL);
    assert_int_equal(st.fault, HS_WIRE_FAULT_PAYLOAD);
    m.target.x[1] = 0.0;
    assert_int_equal(hs_wire_encode(&m, 0, buf, HS_WIRE_HEADER_SIZE + 24, &len, &st), HS_EINVAL);
    assert_int_equal(st.fault, HS_WIRE_FAULT_SPACE);
    assert_int_equal(hs_wire_encode(&m, 0, buf, HS_WIRE_HEADER_SIZE + 25, &len, &st), 0);
    /* HOLD_ACK: a state beyond the generator's, a negative or non-finite time, refused both ways */
    const hs_wire_hold bad_holds[] = {
        {8, 2.0, 1.0}, {3, -1.0, 0.0}, {3, 2.0, -0.5}, {3, NAN, 0.0}, {3, 2.0, INFINITY}};
    for (size_t k = 0; k < sizeof bad_holds / sizeof bad_holds[0]; k++) {
        memset(&m, 0, sizeof m);
        m.type = HS_WIRE_HOLD_ACK;
        m.hold = bad_holds[k];
        assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), HS_EINVAL);
        assert_int_equal(st.fault, HS_WIRE_FAULT_PAYLOAD);
        uint8_t p[17];
        p[0] = (uint8_t)bad_holds[k].state;
        memcpy(p + 1, &bad_holds[k].hold_timeout, 8); /* little-endian host (x86, arm64) */
        memcpy(p + 9, &bad_holds[k].left, 8);
        assert_int_equal(hs_wire_payload_decode(HS_WIRE_HOLD_ACK, p, sizeof p, &m, &st), HS_EPROTO);
        assert_int_equal(st.fault, HS_WIRE_FAULT_PAYLOAD);
    }
    /* ERROR text: invalid UTF-8 (overlong NUL C0 80, lone continuation, surrogate) refused */
    const uint8_t bad_utf8[][3] = {{0xC0, 0x80, 'a'}, {0x80, 'a', 'b'}, {0xED, 0xA0, 0x80}};
    for (size_t k = 0; k < 3; k++) {
        uint8_t p[4 + 2 + 3] = {0xF3, 0xFF, 0xFF, 0xFF, 3, 0};
        memcpy(p + 6, bad_utf8[k], 3);
        assert_int_equal(hs_wire_payload_decode(HS_WIRE_ERROR, p, sizeof p, &m, &st), HS_EPROTO);
        assert_int_equal(st.fault, HS_WIRE_FAULT_PAYLOAD);
    }
    /* a good one: code -13 (HS_EAUTH) is F3 FF FF FF, "é" is C3 A9 */
    const uint8_t good[] = {0xF3, 0xFF, 0xFF, 0xFF, 2, 0, 0xC3, 0xA9};
    assert_int_equal(hs_wire_payload_decode(HS_WIRE_ERROR, good, sizeof good, &m, &st), 0);
    assert_int_equal(m.error.code, HS_EAUTH);
    assert_string_equal(m.error.text, "\xC3\xA9");
    /* a long sentence is cut at a character boundary: 300 x "é" -> 127 characters, 254 bytes */
    char longtext[601];
    for (int i = 0; i < 300; i++) longtext[2 * i] = '\xC3', longtext[2 * i + 1] = '\xA9';
    longtext[600] = '\0';
    hs_wire_error_set(&m, 3, HS_EPROTO, "%s", longtext);
    assert_int_equal(strlen(m.error.text), 254);
    round_trip(&m, 4 + 2 + 254, 1);
    /* MEASUREMENT counts above their bounds */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_MEASUREMENT;
    fill_meas(&m.meas, 2, 2, 2);
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), 0);
    buf[HS_WIRE_HEADER_SIZE + 25] = 9; /* nhist */
    expect_fault(buf, len, 0, HS_WIRE_FAULT_PAYLOAD);
    buf[HS_WIRE_HEADER_SIZE + 25] = 2;
    buf[HS_WIRE_HEADER_SIZE + 26] = 9; /* nstates */
    expect_fault(buf, len, 0, HS_WIRE_FAULT_PAYLOAD);
    buf[HS_WIRE_HEADER_SIZE + 26] = 3; /* one more state: size no longer matches */
    expect_fault(buf, len, 0, HS_WIRE_FAULT_PAYLOAD);
    /* the step's statistics: an unknown flag, a non-finite a_es, refused on both sides */
    fill_meas(&m.meas, 2, 2, 2);
    m.meas.stats = 1;
    m.meas.a_es[0] = m.meas.a_es[1] = 1.0;
    m.meas.stats_flags = 0x2;
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), HS_EINVAL);
    m.meas.stats_flags = 0;
    m.meas.a_es[1] = NAN;
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), HS_EINVAL);
    m.meas.a_es[1] = 2.0;
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), 0);
    const size_t flags_at = len - 4 * 8 - 4; /* the u32 before ti[2], a_es[2] */
    buf[flags_at] = 0x2;
    expect_fault(buf, len, 0, HS_WIRE_FAULT_PAYLOAD);
    buf[flags_at] = 0;
    const double nan = NAN;
    memcpy(buf + len - 8, &nan, 8); /* a_es[1] */
    expect_fault(buf, len, 0, HS_WIRE_FAULT_PAYLOAD);
    /* HELLO: name of 64 bytes refused on both sides */
    memset(&m, 0, sizeof m);
    m.type = HS_WIRE_HELLO;
    fill_hello(&m.hello, 1);
    memset(m.hello.site, 'a', sizeof m.hello.site);
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), HS_EINVAL);
    m.hello.site[63] = '\0';
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), 0);
    m.hello.version_min = 2; /* empty version range */
    m.hello.version_max = 1;
    assert_int_equal(hs_wire_encode(&m, 0, buf, sizeof buf, &len, &st), HS_EINVAL);
}

static void test_negotiation(void **state)
{
    (void)state;
    hs_wire_hello site, offer, ack;
    hs_wire_msg refusal;
    fill_hello(&site, 2);
    site.caps = HS_WIRE_CAP_ALL;
    site.time_scale = 1.0; /* can run in real time */
    site.version_max = 2;
    memset(&offer, 0, sizeof offer);
    offer.version_min = 1;
    offer.version_max = 1;
    offer.caps = HS_WIRE_CAP_RESUME | 0x100;
    offer.nact = 2;
    offer.rate = 500.0;
    offer.time_scale = 10.0;
    offer.dt = 0.01;
    offer.limits[1] = (hs_wire_act_limits){30.0, 80.0, 10.0};
    strcpy(offer.coordinator, "coord");
    assert_int_equal(hs_wire_negotiate(&offer, &site, &ack, &refusal), 0);
    assert_int_equal(ack.version_min, 1);
    assert_int_equal(ack.version_max, 1);
    assert_int_equal(ack.caps, HS_WIRE_CAP_RESUME);
    assert_true(ack.rate == 1024.0 && ack.dt == 0.01 && ack.time_scale == 10.0);
    assert_true(ack.limits[1].displacement == 51.0);
    assert_string_equal(ack.site, "east");
    assert_string_equal(ack.coordinator, "coord");
    /* each refusal names what the site cannot do */
    struct {
        const char *field;
        const char *word;
    } cases[] = {{"nact", "actuator"},   {"rate", "Hz"},          {"disp", "displacement"},
                 {"force", "force"},     {"scale", "time scale"}, {"ticks", "tick"},
                 {"version", "version"}, {"name", "west"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hs_wire_hello o = offer;
        if (!strcmp(cases[k].field, "nact")) o.nact = 3;
        if (!strcmp(cases[k].field, "rate")) o.rate = 2048.0;
        if (!strcmp(cases[k].field, "disp")) o.limits[1].displacement = 51.5;
        if (!strcmp(cases[k].field, "force")) o.limits[0].force = 20.5;
        if (!strcmp(cases[k].field, "scale")) o.time_scale = 0.5;
        if (!strcmp(cases[k].field, "ticks")) o.dt = 0.0005, o.time_scale = 1.0; /* 0.512 tick */
        if (!strcmp(cases[k].field, "version")) o.version_min = 3, o.version_max = 4;
        if (!strcmp(cases[k].field, "name")) strcpy(o.site, "west");
        assert_int_equal(hs_wire_negotiate(&o, &site, &ack, &refusal), HS_EUNSUPPORTED);
        assert_int_equal(refusal.type, HS_WIRE_ERROR);
        assert_int_equal(refusal.error.code, HS_EUNSUPPORTED);
        if (!strstr(refusal.error.text, cases[k].word))
            fail_msg("%s: '%s' lacks '%s'", cases[k].field, refusal.error.text, cases[k].word);
    }
    /* the limit check is on actuator 2 and says so */
    hs_wire_hello o = offer;
    o.limits[1].displacement = 51.5;
    hs_wire_negotiate(&o, &site, &ack, &refusal);
    assert_non_null(strstr(refusal.error.text, "actuator 2"));
    /* exactly one tick per step is enough: dt 1/1024 s at time scale 1 */
    o = offer;
    o.dt = 1.0 / 1024.0;
    o.time_scale = 1.0;
    assert_int_equal(hs_wire_negotiate(&o, &site, &ack, &refusal), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_layout_by_hand),
        cmocka_unit_test(test_double_bits),
        cmocka_unit_test(test_round_trip_every_type),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_payload_checks),
        cmocka_unit_test(test_negotiation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
