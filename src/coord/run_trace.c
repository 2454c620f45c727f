/* A run's trace (hysim/run_trace.h, docs/outputs.md "Trace"): each input read once, in chunks,
 * through libsodium's SHA-256; the test file and the Tcl scripts kept as text for results.h5;
 * a key file fingerprinted (SHA-256 of a fixed label and the key's 32 bytes), never copied.
 * Paths are absolute (realpath) when the file exists. */
#define _XOPEN_SOURCE 700 /* gethostname, realpath */
#include "hysim/run_trace.h"

#include "../base/regular_file.h"
#include "hysim/hysim.h"
#include "hysim/secure.h"

#include <limits.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HS_TRACE_MAX_TEXT (16u << 20) /* the largest text embedded (the test file's limit) */

typedef struct trace_store {
    hs_run_trace pub; /* first: the public view */
    char version[32], build[192], host[256], start[24], end[24];
    char *resumed;
    hs_run_input *inputs;
    int cap;
    char **accepted;
} trace_store;

void hs_run_trace_time(long long t, char *buf, size_t cap)
{
    const time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || !strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, cap, "%s", "");
}

/* How this program was built: compiler, assertions, sanitizers. */
static void build_string(char *buf, size_t cap)
{
#if defined(__clang__)
    const char *compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *compiler = "gcc " __VERSION__;
#else
    const char *compiler = "an unknown compiler";
#endif
    const char *san = "";
#if defined(__SANITIZE_ADDRESS__)
    san = ", AddressSanitizer";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    san = ", AddressSanitizer";
#endif
#endif
#ifdef NDEBUG
    const char *kind = "optimised (NDEBUG)";
#else
    const char *kind = "assertions on";
#endif
    char name[128];
    snprintf(name, sizeof name, "%s", compiler);
    for (size_t n = strlen(name); n > 0 && name[n - 1] == ' '; n--) name[n - 1] = '\0';
    snprintf(buf, cap, "%s, %s%s", name, kind, san);
}

static void hex(const unsigned char *h, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[h[i] >> 4];
        out[2 * i + 1] = digits[h[i] & 15];
    }
    out[2 * n] = '\0';
}

/* size and SHA-256 of path, and its text when keep is set (and it is not too large). */
static void hash_file(hs_ctx *ctx, const char *path, int keep, hs_run_input *in, char **text)
{
    FILE *f = NULL;
    uint64_t size = 0;
    in->size = -1;
    in->sha256[0] = '\0';
    *text = NULL;
    if (hs_fopen_regular(ctx, path, &f, &size)) return;
    crypto_hash_sha256_state st;
    crypto_hash_sha256_init(&st);
    unsigned char buf[65536];
    char *all = keep && size <= HS_TRACE_MAX_TEXT ? hs_malloc((size_t)size + 1) : NULL;
    uint64_t got = 0;
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0; got += n) {
        crypto_hash_sha256_update(&st, buf, n);
        if (all && got + n <= size) memcpy(all + got, buf, n);
    }
    const int bad = ferror(f);
    fclose(f);
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&st, h);
    if (bad || (all && got != size)) {
        hs_free(all);
        return;
    }
    hex(h, sizeof h, in->sha256);
    in->size = (int64_t)got;
    if (all) all[got] = '\0';
    *text = all;
}

/* A key file: the SHA-256 of "hysim key fingerprint" and the key's 32 bytes. */
static void fingerprint_key(hs_ctx *ctx, const char *path, hs_run_input *in)
{
    FILE *f = NULL;
    uint64_t size = 0;
    in->size = -1;
    in->sha256[0] = '\0';
    if (hs_fopen_regular(ctx, path, &f, &size)) return;
    uint8_t raw[256], key[HS_SECURE_KEY_SIZE];
    const size_t n = fread(raw, 1, sizeof raw, f);
    fclose(f);
    if (hs_secure_key_parse(ctx, raw, n, key) == 0) {
        static const char label[] = "hysim key fingerprint";
        crypto_hash_sha256_state st;
        unsigned char h[crypto_hash_sha256_BYTES];
        crypto_hash_sha256_init(&st);
        crypto_hash_sha256_update(&st, (const unsigned char *)label, sizeof label - 1);
        crypto_hash_sha256_update(&st, key, sizeof key);
        crypto_hash_sha256_final(&st, h);
        hex(h, sizeof h, in->sha256);
        in->size = 0;
    }
    sodium_memzero(raw, sizeof raw);
    sodium_memzero(key, sizeof key);
}

enum { INPUT_FILE, INPUT_TEXT, INPUT_KEY };

static int add_input(hs_ctx *ctx, trace_store *s, const char *role, const char *given, int how)
{
    char resolved[PATH_MAX]; /* the absolute path: the trace outlives the working folder */
    const char *path = realpath(given, resolved) ? resolved : given;
    for (int i = 0; i < s->pub.ninputs; i++) /* a file read twice is listed once */
        if (strcmp(s->inputs[i].path, path) == 0) return 0;
    if (s->pub.ninputs == s->cap) {
        const int cap = s->cap ? 2 * s->cap : 8;
        hs_run_input *grown = hs_realloc(s->inputs, (size_t)cap * sizeof *grown);
        if (!grown) return HS_ENOMEM;
        s->inputs = grown;
        s->cap = cap;
    }
    hs_run_input *in = &s->inputs[s->pub.ninputs];
    memset(in, 0, sizeof *in);
    char *text = NULL;
    if (how == INPUT_KEY)
        fingerprint_key(ctx, path, in);
    else
        hash_file(ctx, path, how == INPUT_TEXT, in, &text);
    in->text = text;
    in->role = hs_strdup(role);
    in->path = hs_strdup(path);
    s->pub.ninputs++;
    s->pub.inputs = s->inputs;
    return in->role && in->path ? 0 : HS_ENOMEM;
}

