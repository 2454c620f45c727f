/* Beam-column cross-sections: fibers, an elastic part and aggregated uniaxial materials, with
 * OpenSees' sign and axis conventions (fe_section.h). */
#include "fe_section.h"
#include "fe_section_passes.h"

#include <float.h>
#include <math.h>
#include <string.h>

int fe_section_create(hs_ctx *ctx, int ndm, fe_section **out)
{
    if (ndm != 2 && ndm != 3)
        return hs_fail(ctx, HS_EINVAL, "section: the model has %d dimensions (2 or 3)", ndm);
    fe_section *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    s->ctx = ctx;
    s->ndm = ndm;
    *out = s;
    return 0;
}

/* Section s lets go of its fibers' places: its reference to shared ones, or its own arrays. */
static void sec_drop_places(fe_section *s)
{
    if (s->places)
        fe_section_places_release(&s->places);
    else {
        hs_free(s->y);
        hs_free(s->z);
        hs_free(s->A);
    }
}

void fe_section_destroy(fe_section **sp)
{
    if (!sp || !*sp) return;
    fe_section *s = *sp;
    for (int i = 0; i < s->nfib; i++) hs_material_destroy(&s->mat[i]);
    for (int i = 0; i < s->nagg; i++) hs_material_destroy(&s->agg[i]);
    for (int g = 0; g < s->ngrp; g++) {
        hs_free(s->grp[g].params);
        if (!s->batch) { /* (a batch's states are its own) */
            hs_free(s->grp[g].c);
            hs_free(s->grp[g].t);
        }
        hs_free(s->grp[g].virgin);
    }
    hs_free(s->grp);
    hs_free(s->strain);
    hs_free(s->stress);
    hs_free(s->tangent);
    sec_drop_places(s);
    hs_free(s->mat);
    hs_free(s);
    *sp = NULL;
}

static int sec_defining(fe_section *s)
{
    return s->finalized ? hs_fail(s->ctx, HS_EINVAL, "section: already finalized") : 0;
}

static int sec_grow(fe_section *s)
{
    const int cap = s->capfib ? 2 * s->capfib : 64;
    double *y = hs_realloc(s->y, (size_t)cap * sizeof *y);
    if (y) s->y = y;
    double *z = hs_realloc(s->z, (size_t)cap * sizeof *z);
    if (z) s->z = z;
    double *A = hs_realloc(s->A, (size_t)cap * sizeof *A);
    if (A) s->A = A;
    hs_material **m = hs_realloc(s->mat, (size_t)cap * sizeof *m);
    if (m) s->mat = m;
    if (!y || !z || !A || !m) return HS_ENOMEM;
    s->capfib = cap;
    return 0;
}

int fe_section_add_fiber(fe_section *s, double y, double z, double A, hs_material *mat)
{
    int rc = sec_defining(s);
    if (!rc && !(A > 0.0 && isfinite(A) && isfinite(y) && isfinite(z)))
        rc = hs_fail(s->ctx, HS_EINPUT,
                     "section: fiber at (%g, %g) has area %g (must be > 0, finite position)", y, z,
                     A);
    if (!rc && s->nfib == s->capfib) rc = sec_grow(s);
    if (rc) {
        hs_material_destroy(&mat);
        return rc;
    }
    s->y[s->nfib] = y;
    s->z[s->nfib] = z;
    s->A[s->nfib] = A;
    s->mat[s->nfib++] = mat;
    return 0;
}

int fe_section_set_elastic(fe_section *s, double EA, double EIz, double EIy, double GJ)
{
    int rc = sec_defining(s);
    if (rc) return rc;
    const double v[4] = {EA, EIz, EIy, GJ};
    for (int i = 0; i < (s->ndm == 2 ? 2 : 4); i++)
        if (!(v[i] > 0.0 && isfinite(v[i])))
            return hs_fail(s->ctx, HS_EINPUT, "section Elastic: %s = %g must be > 0",
                           (const char *[]){"EA", "EIz", "EIy", "GJ"}[i], v[i]);
    memcpy(s->elastic, v, sizeof v);
    s->has_elastic = 1;
    if (s->ndm == 3) s->torsion = 1;
    return 0;
}

