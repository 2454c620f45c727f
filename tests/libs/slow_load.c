/* A library that takes 0.3 s to load: its constructor sleeps, then creates the file named by
 * HS_TEST_SLOW_LOAD_MARK. tests/cli/lazy_libs.sh names it as HDF5 (HS_HDF5_LIBRARY) to check
 * that a run shorter than the preload of the result libraries waits for it before exiting
 * (src/results/results_libs.c): the file exists when the program has ended. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((constructor)) static void slow_load(void)
{
    const struct timespec t = {0, 300000000L};
    nanosleep(&t, NULL);
    const char *mark = getenv("HS_TEST_SLOW_LOAD_MARK");
    if (!mark || !mark[0]) return;
    FILE *f = fopen(mark, "w");
    if (f) fclose(f);
}
