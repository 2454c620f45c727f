/* OpenSees' time series in hysim's interpreter (opensees_tcl.h): the options of `timeSeries`
 * (and of the inline series of `pattern`), the values a series takes at a time, and the numbers
 * of a -filePath. The meanings are OpenSees 3.x's (SRC/domain/pattern: PathSeries.cpp,
 * PathTimeSeries.cpp, TrigSeries.cpp, LinearSeries.cpp, ConstantSeries.h):
 *  - Path at -dt: linear between samples from -startTime; 0 before it and after the last sample
 *    (its last value with -useLast); -prependZero puts a 0 first;
 *  - Path at -time: linear between the given times; 0 before the first and after the last
 *    (the last value with -useLast);
 *  - Linear: factor t; Constant: factor;
 *  - Trig (Sine): factor sin(2 pi (t - tStart) / period + phi) + zeroShift between tStart and
 *    tEnd, 0 outside, phi = shift - period / (2 pi) asin(zeroShift / factor). */
#include "opensees_tcl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The numbers of a file (whitespace separated, as OpenSees reads a -filePath). */
static int read_numbers(hs_os_state *st, Tcl_Obj *const objv[], const char *path, double **out,
                        int *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return hs_os_fail(st, objv,
                          "cannot open '%s' (-filePath is relative to the script's folder)", path);
    double *v = NULL, x;
    int count = 0, rc = TCL_OK;
    while (rc == TCL_OK && fscanf(f, "%lf", &x) == 1) {
        double *slot = hs_os_push((void **)&v, &count, sizeof *slot);
        if (!slot)
            rc = hs_os_fail(st, objv, "out of memory");
        else
            *slot = x;
    }
    if (rc == TCL_OK && !feof(f)) { /* OpenSees reads numbers until the first other word */
        char where[HS_OS_WHERE];
        hs_log(st->ctx, HS_LOG_WARN,
               "%s: %s: the numbers end after value %d (the rest is not read, as in OpenSees)",
               hs_os_where(st, where, sizeof where), path, count);
    }
    fclose(f);
    if (rc != TCL_OK) {
        hs_free(v);
        return rc;
    }
    *out = v;
    *n = count;
    return TCL_OK;
}

/* A Tcl list of numbers (-values, -time). */
static int list_numbers(hs_os_state *st, Tcl_Obj *const objv[], Tcl_Obj *list, const char *what,
                        double **out, int *n)
{
    Tcl_Obj **w;
    int count;
    if (Tcl_ListObjGetElements(NULL, list, &count, &w) != TCL_OK || count < 1)
        return hs_os_fail(st, objv, "%s: expected a list of numbers", what);
    double *v = hs_calloc((size_t)count, sizeof *v);
    if (!v) return hs_os_fail(st, objv, "out of memory");
    for (int i = 0; i < count; i++)
        if (Tcl_GetDoubleFromObj(NULL, w[i], &v[i]) != TCL_OK) {
            hs_free(v);
            return hs_os_fail(st, objv, "%s: value %d is not a number ('%.40s')", what, i + 1,
                              Tcl_GetString(w[i]));
        }
    *out = v;
    *n = count;
    return TCL_OK;
}

/* A file relative to the script's folder, or (the script's own analysis) one the script wrote
 * in the run's folder (ReadRecord's converted record). */
static void relative(hs_os_state *st, const char *rel, char *path, size_t cap)
{
    char here[1024];
    if (rel[0] == '/') {
        snprintf(path, cap, "%s", rel);
        return;
    }
    snprintf(path, cap, "%s/%s", hs_os_here(st, here, sizeof here), rel);
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    else if (st->live)
        snprintf(path, cap, "%s/%s", st->outdir, rel);
}