/* The test file, its inputs (the Tcl scripts and what they source as text), each site's key,
 * twin and pre-test files, and a reference run's response.csv. */
static int add_inputs(hs_ctx *ctx, trace_store *s, const hs_test_def *def)
{
    int rc = add_input(ctx, s, "test file", def->path, INPUT_TEXT);
    for (int i = 0; !rc && i < def->ninputs; i++) {
        const char *role = def->input_roles ? def->input_roles[i] : "input";
        const int script = strcmp(role, "structure.model.opensees") == 0 ||
                           strcmp(role, "structure.model.opensees: source") == 0;
        rc = add_input(ctx, s, role, def->inputs[i], script ? INPUT_TEXT : INPUT_FILE);
    }
    char role[160];
    for (int k = 0; !rc && k < def->nsites; k++) {
        const hs_site_config *site = &def->sites[k];
        if (site->key[0]) {
            snprintf(role, sizeof role, "sites.%s.key (fingerprint)", site->name);
            rc = add_input(ctx, s, role, site->key, INPUT_KEY);
        }
        if (!rc && site->twin[0]) {
            snprintf(role, sizeof role, "sites.%s.twin", site->name);
            rc = add_input(ctx, s, role, site->twin, INPUT_FILE);
        }
        if (!rc && site->pretest[0]) {
            snprintf(role, sizeof role, "sites.%s.pretest", site->name);
            rc = add_input(ctx, s, role, site->pretest, INPUT_FILE);
        }
    }
    if (!rc && def->reference_run[0]) {
        char path[1100];
        snprintf(path, sizeof path, "%s/response.csv", def->reference_run);
        rc = add_input(ctx, s, "analysis.reference", path, INPUT_FILE);
    }
    return rc;
}

int hs_run_trace_create(hs_ctx *ctx, const hs_test_def *def, hs_run_trace **out)
{
    *out = NULL;
    if (sodium_init() < 0) return hs_fail(ctx, HS_EUNSUPPORTED, "trace: libsodium did not start");
    trace_store *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    snprintf(s->version, sizeof s->version, "%s", HS_VERSION_STRING);
    build_string(s->build, sizeof s->build);
    if (gethostname(s->host, sizeof s->host - 1) != 0) snprintf(s->host, sizeof s->host, "?");
    hs_run_trace_time((long long)time(NULL), s->start, sizeof s->start);
    s->pub = (hs_run_trace){.version = s->version,
                            .build = s->build,
                            .host = s->host,
                            .start = s->start,
                            .end = s->end,
                            .resumed_from = "",
                            .noverrides = def->noverrides,
                            .overrides = (const char *const *)def->overrides,
                            .effective = def->effective ? def->effective : ""};
    /* the loader read these files: one unreadable now is listed with size -1, not refused */
    hs_ctx *quiet = NULL;
    int rc = hs_ctx_create(&quiet);
    if (!rc) rc = add_inputs(quiet, s, def);
    hs_ctx_destroy(&quiet);
    if (rc) {
        hs_run_trace *t = &s->pub;
        hs_run_trace_destroy(&t);
        return rc;
    }
    *out = &s->pub;
    return 0;
}

void hs_run_trace_end(hs_run_trace *t)
{
    trace_store *s = (trace_store *)t;
    if (s) hs_run_trace_time((long long)time(NULL), s->end, sizeof s->end);
}

int hs_run_trace_accept(hs_run_trace *t, const char *warning)
{
    trace_store *s = (trace_store *)t;
    char **grown = hs_realloc(s->accepted, (size_t)(t->naccepted + 1) * sizeof *grown);
    if (!grown) return HS_ENOMEM;
    s->accepted = grown;
    if (!(grown[t->naccepted] = hs_strdup(warning))) return HS_ENOMEM;
    t->naccepted++;
    t->accepted = (const char *const *)s->accepted;
    return 0;
}

int hs_run_trace_resumed(hs_run_trace *t, const char *dir)
{
    trace_store *s = (trace_store *)t;
    hs_free(s->resumed);
    if (!(s->resumed = hs_strdup(dir))) return HS_ENOMEM;
    t->resumed_from = s->resumed;
    return 0;
}

void hs_run_trace_destroy(hs_run_trace **t)
{
    if (!t || !*t) return;
    trace_store *s = (trace_store *)*t;
    for (int i = 0; i < s->pub.ninputs; i++) {
        hs_free((char *)s->inputs[i].role);
        hs_free((char *)s->inputs[i].path);
        hs_free((char *)s->inputs[i].text);
    }
    hs_free(s->inputs);
    for (int i = 0; i < s->pub.naccepted; i++) hs_free(s->accepted[i]);
    hs_free(s->accepted);
    hs_free(s->resumed);
    hs_free(s);
    *t = NULL;
}
