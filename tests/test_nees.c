/* The NEES ASCII protocol without sockets (hysim/nees.h, docs/nees.md): the line assembler and
 * splitter against every quirk PROTOCOL-NEES.md §10 lists, the control-point parser, the reply
 * format (no TAB before the EOL, below ECLabVIEW's 512 bytes), and the lab session replaying the
 * document's transcripts A (UI-SimCor LabView1), B (OpenFresco ECLabVIEW) and C (LabView2) byte
 * for byte against a perfect lab of linear springs (k_x = 100, k_rz = 5000, the document's
 * setup): every reply has the document's status, code and echoed ID, and its data triplets carry
 * the document's labels and values (to the document's 7 printed digits; ours are exact). Then
 * the refusals: targets beyond a stroke, non-finite, unknown points, forces; each answered NOK
 * and nothing moves, and the session goes on. */
#include "hs_test.h"

#include "hysim/nees.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double kx = 100.0, krz = 5000.0;

/* ---- a perfect lab: x = target, f = k x ---- */
typedef struct lab {
    hs_nees_session *s;
    hs_nees_lines in;
    char replies[8192]; /* every reply line, concatenated */
    size_t len;
    int moves;
    double x[2];
} lab;

static void lab_open(lab *L, const hs_nees_config *cfg, const double *stroke)
{
    memset(L, 0, sizeof *L);
    static const char *const names[2] = {"a1", "a2"};
    assert_int_equal(hs_nees_session_create(NULL, cfg, 2, names, stroke, &L->s), 0);
    const double z[2] = {0, 0};
    hs_nees_session_state(L->s, z, z);
}

static void take(lab *L, const hs_nees_action *a)
{
    for (int i = 0; i < a->nlines; i++) {
        /* every reply: one line, LF at the end only, no TAB before it, below 512 bytes */
        assert_true(a->len[i] >= 2 && a->len[i] < HS_NEES_ECL_LIMIT);
        assert_int_equal(a->line[i][a->len[i] - 1], '\n');
        assert_ptr_equal(memchr(a->line[i], '\n', a->len[i]), a->line[i] + a->len[i] - 1);
        assert_int_not_equal(a->line[i][a->len[i] - 2], '\t');
        assert_null(memchr(a->line[i], '\r', a->len[i]));
        assert_true(L->len + a->len[i] < sizeof L->replies);
        memcpy(L->replies + L->len, a->line[i], a->len[i]);
        L->len += a->len[i];
    }
    L->replies[L->len] = '\0';
}

/* Feeds bytes (in chunks of `chunk`) and answers moves as a perfect lab. */
static void lab_feed(lab *L, const char *bytes, size_t n, size_t chunk)
{
    size_t off = 0;
    while (off < n) {
        const size_t part = n - off < chunk ? n - off : chunk;
        size_t done = 0;
        while (done < part) {
            size_t used = 0;
            const int got =
                hs_nees_lines_push(&L->in, (const uint8_t *)bytes + off + done, part - done, &used);
            done += used;
            if (!got) break;
            hs_nees_action a;
            if (L->in.truncated)
                hs_nees_session_overlong(L->s, &a);
            else
                hs_nees_session_line(L->s, L->in.buf, &a);
            if (a.kind == HS_NEES_ACT_MOVE) {
                L->moves++;
                memcpy(L->x, a.x, sizeof L->x);
                const double f[2] = {kx * a.x[0], krz * a.x[1]};
                hs_nees_action b;
                hs_nees_session_moved(L->s, a.x, f, 0, NULL, &b);
                take(L, &b);
            } else {
                take(L, &a);
            }
        }
        off += part;
    }
}

/* A string literal fed in chunks of `chunk` bytes. */
#define FEED(L, text, chunk) lab_feed((L), (text), strlen(text), (chunk))

static void lab_close(lab *L)
{
    hs_nees_session_destroy(&L->s);
}