/* Path options from w[first..n). */
static int path_options(hs_os_state *st, Tcl_Obj *const objv[], Tcl_Obj *const *w, int first, int n,
                        hs_os_series *s)
{
    int rc = TCL_OK;
    double *times = NULL;
    int ntimes = 0;
    for (int i = first; rc == TCL_OK && i < n; i++) {
        const char *opt = Tcl_GetString(w[i]);
        if (!strcmp(opt, "-useLast")) {
            s->use_last = 1;
            continue;
        }
        if (!strcmp(opt, "-prependZero")) {
            s->prepend_zero = 1;
            continue;
        }
        if (i + 1 >= n) return hs_os_fail(st, objv, "%s: expected a value", opt);
        i++;
        if (!strcmp(opt, "-dt") || !strcmp(opt, "-dT"))
            rc = hs_os_num(st, w, i, "-dt", &s->dt);
        else if (!strcmp(opt, "-factor"))
            rc = hs_os_num(st, w, i, "-factor", &s->factor);
        else if (!strcmp(opt, "-startTime") || !strcmp(opt, "-tStart"))
            rc = hs_os_num(st, w, i, opt, &s->start_time);
        else if (!strcmp(opt, "-filePath"))
            relative(st, Tcl_GetString(w[i]), s->path, sizeof s->path);
        else if (!strcmp(opt, "-fileTime"))
            relative(st, Tcl_GetString(w[i]), s->time_path, sizeof s->time_path);
        else if (!strcmp(opt, "-values") && !s->values)
            rc = list_numbers(st, objv, w[i], "-values", &s->values, &s->nvalues);
        else if (!strcmp(opt, "-time") && !times)
            rc = list_numbers(st, objv, w[i], "-time", &times, &ntimes);
        else
            rc = hs_os_fail(st, objv,
                            "option '%s' is not supported by hysim (a Path series takes -dt, "
                            "-time, -values, -filePath, -fileTime, -factor, -startTime, "
                            "-useLast, -prependZero)",
                            opt);
    }
    if (rc == TCL_OK && s->path[0] && !s->values)
        rc = read_numbers(st, objv, s->path, &s->values, &s->nvalues);
    if (rc == TCL_OK && s->time_path[0] && !times)
        rc = read_numbers(st, objv, s->time_path, &times, &ntimes);
    if (rc == TCL_OK && !s->values)
        rc = hs_os_fail(st, objv, "a Path series needs -filePath FILE or -values {...}");
    if (rc == TCL_OK && !times && !(s->dt > 0.0))
        rc = hs_os_fail(st, objv, "a Path series needs -dt > 0 or -time {...}");
    if (rc == TCL_OK && times && ntimes != s->nvalues)
        rc = hs_os_fail(st, objv, "-time has %d values and -values %d: give one time per value",
                        ntimes, s->nvalues);
    for (int i = 1; rc == TCL_OK && times && i < ntimes; i++)
        if (!(times[i] >= times[i - 1]))
            rc = hs_os_fail(st, objv, "-time: time %d (%g) is before time %d (%g)", i + 1, times[i],
                            i, times[i - 1]);
    if (rc == TCL_OK && s->prepend_zero && !times) {
        double *v = hs_calloc((size_t)s->nvalues + 1, sizeof *v);
        if (!v) return hs_os_fail(st, objv, "out of memory");
        memcpy(v + 1, s->values, (size_t)s->nvalues * sizeof *v);
        hs_free(s->values);
        s->values = v;
        s->nvalues++;
    }
    if (rc != TCL_OK) {
        hs_free(times);
        hs_free(s->values);
        s->values = NULL;
        return rc;
    }
    s->times = times;
    return TCL_OK;
}

/* Trig tStart tEnd period <-factor f> <-shift phi> <-zeroShift z> from w[first..n). */
static int trig_options(hs_os_state *st, Tcl_Obj *const objv[], Tcl_Obj *const *w, int first, int n,
                        hs_os_series *s)
{
    if (n - first < 3 || hs_os_num(st, w, first, "tStart", &s->t_start) ||
        hs_os_num(st, w, first + 1, "tEnd", &s->t_end) ||
        hs_os_num(st, w, first + 2, "period", &s->period))
        return hs_os_fail(st, objv,
                          "expected 'timeSeries Trig tag tStart tEnd period <-factor f> <-shift "
                          "phi> <-zeroShift z>'");
    if (!(s->period > 0.0)) return hs_os_fail(st, objv, "period %g: must be > 0", s->period);
    for (int i = first + 3; i < n; i += 2) {
        const char *opt = Tcl_GetString(w[i]);
        double *dst = !strcmp(opt, "-factor")       ? &s->factor
                      : !strcmp(opt, "-shift")      ? &s->shift
                      : !strcmp(opt, "-phaseShift") ? &s->shift
                      : !strcmp(opt, "-zeroShift")  ? &s->zero_shift
                                                    : NULL;
        if (!dst || i + 1 >= n)
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (Trig takes -factor, "
                              "-shift, -zeroShift, each with a value)",
                              opt);
        if (hs_os_num(st, w, i + 1, opt, dst)) return TCL_ERROR;
    }
    return TCL_OK;
}

