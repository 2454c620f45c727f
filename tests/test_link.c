/* Link models: delay distributions against their theory (moments, quantiles, survival), histogram
 * files, outages, in-order delivery, losses, reproducibility, Mosqueda et al. 2004 step timing. */
#include "hs_test.h"

#include "hysim/link.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NS 200000

static hs_delay_dist *make_dist(const char *type, const char *k1, double v1, const char *k2,
                                double v2)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    if (k1) hs_options_set_num(o, k1, v1);
    if (k2) hs_options_set_num(o, k2, v2);
    hs_delay_dist *d = NULL;
    assert_int_equal(hs_delay_dist_create(NULL, type, o, &d), 0);
    hs_options_destroy(&o);
    return d;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ln X ~ N(ln median, sigma^2): the mean of ln X within 3 sigma/sqrt(n), its standard deviation
 * within 3 sigma/sqrt(2n), the sample median within 3 SE (SE = median sigma sqrt(2 pi)/(2
 * sqrt n), from the density at the median). */
static void test_lognormal_moments(void **state)
{
    (void)state;
    const double median = 0.205, sigma = 0.75;
    hs_delay_dist *d = make_dist("lognormal", "median", median, "sigma", sigma);
    double *x = malloc(NS * sizeof *x);
    assert_non_null(x);
    hs_rng rng;
    hs_rng_seed(&rng, 2024, 1);
    double s1 = 0.0, s2 = 0.0;
    for (int i = 0; i < NS; i++) {
        x[i] = hs_delay_dist_sample(d, &rng);
        const double l = log(x[i]);
        s1 += l;
        s2 += l * l;
    }
    const double n = NS, mean_log = s1 / n;
    const double sd_log = sqrt((s2 - n * mean_log * mean_log) / (n - 1.0));
    HS_ASSERT_NEAR(mean_log, log(median), 3.0 * sigma / sqrt(n));
    HS_ASSERT_NEAR(sd_log, sigma, 3.0 * sigma / sqrt(2.0 * n));
    qsort(x, NS, sizeof *x, cmp_double);
    const double smedian = 0.5 * (x[NS / 2 - 1] + x[NS / 2]);
    HS_ASSERT_NEAR(smedian, median, 3.0 * median * sigma * sqrt(2.0 * HS_PI) / (2.0 * sqrt(n)));
    /* the mean: median exp(sigma^2 / 2) */
    HS_ASSERT_NEAR(hs_delay_dist_mean(d), median * exp(0.5 * sigma * sigma), 1e-15);
    free(x);
    hs_delay_dist_destroy(&d);
}

/* The sample is median * exp(sigma Z) with Z the generator's next normal deviate: compare with
 * libm's exp (the library uses its own portable exp) to a few ulp. */
static void test_lognormal_portable_exp(void **state)
{
    (void)state;
    hs_delay_dist *d = make_dist("lognormal", "median", 1.0, "sigma", 3.0);
    hs_rng a, b;
    hs_rng_seed(&a, 99, 7);
    b = a;
    for (int i = 0; i < 20000; i++) {
        const double z = hs_rng_normal(&b);
        const double ref = exp(3.0 * z), got = hs_delay_dist_sample(d, &a);
        if (fabs(got - ref) > 4e-16 * ref)
            fail_msg("exp(%.17g): %.17g vs %.17g", 3.0 * z, got, ref);
    }
    hs_delay_dist_destroy(&d);
}