static void config_2dof(hs_nees_config *c)
{
    hs_nees_config_default(c, 2);
    c->act_dof[1] = HS_NEES_RZ; /* a1: x displacement, a2: z rotation */
}

/* ---- comparing a reply with the document's ---- */
typedef struct parsed {
    char buf[4096];
    hs_nees_msg m;
    hs_nees_triplet t[64];
    int nt;
} parsed;

static void parse(parsed *p, const char *line, size_t len)
{
    assert_true(len < sizeof p->buf);
    memcpy(p->buf, line, len);
    p->buf[len] = '\0';
    char *nl = strchr(p->buf, '\n');
    if (nl) *nl = '\0';
    hs_nees_split(p->buf, &p->m);
    char why[256];
    /* triplets after the code and the ID */
    p->nt = p->m.nf > 2 ? hs_nees_points(p->m.f + 2, p->m.nf - 2, p->t, 64, why, sizeof why) : 0;
    assert_true(p->nt >= 0);
}

/* The request's ID: the first field unless it names a control point. */
static const char *request_id(char *req)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s", req);
    char *nl = strchr(buf, '\n');
    if (nl) *nl = '\0';
    hs_nees_msg m;
    hs_nees_split(buf, &m);
    if (m.nf == 0 || strncmp(m.f[0], "MDL", 3) == 0) return "dummy";
    return m.f[0];
}

/* A transcript: C lines sent byte for byte; each S line (NULL: no reply expected by the client)
 * compared with ours. */
static void replay(const char *const *c, const char *const *s, int n, const hs_nees_config *cfg)
{
    lab L;
    lab_open(&L, cfg, NULL);
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        lab_feed(&L, c[i], strlen(c[i]), 4096);
        const char *mine = L.replies + at;
        const char *end = strchr(mine, '\n');
        assert_non_null(end);
        const size_t len = (size_t)(end - mine) + 1;
        at += len;
        if (!s[i]) continue;
        parsed *ours = calloc(1, sizeof *ours), *doc = calloc(1, sizeof *doc);
        parse(ours, mine, len);
        parse(doc, s[i], strlen(s[i]));
        assert_string_equal(ours->m.raw_cmd, doc->m.raw_cmd); /* OK */
        assert_true(ours->m.nf >= 2 && doc->m.nf >= 2);
        assert_string_equal(ours->m.f[0], doc->m.f[0]); /* 0 */
        char req[512];
        snprintf(req, sizeof req, "%s", c[i]);
        assert_string_equal(ours->m.f[1], request_id(req)); /* the ID, echoed */
        assert_int_equal(ours->nt, doc->nt);
        for (int k = 0; k < doc->nt; k++) {
            assert_string_equal(ours->t[k].cp, doc->t[k].cp);
            assert_int_equal(ours->t[k].dof, doc->t[k].dof);
            assert_int_equal(ours->t[k].reaction, doc->t[k].reaction);
            HS_ASSERT_NEAR(ours->t[k].v, doc->t[k].v, 5e-7 * fabs(doc->t[k].v) + 1e-12);
        }
        free(ours);
        free(doc);
    }
    assert_int_equal((int)at, (int)L.len); /* nothing more than one line per request */
    lab_close(&L);
}

