/* OpenSees' GroundMotion in the script's own analysis (opensees_tcl.h): the displacement,
 * velocity and acceleration series of a `groundMotion tag Plain|Series -disp|-vel|-accel ...`,
 * the missing ones made as OpenSees 3.x's GroundMotion constructor makes them
 * (SRC/domain/groundMotion/GroundMotion.cpp): an acceleration without velocity is integrated, a
 * velocity without displacement integrated, a displacement without velocity differentiated, a
 * velocity without acceleration differentiated, in that order, by the trapezoidal rule at dtInt
 * (TclGroundMotionCommand.cpp: 0.01 unless -dtInt). TrapezoidalTimeSeriesIntegrator.cpp: from
 * the series' start time, n = (long long)(duration / dtInt + 1) samples at t0 + k dtInt (the
 * time summed step by step), F_k = F_{k-1} + dtInt (f_{k-1} + f_k) / 2 or
 * f'_k = 2 (F_k - F_{k-1}) / dtInt - f'_{k-1}, from a value 0 before the first sample; the result
 * a Path series at dtInt from that start time that keeps its last value. So the velocity of a
 * Trig displacement is the trapezoidal rule's, not the cosine. */
#include "opensees_tcl.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* The integral (diff 0) or derivative (diff 1) of series `from` as a new series of the model. */
static int transform(hs_os_state *st, Tcl_Obj *const objv[], int from, double delta, int diff,
                     int *out)
{
    const hs_os_series src = st->m->series[from]; /* a copy: adding may move the array */
    const double steps = hs_os_series_duration(&src) / delta + 1.0;
    if (!(steps < 1e8))
        return hs_os_fail(st, objv,
                          "groundMotion: %.0f samples of the series at -dtInt %g (its duration "
                          "%g): give a larger -dtInt",
                          steps, delta, hs_os_series_duration(&src));
    const int n = (int)steps;
    hs_os_series s = {.tag = INT_MIN,
                      .kind = HS_OS_SERIES_PATH,
                      .dt = delta,
                      .factor = 1.0,
                      .use_last = 1,
                      .start_time = hs_os_series_start(&src),
                      .nvalues = n};
    s.values = hs_calloc((size_t)n + 1, sizeof *s.values);
    if (!s.values) return hs_os_fail(st, objv, "out of memory");
    double t = s.start_time, prev = 0.0, acc = 0.0;
    for (int k = 0; k < n; k++, t += delta) {
        const double f = hs_os_series_value(&src, t);
        acc = diff ? 2.0 * (f - prev) / delta - acc : acc + 0.5 * delta * (prev + f);
        s.values[k] = acc;
        prev = f;
    }
    if (hs_os_series_add(st, objv, &s)) return TCL_ERROR;
    *out = s.index;
    return TCL_OK;
}

int hs_os_ground_motion_complete(hs_os_state *st, Tcl_Obj *const objv[], hs_os_gmotion *g)
{
    int *d = &g->ser[0], *v = &g->ser[1], *a = &g->ser[2];
    const double h = g->dt_int;
    if (!(h > 0.0)) return hs_os_fail(st, objv, "-dtInt %g: must be > 0", h);
    if (*a >= 0 && *v < 0 && transform(st, objv, *a, h, 0, v)) return TCL_ERROR;
    if (*v >= 0 && *d < 0 && transform(st, objv, *v, h, 0, d)) return TCL_ERROR;
    if (*d >= 0 && *v < 0 && transform(st, objv, *d, h, 1, v)) return TCL_ERROR;
    if (*v >= 0 && *a < 0 && transform(st, objv, *v, h, 1, a)) return TCL_ERROR;
    return TCL_OK;
}

void hs_os_ground_motion_at(const hs_os_model *m, const hs_os_gmotion *g, double t, double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] =
            t < 0.0 || g->ser[k] < 0 ? 0.0 : g->fact * hs_os_series_value(&m->series[g->ser[k]], t);
}
