/* The watchdog shared by the udp and shm laboratory back ends (lab_watchdog.h). */
#include "lab_watchdog.h"

#include <stdio.h>

int hs_lab_watch_gone(const hs_lab_watch *w)
{
    return w->max_missing > 0 && *w->run >= w->max_missing;
}

uint32_t hs_lab_watch_tick(const hs_lab_watch *w, int fresh, uint32_t ctrl_status, int64_t tick)
{
    if (fresh)
        *w->run = 0;
    else {
        (*w->missing)++;
        if (++*w->run > *w->run_max) *w->run_max = *w->run;
    }
    uint32_t st = ctrl_status;
    if (hs_lab_watch_gone(w)) {
        st |= HS_LAB_ST_WATCHDOG;
        if (!w->alarm[0])
            snprintf(w->alarm, w->alarm_cap,
                     "%s: %d replies missing in a row (max_missing %d) at tick %lld", w->who,
                     *w->run, w->max_missing, (long long)tick);
    } else if (st && !w->alarm[0]) {
        snprintf(w->alarm, w->alarm_cap, "%s: the controller's status 0x%x at tick %lld", w->who,
                 (unsigned)st, (long long)tick);
    }
    return st;
}
