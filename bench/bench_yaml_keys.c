/* The YAML duplicate-key check's cost against the number of keys of one mapping: a test file with
 * one mapping of N keys "kI: 1" (no duplicate; the loader then stops at the unknown top-level
 * key, so the time is the parse and the check) for N = 10,000 to 640,000. A linear check keeps
 * the time per key flat: the last column is each row's time per key over the first row's,
 * measured in this run (a pairwise check gave about N / 10,000: 8 at 80,000 keys, where the whole
 * parse took 10 to 60 s). Measured (release, loaded 2-core machine): 0.8 us per key at 10,000,
 * 1.6 us from 80,000 to 640,000 (ratio 2.0 to 2.1: the caches, not the check). Usage:
 * bench_yaml_keys [repeats (default 3)]. */
#include "hysim/hysim.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const int repeats = argc > 1 ? atoi(argv[1]) : 3;
    const size_t sizes[] = {10000, 20000, 40000, 80000, 160000, 320000, 640000};
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return 1;
    double base = 0.0;
    printf("%10s %12s %14s %10s\n", "keys", "best (s)", "per key (us)", "ratio");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = sizes[s];
        char *text = malloc(n * 24 + 16);
        if (!text) return 1;
        size_t len = (size_t)sprintf(text, "m:\n");
        for (size_t i = 0; i < n; i++) len += (size_t)sprintf(text + len, "  k%zu: 1\n", i);
        double best = 1e300;
        for (int r = 0; r < (repeats > 0 ? repeats : 1); r++) {
            hs_test_def *def = NULL;
            const double t0 = now();
            (void)hs_testfile_load_string(ctx, text, len, "bench.yaml", &def);
            const double t = now() - t0;
            if (t < best) best = t;
            hs_test_def_destroy(&def);
        }
        const double per_key = best / (double)n;
        if (s == 0) base = per_key;
        printf("%10zu %12.4f %14.3f %10.2f\n", n, best, 1e6 * per_key, per_key / base);
        free(text);
    }
    hs_ctx_destroy(&ctx);
    return 0;
}