int fe_section_set_torsion(fe_section *s, double GJ)
{
    int rc = sec_defining(s);
    if (rc) return rc;
    if (s->ndm != 3 || !(GJ > 0.0 && isfinite(GJ)))
        return hs_fail(s->ctx, HS_EINPUT, "section: -GJ %g (3-D sections only, > 0)", GJ);
    s->GJ = GJ;
    s->torsion = 1;
    return 0;
}

/* The resultants the base (fibers or elastic part) provides, in order. */
static int sec_base_codes(const fe_section *s, int *code)
{
    if (!s->nfib && !s->has_elastic) return 0;
    int n = 0;
    code[n++] = FE_SEC_P;
    code[n++] = FE_SEC_MZ;
    if (s->ndm == 3) code[n++] = FE_SEC_MY;
    if (s->ndm == 3 && s->torsion) code[n++] = FE_SEC_T;
    return n;
}

int fe_section_add_uniaxial(fe_section *s, int code, hs_material *mat)
{
    int rc = sec_defining(s);
    if (!rc && (code < FE_SEC_MZ || code > FE_SEC_T || s->nagg == FE_SEC_MAX))
        rc = hs_fail(s->ctx, HS_EINPUT, "section: response code %d (1..6, at most 6)", code);
    int base[FE_SEC_MAX];
    const int nb = rc ? 0 : sec_base_codes(s, base);
    for (int i = 0; !rc && i < nb; i++)
        if (base[i] == code)
            rc = hs_fail(s->ctx, HS_EINPUT,
                         "section: the base section already has resultant %d; aggregate a "
                         "material on a resultant it lacks (Vy, Vz, or T without -GJ)",
                         code);
    for (int i = 0; !rc && i < s->nagg; i++)
        if (s->agg_slot[i] == code)
            rc = hs_fail(s->ctx, HS_EINPUT, "section: two materials on resultant %d", code);
    if (rc) {
        hs_material_destroy(&mat);
        return rc;
    }
    s->agg[s->nagg] = mat;
    s->agg_slot[s->nagg++] = code; /* a code until finalized, then a slot */
    return 0;
}

int fe_section_slot(const fe_section *s, int code)
{
    for (int i = 0; i < s->order; i++)
        if (s->code[i] == code) return i;
    return -1;
}

/* The group of law (its index), a new one if none has the law and its parameters; -1 when out of
 * memory. */
static int sec_group_of(fe_section *s, const hs_fiber_law *law)
{
    for (int g = 0; g < s->ngrp; g++) {
        const hs_fiber_law *l = &s->grp[g].law;
        if (l->trial == law->trial && l->params_size == law->params_size &&
            l->state_n == law->state_n && memcmp(l->params, law->params, l->params_size) == 0)
            return g;
    }
    fe_fiber_group *grp = hs_realloc(s->grp, (size_t)(s->ngrp + 1) * sizeof *grp);
    if (!grp) return -1;
    s->grp = grp;
    fe_fiber_group *g = &grp[s->ngrp];
    *g = (fe_fiber_group){.law = *law};
    g->params = hs_malloc(law->params_size);
    if (!g->params) return -1;
    memcpy(g->params, law->params, law->params_size);
    g->law.params = g->params;
    return s->ngrp++;
}

/* Fibers of one group at one place (y in 2-D, y and z in 3-D) and in one state see the same
 * strain at every trial and so stay in one state: one fiber of their summed area, at their
 * area-weighted position, stands for them (fewer evaluations; the resultants change by
 * round-off, the order of the sums). "One place" is within 16 ulps of the section's extent: the
 * cells of a patch and its mirror image (a cover's two faces) have the same exact centroid y, but
 * the polygon formulas (as OpenSees') give it with a few ulps of difference from the z
 * coordinates. */
