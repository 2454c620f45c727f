/* The context: last error (code and message) and the logger. */
#include "hysim/base.h"

#include <stdio.h>
#include <string.h>

#define HS_MESSAGE_MAX 1024

struct hs_ctx {
    int code;
    char message[HS_MESSAGE_MAX];
    hs_log_fn log_fn;
    void *log_user;
    hs_log_level log_max;
};

const char *hs_strerror(int code)
{
    switch (code) {
#define HS_X_CASE(name, value, text)                                                               \
    case name:                                                                                     \
        return text;
        HS_ERROR_LIST(HS_X_CASE)
#undef HS_X_CASE
    default:
        return "unknown error";
    }
}

static void hs_log_stderr(void *user, hs_log_level level, const char *message)
{
    (void)user;
    static const char *const names[] = {"error", "warning", "info", "debug"};
    fprintf(stderr, "hysim: %s: %s\n", names[level], message);
}

int hs_ctx_create(hs_ctx **out)
{
    if (!out) return HS_EINVAL;
    hs_ctx *c = hs_calloc(1, sizeof *c);
    if (!c) return HS_ENOMEM;
    c->log_fn = hs_log_stderr;
    c->log_max = HS_LOG_WARN;
    *out = c;
    return 0;
}

void hs_ctx_destroy(hs_ctx **ctx)
{
    if (!ctx || !*ctx) return;
    hs_free(*ctx);
    *ctx = NULL;
}

/* Messages quote files and peers (names, units, a peer's error text): control characters other
 * than newline and tab (an escape sequence would reach the terminal raw) become '?'. */
static void printable(char *s)
{
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) *s = '?';
    }
}

int hs_failv(hs_ctx *ctx, int code, const char *fmt, va_list ap)
{
    if (!ctx) return code;
    /* Format apart first: the arguments may quote the current message ("site x: %s"). */
    char buf[HS_MESSAGE_MAX];
    vsnprintf(buf, sizeof buf, fmt, ap);
    printable(buf);
    ctx->code = code;
    memcpy(ctx->message, buf, sizeof buf);
    return code;
}

int hs_fail(hs_ctx *ctx, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = hs_failv(ctx, code, fmt, ap);
    va_end(ap);
    return rc;
}

const char *hs_ctx_message(const hs_ctx *ctx)
{
    return ctx ? ctx->message : "";
}
int hs_ctx_code(const hs_ctx *ctx)
{
    return ctx ? ctx->code : 0;
}

void hs_ctx_clear(hs_ctx *ctx)
{
    if (!ctx) return;
    ctx->code = 0;
    ctx->message[0] = '\0';
}

void hs_ctx_set_logger(hs_ctx *ctx, hs_log_fn fn, void *user, hs_log_level max_level)
{
    if (!ctx) return;
    ctx->log_fn = fn;
    ctx->log_user = user;
    ctx->log_max = max_level;
}

void hs_log(hs_ctx *ctx, hs_log_level level, const char *fmt, ...)
{
    if (!ctx || !ctx->log_fn || level > ctx->log_max) return;
    char buf[HS_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printable(buf);
    ctx->log_fn(ctx->log_user, level, buf);
}