/* Uniform(a, b): mean (a+b)/2, variance (b-a)^2/12; SE of the variance from mu4 = (b-a)^4/80. */
static void test_uniform_moments(void **state)
{
    (void)state;
    const double a = 0.1, b = 0.5, w = b - a;
    hs_delay_dist *d = make_dist("uniform", "min", a, "max", b);
    hs_rng rng;
    hs_rng_seed(&rng, 5, 5);
    double s1 = 0.0, s2 = 0.0, lo = 1e9, hi = -1e9;
    for (int i = 0; i < NS; i++) {
        const double x = hs_delay_dist_sample(d, &rng);
        s1 += x;
        s2 += x * x;
        lo = fmin(lo, x);
        hi = fmax(hi, x);
    }
    const double n = NS, mean = s1 / n, var = (s2 - n * mean * mean) / (n - 1.0);
    const double var_th = w * w / 12.0;
    HS_ASSERT_NEAR(mean, 0.3, 3.0 * sqrt(var_th / n));
    HS_ASSERT_NEAR(var, var_th, 3.0 * sqrt((pow(w, 4) / 80.0 - var_th * var_th) / n));
    assert_true(lo >= a && hi < b);
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, 0.2), 0.75, 1e-15);
    HS_ASSERT_NEAR(hs_delay_dist_mean(d), 0.3, 1e-15);
    hs_delay_dist_destroy(&d);
    /* bad parameters */
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "min", 0.5);
    hs_options_set_num(o, "max", 0.1);
    assert_int_equal(hs_delay_dist_create(NULL, "uniform", o, &d), HS_EINPUT);
    assert_null(d);
    assert_int_equal(hs_delay_dist_create(NULL, "gamma", o, &d), HS_ENOTFOUND);
    hs_options_destroy(&o);
}

static const char *write_file(char *path, size_t len, const char *name, const char *text)
{
    const char *base = getenv("HS_BINARY_DIR");
    snprintf(path, len, "%s/test_link_%ld_%s", base && base[0] ? base : "/tmp", (long)getpid(),
             name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Two bins, centres 0.1 and 0.3 with counts 30 and 70: bins [0, 0.2) and [0.2, 0.4), uniform
 * inside. Frequencies 0.3 / 0.7 within 3 SE; mean in each bin its centre; overall mean 0.24. */
static void test_empirical_two_bins(void **state)
{
    (void)state;
    char path[512], path2[512];
    write_file(path, sizeof path, "h2.txt", "# delay  count\n0.1 30\n\n0.3, 70   # second bin\n");
    write_file(path2, sizeof path2, "h2p.txt", "0.1 0.3\n0.3 0.7\n");
    hs_delay_dist *d = NULL, *dp = NULL;
    assert_int_equal(hs_delay_dist_read_histogram(NULL, path, &d), 0);
    assert_int_equal(hs_delay_dist_read_histogram(NULL, path2, &dp), 0);
    assert_string_equal(hs_delay_dist_type(d), "empirical");
    HS_ASSERT_NEAR(hs_delay_dist_mean(d), 0.24, 1e-15);
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, 0.2), 0.7, 1e-15);
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, 0.1), 0.85, 1e-15);
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, 0.35), 0.175, 1e-15);
    assert_true(hs_delay_dist_survival(d, 0.4) == 0.0);
    hs_rng rng, rngp;
    hs_rng_seed(&rng, 77, 3);
    rngp = rng;
    double n1 = 0, m1 = 0, m2 = 0;
    for (int i = 0; i < NS; i++) {
        const double x = hs_delay_dist_sample(d, &rng);
        /* probabilities instead of counts: the same distribution */
        HS_ASSERT_NEAR(hs_delay_dist_sample(dp, &rngp), x, 1e-15);
        assert_true(x >= 0.0 && x < 0.4);
        if (x < 0.2) {
            n1 += 1;
            m1 += x;
        } else {
            m2 += x;
        }
    }
    const double n = NS, f1 = n1 / n;
    HS_ASSERT_NEAR(f1, 0.3, 3.0 * sqrt(0.3 * 0.7 / n));
    /* inside a bin of width 0.2 the standard deviation is 0.2/sqrt(12) */
    HS_ASSERT_NEAR(m1 / n1, 0.1, 3.0 * 0.2 / sqrt(12.0 * n1));
    HS_ASSERT_NEAR(m2 / (n - n1), 0.3, 3.0 * 0.2 / sqrt(12.0 * (n - n1)));
    hs_delay_dist_destroy(&d);
    hs_delay_dist_destroy(&dp);
    remove(path);
    remove(path2);
}

static void expect_bad_histogram(const char *text, const char *where, const char *what)
{
    char path[512], want[600];
    write_file(path, sizeof path, "bad.txt", text);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_delay_dist *d = NULL;
    assert_int_equal(hs_delay_dist_read_histogram(ctx, path, &d), HS_EINPUT);
    assert_null(d);
    snprintf(want, sizeof want, "%s%s", path, where);
    if (!strstr(hs_ctx_message(ctx), want) || !strstr(hs_ctx_message(ctx), what))
        fail_msg("message '%s' lacks '%s' / '%s'", hs_ctx_message(ctx), want, what);
    hs_ctx_destroy(&ctx);
    remove(path);
}

