/* Records of the results store as flat rows of doubles, for checkpoints: one row per record holds
 * every series at that record (t, ag, d, v, a, spring deformations and forces, energies, group
 * energies, the actuator, site and recorder blocks when there are), so a run that resumes gets
 * back exactly the records it had. Never allocates. */
#include "results_impl.h"

#include <math.h>
#include <string.h>

#define HS_RESULTS_ENERGIES 6

size_t hs_results_layout_width(const hs_results_layout *l)
{
    const size_t n = (size_t)l->ndof, s = (size_t)l->nsprings, m = (size_t)l->nact;
    const size_t ns = (size_t)l->nsites, ms = ns ? m : 0; /* the site block's per-actuator part */
    size_t rec = 0;
    for (int j = 0; l->recorders && j < l->nrecorders; j++) rec += (size_t)l->recorders[j].ncols;
    return 2 + 3 * n + 2 * s + HS_RESULTS_ENERGIES + (size_t)l->ngroups + 3 * m + m * m + 2 * ns +
           2 * ms + rec;
}

size_t hs_results_record_width(const hs_results *r)
{
    const hs_results_layout l = {.ndof = r->ndof,
                                 .nsprings = r->nsprings,
                                 .ngroups = r->ngroups,
                                 .nact = r->nact,
                                 .nsites = r->nsites};
    return hs_results_layout_width(&l) + r->rec_width;
}

/* Copies record k between the store and a row; to_row selects the direction. */
static void row_copy(hs_results *r, int64_t k, double *row, int to_row)
{
    const size_t kk = (size_t)k, n = (size_t)r->ndof, s = (size_t)r->nsprings;
    const size_t g = (size_t)r->ngroups, m = (size_t)r->nact, ns = (size_t)r->nsites;
    struct {
        double *base;
        size_t width;
    } blocks[] = {{r->t, 1},
                  {r->ag, 1},
                  {r->d, n},
                  {r->v, n},
                  {r->a, n},
                  {r->sdef, s},
                  {r->sforce, s},
                  {r->e_input, 1},
                  {r->e_kinetic, 1},
                  {r->e_damping, 1},
                  {r->e_strain, 1},
                  {r->e_experimental, 1},
                  {r->e_error_rel, 1},
                  {r->e_groups, g},
                  {r->act_cmd, m},
                  {r->act_meas, m},
                  {r->act_force, m},
                  {r->act_tangent, m * m},
                  {r->site_delay, ns},
                  {r->act_te, ns ? m : 0},
                  {r->act_ti, ns ? m : 0},
                  {r->rec, r->rec_width}};
    size_t pos = 0;
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        const size_t w = blocks[b].width;
        if (!w || !blocks[b].base) continue;
        double *series = blocks[b].base + kk * w;
        if (to_row)
            memcpy(row + pos, series, w * sizeof(double));
        else
            memcpy(series, row + pos, w * sizeof(double));
        pos += w;
    }
    for (size_t j = 0; j < ns; j++) { /* the sites' state bits, exact as doubles */
        if (to_row)
            row[pos + j] = (double)r->site_states[kk * ns + j];
        else
            r->site_states[kk * ns + j] = (int)row[pos + j];
    }
}

int hs_results_record_pack(const hs_results *r, int64_t k, double *row)
{
    if (!r || k < 0 || k >= r->count) return HS_EINVAL;
    row_copy((hs_results *)r, k, row, 1); /* reads the store only */
    return 0;
}

int hs_results_record_append(hs_results *r, const double *row)
{
    if (!r) return HS_EINVAL;
    if (r->count >= r->capacity)
        return hs_fail(r->ctx, HS_EINVAL, "results: store full (capacity %lld records)",
                       (long long)r->capacity);
    row_copy(r, r->count, (double *)row, 0); /* reads the row only */
    r->count++;
    atomic_store_explicit(&r->published, r->count, memory_order_release);
    return 0;
}

int hs_results_truncate(hs_results *r, int64_t count)
{
    if (!r || count < 0 || count > r->count) return HS_EINVAL;
    const size_t m = (size_t)r->nact;
    for (int64_t k = count; k < r->count && m; k++) {
        const size_t kk = (size_t)k;
        for (size_t j = 0; j < m; j++)
            r->act_cmd[kk * m + j] = r->act_meas[kk * m + j] = r->act_force[kk * m + j] = NAN;
        for (size_t j = 0; j < m * m; j++) r->act_tangent[kk * m * m + j] = NAN;
    }
    const size_t ns = (size_t)r->nsites;
    for (int64_t k = count; k < r->count && ns; k++) {
        const size_t kk = (size_t)k;
        for (size_t j = 0; j < ns; j++) {
            r->site_states[kk * ns + j] = 0;
            r->site_delay[kk * ns + j] = NAN;
        }
        for (size_t j = 0; j < m; j++) r->act_te[kk * m + j] = r->act_ti[kk * m + j] = NAN;
    }
    for (size_t j = (size_t)count * r->rec_width; j < (size_t)r->count * r->rec_width; j++)
        r->rec[j] = NAN;
    r->count = count;
    atomic_store_explicit(&r->published, count, memory_order_release);
    return 0;
}
