/* The results store: preallocated series filled one record per committed step. */
#include "results_impl.h"

#include <math.h>
#include <string.h>

static char *dup_or_empty(const char *s)
{
    return hs_strdup(s ? s : "");
}

/* "a" op "b", or "" when either is unknown (units are stated, never assumed). */
static char *derived_unit(const char *a, const char *op, const char *b, const char *suffix)
{
    if (!a[0] || !b[0]) return hs_strdup("");
    size_t n = strlen(a) + strlen(op) + strlen(b) + strlen(suffix) + 1;
    char *s = hs_malloc(n);
    if (s) snprintf(s, n, "%s%s%s%s", a, op, b, suffix);
    return s;
}

char **hs_results_names(const char *const *names, int n, const char *fallback)
{
    char **out = hs_calloc((size_t)(n > 0 ? n : 1), sizeof *out);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        if (names && names[i]) {
            out[i] = hs_strdup(names[i]);
        } else {
            char buf[32];
            snprintf(buf, sizeof buf, "%s%d", fallback, i + 1);
            out[i] = hs_strdup(buf);
        }
        if (!out[i]) {
            for (int j = 0; j < i; j++) hs_free(out[j]);
            hs_free(out);
            return NULL;
        }
    }
    return out;
}

void hs_results_names_free(char **names, int n)
{
    if (!names) return;
    for (int i = 0; i < n; i++) hs_free(names[i]);
    hs_free(names);
}

static double *series(int64_t capacity, int width)
{
    return hs_calloc((size_t)capacity * (size_t)(width > 0 ? width : 1), sizeof(double));
}

/* The optional actuator block: names, stiffness unit, series filled with NaN. */
static int actuator_block(hs_results *r, const hs_results_layout *layout)
{
    const int m = layout->nact;
    const size_t c = (size_t)r->capacity, mm = (size_t)m * (size_t)m;
    r->nact = m;
    r->act_names = hs_results_names(layout->actuator_names, m, "actuator");
    r->units_stiffness = derived_unit(r->units_force, "/", r->units_length, "");
    r->act_cmd = series(r->capacity, m);
    r->act_meas = series(r->capacity, m);
    r->act_force = series(r->capacity, m);
    r->act_tangent = series(r->capacity, m * m);
    if (!r->act_names || !r->units_stiffness || !r->act_cmd || !r->act_meas || !r->act_force ||
        !r->act_tangent)
        return 0;
    for (size_t k = 0; k < c * (size_t)m; k++)
        r->act_cmd[k] = r->act_meas[k] = r->act_force[k] = NAN;
    for (size_t k = 0; k < c * mm; k++) r->act_tangent[k] = NAN;
    return 1;
}

