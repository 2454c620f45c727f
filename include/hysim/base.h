/* hysim base: error codes, the context (error message, logger), counted allocation. */
#ifndef HYSIM_BASE_H
#define HYSIM_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HS_PRINTF(f, a)
#endif

#define HS_PI 3.14159265358979323846

/* One list of error codes: name, value, sentence. Functions that can fail return 0 or one of these.
 */
#define HS_ERROR_LIST(X)                                                                           \
    X(HS_OK, 0, "success")                                                                         \
    X(HS_ENOMEM, -1, "out of memory")                                                              \
    X(HS_EINVAL, -2, "invalid argument")                                                           \
    X(HS_EINPUT, -3, "invalid input")                                                              \
    X(HS_EIO, -4, "input/output error")                                                            \
    X(HS_ENOTFOUND, -5, "not found")                                                               \
    X(HS_ESINGULAR, -6, "singular matrix")                                                         \
    X(HS_ECONVERGE, -7, "no convergence")                                                          \
    X(HS_EUNSTABLE, -8, "unstable response")                                                       \
    X(HS_ELIMIT, -9, "safety limit reached")                                                       \
    X(HS_ETIMEOUT, -10, "timed out")                                                               \
    X(HS_ENET, -11, "network error")                                                               \
    X(HS_EPROTO, -12, "protocol error")                                                            \
    X(HS_EAUTH, -13, "authentication failed")                                                      \
    X(HS_EABORTED, -14, "aborted")                                                                 \
    X(HS_EUNSUPPORTED, -15, "not supported")

enum hs_error_code {
#define HS_X_ENUM(name, value, text) name = value,
    HS_ERROR_LIST(HS_X_ENUM)
#undef HS_X_ENUM
};

/* The sentence for an error code ("unknown error" for anything else). */
const char *hs_strerror(int code);

typedef enum { HS_LOG_ERROR = 0, HS_LOG_WARN, HS_LOG_INFO, HS_LOG_DEBUG } hs_log_level;
typedef void (*hs_log_fn)(void *user, hs_log_level level, const char *message);

/* The context: carries the last error message and the logger. No other globals. */
typedef struct hs_ctx hs_ctx;

int hs_ctx_create(hs_ctx **out);
void hs_ctx_destroy(hs_ctx **ctx); /* NULL-safe, sets *ctx = NULL */

/* Records `code` with a human message that says what and where (file:line:col, step, DOF, site),
 * and returns `code`, so that `return hs_fail(ctx, HS_EINPUT, "...")` reads naturally.
 * NULL-safe on ctx. */
int hs_fail(hs_ctx *ctx, int code, const char *fmt, ...) HS_PRINTF(3, 4);
int hs_failv(hs_ctx *ctx, int code, const char *fmt, va_list ap);
const char *hs_ctx_message(const hs_ctx *ctx); /* "" when none */
int hs_ctx_code(const hs_ctx *ctx);
void hs_ctx_clear(hs_ctx *ctx);

/* Logging: default goes to stderr for levels <= HS_LOG_WARN. */
void hs_ctx_set_logger(hs_ctx *ctx, hs_log_fn fn, void *user, hs_log_level max_level);
void hs_log(hs_ctx *ctx, hs_log_level level, const char *fmt, ...) HS_PRINTF(3, 4);

/* Counted allocation: every allocation of the library goes through these, so that a test can
 * prove that the step loop allocates nothing (hs_alloc_count() unchanged across steps). */
void *hs_malloc(size_t size);
void *hs_calloc(size_t count, size_t size);
void *hs_realloc(void *ptr, size_t size);
void hs_free(void *ptr);
char *hs_strdup(const char *s);
uint64_t hs_alloc_count(void); /* successful allocations since the process started */
/* The largest single allocation (bytes) through hs_malloc, hs_calloc or hs_realloc since the
 * process started: tests prove that a large model allocates no n x n array. */
uint64_t hs_alloc_largest(void);

/* Allocate n doubles set to zero (NULL on failure or n == 0 with fail=0). */
double *hs_dvec(size_t n);

#ifdef __cplusplus
}
#endif
#endif
