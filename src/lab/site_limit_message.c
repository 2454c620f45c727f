/* The one-line message of a safety-limit trip (include/hysim/site_controller.h): which limit,
 * the offending value and the limit with units, the likely cause and what to do. The virtual
 * site and the site server print the same text (docs/site_controller.md, "Limits"). */
#include "hysim/site_controller.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *unit(const char *u, const char *fallback)
{
    return u && u[0] ? u : fallback;
}

/* A laboratory alarm: the back end's watchdog (udp: replies missing in a row; shm: ticks without
 * a fresh sample; driver: a failed call), or the controller's interlock or fault bit. */
static int lab_alarm(char *buf, size_t cap, const char *site, const hs_site_report *r)
{
    const char *kind = r->lab ? r->lab : "";
    if (r->limit_cause == HS_SITE_CAUSE_LAB_WATCHDOG) {
        const char *what = "replies missing in a row from the laboratory",
                   *cause = "the laboratory stopped answering";
        if (strcmp(kind, "udp") == 0) {
            what = "replies missing in a row on the udp link";
            cause = "the real-time target stopped or the network drops its packets";
        } else if (strcmp(kind, "shm") == 0) {
            what = "ticks in a row without a fresh sample in the shm segment";
            cause = "the real-time process stopped or runs late";
        } else if (strcmp(kind, "driver") == 0) {
            what = "failed calls of the lab driver";
            cause = "the hardware or its driver stopped (see the site's log)";
        }
        return snprintf(buf, cap,
                        "site %s: laboratory alarm: watchdog: %.0f %s (limit %.0f); likely %s; "
                        "the site holds without moving, the test stops",
                        site, r->limit_value, what, r->limit_bound, cause);
    }
    const int fault = r->limit_cause == HS_SITE_CAUSE_LAB_FAULT;
    return snprintf(buf, cap,
                    "site %s: laboratory alarm: the %s controller raised its %s bit (status 0x%x, "
                    "limit 0); likely %s; the site holds, unloads under control, the test stops",
                    site, kind[0] ? kind : "laboratory", fault ? "fault" : "interlock",
                    (unsigned)r->limit_value,
                    fault ? "a controller fault (hydraulics, servo valve, transducer)"
                          : "a controller limit or an emergency stop at the rig");
}

int hs_site_limit_message(char *buf, size_t cap, const char *site, const char *actuator,
                          const hs_site_report *r, const char *length, const char *force,
                          const char *time)
{
    /* short enough for a wire error sentence (255 bytes) with a site name of 20 characters */
    const char *L = unit(length, "length"), *F = unit(force, "force"), *T = unit(time, "s");
    char what[120], cause[160];
    const int fl = r->limit_flags;
    if (fl & HS_SITE_LIMIT_ABORT)
        return snprintf(buf, cap,
                        "site %s: operator abort: the operator stopped the test at the site "
                        "(signal or monitor page); the site holds, unloads under control, the "
                        "test stops",
                        site);
    if (fl & HS_SITE_LIMIT_LAB) return lab_alarm(buf, cap, site, r);
    if (r->limit_cause == HS_SITE_CAUSE_LAB_DATA) {
        const int of_force = (fl & HS_SITE_LIMIT_MEASURED_FORCE) != 0;
        return snprintf(buf, cap,
                        "site %s: laboratory data: measured %s on %s is %g %s, not a measurement "
                        "(not a number or beyond %g); check that channel (sensor, calibration, "
                        "packet layout); the site holds, the test stops",
                        site, of_force ? "force" : "displacement", actuator, r->limit_value,
                        of_force ? F : L, r->limit_bound);
    }
    if (r->limit_cause == HS_SITE_CAUSE_NOT_A_NUMBER)
        snprintf(what, sizeof what, "command on %s is not a number (%g)", actuator, r->limit_value);
    else if (fl & HS_SITE_LIMIT_DISPLACEMENT)
        snprintf(what, sizeof what, "stroke limit on %s: command %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, L, r->limit_bound, L);
    else if (fl & HS_SITE_LIMIT_VELOCITY)
        snprintf(what, sizeof what, "velocity limit on %s: %.6g %s/%s beyond %g %s/%s", actuator,
                 r->limit_value, L, T, r->limit_bound, L, T);
    else if (fl & HS_SITE_LIMIT_ACCELERATION)
        snprintf(what, sizeof what, "acceleration limit on %s: %.6g beyond %g %s/%s^2", actuator,
                 r->limit_value, r->limit_bound, L, T);
    else if (fl & HS_SITE_LIMIT_STEP)
        snprintf(what, sizeof what, "step limit on %s: %.6g %s in one tick beyond %g %s", actuator,
                 r->limit_value, L, r->limit_bound, L);
    else if (fl & HS_SITE_LIMIT_MEASURED_DISP)
        snprintf(what, sizeof what, "stroke limit on %s: measured %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, L, r->limit_bound, L);
    else if (fl & HS_SITE_LIMIT_MEASURED_FORCE)
        snprintf(what, sizeof what, "force limit on %s: measured %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, F, r->limit_bound, F);
    else
        snprintf(what, sizeof what, "force limit on %s: predicted %.6g %s beyond +-%g %s", actuator,
                 r->limit_value, F, r->limit_bound, F);
    switch (r->limit_cause) {
    case HS_SITE_CAUSE_UNSTABLE:
        snprintf(cause, sizeof cause,
                 "likely an unstable integration: targets grow x%.3g a step, alternating "
                 "(omega dt too large? see hysim check)",
                 r->limit_growth);
        break;
    case HS_SITE_CAUSE_GROWING:
        snprintf(cause, sizeof cause, "likely a diverging response: targets grow x%.3g a step",
                 r->limit_growth);
        break;
    case HS_SITE_CAUSE_LATE:
        snprintf(cause, sizeof cause,
                 "likely the catch-up after a late target (slow/hold: late ticks or network)");
        break;
    case HS_SITE_CAUSE_FAST_TARGETS:
        snprintf(cause, sizeof cause,
                 "the targets alone need %.4g %s/%s: scale the record or raise "
                 "analysis.time_scale",
                 r->limit_speed, L, T);
        break;
    case HS_SITE_CAUSE_NEAR_LIMIT:
        snprintf(cause, sizeof cause,
                 "the targets need %.4g %s/%s, near the limit: their path overshoots it (scale "
                 "the record or raise analysis.time_scale)",
                 r->limit_speed, L, T);
        break;
    case HS_SITE_CAUSE_BEYOND:
        snprintf(cause, sizeof cause,
                 "the target is beyond the stroke: the response exceeds the travel (hysim check "
                 "estimates it)");
        break;
    case HS_SITE_CAUSE_FORCE:
        snprintf(cause, sizeof cause, "the specimen would resist more than the limit");
        break;
    case HS_SITE_CAUSE_JUMP:
        snprintf(cause, sizeof cause,
                 "the targets jump (%.4g %s/%s over the step): check the coordinator",
                 r->limit_speed, L, T);
        break;
    case HS_SITE_CAUSE_NOT_A_NUMBER:
        snprintf(cause, sizeof cause, "likely a corrupt target or a failed compensator");
        break;
    case HS_SITE_CAUSE_MEASURED:
        snprintf(cause, sizeof cause,
                 "the command is within limits: a failing specimen or sensor, or a controller not "
                 "following");
        break;
    default:
        snprintf(cause, sizeof cause, "cause not recognised");
    }
    return snprintf(buf, cap, "site %s: safety limit: %s; %s; the site holds, the test stops", site,
                    what, cause);
}
