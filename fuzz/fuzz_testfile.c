/* libFuzzer target: the test file loader on arbitrary bytes. It must never crash or leak, and
 * every input error must name the file with a line and a column. Relative paths point into a
 * folder that does not exist, so the loader reads no files. */
#include "hysim/hysim.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FUZZ_NAME "/nonexistent-hysim-fuzz/fuzz.yaml"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return 0;
    hs_test_def *def = NULL;
    const int rc = hs_testfile_load_string(ctx, (const char *)data, size, FUZZ_NAME, &def);
    if ((rc == 0) != (def != NULL)) __builtin_trap();
    if (rc == HS_EINPUT) {
        /* "FUZZ_NAME:LINE:COL: message" */
        const char *msg = hs_ctx_message(ctx);
        const size_t n = strlen(FUZZ_NAME);
        int line = 0, col = 0, used = 0;
        if (strncmp(msg, FUZZ_NAME, n) != 0 ||
            sscanf(msg + n, ":%d:%d: %n", &line, &col, &used) != 2 || used == 0 || line < 1 ||
            col < 1 || msg[n + (size_t)used] == '\0') {
            fprintf(stderr, "error without a position: %s\n", msg);
            __builtin_trap();
        }
    } else if (rc != 0 && rc != HS_ENOMEM) {
        fprintf(stderr, "unexpected code %d: %s\n", rc, hs_ctx_message(ctx));
        __builtin_trap();
    }
    if (def && (hs_model_ndof(def->model) < 1 || !def->gm || def->steps < 1 || !(def->dt > 0)))
        __builtin_trap();
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    return 0;
}