static void test_empirical_bad_input(void **state)
{
    (void)state;
    expect_bad_histogram("0.1 3\n0.2 abc\n", ":2:", "two numbers");
    expect_bad_histogram("# c\n0.1 3\n0.3 4\n0.2 1\n", ":4:", "increase");
    expect_bad_histogram("0.1 3\n0.2 -1\n", ":2:", ">= 0");
    expect_bad_histogram("0.1 3 7\n0.2 1\n", ":1:", "unexpected text");
    expect_bad_histogram("0.1 3\n", ":1:", "at least two rows");
    expect_bad_histogram("0.1 0\n0.2 0\n", "", "positive total");
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_delay_dist *d = NULL;
    assert_int_equal(hs_delay_dist_read_histogram(ctx, "/nonexistent/h.txt", &d), HS_EIO);
    assert_non_null(strstr(hs_ctx_message(ctx), "/nonexistent/h.txt"));
    hs_ctx_destroy(&ctx);
}

static hs_ctx *link_ctx; /* outlives the links of a test (they keep it for messages) */

static hs_link *make_link(hs_options *o, uint64_t seed, uint64_t id)
{
    hs_link *l = NULL;
    const int rc = hs_link_create(link_ctx, o, seed, id, &l);
    if (rc) fail_msg("link: %s", hs_ctx_message(link_ctx));
    return l;
}

#define S(x) hs_vtime_from_seconds(x)

/* Constant 0.05 s transit, outage [1, 2) s: anything whose arrival falls in it arrives at 2 s,
 * in sending order (same time: the event queue keeps push order). */
static void test_outages(void **state)
{
    (void)state;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "delay", "constant");
    hs_options_set_num(o, "value", 0.05);
    const double win[4] = {1.0, 2.0, 3.0, INFINITY};
    hs_options_set_list(o, "outages", win, 4);
    hs_link *l = make_link(o, 1, 0);
    hs_vclock *c = NULL;
    assert_int_equal(hs_vclock_create(NULL, 16, &c), 0);
    const double send[8] = {0.5, 0.97, 1.1, 1.2, 1.5, 1.96, 2.5, 3.5};
    const double arrive[8] = {0.55, 2.0, 2.0, 2.0, 2.0, 2.01, 2.55, -1.0};
    const int held[8] = {0, 1, 1, 1, 1, 0, 0, 1};
    for (uint32_t i = 0; i < 8; i++) {
        hs_link_delivery d;
        assert_int_equal(hs_link_send(l, S(send[i]), &d), 0);
        if (arrive[i] < 0.0) {
            assert_true(d.arrival == HS_VTIME_NEVER); /* disconnected for good */
        } else {
            if (d.arrival != S(arrive[i]))
                fail_msg("message %u: arrival %.9f s, expected %.9f", i,
                         hs_vtime_seconds(d.arrival), arrive[i]);
            assert_int_equal(hs_vclock_push(c, d.arrival, 0, 0, i), 0);
        }
        assert_int_equal(d.held & HS_LINK_HELD_OUTAGE, held[i]);
    }
    hs_vevent e;
    for (uint32_t i = 0; i < 7; i++) {
        assert_int_equal(hs_vclock_pop(c, &e), 1);
        assert_true(e.payload == i);
    }
    hs_link_stats st;
    hs_link_get_stats(l, &st);
    assert_true(st.held_outage == 5 && st.messages == 8);
    hs_link_destroy(&l);
    hs_vclock_destroy(&c);
    /* overlapping windows are refused */
    const double bad[4] = {1.0, 2.0, 1.5, 3.0};
    hs_options_set_list(o, "outages", bad, 4);
    assert_int_equal(hs_link_create(NULL, o, 1, 0, &l), HS_EINPUT);
    hs_options_destroy(&o);
}

/* Uniform(0, 1) s transit, one message every 10 ms: a message never overtakes an earlier one;
 * each arrives when its own transit ends or with the previous one, whichever is later. */