static int sec_same_place(const fe_section *s, int i, int j, double tol)
{
    return fabs(s->y[i] - s->y[j]) <= tol && (s->ndm == 2 || fabs(s->z[i] - s->z[j]) <= tol);
}

/* Where variable k of fiber i is in the states of group g (material_fibers.h: one fiber after
 * the other, or rows of ld). */
static size_t grp_at(const fe_fiber_group *g, int i, size_t k)
{
    return g->law.rows ? k * g->ld + (size_t)i : (size_t)i * g->law.state_n + k;
}

size_t fe_fiber_group_bytes(const fe_fiber_group *g)
{
    return (size_t)g->n * g->law.state_n * sizeof(double);
}

void fe_fiber_group_copy(const fe_fiber_group *g, double *to, const double *from)
{
    if (!g->law.rows || g->ld == (size_t)g->n) {
        memcpy(to, from, fe_fiber_group_bytes(g));
        return;
    }
    for (size_t k = 0; k < g->law.state_n; k++)
        memcpy(to + k * g->ld, from + k * g->ld, (size_t)g->n * sizeof(double));
}

/* Fiber i's state (law.state_n doubles) from and to the states `all` of group g. */
static void grp_gather(const fe_fiber_group *g, const double *all, int i, double *st)
{
    for (size_t k = 0; k < g->law.state_n; k++) st[k] = all[grp_at(g, i, k)];
}

static void grp_scatter(const fe_fiber_group *g, double *all, int i, const double *st)
{
    for (size_t k = 0; k < g->law.state_n; k++) all[grp_at(g, i, k)] = st[k];
}

/* Merges the fibers (sec_same_place), then lays each group's states out as its law asks: they
 * come in one fiber after the other (sec_group). */
static void sec_merge(fe_section *s)
{
    double ext = 0.0;
    for (int i = 0; i < s->nfib; i++) ext = fmax(ext, fmax(fabs(s->y[i]), fabs(s->z[i])));
    const double tol = 16.0 * DBL_EPSILON * ext;
    int w = 0;
    for (int g = 0; g < s->ngrp; g++) {
        fe_fiber_group *gr = &s->grp[g];
        const size_t m = gr->law.state_n, bytes = m * sizeof(double);
        const int first = w;
        for (int r = gr->first; r < gr->first + gr->n; r++) {
            const double *st = gr->c + (size_t)(r - gr->first) * m;
            int j = first;
            while (j < w && !(sec_same_place(s, j, r, tol) &&
                              memcmp(gr->c + (size_t)(j - first) * m, st, bytes) == 0))
                j++;
            if (j < w) {
                const double A = s->A[j] + s->A[r];
                s->y[j] = (s->y[j] * s->A[j] + s->y[r] * s->A[r]) / A;
                s->z[j] = (s->z[j] * s->A[j] + s->z[r] * s->A[r]) / A;
                s->A[j] = A;
                continue;
            }
            s->y[w] = s->y[r];
            s->z[w] = s->z[r];
            s->A[w] = s->A[r];
            memmove(gr->c + (size_t)(w - first) * m, st, bytes);
            w++;
        }
        gr->first = first;
        gr->n = w - first;
        gr->ld = (size_t)gr->n;
        for (int i = 0; i < gr->n; i++) /* one fiber after the other -> the law's layout */
            grp_scatter(gr, gr->t, i, gr->c + (size_t)i * m);
        memcpy(gr->c, gr->t, (size_t)gr->n * bytes);
    }
    for (int i = s->nobj; i < s->nfib; i++, w++) {
        s->y[w] = s->y[i];
        s->z[w] = s->z[i];
        s->A[w] = s->A[i];
        s->mat[w] = s->mat[i];
        if (w != i) s->mat[i] = NULL;
    }
    s->nobj = s->ngrp ? s->grp[s->ngrp - 1].first + s->grp[s->ngrp - 1].n : 0;
    s->nfib = w;
}

