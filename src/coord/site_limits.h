/* How close each actuator of an in-process laboratory came to its limits, as a summary.json
 * fragment (docs/pretest.md, "Rehearsal"). */
#ifndef HS_SITE_LIMITS_H
#define HS_SITE_LIMITS_H

#include "hysim/site.h"

#include <stddef.h>

/* Appends `, "limits": {"stroke": {"peak": P, "limit": L, "ratio": P / L}, "velocity": {...},
 * "force": {...}}` for actuator j (limit and ratio null where the actuator has no such limit;
 * nothing when the site reports no peaks) to buf (at most cap bytes, NUL-terminated when cap >
 * 0); returns the length of the full fragment, as snprintf does. */
size_t hs_site_limits_json(const hs_site_summary *ss, int j, char *buf, size_t cap);

#endif