static void test_in_order(void **state)
{
    (void)state;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "delay", "uniform");
    hs_options_set_num(o, "min", 0.0);
    hs_options_set_num(o, "max", 1.0);
    hs_link *l = make_link(o, 42, 3);
    const uint64_t allocs = hs_alloc_count();
    hs_vtime prev = 0;
    int overtaken = 0;
    for (int i = 0; i < 20000; i++) {
        hs_link_delivery d;
        const hs_vtime t = (hs_vtime)i * S(0.01);
        assert_int_equal(hs_link_send(l, t, &d), 0);
        const hs_vtime own = t + d.transit;
        if (d.arrival < prev) fail_msg("message %d overtook an earlier one", i);
        if (d.arrival != (own > prev ? own : prev)) fail_msg("message %d held too long", i);
        overtaken += own < prev;
        prev = d.arrival;
    }
    assert_true(hs_alloc_count() == allocs);
    /* Without the rule message i would overtake when U_i < M = max_k (U_(i-k) - 0.01 k), so the
     * held fraction is E[max(M, 0)] = int_0^1 (1 - prod_k min(1, y + 0.01 k)) dy (midpoint rule).
     * Successive indicators are correlated: a tolerance of 0.03 (about 10 binomial SE). */
    double expected = 0.0;
    for (int j = 0; j < 20000; j++) {
        const double y = (j + 0.5) / 20000.0;
        double prod = 1.0;
        for (int k = 1; k <= 100; k++) prod *= fmin(1.0, y + 0.01 * k);
        expected += (1.0 - prod) / 20000.0;
    }
    HS_ASSERT_NEAR(overtaken / 20000.0, expected, 0.03);
    hs_link_stats st;
    hs_link_get_stats(l, &st);
    assert_true(st.held_order == (uint64_t)overtaken);
    assert_int_equal(hs_link_send(l, 0, &(hs_link_delivery){0}), HS_EINVAL); /* time went back */
    hs_link_destroy(&l);
    hs_options_destroy(&o);
}

/* Loss p = 0.2, rto 0.25 s, constant transit 0.03 s: each message arrives after exactly
 * transit + losses * rto; the fraction of lost transmissions is p (binomial SE), losses per
 * message p / (1 - p) (geometric). */
static void test_loss(void **state)
{
    (void)state;
    const double p = 0.2;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_num(o, "value", 0.03);
    hs_options_set_num(o, "loss", p);
    hs_options_set_num(o, "rto", 0.25);
    hs_link *l = make_link(o, 9, 1);
    const int n = 50000;
    for (int i = 0; i < n; i++) {
        hs_link_delivery d;
        const hs_vtime t = (hs_vtime)i * S(10.0);
        assert_int_equal(hs_link_send(l, t, &d), 0);
        if (d.arrival - t != S(0.03) + (hs_vtime)d.losses * S(0.25))
            fail_msg("message %d: %lld ns with %d losses", i, (long long)(d.arrival - t), d.losses);
    }
    hs_link_stats st;
    hs_link_get_stats(l, &st);
    const double tx = (double)st.transmissions, lost = (double)st.losses;
    assert_true(st.transmissions == st.messages + st.losses);
    HS_ASSERT_NEAR(lost / tx, p, 3.0 * sqrt(p * (1 - p) / tx));
    /* losses per message: geometric, mean p/(1-p), variance p/(1-p)^2 */
    HS_ASSERT_NEAR(lost / n, p / (1 - p), 3.0 * sqrt(p / ((1 - p) * (1 - p)) / n));
    hs_link_destroy(&l);
    /* too many losses in a row break the link */
    hs_options_set_num(o, "loss", 0.9);
    hs_options_set_num(o, "max_retries", 0);
    l = make_link(o, 9, 1);
    int rc = 0, i = 0;
    hs_link_delivery d;
    for (; i < 1000 && rc == 0; i++) rc = hs_link_send(l, (hs_vtime)i, &d);
    assert_int_equal(rc, HS_ENET);
    assert_true(d.arrival == HS_VTIME_NEVER);
    assert_int_equal(hs_link_send(l, (hs_vtime)i, &d), HS_ENET);
    hs_link_destroy(&l);
    hs_options_set_num(o, "loss", 1.0);
    assert_int_equal(hs_link_create(NULL, o, 9, 1, &l), HS_EINPUT);
    hs_options_destroy(&o);
}