/* Moves the fibers whose law runs on fiber arrays into groups (material_fibers.h): the fibers
 * of group 0 first, then group 1, ..., each in the order given, then those that keep a material
 * object; the grouped fibers' states go to their group's arrays and their objects are freed. */
static int sec_group(fe_section *s)
{
    const size_t n = (size_t)s->nfib, cap = n ? n : 1;
    int *gof = hs_malloc(cap * sizeof *gof), *order = hs_malloc(cap * sizeof *order);
    double *tmp = hs_malloc(3 * cap * sizeof *tmp);
    hs_material **mtmp = hs_malloc(cap * sizeof *mtmp);
    s->strain = hs_calloc(cap, sizeof(double));
    s->stress = hs_calloc(cap, sizeof(double));
    s->tangent = hs_calloc(cap, sizeof(double));
    int rc = gof && order && tmp && mtmp && s->strain && s->stress && s->tangent ? 0 : HS_ENOMEM;
    for (size_t i = 0; !rc && i < n; i++) {
        hs_fiber_law law;
        gof[i] = hs_material_fiber_law(s->mat[i], &law, NULL) && law.state_n <= FE_FIBER_STATE_MAX
                     ? sec_group_of(s, &law)
                     : -2;
        if (gof[i] == -1) rc = HS_ENOMEM;
    }
    size_t k = 0;
    for (int g = 0; !rc && g <= s->ngrp; g++) { /* g = ngrp: the fibers with objects */
        const int want = g < s->ngrp ? g : -2;
        if (g < s->ngrp) s->grp[g].first = (int)k;
        for (size_t i = 0; i < n; i++)
            if (gof[i] == want) order[k++] = (int)i;
        if (g < s->ngrp) s->grp[g].n = (int)k - s->grp[g].first;
    }
    if (!rc && n) {
        s->nobj = s->ngrp ? s->grp[s->ngrp - 1].first + s->grp[s->ngrp - 1].n : 0;
        for (size_t i = 0; i < n; i++) {
            tmp[i] = s->y[order[i]];
            tmp[n + i] = s->z[order[i]];
            tmp[2 * n + i] = s->A[order[i]];
            mtmp[i] = s->mat[order[i]];
        }
        memcpy(s->y, tmp, n * sizeof *tmp);
        memcpy(s->z, tmp + n, n * sizeof *tmp);
        memcpy(s->A, tmp + 2 * n, n * sizeof *tmp);
        memcpy(s->mat, mtmp, n * sizeof *mtmp);
    }
    for (int g = 0; !rc && g < s->ngrp; g++) {
        fe_fiber_group *gr = &s->grp[g];
        const size_t m = gr->law.state_n, len = (size_t)gr->n * m;
        gr->c = hs_malloc(len * sizeof(double));
        gr->t = hs_malloc(len * sizeof(double));
        gr->virgin = hs_malloc(m * sizeof(double));
        if (!gr->c || !gr->t || !gr->virgin) {
            rc = HS_ENOMEM;
            break;
        }
        hs_fiber_law law;
        for (int i = 0; i < gr->n; i++)
            hs_material_fiber_law(s->mat[gr->first + i], &law, gr->c + (size_t)i * m);
        memcpy(gr->t, gr->c, len * sizeof(double));
        hs_material *first = s->mat[gr->first];
        rc = hs_material_reset(first);
        if (!rc) hs_material_fiber_law(first, &law, gr->virgin);
        for (int i = 0; i < gr->n; i++) hs_material_destroy(&s->mat[gr->first + i]);
    }
    if (!rc) sec_merge(s);
    hs_free(gof);
    hs_free(order);
    hs_free(tmp);
    hs_free(mtmp);
    return rc;
}

