/* hysim virtual time: a clock and a discrete-event queue. In virtual time the coordinator, the
 * network links and every site run in one process: each action is an event with a time, handled
 * in time order; the clock jumps from one event to the next. Nothing reads a real clock.
 *
 * Time is an integer count of nanoseconds (hs_vtime), not a double: sums of delays never drift
 * with rounding, equality of times is exact (ties are real ties), and an hour-long test keeps
 * nanosecond resolution (int64 spans 292 years). Events at the same time leave the queue in the
 * order they were pushed (an insertion sequence number breaks ties), so a run is the same every
 * time. The queue is a binary heap allocated once at creation; pushing, popping and cancelling
 * never allocate. */
#ifndef HYSIM_VCLOCK_H
#define HYSIM_VCLOCK_H

#include "hysim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t hs_vtime; /* nanoseconds since the start of the run */
#define HS_VTIME_NEVER      INT64_MAX
#define HS_VTIME_PER_SECOND INT64_C(1000000000)

/* Seconds to nanoseconds, rounded to the nearest; saturates at HS_VTIME_NEVER (and at 0 for
 * negative or NaN input: virtual times are never negative). */
hs_vtime hs_vtime_from_seconds(double seconds);
double hs_vtime_seconds(hs_vtime t);

typedef struct hs_vevent {
    hs_vtime time;    /* when it happens */
    uint64_t seq;     /* insertion order, set by the queue: breaks ties */
    int64_t tick;     /* tick index of periodic events (hs_vclock_push_tick); free otherwise */
    int32_t kind;     /* what happens (the caller's enumeration) */
    int32_t target;   /* to whom (site index, link id, ...) */
    uint32_t payload; /* index into a caller-owned pool of messages */
} hs_vevent;

typedef struct hs_vclock hs_vclock;

/* A clock at time 0 with room for `capacity` pending events (> 0). */
int hs_vclock_create(hs_ctx *ctx, size_t capacity, hs_vclock **out);
void hs_vclock_destroy(hs_vclock **c); /* NULL-safe, sets *c = NULL */

hs_vtime hs_vclock_now(const hs_vclock *c);
size_t hs_vclock_pending(const hs_vclock *c);
size_t hs_vclock_capacity(const hs_vclock *c);
/* Events pushed since creation (the next sequence number). */
uint64_t hs_vclock_pushed(const hs_vclock *c);

/* Schedules an event. HS_EINVAL when `time` is before now (the past cannot be scheduled),
 * HS_ENOMEM when the queue is full (capacity reached); both with a message. */
int hs_vclock_push(hs_vclock *c, hs_vtime time, int32_t kind, int32_t target, uint32_t payload);
/* Same, from a filled event (time, tick, kind, target, payload; seq is assigned). */
int hs_vclock_push_event(hs_vclock *c, const hs_vevent *ev);

/* The next event (earliest time, then earliest push): 1 and *out filled, 0 when empty.
 * peek leaves it queued; pop removes it and moves the clock to its time. */
int hs_vclock_peek(const hs_vclock *c, hs_vevent *out);
int hs_vclock_pop(hs_vclock *c, hs_vevent *out);
/* Pops the next event only if it happens at or before `limit` (1); otherwise (0) moves the clock
 * to `limit` when limit > now and leaves the queue as it is. For a bounded run. */
int hs_vclock_pop_until(hs_vclock *c, hs_vtime limit, hs_vevent *out);

/* Removes every pending event of this kind and target (e.g. a timeout made moot by the answer it
 * was waiting for). Returns how many were removed. O(pending); never allocates. */
size_t hs_vclock_cancel(hs_vclock *c, int32_t kind, int32_t target);

/* Periodic events (a site's controller ticks at its rate). Tick n of a clock started at `origin`
 * with `rate_hz` falls at origin + round(n * 1e9 / rate_hz) ns: computed from n, not by adding a
 * rounded period, so rates such as 1024 Hz never drift. Only one tick per source is pending at a
 * time: the handler of tick n pushes tick n + 1 with hs_vclock_push_next_tick. */
hs_vtime hs_vtick_time(hs_vtime origin, double rate_hz, int64_t n);
int hs_vclock_push_tick(hs_vclock *c, hs_vtime origin, double rate_hz, int64_t n, int32_t kind,
                        int32_t target, uint32_t payload);
/* Tick cur->tick + 1 of the same kind, target and payload. */
int hs_vclock_push_next_tick(hs_vclock *c, const hs_vevent *cur, hs_vtime origin, double rate_hz);

#ifdef __cplusplus
}
#endif
#endif
