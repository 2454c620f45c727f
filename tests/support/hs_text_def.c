/* Test definitions from YAML text written in the tests. */
#include "hs_test.h"

#include "hs_text_def.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hs_test_def *hs_test_load_text(hs_ctx *ctx, const char *text, const char *name)
{
    hs_test_def *def = NULL;
    int rc = hs_testfile_load_string(ctx, text, strlen(text), name, &def);
    if (rc) fprintf(stderr, "load failed: %s\n", hs_ctx_message(ctx));
    assert_int_equal(rc, 0);
    assert_non_null(def);
    return def;
}

char *hs_test_substitute(const char *text, const char *find, const char *replace)
{
    const char *at = strstr(text, find);
    assert_non_null(at);
    const size_t head = (size_t)(at - text), flen = strlen(find), rlen = strlen(replace);
    char *out = malloc(strlen(text) - flen + rlen + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    memcpy(out + head, replace, rlen);
    strcpy(out + head + rlen, at + flen);
    return out;
}

void hs_test_refused_tail(const char *base, const char *marker, const char *tail, int line,
                          const char *phrase)
{
    const char *at = strstr(base, marker);
    assert_non_null(at);
    const size_t head = (size_t)(at - base), mlen = strlen(marker), tlen = strlen(tail);
    char *text = malloc(head + mlen + tlen + 1);
    assert_non_null(text);
    memcpy(text, base, head);
    memcpy(text + head, marker, mlen);
    memcpy(text + head + mlen, tail, tlen + 1);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    assert_int_equal(hs_testfile_load_string(ctx, text, strlen(text), "bad.yaml", &def), HS_EINPUT);
    const char *msg = hs_ctx_message(ctx);
    print_message("    %s\n", msg);
    char where[32];
    snprintf(where, sizeof where, "bad.yaml:%d:", line);
    assert_non_null(strstr(msg, where));
    assert_non_null(strstr(msg, phrase));
    hs_ctx_destroy(&ctx);
    free(text);
}

int hs_test_bad_cases(hs_ctx *ctx, const char *base, const char *name, const hs_bad_case *cases,
                      size_t ncases)
{
    int failures = 0;
    for (size_t i = 0; i < ncases; i++) {
        const hs_bad_case *c = &cases[i];
        char *text = c->find ? hs_test_substitute(base, c->find, c->replace) : strdup(c->replace);
        assert_non_null(text);
        hs_test_def *def = NULL;
        hs_ctx_clear(ctx);
        const int rc = hs_testfile_load_string(ctx, text, strlen(text), name, &def);
        char prefix[4400];
        snprintf(prefix, sizeof prefix, "%s:%s: ", name, c->where);
        const char *msg = hs_ctx_message(ctx);
        if (rc != HS_EINPUT || def || strncmp(msg, prefix, strlen(prefix)) != 0 ||
            !strstr(msg, c->phrase)) {
            fprintf(stderr, "case %zu: rc %d, expected prefix '%s' and '%s', got:\n  %s\n", i, rc,
                    prefix, c->phrase, msg);
            failures++;
        }
        hs_test_def_destroy(&def);
        free(text);
    }
    return failures;
}