int fe_section_finalize(fe_section *s)
{
    int rc = sec_defining(s);
    if (rc) return rc;
    if (!s->nfib && !s->has_elastic && !s->nagg)
        return hs_fail(s->ctx, HS_EINPUT, "section: no fibers, elastic part or material");
    int agg_t = 0;
    for (int i = 0; i < s->nagg; i++) agg_t |= s->agg_slot[i] == FE_SEC_T;
    if (s->ndm == 3 && s->nfib && !s->torsion && !agg_t)
        return hs_fail(s->ctx, HS_EINPUT,
                       "section Fiber of a 3-D model without torsion: add -GJ value or -torsion "
                       "matTag (OpenSees 3.x refuses it too: \"no torsion specified for 3D fiber "
                       "section\")");
    s->order = sec_base_codes(s, s->code);
    for (int i = 0; i < s->nagg; i++) {
        s->code[s->order] = s->agg_slot[i];
        s->agg_slot[i] = s->order++;
    }
    double A = 0.0, Qz = 0.0, Qy = 0.0;
    for (int i = 0; i < s->nfib; i++) {
        A += s->A[i];
        Qz += s->y[i] * s->A[i];
        Qy += s->z[i] * s->A[i];
    }
    if (s->nfib) {
        s->ybar = Qz / A;
        s->zbar = Qy / A;
    }
    for (int i = 0; i < s->nfib; i++) {
        s->y[i] -= s->ybar;
        s->z[i] -= s->zbar;
    }
    s->linear = 1;
    for (int i = 0; i < s->nfib; i++) s->linear &= hs_material_is_linear(s->mat[i]);
    for (int i = 0; i < s->nagg; i++) s->linear &= hs_material_is_linear(s->agg[i]);
    rc = sec_group(s);
    /* y padded by 3 zeros (a batch's strains in blocks of four: fe_section_batch.c) */
    while (!rc && s->nfib && s->capfib < s->nfib + 3) rc = sec_grow(s);
    if (rc) return rc;
    if (s->nfib) memset(s->y + s->nfib, 0, 3 * sizeof *s->y);
    s->fibers_2d = s->ndm == 2 && s->nfib && s->nobj == s->nfib && !s->has_elastic && !s->nagg;
    s->finalized = 1;
    const double zero[FE_SEC_MAX] = {0};
    return fe_section_set_trial(s, zero);
}

/* The grouped fibers' trial states, stresses and tangents from their strains. */
SEC_INLINE void sec_groups(fe_section *s)
{
    for (int g = 0; g < s->ngrp; g++) {
        const fe_fiber_group *gr = &s->grp[g];
        const int f = gr->first;
        gr->law.trial(gr->params, (size_t)gr->n, gr->ld, s->strain + f, gr->c, gr->t, s->stress + f,
                      s->tangent + f);
    }
    s->grp_trial = 1;
}

/* The fibers' trial strains, stresses and tangents. */
SEC_INLINE int sec_fibers(fe_section *s, double eps, double kz, double ky)
{
    const int nf = s->nfib;
    sec_strains((size_t)nf, s->y, s->ndm == 2 ? NULL : s->z, eps, kz, ky, s->strain);
    sec_groups(s);
    int rc = 0;
    for (int i = s->nobj; i < nf; i++) {
        const int r = hs_material_set_trial(s->mat[i], s->strain[i], 0.0);
        if (r && !rc) rc = r;
        s->stress[i] = hs_material_stress(s->mat[i]);
        s->tangent[i] = hs_material_tangent(s->mat[i]);
    }
    return rc;
}

SEC_INLINE void sec_sums_2d(size_t n, const double *y, const double *A, const double *stress,
                            const double *tangent, double *sum)
{
    sec_acc a = {{0}, {0}, {0}, {0}, {0}};
    size_t i = 0;
    for (; i + 4 <= n; i += 4) sec_sums_four(&a, y + i, A + i, stress + i, tangent + i);
    sec_sums_end(&a, n - i, y + i, A + i, stress + i, tangent + i, sum);
}

/* fe_section_set_trial for a 2-D section of grouped fibers alone (sec->fibers_2d): P and Mz
 * from the fibers, nothing else to add (the same operations as the general path). */