/* Same (seed, link id): the same deliveries, bit for bit; another id or seed: another sequence. */
static void test_reproducible(void **state)
{
    (void)state;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_options_set_str(o, "delay", "lognormal");
    hs_options_set_num(o, "median", 0.205);
    hs_options_set_num(o, "sigma", 0.75);
    hs_options_set_num(o, "loss", 0.05);
    hs_link *a = make_link(o, 1000, HS_LINK_ID(2, HS_LINK_DOWN));
    hs_link *b = make_link(o, 1000, HS_LINK_ID(2, HS_LINK_DOWN));
    hs_link *c = make_link(o, 1000, HS_LINK_ID(2, HS_LINK_UP));
    hs_link *e = make_link(o, 1001, HS_LINK_ID(2, HS_LINK_DOWN));
    int same_c = 0, same_e = 0;
    for (int i = 0; i < 1000; i++) {
        hs_link_delivery da, db, dc, de;
        const hs_vtime t = (hs_vtime)i * S(1.2);
        assert_int_equal(hs_link_send(a, t, &da), 0);
        assert_int_equal(hs_link_send(b, t, &db), 0);
        assert_int_equal(hs_link_send(c, t, &dc), 0);
        assert_int_equal(hs_link_send(e, t, &de), 0);
        assert_true(da.arrival == db.arrival && da.transit == db.transit && da.losses == db.losses);
        same_c += dc.transit == da.transit;
        same_e += de.transit == da.transit;
    }
    assert_int_equal(same_c, 0);
    assert_int_equal(same_e, 0);
    hs_link_destroy(&a);
    hs_link_destroy(&b);
    hs_link_destroy(&c);
    hs_link_destroy(&e);
    hs_options_destroy(&o);
}

/* P(X > x) for a lognormal: exact values at the median (1/2) and at median e^sigma
 * (Phi(-1) = 0.158655253931457); sampled fractions agree within 3 SE at the Mosqueda et al. 2004
 * thresholds. */
static void test_lognormal_survival(void **state)
{
    (void)state;
    const double m = 0.205, s = 0.75;
    hs_delay_dist *d = make_dist("lognormal", "median", m, "sigma", s);
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, m), 0.5, 1e-15);
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, m * exp(s)), 0.158655253931457, 1e-14);
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, m * exp(-2.0 * s)), 0.977249868051821, 1e-14);
    const double xs[4] = {0.7, 0.72, 0.96, 1.2};
    int above[4] = {0};
    hs_rng rng;
    hs_rng_seed(&rng, 31, 4);
    for (int i = 0; i < NS; i++) {
        const double x = hs_delay_dist_sample(d, &rng);
        for (int k = 0; k < 4; k++) above[k] += x > xs[k];
    }
    for (int k = 0; k < 4; k++) {
        const double pth = hs_delay_dist_survival(d, xs[k]);
        HS_ASSERT_NEAR(above[k] / (double)NS, pth, 3.0 * sqrt(pth * (1 - pth) / NS));
    }
    /* Mosqueda et al. 2004: about 95 % of the delays within 0.7 s */
    HS_ASSERT_NEAR(hs_delay_dist_survival(d, 0.7), 0.05, 0.002);
    hs_delay_dist_destroy(&d);
}

/* Thresholds of Mosqueda et al. 2004 (W = 1.2 s): slow at 0.72 s; hold at 1.2 s when the slow state
 * moves at half speed, at 0.96 s (0.8 W) at full speed. The timing estimate is exact for one part;
 * for a sum of two U(0, 1) (triangular) P(> 0.5) = 7/8 and P(> 1.5) = 1/8. */
