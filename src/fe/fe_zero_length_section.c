/* The zero-length section element (OpenSees' zeroLengthSection, SRC/element/zeroLength/
 * ZeroLengthSection.cpp, read for facts): a section (fibers, elastic, aggregated materials;
 * fe_section.h) between two nodes, its deformations the relative displacements of the nodes in
 * the element's local axes. Local x (-orient, default global X) and a vector yp of the local x-y
 * plane (default global Y): z = x x yp, y = z x x, normalised. Per resultant:
 *   P = x . (u_j - u_i),   Vy = y . (u_j - u_i),   Vz = z . (u_j - u_i),
 *   Mz = z . (th_j - th_i),   My = y . (th_j - th_i),   T = x . (th_j - th_i)
 * (2-D: the in-plane translations and the rotation rz, whose factor is z's Z component), so the
 * deformations are e = A (d_j - d_i), the nodal forces f = [-A^T s; A^T s] and the tangent
 * [A^T ks A, -A^T ks A; -A^T ks A, A^T ks A]. The element's DOFs are the line elements' (2-D
 * [ux uy rz]_i,j, 3-D [ux uy uz rx ry rz]_i,j). */
#include "fe_impl.h"
#include "fe_section.h"

#include <math.h>
#include <string.h>

/* Row of A (per node: 3 DOFs in 2-D, 6 in 3-D) of resultant `code`; R's rows are x, y, z. */
static void a_row(const hs_fe *fe, const double R[9], int code, double *row)
{
    const int per = fe->ndm == 3 ? 6 : 3;
    memset(row, 0, (size_t)per * sizeof *row);
    const double *x = R, *y = R + 3, *z = R + 6, *axis = NULL;
    int rot = 0;
    switch (code) {
    case FE_SEC_P:
        axis = x;
        break;
    case FE_SEC_VY:
        axis = y;
        break;
    case FE_SEC_VZ:
        axis = z;
        break;
    case FE_SEC_MZ:
        axis = z, rot = 1;
        break;
    case FE_SEC_MY:
        axis = y, rot = 1;
        break;
    default:
        axis = x, rot = 1;
        break; /* T */
    }
    if (per == 3) { /* ux uy rz */
        if (rot)
            row[2] = code == FE_SEC_MZ ? axis[2] : 0.0;
        else
            row[0] = axis[0], row[1] = axis[1];
        return;
    }
    for (int c = 0; c < 3; c++) row[3 * rot + c] = axis[c];
}

int hs_fe_add_zero_length_section(hs_fe *fe, const char *name, int ni, int nj,
                                  const hs_fe_section_def *sec, const double *x, const double *yp)
{
    const char *nm = name ? name : "?";
    if (!(fe->ndm == 2 && fe->ndf == 3) && !(fe->ndm == 3 && fe->ndf == 6))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': zeroLengthSection needs ndm 2 with ndf 3, or ndm 3 with "
                       "ndf 6; this model has ndm %d, ndf %d",
                       nm, fe->ndm, fe->ndf);
    const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0};
    const double *vx = x ? x : X, *vy = yp ? yp : Y;
    double R[9], z[3] = {vx[1] * vy[2] - vx[2] * vy[1], vx[2] * vy[0] - vx[0] * vy[2],
                         vx[0] * vy[1] - vx[1] * vy[0]};
    const double nz = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]),
                 nx = sqrt(vx[0] * vx[0] + vx[1] * vx[1] + vx[2] * vx[2]);
    if (!(nz > 1e-12 * nx) || !(nx > 0.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': -orient x (%g, %g, %g) and yp (%g, %g, %g) must be nonzero "
                       "and not parallel",
                       nm, vx[0], vx[1], vx[2], vy[0], vy[1], vy[2]);
    for (int c = 0; c < 3; c++) R[c] = vx[c] / nx, R[6 + c] = z[c] / nz;
    R[3] = R[7] * R[2] - R[8] * R[1]; /* y = z x x */
    R[4] = R[8] * R[0] - R[6] * R[2];
    R[5] = R[6] * R[1] - R[7] * R[0];
    int rc;
    fe_element *e = fe_new_element(fe, name, ni, nj, &rc);
    if (!e) return rc;
    fe_section *s = NULL;
    rc = fe_section_make(sec, &s);
    if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
    e->kind = FE_ZERO_LENGTH_SECTION;
    e->sec = s;
    memcpy(e->R, R, sizeof R);
    return fe->nels++;
}

int fe_zls_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u, int initial,
                 double *f, double *k)
{
    fe_section *s = e->sec;
    const int per = fe->ndm == 3 ? 6 : 3, nde = 2 * per, n = s->order;
    double A[FE_SEC_MAX][6], d[6] = {0}, ks[FE_SEC_MAX * FE_SEC_MAX], sr[FE_SEC_MAX] = {0};
    for (int c = 0; !initial && c < per; c++)
        d[c] = fe_map_value(maps[per + c], u) - fe_map_value(maps[c], u);
    double def[FE_SEC_MAX];
    for (int r = 0; r < n; r++) {
        a_row(fe, e->R, s->code[r], A[r]);
        def[r] = 0.0;
        for (int c = 0; c < per; c++) def[r] += A[r][c] * d[c];
    }
    if (initial) {
        fe_section_initial_tangent(s, ks);
    } else {
        const int rc = fe_section_set_trial(s, def);
        if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
        memcpy(ks, s->ks, (size_t)(n * n) * sizeof *ks);
        memcpy(sr, s->s, (size_t)n * sizeof *sr);
    }
    if (f && !initial)
        for (int c = 0; c < per; c++) {
            double v = 0.0;
            for (int r = 0; r < n; r++) v += A[r][c] * sr[r];
            f[c] = -v;
            f[per + c] = v;
        }
    if (!k) return 0;
    for (int a = 0; a < per; a++)
        for (int b = 0; b < per; b++) {
            double v = 0.0;
            for (int r = 0; r < n; r++)
                for (int m = 0; m < n; m++) v += A[r][a] * ks[r * n + m] * A[m][b];
            k[(size_t)b * (size_t)nde + (size_t)a] = v; /* column-major */
            k[(size_t)(per + b) * (size_t)nde + (size_t)(per + a)] = v;
            k[(size_t)(per + b) * (size_t)nde + (size_t)a] = -v;
            k[(size_t)b * (size_t)nde + (size_t)(per + a)] = -v;
        }
    return 0;
}

int fe_zls_commit(fe_element *e)
{
    return fe_section_commit(e->sec);
}

int fe_zls_revert(fe_element *e)
{
    return fe_section_revert(e->sec);
}

size_t fe_zls_state_size(const fe_element *e)
{
    return fe_section_state_size(e->sec);
}

int fe_zls_state_save(const fe_element *e, double *out)
{
    return fe_section_state_save(e->sec, out);
}

int fe_zls_state_load(fe_element *e, const double *in)
{
    const int rc = fe_section_state_load(e->sec, in);
    return rc ? rc : fe_section_set_trial(e->sec, e->sec->e_commit);
}

void fe_zls_free(fe_element *e)
{
    fe_section_destroy(&e->sec);
}