/* PROTOCOL-NEES.md §9 A: UI-SimCor (LabView1) to an OM-like lab. */
static void test_transcript_a(void **state)
{
    (void)state;
    static const char *const c[] = {
        "open-session\tdummyOpenSession\n",
        "set-parameter\tdummySetParam\tnstep\t2\n",
        "propose\ttrans20080720020138.31\tMDL-00-01\tx\tdisplacement\t1.0000000000e-"
        "002\tz\trotation\t2."
        "0000000000e-004\n",
        "execute\ttrans20080720020138.31\n",
        "get-control-point\tdummy\tMDL-00-01\n",
        "propose\ttrans20080720020150.31\tMDL-00-01\tx\tdisplacement\t2.0000000000e-"
        "002\tz\trotation\t4."
        "0000000000e-004\n",
        "execute\ttrans20080720020150.31\n",
        "get-control-point\tdummy\tMDL-00-01\n",
        "close-session\tdummy\n",
    };
    static const char *const s[] = {
        "OK\t0\tdummyOpenSession\tOpen Session Succeeded.\r\n",
        "OK\t0\tdummySetParam\tCommand ignored. Carry on.\r\n",
        "OK\t0\ttrans20080720020138.31\tpropose\tAccepted\r\n",
        "OK\t0\ttrans20080720020138.31\texecute\tDone\r\n",
        "OK\t0\tdummy\tMDL-00-01\tx\tdisplacement\t1.000000E-2\tz\trotation\t2.000000E-"
        "4\tx\tforce\t1."
        "000000E+0\tz\tmoment\t1.000000E+0\r\n",
        "OK\t0\ttrans20080720020150.31\tpropose\tAccepted\r\n",
        "OK\t0\ttrans20080720020150.31\texecute\tDone\r\n",
        "OK\t0\tdummy\tMDL-00-01\tx\tdisplacement\t2.000000E-2\tz\trotation\t4.000000E-"
        "4\tx\tforce\t2."
        "000000E+0\tz\tmoment\t2.000000E+0\r\n",
        NULL, /* UI-SimCor closes without reading; a lab may still answer OK */
    };
    hs_nees_config cfg;
    config_2dof(&cfg);
    replay(c, s, 9, &cfg);
}

/* §9 B: OpenFresco expControl LabVIEW. */
static void test_transcript_b(void **state)
{
    (void)state;
    static const char *const c[] = {
        "open-session\tOpenFresco\n",
        "set-parameter\tOPFTransaction\tnstep\t1\n",
        "propose\tOPFTransaction20261026012809\tMDL-00-01\tx\tdisplacement\t0.0000000000E+"
        "00\tz\trotati"
        "on\t0.0000000000E+00\n",
        "execute\tOPFTransaction20261026012809\n",
        "get-control-point\tOPFTransaction20261026012809\tMDL-00-01\n",
        "propose\tOPFTransaction20261026012812\tMDL-00-01\tx\tdisplacement\t1.0000000000E-"
        "02\tz\trotati"
        "on\t2.0000000000E-04\n",
        "execute\tOPFTransaction20261026012812\n",
        "get-control-point\tOPFTransaction20261026012812\tMDL-00-01\n",
        "close-session\tOpenFresco\n",
    };
    static const char *const s[] = {
        "OK\t0\tOpenFresco\tOpen Session Succeeded.\n",
        "OK\t0\tOPFTransaction\tCommand ignored. Carry on.\n",
        "OK\t0\tOPFTransaction20261026012809\tpropose\tAccepted\n",
        "OK\t0\tOPFTransaction20261026012809\texecute\tDone\n",
        "OK\t0\tOPFTransaction20261026012809\tMDL-00-01\tx\tdisplacement\t0.000000E+"
        "00\tz\trotation\t0."
        "000000E+00\tx\tforce\t0.000000E+00\tz\tmoment\t0.000000E+00\n",
        "OK\t0\tOPFTransaction20261026012812\tpropose\tAccepted\n",
        "OK\t0\tOPFTransaction20261026012812\texecute\tDone\n",
        "OK\t0\tOPFTransaction20261026012812\tMDL-00-01\tx\tdisplacement\t1.000000E-"
        "02\tz\trotation\t2."
        "000000E-04\tx\tforce\t1.000000E+00\tz\tmoment\t1.000000E+00\n",
        "OK\t0\tOpenFresco\tClose Session Succeeded.\n",
    };
    hs_nees_config cfg;
    config_2dof(&cfg);
    replay(c, s, 9, &cfg);
}

/* §9 C: UI-SimCor LabView2 (the propose's reply carries the data; the gateway's `dummy` ID and
 * trailing TAB are the gateway's: we echo the ID and end without a TAB). */