__attribute__((target_clones("avx2", "default"))) static void sec_trial_fibers_2d(fe_section *s,
                                                                                  const double *e)
{
    s->e[0] = e[0];
    s->e[1] = e[1];
    sec_strains((size_t)s->nfib, s->y, NULL, e[0], e[1], 0.0, s->strain);
    sec_groups(s);
    double sum[5];
    sec_sums_2d((size_t)s->nfib, s->y, s->A, s->stress, s->tangent, sum);
    sec_set_sums_2d(s, sum);
}

/* The fibers' trial states and their sums (the general path): sum[] = {k00, k01, k02, k11, k12,
 * k22, N, Mz, My} (2-D: the 2-D sums, the others zero). */
__attribute__((target_clones("avx2", "default"))) static int
sec_fiber_sums(fe_section *s, const double *e, double *sum)
{
    const int three = s->ndm == 3;
    const int rc = sec_fibers(s, e[0], e[1], three ? e[2] : 0.0);
    const double *y = s->y, *z = s->z, *A = s->A;
    double k00 = 0, k01 = 0, k02 = 0, k11 = 0, k12 = 0, k22 = 0, N = 0, Mz = 0, My = 0;
    if (!three) {
        double sum2[5];
        sec_sums_2d((size_t)s->nfib, y, A, s->stress, s->tangent, sum2);
        k00 = sum2[0];
        k01 = sum2[1];
        k11 = sum2[2];
        N = sum2[3];
        Mz = sum2[4];
    } else
        for (int i = 0; i < s->nfib; i++) {
            const double kA = s->tangent[i] * A[i], fA = s->stress[i] * A[i];
            k00 += kA;
            k01 -= kA * y[i];
            k11 += kA * y[i] * y[i];
            k02 += kA * z[i];
            k12 -= kA * y[i] * z[i];
            k22 += kA * z[i] * z[i];
            N += fA;
            Mz -= fA * y[i];
            My += fA * z[i];
        }
    const double r[9] = {k00, k01, k02, k11, k12, k22, N, Mz, My};
    memcpy(sum, r, sizeof r);
    return rc;
}

int fe_section_set_trial(fe_section *s, const double *e)
{
    if (s->batch) fe_section_batch_views(s);
    if (s->fibers_2d) {
        sec_trial_fibers_2d(s, e);
        return 0;
    }
    const int n = s->order, three = s->ndm == 3;
    for (int k = 0; k < n; k++) { /* (loops: a few entries, no library call) */
        s->e[k] = e[k];
        s->s[k] = 0.0;
    }
    for (int k = 0; k < n * n; k++) s->ks[k] = 0.0;
    int rc = 0;
    if (s->nfib) {
        double sum[9]; /* k00, k01, k02, k11, k12, k22, N, Mz, My */
        rc = sec_fiber_sums(s, e, sum);
        s->s[0] = sum[6];
        s->s[1] = sum[7];
        s->ks[0] = sum[0];
        s->ks[1] = s->ks[n] = sum[1];
        s->ks[n + 1] = sum[3];
        if (three) {
            s->s[2] = sum[8];
            s->ks[2] = s->ks[2 * n] = sum[2];
            s->ks[n + 2] = s->ks[2 * n + 1] = sum[4];
            s->ks[2 * n + 2] = sum[5];
        }
        if (three && s->torsion) {
            s->s[3] = s->GJ * e[3];
            s->ks[3 * n + 3] = s->GJ;
        }
    }
    if (s->has_elastic)
        for (int i = 0; i < (three ? 4 : 2); i++) {
            s->s[i] += s->elastic[i] * e[i];
            s->ks[i * n + i] += s->elastic[i];
        }
    for (int i = 0; i < s->nagg; i++) {
        const int k = s->agg_slot[i];
        const int r = hs_material_set_trial(s->agg[i], e[k], 0.0);
        if (r && !rc) rc = r;
        s->s[k] = hs_material_stress(s->agg[i]);
        s->ks[k * n + k] = hs_material_tangent(s->agg[i]);
    }
    return rc;
}

