/* The watchdog shared by the back ends whose laboratory answers each tick (udp, shm;
 * docs/lab_backends.md): a tick with or without a fresh reply, the run of missing ones, and the
 * status and alarm the site sees. */
#ifndef HS_LAB_WATCHDOG_H
#define HS_LAB_WATCHDOG_H

#include "hysim/labio.h"

#include <stddef.h>

typedef struct hs_lab_watch {
    int max_missing;  /* missing in a row that raise HS_LAB_ST_WATCHDOG (0: never) */
    int64_t *missing; /* ticks without a fresh reply, since creation */
    int *run;         /* missing in a row now */
    int *run_max;     /* the longest run */
    char *alarm;      /* the first alarm, written once */
    size_t alarm_cap;
    char who[96]; /* names the back end in the alarm, "lab udp 10.0.0.2:25000" */
} hs_lab_watch;

/* Counts one tick (`fresh`: a reply was taken) and returns the status to report: the
 * controller's bits `ctrl_status`, plus HS_LAB_ST_WATCHDOG once max_missing are missing in a
 * row; the first alarm names the back end (`who`) and the tick. */
uint32_t hs_lab_watch_tick(const hs_lab_watch *w, int fresh, uint32_t ctrl_status, int64_t tick);
/* 1 once the watchdog has fired (the laboratory is gone: look for a reply without waiting). */
int hs_lab_watch_gone(const hs_lab_watch *w);

#endif