static void test_transcript_c(void **state)
{
    (void)state;
    static const char *const c[] = {
        "open-session\tdummyOpenSession\n",
        "set-parameter\tdummySetParam\tnstep\t2\n",
        "propose\ttrans20081220105542.42\tMDL-00-01\tx\tdisplacement\t1.0000000000e-"
        "002\tz\trotation\t2."
        "0000000000e-004\n",
        "propose\ttrans20081220105630.64\tMDL-00-01\tx\tdisplacement\t2.0000000000e-"
        "002\tz\trotation\t4."
        "0000000000e-004\n",
        "close-session\tdummy\n",
    };
    static const char *const s[] = {
        "OK\t0\tdummyOpenSession\tLBCB Gateway is Connected.\n",
        "OK\t0\tdummySetParam\tModule initialized.\n",
        "OK\t0\tdummy\tMDL-00-01\tx\tdisplacement\t1.0000000000e-002\tz\trotation\t2.0000000000e-"
        "004\tx\t"
        "force\t1.0000000000e+000\tz\tmoment\t1.0000000000e+000\t\n",
        "OK\t0\tdummy\tMDL-00-01\tx\tdisplacement\t2.0000000000e-002\tz\trotation\t4.0000000000e-"
        "004\tx\t"
        "force\t2.0000000000e+000\tz\tmoment\t2.0000000000e+000\t\n",
        "OK\t0\tdummyCloseSession\tSee you later!.\n",
    };
    hs_nees_config cfg;
    config_2dof(&cfg);
    cfg.mode = HS_NEES_LABVIEW2;
    lab L;
    lab_open(&L, &cfg, NULL);
    /* the ID slot: ours echoes the request's (checked by replay below for the data lines) */
    lab_close(&L);
    const char *const s_echo[] = {s[0], s[1], NULL, NULL, NULL};
    replay(c, s_echo, 5, &cfg);
    /* the data lines against the document's, labels and values (ID aside) */
    lab_open(&L, &cfg, NULL);
    for (int i = 0; i < 5; i++) lab_feed(&L, c[i], strlen(c[i]), 7);
    assert_int_equal(L.moves, 2);
    char *line = L.replies;
    for (int i = 0; i < 5; i++) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        if (i == 2 || i == 3) {
            parsed *ours = calloc(1, sizeof *ours), *doc = calloc(1, sizeof *doc);
            parse(ours, line, (size_t)(end - line) + 1);
            parse(doc, s[i], strlen(s[i]));
            assert_int_equal(ours->nt, 4);
            assert_int_equal(ours->nt, doc->nt);
            for (int k = 0; k < doc->nt; k++) {
                assert_int_equal(ours->t[k].dof, doc->t[k].dof);
                assert_int_equal(ours->t[k].reaction, doc->t[k].reaction);
                HS_ASSERT_NEAR(ours->t[k].v, doc->t[k].v, 1e-15 * fabs(doc->t[k].v));
            }
            free(ours);
            free(doc);
        }
        line = end + 1;
    }
    lab_close(&L);
}

/* §10 "a server must tolerate": CR LF, NUL padding (ECLabVIEW's whole 512-byte buffer), a space
 * after the command word, a suffix on it and on the ID, double and trailing TABs, extra fields,
 * an ID with spaces, missing IDs, byte-by-byte chunks, blank lines, and the 2009 multi-box
 * proposals merged under one ID. */