int hs_results_create(hs_ctx *ctx, const hs_results_layout *layout, hs_results **out)
{
    if (!out) return hs_fail(ctx, HS_EINVAL, "results: no output pointer");
    *out = NULL;
    if (!layout) return hs_fail(ctx, HS_EINVAL, "results: no layout");
    if (layout->ndof < 1 || layout->nsprings < 0 || layout->ngroups < 0)
        return hs_fail(ctx, HS_EINVAL, "results: bad layout (ndof %d, springs %d, groups %d)",
                       layout->ndof, layout->nsprings, layout->ngroups);
    if (layout->nact < 0 || layout->nact > 4096 || layout->nsites < 0 || layout->nsites > 4096)
        return hs_fail(ctx, HS_EINVAL, "results: bad layout (%d actuators, %d sites)", layout->nact,
                       layout->nsites);
    if (layout->ngroups > HS_ENERGY_MAX_GROUPS)
        return hs_fail(ctx, HS_EINVAL, "results: %d energy groups, at most %d", layout->ngroups,
                       HS_ENERGY_MAX_GROUPS);
    int widest = layout->ndof;
    if (layout->nsprings > widest) widest = layout->nsprings;
    if (layout->nact * layout->nact > widest) widest = layout->nact * layout->nact;
    if (layout->nsites > widest) widest = layout->nsites;
    if (layout->capacity < 1 ||
        (uint64_t)layout->capacity > SIZE_MAX / sizeof(double) / 8u / (uint64_t)widest)
        return hs_fail(ctx, HS_EINVAL, "results: bad capacity %lld records",
                       (long long)layout->capacity);

    hs_results *r = hs_calloc(1, sizeof *r);
    if (!r) return hs_fail(ctx, HS_ENOMEM, "results: out of memory");
    r->ctx = ctx;
    atomic_init(&r->published, 0);
    r->ndof = layout->ndof;
    r->nsprings = layout->nsprings;
    r->ngroups = layout->ngroups;
    r->capacity = layout->capacity;
    r->dof_names = hs_results_names(layout->dof_names, r->ndof, "d");
    r->spring_names = hs_results_names(layout->spring_names, r->nsprings, "spring");
    r->group_names = hs_results_names(layout->group_names, r->ngroups, "group");
    r->units_force = dup_or_empty(layout->units_force);
    r->units_length = dup_or_empty(layout->units_length);
    r->units_time = dup_or_empty(layout->units_time);
    int ok = r->dof_names && r->spring_names && r->group_names && r->units_force &&
             r->units_length && r->units_time;
    if (ok) {
        r->units_velocity = derived_unit(r->units_length, "/", r->units_time, "");
        r->units_acceleration = derived_unit(r->units_length, "/", r->units_time, "^2");
        r->units_energy = derived_unit(r->units_force, "*", r->units_length, "");
        int64_t c = r->capacity;
        r->t = series(c, 1);
        r->ag = series(c, 1);
        r->d = series(c, r->ndof);
        r->v = series(c, r->ndof);
        r->a = series(c, r->ndof);
        r->sdef = series(c, r->nsprings);
        r->sforce = series(c, r->nsprings);
        r->e_input = series(c, 1);
        r->e_kinetic = series(c, 1);
        r->e_damping = series(c, 1);
        r->e_strain = series(c, 1);
        r->e_experimental = series(c, 1);
        r->e_error_rel = series(c, 1);
        r->e_groups = series(c, r->ngroups);
        ok = r->units_velocity && r->units_acceleration && r->units_energy && r->t && r->ag &&
             r->d && r->v && r->a && r->sdef && r->sforce && r->e_input && r->e_kinetic &&
             r->e_damping && r->e_strain && r->e_experimental && r->e_error_rel && r->e_groups;
    }
    if (ok && layout->nact > 0) ok = actuator_block(r, layout);
    if (ok) ok = hs_results_sites_init(r, layout) == 0;
    if (ok) ok = hs_results_recorders_init(r, layout) == 0;
    if (!ok) {
        hs_results_destroy(&r);
        return hs_fail(ctx, HS_ENOMEM, "results: out of memory for %lld records",
                       (long long)layout->capacity);
    }
    *out = r;
    return 0;
}

void hs_results_destroy(hs_results **rp)
{
    if (!rp || !*rp) return;
    hs_results *r = *rp;
    hs_results_names_free(r->dof_names, r->ndof);
    hs_results_names_free(r->spring_names, r->nsprings);
    hs_results_names_free(r->group_names, r->ngroups);
    hs_results_names_free(r->act_names, r->nact);
    hs_results_sites_free(r);
    hs_results_recorders_free(r);
    char *strings[] = {r->units_force,        r->units_length, r->units_time,     r->units_velocity,
                       r->units_acceleration, r->units_energy, r->units_stiffness};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) hs_free(strings[i]);
    double *blocks[] = {
        r->t,           r->ag,       r->d,         r->v,         r->a,         r->sdef,
        r->sforce,      r->e_input,  r->e_kinetic, r->e_damping, r->e_strain,  r->e_experimental,
        r->e_error_rel, r->e_groups, r->act_cmd,   r->act_meas,  r->act_force, r->act_tangent};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) hs_free(blocks[i]);
    hs_free(r);
    *rp = NULL;
}

static void put(double *dst, const double *src, int n)
{
    if (n <= 0) return;
    if (src) {
        memcpy(dst, src, (size_t)n * sizeof *dst);
    } else {
        for (int i = 0; i < n; i++) dst[i] = NAN;
    }
}