static void test_step_timing(void **state)
{
    (void)state;
    double ts = 0, th = 0;
    hs_step_timing_thresholds(1.2, 0.6, 0.8, 0.5, &ts, &th);
    HS_ASSERT_NEAR(ts, 0.72, 1e-15);
    HS_ASSERT_NEAR(th, 1.2, 1e-15);
    hs_step_timing_thresholds(1.2, 0.6, 0.8, 1.0, &ts, &th);
    HS_ASSERT_NEAR(th, 0.96, 1e-15);
    hs_delay_dist *ln = make_dist("lognormal", "median", 0.205, "sigma", 0.75);
    hs_delay_dist *zero = make_dist("constant", "value", 0.0, NULL, 0);
    hs_step_timing exact, sampled;
    const hs_delay_dist *one[1] = {ln}, *two[2] = {ln, zero};
    assert_int_equal(hs_step_timing_estimate(NULL, one, 1, 0.72, 1.2, 0, 0, &exact), 0);
    assert_int_equal(exact.analytic, 1);
    /* 0.5 erfc(ln(x/m) / (s sqrt 2)) evaluated independently of the library */
    HS_ASSERT_NEAR(exact.p_slow, 0.5 * erfc(log(0.72 / 0.205) / (0.75 * sqrt(2.0))), 1e-15);
    assert_int_equal(hs_step_timing_estimate(NULL, two, 2, 0.72, 1.2, 100000, 8, &sampled), 0);
    assert_int_equal(sampled.analytic, 0);
    HS_ASSERT_NEAR(sampled.p_slow, exact.p_slow, 3.0 * sampled.se_slow);
    HS_ASSERT_NEAR(sampled.p_hold, exact.p_hold, 3.0 * sampled.se_hold);
    hs_delay_dist *u = make_dist("uniform", "min", 0.0, "max", 1.0);
    const hs_delay_dist *uu[2] = {u, u};
    assert_int_equal(hs_step_timing_estimate(NULL, uu, 2, 0.5, 1.5, 100000, 8, &sampled), 0);
    HS_ASSERT_NEAR(sampled.p_slow, 0.875, 3.0 * sqrt(0.875 * 0.125 / 100000));
    HS_ASSERT_NEAR(sampled.p_hold, 0.125, 3.0 * sqrt(0.875 * 0.125 / 100000));
    hs_delay_dist_destroy(&ln);
    hs_delay_dist_destroy(&zero);
    hs_delay_dist_destroy(&u);
}

static void test_compute_model(void **state)
{
    (void)state;
    hs_options *o = NULL;
    hs_options_create(&o);
    hs_compute_model *m = NULL;
    assert_int_equal(hs_compute_model_create(NULL, o, 1, 0, &m), 0); /* constant 0 */
    assert_true(hs_compute_model_sample(m) == 0);
    hs_compute_model_destroy(&m);
    hs_options_set_num(o, "value", 0.01);
    assert_int_equal(hs_compute_model_create(NULL, o, 1, 0, &m), 0);
    assert_true(hs_compute_model_sample(m) == INT64_C(10000000));
    hs_compute_model_destroy(&m);
    hs_options_set_str(o, "type", "lognormal");
    hs_options_set_num(o, "median", 0.02);
    hs_options_set_num(o, "sigma", 0.3);
    hs_compute_model *m2 = NULL;
    assert_int_equal(hs_compute_model_create(NULL, o, 5, 1, &m), 0);
    assert_int_equal(hs_compute_model_create(NULL, o, 5, 1, &m2), 0);
    int below = 0;
    for (int i = 0; i < 20000; i++) {
        const hs_vtime a = hs_compute_model_sample(m);
        assert_true(a == hs_compute_model_sample(m2));
        below += a < INT64_C(20000000);
    }
    HS_ASSERT_NEAR(below / 20000.0, 0.5, 3.0 * sqrt(0.25 / 20000));
    hs_compute_model_destroy(&m);
    hs_compute_model_destroy(&m2);
    hs_options_set_str(o, "type", "uniform");
    assert_int_equal(hs_compute_model_create(NULL, o, 5, 1, &m), HS_EINPUT);
    hs_options_destroy(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lognormal_moments),
        cmocka_unit_test(test_lognormal_portable_exp),
        cmocka_unit_test(test_uniform_moments),
        cmocka_unit_test(test_empirical_two_bins),
        cmocka_unit_test(test_empirical_bad_input),
        cmocka_unit_test(test_outages),
        cmocka_unit_test(test_in_order),
        cmocka_unit_test(test_loss),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_lognormal_survival),
        cmocka_unit_test(test_step_timing),
        cmocka_unit_test(test_compute_model),
    };
    hs_ctx_create(&link_ctx);
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    hs_ctx_destroy(&link_ctx);
    return failed;
}