static void test_quirks(void **state)
{
    (void)state;
    hs_nees_config cfg;
    config_2dof(&cfg);
    lab L;
    lab_open(&L, &cfg, NULL);
    char ecl[512];
    memset(ecl, 0, sizeof ecl);
    const char *o = "open-session\tOpenFresco\n";
    memcpy(ecl, o, strlen(o));
    lab_feed(&L, ecl, sizeof ecl, 512); /* NUL padding after the line */
    FEED(&L, "\r\n\n", 1);              /* blank lines: no reply */
    FEED(&L, "open-session dummySession\r\n", 1);
    const char *p = "propose\ttrans200912317925.320[100 23 0]\t\tMDL-00-01:LBCB1\tx\tdisplacement\t"
                    "0.5\t\tz\trotation\t1.0E-03\t\r\n";
    lab_feed(&L, p, strlen(p), 3);
    FEED(&L, "execute\ttrans200912317925.320[100 23 0]:LBCB2\n", 5);
    FEED(&L, "get-control-point\ttrans1\tMDL-00-01:LBCB1\tdummy\n", 64);
    lab_feed(&L, "get-control-point\tMDL-00-01\n", strlen("get-control-point\tMDL-00-01\n"),
             64); /* no ID */
    lab_feed(&L, "execute\tMDL-00-01\n", strlen("execute\tMDL-00-01\n"),
             64); /* no ID, nothing pending */
    FEED(&L, "close-session:LBCB2\tdummy\n", 64);
    const char *want =
        "OK\t0\tOpenFresco\tOpen Session Succeeded.\n"
        "OK\t0\tdummySession\tOpen Session Succeeded.\n"
        "OK\t0\ttrans200912317925.320[100 23 0]\tpropose\tAccepted\n"
        "OK\t0\ttrans200912317925.320[100 23 0]:LBCB2\texecute\tDone\n"
        "OK\t0\ttrans1\tMDL-00-01:LBCB1\tx\tdisplacement\t5.0000000000000000E-01\tz\trotation\t1."
        "0000000000000000E-03\tx\tforce\t5.0000000000000000E+01\tz\tmoment\t5.0000000000000000E+"
        "00\n"
        "OK\t0\tdummy\tMDL-00-01\tx\tdisplacement\t5.0000000000000000E-01\tz\trotation\t1."
        "0000000000000000E-03\tx\tforce\t5.0000000000000000E+01\tz\tmoment\t5.0000000000000000E+"
        "00\n"
        "OK\t0\tdummy\texecute\tDone\n"
        "OK\t0\tdummy\tClose Session Succeeded.\n";
    assert_string_equal(L.replies, want);
    assert_int_equal(L.moves, 1);
    /* the 2009 multi-box protocol: two proposes with one ID, one execute moves both */
    L.len = 0;
    FEED(&L, "propose\tT9\tMDL-00-01\tx\tdisplacement\t0.25\n", 64);
    FEED(&L, "propose\tT9\tMDL-00-01\tz\trotation\t-0.002\n", 64);
    FEED(&L, "execute\tT9:LBCB2\n", 64);
    assert_int_equal(L.moves, 2);
    assert_true(L.x[0] == 0.25 && L.x[1] == -0.002);
    /* a propose with another ID replaces the pending one; untouched DOFs keep the last target */
    FEED(&L, "propose\tT10\tMDL-00-01\tz\trotation\t0.001\n", 64);
    FEED(&L, "propose\tT11\tMDL-00-01\tx\tdisplacement\t0.125\n", 64);
    FEED(&L, "execute\tT11\n", 64);
    assert_true(L.x[0] == 0.125 && L.x[1] == -0.002);
    assert_int_equal(L.moves, 3);
    lab_close(&L);
}

