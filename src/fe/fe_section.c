/* Beam-column cross-sections: fibers, an elastic part and aggregated uniaxial materials, with
 * OpenSees' sign and axis conventions (fe_section.h). */
#include "fe_section.h"

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

void fe_section_destroy(fe_section **sp)
{
    if (!sp || !*sp) return;
    fe_section *s = *sp;
    for (int i = 0; i < s->nfib; i++) hs_material_destroy(&s->mat[i]);
    for (int i = 0; i < s->nagg; i++) hs_material_destroy(&s->agg[i]);
    hs_free(s->y);
    hs_free(s->z);
    hs_free(s->A);
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
    s->finalized = 1;
    const double zero[FE_SEC_MAX] = {0};
    return fe_section_set_trial(s, zero);
}

int fe_section_set_trial(fe_section *s, const double *e)
{
    const int n = s->order, three = s->ndm == 3;
    memcpy(s->e, e, (size_t)n * sizeof *e);
    memset(s->s, 0, sizeof s->s);
    memset(s->ks, 0, sizeof s->ks);
    int rc = 0;
    if (s->nfib) {
        const double eps = e[0], kz = e[1], ky = three ? e[2] : 0.0;
        double k00 = 0, k01 = 0, k02 = 0, k11 = 0, k12 = 0, k22 = 0, N = 0, Mz = 0, My = 0;
        for (int i = 0; i < s->nfib; i++) {
            const double y = s->y[i], z = three ? s->z[i] : 0.0;
            const int r = hs_material_set_trial(s->mat[i], eps - y * kz + z * ky, 0.0);
            if (r && !rc) rc = r;
            const double kA = hs_material_tangent(s->mat[i]) * s->A[i];
            const double fA = hs_material_stress(s->mat[i]) * s->A[i];
            k00 += kA;
            k01 -= kA * y;
            k11 += kA * y * y;
            k02 += kA * z;
            k12 -= kA * y * z;
            k22 += kA * z * z;
            N += fA;
            Mz -= fA * y;
            My += fA * z;
        }
        s->s[0] = N;
        s->s[1] = Mz;
        s->ks[0] = k00;
        s->ks[1] = s->ks[n] = k01;
        s->ks[n + 1] = k11;
        if (three) {
            s->s[2] = My;
            s->ks[2] = s->ks[2 * n] = k02;
            s->ks[n + 2] = s->ks[2 * n + 1] = k12;
            s->ks[2 * n + 2] = k22;
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

void fe_section_initial_tangent(const fe_section *s, double *ks)
{
    const int n = s->order, three = s->ndm == 3;
    memset(ks, 0, (size_t)(n * n) * sizeof *ks);
    for (int i = 0; i < s->nfib; i++) {
        const double y = s->y[i], z = three ? s->z[i] : 0.0;
        const double kA = hs_material_initial_tangent(s->mat[i]) * s->A[i];
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

/* Applies op to every material of the section; the first error is returned. */
static int sec_each(fe_section *s, int (*op)(hs_material *))
{
    int rc = 0;
    for (int i = 0; i < s->nfib; i++) {
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
    return sec_each(s, hs_material_commit);
}

int fe_section_revert(fe_section *s)
{
    const int rc = sec_each(s, hs_material_revert);
    return rc ? rc : fe_section_set_trial(s, s->e_commit);
}

int fe_section_reset(fe_section *s)
{
    int rc = sec_each(s, hs_material_reset);
    memset(s->e_commit, 0, sizeof s->e_commit);
    return rc ? rc : fe_section_set_trial(s, s->e_commit);
}

size_t fe_section_state_size(const fe_section *s)
{
    size_t n = FE_SEC_MAX;
    for (int i = 0; i < s->nfib; i++) n += hs_material_state_size(s->mat[i]);
    for (int i = 0; i < s->nagg; i++) n += hs_material_state_size(s->agg[i]);
    return n;
}

int fe_section_state_save(const fe_section *s, double *out)
{
    memcpy(out, s->e_commit, FE_SEC_MAX * sizeof(double));
    out += FE_SEC_MAX;
    for (int i = 0; i < s->nfib + s->nagg; i++) {
        const hs_material *m = i < s->nfib ? s->mat[i] : s->agg[i - s->nfib];
        const int rc = hs_material_state_save(m, out);
        if (rc) return rc;
        out += hs_material_state_size(m);
    }
    return 0;
}

int fe_section_state_load(fe_section *s, const double *in)
{
    memcpy(s->e_commit, in, FE_SEC_MAX * sizeof(double));
    in += FE_SEC_MAX;
    for (int i = 0; i < s->nfib + s->nagg; i++) {
        hs_material *m = i < s->nfib ? s->mat[i] : s->agg[i - s->nfib];
        const int rc = hs_material_state_load(m, in);
        if (rc) return rc;
        in += hs_material_state_size(m);
    }
    return 0;
}