int hs_os_series_parse(hs_os_state *st, Tcl_Obj *const objv[], const char *type, Tcl_Obj *const *w,
                       int first, int n, hs_os_series *s)
{
    s->factor = 1.0;
    if (!strcmp(type, "Path") || !strcmp(type, "Series")) {
        s->kind = HS_OS_SERIES_PATH;
        return path_options(st, objv, w, first, n, s);
    }
    if (!strcmp(type, "Trig") || !strcmp(type, "Sine") || !strcmp(type, "Sin")) {
        s->kind = HS_OS_SERIES_TRIG;
        return trig_options(st, objv, w, first, n, s);
    }
    if (!strcmp(type, "Linear") || !strcmp(type, "Constant")) {
        s->kind = !strcmp(type, "Linear") ? HS_OS_SERIES_LINEAR : HS_OS_SERIES_CONSTANT;
        for (int i = first; i < n; i += 2)
            if (i + 1 >= n || strcmp(Tcl_GetString(w[i]), "-factor") ||
                hs_os_num(st, w, i + 1, "-factor", &s->factor))
                return hs_os_fail(st, objv, "expected '%s <-factor f>'", type);
        return TCL_OK;
    }
    return hs_os_fail(st, objv,
                      "series type '%s' is not supported by hysim (Path, Linear, Constant, Trig, "
                      "Sine)",
                      type);
}

int hs_os_series_add(hs_os_state *st, Tcl_Obj *const objv[], hs_os_series *s)
{
    hs_os_where(st, s->where, sizeof s->where);
    s->index = st->m->nseries;
    hs_os_series *slot = hs_os_push((void **)&st->m->series, &st->m->nseries, sizeof *slot);
    if (!slot) {
        hs_free(s->values);
        hs_free(s->times);
        return hs_os_fail(st, objv, "out of memory");
    }
    *slot = *s; /* the model owns values and times now; *s is a view of them */
    return TCL_OK;
}

static double path_at_dt(const hs_os_series *s, double t)
{
    if (t < s->start_time || s->nvalues == 0) return 0.0;
    const double x = (t - s->start_time) / s->dt, i1 = floor(x);
    if (i1 + 1.0 >= (double)s->nvalues)
        return s->use_last ? s->factor * s->values[s->nvalues - 1] : 0.0;
    const long i = (long)i1;
    return s->factor * (s->values[i] + (s->values[i + 1] - s->values[i]) * (x - i1));
}

static double path_at_times(const hs_os_series *s, double t)
{
    const double *T = s->times, *v = s->values;
    const int n = s->nvalues;
    if (t < T[0]) return 0.0;
    if (t == T[0]) return s->factor * v[0];
    if (t > T[n - 1]) return s->use_last ? s->factor * v[n - 1] : 0.0;
    int lo = 0, hi = n - 1; /* T[lo] < t <= T[hi] */
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (T[mid] < t)
            lo = mid;
        else
            hi = mid;
    }
    if (T[hi] == T[lo]) return s->factor * v[hi];
    return s->factor * (v[lo] + (v[hi] - v[lo]) * (t - T[lo]) / (T[hi] - T[lo]));
}

double hs_os_series_value(const hs_os_series *s, double t)
{
    switch (s->kind) {
    case HS_OS_SERIES_LINEAR:
        return s->factor * t;
    case HS_OS_SERIES_CONSTANT:
        return s->factor;
    case HS_OS_SERIES_TRIG: {
        if (t < s->t_start || t > s->t_end) return 0.0;
        const double twopi = 4.0 * asin(1.0);
        const double phi = s->shift - s->period / twopi * asin(s->zero_shift / s->factor);
        return s->factor * sin(twopi * (t - s->t_start) / s->period + phi) + s->zero_shift;
    }
    case HS_OS_SERIES_PATH:
        return s->times ? path_at_times(s, t) : path_at_dt(s, t);
    }
    return 0.0;
}

/* OpenSees' getDuration: Path at dt its size times dt (PathSeries.cpp), Path at times its last
 * time (PathTimeSeries.cpp), Trig tEnd - tStart (TrigSeries.h), Linear and Constant 0 (their
 * "dummy function"). */
double hs_os_series_duration(const hs_os_series *s)
{
    switch (s->kind) {
    case HS_OS_SERIES_PATH:
        if (s->nvalues == 0) return 0.0;
        return s->times ? s->times[s->nvalues - 1] : (double)s->nvalues * s->dt;
    case HS_OS_SERIES_TRIG:
        return s->t_end - s->t_start;
    case HS_OS_SERIES_LINEAR:
    case HS_OS_SERIES_CONSTANT:
        return 0.0;
    }
    return 0.0;
}

/* OpenSees' getStartTime: Path at dt its -startTime, Trig tStart, the others 0. */
double hs_os_series_start(const hs_os_series *s)
{
    if (s->kind == HS_OS_SERIES_PATH && !s->times) return s->start_time;
    if (s->kind == HS_OS_SERIES_TRIG) return s->t_start;
    return 0.0;
}
