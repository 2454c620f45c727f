/* Test definitions around OpenSees Tcl scripts (hs_tcl_def.h). */
#include "hs_test.h"

#include "hs_tcl_def.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *HEAD = "hysim: 1\nname: t\nunits: {force: kN, length: m, time: s}\n";
static const char *TAIL =
    "ground_motion:\n  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}\n"
    "analysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  steps: 10\n";

void hs_tcl_write_file(const char *dir, const char *name, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

char *hs_tcl_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = calloc(1 << 16, 1);
    assert_non_null(text);
    const size_t got = fread(text, 1, (1 << 16) - 1, f);
    (void)got;
    fclose(f);
    return text;
}

hs_test_def *hs_tcl_load(hs_ctx *ctx, const char *dir, const char *name, const char *body,
                         char *msg, size_t cap)
{
    char text[16384], file[64], path[1200];
    snprintf(text, sizeof text, "%s%s%s", HEAD, body, TAIL);
    snprintf(file, sizeof file, "%s.yaml", name);
    hs_tcl_write_file(dir, file, text);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    hs_test_def *def = NULL;
    const int rc = hs_testfile_load(ctx, path, &def);
    if (msg) snprintf(msg, cap, "%s", rc ? hs_ctx_message(ctx) : "");
    if (rc && !msg) fprintf(stderr, "%s: %s\n", name, hs_ctx_message(ctx));
    return rc ? NULL : def;
}

void hs_tcl_fails(hs_ctx *ctx, const char *dir, const char *tcl, const char *const *want, int n)
{
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    char msg[2048];
    hs_test_def *def = hs_tcl_load(
        ctx, dir, "bad", "structure:\n  model: {opensees: frame.tcl}\n  damping: {none: true}\n",
        msg, sizeof msg);
    if (def) fprintf(stderr, "loaded, expected an error:\n%s\n", tcl);
    assert_null(def);
    for (int i = 0; i < n; i++)
        if (!strstr(msg, want[i])) {
            fprintf(stderr, "message '%s' lacks '%s'\n", msg, want[i]);
            fail();
        }
}
