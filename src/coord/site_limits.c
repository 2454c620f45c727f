/* The limits fragment of summary.json (site_limits.h). */
#include "site_limits.h"

#include <stdio.h>

static int entry(char *buf, size_t cap, const char *name, double peak, double limit,
                 const char *sep)
{
    if (limit > 0.0)
        return snprintf(buf, cap, "\"%s\": {\"peak\": %.6g, \"limit\": %.6g, \"ratio\": %.6g}%s",
                        name, peak, limit, peak / limit, sep);
    return snprintf(buf, cap, "\"%s\": {\"peak\": %.6g, \"limit\": null, \"ratio\": null}%s", name,
                    peak, sep);
}

size_t hs_site_limits_json(const hs_site_summary *ss, int j, char *buf, size_t cap)
{
    if (cap > 0) buf[0] = '\0';
    if (!ss->has_peaks) return 0;
    size_t len = 0;
    int w = snprintf(buf, cap, ", \"limits\": {");
    len += w > 0 ? (size_t)w : 0;
#define HS_NEXT(call)                                                                              \
    do {                                                                                           \
        int w_ = (call);                                                                           \
        if (w_ > 0) len += (size_t)w_;                                                             \
    } while (0)
    HS_NEXT(entry(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, "stroke",
                  ss->peak_cmd[j], ss->stroke[j], ", "));
    HS_NEXT(entry(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, "velocity",
                  ss->peak_vel[j], ss->velocity_max[j], ", "));
    HS_NEXT(entry(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, "force",
                  ss->peak_force[j], ss->force_max[j], "}"));
#undef HS_NEXT
    return len;
}