/* The initial tangent of fiber i. */
static double sec_fiber_k0(const fe_section *s, int i)
{
    if (i >= s->nobj) return hs_material_initial_tangent(s->mat[i]);
    int g = 0;
    while (i >= s->grp[g].first + s->grp[g].n) g++;
    return s->grp[g].law.initial_tangent;
}

void fe_section_initial_tangent(const fe_section *s, double *ks)
{
    const int n = s->order, three = s->ndm == 3;
    memset(ks, 0, (size_t)(n * n) * sizeof *ks);
    for (int i = 0; i < s->nfib; i++) {
        const double y = s->y[i], z = three ? s->z[i] : 0.0;
        const double kA = sec_fiber_k0(s, i) * s->A[i];
        ks[0] += kA;
        ks[1] -= kA * y;
        ks[n + 1] += kA * y * y;
        if (three) {
            ks[2] += kA * z;
            ks[n + 2] -= kA * y * z;
            ks[2 * n + 2] += kA * z * z;
        }
    }
    ks[n] = ks[1];
    if (three && s->nfib) {
        ks[2 * n] = ks[2];
        ks[2 * n + 1] = ks[n + 2];
        if (s->torsion) ks[3 * n + 3] = s->GJ;
    }
    if (s->has_elastic)
        for (int i = 0; i < (three ? 4 : 2); i++) ks[i * n + i] += s->elastic[i];
    for (int i = 0; i < s->nagg; i++) {
        const int k = s->agg_slot[i];
        ks[k * n + k] = hs_material_initial_tangent(s->agg[i]);
    }
}

/* Applies op to every material object of the section; the first error is returned. */
static int sec_each(fe_section *s, int (*op)(hs_material *))
{
    int rc = 0;
    for (int i = s->nobj; i < s->nfib; i++) {
        const int r = op(s->mat[i]);
        if (r && !rc) rc = r;
    }
    for (int i = 0; i < s->nagg; i++) {
        const int r = op(s->agg[i]);
        if (r && !rc) rc = r;
    }
    return rc;
}

int fe_section_commit(fe_section *s)
{
    memcpy(s->e_commit, s->e, sizeof s->e);
    /* the groups' trial states become the committed ones by a swap of the arrays: the next trial
     * writes every fiber's whole state (material_fibers.h) */
    if (s->batch)
        fe_section_batch_commit(s->batch);
    else
        for (int g = 0; s->grp_trial && g < s->ngrp; g++) {
            double *c = s->grp[g].c;
            s->grp[g].c = s->grp[g].t;
            s->grp[g].t = c;
        }
    s->grp_trial = 0;
    return sec_each(s, hs_material_commit);
}

int fe_section_revert(fe_section *s)
{
    if (s->batch) fe_section_batch_views(s);
    for (int g = 0; g < s->ngrp; g++) fe_fiber_group_copy(&s->grp[g], s->grp[g].t, s->grp[g].c);
    s->grp_trial = 0;
    const int rc = sec_each(s, hs_material_revert);
    return rc ? rc : fe_section_set_trial(s, s->e_commit);
}

int fe_section_reset(fe_section *s)
{
    if (s->batch) fe_section_batch_views(s);
    for (int g = 0; g < s->ngrp; g++) {
        fe_fiber_group *gr = &s->grp[g];
        for (int i = 0; i < gr->n; i++) grp_scatter(gr, gr->c, i, gr->virgin);
        fe_fiber_group_copy(gr, gr->t, gr->c);
    }
    s->grp_trial = 0;
    int rc = sec_each(s, hs_material_reset);
    memset(s->e_commit, 0, sizeof s->e_commit);
    return rc ? rc : fe_section_set_trial(s, s->e_commit);
}