int hs_results_record(hs_results *r, double t, double ag, const double *d, const double *v,
                      const double *a, const double *spring_def, const double *spring_force,
                      const hs_energy *energy)
{
    if (!r) return HS_EINVAL;
    if (r->count >= r->capacity)
        return hs_fail(r->ctx, HS_EINVAL,
                       "results: store full at t = %g (capacity %lld records = steps + 1)", t,
                       (long long)r->capacity);
    if (!d || !v || !a)
        return hs_fail(r->ctx, HS_EINVAL, "results: record %lld at t = %g lacks d, v or a",
                       (long long)r->count, t);
    if (energy && energy->ngroups < r->ngroups)
        return hs_fail(r->ctx, HS_EINVAL,
                       "results: record %lld at t = %g has %d energy groups, the layout %d",
                       (long long)r->count, t, energy->ngroups, r->ngroups);
    int64_t k = r->count;
    size_t kn = (size_t)k * (size_t)r->ndof, ks = (size_t)k * (size_t)r->nsprings;
    r->t[k] = t;
    r->ag[k] = ag;
    put(r->d + kn, d, r->ndof);
    put(r->v + kn, v, r->ndof);
    put(r->a + kn, a, r->ndof);
    put(r->sdef + ks, spring_def, r->nsprings);
    put(r->sforce + ks, spring_force, r->nsprings);
    r->e_input[k] = energy ? energy->input : NAN;
    r->e_kinetic[k] = energy ? energy->kinetic : NAN;
    r->e_damping[k] = energy ? energy->damping : NAN;
    r->e_strain[k] = energy ? energy->strain : NAN;
    r->e_experimental[k] = energy ? energy->experimental : NAN;
    r->e_error_rel[k] = energy ? energy->error_rel : NAN;
    put(r->e_groups + (size_t)k * (size_t)r->ngroups, energy ? energy->group : NULL, r->ngroups);
    r->count = k + 1;
    atomic_store_explicit(&r->published, r->count, memory_order_release); /* results_live.c */
    return 0;
}

int hs_results_record_actuators(hs_results *r, const double *x_cmd, const double *x_meas,
                                const double *f_meas, const double *Kl)
{
    if (!r) return HS_EINVAL;
    if (r->nact <= 0)
        return hs_fail(r->ctx, HS_EINVAL, "results: actuators recorded without an actuator block");
    if (r->count <= 0)
        return hs_fail(r->ctx, HS_EINVAL, "results: actuators recorded before any record");
    const size_t k = (size_t)(r->count - 1), m = (size_t)r->nact;
    put(r->act_cmd + k * m, x_cmd, r->nact);
    put(r->act_meas + k * m, x_meas, r->nact);
    put(r->act_force + k * m, f_meas, r->nact);
    put(r->act_tangent + k * m * m, Kl, r->nact * r->nact);
    return 0;
}

int hs_results_actuator_count(const hs_results *r)
{
    return r ? r->nact : 0;
}

int64_t hs_results_count(const hs_results *r)
{
    return r ? r->count : 0;
}

const double *hs_results_series_d(const hs_results *r, int64_t k)
{
    if (!r || k < 0 || k >= r->count) return NULL;
    return r->d + (size_t)k * (size_t)r->ndof;
}

const double *hs_results_series_act_cmd(const hs_results *r, int64_t k)
{
    if (!r || r->nact <= 0 || k < 0 || k >= r->count) return NULL;
    return r->act_cmd + (size_t)k * (size_t)r->nact;
}

const double *hs_results_series_act_meas(const hs_results *r, int64_t k)
{
    if (!r || r->nact <= 0 || k < 0 || k >= r->count) return NULL;
    return r->act_meas + (size_t)k * (size_t)r->nact;
}

double hs_results_peak_abs_disp(const hs_results *r, int dof)
{
    if (!r || dof < 0 || dof >= r->ndof) return NAN;
    double peak = 0.0;
    for (int64_t k = 0; k < r->count; k++) {
        double x = fabs(r->d[(size_t)k * (size_t)r->ndof + (size_t)dof]);
        if (x > peak || isnan(x)) peak = x;
        if (isnan(peak)) break;
    }
    return peak;
}

void hs_results_peaks(const hs_results *r, double *peak)
{
    const size_t n = (size_t)r->ndof;
    for (size_t i = 0; i < n; i++) peak[i] = 0.0;
    for (int64_t k = 0; k < r->count; k++) { /* one pass, row by row; a NaN stays */
        const double *d = r->d + (size_t)k * n;
        for (size_t i = 0; i < n; i++) {
            const double x = fabs(d[i]);
            if (x > peak[i] || isnan(x)) peak[i] = x;
        }
    }
}