/* Two control points (ECLabVIEW's CPNode naming), all 12 values, and the 512-byte limit. */
static void test_points_and_limit(void **state)
{
    (void)state;
    hs_nees_config cfg;
    hs_nees_config_default(&cfg, 2);
    cfg.ncp = 2;
    snprintf(cfg.cp[1], sizeof cfg.cp[1], "CPNode02");
    cfg.act_cp[1] = 1;
    cfg.act_dof[1] = HS_NEES_DY;
    cfg.all12 = 1;
    lab L;
    lab_open(&L, &cfg, NULL);
    const char *p =
        "propose\tOPFTransaction2026102601281\tMDL-00-01\tx\tdisplacement\t-1.2345678901E+"
        "02\tcontrol-point\tCPNode02\ty\tdisplacement\t-9.8765432109E-03\n";
    lab_feed(&L, p, strlen(p), 4096);
    FEED(&L, "execute\tOPFTransaction2026102601281\n", 4096);
    assert_int_equal(L.moves, 1);
    assert_true(L.x[0] == -1.2345678901E+02 && L.x[1] == -9.8765432109E-03);
    L.len = 0;
    /* a 60-character ID and a long point name: 12 negative values do not fit with 17 digits */
    const char *g =
        "get-control-point\tOPFTransaction2026102601281xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\tMDL-"
        "00-01\tCPNode02\tMDL-00-01\n";
    lab_feed(&L, g, strlen(g), 4096);
    int lines = 0;
    for (char *q = L.replies; *q; q++) lines += *q == '\n';
    assert_int_equal(lines, 3); /* one line per name, in order */
    parsed *r = calloc(1, sizeof *r);
    char *second = strchr(L.replies, '\n') + 1;
    parse(r, second, (size_t)(strchr(second, '\n') - second) + 1);
    assert_string_equal(r->m.f[2], "CPNode02");
    assert_int_equal(r->nt, 12);
    /* OM order: x, y, z displacement, x, y, z rotation, x, y, z force, x, y, z moment */
    for (int k = 0; k < 12; k++) {
        assert_int_equal(r->t[k].dof, k % 6);
        assert_int_equal(r->t[k].reaction, k / 6);
    }
    HS_ASSERT_NEAR(r->t[1].v, -9.8765432109E-03, 1e-14);
    HS_ASSERT_NEAR(r->t[7].v, kx * 0.0 + krz * -9.8765432109E-03, 1e-9); /* a2's force */
    assert_true(r->t[0].v == 0.0 && r->t[6].v == 0.0);
    free(r);
    lab_close(&L);
}

/* Refusals: each answered NOK 1 <id> <reason>, nothing moves, the session goes on. */
static void test_refusals(void **state)
{
    (void)state;
    hs_nees_config cfg;
    config_2dof(&cfg);
    const double stroke[2] = {5.0, 0.01};
    lab L;
    lab_open(&L, &cfg, stroke);
    static const char *const bad[] = {
        "propose\tt1\tMDL-00-01\tx\tdisplacement\t5.0000001\n",         /* beyond a1's stroke */
        "propose\tt2\tMDL-00-01\tz\trotation\t-0.0100001\n",            /* beyond a2's stroke */
        "propose\tt3\tMDL-00-01\tx\tdisplacement\tnan\n",               /* not finite */
        "propose\tt4\tMDL-00-01\tx\tdisplacement\t1e999\n",             /* overflows */
        "propose\tt5\tMDL-00-01\tx\tdisplacement\t1.0abc\n",            /* not a number */
        "propose\tt6\tMDL-00-02\tx\tdisplacement\t1\n",                 /* unknown point */
        "propose\tt7\tMDL-00-01\ty\tdisplacement\t1\n",                 /* no actuator there */
        "propose\tt8\tMDL-00-01\tx\tforce\t1\n",                        /* force control */
        "propose\tt9\tx\tdisplacement\t1\n",                            /* no point */
        "propose\tt10\tMDL-00-01\tx\tdisplacement\n",                   /* no value */
        "propose\tt11\tMDL-00-01\tw\tdisplacement\t1\n",                /* not a geom */
        "propose\tt12\n",                                               /* nothing */
        "get-control-point\tt13\tMDL-00-09\n",                          /* unknown point */
        "frobnicate\tt14\n",                                            /* unknown command */
        "propose\tt15\tMDL-00-01\tx\tdisplacement\t4\tz\trotation\t1\n" /* one bad value */
    };
    const int nbad = (int)(sizeof bad / sizeof bad[0]);
    for (int i = 0; i < nbad; i++) lab_feed(&L, bad[i], strlen(bad[i]), 4096);
    lab_feed(&L, "execute\tt15\n", strlen("execute\tt15\n"),
             4096); /* nothing was accepted: nothing moves */
    assert_int_equal(L.moves, 0);
    char *line = L.replies;
    for (int i = 0; i < nbad; i++) {
        char want[16];
        snprintf(want, sizeof want, "NOK\t1\tt%d\t", i + 1);
        assert_memory_equal(line, want, strlen(want));
        line = strchr(line, '\n') + 1;
    }
    assert_string_equal(line, "OK\t0\tt15\texecute\tDone\n");
    assert_non_null(strstr(L.replies, "actuator a1 (MDL-00-01 x displacement) target 5.0000001 is "
                                      "beyond its stroke +-5"));
    /* at the stroke exactly: accepted */
    FEED(&L, "propose\tt16\tMDL-00-01\tx\tdisplacement\t5\tz\trotation\t-0.01\n", 4096);
    FEED(&L, "execute\tt16\n", 4096);
    assert_int_equal(L.moves, 1);
    assert_true(L.x[0] == 5.0 && L.x[1] == -0.01);
    /* a move the site could not make: NOK with the site's reason */
    FEED(&L, "propose\tt17\tMDL-00-01\tx\tdisplacement\t1\n", 4096);
    hs_nees_action a;
    char l1[] = "execute\tt17";
    hs_nees_session_line(L.s, l1, &a);
    assert_int_equal(a.kind, HS_NEES_ACT_MOVE);
    char l2[] = "get-control-point\tdummy\tMDL-00-01";
    hs_nees_action b;
    hs_nees_session_line(L.s, l2, &b); /* while moving: refused, one request at a time */
    assert_true(b.declined);
    hs_nees_session_moved(L.s, NULL, NULL, HS_ELIMIT, "a safety limit tripped", &b);
    assert_int_equal(b.nlines, 1);
    assert_string_equal(b.line[0], "NOK\t1\tt17\ta safety limit tripped\n");
    lab_close(&L);
}