size_t fe_section_state_size(const fe_section *s)
{
    size_t n = FE_SEC_MAX;
    for (int g = 0; g < s->ngrp; g++) n += (size_t)s->grp[g].n * s->grp[g].law.save_n;
    for (int i = s->nobj; i < s->nfib; i++) n += hs_material_state_size(s->mat[i]);
    for (int i = 0; i < s->nagg; i++) n += hs_material_state_size(s->agg[i]);
    return n;
}

int fe_section_state_save(const fe_section *s, double *out)
{
    memcpy(out, s->e_commit, FE_SEC_MAX * sizeof(double));
    out += FE_SEC_MAX;
    const int swapped = s->batch && fe_section_batch_swapped(s);
    for (int g = 0; g < s->ngrp; g++) {
        const fe_fiber_group *gr = &s->grp[g];
        const double *c = swapped ? gr->t : gr->c;
        const size_t k = gr->law.save_n;
        for (int i = 0; i < gr->n; i++, out += k) {
            double st[FE_FIBER_STATE_MAX];
            grp_gather(gr, c, i, st);
            memcpy(out, st, k * sizeof(double));
        }
    }
    for (int i = s->nobj; i < s->nfib + s->nagg; i++) {
        const hs_material *m = i < s->nfib ? s->mat[i] : s->agg[i - s->nfib];
        const int rc = hs_material_state_save(m, out);
        if (rc) return rc;
        out += hs_material_state_size(m);
    }
    return 0;
}

int fe_section_state_load(fe_section *s, const double *in)
{
    if (s->batch) fe_section_batch_views(s);
    memcpy(s->e_commit, in, FE_SEC_MAX * sizeof(double));
    in += FE_SEC_MAX;
    for (int g = 0; g < s->ngrp; g++) {
        fe_fiber_group *gr = &s->grp[g];
        const size_t k = gr->law.save_n;
        for (int i = 0; i < gr->n; i++, in += k) {
            double st[FE_FIBER_STATE_MAX];
            grp_gather(gr, gr->c, i, st);
            memcpy(st, in, k * sizeof(double));
            const int rc = gr->law.load(gr->params, s->ctx, st);
            if (rc) return rc;
            grp_scatter(gr, gr->c, i, st);
        }
        fe_fiber_group_copy(gr, gr->t, gr->c);
    }
    s->grp_trial = 0;
    for (int i = s->nobj; i < s->nfib + s->nagg; i++) {
        hs_material *m = i < s->nfib ? s->mat[i] : s->agg[i - s->nfib];
        const int rc = hs_material_state_load(m, in);
        if (rc) return rc;
        in += hs_material_state_size(m);
    }
    return 0;
}

/* Places shared by sections (fe_section.h): the arrays and their references. */
struct fe_section_places {
    unsigned refs;
    int nfib;
    double *y, *z, *A; /* y padded by 3 zeros (fe_section_finalize) */
};

fe_section_places *fe_section_places_of(fe_section *s)
{
    if (!s->places) {
        fe_section_places *p = hs_malloc(sizeof *p);
        if (!p) return NULL;
        *p = (fe_section_places){1, s->nfib, s->y, s->z, s->A};
        s->places = p;
    }
    s->places->refs++;
    return s->places;
}

int fe_section_use_places(fe_section *s, fe_section_places *p)
{
    const size_t n = (size_t)s->nfib, bytes = n * sizeof(double);
    if (!s->finalized || p->nfib != s->nfib || s->places == p || !n ||
        memcmp(p->y, s->y, bytes + 3 * sizeof(double)) != 0 || memcmp(p->z, s->z, bytes) != 0 ||
        memcmp(p->A, s->A, bytes) != 0)
        return 0;
    sec_drop_places(s);
    p->refs++;
    s->places = p;
    s->y = p->y;
    s->z = p->z;
    s->A = p->A;
    return 1;
}

void fe_section_places_release(fe_section_places **pp)
{
    if (!pp || !*pp) return;
    fe_section_places *p = *pp;
    *pp = NULL;
    if (--p->refs) return;
    hs_free(p->y);
    hs_free(p->z);
    hs_free(p->A);
    hs_free(p);
}
