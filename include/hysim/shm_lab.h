/* hysim shared-memory laboratory (docs/lab_backends.md, `lab: {kind: shm, name: /hysim-east}`):
 * the public layout of the POSIX shared-memory block between a hysim site and a real-time process
 * on the same computer (the way SCRAMNet reflective memory is used), versioned, and the sequence
 * lock that keeps a torn read from ever being used.
 *
 * One writer per direction: the site writes `command`, the laboratory's process writes `reply`.
 * A writer makes the direction's `seq` odd, writes the data, then makes it even (one more). A
 * reader copies the data between two loads of `seq` and uses the copy only when both loads are
 * equal and even; otherwise it retries a few times and then skips the tick (no value is used).
 *
 * A real-time process written in another language maps the same bytes: all fields are naturally
 * aligned, little endian on the machines hysim runs on, and the block's size is in `size`. */
#ifndef HYSIM_SHM_LAB_H
#define HYSIM_SHM_LAB_H

#include "hysim/labio.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_SHM_MAGIC   0x4d485348u /* "HSHM" in memory on a little-endian machine */
#define HS_SHM_VERSION 1u
#define HS_SHM_MAX_ACT 16 /* = HS_LAB_MAX_ACT */
#define HS_SHM_RETRIES 64 /* tries of one read before it is skipped */

/* site -> laboratory, once per site tick */
typedef struct hs_shm_command {
    _Atomic uint64_t seq;       /* sequence lock: odd while being written */
    uint64_t session;           /* +1 each time a site opens the block (a new test: the
                                 * laboratory mounts a fresh specimen at rest) */
    uint64_t counter;           /* +1 a command; it continues across sessions */
    double cmd[HS_SHM_MAX_ACT]; /* command per actuator, the test's units */
} hs_shm_command;

/* laboratory -> site, once per controller tick */
typedef struct hs_shm_reply {
    _Atomic uint64_t seq;     /* sequence lock: odd while being written */
    uint64_t counter;         /* +1 a reply */
    uint64_t echo;            /* the command counter this reply answers (0: none yet) */
    uint32_t status;          /* bit 0 interlock, bit 1 fault (HS_LAB_ST_*) */
    uint32_t reserved;        /* 0 */
    int64_t tick;             /* the controller's own tick count */
    double x[HS_SHM_MAX_ACT]; /* measured displacement per actuator */
    double f[HS_SHM_MAX_ACT]; /* measured force per actuator */
} hs_shm_reply;

typedef struct hs_shm_block {
    uint32_t magic;   /* HS_SHM_MAGIC */
    uint32_t version; /* HS_SHM_VERSION */
    uint32_t nact;    /* actuators in use (<= HS_SHM_MAX_ACT) */
    uint32_t size;    /* sizeof(hs_shm_block) */
    hs_shm_command command;
    hs_shm_reply reply;
} hs_shm_block;

/* The writer's side of a sequence lock: `write` the data of `seq` between the two increments. */
static inline void hs_shm_write_begin(_Atomic uint64_t *seq)
{
    const uint64_t s = atomic_load_explicit(seq, memory_order_relaxed);
    atomic_store_explicit(seq, s + 1u, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
}
static inline void hs_shm_write_end(_Atomic uint64_t *seq)
{
    const uint64_t s = atomic_load_explicit(seq, memory_order_relaxed);
    atomic_store_explicit(seq, s + 1u, memory_order_release);
}

/* Copies `bytes` at `src` (guarded by `seq`) to `dst`: the sequence value read (even, > 0 when
 * something was written), or 0 when every try was torn or nothing was ever written (dst then holds
 * no usable value). */
static inline uint64_t hs_shm_read(const _Atomic uint64_t *seq, void *dst, const void *src,
                                   size_t bytes)
{
    for (int i = 0; i < HS_SHM_RETRIES; i++) {
        const uint64_t s1 = atomic_load_explicit(seq, memory_order_acquire);
        if (s1 & 1u) continue;
        memcpy(dst, src, bytes);
        atomic_thread_fence(memory_order_acquire);
        const uint64_t s2 = atomic_load_explicit(seq, memory_order_relaxed);
        if (s1 == s2) return s1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the site's back end */

typedef struct hs_lab_shm_config {
    char name[64];        /* POSIX shared-memory name, "/hysim-east" */
    double reply_timeout; /* s to wait for the reply within a tick; 0: half a tick */
    int max_missing;      /* replies missing in a row that make the site hold (default 5) */
    char owner[32];       /* user (name or uid) of the laboratory's process whose block is also
                           * accepted, group-writable ("": only a block of this process's user,
                           * writable by it alone) */
} hs_lab_shm_config;

typedef struct hs_lab_shm_counts {
    int64_t sent, received; /* commands written, fresh replies taken */
    int64_t missing;        /* ticks without a fresh reply */
    int64_t torn;           /* reads skipped because every try was torn */
    int missing_run, missing_run_max;
} hs_lab_shm_counts;

/* Maps (and creates when absent: then it is unlinked again at destroy) the block `c->name` for
 * nact actuators; an existing block of another magic, version, size or nact is refused, and so is
 * one that another user could have planted (hs_shm_map_as). A reply counter that goes back (the
 * laboratory's process restarted with a fresh specimen state) raises HS_LAB_ST_FAULT. */
int hs_lab_shm_create(hs_ctx *ctx, const hs_lab_shm_config *c, int nact, double rate, hs_lab **out);
hs_lab_shm_counts hs_lab_shm_counts_get(hs_lab *lab);

/* The laboratory's side: maps (creating when absent) the block `name` for nact actuators.
 * *created says whether this call created it (then the caller unlinks it, hs_shm_unmap). */
int hs_shm_map(hs_ctx *ctx, const char *name, int nact, hs_shm_block **out, int *created);
/* The same, accepting an existing block only when it belongs to this process's effective user
 * (or to `owner`, a user name or uid, when given) and no other user may write it: mode without
 * o+w (and without g+w unless `owner` is given, the two users then sharing a group). A block is
 * created with O_EXCL and mode 0600 (issue 17: a block planted by `nobody` at mode 0666 let it
 * move root's plant and forge replies). The refusal says what to remove. */
int hs_shm_map_as(hs_ctx *ctx, const char *name, int nact, const char *owner, hs_shm_block **out,
                  int *created);
void hs_shm_unmap(hs_shm_block *b, const char *name, int unlink_it);

#ifdef __cplusplus
}
#endif
#endif