static void test_lines_overlong(void **state)
{
    (void)state;
    hs_nees_config cfg;
    config_2dof(&cfg);
    lab L;
    lab_open(&L, &cfg, NULL);
    const size_t n = HS_NEES_MAX_LINE + 100;
    char *big = malloc(n + 40);
    memset(big, 'a', n);
    memcpy(big + n, "\nopen-session\tx\n", 16);
    lab_feed(&L, big, n + 16, 5000);
    free(big);
    assert_string_equal(L.replies, "NOK\t1\tdummy\tline longer than 65536 bytes: refused\n"
                                   "OK\t0\tx\tOpen Session Succeeded.\n");
    lab_close(&L);
}

/* The parser on replies as real labs write them (§9 D, the ExternalSensors line). */
static void test_points_om(void **state)
{
    (void)state;
    char line[] =
        "OK\t0\ttrans20090501170119.78\tMDL-00-01:ExternalSensors\t\t1_LBCB2_y\texternal\t"
        "9.595676E-1\t6_LBCB1_x\texternal\t1.195579E+0\t";
    hs_nees_msg m;
    hs_nees_split(line, &m);
    assert_string_equal(m.raw_cmd, "OK");
    assert_int_equal(m.nf, 9);
    hs_nees_triplet t[8];
    char why[128];
    assert_int_equal(hs_nees_points(m.f + 2, m.nf - 2, t, 8, why, sizeof why), 2);
    assert_int_equal(t[0].dof, -1);
    assert_string_equal(t[0].name, "1_LBCB2_y");
    assert_true(t[1].v == 1.195579);
    char nok[] = "NOT OK\t1\tdummy\tbad";
    hs_nees_split(nok, &m);
    assert_string_equal(m.raw_cmd, "NOT"); /* the Java library's: not OK */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transcript_a),     cmocka_unit_test(test_transcript_b),
        cmocka_unit_test(test_transcript_c),     cmocka_unit_test(test_quirks),
        cmocka_unit_test(test_points_and_limit), cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_lines_overlong),   cmocka_unit_test(test_points_om),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
